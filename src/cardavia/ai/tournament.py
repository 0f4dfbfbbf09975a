"""Duplicate-deal tournaments between agents, with 95 % confidence intervals.

``cardavia tournament --game G --agents A B [C] --deals N --seed S [--think-ms T]
[--workers K] [--json]``

* **Guandan** (``--agents A B``: team A vs team B): every deal is played twice with the same
  hands and first leader — A on seats 0+2, then A on seats 1+3 (teams swapped). Deals are
  first deals of a match (no tribute) at a level drawn from the deal seed (2…A), so wilds vary.
  Reported per side: deal-win rate and mean levels gained per deal (G-1.3).
* **Run Fast** (``--agents A B [C]``; two names mean A against two B): every deal is played
  three times with the agents rotated through the seats. Reported per agent: mean score per
  deal (R-5) and the go-out-first rate.

Each game's format is in its package (:mod:`cardavia.ai.guandan.tournament`,
:mod:`cardavia.ai.runfast.tournament`), found through :data:`cardavia.ai.games.GAMES`.

A deal's duplicate games form one observation, so the confidence intervals (normal
approximation, mean ± 1.96·sd/√n over deals) already remove most of the card luck.
Progress goes to stderr; stdout gets a table, or the JSON summary with ``--json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cardavia.ai import AGENTS, make_agent, native
from cardavia.ai.base import Agent
from cardavia.ai.difficulty import DIFFICULTIES, agent_for
from cardavia.ai.expert import ExpertAgent
from cardavia.ai.games import GAMES, game_ai
from cardavia.ai.stats import mean_ci
from cardavia.ai.v1.agent import ExpertV1Agent
from cardavia.rules.seeds import deal_seed

#: the searching agents ``--think-ms`` applies to (the others ignore it)
SEARCHING: dict[str, type[ExpertAgent] | type[ExpertV1Agent]] = {
    "expert": ExpertAgent, "expert_v1": ExpertV1Agent,
}


def build_agent(name: str, seed: int, think_ms: float | None = None) -> Agent:
    """An agent by name (``cardavia.ai.AGENTS`` or a difficulty), ``think_ms`` for search."""
    searching = SEARCHING.get(name)
    if searching is not None and think_ms is not None:
        return searching(seed, budget_ms=think_ms, hard_cap_ms=max(2 * think_ms, think_ms + 50))
    if name in AGENTS:
        return make_agent(name, seed)
    if name in DIFFICULTIES:
        return agent_for(name, seed)
    known = ", ".join([*sorted(AGENTS), *DIFFICULTIES])
    raise ValueError(f"unknown agent {name!r}; choose one of {known}")


def play_board(
    game: str, slots: Sequence[str], seed: int, index: int, think_ms: float | None = None
) -> dict[str, Any]:
    """Board ``index`` of a tournament with ``seed``: the deal played in every seating of the
    agents in ``slots`` (the game's duplicate format), and its per-side results."""

    def build(name: str, agent_seed: int) -> Agent:
        return build_agent(name, agent_seed, think_ms)

    return game_ai(game).tournament.play(slots, deal_seed(seed, index), index, build)


def _play(args: tuple[str, tuple[str, ...], int, int, float | None]) -> dict[str, Any]:
    return play_board(*args)


def run(
    game: str,
    names: Sequence[str],
    deals: int,
    seed: int,
    think_ms: float | None = None,
    workers: int = 1,
    progress: bool = True,
    ray: str | None = None,
) -> dict[str, Any]:
    """Play the tournament and return its JSON summary."""
    fmt = game_ai(game).tournament
    slots = fmt.slots(names)
    for name in set(slots):
        build_agent(name, 0, think_ms)  # fail early on a bad name
    jobs = [(game, slots, seed, i, think_ms) for i in range(deals)]
    results: list[dict[str, Any]] = []
    t0 = time.perf_counter()

    def note(r: dict[str, Any]) -> None:
        results.append(r)
        if progress and (len(results) % max(1, deals // 20) == 0 or len(results) == deals):
            el = time.perf_counter() - t0
            print(f"  {len(results)}/{deals} deals, {el:.0f}s", file=sys.stderr, flush=True)

    if ray is not None:  # issue 16: the same boards on Ray, collected in board order
        from cardavia.env.cluster import ray_map

        for r in ray_map(_play, jobs, ray):
            note(r)
    elif workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for r in pool.map(_play, jobs, chunksize=max(1, deals // (workers * 8))):
                note(r)
    else:
        for job in jobs:
            note(_play(job))
    results.sort(key=lambda r: r["index"])
    summary: dict[str, Any] = {
        "game": game, "agents": list(names), "deals": deals, "seed": seed,
        "think_ms": think_ms, "workers": workers, "seconds": round(time.perf_counter() - t0, 1),
        "ai_modules": native.status().reason,  # compiled or plain Python (cardavia.ai.native)
    }
    summary.update(fmt.summarize(results, names, slots))
    return summary


def format_table(summary: dict[str, Any]) -> str:
    """The human-readable table of a summary."""
    head = (
        f"{summary['game']} tournament: {' vs '.join(summary['agents'])}, {summary['deals']}"
        f" duplicate deals ({summary['games']} games), seed {summary['seed']},"
        f" think {summary['think_ms'] or 'default'} ms, {summary['seconds']} s,"
        f" AI modules {summary.get('ai_modules', 'pure')}"
    )
    return "\n".join([head, *game_ai(summary["game"]).tournament.lines(summary)])


def tournament_main(argv: list[str]) -> int:
    """``cardavia tournament …``; returns the exit status."""
    parser = argparse.ArgumentParser(prog="cardavia tournament", description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True, choices=list(GAMES))
    parser.add_argument("--agents", required=True, nargs="+", metavar="AGENT")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--think-ms", type=float, default=None, help="expert's budget per move")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--json", action="store_true", help="print the JSON summary")
    parser.add_argument("--ray", metavar="auto|ADDRESS", default=None, help="play the boards on Ray")
    args = parser.parse_args(argv)
    if args.deals < 1:
        print(json.dumps({"error": f"--deals {args.deals} must be at least 1"}))
        return 2
    try:
        if any("=" in a for a in args.agents):  # NAME=PATH: a learned policy (cardavia.env.agents)
            from cardavia.env.agents import resolve_agents

            args.agents = resolve_agents(args.agents)
        summary = run(
            args.game, args.agents, args.deals, args.seed, args.think_ms, max(1, args.workers),
            ray=args.ray,
        )
    except ValueError as exc:
        print(json.dumps({"error": str(exc)}))
        return 2
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(format_table(summary))
    return 0


__all__ = ["build_agent", "deal_seed", "format_table", "mean_ci", "play_board", "run", "tournament_main"]


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(tournament_main(sys.argv[1:]))
