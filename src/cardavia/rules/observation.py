"""Observations: the only way out of the engine for a seat, and what a seat may see.

An observation holds the seat's own hand, every seat's card count and the public
history — never another seat's cards. The server sends ``observation(...).to_json()``
to a browser; agents receive the :class:`Observation` itself.

>>> from cardavia.rules.guandan.match import GuandanMatch
>>> deal = GuandanMatch(seed=3).start_deal()
>>> obs = observation(deal, 0)
>>> len(obs.hand), obs.hand_sizes
(27, (27, 27, 27, 27))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardavia.cards import Card, Rank, card_strings
from cardavia.rules.combo import Combo

if TYPE_CHECKING:  # the deal imports this module for its own observation()
    from cardavia.rules.trick import TrickDeal

#: One entry of the public history: (seat, combo), or (seat, None) for a pass.
HistoryEntry = tuple[int, Combo | None]


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat may know about a deal in progress."""

    game: str
    seat: int
    n_seats: int
    phase: str  # "tribute" | "play" | "over"
    deal_index: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    turn: int | None
    first_leader: int | None
    top: Combo | None
    top_seat: int | None
    trick: tuple[HistoryEntry, ...]
    history: tuple[HistoryEntry, ...]
    places: tuple[int, ...]
    played_any: tuple[bool, ...]
    can_pass: bool
    level: int | None = None
    team_levels: tuple[int, int] | None = None
    opening: bool = False
    must_include: Card | None = None
    tributes: tuple[tuple[int, int, Card], ...] = ()
    tribute_cancelled: bool = False
    pending_returns: tuple[tuple[int, int], ...] = ()  # (recipient, payer)
    return_options: tuple[Card, ...] = ()
    my_returns: tuple[tuple[int, int, Card], ...] = ()  # returns this seat gave or received
    result: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: on the seat's own turn over a trick: whether anything in its hand beats it (else None)
    has_reply: bool | None = None

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat and self.phase == "play"

    def to_json(self) -> dict[str, Any]:
        """The JSON form sent over the wire (docs/protocol.md)."""

        return {
            "game": self.game,
            "seat": self.seat,
            "n_seats": self.n_seats,
            "phase": self.phase,
            "deal_index": self.deal_index,
            "hand": card_strings(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "turn": self.turn,
            "first_leader": self.first_leader,
            "top": None if self.top is None else self.top.to_json(),
            "top_seat": self.top_seat,
            "trick": [history_entry_json(s, c) for s, c in self.trick],
            "history": [history_entry_json(s, c) for s, c in self.history],
            "places": list(self.places),
            "played_any": list(self.played_any),
            "can_pass": self.can_pass,
            "level": None if self.level is None else Rank(self.level).symbol,
            "team_levels": None
            if self.team_levels is None
            else [Rank(x).symbol for x in self.team_levels],
            "opening": self.opening,
            "must_include": None if self.must_include is None else str(self.must_include),
            "tributes": [{"from": g, "to": r, "card": str(c)} for g, r, c in self.tributes],
            "tribute_cancelled": self.tribute_cancelled,
            "pending_returns": [{"from": r, "to": p} for r, p in self.pending_returns],
            "return_options": card_strings(self.return_options),
            "my_returns": [{"from": g, "to": r, "card": str(c)} for g, r, c in self.my_returns],
            "result": self.result,
            "has_reply": self.has_reply,
            **({"extra": self.extra} if self.extra else {}),
        }


def observation(deal: TrickDeal, seat: int, *, history: bool = True, reply: bool = False) -> Observation:
    """The view of ``deal`` for ``seat``: own hand, counts and public history only; the
    game adds its own public fields (:meth:`TrickDeal.public_fields`).

    ``history=False`` leaves the (public, ever-growing) history empty, for a caller that
    keeps it apart (the server sends it once per deal, not once per seat and frame).
    ``reply=True`` fills :attr:`Observation.has_reply` (a move generation: the table's
    frames ask for it, agents that generate their own moves need not)."""
    return Observation(
        game=deal.game,
        seat=seat,
        n_seats=deal.n_seats,
        phase=deal.phase,
        deal_index=deal.deal_index,
        hand=tuple(deal.hand(seat)),
        hand_sizes=tuple(deal.size),
        turn=deal.turn,
        first_leader=deal.first_leader,
        top=deal.top,
        top_seat=deal.top_seat,
        trick=tuple(deal.trick) if deal.top is not None else (),
        history=tuple(deal.plays) if history else (),
        places=tuple(deal.places),
        played_any=tuple(deal.played_any),
        can_pass=deal.can_pass(seat),
        has_reply=deal.has_reply(seat) if reply and deal.can_follow(seat) else None,
        result=deal.result,
        **deal.public_fields(seat),
    )


def history_entry_json(seat: int, combo: Combo | None) -> dict[str, Any]:
    """One public history entry's JSON (a play, or a pass): the one form used by
    observations, table frames and game records (docs/cli.md ``actions``).

    >>> history_entry_json(2, None)
    {'seat': 2, 'pass': True}
    """
    if combo is None:
        return {"seat": seat, "pass": True}
    return {"seat": seat, "cards": card_strings(combo.cards), "combo": combo.to_json()}


def public_event(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A logged event's JSON as ``seat`` may see it (``None``: a spectator).

    ``deal_started`` keeps only the seat's own hand (others are ``null``) and drops the
    deal's seed (it would give away every hand); a ``returned`` card is shown only to its
    giver and receiver (G-3.5). Other events are public.

    >>> public_event({"event": "returned", "from": 0, "to": 3, "card": "5s"}, 1)["card"] is None
    True
    """
    kind = event.get("event")
    if kind == "deal_started":
        hands = event.get("hands") or []
        return {
            **event,
            "seed": None,
            "hands": [h if i == seat else None for i, h in enumerate(hands)],
            "hand_sizes": [len(h) for h in hands],
        }
    if kind == "returned" and seat not in (event.get("from"), event.get("to")):
        return {**event, "card": None}
    return event


#: The old name of :data:`HistoryEntry`.
Action = HistoryEntry

__all__ = [
    "Action",
    "HistoryEntry",
    "Observation",
    "history_entry_json",
    "observation",
    "public_event",
]
