"""The WebSocket of a seat: ``/ws/tables/{table_id}?token=…`` (docs/protocol.md).

Every refused frame — too large, not JSON, unknown type, bad fields, another seat, out of
turn, illegal, too many — is answered with one ``error`` frame to its sender only; the
table is unchanged and the connection stays open.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from cardavia.server.clients import CLOSE_POLICY, Client
from cardavia.server.messages import (
    CLIENT_MESSAGE,
    CLIENT_TYPES,
    MAX_MESSAGE_BYTES,
    PEOPLE_TYPES,
    CloseRequest,
    ErrorMessage,
    HintRequest,
    InviteRequest,
    NextDealRequest,
    PassRequest,
    PlayRequest,
    ReactRequest,
    ResignRequest,
    RestartRequest,
    ReturnRequest,
    RevokeRequest,
    SetPaceRequest,
    StartRequest,
)
from cardavia.server.people import SPECTATOR
from cardavia.server.registry import Registry, TableUnavailable
from cardavia.server.rooms import CommitFailed, Room
from cardavia.table import Action, ActionError, NextDeal, Pass, Play, Resign, Restart, ReturnCard

log = logging.getLogger("cardavia.server")

router = APIRouter()

CLOSE_AUTH = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_SERVER_ERROR = 1011
#: Frames a connection may send on, unanswered, after ``rate_limited`` before it is closed.
FLOOD_FRAMES = 100


#: A frame that is not a valid client message: the table's one ``(code, message)`` error.
BadMessage = ActionError


def parse_frame(text: str) -> Any:
    """The validated client message of one text frame (raises :class:`BadMessage`)."""
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise BadMessage("too_large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("bad_message", "the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadMessage("bad_message", "a message must be a JSON object with a \"type\"")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        names = ", ".join(CLIENT_TYPES)
        raise BadMessage("bad_message", f"unknown message type {kind!r}; types are {names}")
    try:
        return CLIENT_MESSAGE.validate_python(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise BadMessage("bad_message", f"bad {kind} message: {where}: {first['msg']}") from None


def to_action(message: Any) -> Action | None:
    """The table action of a client message (None for a hint request)."""
    if isinstance(message, PlayRequest):
        interp = message.interpretation
        return Play(
            tuple(message.cards),
            None if interp is None else interp.type,
            None if interp is None else interp.rank,
        )
    if isinstance(message, PassRequest):
        return Pass()
    if isinstance(message, ReturnRequest):
        return ReturnCard(message.card)
    if isinstance(message, NextDealRequest):
        return NextDeal()
    if isinstance(message, RestartRequest):
        return Restart()
    if isinstance(message, ResignRequest):
        return Resign()
    assert isinstance(message, HintRequest)
    return None


async def _refuse(ws: WebSocket, code: str, message: str, close_code: int) -> None:
    await ws.send_text(ErrorMessage(code=code, message=message).model_dump_json(exclude_none=True))
    await ws.close(close_code)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str, token: str | None = None) -> None:
    """One seat's live connection to a table."""
    await ws.accept()
    registry: Registry = ws.app.state.registry
    try:
        room = await registry.get(table_id)
    except TableUnavailable as err:
        await _refuse(ws, "server_error", str(err), CLOSE_SERVER_ERROR)
        return
    if room is None:
        await _refuse(ws, "not_found", f"there is no table {table_id!r}", CLOSE_NOT_FOUND)
        return
    seat = room.seat_for_token(token)
    legacy = seat == SPECTATOR  # the spectator link's code itself (tables from before)
    if seat is None and room.people is not None and await room.people.is_watching(token):
        seat = SPECTATOR  # a spectator's own token
    if seat is None:
        registry.release(room)
        reason = "a token is required" if not token else "the token is not valid for this table"
        await _refuse(ws, "auth", reason, CLOSE_AUTH)
        return
    client = Client(ws, seat, room.limits)
    if not await room.join(client):
        registry.release(room)
        await client.finish()
        who = "the table's spectators" if seat == SPECTATOR else f"seat {seat}"
        await _refuse(
            ws, "rate_limited",
            f"{who} already have the most connections at once; close a tab", CLOSE_POLICY,
        )
        return
    if legacy and room.people is not None:
        room.people.legacy.add(client)
    try:
        await _serve(ws, room, client)
    except (WebSocketDisconnect, CommitFailed):
        pass
    finally:
        if room.people is not None:
            room.people.legacy.discard(client)
        room.leave(client)
        await client.finish()
        registry.release(room)


async def _people_message(room: Room, client: Client, message: Any) -> None:
    """The messages of tables with friends: reactions and the creator's requests."""
    people = room.people
    if people is None:
        client.send_error("not_allowed", f"{message.type!r} is for tables with friends only")
        return
    if client.seat == SPECTATOR and not isinstance(message, ReactRequest):
        client.send_error("not_allowed", "spectators watch the table; they cannot act")
        return
    if isinstance(message, ReactRequest):
        people.react(client, message.reaction)
    elif isinstance(message, StartRequest):
        await people.start(client)
    elif isinstance(message, InviteRequest):
        await people.invite(client, message.target)
    elif isinstance(message, RevokeRequest):
        await people.revoke(client, message.target)
    else:
        assert isinstance(message, CloseRequest)
        await people.close(client)


async def _serve(ws: WebSocket, room: Room, client: Client) -> None:
    while True:
        frame = await ws.receive()
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text")
        if not client.limiter.allow():
            client.refused_in_a_row += 1
            if client.refused_in_a_row == 1:
                client.send_error("rate_limited", "too many messages; slow down and try again")
            elif client.refused_in_a_row > FLOOD_FRAMES:  # it does not slow down: a flood
                client.send_error("rate_limited", "too many messages; the connection is closed")
                client.close(CLOSE_POLICY)
                return
            continue  # (one answer per flood, not one per frame)
        client.refused_in_a_row = 0
        if text is None:
            client.send_error("bad_message", "send JSON text frames, not binary ones")
            continue
        try:
            message = parse_frame(text)
        except BadMessage as err:
            client.send_error(err.code, err.message)
            continue
        if message.seat is not None and message.seat != client.seat:
            client.send_error(
                "not_allowed",
                f"this connection acts for seat {client.seat} only, not seat {message.seat}",
            )
            continue
        if message.type in PEOPLE_TYPES:
            await _people_message(room, client, message)
            continue
        if client.seat == SPECTATOR:
            client.send_error("not_allowed", "spectators watch the table; they cannot act")
            continue
        if isinstance(message, SetPaceRequest):
            room.set_pace(message.speed)
            client.limiter.refund()
            continue
        action = to_action(message)
        if action is None:
            await room.hint(client)
        elif await room.act(client, action) and not isinstance(action, Restart):
            client.limiter.refund()  # the game paces these (restarts: Room's own limit)
