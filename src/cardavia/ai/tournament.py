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

A deal's duplicate games form one observation, so the confidence intervals (normal
approximation, mean ± 1.96·sd/√n over deals) already remove most of the card luck.
Progress goes to stderr; stdout gets a table, or the JSON summary with ``--json``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cardavia.ai.base import Agent
from cardavia.ai.runner import guandan_deal, play_out, runfast_deal


def build_agent(name: str, seed: int, think_ms: float | None = None) -> Agent:
    """An agent by name (``cardavia.ai.AGENTS`` or a difficulty), ``think_ms`` for search."""
    from cardavia.ai import AGENTS, make_agent
    from cardavia.ai.difficulty import DIFFICULTIES, agent_for
    from cardavia.ai.expert import ExpertAgent

    if name == "expert" and think_ms is not None:
        return ExpertAgent(seed, budget_ms=think_ms, hard_cap_ms=max(2 * think_ms, think_ms + 50))
    if name in AGENTS:
        return make_agent(name, seed)
    if name in DIFFICULTIES:
        return agent_for(name, seed)
    known = ", ".join([*sorted(AGENTS), *DIFFICULTIES])
    raise ValueError(f"unknown agent {name!r}; choose one of {known}")


def deal_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7_919 + 17) % (2**62)


def play_guandan(names: Sequence[str], seed: int, index: int, think_ms: float | None) -> dict[str, Any]:
    """Deal ``index``: A's and B's wins and levels over the two duplicate games."""
    ds = deal_seed(seed, index)
    wins = [0, 0]
    levels = [0, 0]
    bombs_on_partner = 0
    bombs_out = 0
    overtakes = 0
    plays = 0
    for swap in (0, 1):
        side_of = [(s + swap) % 2 for s in range(4)]  # seat → side (0 = A, 1 = B)
        agents = [build_agent(names[side_of[s]], ds * 8 + s, think_ms) for s in range(4)]
        watch = PartnerWatch()
        deal = play_out(guandan_deal(ds), agents, watch)
        first = deal.places[0]
        side = side_of[first]
        advance = int(deal.result["advance"]) if deal.result else 0
        wins[side] += 1
        levels[side] += advance
        bombs_on_partner += watch.bombs
        bombs_out += watch.bombs_going_out
        overtakes += watch.overtakes
        plays += watch.plays
    return {
        "index": index, "wins": wins, "levels": levels,
        "bombs_on_partner": bombs_on_partner, "bombs_out": bombs_out, "overtakes": overtakes, "plays": plays,
    }


class PartnerWatch:
    """Counts plays over the partner's winning play (Guandan), bombs apart."""

    def __init__(self) -> None:
        self.bombs = 0
        self.bombs_going_out = 0
        self.overtakes = 0
        self.plays = 0

    def __call__(self, seat: int, obs: Any, decision: Any, seconds: float) -> None:
        if decision.combo is None:
            return
        self.plays += 1
        if obs.top is not None and obs.top_seat == (seat + 2) % 4:
            self.overtakes += 1
            if decision.combo.tier:
                self.bombs += 1
                if decision.combo.size == len(obs.hand):
                    self.bombs_going_out += 1


def play_runfast(names: Sequence[str], seed: int, index: int, think_ms: float | None) -> dict[str, Any]:
    """Deal ``index`` played three times, agents rotated: score and firsts per agent slot."""
    ds = deal_seed(seed, index)
    n = len(names)
    score = [0.0] * n
    first = [0] * n
    games = [0] * n
    for rot in range(3):
        slot_of = [(s + rot) % 3 for s in range(3)]  # seat → agent slot
        agents = [build_agent(names[slot_of[s]], ds * 8 + s, think_ms) for s in range(3)]
        deal = play_out(runfast_deal(ds), agents)
        assert deal.result is not None
        for s in range(3):
            score[slot_of[s]] += deal.result["scores"][s]
            games[slot_of[s]] += 1
        first[slot_of[deal.result["winner"]]] += 1
    return {"index": index, "score": score, "first": first, "games": games}


def _play(args: tuple[str, tuple[str, ...], int, int, float | None]) -> dict[str, Any]:
    game, names, seed, index, think_ms = args
    if game == "guandan":
        return play_guandan(names, seed, index, think_ms)
    return play_runfast(names, seed, index, think_ms)


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95 % confidence interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    m = sum(values) / n
    if n == 1:
        return m, m, m
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return m, m - half, m + half


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
    """Play the tournament and return its JSON summary (``ray``: boards on a Ray cluster,
    "auto" or an address; cardavia.env.cluster)."""
    if game == "guandan":
        if len(names) != 2:
            raise ValueError("Guandan tournaments take two agents (team A, team B)")
        slots = tuple(names)
    elif game == "runfast":
        if len(names) == 2:
            slots = (names[0], names[1], names[1])
        elif len(names) == 3:
            slots = tuple(names)
        else:
            raise ValueError("Run Fast tournaments take two or three agents")
    else:
        raise ValueError(f"unknown game {game!r}; games are guandan and runfast")
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
    }
    if game == "guandan":
        sides = []
        for side in (0, 1):
            win = mean_ci([r["wins"][side] / 2 for r in results])
            lv = mean_ci([r["levels"][side] / 2 for r in results])
            sides.append({
                "agent": names[side], "side": "AB"[side],
                "win_rate": _ci(win, rate=True), "levels_per_deal": _ci(lv),
            })
        summary["games"] = 2 * deals
        summary["sides"] = sides
        summary["bombs_over_partner"] = sum(r["bombs_on_partner"] for r in results)
        summary["bombs_over_partner_going_out"] = sum(r.get("bombs_out", 0) for r in results)
        summary["overtakes_of_partner"] = sum(r["overtakes"] for r in results)
        summary["plays"] = sum(r["plays"] for r in results)
    else:
        per = []
        for i, name in enumerate(slots):
            sc = mean_ci([r["score"][i] / r["games"][i] for r in results])
            fo = mean_ci([r["first"][i] / r["games"][i] for r in results])
            per.append({"agent": name, "slot": i, "score_per_deal": _ci(sc), "first_rate": _ci(fo, rate=True)})
        summary["games"] = 3 * deals
        summary["slots"] = per
    return summary


def _ci(t: tuple[float, float, float], rate: bool = False) -> dict[str, float]:
    lo, hi = (max(0.0, t[1]), min(1.0, t[2])) if rate else (t[1], t[2])
    return {"mean": round(t[0], 4), "lo": round(lo, 4), "hi": round(hi, 4)}


def format_table(summary: dict[str, Any]) -> str:
    """The human-readable table of a summary."""
    head = (
        f"{summary['game']} tournament: {' vs '.join(summary['agents'])}, {summary['deals']}"
        f" duplicate deals ({summary['games']} games), seed {summary['seed']},"
        f" think {summary['think_ms'] or 'default'} ms, {summary['seconds']} s"
    )
    lines = [head]
    if summary["game"] == "guandan":
        lines.append(f"{'side':<6}{'agent':<10}{'deal-win rate [95% CI]':<30}{'levels/deal [95% CI]':<28}")
        for s in summary["sides"]:
            w, lv = s["win_rate"], s["levels_per_deal"]
            lines.append(
                f"{s['side']:<6}{s['agent']:<10}"
                f"{w['mean'] * 100:5.1f}% [{w['lo'] * 100:5.1f}, {w['hi'] * 100:5.1f}]{'':<10}"
                f"{lv['mean']:5.2f} [{lv['lo']:5.2f}, {lv['hi']:5.2f}]"
            )
        lines.append(
            f"plays over the partner's winning play: {summary['overtakes_of_partner']}, of which"
            f" bombs: {summary['bombs_over_partner']} ({summary['bombs_over_partner_going_out']}"
            f" of them going out), of {summary['plays']} plays"
        )
    else:
        lines.append(f"{'slot':<6}{'agent':<10}{'score/deal [95% CI]':<28}{'first out [95% CI]':<28}")
        for s in summary["slots"]:
            sc, fo = s["score_per_deal"], s["first_rate"]
            lines.append(
                f"{s['slot']:<6}{s['agent']:<10}"
                f"{sc['mean']:+6.2f} [{sc['lo']:+6.2f}, {sc['hi']:+6.2f}]{'':<6}"
                f"{fo['mean'] * 100:5.1f}% [{fo['lo'] * 100:5.1f}, {fo['hi'] * 100:5.1f}]"
            )
    return "\n".join(lines)


def tournament_main(argv: list[str]) -> int:
    """``cardavia tournament …``; returns the exit status."""
    parser = argparse.ArgumentParser(prog="cardavia tournament", description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True, choices=["guandan", "runfast"])
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


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(tournament_main(sys.argv[1:]))
