"""The HTTP side of tables with friends (docs/protocol.md, "Tables with friends"): creating
one, opening an invite or spectator link, and who may read a table's finished hands."""

from __future__ import annotations

import hmac
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.exceptions import RequestValidationError

from cardavia.server.limits import TokenBucket
from cardavia.server.messages import (
    CreateTableRequest,
    CreateTableResponse,
    ErrorBody,
    InviteLink,
    JoinRequest,
    JoinResponse,
    WatchResponse,
)
from cardavia.server.people import (
    SPECTATOR,
    NameRefused,
    PeopleSettings,
    ai_name,
    clean_name,
    friends_of,
    new_code,
)
from cardavia.server.people_store import OPEN, REVOKED, TOKEN_STATES, stored_seats
from cardavia.server.registry import NEW_TABLE_HOLD_SECONDS, TRACKED_CLIENTS, LimitReached, Registry
from cardavia.server.rooms import token_hash
from cardavia.table import AI, PERSON, SeatConfig, TableConfig

router = APIRouter(prefix="/api", tags=["friends"])

#: The header a browser sends its seat (or spectator) token in to read a table with
#: friends' finished hands.
TOKEN_HEADER = "x-cardavia-token"

_LINK: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "no such link"},
    410: {"model": ErrorBody, "description": "the link was used or revoked"},
    422: {"description": "a bad body or name"},
    429: {"model": ErrorBody, "description": "too many link attempts from this client"},
}


def _registry(request: Request) -> Registry:
    registry: Registry = request.app.state.registry
    return registry


def _name_error(sentence: str) -> RequestValidationError:
    return RequestValidationError([{"loc": ("body", "name"), "msg": sentence, "type": "name"}])


def checked_name(raw: str | None) -> str:
    """A display name as shown, or a 422 whose message is the refusal's sentence."""
    if raw is None:
        raise _name_error("a table with friends needs your name (\"name\")")
    try:
        return clean_name(raw)
    except NameRefused as err:
        raise _name_error(str(err)) from None


def _check_link_rate(request: Request) -> None:
    """Link attempts per client address (guessing codes is slow): 429 over the limit."""
    client = request.client.host if request.client is not None else "?"
    limits = request.app.state.limits
    buckets: OrderedDict[str, TokenBucket] | None = getattr(request.app.state, "link_buckets", None)
    if buckets is None:
        buckets = request.app.state.link_buckets = OrderedDict()
    bucket = buckets.get(client)
    if bucket is None:
        bucket = buckets[client] = TokenBucket(limits.join_rate, limits.join_burst)
        while len(buckets) > TRACKED_CLIENTS:
            buckets.popitem(last=False)
    buckets.move_to_end(client)
    if not bucket.allow():
        wait = max(1, round(bucket.wait_seconds()))
        raise LimitReached(f"too many link attempts; wait {wait} s and try again")


async def create_friends_table(body: CreateTableRequest, request: Request, seed: int) -> CreateTableResponse:
    """``POST /api/tables`` with ``seats``: the creator in seat 0, a link per other person
    seat, a spectator link when spectators are allowed."""
    registry = _registry(request)
    assert body.seats is not None
    name = checked_name(body.name)
    game_seats = TableConfig.preset(body.game, 0).rules.seats
    if len(body.seats) != game_seats:
        raise RequestValidationError([{"loc": ("body", "seats"), "type": "seats",
                                       "msg": f"{body.game} has {game_seats} seats, not {len(body.seats)}"}])
    if body.seats[0] != PERSON:
        raise RequestValidationError([{"loc": ("body", "seats", 0), "type": "seats",
                                       "msg": "seat 0 is the creator's: it must be \"person\""}])
    seats = [SeatConfig(0, PERSON, None, name)]
    for s, choice in enumerate(body.seats[1:], start=1):
        seats.append(SeatConfig(s, PERSON, None, "") if choice == PERSON else SeatConfig(s, AI, choice, ai_name(s)))
    config = TableConfig(body.game, seed, tuple(seats))
    watch = new_code() if body.spectators != "off" else None
    settings = PeopleSettings(
        difficulty=body.difficulty, grace=body.grace_seconds, turn_timer=body.turn_timer,
        spectators=body.spectators, creator=0,
        watch_hash=None if watch is None else token_hash(watch), spectator_tokens=True,
    )
    client = request.client.host if request.client is not None else None
    table_id, token, _ = await registry.create(config, client, friends=settings)
    store = registry.people_db.store
    invites: list[InviteLink] = []
    for s in config.person_seats[1:]:
        code = new_code()
        await registry.db(store.add_invite, token_hash(code), table_id, s)
        invites.append(InviteLink(seat=s, code=code, url=f"/join/{code}"))
    if watch is not None:
        await registry.db(store.add_invite, token_hash(watch), table_id, None)
    return CreateTableResponse(
        table_id=table_id, seat=0, token=token, game=body.game, invites=invites, watch=watch
    )


async def _open_link(request: Request, code: str, *, seat_link: bool) -> tuple[str, int | None, str]:
    """(table id, seat, code hash) of an open link, else 404/410 with a sentence."""
    _check_link_rate(request)
    registry = _registry(request)
    if not 16 <= len(code) <= 64:
        raise HTTPException(status_code=404, detail="there is no such link")
    digest = token_hash(code)
    invite = await registry.db(registry.people_db.store.find, digest)
    if invite is None or (invite.seat is not None) != seat_link or invite.state in TOKEN_STATES:
        raise HTTPException(status_code=404, detail="there is no such link")
    if invite.state != OPEN:
        why = "was revoked by the table's creator" if invite.state == REVOKED else "has been used already"
        raise HTTPException(status_code=410, detail=f"this link {why}; ask for a new one")
    return invite.table_id, invite.seat, digest


@router.get("/join/{code}", responses=_LINK)
async def join_info(code: str, request: Request) -> dict[str, Any]:
    """What an open invite link offers (no state changes): the game, the seat, the names."""
    table_id, seat, _ = await _open_link(request, code, seat_link=True)
    registry = _registry(request)
    room = await registry.get(table_id)
    if room is None or room.people is None:
        raise HTTPException(status_code=404, detail="there is no such link")
    try:
        config = room.table.config
        return {
            "game": config.game,
            "seat": seat,
            "creator": room.people.name(room.people.settings.creator),
            "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name,
                       "state": room.people.seat_state(s.seat)} for s in config.seats],
        }
    finally:
        registry.release(room)


@router.post("/join/{code}", response_model=JoinResponse, responses=_LINK)
async def join(code: str, body: JoinRequest, request: Request) -> JoinResponse:
    """Claim the seat of an invite link (single use): that browser's own seat token."""
    table_id, seat, digest = await _open_link(request, code, seat_link=True)
    name = checked_name(body.name)
    assert seat is not None
    registry = _registry(request)
    room = await registry.get(table_id)
    if room is None or room.people is None:
        raise HTTPException(status_code=404, detail="there is no such link")
    try:
        token = await room.people.claim(digest, seat, name)
        if token is None:
            raise HTTPException(status_code=410, detail="this seat is no longer open; ask for a new link")
        room.hold(NEW_TABLE_HOLD_SECONDS)
        return JoinResponse(table_id=table_id, seat=seat, token=token, game=room.table.game)
    finally:
        registry.release(room)


@router.post("/watch/{code}", response_model=WatchResponse, responses=_LINK)
async def watch(code: str, request: Request) -> WatchResponse:
    """Open a spectator link: a token of the spectator's own (stored as its hash), good for
    watching this table only; it outlives the link (the creator ends it with ``revoke``
    ``"spectators"``)."""
    table_id, _, digest = await _open_link(request, code, seat_link=False)
    registry = _registry(request)
    room = await registry.get(table_id)
    people = None if room is None else room.people
    watch_hash = None if people is None else people.settings.watch_hash
    try:
        if people is None or watch_hash is None or not hmac.compare_digest(watch_hash, digest):
            raise HTTPException(status_code=410, detail="this link was revoked by the table's creator")
        token = await people.admit_watcher()
        return WatchResponse(table_id=table_id, token=token, game=people.config().game)
    finally:
        if room is not None:
            registry.release(room)


async def check_record(request: Request, table_id: str) -> None:
    """A table with friends shows its finished hands only to its seats (and to spectators
    when the creator allows it): 403 otherwise. Solo tables are unchanged (open)."""
    registry = _registry(request)
    room = registry.rooms.get(table_id)
    token = request.headers.get(TOKEN_HEADER)
    if room is not None and not room.broken:
        if room.people is None:
            return
        seat = room.seat_for_token(token)
        if seat is None and await room.people.is_watching(token):
            seat = SPECTATOR
        if room.people.may_read_record(seat):
            return
    else:
        if not 8 <= len(table_id) <= 64:
            return  # the record route answers 404
        stored = await registry.db(stored_seats, registry.store, table_id)
        if stored is None:
            return
        settings = friends_of(stored[0])
        if settings is None:
            return
        seat = await _stored_viewer(registry, table_id, settings, stored[1], token)
        if seat is not None and (seat != SPECTATOR or settings.spectators == "hands"):
            return
    raise HTTPException(
        status_code=403,
        detail="the hands of this table are shown to its players only (send your token in "
        "the X-Cardavia-Token header)",
    )


async def _stored_viewer(
    registry: Registry, table_id: str, settings: PeopleSettings, hashes: dict[int, str],
    token: str | None,
) -> int | None:
    """The seat (or SPECTATOR) a token holds at a table not in memory, or None."""
    if not token or len(token) > 256:
        return None
    digest = token_hash(token)
    seat: int | None = None
    for s, h in hashes.items():
        if hmac.compare_digest(h, digest):
            seat = s
    if seat is not None or settings.spectators == "off":
        return seat
    legacy = settings.watch_hash if not settings.spectator_tokens else None
    if legacy is not None and hmac.compare_digest(legacy, digest):
        return SPECTATOR
    if await registry.db(registry.people_db.store.is_watcher, digest, table_id):
        return SPECTATOR
    return None
