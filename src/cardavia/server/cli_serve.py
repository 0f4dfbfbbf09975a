"""``cardavia serve``: run the play server with uvicorn and say where to open it."""

from __future__ import annotations

import argparse
import os
import sys

import uvicorn

from cardavia.server.app import create_app
from cardavia.server.store import default_db_url

PACING_ENV = "CARDAVIA_PACING"
DEFAULT_PACING = 0.6
#: Frames above this size close the socket (1009); from 8 KiB up to it, an error frame.
WS_MAX_SIZE = 1024 * 1024
#: The GIL hand-over interval: short, so the event loop is not kept waiting by AI threads.
SWITCH_INTERVAL = 0.001
#: Frame compression costs more CPU than the frames (a few KiB of JSON) are worth.
WS_DEFLATE = False


def url_to_open(host: str, port: int) -> str:
    """The address to show: a wildcard host is reached as 127.0.0.1.

    >>> url_to_open("0.0.0.0", 8000), url_to_open("::1", 80)
    ('http://127.0.0.1:8000/', 'http://[::1]:80/')
    """
    shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def serve(host: str = "127.0.0.1", port: int = 8000, db_url: str | None = None, *,
          pacing: float | None = None) -> None:
    """Print the URL to open and run the server until interrupted.

    ``pacing`` (seconds between AI moves) defaults to ``$CARDAVIA_PACING`` or 0.6.
    """
    if pacing is None:
        pacing = float(os.environ.get(PACING_ENV, DEFAULT_PACING))
    sys.setswitchinterval(SWITCH_INTERVAL)
    app = create_app(db_url or default_db_url(), pacing=pacing, freeze_gc=True)
    print(f"Cardavia is running: open {url_to_open(host, port)}", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=WS_DEFLATE,
        log_level="warning",
    )


def main(argv: list[str] | None = None) -> None:
    """``python -m cardavia.server.cli_serve [--host H] [--port P] [--db URL] [--pacing S]``."""
    parser = argparse.ArgumentParser(prog="cardavia serve", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=None, help="SQLAlchemy URL (default: $CARDAVIA_DB or "
                        "a SQLite file in the user data directory)")
    parser.add_argument("--pacing", type=float, default=None,
                        help="seconds between AI moves (default 0.6)")
    args = parser.parse_args(argv)
    serve(args.host, args.port, args.db, pacing=args.pacing)


if __name__ == "__main__":
    main()
