"""The HTTP API (docs/protocol.md): create a table, its public summary, its game record."""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi import APIRouter, HTTPException, Request

from cardavia.server.messages import (
    CreateTableRequest,
    CreateTableResponse,
    ErrorBody,
    Health,
    RecordResponse,
    SeatInfo,
    TableSummary,
)
from cardavia.server.registry import Registry
from cardavia.table import Table, TableConfig

router = APIRouter(prefix="/api", tags=["api"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "no such table"},
    503: {"model": ErrorBody, "description": "the table or the database cannot be read now"},
}
_CREATE: dict[int | str, dict[str, Any]] = {
    422: {"description": "a bad body, or a seed where the server does not take them"},
    429: {"model": ErrorBody, "description": "too many tables from this client"},
    503: {"model": ErrorBody, "description": "the database cannot store the table now"},
}


def registry_of(request: Request) -> Registry:
    registry: Registry = request.app.state.registry
    return registry


@router.post("/tables", response_model=CreateTableResponse, responses=_CREATE)
async def create_table(body: CreateTableRequest, request: Request) -> CreateTableResponse:
    """Open a table: the person sits in seat 0; keep the token to act for that seat.
    With ``seats``: a table with friends (docs/protocol.md), answered with an invite link
    per other person seat.

    ``seed`` is taken only by a server started with ``--allow-seeds`` (tests, research):
    whoever knows a table's seed can work out every hand."""
    registry = registry_of(request)
    if body.seed is not None and not request.app.state.allow_seeds:
        raise HTTPException(
            status_code=422,
            detail="this server chooses the seeds itself (a known seed gives away every "
            "hand); leave \"seed\" out, or start the server with --allow-seeds",
        )
    seed = await registry.new_seed() if body.seed is None else body.seed
    if body.seats is not None:  # a table with friends (server/people_api.py)
        from cardavia.server.people_api import create_friends_table

        return await create_friends_table(body, request, seed)
    config = TableConfig.preset(body.game, seed, body.difficulty, body.partner)
    client = request.client.host if request.client is not None else None
    table_id, token, _ = await registry.create(config, client)
    seat = config.person_seats[0]
    return CreateTableResponse(table_id=table_id, seat=seat, token=token, game=body.game)


def _summary(table_id: str, table: Table) -> TableSummary:
    return TableSummary(
        table_id=table_id,
        game=table.game,
        phase=table.phase,
        deal_index=table.deal.deal_index,
        seq=table.seq,
        seats=[SeatInfo(**s) for s in table.seats_json()],
        match=table.match_json(),
    )


@router.get("/tables/{table_id}", response_model=TableSummary, responses=_NOT_FOUND)
async def table_summary(table_id: str, request: Request) -> TableSummary:
    """Public facts about a table (no cards). A table not in memory is not loaded for
    this: its summary is folded once and kept until its log grows."""
    registry = registry_of(request)
    room = registry.rooms.get(table_id)
    if room is not None and not room.broken:
        async with room.lock:
            return _summary(table_id, room.table)
    summary = await registry.cached(table_id, "summary", partial(_summary, table_id))
    if summary is None:
        raise HTTPException(status_code=404, detail=f"there is no table {table_id!r}")
    return summary


@router.get("/tables/{table_id}/record", response_model=RecordResponse, responses=_NOT_FOUND)
async def table_record(table_id: str, request: Request) -> RecordResponse:
    """The game record (cli.md) of every finished deal of the table. A table with friends
    shows it to its seats only (and to spectators when its creator allows it): send the
    token in ``X-Cardavia-Token``."""
    from cardavia.server.people_api import check_record

    await check_record(request, table_id)
    found = await registry_of(request).records(table_id)
    if found is None:
        raise HTTPException(status_code=404, detail=f"there is no table {table_id!r}")
    game, deals = found
    return RecordResponse(table_id=table_id, game=game, deals=deals)


@router.get("/health", response_model=Health)
async def health() -> Health:
    return Health(ok=True)
