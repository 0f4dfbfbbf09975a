"""``cardavia db``: the database's schema, outside any server's start-up.

    cardavia db upgrade [--db URL]   bring the schema to this Cardavia's revision
    cardavia db current [--db URL]   show the database's revision and this Cardavia's

Run ``upgrade`` once per new version, before starting the servers (back the database up
first: docs/deploy.md). Several ``upgrade`` at once are safe: one migrates, the others
wait and find it done.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from cardavia.server import schema
from cardavia.server.store import default_db_url, make_engine, shown_url


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cardavia db", description="The database's schema (Alembic migrations).")
    sub = parser.add_subparsers(dest="action", required=True)
    for name, text in (("upgrade", "bring the schema to this Cardavia's revision"),
                       ("current", "show the database's schema revision")):
        one = sub.add_parser(name, help=text, description=text)
        one.add_argument("--db", default=None, help="SQLAlchemy URL (default: $CARDAVIA_DB or the "
                         "SQLite file of cardavia serve)")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    url = args.db or default_db_url()
    shown = shown_url(url)
    try:
        engine = make_engine(url)
    except Exception as err:
        print(f"cardavia db: cannot use the database URL {shown!r}: {err}", file=sys.stderr)
        return 1
    try:
        if args.action == "current":
            with engine.connect() as conn:
                found = schema.current_revision(conn)
            print(f"{shown}: schema revision {found or 'none (empty)'}; this Cardavia's is "
                  f"{schema.head_revision()}")
            return 0
        before, after = schema.upgrade(engine)
    except Exception as err:
        reason = str(getattr(err, "orig", None) or err).strip().splitlines()
        print(f"cardavia db: {shown}: {reason[0] if reason else type(err).__name__}", file=sys.stderr)
        return 1
    finally:
        engine.dispose()
    if before == after:
        print(f"{shown}: schema revision {after}, already this Cardavia's")
    else:
        print(f"{shown}: schema upgraded from {before or 'nothing'} to {after}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
