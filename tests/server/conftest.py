"""Fixtures: a live uvicorn server on 127.0.0.1 (thread or subprocess), WebSocket seats."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import uvicorn
from websockets.sync.client import ClientConnection, connect

from cardavia.server.app import create_app
from cardavia.server.cli_serve import WS_DEFLATE, WS_MAX_SIZE
from cardavia.table import Table, TableConfig

ROOT = Path(__file__).resolve().parents[2]


def free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def free_port() -> int:
    with free_socket() as sock:
        port: int = sock.getsockname()[1]
        return port


@dataclass
class LiveServer:
    """A running server: its base URLs and database."""

    port: int
    db_url: str
    app: Any = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def create(self, game: str, **body: Any) -> dict[str, Any]:
        response = httpx.post(f"{self.http}/api/tables", json={"game": game, **body}, timeout=30)
        response.raise_for_status()
        data: dict[str, Any] = response.json()
        return data

    def connect(self, table_id: str, token: str | None) -> Seat:
        url = f"{self.ws}/ws/tables/{table_id}"
        if token is not None:
            url += f"?token={token}"
        return Seat(connect(url, open_timeout=10, max_size=2**22).__enter__())

    def stored_events(self, table_id: str) -> list[dict[str, Any]]:
        engine = sa.create_engine(self.db_url)
        try:
            with engine.connect() as conn:
                rows = conn.execute(
                    sa.text("SELECT seq, body FROM events WHERE table_id = :t ORDER BY seq"),
                    {"t": table_id},
                ).all()
        finally:
            engine.dispose()
        assert [r[0] for r in rows] == list(range(1, len(rows) + 1)), "gaps in the stored log"
        return [json.loads(r[1]) for r in rows]

    def stored_config(self, table_id: str) -> TableConfig:
        engine = sa.create_engine(self.db_url)
        try:
            with engine.connect() as conn:
                row = conn.execute(
                    sa.text("SELECT config, token_hashes FROM tables WHERE id = :t"),
                    {"t": table_id},
                ).one()
        finally:
            engine.dispose()
        return TableConfig.from_json(json.loads(row[0]))

    def stored_table(self, table_id: str) -> Table:
        return Table.rebuild(self.stored_config(table_id), self.stored_events(table_id))


@dataclass
class Seat:
    """A WebSocket seat that records every frame it receives."""

    ws: ClientConnection
    received: list[dict[str, Any]] = field(default_factory=list)
    last_state: dict[str, Any] | None = None

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        raw = self.ws.recv(timeout=timeout)
        message: dict[str, Any] = json.loads(raw)
        self.received.append(message)
        if message["type"] == "state":
            self.last_state = message
        return message

    def recv_until(self, predicate: Any, timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message

    def wait_error(self, timeout: float = 20) -> dict[str, Any]:
        return self.recv_until(lambda m: m["type"] == "error", timeout)

    def close(self) -> None:
        self.ws.close()


class ThreadServer:
    """uvicorn in a background thread, on a socket bound before it starts."""

    def __init__(self, app: Any) -> None:
        self.sock = free_socket()
        self.port: int = self.sock.getsockname()[1]
        config = uvicorn.Config(
            app,
            log_level="warning",
            ws_max_size=WS_MAX_SIZE,
            ws_per_message_deflate=WS_DEFLATE,
            lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)
        self.sock.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A thread server with pacing 0 and a fresh SQLite file."""
    db = tmp_path_factory.mktemp("db") / "cardavia.sqlite3"
    db_url = f"sqlite:///{db}"
    app = create_app(db_url, pacing=0, allow_seeds=True)
    with ThreadServer(app) as running:
        yield LiveServer(running.port, db_url, app)


class SubprocessServer:
    """``python -m cardavia.server.cli_serve`` as a child process (killable)."""

    def __init__(self, port: int, db_url: str, pacing: float = 0) -> None:
        self.port = port
        self.db_url = db_url
        self.pacing = pacing
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardavia.server.cli_serve", "--port", str(self.port),
             "--db", self.db_url, "--pacing", str(self.pacing), "--allow-seeds"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline()
        assert "Cardavia is running: open http://127.0.0.1:" in first, first
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("the server process did not start")
            time.sleep(0.05)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
