"""The database schema's version: Alembic migrations, run by ``cardavia db upgrade``.

A server never migrates a schema it finds: one older than its own is refused with one
line that says what to run (:class:`SchemaError`), one newer too (a newer Cardavia made
it). Only an **empty** database is set up at start (every migration from the first), under
a lock, so several processes starting together on a new database all come up: PostgreSQL's
advisory lock, a lock file beside a SQLite file.

A database made before migrations existed (``store.py`` created its tables itself) has
the tables of revision ``0001`` and no ``alembic_version``: it is that revision
(:func:`current_revision`), and ``cardavia db upgrade`` records it so before upgrading.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine, make_url

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: The revision of the tables ``store.py``'s ``create_all`` made before migrations.
BASELINE = "0001"
#: A key of PostgreSQL's advisory locks: held while a process migrates.
MIGRATION_LOCK = 0x63617264  # "card"


class SchemaError(RuntimeError):
    """The database's schema is not this server's (one sentence, with what to do)."""


def _config(conn: sa.Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = conn
    return config


def head_revision() -> str:
    """This Cardavia's schema revision."""
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def _order() -> list[str]:
    """Every revision, oldest first."""
    script = ScriptDirectory.from_config(_config())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def current_revision(conn: sa.Connection) -> str | None:
    """The database's revision: its ``alembic_version``, :data:`BASELINE` for a database
    made before migrations, None for an empty one."""
    revision = MigrationContext.configure(conn).get_current_revision()
    if revision is not None:
        return revision
    names = set(sa.inspect(conn).get_table_names())
    if {"tables", "events"} <= names:
        return BASELINE
    return None


@contextlib.contextmanager
def _migration_lock(engine: Engine, conn: sa.Connection) -> Iterator[None]:
    """Only one process migrates at a time."""
    if engine.dialect.name == "postgresql":
        conn.execute(sa.text("SELECT pg_advisory_lock(:k)"), {"k": MIGRATION_LOCK})
        conn.commit()
        try:
            yield
        finally:
            conn.execute(sa.text("SELECT pg_advisory_unlock(:k)"), {"k": MIGRATION_LOCK})
            conn.commit()
        return
    database = make_url(str(engine.url)).database if engine.dialect.name == "sqlite" else None
    if not database or database == ":memory:":
        yield
        return
    with open(Path(database).with_name(Path(database).name + ".migrate.lock"), "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def upgrade(engine: Engine, *, only_if_empty: bool = False) -> tuple[str | None, str]:
    """Bring the schema to this Cardavia's revision; (revision before, after).
    ``only_if_empty``: touch only an empty database (a server's start)."""
    with engine.connect() as conn, _migration_lock(engine, conn):
        before = current_revision(conn)
        conn.commit()
        if only_if_empty and before is not None:
            return before, before
        config = _config(conn)
        if before == BASELINE and MigrationContext.configure(conn).get_current_revision() is None:
            command.stamp(config, BASELINE)  # a database of before migrations
            conn.commit()
        if before != head_revision():
            command.upgrade(config, "head")
            conn.commit()
        return before, head_revision()


def check(engine: Engine, shown: str) -> None:
    """Set up an empty database; refuse (:class:`SchemaError`) one whose schema is not
    this server's. ``shown``: the database's URL as it may be printed."""
    _, after = upgrade(engine, only_if_empty=True)
    head = head_revision()
    if after == head:
        return
    order = _order()
    if after in order and order.index(after) < order.index(head):
        raise SchemaError(
            f"the database {shown} has schema revision {after}, older than this server's "
            f"{head}: back it up, then run `cardavia db upgrade --db {shown}`"
        )
    raise SchemaError(
        f"the database {shown} has schema revision {after}, which this Cardavia does not know "
        f"(its newest is {head}): a newer Cardavia made it; run that version"
    )
