"""The FastAPI application: HTTP API, seat WebSockets, the web UI's pages and static files.

>>> app = create_app("sqlite://", pacing=0)
>>> sorted(p for p in app.openapi()["paths"] if p.startswith("/api"))[:2]
['/api/health', '/api/tables']
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from cardavia.server import http_api, ws
from cardavia.server.registry import Registry
from cardavia.server.store import Store, default_db_url

log = logging.getLogger("cardavia.server")

PAGES_MODULE = "cardavia.web.pages"
STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"


def create_app(db_url: str | None = None, pacing: float = 0.6) -> FastAPI:
    """The play server. ``db_url``: any SQLAlchemy URL (default ``$CARDAVIA_DB`` or a SQLite
    file in the user data directory); ``pacing``: seconds between AI moves (0 in tests)."""
    store = Store(db_url or default_db_url())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.registry = Registry(store, pacing)
        app.state.registry.start()
        waiting = await app.state.registry.db(store.unfinished_table_ids)
        log.info("%d unfinished tables resume when their players reconnect", len(waiting))
        try:
            yield
        finally:
            await app.state.registry.shutdown()

    app = FastAPI(
        title="Cardavia",
        summary="Guandan and Run Fast against AI: play server (docs/protocol.md)",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.store = store
    app.include_router(http_api.router)
    app.include_router(ws.router)
    _add_web(app)
    return app


def _add_web(app: FastAPI) -> None:
    """Include the web UI's pages and static files when they are installed."""
    if importlib.util.find_spec(PAGES_MODULE) is not None:
        from cardavia.web import pages

        app.include_router(pages.router)
        static = Path(getattr(pages, "STATIC_DIR", STATIC_DIR))
    else:
        static = STATIC_DIR
    if static.is_dir():
        app.mount("/static", StaticFiles(directory=static), name="static")
