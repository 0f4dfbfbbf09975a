"""The HTTP API (docs/protocol.md): create a table, its public summary, its game record."""

from __future__ import annotations

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
from cardavia.server.rooms import Room
from cardavia.table import TableConfig, random_seed

router = APIRouter(prefix="/api", tags=["api"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody, "description": "no such table"}}


def registry_of(request: Request) -> Registry:
    registry: Registry = request.app.state.registry
    return registry


async def _room(request: Request, table_id: str) -> Room:
    room = await registry_of(request).get(table_id)
    if room is None:
        raise HTTPException(status_code=404, detail=f"there is no table {table_id!r}")
    return room


@router.post("/tables", response_model=CreateTableResponse)
async def create_table(body: CreateTableRequest, request: Request) -> CreateTableResponse:
    """Open a table: the person sits in seat 0; keep the token to act for that seat."""
    seed = random_seed() if body.seed is None else body.seed
    config = TableConfig.preset(body.game, seed, body.difficulty, body.partner)
    table_id, token, _ = await registry_of(request).create(config)
    seat = config.person_seats[0]
    return CreateTableResponse(table_id=table_id, seat=seat, token=token, game=body.game)


@router.get("/tables/{table_id}", response_model=TableSummary, responses=_NOT_FOUND)
async def table_summary(table_id: str, request: Request) -> TableSummary:
    """Public facts about a table (no cards)."""
    room = await _room(request, table_id)
    async with room.lock:
        table = room.table
        summary = TableSummary(
            table_id=table_id,
            game=table.game,  # type: ignore[arg-type]
            phase=table.phase,  # type: ignore[arg-type]
            deal_index=table.deal.deal_index,
            seq=table.seq,
            seats=[SeatInfo(**s) for s in table.seats_json()],
            match=table.match_json(),
        )
    registry_of(request).release(room)
    return summary


@router.get("/tables/{table_id}/record", response_model=RecordResponse, responses=_NOT_FOUND)
async def table_record(table_id: str, request: Request) -> RecordResponse:
    """The game record (cli.md) of every finished deal of the table."""
    found = await registry_of(request).records(table_id)
    if found is None:
        raise HTTPException(status_code=404, detail=f"there is no table {table_id!r}")
    game, deals = found
    return RecordResponse(table_id=table_id, game=game, deals=deals)  # type: ignore[arg-type]


@router.get("/health", response_model=Health)
async def health() -> Health:
    return Health(ok=True)
