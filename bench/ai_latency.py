"""AI latency per move over whole seeded games, on one core: p50 / p95 / max.

    .venv/bin/python bench/ai_latency.py                      # basic and expert, both games
    .venv/bin/python bench/ai_latency.py --agents expert --games 4 --game runfast

Every seat is played by the measured agent (its own decisions only are timed, trivial
forced moves included, as a server would see them). "max CPU ms" is the most CPU time one
decision used: on a busy machine the wall clock also counts the time the process waited.
The process is pinned to one CPU when the OS allows it (``--cpu``).
"""

from __future__ import annotations

import argparse
import os
import time

from cardavia.ai import make_agent, native
from cardavia.ai.base import Agent, Decision, ReturnDecision
from cardavia.ai.runner import play_out
from cardavia.observation import Observation
from cardavia.rules.games import GAME_NAMES, find_game


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


class CpuTimed:
    """An agent whose every ``act`` also records the CPU time it used (``time.process_time``:
    unlike the wall clock, it leaves out the time the process waited for a busy CPU)."""

    def __init__(self, inner: Agent, cpu: list[float]) -> None:
        self.inner = inner
        self.name = inner.name
        self.cpu = cpu

    def act(self, obs: Observation) -> Decision:
        c0 = time.process_time()
        try:
            return self.inner.act(obs)
        finally:
            self.cpu.append(time.process_time() - c0)

    def choose_return(self, obs: Observation) -> ReturnDecision:
        return self.inner.choose_return(obs)


def measure(agent_name: str, game: str, games: int, seed: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of every decision."""
    times: list[float] = []
    cpu: list[float] = []

    def on(seat: int, obs: object, decision: object, seconds: float) -> None:
        times.append(seconds)

    rules = find_game(game)
    for g in range(games):
        s = seed + g
        agents: list[Agent] = [
            CpuTimed(make_agent(agent_name, s * rules.seats + i), cpu) for i in range(rules.seats)
        ]
        play_out(rules.fresh_deal(s), agents, on)
    return times, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agents", nargs="+", default=["basic", "expert"])
    parser.add_argument("--game", choices=[*GAME_NAMES, "both"], default="both")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", type=int, default=0, help="CPU to pin to (-1: no pinning)")
    args = parser.parse_args()
    if args.cpu >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    games = list(GAME_NAMES) if args.game == "both" else [args.game]
    print(f"AI modules: {native.status().reason} (cardavia.ai.native)")
    print(
        f"{'agent':<14}{'game':<9}{'moves':>7}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}"
        f"{'max CPU ms':>12}"
    )
    for name in args.agents:
        for game in games:
            t0 = time.perf_counter()
            times, cpu = measure(name, game, args.games, args.seed)
            ms = [t * 1000 for t in times]
            print(
                f"{name:<14}{game:<9}{len(ms):>7}{percentile(ms, 0.5):>9.2f}"
                f"{percentile(ms, 0.95):>9.2f}{max(ms):>9.2f}{1000 * max(cpu):>12.2f}"
                f"   ({args.games} games, {time.perf_counter() - t0:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
