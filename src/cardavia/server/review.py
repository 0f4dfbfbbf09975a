"""Deal reviews by the expert, a table's history of deals, and the record checker.

HTTP (docs/protocol.md):

* ``GET /api/tables/{id}/deals/{n}/review`` with the seat's token (``Authorization:
  Bearer …``): every play decision of that seat in deal ``n`` judged by the expert from
  the seat's observation at that moment (:func:`cardavia.ai.review.judge`). ``n`` is the
  deal's position in the table's stored log (0 for the first deal ever dealt there,
  counting the deals a restart discarded), so it stays unambiguous across restarts.
  Finished deals only (409 otherwise), 404 for an unknown deal, 401 without a token, 403
  with a token of no seat of this table.
* ``GET /api/tables/{id}/history``: every deal of the table with its position, the match
  (or session) it belongs to, the record of the finished ones and the levels or totals
  after them — public, like the record.
* ``POST /api/records/check``: a game record (JSONL text) checked by ``cardavia replay``'s
  checker; ``{"ok": true, "game", "deals": [...]}`` or ``{"ok": false, "error": sentence}``.

A review costs about a second of CPU. It is computed in a separate process at the lowest
CPU priority (``SCHED_IDLE``, else ``nice 19``): it runs on what the AI moves and hints of
every table leave over, never holds the GIL of the server's process, and never delays a
table's AI or a person's action. Each (table, deal, seat) is computed once and cached in
the database table ``reviews`` (created if missing: an additive change of the schema).
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import hashlib
import hmac
import json
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, HTTPException, Request

from cardavia.ai.review import judge
from cardavia.cards import Card
from cardavia.observation import Observation
from cardavia.record import replay_records
from cardavia.rules.events import combo_from_json
from cardavia.rules.observation import history_entry_json
from cardavia.server.guard import UPLOAD_LIMITS
from cardavia.server.registry import TABLE_ID_RE, Registry
from cardavia.server.review_return import judge_return
from cardavia.server.store import Store, metadata, tables_table
from cardavia.table import Table, TableConfig

log = logging.getLogger("cardavia.server")

router = APIRouter(prefix="/api", tags=["review"])

reviews_table = sa.Table(
    "reviews",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("deal", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime, nullable=False),
)

#: The biggest record the checker reads (a long session is ~2 KB a deal).
MAX_RECORD_BYTES = UPLOAD_LIMITS["/api/records/check"]
MAX_RECORD_DEALS = 500

PLAY_EVENTS = frozenset({"played", "passed"})


# ---------------------------------------------------------------------------- the log's deals


@dataclass(frozen=True, slots=True)
class DealSpan:
    """One deal in a stored log: its position ``n``, where it starts and ends (indices in
    the log; ``end`` is its ``deal_ended``, None if it never finished), the deal number
    the engine gave it and the match (or session) it belongs to (0, 1, …)."""

    n: int
    start: int
    end: int | None
    deal_index: int
    match: int


def deal_spans(events: list[dict[str, Any]]) -> list[DealSpan]:
    """The deals of a table's log, in order. A new match starts with a restart and, in
    Guandan, after a deal that won the match."""
    spans: list[DealSpan] = []
    match = 0
    new_match = False
    start: int | None = None
    deal_index = 0
    for i, event in enumerate(events):
        kind = event.get("event")
        if kind == "restarted":
            if start is not None:
                spans.append(DealSpan(len(spans), start, None, deal_index, match))
                start = None
            new_match = True
        elif kind == "deal_started":
            if start is not None:
                spans.append(DealSpan(len(spans), start, None, deal_index, match))
            if new_match and spans:
                match += 1
            new_match = False
            start, deal_index = i, int(event.get("deal", 0))
        elif kind == "deal_ended" and start is not None:
            spans.append(DealSpan(len(spans), start, i, deal_index, match))
            start = None
            result = event.get("result") or {}
            if result.get("match_winner") is not None:
                new_match = True
    if start is not None:
        spans.append(DealSpan(len(spans), start, None, deal_index, match))
    return spans


def table_history(config: dict[str, Any], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every deal of the log: position, match, the engine's deal number, whether it
    finished, its record and the match state after it (levels, totals)."""
    table = Table(TableConfig.from_json(config))
    ends = {s.end: s for s in deal_spans(events) if s.end is not None}
    out = {s.n: _deal_item(s, None, None) for s in deal_spans(events)}
    for i, event in enumerate(events):
        table.fold(event)
        span = ends.get(i)
        if span is not None:
            record = table.config.rules.record(table.deal)
            out[span.n] = _deal_item(span, record, table.match_json())
    return [out[n] for n in sorted(out)]


def _deal_item(
    span: DealSpan, record: dict[str, Any] | None, after: dict[str, Any] | None
) -> dict[str, Any]:
    return {
        "n": span.n,
        "deal": span.deal_index,
        "match": span.match,
        "finished": span.end is not None,
        "record": record,
        "after": after,
    }


# ---------------------------------------------------------------------------- the review


def compute_review(config: dict[str, Any], events: list[dict[str, Any]], n: int, seat: int) -> dict[str, Any]:
    """The review of deal ``n`` (a finished one) for ``seat``: its tribute return card
    (Guandan, server/review_return.py) and every play decision of the seat, judged from its
    own observation at that moment. Pure: runs in the review process."""
    spans = deal_spans(events)
    span = spans[n]
    assert span.end is not None
    table_config = TableConfig.from_json(config)
    table = Table(table_config)
    decisions: list[dict[str, Any]] = []
    action = 0
    for i, event in enumerate(events[: span.end + 1]):
        kind = event.get("event")
        if i > span.start and kind == "returned" and event.get("from") == seat:
            seed = _review_seed(table_config.seed, n, i, seat)
            decisions.append(_judge_return(table.observation(seat), event, i, seed))
        if i > span.start and kind in PLAY_EVENTS:
            if event.get("seat") == seat:
                obs = table.observation(seat)
                played = None if kind == "passed" else combo_from_json(event["combo"])
                j = judge(obs, played, seed=_review_seed(table_config.seed, n, i, seat))
                decisions.append({
                    "seq": i + 1,
                    "action": action,
                    "kind": "play",
                    "played": history_entry_json(seat, played),
                    "best": history_entry_json(seat, j.best),
                    "loss": j.loss,
                    "label": j.label,
                    "reason_key": j.reason.key,
                    "reason_args": j.reason.args,
                })
            action += 1
        table.fold(event)
    return {"deal": n, "seat": seat, "game": table_config.game, "decisions": decisions}


def _judge_return(obs: Observation, event: dict[str, Any], index: int, seed: int) -> dict[str, Any]:
    """The review entry of the seat's tribute return card (before the deal's first action)."""
    j = judge_return(obs, Card.parse(str(event["card"])), seed=seed)
    return {
        "seq": index + 1,
        "action": 0,
        "kind": "return",
        "played": {"seat": obs.seat, "card": str(j.played), "to": j.to},
        "best": {"seat": obs.seat, "card": str(j.best), "to": j.to},
        "loss": j.loss,
        "label": j.label,
        "reason_key": j.reason.key,
        "reason_args": j.reason.args,
    }


def _review_seed(seed: int, n: int, index: int, seat: int) -> int:
    """The judge's random seed for one decision: the same review every time."""
    digest = hashlib.sha256(f"cardavia-review:{seed}:{n}:{index}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _exit_with(parent: int) -> None:
    """Exit this process once ``parent`` is gone (this process is re-parented): a server
    killed with ``kill -9`` leaves no review process behind (its queue's pipes, which this
    process holds both ends of, would never tell it)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _start_review_process() -> None:
    """The review process runs only on CPU time nothing else wants, and ends with its server."""
    threading.Thread(target=_exit_with, args=(os.getppid(),), name="parent-watch", daemon=True).start()
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return
    with contextlib.suppress(AttributeError, OSError):
        os.nice(19)


_pool: concurrent.futures.ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def review_pool() -> concurrent.futures.ProcessPoolExecutor:
    """The one review process of this server (started on the first review)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_review_process,
            )
            atexit.register(shutdown_pool)
        return _pool


def shutdown_pool(wait: bool = True) -> None:
    """Stop the review process (a review in progress is abandoned); the next review starts
    a new one."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=wait, cancel_futures=True)


class Reviews:
    """Cached reviews of one store; every review is computed once per (table, deal, seat)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._running: dict[tuple[str, int, int], asyncio.Future[dict[str, Any]]] = {}

    def cached(self, table_id: str, n: int, seat: int) -> dict[str, Any] | None:
        with self.store.engine.connect() as conn:
            body = conn.execute(
                sa.select(reviews_table.c.body).where(
                    reviews_table.c.table_id == table_id,
                    reviews_table.c.deal == n,
                    reviews_table.c.seat == seat,
                )
            ).scalar()
        return None if body is None else dict(json.loads(body))

    def keep(self, table_id: str, n: int, seat: int, review: dict[str, Any]) -> None:
        row = {
            "table_id": table_id, "deal": n, "seat": seat, "body": json.dumps(review),
            "created_at": datetime.now(UTC).replace(tzinfo=None),
        }
        with contextlib.suppress(sa.exc.IntegrityError), self.store.engine.begin() as conn:
            conn.execute(reviews_table.insert(), row)

    async def review(
        self, request: Request, table_id: str, n: int, seat: int,
        config: dict[str, Any], events: list[dict[str, Any]],
    ) -> dict[str, Any]:
        registry: Registry = request.app.state.registry
        found = await registry.db(self.cached, table_id, n, seat)
        if found is not None:
            return found
        key = (table_id, n, seat)
        running = self._running.get(key)
        if running is None:
            loop = asyncio.get_running_loop()
            running = asyncio.wrap_future(
                review_pool().submit(compute_review, config, events, n, seat), loop=loop
            )
            self._running[key] = running
            running.add_done_callback(lambda _f: self._running.pop(key, None))
        try:
            result = dict(await asyncio.shield(running))
        except BrokenProcessPool:
            log.error("the review process died; a new one starts with the next review")
            shutdown_pool(wait=False)
            raise HTTPException(status_code=503, detail="the review could not be worked out now; try again") from None
        await registry.db(self.keep, table_id, n, seat, result)
        return result


def reviews_of(request: Request) -> Reviews:
    state = request.app.state
    found = getattr(state, "reviews", None)
    if found is None:
        found = state.reviews = Reviews(state.registry.store)
    assert isinstance(found, Reviews)
    return found


# ---------------------------------------------------------------------------- routes


def _bearer(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 256:
        raise HTTPException(
            status_code=401, detail="send the seat's token as 'Authorization: Bearer <token>'",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return token


def _seat_of(token: str, hashes: dict[int, str]) -> int | None:
    digest = hashlib.sha256(token.encode("utf-8")).hexdigest()
    found: int | None = None
    for seat, stored in hashes.items():
        if hmac.compare_digest(digest, stored):
            found = seat
    return found


async def _stored(request: Request, table_id: str) -> Any:
    registry = request.app.state.registry
    stored = await registry.db(registry.store.load_table, table_id) if TABLE_ID_RE.match(table_id) else None
    if stored is None:
        raise HTTPException(status_code=404, detail=f"there is no table {table_id!r}")
    return stored


@router.get("/tables/{table_id}/deals/{n}/review")
async def deal_review(table_id: str, n: int, request: Request) -> dict[str, Any]:
    """The expert's review of deal ``n`` (its position in the table's log) for the seat
    whose token is sent."""
    token = _bearer(request)
    stored = await _stored(request, table_id)
    seat = _seat_of(token, stored.token_hashes)
    if seat is None:
        raise HTTPException(status_code=403, detail="this token holds no seat at this table")
    spans = deal_spans(stored.events)
    if not 0 <= n < len(spans):
        raise HTTPException(status_code=404, detail=f"table {table_id!r} has no deal {n}")
    span = spans[n]
    if span.end is None:
        raise HTTPException(status_code=409, detail=f"deal {n} is not finished; only finished deals are reviewed")
    events = stored.events[: span.end + 1]
    review: dict[str, Any] = await reviews_of(request).review(
        request, table_id, n, seat, stored.config, events
    )
    return review


def _dates(store: Store, table_id: str) -> tuple[str | None, str | None]:
    """When the table was created and last changed (ISO 8601, UTC)."""
    columns = sa.select(tables_table.c.created_at, tables_table.c.updated_at)
    with store.engine.connect() as conn:
        row = conn.execute(columns.where(tables_table.c.id == table_id)).first()
    if row is None:
        return None, None
    return tuple(None if d is None else d.isoformat() + "Z" for d in row)  # type: ignore[return-value]


@router.get("/tables/{table_id}/history")
async def history(table_id: str, request: Request) -> dict[str, Any]:
    """Every deal of the table (position, match, record of the finished ones)."""
    stored = await _stored(request, table_id)
    deals = await asyncio.to_thread(table_history, stored.config, stored.events)
    registry = request.app.state.registry
    created, updated = await registry.db(_dates, registry.store, table_id)
    return {
        "table_id": table_id,
        "game": stored.config["game"],
        "seats": stored.config["seats"],
        "closed": stored.closed,
        "created_at": created,
        "updated_at": updated,
        "deals": deals,
    }


@router.post("/records/check")
async def check_record(request: Request) -> dict[str, Any]:
    """A game record (JSONL: one deal per line) checked by the replay checker."""
    body = await request.body()
    if len(body) > MAX_RECORD_BYTES:
        return {"ok": False, "error": "the file is too large to be a Cardavia game record"}
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return {"ok": False, "error": "the file is not text: a game record is JSON lines"}
    records: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            return {"ok": False, "error": f"line {number} is not JSON: a game record has one JSON object per line"}
        if not isinstance(record, dict):
            return {"ok": False, "error": f"line {number} is not a JSON object"}
        records.append(record)
        if len(records) > MAX_RECORD_DEALS:
            return {"ok": False, "error": f"more than {MAX_RECORD_DEALS} deals: split the record"}
    if not records:
        return {"ok": False, "error": "the file holds no deal"}
    games = {r.get("game") for r in records}
    if len(games) != 1:
        return {"ok": False, "error": "the deals of one record must all be of one game"}
    outcomes, problem = await asyncio.to_thread(replay_records, records)
    if problem is not None:
        where = f"deal {problem.deal + 1}"
        if problem.action is not None:
            where += f", action {problem.action + 1}"
        return {"ok": False, "error": f"this is not a valid game record ({where}): {problem.message}"}
    return {"ok": True, "game": records[0].get("game"), "deals": records, "outcomes": outcomes}


__all__ = [
    "DealSpan",
    "Reviews",
    "compute_review",
    "deal_spans",
    "reviews_table",
    "router",
    "table_history",
]
