"""Schema migrations (Alembic): ``cardavia db upgrade`` outside start-up; a server refuses
an older schema with one line; a database made before migrations is recognised and
upgraded with its tables intact."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import httpx
import sqlalchemy as sa

from cardavia.server import schema
from cardavia.server.app import create_app
from cardavia.table import Table, TableConfig
from tests.server.conftest import ROOT, SubprocessServer, free_port


def legacy_database(url: str) -> str:
    """A database as the server made it before migrations (its ``create_all`` schema, copied
    here as it was), with one table in it: that table's id."""
    meta = sa.MetaData()
    tables = sa.Table(
        "tables", meta,
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
    events = sa.Table(
        "events", meta,
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    sa.Table("settings", meta, sa.Column("key", sa.String(64), primary_key=True),
             sa.Column("value", sa.Text, nullable=False))
    table = Table.create(TableConfig.preset("runfast", 6, "random", "random"))
    table.run_ai()
    engine = sa.create_engine(url)
    meta.create_all(engine)
    now = datetime(2026, 11, 1)
    with engine.begin() as conn:
        conn.execute(tables.insert(), {
            "id": "legacy-table-01", "game": "runfast", "seed": 6, "config": json.dumps(table.config.to_json()),
            "token_hashes": json.dumps({"0": "x"}), "closed": False, "last_seq": table.seq,
            "created_at": now, "updated_at": now,
        })
        conn.execute(events.insert(), [
            {"table_id": "legacy-table-01", "seq": e.seq, "kind": e.kind, "body": json.dumps(e.event),
             "created_at": now} for e in table.log
        ])
    engine.dispose()
    return "legacy-table-01"


def _cardavia(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardavia", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


def check_legacy_upgrade(url: str) -> None:
    table_id = legacy_database(url)
    refused = _cardavia("serve", "--port", str(free_port()), "--db", url, "--ai-workers", "0")
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    line = refused.stderr.strip()
    head = schema.head_revision()
    assert "\n" not in line and f"revision 0001, older than this server's {head}" in line, line
    assert "cardavia db upgrade --db" in line
    assert "Cardavia is running" not in refused.stdout
    done = _cardavia("db", "upgrade", "--db", url)
    assert done.returncode == 0 and f"upgraded from 0001 to {head}" in done.stdout, done
    again = _cardavia("db", "upgrade", "--db", url)
    assert "already this Cardavia's" in again.stdout
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        columns = {c["name"] for c in sa.inspect(conn).get_columns("tables")}
        assert "fence" in columns and schema.current_revision(conn) == head
        assert {"invites", "reviews"} <= set(sa.inspect(conn).get_table_names())
    engine.dispose()
    server = SubprocessServer(free_port(), url)
    server.start()
    try:
        summary = httpx.get(f"http://127.0.0.1:{server.port}/api/tables/{table_id}", timeout=10)
        assert summary.status_code == 200 and summary.json()["game"] == "runfast"
    finally:
        server.kill()


def test_a_sqlite_file_of_before_migrations_is_refused_then_upgraded(tmp_path: Path) -> None:
    check_legacy_upgrade(f"sqlite:///{tmp_path / 'old.sqlite3'}")


def test_an_empty_database_is_set_up_at_start_and_a_newer_one_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    app = create_app(url, pacing=0)
    app.state.store.close()
    current = _cardavia("db", "current", "--db", url)
    head = schema.head_revision()
    assert f"schema revision {head}; this Cardavia's is {head}" in current.stdout
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '0099'"))
    engine.dispose()
    refused = _cardavia("serve", "--port", str(free_port()), "--db", url, "--ai-workers", "0")
    assert refused.returncode == 1 and "a newer Cardavia made it" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1


def test_the_migrations_make_exactly_the_tables_the_code_declares(tmp_path: Path) -> None:
    """Alembic's comparison of the migrated database with the code's ``metadata`` (every
    table module imported) finds no difference: no table, column or index is made anywhere
    but in a migration."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    import cardavia.server.people_store
    import cardavia.server.review  # noqa: F401  (their tables join the metadata)
    from cardavia.server.store import metadata

    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    engine = sa.create_engine(url)
    schema.upgrade(engine)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    engine.dispose()
    assert {"invites", "reviews", "tables", "events"} <= set(metadata.tables)
    assert diff == [], diff


def test_a_0002_database_whose_server_made_invites_and_reviews_upgrades_with_their_rows(
    tmp_path: Path,
) -> None:
    """Before 0003 the server created ``invites`` and ``reviews`` itself: such a database
    upgrades to the head with those rows kept (the migration creates only what is absent)."""
    from alembic import command

    url = f"sqlite:///{tmp_path / 'v2.sqlite3'}"
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        config = schema._config(conn)
        command.upgrade(config, "0002")
        conn.commit()
    meta = sa.MetaData()  # the two tables as the 0002-era server made them
    invites = sa.Table(
        "invites", meta,
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(64), nullable=False, index=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    reviews = sa.Table(
        "reviews", meta,
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    meta.create_all(engine)
    now = datetime(2026, 11, 20)
    with engine.begin() as conn:
        conn.execute(invites.insert(), {"code_hash": "a" * 64, "table_id": "t1", "seat": 2,
                                        "state": "open", "created_at": now})
        conn.execute(reviews.insert(), {"table_id": "t1", "deal": 0, "seat": 0, "body": "{}",
                                        "created_at": now})
    engine.dispose()
    refused = _cardavia("serve", "--port", str(free_port()), "--db", url, "--ai-workers", "0")
    assert refused.returncode == 1 and "revision 0002, older than" in refused.stderr
    done = _cardavia("db", "upgrade", "--db", url)
    assert done.returncode == 0 and f"upgraded from 0002 to {schema.head_revision()}" in done.stdout
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        assert conn.execute(sa.select(invites.c.seat)).scalars().all() == [2]
        assert conn.execute(sa.select(reviews.c.body)).scalars().all() == ["{}"]
        assert schema.current_revision(conn) == schema.head_revision()
    engine.dispose()
