"""``cardavia serve``: run the play server with uvicorn and say where to open it."""

from __future__ import annotations

import argparse
import math
import os
import socket
import sys
from collections.abc import Sequence

import uvicorn

from cardavia.server.ai_pool import default_workers
from cardavia.server.app import create_app
from cardavia.server.store import StoreError, default_db_url, shown_url

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


def port_number(text: str) -> int:
    """A TCP port from the command line (0: any free port).

    >>> port_number("8000")
    8000
    """
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (0–65535)")
    return port


def listen_socket(host: str, port: int) -> socket.socket:
    """The bound server socket, or SystemExit with a clear message (port taken, bad host)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        sock = socket.socket(family, kind, proto)
    except OSError as err:
        raise SystemExit(f"cardavia serve: cannot listen on {host}:{port}: {err}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as err:
        sock.close()
        reason = err.strerror or str(err)
        raise SystemExit(f"cardavia serve: cannot listen on {host}:{port}: {reason}") from None
    return sock


def pacing_seconds(text: str, where: str = "--pacing") -> float:
    """Seconds between AI moves: a finite number ≥ 0.

    >>> pacing_seconds("0.6")
    0.6
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{where} must be a number of seconds (0 or more), not {text!r}")
    return value


def _pacing_arg(text: str) -> float:
    try:
        return pacing_seconds(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def check_redis(url: str) -> None:
    """SystemExit with one line unless Redis answers at ``url``."""
    try:
        import redis
    except ImportError:
        raise SystemExit(
            "cardavia serve: --redis needs the Redis and PostgreSQL clients: run "
            "./scripts/setup --scale (or pip install 'cardavia[scale]')"
        ) from None
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5)
        client.ping()
        client.close()
    except (redis.RedisError, ValueError, OSError) as err:
        raise SystemExit(f"cardavia serve: cannot reach Redis at {shown_url(url)}: {err}") from None


def _workers_arg(text: str) -> int:
    """A number of AI worker processes (0 or more)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 256:
        raise argparse.ArgumentTypeError(f"--ai-workers must be a whole number from 0 to 256, not {text!r}")
    return value


class _Server(uvicorn.Server):
    """uvicorn, saying where to open the app once it accepts connections (not before:
    whoever waits for the line may connect at once)."""

    def __init__(self, config: uvicorn.Config, url: str) -> None:
        super().__init__(config)
        self.url = url

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and not self.should_exit:
            print(f"Cardavia is running: open {self.url}", flush=True)


def serve(host: str = "127.0.0.1", port: int = 8000, db_url: str | None = None, *,
          pacing: float | None = None, allow_seeds: bool = False,
          allowed_hosts: Sequence[str] = (), ai_workers: int | None = None,
          agent_specs: Sequence[str] = (), redis_url: str | None = None) -> None:
    """Listen, run the server until interrupted and print the URL to open once it answers.

    The socket is bound first, so a taken port is reported at once (and ``port=0`` picks
    a free one); a database that cannot be used, one another server holds, or a bad
    ``$CARDAVIA_PACING`` are one line too (SystemExit). ``pacing`` (seconds between AI
    moves) defaults to ``$CARDAVIA_PACING`` or 0.6; ``ai_workers`` (AI worker processes;
    0: one AI thread in the server) to one per core; ``redis_url``: one of several server
    processes on the same database (docs/deploy.md).
    """
    if ai_workers is None:
        ai_workers = default_workers()
    if pacing is None:
        try:
            pacing = pacing_seconds(os.environ.get(PACING_ENV, str(DEFAULT_PACING)), PACING_ENV)
        except ValueError as err:
            raise SystemExit(f"cardavia serve: {err}") from None
    if redis_url is not None:
        check_redis(redis_url)
    sock = listen_socket(host, port)
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        url = db_url or default_db_url()
        app = create_app(
            url, pacing=pacing, freeze_gc=True, allow_seeds=allow_seeds,
            hosts=[host, *allowed_hosts], exclusive=True, ai_workers=ai_workers,
            agent_specs=agent_specs, redis_url=redis_url,
        )
    except (StoreError, OSError) as err:
        sock.close()
        raise SystemExit(f"cardavia serve: {err}") from None
    config = uvicorn.Config(
        app,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=WS_DEFLATE,
        log_level="warning",
    )
    server = _Server(config, url_to_open(host, sock.getsockname()[1]))
    try:
        server.run(sockets=[sock])
    finally:
        app.state.store.close()


def main(argv: list[str] | None = None) -> None:
    """``python -m cardavia.server.cli_serve [--host H] [--port P] [--db URL] [--pacing S]``."""
    parser = argparse.ArgumentParser(
        prog="cardavia serve", description="Start the Cardavia web app and print the URL to open."
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=port_number, default=8000, help="0: any free port")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL (default: $CARDAVIA_DB or "
                        "a SQLite file in the user data directory)")
    parser.add_argument("--pacing", type=_pacing_arg, default=None,
                        help="seconds between AI moves (default $CARDAVIA_PACING or 0.6)")
    parser.add_argument("--allow-seeds", action="store_true",
                        help="take client-chosen seeds (tests, research: a known seed gives "
                        "away every hand)")
    parser.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                        help="a host name (or address) the server answers for besides "
                        "127.0.0.1, localhost and --host; repeat for more")
    parser.add_argument("--redis", default=None, metavar="URL",
                        help="redis://… : serve the tables together with the other processes "
                        "on the same --db (PostgreSQL) and Redis (docs/deploy.md)")
    parser.add_argument("--ai-workers", type=_workers_arg, default=None, metavar="N",
                        help="AI worker processes for the AI's moves and hints (default: one "
                        "per core; 0: one AI thread inside the server)")
    parser.add_argument("--agent", action="append", default=[], metavar="NAME=PATH",
                        help="a learned policy as AI level NAME (cardavia.env.agents)")
    args = parser.parse_args(argv)
    for spec in args.agent:  # learned agents as table AI levels
        if "=" not in spec:
            parser.error(f"--agent {spec!r}: give NAME=PATH")
        from cardavia.env.agents import parse_spec

        try:
            print(f"AI level {parse_spec(spec)!r}: learned policy", flush=True)
        except (ValueError, ImportError) as err:
            parser.error(f"--agent {spec}: {err}")
    serve(args.host, args.port, args.db, pacing=args.pacing, allow_seeds=args.allow_seeds,
          allowed_hosts=args.allowed_host, ai_workers=args.ai_workers, agent_specs=args.agent,
          redis_url=args.redis)


if __name__ == "__main__":
    main()
