"""Persistence of tables and their event logs (SQLAlchemy 2 Core; SQLite by default).

Two tables: ``tables`` (config, seed, hashes of the seat tokens — never the tokens) and
``events`` (one row per log entry, keyed by table and sequence number). The schema is
Alembic's (:mod:`cardavia.server.schema`, ``cardavia db upgrade``): an empty database is
set up on start, any other must already be at this version. Every method is synchronous
and commits before it returns; the server calls them from one worker thread (the appends
keep a connection of their own for it).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from platformdirs import user_data_path
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import PoolProxiedConnection, StaticPool

from cardavia.server import schema

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
    # the fencing token of the process that last took the table (several processes)
    sa.Column("fence", sa.BigInteger, nullable=True),
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


settings_table = sa.Table(
    "settings",
    metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

#: The settings row of the server secret mixed into server-chosen seeds.
SECRET_KEY = "seed_secret"


class StaleOwner(RuntimeError):
    """A write of a table by a process whose ownership another process has taken since
    (a newer fencing token): refused, nothing written."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} is owned by another server process now")
        self.table_id = table_id


class StoreError(RuntimeError):
    """The database cannot be used (unopenable, corrupt, held by another process, a bad
    row): one sentence, for a 503 or the command line."""


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


def shown_url(url: str) -> str:
    """A database URL as it may be shown (no password).

    >>> shown_url("postgresql://me:secret@db/cardavia")
    'postgresql://me:***@db/cardavia'
    """
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url


def _reason(err: BaseException) -> str:
    """The driver's own sentence of a database error (not SQLAlchemy's wrapping)."""
    orig = getattr(err, "orig", None)
    text = str(orig if orig is not None else err).strip().splitlines()
    return text[0] if text else type(err).__name__


class Store:
    """Tables and events in one database.

    ``exclusive`` (``cardavia serve``): a SQLite file is locked for this process (a lock
    file next to it); a second process on the same file is refused (:class:`StoreError`).
    """

    def __init__(self, url: str, *, exclusive: bool = False) -> None:
        self.url = url
        self._lock_file: Any = None
        try:
            self.engine = make_engine(url)
        except Exception as err:
            raise StoreError(f"cannot use the database URL {shown_url(url)!r}: {_reason(err)}") from None
        self._sqlite = self.engine.dialect.name == "sqlite"
        # SQLite: the driver connection appends are written on (from the database thread)
        self._writer: PoolProxiedConnection | None = None
        if exclusive:
            self._lock()
        try:
            for attempt in range(20):  # another process switching the new file to WAL
                try:
                    schema.check(self.engine, shown_url(url))
                    break
                except sa.exc.OperationalError as err:
                    if "database is locked" not in str(err) or attempt == 19:
                        raise
                    self.engine.dispose()
                    time.sleep(0.05 * (attempt + 1))
            if self.is_sqlite_file:
                self.engine.dispose()  # the serving connections start fresh
            with self.engine.connect() as conn:  # a corrupt file fails here at the latest
                conn.execute(sa.select(sa.func.count()).select_from(tables_table)).scalar()
        except schema.SchemaError as err:
            self.close()
            raise StoreError(str(err)) from None
        except Exception as err:
            self.close()
            raise StoreError(f"cannot open the database {shown_url(url)}: {_reason(err)}") from None

    @property
    def sqlite_path(self) -> Path | None:
        """The file of a SQLite database (None in memory or elsewhere)."""
        if not self.is_sqlite_file:
            return None
        database = make_url(self.url).database
        return Path(database) if database else None

    def _lock(self) -> None:
        """Hold an exclusive lock on ``<db file>.lock`` (released when the process ends,
        however it ends)."""
        path = self.sqlite_path
        if path is None:
            return
        lock_path = path.with_name(path.name + ".lock")
        try:
            handle = open(lock_path, "a+b")  # noqa: SIM115 - held until close()
        except OSError as err:
            raise StoreError(f"cannot open the database {path}: {err.strerror or err}") from None
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise StoreError(
                f"the database {path} is in use by another Cardavia server; stop it or "
                "choose another file with --db"
            ) from None
        self._lock_file = handle

    def seed_secret(self) -> bytes:
        """The server secret mixed into server-chosen seeds: made once, kept in the
        database (whoever inserts it first wins; every process then reads the same)."""
        with self.engine.begin() as conn:
            row = conn.execute(
                sa.select(settings_table.c.value).where(settings_table.c.key == SECRET_KEY)
            ).first()
            if row is None:
                with contextlib.suppress(sa.exc.IntegrityError), conn.begin_nested():
                    conn.execute(
                        settings_table.insert(),
                        {"key": SECRET_KEY, "value": secrets.token_hex(32)},
                    )
                row = conn.execute(
                    sa.select(settings_table.c.value).where(settings_table.c.key == SECRET_KEY)
                ).one()
        return bytes.fromhex(str(row[0]))

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
        if self._lock_file is not None:
            with contextlib.suppress(OSError):
                self._lock_file.close()  # releases the lock
            self._lock_file = None

    def create_table(
        self,
        table_id: str,
        config: dict[str, Any],
        token_hashes: dict[int, str],
        events: Sequence[tuple[int, dict[str, Any]]],
        fence: int | None = None,
    ) -> None:
        """Store a new table with its first log entries, in one transaction (``fence``: the
        creating process's ownership token, several processes)."""
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
        if fence is not None:
            with self.engine.begin() as conn:
                conn.execute(_INSERT_TABLE, {**row, "fence": fence})
                self._insert_events(conn, table_id, events, now)
            return
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
        self, table_id: str, events: Sequence[tuple[int, dict[str, Any]]], closed: bool,
        fence: int | None = None,
    ) -> None:
        """Append log entries (and the closed flag) in one transaction."""
        if not events:
            return
        self.append_many([(table_id, events, closed)], None if fence is None else {table_id: fence})

    def append_many(
        self, batch: Sequence[tuple[str, Sequence[tuple[int, dict[str, Any]]], bool]],
        fences: dict[str, int] | None = None,
    ) -> None:
        """Append the entries of several tables in one transaction (group commit).

        Two statements whatever the batch size: one multi-row insert of the events and one
        update of the tables' ``last_seq``/``closed`` (executemany), both prepared once.

        ``fences`` (several processes): the writer's ownership token of each table. The
        table's row is then updated first, only where its ``fence`` is still that token, in
        the same transaction as the events: a process whose table was taken over since
        writes nothing (:class:`StaleOwner`), and the row lock it takes orders it with
        :meth:`claim`. (A write at a ``seq`` already stored fails too, on the key.)
        """
        if fences:
            self._append_fenced(batch, fences)
            return
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

    def _append_fenced(
        self, batch: Sequence[tuple[str, Sequence[tuple[int, dict[str, Any]]], bool]],
        fences: dict[str, int],
    ) -> None:
        now = _now()
        tables: dict[str, tuple[int, bool]] = {}
        rows: list[dict[str, Any]] = []
        for table_id, events, closed in batch:
            if not events:
                continue
            rows += [dict(zip(_EVENT_KEYS, r, strict=True)) for r in self._event_rows(table_id, events, now)]
            last = max(seq for seq, _ in events)
            tables[table_id] = (max(last, tables.get(table_id, (0, False))[0]), closed)
        if not rows:
            return
        with self.engine.begin() as conn:
            for table_id, (last, closed) in tables.items():
                fence = fences.get(table_id)
                where = tables_table.c.id == table_id
                if fence is not None:
                    where = sa.and_(where, tables_table.c.fence == fence)
                done = conn.execute(
                    tables_table.update().where(where).values(last_seq=last, closed=closed, updated_at=now)
                )
                if done.rowcount != 1:
                    raise StaleOwner(table_id)
            conn.execute(_INSERT_EVENTS, rows)

    def claim(self, table_id: str, fence: int) -> int | None:
        """Record that the holder of ownership token ``fence`` owns the table from now on
        (every older token's writes fail from here); None when done, else the newer token
        already recorded (the token was stale: take a newer one)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                tables_table.update()
                .where(tables_table.c.id == table_id)
                .where(sa.or_(tables_table.c.fence.is_(None), tables_table.c.fence < fence))
                .values(fence=fence)
            )
            if done.rowcount == 1:
                return None
            found = conn.execute(
                sa.select(tables_table.c.fence).where(tables_table.c.id == table_id)
            ).scalar()
        return -1 if found is None else int(found)

    def events_since(self, table_id: str, seq: int) -> list[tuple[int, dict[str, Any]]]:
        """The stored log entries of a table after ``seq``, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(events_table.c.seq, events_table.c.body)
                .where(events_table.c.table_id == table_id, events_table.c.seq > seq)
                .order_by(events_table.c.seq)
            ).all()
        return [(int(r[0]), json.loads(r[1])) for r in rows]

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
        """The stored table and its whole log in order, or None; :class:`StoreError` for a
        row that cannot be read (not JSON, a gap in the log)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(tables_table).where(tables_table.c.id == table_id)
            ).first()
            if row is None:
                return None
            rows = conn.execute(
                sa.select(events_table.c.seq, events_table.c.body)
                .where(events_table.c.table_id == table_id)
                .order_by(events_table.c.seq)
            ).all()
        events: list[dict[str, Any]] = []
        try:
            for expected, (seq, body) in enumerate(rows, start=1):
                if seq != expected:
                    raise StoreError(f"event {expected} of table {table_id} is missing")
                event = json.loads(body)
                if not isinstance(event, dict):
                    raise StoreError(f"event {seq} of table {table_id} is not an object")
                events.append(event)
            config = json.loads(row.config)
            raw_hashes = json.loads(row.token_hashes)
            if not isinstance(config, dict) or not isinstance(raw_hashes, dict):
                raise StoreError(f"the settings of table {table_id} are not objects")
            hashes = {int(k): str(v) for k, v in raw_hashes.items()}
        except (ValueError, TypeError) as err:
            raise StoreError(f"table {table_id} is stored damaged: {err}") from None
        return StoredTable(table_id, config, hashes, bool(row.closed), events)

    def last_seq(self, table_id: str) -> int | None:
        """The number of stored events of a table (None: no such table)."""
        with self.engine.connect() as conn:
            value = conn.execute(
                sa.select(tables_table.c.last_seq).where(tables_table.c.id == table_id)
            ).scalar()
        return None if value is None else int(value)

    def last_seqs(self, table_ids: list[str]) -> dict[str, int]:
        """:meth:`last_seq` of several tables in one query (unknown ids are left out)."""
        if not table_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(tables_table.c.id, tables_table.c.last_seq).where(tables_table.c.id.in_(table_ids))
            ).all()
        return {str(r.id): int(r.last_seq) for r in rows}

    def unfinished_table_ids(self) -> list[str]:
        """The tables nobody resigned from (they resume on demand)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(tables_table.c.id).where(tables_table.c.closed.is_(False))
            ).scalars()
            return [str(r) for r in rows]
