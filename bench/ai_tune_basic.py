"""Tune the ``basic`` policy's knobs: a configured ``basic`` against ``basic`` itself, on the
same duplicate boards as the tournaments.

    .venv/bin/python bench/ai_tune_basic.py --game guandan --set follow_threshold=-0.75 --boards 4000
    .venv/bin/python bench/ai_tune_basic.py --game runfast --set lead_size_bonus=0.3 --boards 6000
    .venv/bin/python bench/ai_tune_basic.py --game guandan --expert --boards 4000

``--set`` names fields of the game's config (``GdConfig`` in :mod:`cardavia.ai.guandan.basic`,
``RfConfig`` in :mod:`cardavia.ai.runfast.basic`), comma-separated; ``--expert`` plays the
configuration the expert starts from (``EXPERT_CONFIG``). Guandan: the configured policy is
team A against two ``basic`` (deal-win share and levels a deal, each board played twice
with the teams swapped); Run Fast: slot A against two ``basic`` (points a deal, each board
played three times, seats rotated). ``basic`` draws no random numbers without noise, so the
boards differ only where the knobs change a decision: the intervals are those of the
per-board values. Fast (Guandan ≈ 25 ms a board, Run Fast ≈ 6 ms).
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from typing import Any

from cardavia.ai import tournament
from cardavia.ai.base import Agent
from cardavia.ai.basic import BasicAgent
from cardavia.ai.games import game_ai
from cardavia.ai.guandan import basic as gd_basic
from cardavia.ai.runfast import basic as rf_basic
from cardavia.ai.stats import mean_ci

_MODULES: dict[str, Any] = {"guandan": gd_basic, "runfast": rf_basic}
_CONFIGS: dict[str, Any] = {"guandan": gd_basic.GdConfig, "runfast": rf_basic.RfConfig}


def parse(game: str, spec: str) -> Any:
    """The game's config with the fields of ``spec`` (``name=value,…``) set."""
    fields = {f.name: f for f in dataclasses.fields(_CONFIGS[game])}
    values: dict[str, Any] = {}
    for part in filter(None, spec.split(",")):
        key, _, text = part.partition("=")
        if key not in fields:
            raise SystemExit(f"unknown knob {key!r}; knobs: {', '.join(fields)}")
        default: Any = fields[key].default
        values[key] = text in ("1", "true") if isinstance(default, bool) else type(default)(float(text))
    return _CONFIGS[game](**values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=sorted(_MODULES), required=True)
    parser.add_argument("--set", default="", help="knobs, e.g. follow_threshold=-0.75,danger_cards=8")
    parser.add_argument("--expert", action="store_true", help="the expert's starting configuration")
    parser.add_argument("--boards", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    cfg = _MODULES[args.game].EXPERT_CONFIG if args.expert else parse(args.game, args.set)
    real_build = tournament.build_agent

    def build(name: str, seed: int, think_ms: float | None = None) -> Agent:
        if name == "configured":
            return BasicAgent(seed, config=cfg, name="configured")
        return real_build(name, seed, think_ms)

    tournament.build_agent = build
    slots = game_ai(args.game).tournament.slots(["configured", "basic"])
    value: list[float] = []
    levels: list[float] = []
    t0 = time.perf_counter()
    for i in range(args.boards):
        row = tournament.play_board(args.game, slots, args.seed, i, None)
        if args.game == "guandan":
            value.append(row["wins"][0] / 2)
            levels.append((row["levels"][0] - row["levels"][1]) / 2)
        else:
            value.append(row["score"][0] / row["games"][0])
    changed = {
        f.name: getattr(cfg, f.name) for f in dataclasses.fields(cfg) if getattr(cfg, f.name) != f.default
    }
    print(f"{args.game}: configured basic {changed or '(defaults)'} vs basic, {args.boards} boards,"
          f" seed {args.seed}, {time.perf_counter() - t0:.0f} s")
    m, lo, hi = mean_ci(value)
    if args.game == "guandan":
        print(f"  deal-win share {m * 100:.2f} % [{lo * 100:.2f}, {hi * 100:.2f}]")
        m, lo, hi = mean_ci(levels)
        print(f"  levels a deal over basic {m:+.3f} [{lo:+.3f}, {hi:+.3f}]")
    else:
        print(f"  points a deal {m:+.3f} [{lo:+.3f}, {hi:+.3f}] (basic's two seats share the rest)")


if __name__ == "__main__":
    main()
