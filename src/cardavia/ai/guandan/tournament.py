"""The Guandan duplicate tournament (:mod:`cardavia.ai.tournament`): team A vs team B.

Every deal is played twice with the same hands and first leader — A on seats 0+2, then A
on seats 1+3 (teams swapped). Deals are first deals of a match (no tribute) at a level
drawn from the deal seed (2…A), so wilds vary. Reported per side: deal-win rate and mean
levels gained per deal (G-1.3).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardavia.ai.base import Agent
from cardavia.ai.runner import guandan_deal, play_out
from cardavia.ai.stats import ci_json, mean_ci


def slots(names: Sequence[str]) -> tuple[str, ...]:
    """The agent of each side (A, B)."""
    if len(names) != 2:
        raise ValueError("Guandan tournaments take two agents (team A, team B)")
    return tuple(names)


def play(
    names: Sequence[str], ds: int, index: int, build: Callable[[str, int], Agent]
) -> dict[str, Any]:
    """Deal ``index`` (seed ``ds``): A's and B's wins and levels over the two duplicate games."""
    wins = [0, 0]
    levels = [0, 0]
    bombs_on_partner = 0
    bombs_out = 0
    overtakes = 0
    plays = 0
    for swap in (0, 1):
        side_of = [(s + swap) % 2 for s in range(4)]  # seat → side (0 = A, 1 = B)
        agents = [build(names[side_of[s]], ds * 8 + s) for s in range(4)]
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


def summarize(results: Sequence[dict[str, Any]], names: Sequence[str], slots: Sequence[str]) -> dict[str, Any]:
    """The per-side part of the summary (the results are sorted by deal)."""
    deals = len(results)
    sides = []
    for side in (0, 1):
        win = mean_ci([r["wins"][side] / 2 for r in results])
        lv = mean_ci([r["levels"][side] / 2 for r in results])
        sides.append({
            "agent": names[side], "side": "AB"[side],
            "win_rate": ci_json(win, rate=True), "levels_per_deal": ci_json(lv),
        })
    return {
        "games": 2 * deals,
        "sides": sides,
        "bombs_over_partner": sum(r["bombs_on_partner"] for r in results),
        "bombs_over_partner_going_out": sum(r.get("bombs_out", 0) for r in results),
        "overtakes_of_partner": sum(r["overtakes"] for r in results),
        "plays": sum(r["plays"] for r in results),
    }


def lines(summary: dict[str, Any]) -> list[str]:
    """The table rows of a summary (after its head line)."""
    out = [f"{'side':<6}{'agent':<10}{'deal-win rate [95% CI]':<30}{'levels/deal [95% CI]':<28}"]
    for s in summary["sides"]:
        w, lv = s["win_rate"], s["levels_per_deal"]
        out.append(
            f"{s['side']:<6}{s['agent']:<10}"
            f"{w['mean'] * 100:5.1f}% [{w['lo'] * 100:5.1f}, {w['hi'] * 100:5.1f}]{'':<10}"
            f"{lv['mean']:5.2f} [{lv['lo']:5.2f}, {lv['hi']:5.2f}]"
        )
    out.append(
        f"plays over the partner's winning play: {summary['overtakes_of_partner']}, of which"
        f" bombs: {summary['bombs_over_partner']} ({summary['bombs_over_partner_going_out']}"
        f" of them going out), of {summary['plays']} plays"
    )
    return out


__all__ = ["PartnerWatch", "lines", "play", "slots", "summarize"]
