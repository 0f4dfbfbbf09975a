"""Fixtures of the scale-out tests: real PostgreSQL and Redis (see services.py), a fresh
database per test, server processes."""

from __future__ import annotations

import contextlib
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from tests.scale.services import PG_ENV, REDIS_ENV, ServiceError, private_postgres, private_redis
from tests.server.conftest import ROOT, LiveServer, free_port


@pytest.fixture(scope="session")
def pg_admin() -> Iterator[str]:
    url = os.environ.get(PG_ENV)
    if url:
        yield url
        return
    try:
        with private_postgres() as started:
            yield started
    except ServiceError as err:
        pytest.fail(str(err), pytrace=False)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    url = os.environ.get(REDIS_ENV)
    if url:
        yield url
        return
    try:
        with private_redis() as started:
            yield started
    except ServiceError as err:
        pytest.fail(str(err), pytrace=False)


@pytest.fixture
def pg_url(pg_admin: str) -> Iterator[str]:
    """A new, empty database for one test (dropped after it)."""
    name = f"cardavia_test_{secrets.token_hex(4)}"
    admin = sa.create_engine(pg_admin, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    url = sa.engine.make_url(pg_admin).set(database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@dataclass
class Node:
    """One ``cardavia serve --redis`` process."""

    port: int
    db_url: str
    redis_url: str
    pacing: float = 0.0
    ai_workers: int = 0
    proc: subprocess.Popen[str] | None = None
    output: list[str] = field(default_factory=list)

    @property
    def live(self) -> LiveServer:
        return LiveServer(self.port, self.db_url)

    def launch(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardavia.server.cli_serve", "--port", str(self.port),
             "--db", self.db_url, "--redis", self.redis_url, "--pacing", str(self.pacing),
             "--ai-workers", str(self.ai_workers), "--allow-seeds"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )

    def wait_up(self, timeout: float = 60) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        first = self.proc.stdout.readline()
        assert "Cardavia is running" in first, first + (self.proc.stdout.read() if self.proc.poll() is not None else "")
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{self.port}/api/health", timeout=1).status_code == 200:
                    return
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("the server process did not start")
            time.sleep(0.05)

    def start(self) -> Node:
        self.launch()
        self.wait_up()
        return self

    def kill(self) -> None:
        """kill -9."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.fixture
def nodes(pg_url: str, redis_url: str) -> Iterator[Any]:
    """A factory of server processes on one fresh database and the Redis; all stopped after."""
    made: list[Node] = []

    def make(pacing: float = 0.0, ai_workers: int = 0, start: bool = True) -> Node:
        node = Node(free_port(), pg_url, redis_url, pacing, ai_workers)
        made.append(node)
        if start:
            node.start()
        return node

    yield make
    for node in made:
        node.stop()
        if node.proc is not None and node.proc.stdout is not None:
            rest = node.proc.stdout.read()
            if rest.strip():
                print(f"--- server on port {node.port}:\n{rest[-4000:]}")
