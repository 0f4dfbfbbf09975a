"""The FastAPI application: HTTP API, seat WebSockets, the web UI's pages and static files.

>>> app = create_app("sqlite://", pacing=0)
>>> {"/api/health", "/api/tables", "/api/join/{code}"} <= set(app.openapi()["paths"])
True
"""

from __future__ import annotations

import gc
import importlib.util
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import sqlalchemy as sa
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardavia.server import http_api, people_api, review, ws
from cardavia.server.guard import Guard, allowed_hosts
from cardavia.server.limits import DEFAULT_LIMITS, Limits
from cardavia.server.registry import LimitReached, Registry, TableUnavailable
from cardavia.server.store import Store, StoreError, default_db_url
from cardavia.table import GAMES, Table, TableConfig

log = logging.getLogger("cardavia.server")

PAGES_MODULE = "cardavia.web.pages"
STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"


#: Collector thresholds of a serving process: the young generations as CPython's default,
#: full collections ten times rarer (see :func:`warm_up_and_freeze`).
GC_THRESHOLDS = (700, 10, 100)


def warm_up_and_freeze() -> None:
    """Import and exercise what a table uses (the rules load lazily), move every object that
    exists now out of the garbage collector's sight (:func:`gc.freeze`) and make full
    collections rarer (:data:`GC_THRESHOLDS`).

    A full collection stops the event loop for as long as it walks every tracked object:
    with 200 tables that was 60–170 ms, several times a minute (the worst person-action
    response times). Frozen, the ~85 000 objects of the modules, pydantic/SQLAlchemy/uvicorn
    and the engine's caches are no longer walked; the rarer full collections walk only what
    the tables hold (~400 objects a table). Cyclic garbage is still collected: young cycles
    as before, older ones at the next (rarer) full collection."""
    for game in GAMES:
        table = Table.create(TableConfig.preset(game, 0, "random", "random"))
        table.run_ai()
        table.observation_json(0)
        table.match_json()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def create_app(
    db_url: str | None = None,
    pacing: float = 0.6,
    *,
    freeze_gc: bool = False,
    allow_seeds: bool = False,
    hosts: Iterable[str] = (),
    limits: Limits = DEFAULT_LIMITS,
    exclusive: bool = False,
    ai_workers: int = 0,
    agent_specs: Sequence[str] = (),
    redis_url: str | None = None,
) -> FastAPI:
    """The play server. ``db_url``: any SQLAlchemy URL (default ``$CARDAVIA_DB`` or a SQLite
    file in the user data directory); ``pacing``: seconds between AI moves (0 in tests);
    ``freeze_gc``: :func:`warm_up_and_freeze` once started (``cardavia serve`` does; it is
    process-wide, so tests that start many apps in one process leave it off);
    ``allow_seeds``: take client-chosen seeds (tests, research); ``hosts``: host names
    served besides the loopback ones; ``limits``: what one client may ask for;
    ``exclusive``: refuse a SQLite file another server holds; ``ai_workers``: AI worker
    processes (0: one AI thread in this process), which also load ``agent_specs`` (the
    learned AI levels, ``NAME=PATH``); ``redis_url``: share the tables with the other
    server processes on the same database and Redis (:mod:`cardavia.server.cluster`).

    Every request passes the :class:`~cardavia.server.guard.Guard` middleware first.
    :class:`~cardavia.server.store.StoreError` when the database cannot be used."""
    if redis_url is not None:
        try:
            from cardavia.server.cluster import Cluster
        except ImportError:
            raise StoreError(
                "--redis needs the Redis and PostgreSQL clients: run ./scripts/setup --scale "
                "(or pip install 'cardavia[scale]')"
            ) from None
    store = Store(db_url or default_db_url(), exclusive=exclusive and redis_url is None)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.registry = Registry(
            store, pacing, limits, ai_workers=ai_workers, agent_specs=agent_specs
        )
        app.state.registry.start()
        if redis_url is not None:
            app.state.registry.cluster = Cluster(redis_url, app.state.registry)
            await app.state.registry.cluster.start()
        await app.state.registry.ready()
        waiting = await app.state.registry.db(store.unfinished_table_ids)
        log.info("%d unfinished tables resume when their players reconnect", len(waiting))
        if freeze_gc:
            warm_up_and_freeze()
        try:
            yield
        finally:
            await app.state.registry.shutdown()

    app = FastAPI(
        title="Cardavia",
        summary="Guandan and Run Fast against AI: play server (docs/protocol.md)",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # the interactive pages load scripts from CDNs: the schema is at
        redoc_url=None,  # /openapi.json
    )
    app.state.store = store
    app.state.allow_seeds = allow_seeds
    app.state.hosts = allowed_hosts(hosts)
    app.state.limits = limits
    app.include_router(http_api.router)
    app.include_router(review.router)
    app.include_router(people_api.router)
    app.include_router(ws.router)
    _add_errors(app)
    _add_web(app)
    app.add_middleware(Guard, hosts=app.state.hosts)
    return app


#: Database faults answered 503 (the server stays up; nothing committed is lost).
STORE_FAULTS = (StoreError, sa.exc.SQLAlchemyError, sqlite3.Error, OSError)


def _add_errors(app: FastAPI) -> None:
    """Bad input is a 4xx whose body never echoes the input; faults of the database are a
    503 with a sentence."""

    async def invalid(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        detail = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", ""))[:300], "type": str(e.get("type", ""))}
            for e in exc.errors()[:20]
        ]
        return JSONResponse({"detail": detail}, status_code=422)

    async def limited(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=429, headers={"Retry-After": "10"})


    async def unavailable(_: Request, exc: Exception) -> JSONResponse:
        if isinstance(exc, TableUnavailable):
            detail = str(exc)
        else:
            log.error("database fault: %s", exc)
            detail = "the database cannot be used now (damaged, read-only or full); try again later"
        return JSONResponse({"detail": detail}, status_code=503, headers={"Retry-After": "30"})

    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(LimitReached, limited)
    app.add_exception_handler(TableUnavailable, unavailable)
    for fault in STORE_FAULTS:
        app.add_exception_handler(fault, unavailable)


def _add_web(app: FastAPI) -> None:
    """Include the web UI's pages and static files when they are installed."""
    if importlib.util.find_spec(PAGES_MODULE) is not None:
        from cardavia.web import pages

        app.include_router(pages.router)
        # bad links get the designed 404 page, not bare JSON (the API keeps its JSON)
        app.add_exception_handler(StarletteHTTPException, pages.http_error)
        static = Path(getattr(pages, "STATIC_DIR", STATIC_DIR))
    else:
        static = STATIC_DIR
    if static.is_dir():
        app.mount("/static", StaticFiles(directory=static), name="static")
