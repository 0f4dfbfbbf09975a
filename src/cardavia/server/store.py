"""Persistence of tables and their event logs (SQLAlchemy 2 Core; SQLite by default).

Two tables: ``tables`` (config, seed, hashes of the seat tokens — never the tokens) and
``events`` (one row per log entry, keyed by table and sequence number). The schema is
created on start. Every method is synchronous and commits before it returns; the server
calls them from one worker thread (the appends keep a connection of their own for it).
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
from sqlalchemy.pool import PoolProxiedConnection, StaticPool

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


#: The write path's statements, built once (the SQL compilation is cached by SQLAlchemy).
_EVENT_KEYS = ("table_id", "seq", "kind", "body", "created_at")
_INSERT_EVENTS = events_table.insert()
_INSERT_TABLE = tables_table.insert()
_UPDATE_KEYS = ("b_last_seq", "b_closed", "b_updated_at", "b_id")
_UPDATE_TABLES = (
    tables_table.update()
    .where(tables_table.c.id == sa.bindparam("b_id"))
    .values(
        last_seq=sa.bindparam("b_last_seq"),
        closed=sa.bindparam("b_closed"),
        updated_at=sa.bindparam("b_updated_at"),
    )
)
#: SQLite: the same, as the driver's SQL.
_SQLITE_INSERT_EVENTS = (
    "INSERT INTO events (table_id, seq, kind, body, created_at) VALUES (?, ?, ?, ?, ?)"
)
_SQLITE_UPDATE_TABLES = "UPDATE tables SET last_seq = ?, closed = ?, updated_at = ? WHERE id = ?"
_TABLE_KEYS = (
    "id", "game", "seed", "config", "token_hashes", "closed", "last_seq", "created_at", "updated_at"
)
_SQLITE_INSERT_TABLE = (
    f"INSERT INTO tables ({', '.join(_TABLE_KEYS)}) VALUES ({', '.join('?' * len(_TABLE_KEYS))})"
)

_dumps = json.JSONEncoder(separators=(",", ":")).encode


def _sqlite_stamp(moment: datetime) -> str:
    """A datetime as SQLAlchemy's SQLite ``DATETIME`` type stores it (it reads it back).

    >>> _sqlite_stamp(datetime(2024, 5, 6, 7, 8, 9))
    '2024-05-06 07:08:09.000000'
    """
    return moment.isoformat(sep=" ", timespec="microseconds")


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
        self._sqlite = self.engine.dialect.name == "sqlite"
        # SQLite: the driver connection appends are written on (from the database thread)
        self._writer: PoolProxiedConnection | None = None
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
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
            self._writer = None
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
        row = {
            "id": table_id,
            "game": str(config["game"]),
            "seed": int(config["seed"]),
            "config": json.dumps(config),
            "token_hashes": json.dumps({str(k): v for k, v in token_hashes.items()}),
            "closed": False,
            "last_seq": max((seq for seq, _ in events), default=0),
            "created_at": now,
            "updated_at": now,
        }
        if self._sqlite:
            stamp = _sqlite_stamp(now)
            self._sqlite_write(
                [
                    (_SQLITE_INSERT_TABLE, [(*(row[k] for k in _TABLE_KEYS[:-2]), stamp, stamp)]),
                    (_SQLITE_INSERT_EVENTS, self._event_rows(table_id, events, stamp)),
                ]
            )
            return
        with self.engine.begin() as conn:
            conn.execute(_INSERT_TABLE, row)
            self._insert_events(conn, table_id, events, now)

    def append_events(
        self, table_id: str, events: Sequence[tuple[int, dict[str, Any]]], closed: bool
    ) -> None:
        """Append log entries (and the closed flag) in one transaction."""
        if not events:
            return
        self.append_many([(table_id, events, closed)])

    def append_many(
        self, batch: Sequence[tuple[str, Sequence[tuple[int, dict[str, Any]]], bool]]
    ) -> None:
        """Append the entries of several tables in one transaction (group commit).

        Two statements whatever the batch size: one multi-row insert of the events and one
        update of the tables' ``last_seq``/``closed`` (executemany), both prepared once.
        """
        now = _now()
        rows: list[tuple[str, int, str, str, Any]] = []
        tables: dict[str, tuple[int, bool]] = {}
        stamp: Any = _sqlite_stamp(now) if self._sqlite else now
        for table_id, events, closed in batch:
            if not events:
                continue
            rows += self._event_rows(table_id, events, stamp)
            last = max(seq for seq, _ in events)
            if table_id in tables:
                last = max(last, tables[table_id][0])
            tables[table_id] = (last, closed)
        if not rows:
            return
        updates = [(last, closed, stamp, tid) for tid, (last, closed) in tables.items()]
        if self._sqlite:
            sqlite_updates = [(last, int(c), at, tid) for last, c, at, tid in updates]
            self._sqlite_write(
                [(_SQLITE_INSERT_EVENTS, rows), (_SQLITE_UPDATE_TABLES, sqlite_updates)]
            )
            return
        with self.engine.begin() as conn:
            conn.execute(_INSERT_EVENTS, [dict(zip(_EVENT_KEYS, r, strict=True)) for r in rows])
            conn.execute(_UPDATE_TABLES, [dict(zip(_UPDATE_KEYS, u, strict=True)) for u in updates])

    @staticmethod
    def _event_rows(
        table_id: str, events: Sequence[tuple[int, dict[str, Any]]], stamp: Any
    ) -> list[tuple[Any, ...]]:
        return [
            (table_id, seq, str(body.get("event", ""))[:32], _dumps(body), stamp)
            for seq, body in events
        ]

    def _sqlite_write(self, statements: list[tuple[str, list[tuple[Any, ...]]]]) -> None:
        """SQLite: one transaction of ``executemany`` calls straight on the driver's
        connection, kept open between calls (a pool checkout, a SQLAlchemy transaction and
        statement execution cost several times the insert itself; the transactions of a
        group commit are small when the server is not busy)."""
        if self._writer is None:
            self._writer = self.engine.raw_connection()
        dbapi = self._writer.driver_connection
        assert dbapi is not None
        try:
            for sql, rows in statements:
                if rows:
                    dbapi.executemany(sql, rows)
            dbapi.commit()
        except BaseException:
            # roll back and give the connection back to the pool (which resets it); the
            # next call checks out a fresh one
            writer, self._writer = self._writer, None
            with contextlib.suppress(Exception):
                dbapi.rollback()
            with contextlib.suppress(Exception):
                writer.close()
            raise

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
            _INSERT_EVENTS,
            [
                {
                    "table_id": table_id,
                    "seq": seq,
                    "kind": str(body.get("event", ""))[:32],
                    "body": _dumps(body),
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
