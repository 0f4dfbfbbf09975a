"""Paired experiments on the search's knobs: the expert with module constants set, board by
board on the duplicate boards of ``cardavia tournament``, then the paired difference.

    # one process per variant, each on its own core; the results go to a JSON-lines file
    taskset -c 0 .venv/bin/python bench/ai_paired.py run --game runfast --agents expert basic \\
        --boards 800:1600 --out /tmp/base.jsonl
    taskset -c 1 .venv/bin/python bench/ai_paired.py run --game runfast --agents expert basic \\
        --boards 800:1600 --set runfast.search.PLAY_EVIDENCE=0.1 --out /tmp/evid.jsonl
    # the paired difference of the first agent's result on the boards both files hold
    .venv/bin/python bench/ai_paired.py compare /tmp/base.jsonl /tmp/evid.jsonl

``--set MODULE.NAME=VALUE`` sets a module-level constant of ``cardavia.ai`` (the module path
after ``cardavia.ai.``, the value a Python literal) before any board is played; the compiled
modules read their constants from their namespace on every use (docs/ai.md, "What can be
changed at run time"). ``--samples N`` fixes the expert's sampled deals a decision (no clock:
the result does not depend on the machine's load); otherwise ``--think-ms`` (or the agents'
defaults) applies. A run appends one line a board and skips the boards its file already
holds, so a stopped run resumes. The compared figure is the first agent's: Guandan its
deal-win share (and levels a deal), Run Fast its points a deal — the same boards and seeds
as ``cardavia tournament --seed S``, so a knob's effect is measured without the cards' luck.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardavia.ai import native
from cardavia.ai.base import Agent
from cardavia.ai.expert import ExpertAgent
from cardavia.ai.games import game_ai
from cardavia.ai.stats import mean_ci
from cardavia.ai.tournament import build_agent
from cardavia.rules.seeds import deal_seed


def apply_setting(text: str) -> tuple[str, Any]:
    """Set ``MODULE.NAME=VALUE`` (module under ``cardavia.ai``); returns the full name and value.

    >>> apply_setting("runfast.search.PLAY_EVIDENCE=1.0")
    ('cardavia.ai.runfast.search.PLAY_EVIDENCE', 1.0)
    """
    target, sep, literal = text.partition("=")
    module_name, _, attr = target.strip().rpartition(".")
    if not sep or not module_name or not attr:
        raise ValueError(f"--set {text!r}: expected MODULE.NAME=VALUE")
    module = importlib.import_module(f"cardavia.ai.{module_name}")
    if not hasattr(module, attr):
        raise ValueError(f"--set {text!r}: cardavia.ai.{module_name} has no {attr}")
    value = ast.literal_eval(literal.strip())
    setattr(module, attr, value)
    return f"cardavia.ai.{module_name}.{attr}", value


def parse_boards(text: str) -> range:
    """``A:B`` (boards A … B−1) or ``N`` (boards 0 … N−1).

    >>> parse_boards("800:1600")
    range(800, 1600)
    """
    first, sep, last = text.partition(":")
    return range(int(first), int(last)) if sep else range(int(first))


def figure(game: str, board: dict[str, Any]) -> float:
    """The first agent's result on one board: Guandan deal-win share, Run Fast points a deal."""
    if game == "guandan":
        return float(board["wins"][0]) / 2
    return float(board["score"][0]) / float(board["games"][0])


def _levels(board: dict[str, Any]) -> float:
    return float(board["levels"][0] - board["levels"][1]) / 2


def run(args: argparse.Namespace) -> int:
    settings = [apply_setting(s) for s in args.set]
    out = Path(args.out)
    done: set[int] = set()
    if out.exists():
        done = {json.loads(line)["index"] for line in out.read_text().splitlines() if line.strip()}
    fmt = game_ai(args.game).tournament
    slots = fmt.slots(args.agents)

    def build(name: str, agent_seed: int) -> Agent:
        if name == "expert" and args.samples is not None:
            return ExpertAgent(agent_seed, budget_ms=1e9, hard_cap_ms=1e9, max_samples=args.samples)
        if name == "expert" and args.hard_cap_ms is not None:
            budget = 150.0 if args.think_ms is None else args.think_ms
            return ExpertAgent(agent_seed, budget_ms=budget, hard_cap_ms=args.hard_cap_ms)
        return build_agent(name, agent_seed, args.think_ms)

    boards = [i for i in parse_boards(args.boards) if i not in done]
    head = {
        "settings": {k: repr(v) for k, v in settings}, "samples": args.samples, "think_ms": args.think_ms,
        "hard_cap_ms": args.hard_cap_ms,
        "ai_modules": native.status().reason, "load": os.getloadavg()[0],
    }
    print(json.dumps(head), file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    with out.open("a") as sink:
        for k, index in enumerate(boards, 1):
            t1 = time.perf_counter()
            board = fmt.play(slots, deal_seed(args.seed, index), index, build)
            board["seconds"] = round(time.perf_counter() - t1, 3)
            sink.write(json.dumps(board) + "\n")
            sink.flush()
            if k % 20 == 0 or k == len(boards):
                print(f"  {k}/{len(boards)} boards, {time.perf_counter() - t0:.0f} s,"
                      f" load {os.getloadavg()[0]:.2f}", file=sys.stderr, flush=True)
    return 0


def _read(path: str) -> dict[int, dict[str, Any]]:
    return {b["index"]: b for b in (json.loads(x) for x in Path(path).read_text().splitlines() if x.strip())}


def _fmt(t: tuple[float, float, float], scale: float) -> str:
    m, lo, hi = (v * scale for v in t)
    return f"{m:+.3f} ± {(hi - lo) / 2:.3f} [{lo:+.3f}, {hi:+.3f}]"


def compare(args: argparse.Namespace) -> int:
    base, other = _read(args.base), _read(args.other)
    common = sorted(set(base) & set(other))
    if not common:
        print("the two files share no board")
        return 2
    scale = 100.0 if args.game == "guandan" else 1.0
    unit = "points of deal-win share" if args.game == "guandan" else "points a deal"
    a = [figure(args.game, base[i]) for i in common]
    b = [figure(args.game, other[i]) for i in common]
    diff = [y - x for x, y in zip(a, b, strict=True)]
    print(f"{len(common)} common boards ({common[0]}…{common[-1]}), {unit}")
    print(f"  base  {args.base}: {_fmt(mean_ci(a), scale)}, {sum(base[i]['seconds'] for i in common):.0f} s")
    print(f"  other {args.other}: {_fmt(mean_ci(b), scale)}, {sum(other[i]['seconds'] for i in common):.0f} s")
    print(f"  paired other − base: {_fmt(mean_ci(diff), scale)}")
    if args.game == "guandan":
        la = [_levels(base[i]) for i in common]
        lb = [_levels(other[i]) for i in common]
        print(f"  levels margin a deal: base {mean_ci(la)[0]:+.3f}, other {mean_ci(lb)[0]:+.3f},"
              f" paired {_fmt(mean_ci([y - x for x, y in zip(la, lb, strict=True)]), 1.0)}")
    sd = math.sqrt(sum((d - sum(diff) / len(diff)) ** 2 for d in diff) / max(1, len(diff) - 1))
    print(f"  paired sd a board {sd * scale:.3f}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="play boards with the knobs set, one JSON line a board")
    r.add_argument("--game", required=True, choices=["guandan", "runfast"])
    r.add_argument("--agents", nargs="+", default=["expert", "basic"])
    r.add_argument("--boards", default="400", help="N or A:B")
    r.add_argument("--seed", type=int, default=2024)
    r.add_argument("--samples", type=int, default=None, help="fixed sampled deals a decision, no clock")
    r.add_argument("--think-ms", type=float, default=None)
    r.add_argument("--hard-cap-ms", type=float, default=None,
                   help="the expert's hard cap (default: twice --think-ms, or its own 280 ms)")
    r.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE")
    r.add_argument("--out", required=True)
    c = sub.add_parser("compare", help="the paired difference of two runs on their common boards")
    c.add_argument("base")
    c.add_argument("other")
    c.add_argument("--game", default=None, choices=["guandan", "runfast"])
    args = parser.parse_args(argv)
    if args.command == "run":
        return run(args)
    if args.game is None:
        first = next(iter(_read(args.base).values()), {})
        args.game = "guandan" if "wins" in first else "runfast"
    return compare(args)


if __name__ == "__main__":
    raise SystemExit(main())
