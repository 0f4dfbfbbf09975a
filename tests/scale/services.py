"""Real PostgreSQL and Redis for the scale-out tests.

``CARDAVIA_TEST_PG`` (a SQLAlchemy URL of a database the tests may create databases from,
e.g. ``postgresql+psycopg://postgres@127.0.0.1:5432/postgres``) and ``CARDAVIA_TEST_REDIS``
(``redis://127.0.0.1:6379/0``) point at running ones. Unset, a private instance of each is
started on a free port for the test session (Debian's ``postgresql`` and ``redis-server``
packages: ``initdb``/``pg_ctl`` as a non-root user) and stopped after it. If one cannot be
started the tests **fail** with the reason: nothing is skipped.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

PG_ENV = "CARDAVIA_TEST_PG"
REDIS_ENV = "CARDAVIA_TEST_REDIS"


class ServiceError(RuntimeError):
    """A service the tests need could not be started."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _pg_bin(name: str) -> str:
    on_path = shutil.which(name)
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or ([on_path] if on_path else [])
    if not found:
        raise ServiceError(f"PostgreSQL's {name} is not installed (apt-get install postgresql), "
                           f"and {PG_ENV} is not set")
    return str(found[-1])


def _as_user() -> list[str]:
    """A prefix that runs a command as a non-root user (PostgreSQL refuses root)."""
    if os.geteuid() != 0:
        return []
    for name in ("postgres", "cardavia-test"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return ["runuser", "-u", name, "--"]
    subprocess.run(["useradd", "--system", "--no-create-home", "cardavia-test"], check=True)
    return ["runuser", "-u", "cardavia-test", "--"]


@contextlib.contextmanager
def private_postgres() -> Iterator[str]:
    """A throw-away PostgreSQL cluster on a free port: its admin URL."""
    initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
    prefix = _as_user()
    root = Path(tempfile.mkdtemp(prefix="cardavia-pg-"))
    data = root / "data"
    if prefix:
        shutil.chown(root, prefix[2])
    port = free_port()
    log = root / "log"
    try:
        subprocess.run([*prefix, initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"],
                       check=True, capture_output=True, text=True)
        subprocess.run([*prefix, pg_ctl, "-D", str(data), "-l", str(log), "-w", "-t", "60", "-o",
                        f"-p {port} -c listen_addresses=127.0.0.1 -k {root} -c fsync=off", "start"],
                       check=True, capture_output=True, text=True)
    except subprocess.CalledProcessError as err:
        detail = (err.stderr or err.stdout or "").strip().splitlines()[-3:]
        shutil.rmtree(root, ignore_errors=True)
        raise ServiceError(f"a private PostgreSQL could not be started: {' / '.join(detail)}") from None
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def private_redis() -> Iterator[str]:
    """A throw-away Redis on a free port (no persistence): its URL."""
    server = shutil.which("redis-server")
    if server is None:
        raise ServiceError(f"redis-server is not installed (apt-get install redis-server), and {REDIS_ENV} is not set")
    port = free_port()
    proc = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            if sock.recv(16).startswith(b"+PONG"):
                break
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise ServiceError("a private Redis could not be started")
        time.sleep(0.05)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main(argv: list[str] | None = None) -> int:
    """``python -m tests.scale.services FILE``: start the missing services, write the
    ``NAME=URL`` lines of both to FILE, and keep them until SIGTERM (``./scripts/test``)."""
    import signal
    import sys

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m tests.scale.services FILE", file=sys.stderr)
        return 2
    stop = {"now": False}

    def on_term(*_: object) -> None:
        stop["now"] = True

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)
    with contextlib.ExitStack() as stack:
        try:
            pg = os.environ.get(PG_ENV) or stack.enter_context(private_postgres())
            rd = os.environ.get(REDIS_ENV) or stack.enter_context(private_redis())
        except (ServiceError, OSError, subprocess.SubprocessError) as err:
            print(f"scale-out test services: {err}", file=sys.stderr)
            return 1
        Path(args[0]).write_text(f"{PG_ENV}={pg}\n{REDIS_ENV}={rd}\n")
        while not stop["now"]:
            time.sleep(0.2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
