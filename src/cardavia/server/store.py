"""Persistence of tables and their event logs (SQLAlchemy 2 Core; SQLite by default).

Two tables: ``tables`` (config, seed, hashes of the seat tokens — never the tokens) and
``events`` (one row per log entry, keyed by table and sequence number). The schema is
created on start. Every method is synchronous and commits before it returns; the server
calls them from one worker thread.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from platformdirs import user_data_path
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

DB_ENV = "CARDAVIA_DB"

metadata = sa.MetaData()

tables_table = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("config", sa.Text, nullable=False),
    sa.Column("token_hashes", sa.Text, nullable=False),
    sa.Column("closed", sa.Boolean, nullable=False, default=False),
    sa.Column("last_seq", sa.Integer, nullable=False, default=0),
    sa.Column("created_at", sa.DateTime, nullable=False),
    sa.Column("updated_at", sa.DateTime, nullable=False),
)

events_table = sa.Table(
    "events",
    metadata,
    sa.Column(
        "table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime, nullable=False),
)


def default_db_url() -> str:
    """``$CARDAVIA_DB`` if set, else a SQLite file in the user data directory."""
    env = os.environ.get(DB_ENV)
    if env:
        return env
    folder = user_data_path("cardavia", appauthor=False)
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{Path(folder) / 'cardavia.sqlite3'}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL mode and a connection usable from any thread."""
    if not url.startswith("sqlite"):
        return sa.create_engine(url, pool_pre_ping=True)
    in_memory = url in ("sqlite://", "sqlite:///:memory:")
    engine = sa.create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        poolclass=StaticPool if in_memory else None,
    )

    @sa.event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        if not in_memory:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            # checkpoints run in the background (Store.checkpoint), not inside a commit
            cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as stored: its config, token hashes per seat, closed flag and event log."""

    table_id: str
    config: dict[str, Any]
    token_hashes: dict[int, str]
    closed: bool
    events: list[dict[str, Any]]


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Store:
    """Tables and events in one database."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        metadata.create_all(self.engine)

    @property
    def is_sqlite_file(self) -> bool:
        return self.url.startswith("sqlite") and self.url not in ("sqlite://", "sqlite:///:memory:")

    def checkpoint(self, mode: str = "PASSIVE") -> None:
        """Copy SQLite's write-ahead log into the database file (a no-op elsewhere).

        Run from its own thread: a PASSIVE checkpoint does not block the writer, so no
        commit waits for the disk.
        """
        if not self.is_sqlite_file:
            return
        if mode not in ("PASSIVE", "TRUNCATE"):
            raise ValueError(f"unknown checkpoint mode {mode!r}")
        with self.engine.connect() as conn:
            conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")

    def close(self) -> None:
        with contextlib.suppress(Exception):  # closing must not fail on a busy database
            self.checkpoint("TRUNCATE")
        self.engine.dispose()

    def create_table(
        self,
        table_id: str,
        config: dict[str, Any],
        token_hashes: dict[int, str],
        events: Sequence[tuple[int, dict[str, Any]]],
    ) -> None:
        """Store a new table with its first log entries, in one transaction."""
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(
                tables_table.insert().values(
                    id=table_id,
                    game=str(config["game"]),
                    seed=int(config["seed"]),
                    config=json.dumps(config),
                    token_hashes=json.dumps({str(k): v for k, v in token_hashes.items()}),
                    closed=False,
                    last_seq=max((seq for seq, _ in events), default=0),
                    created_at=now,
                    updated_at=now,
                )
            )
            self._insert_events(conn, table_id, events, now)

    def append_events(
        self, table_id: str, events: Sequence[tuple[int, dict[str, Any]]], closed: bool
    ) -> None:
        """Append log entries (and the closed flag) in one transaction."""
        if not events:
            return
        now = _now()
        with self.engine.begin() as conn:
            self._insert_events(conn, table_id, events, now)
            conn.execute(
                tables_table.update()
                .where(tables_table.c.id == table_id)
                .values(last_seq=max(seq for seq, _ in events), closed=closed, updated_at=now)
            )

    def append_many(
        self, batch: Sequence[tuple[str, Sequence[tuple[int, dict[str, Any]]], bool]]
    ) -> None:
        """Append the entries of several tables in one transaction (group commit)."""
        now = _now()
        with self.engine.begin() as conn:
            for table_id, events, closed in batch:
                if not events:
                    continue
                self._insert_events(conn, table_id, events, now)
                conn.execute(
                    tables_table.update()
                    .where(tables_table.c.id == table_id)
                    .values(last_seq=max(seq for seq, _ in events), closed=closed, updated_at=now)
                )

    @staticmethod
    def _insert_events(
        conn: sa.Connection,
        table_id: str,
        events: Sequence[tuple[int, dict[str, Any]]],
        now: datetime,
    ) -> None:
        if not events:
            return
        conn.execute(
            events_table.insert(),
            [
                {
                    "table_id": table_id,
                    "seq": seq,
                    "kind": str(body.get("event", ""))[:32],
                    "body": json.dumps(body, separators=(",", ":")),
                    "created_at": now,
                }
                for seq, body in events
            ],
        )

    def load_table(self, table_id: str) -> StoredTable | None:
        """The stored table and its whole log in order, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(tables_table).where(tables_table.c.id == table_id)
            ).first()
            if row is None:
                return None
            bodies = conn.execute(
                sa.select(events_table.c.body)
                .where(events_table.c.table_id == table_id)
                .order_by(events_table.c.seq)
            ).scalars()
            events = [json.loads(b) for b in bodies]
        hashes = {int(k): str(v) for k, v in json.loads(row.token_hashes).items()}
        return StoredTable(table_id, json.loads(row.config), hashes, bool(row.closed), events)

    def unfinished_table_ids(self) -> list[str]:
        """The tables nobody resigned from (they resume on demand)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(tables_table.c.id).where(tables_table.c.closed.is_(False))
            ).scalars()
            return [str(r) for r in rows]
