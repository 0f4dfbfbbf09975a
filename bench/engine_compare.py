"""Engine speed of this checkout against another one, measured in the same run.

The same measuring code runs on the reference tree and on this tree, alternating, each in
its own process pinned to one core: random self-play decisions per CPU-second for each game
(legal-move generation at every decision), and the median CPU milliseconds to list every
legal move of a fresh 27-card Guandan hand leading, with 0 and 2 wilds. CPU time (not wall
time) keeps the figures comparable on a busy machine. It prints each figure with the ratio
this / reference (above 1 is faster for rates; below 1 is faster for times).

Run: ``.venv/bin/python bench/engine_compare.py --reference /path/to/other/checkout
[--rounds 5] [--seconds 3]`` (make the reference with ``git worktree add /tmp/ref <commit>``).
The measuring code uses only import paths both trees have (old paths are kept as re-exports).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

MEASURE = r"""
import json, random, statistics, sys, time
from cardavia.ai import make_agent
from cardavia.cards import guandan_deck
from cardavia.rules.guandan.deal import GuandanMatch
from cardavia.rules.guandan.moves import counts, legal_moves
from cardavia.rules.runfast.deal import RunFastSession
from cardavia.selfplay import step

seconds = float(sys.argv[1])
out = {}
for name, series, n in (("guandan", GuandanMatch(1), 4), ("runfast", RunFastSession(1), 3)):
    agents = [make_agent("random", 1 + s) for s in range(n)]
    decisions, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds:
        deal = series.start_deal()
        while not deal.over:
            step(deal, agents)
            decisions += 1
        series.finish_deal()
    out[f"{name} self-play decisions per CPU-second"] = decisions / (time.process_time() - t0)
for wilds in (0, 2):
    rng, times = random.Random(7), []
    for _ in range(60):
        level = rng.randrange(2, 15)
        deck = guandan_deck()
        wild = [c for c in deck if c.code == (level - 2) * 4 + 1]
        rest = [c for c in deck if c.code != (level - 2) * 4 + 1]
        rng.shuffle(rest)
        cnt = counts(wild[:wilds] + rest[: 27 - wilds])
        t0 = time.process_time()
        legal_moves(cnt, level, None)
        times.append((time.process_time() - t0) * 1000)
    out[f"guandan all legal moves, {wilds} wilds (CPU ms, median)"] = statistics.median(times)
print(json.dumps(out))
"""


def run(tree: Path, seconds: float) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    cmd = [sys.executable, "-c", MEASURE, str(seconds)]
    if shutil.which("taskset"):
        cmd = ["taskset", "-c", "0", *cmd]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    figures: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return figures


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--reference", required=True, type=Path)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seconds", type=float, default=3.0)
    ns = p.parse_args()
    ref: dict[str, list[float]] = {}
    this: dict[str, list[float]] = {}
    for _ in range(ns.rounds):
        for tree, into in ((ns.reference, ref), (HERE, this)):
            for key, value in run(tree, ns.seconds).items():
                into.setdefault(key, []).append(value)
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else ["?"]
    print(f"reference: {ns.reference}   this: {HERE}   median of {ns.rounds} alternating rounds;"
          f" load average {' '.join(load)}")
    for key in ref:
        a, b = statistics.median(ref[key]), statistics.median(this[key])
        print(f"{key:55s} reference {a:10,.2f}   this {b:10,.2f}   ratio {b / a:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
