"""Typed messages of the play protocol (docs/protocol.md): HTTP bodies and WebSocket frames.

Client frames are validated with :data:`CLIENT_MESSAGE`; the server's frames are the
``*Message`` models, so FastAPI's OpenAPI schema documents them all. (The ``state`` frames,
one per event per seat, are written without building the model each time, byte for byte
as :class:`StateMessage` writes them: see :mod:`cardavia.server.rooms`.)
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, field_validator

from cardavia.ai.difficulty import AI_LEVELS
from cardavia.rules.combo import ComboType
from cardavia.rules.games import GameName


def _ai_level(name: str) -> str:
    """An AI level a table accepts: the built-in ones or a learned agent (``serve --agent``)."""
    if name not in AI_LEVELS:
        raise ValueError(f"unknown difficulty {name!r}; choose one of {', '.join(AI_LEVELS)}")
    return name


#: "random": tests, load, research; learned agents registered by ``serve --agent`` (issue 16)
Difficulty = Annotated[str, AfterValidator(_ai_level)]
CardText = Annotated[str, StringConstraints(min_length=1, max_length=4)]

#: WebSocket frames larger than this are refused with ``too_large``.
MAX_MESSAGE_BYTES = 8 * 1024
#: Every error code the server sends (docs/protocol.md).
ERROR_CODES: tuple[str, ...] = (
    "auth",
    "not_found",
    "bad_message",
    "not_your_turn",
    "illegal",
    "ambiguous",
    "not_allowed",
    "rate_limited",
    "too_large",
    "server_error",
)


# ---------------------------------------------------------------------------- HTTP


def _seat_choice(name: str) -> str:
    """A seat of a table with friends: ``person`` or an AI level."""
    if name != "person" and name not in AI_LEVELS:
        raise ValueError(f"a seat is \"person\" or an AI level ({', '.join(AI_LEVELS)}), not {name!r}")
    return name


SeatChoice = Annotated[str, StringConstraints(max_length=32), AfterValidator(_seat_choice)]
#: A display name as typed (it is trimmed and checked by cardavia.server.people.clean_name).
NameText = Annotated[str, StringConstraints(max_length=200)]


class CreateTableRequest(BaseModel):
    """``POST /api/tables``: the game, the opponents' level, the partner's level, a seed;
    for a table with friends the seats (``person`` or an AI level each; seat 0 is the
    creator's), the creator's name, the grace period, the turn timer and the spectators."""

    model_config = ConfigDict(extra="forbid")

    game: GameName
    difficulty: Difficulty = "normal"
    partner: Difficulty = "expert"
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    seats: list[SeatChoice] | None = Field(default=None, min_length=2, max_length=8)
    name: NameText | None = None
    grace_seconds: float = Field(default=60.0, ge=1.0, le=600.0)
    turn_timer: Literal[0, 15, 30, 60] = 0
    spectators: Literal["off", "public", "hands"] = "off"


class InviteLink(BaseModel):
    """A person seat's invite link (single use): open ``/join/{code}``."""

    seat: int
    code: str
    url: str


class CreateTableResponse(BaseModel):
    table_id: str
    seat: int
    token: str
    game: GameName
    #: A table with friends: one link per other person seat, and the spectator link.
    invites: list[InviteLink] = Field(default_factory=list)
    watch: str | None = None


class JoinRequest(BaseModel):
    """``POST /api/join/{code}``: the joining person's display name."""

    model_config = ConfigDict(extra="forbid")

    name: NameText


class JoinResponse(BaseModel):
    table_id: str
    seat: int
    token: str
    game: GameName


class WatchResponse(BaseModel):
    """``POST /api/watch/{code}``: the spectator's own token (a new one for each call)."""

    table_id: str
    token: str
    game: GameName


class SeatInfo(BaseModel):
    seat: int
    kind: Literal["person", "ai"]
    difficulty: str | None = None
    name: str = ""


class TableSummary(BaseModel):
    """``GET /api/tables/{id}``: public facts only, never cards."""

    table_id: str
    game: GameName
    phase: Literal["tribute", "play", "over", "closed"]
    deal_index: int
    seq: int
    seats: list[SeatInfo]
    match: dict[str, Any]


class RecordResponse(BaseModel):
    """``GET /api/tables/{id}/record``: the cli.md game record of each finished deal."""

    table_id: str
    game: GameName
    deals: list[dict[str, Any]]


class Health(BaseModel):
    ok: bool = True


class ErrorBody(BaseModel):
    detail: str


# ---------------------------------------------------------------------------- client → server


class _ClientFrame(BaseModel):
    """Fields every client frame may carry: ``seat``, when given, must be the connection's."""

    model_config = ConfigDict(extra="ignore")

    seat: int | None = None


class Interpretation(BaseModel):
    """The chosen reading of an ambiguous play (G-5.6): a combo type and, if needed, a rank."""

    model_config = ConfigDict(extra="ignore")

    type: Annotated[str, StringConstraints(min_length=1, max_length=24)]
    rank: Annotated[str, StringConstraints(min_length=1, max_length=3)] | None = None

    @field_validator("type")
    @classmethod
    def _known_type(cls, value: str) -> str:
        ComboType.parse(value)  # ValueError: an unknown type (refused as bad_message)
        return value


class PlayRequest(_ClientFrame):
    type: Literal["play"]
    cards: list[CardText] = Field(min_length=1, max_length=40)
    interpretation: Interpretation | None = None


class PassRequest(_ClientFrame):
    type: Literal["pass"]


class ReturnRequest(_ClientFrame):
    type: Literal["return"]
    card: CardText


class HintRequest(_ClientFrame):
    type: Literal["hint"]


class NextDealRequest(_ClientFrame):
    type: Literal["next_deal"]


class RestartRequest(_ClientFrame):
    type: Literal["restart"]


class ResignRequest(_ClientFrame):
    type: Literal["resign"]


#: AI pace of the page's speed setting: a factor on the server's pacing (0 = no pause).
PACE_FACTORS: dict[str, float] = {"slow": 2.0, "normal": 1.0, "fast": 0.35, "instant": 0.0}


class SetPaceRequest(_ClientFrame):
    type: Literal["set_pace"]
    speed: Literal["slow", "normal", "fast", "instant"]


#: The quick reactions of a table with friends (the page shows them translated).
Reaction = Literal["nice", "sorry", "thanks", "hurry"]
#: What the creator's ``invite``/``revoke`` acts on: a seat, or the spectator link.
Target = Annotated[int, Field(ge=0, le=7)] | Literal["watch"]


class ReactRequest(_ClientFrame):
    type: Literal["react"]
    reaction: Reaction


class StartRequest(_ClientFrame):
    type: Literal["start"]


class InviteRequest(_ClientFrame):
    type: Literal["invite"]
    target: Target


class RevokeRequest(_ClientFrame):
    type: Literal["revoke"]
    target: Target | Literal["spectators"]  # "spectators": end everyone watching


class CloseRequest(_ClientFrame):
    type: Literal["close"]


ClientMessage = Annotated[
    PlayRequest
    | PassRequest
    | ReturnRequest
    | HintRequest
    | NextDealRequest
    | RestartRequest
    | ResignRequest
    | SetPaceRequest
    | ReactRequest
    | StartRequest
    | InviteRequest
    | RevokeRequest
    | CloseRequest,
    Field(discriminator="type"),
]
CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
CLIENT_TYPES: tuple[str, ...] = (
    "play", "pass", "return", "hint", "next_deal", "restart", "resign", "set_pace",
    "react", "start", "invite", "revoke", "close",
)
#: The client messages of tables with friends only.
PEOPLE_TYPES: tuple[str, ...] = ("react", "start", "invite", "revoke", "close")


# ---------------------------------------------------------------------------- server → client


class StateMessage(BaseModel):
    """The seat's view after an event (``event`` is null on connect)."""

    type: Literal["state"] = "state"
    table_id: str
    seq: int
    observation: dict[str, Any]
    event: dict[str, Any] | None
    match: dict[str, Any]
    seats: list[SeatInfo]
    phase: Literal["tribute", "play", "over", "closed"]
    #: on (re)connect only (``event`` null): each AI seat's latest public reason of the
    #: current deal, ``{"seat", "seq", "pass", "combo", "reason": {"key", "args"}}``
    reasons: list[dict[str, Any]] | None = None


class ErrorMessage(BaseModel):
    """A refused message: only its sender gets this, and nothing changed."""

    type: Literal["error"] = "error"
    code: str
    message: str
    options: list[dict[str, Any]] | None = None


class HintMessage(BaseModel):
    """The strongest agent's suggestion: cards to play (or return), or a pass."""

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)

    type: Literal["hint"] = "hint"
    cards: list[str] | None
    combo: dict[str, Any] | None
    pass_: bool = Field(alias="pass")
    reason: str
    reason_key: str = ""
    reason_args: dict[str, Any] = Field(default_factory=dict)


ServerMessage = Annotated[StateMessage | ErrorMessage | HintMessage, Field(discriminator="type")]
