"""Engine speed of this checkout against another one, measured in the same run.

Runs ``cardavia bench`` (random self-play decisions/s per game, legal-move timings) on the
reference tree and on this tree, alternating, and prints each figure with the ratio
(this / reference; above 1 is faster for rates, below 1 is faster for times).

Run: ``.venv/bin/python bench/engine_compare.py --reference /path/to/other/checkout
[--rounds 3] [--seconds 3] [--samples 100]`` (make the reference with
``git worktree add /tmp/ref <commit>``). Each run is pinned to one core when possible.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
FIGURE = re.compile(
    r"(?P<game>guandan|runfast): random self-play (?P<rate>[\d,]+) decisions/s"
    r"|(?P<wilds>\d) wilds: all legal moves, median (?P<moves>[\d.]+) ms .*? (?P<combos>[\d.]+) ms as Combo"
)


def run(tree: Path, seconds: float, samples: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    cmd = [sys.executable, "-c", "import sys; from cardavia.benchmark import main; sys.exit(main(sys.argv[1:]))",
           "--seconds", str(seconds), "--samples", str(samples)]
    if shutil.which("taskset"):
        cmd = ["taskset", "-c", "0", *cmd]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    figures: dict[str, float] = {}
    for m in FIGURE.finditer(out):
        if m.group("game"):
            figures[f"{m.group('game')} self-play decisions/s"] = float(m.group("rate").replace(",", ""))
        else:
            w = m.group("wilds")
            figures[f"guandan legal moves, {w} wilds (ms)"] = float(m.group("moves"))
            figures[f"guandan legal moves as Combo, {w} wilds (ms)"] = float(m.group("combos"))
    return figures


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reference", required=True, type=Path)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--samples", type=int, default=100)
    ns = p.parse_args()
    ref: dict[str, list[float]] = {}
    this: dict[str, list[float]] = {}
    for _ in range(ns.rounds):
        for tree, into in ((ns.reference, ref), (HERE, this)):
            for key, value in run(tree, ns.seconds, ns.samples).items():
                into.setdefault(key, []).append(value)
    print(f"reference: {ns.reference}   this: {HERE}   (median of {ns.rounds} alternating rounds)")
    for key in ref:
        a, b = statistics.median(ref[key]), statistics.median(this[key])
        print(f"{key:45s} reference {a:10,.2f}   this {b:10,.2f}   ratio {b / a:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
