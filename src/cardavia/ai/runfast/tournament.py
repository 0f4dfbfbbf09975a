"""The Run Fast duplicate tournament (:mod:`cardavia.ai.tournament`): three agent slots.

``--agents A B [C]``; two names mean A against two B. Every deal is played three times with
the agents rotated through the seats. Reported per agent: mean score per deal (R-5) and the
go-out-first rate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardavia.ai.base import Agent
from cardavia.ai.runner import play_out, runfast_deal
from cardavia.ai.stats import ci_json, mean_ci


def slots(names: Sequence[str]) -> tuple[str, ...]:
    """The agent of each slot: A B C, or A B B for two names."""
    if len(names) == 2:
        return (names[0], names[1], names[1])
    if len(names) == 3:
        return tuple(names)
    raise ValueError("Run Fast tournaments take two or three agents")


def play(
    names: Sequence[str], ds: int, index: int, build: Callable[[str, int], Agent]
) -> dict[str, Any]:
    """Deal ``index`` (seed ``ds``) played three times, agents rotated: score and firsts per slot."""
    n = len(names)
    score = [0.0] * n
    first = [0] * n
    games = [0] * n
    for rot in range(3):
        slot_of = [(s + rot) % 3 for s in range(3)]  # seat → agent slot
        agents = [build(names[slot_of[s]], ds * 8 + s) for s in range(3)]
        deal = play_out(runfast_deal(ds), agents)
        assert deal.result is not None
        for s in range(3):
            score[slot_of[s]] += deal.result["scores"][s]
            games[slot_of[s]] += 1
        first[slot_of[deal.result["winner"]]] += 1
    return {"index": index, "score": score, "first": first, "games": games}


def summarize(results: Sequence[dict[str, Any]], names: Sequence[str], slots: Sequence[str]) -> dict[str, Any]:
    """The per-slot part of the summary (the results are sorted by deal)."""
    per = []
    for i, name in enumerate(slots):
        sc = mean_ci([r["score"][i] / r["games"][i] for r in results])
        fo = mean_ci([r["first"][i] / r["games"][i] for r in results])
        per.append({"agent": name, "slot": i, "score_per_deal": ci_json(sc), "first_rate": ci_json(fo, rate=True)})
    return {"games": 3 * len(results), "slots": per}


def lines(summary: dict[str, Any]) -> list[str]:
    """The table rows of a summary (after its head line)."""
    out = [f"{'slot':<6}{'agent':<10}{'score/deal [95% CI]':<28}{'first out [95% CI]':<28}"]
    for s in summary["slots"]:
        sc, fo = s["score_per_deal"], s["first_rate"]
        out.append(
            f"{s['slot']:<6}{s['agent']:<10}"
            f"{sc['mean']:+6.2f} [{sc['lo']:+6.2f}, {sc['hi']:+6.2f}]{'':<6}"
            f"{fo['mean'] * 100:5.1f}% [{fo['lo'] * 100:5.1f}, {fo['hi'] * 100:5.1f}]"
        )
    return out


__all__ = ["lines", "play", "slots", "summarize"]
