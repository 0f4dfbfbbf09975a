"""The ``cardavia`` command line: rules oracle, self-play, replay, server, tournaments.

``cardavia rules …`` follows ``docs/cli.md``: one JSON object on stdout, exit 0;
bad input → ``{"error": …}`` on stdout and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from cardavia.oracle import OracleError, answer
from cardavia.record import replay_records
from cardavia.rules.games import GAME_NAMES, GUANDAN


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)


def _emit(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def _fail(message: str) -> int:
    _emit({"error": message})
    return 2


def _card_arg(values: list[str] | None) -> list[str] | None:
    if values is None:
        return None
    return " ".join(values).split()


def _seats_arg(values: list[str] | None) -> str | None:
    if not values:
        return None
    return ",".join(values)


def _rules_parser() -> _Parser:
    p = _Parser(prog="cardavia rules", description="Rules questions answered as JSON (cli.md).")
    sub = p.add_subparsers(dest="op", required=True, parser_class=_Parser)

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--game", default=GUANDAN.name, choices=list(GAME_NAMES))
        sp.add_argument("--level", default="2")
        sp.add_argument("--opening", action="store_true")

    c = sub.add_parser("classify", help="every reading of a set of cards")
    common(c)
    c.add_argument("cards", nargs="+")

    b = sub.add_parser("beats", help="may this play go over that one?")
    common(b)
    b.add_argument("--prev", nargs="+", required=True)
    b.add_argument("--prev-type")
    b.add_argument("--play", nargs="+", required=True)
    b.add_argument("--type")

    lg = sub.add_parser("legal", help="what may be played now")
    common(lg)
    lg.add_argument("--hand", nargs="+", required=True)
    lg.add_argument("--prev", nargs="+")
    lg.add_argument("--prev-type")

    t = sub.add_parser("tribute", help="Guandan tribute and return (G-3)")
    t.add_argument("--game", default=GUANDAN.name, choices=[GUANDAN.name])
    t.add_argument("--level", default="2")
    t.add_argument("--places", required=True)
    t.add_argument("--hands", nargs=4, required=True)

    s = sub.add_parser("settle", help="end-of-deal bookkeeping")
    s.add_argument("--game", default=GUANDAN.name, choices=list(GAME_NAMES))
    s.add_argument("--levels")
    s.add_argument("--deal-level")
    s.add_argument("--places")
    s.add_argument("--winner")
    s.add_argument("--hands", nargs="+")
    s.add_argument("--never-played", action="append")
    s.add_argument("--bomb-bonus", action="append")

    sub.add_parser("batch", help="one JSON request per line on stdin")
    return p


def _request(ns: argparse.Namespace) -> dict[str, Any]:
    req: dict[str, Any] = {"op": ns.op, "game": ns.game}
    for key in ("level", "prev_type", "type", "places", "levels", "deal_level", "winner"):
        if getattr(ns, key, None) is not None:
            req[key] = getattr(ns, key)
    if getattr(ns, "opening", False):
        req["opening"] = True
    for key in ("cards", "prev", "play", "hand"):
        value = _card_arg(getattr(ns, key, None))
        if value is not None:
            req[key] = value
    if getattr(ns, "hands", None) is not None:
        req["hands"] = list(ns.hands)
    for key in ("never_played", "bomb_bonus"):
        seats = _seats_arg(getattr(ns, key, None))
        if seats is not None:
            req[key] = seats
    return req


def _batch() -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            _emit(answer(req))
        except json.JSONDecodeError as err:
            _emit({"error": f"the line is not valid JSON ({err.msg} at column {err.colno})"})
        except OracleError as err:
            _emit({"error": str(err)})
        except Exception as err:
            _emit({"error": f"the request could not be answered: {err}"})
    return 0


def rules_main(argv: Sequence[str]) -> int:
    try:
        ns = _rules_parser().parse_args(list(argv))
    except _UsageError as err:
        return _fail(str(err))
    if ns.op == "batch":
        return _batch()
    try:
        _emit(answer(_request(ns)))
    except OracleError as err:
        return _fail(str(err))
    except Exception as err:
        return _fail(f"the request could not be answered: {err}")
    return 0


def selfplay_main(argv: Sequence[str]) -> int:
    from cardavia.selfplay import selfplay_records  # the agents load only when asked for

    p = _Parser(prog="cardavia selfplay", description="Seeded self-play writing game records.")
    p.add_argument("--game", default=GUANDAN.name, choices=list(GAME_NAMES))
    p.add_argument("--deals", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--agent", nargs="+", default=["random"])
    p.add_argument("--out", required=True)
    # issue 16: independent shards (Guandan: a match each) on local processes or on Ray
    p.add_argument("--shards", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--ray", metavar="auto|ADDRESS", default=None)
    try:
        ns = p.parse_args(list(argv))
        if ns.deals < 1:
            raise _UsageError("--deals must be at least 1")
        records: Any = selfplay_records(ns.game, ns.deals, ns.seed, ns.agent)
        if any("=" in a for a in ns.agent) or ns.shards != 1 or ns.workers != 1 or ns.ray is not None:
            from cardavia.env.cluster import selfplay_sharded

            if any("=" in a for a in ns.agent):
                from cardavia.env.agents import resolve_agents

                ns.agent = resolve_agents(ns.agent)
            records = selfplay_sharded(
                ns.game, ns.deals, ns.seed, ns.agent, shards=ns.shards, workers=ns.workers, ray_address=ns.ray
            )
        count = 0
        with open(ns.out, "w", encoding="utf-8") as fh:
            for record in records:
                fh.write(json.dumps(record, ensure_ascii=False) + "\n")
                count += 1
    except (_UsageError, ValueError, OSError) as err:
        return _fail(str(err))
    _emit({"game": ns.game, "deals": count, "seed": ns.seed, "out": ns.out})
    return 0


def replay_main(argv: Sequence[str]) -> int:
    from cardavia.replay_reader import RecordFileError, read_records

    p = _Parser(prog="cardavia replay", description="Re-check a game record against the rules.")
    p.add_argument("file")
    try:
        ns = p.parse_args(list(argv))
        with open(ns.file, encoding="utf-8") as fh:  # streamed: one record at a time
            outcomes, problem = replay_records(read_records(fh, ns.file))
    except UnicodeDecodeError as err:
        return _fail(f"{ns.file} is not a UTF-8 text file (bad byte at offset {err.start})")
    except OSError as err:
        return _fail(f"cannot read {ns.file}: {err.strerror or err}")
    except (_UsageError, RecordFileError) as err:
        return _fail(str(err))
    if problem is not None:
        _emit(problem.to_json() | {"checked": len(outcomes)})
        return 1
    _emit({"ok": True, "deals": len(outcomes), "outcomes": outcomes})
    return 0


def serve_main(argv: Sequence[str]) -> int:
    from cardavia.server.cli_serve import main as serve

    serve(list(argv))
    return 0


def db_main(argv: Sequence[str]) -> int:
    from cardavia.server.cli_db import main as db

    return db(list(argv))


def bench_main(argv: Sequence[str]) -> int:
    from cardavia.benchmark import main as bench

    return int(bench(list(argv)))


def tournament_main(argv: Sequence[str]) -> int:
    from cardavia.ai.tournament import tournament_main as run

    return int(run(list(argv)))


def native_main(argv: Sequence[str]) -> int:
    from cardavia.ai.native import main as native

    return native(list(argv))


COMMANDS = {
    "rules": rules_main,
    "selfplay": selfplay_main,
    "replay": replay_main,
    "serve": serve_main,
    "db": db_main,
    "bench": bench_main,
    "tournament": tournament_main,
    "native": native_main,
}

USAGE = """usage: cardavia COMMAND …

commands:
  serve       start the web app and print the URL to open
  db          the database's schema: db upgrade (migrations), db current
  rules       rules questions as JSON: classify, beats, legal, tribute, settle, batch
  selfplay    seeded self-play writing game records (JSONL)
  replay      re-check a game record against the rules
  tournament  duplicate-deal tournaments between agents
  bench       engine speed figures
  native      the AI's compiled modules: native (in use?), native build (compile them)
"""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0
    command = COMMANDS.get(args[0])
    if command is None:
        sys.stderr.write(f"cardavia: unknown command {args[0]!r}\n{USAGE}")
        return 2
    return command(args[1:])


if __name__ == "__main__":
    raise SystemExit(main())
