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
    assert "\n" not in line and "revision 0001, older than this server's 0002" in line, line
    assert "cardavia db upgrade --db" in line
    assert "Cardavia is running" not in refused.stdout
    done = _cardavia("db", "upgrade", "--db", url)
    assert done.returncode == 0 and "upgraded from 0001 to 0002" in done.stdout, done
    again = _cardavia("db", "upgrade", "--db", url)
    assert "already this Cardavia's" in again.stdout
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        columns = {c["name"] for c in sa.inspect(conn).get_columns("tables")}
        assert "fence" in columns and schema.current_revision(conn) == "0002"
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
    assert "schema revision 0002; this Cardavia's is 0002" in current.stdout
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '0099'"))
    engine.dispose()
    refused = _cardavia("serve", "--port", str(free_port()), "--db", url, "--ai-workers", "0")
    assert refused.returncode == 1 and "a newer Cardavia made it" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
