"""Seeded self-play: agents play whole deals through the public engine API.

Deal ``i`` is dealt from the same seed derivation as a play table (:mod:`cardavia.rules.seeds`),
so ``cardavia selfplay --seed S`` deals the cards of a table created with seed ``S``. Records
are yielded one by one and nothing else is kept: memory stays flat however many deals.

>>> records = list(selfplay_records("guandan", deals=1, seed=5, agent_names=["random"]))
>>> records[0]["game"], len(records[0]["places"])
('guandan', 4)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from cardavia.ai import make_agent
from cardavia.ai.base import Agent
from cardavia.ai.runner import play_out
from cardavia.ai.runner import step as step
from cardavia.rules.games import find_game


def seat_agents(game: str, names: Sequence[str], seed: int) -> list[Agent]:
    """One agent per seat: one name for all seats; in a partnership game two names are the
    teams (seats 0+2 and 1+3)."""
    rules = find_game(game)
    n = rules.seats
    if len(names) == 1:
        per_seat = [names[0]] * n
    elif rules.partnerships and len(names) == 2:
        per_seat = [names[s % 2] for s in range(n)]
    elif len(names) == n:
        per_seat = list(names)
    else:
        allowed = f"1, 2 or {n}" if rules.partnerships else f"1 or {n}"
        raise ValueError(f"give {allowed} agent names for {game}, not {len(names)}")
    return [make_agent(name, seed * 10 + seat) for seat, name in enumerate(per_seat)]


def selfplay_records(
    game: str, deals: int, seed: int, agent_names: Sequence[str]
) -> Iterator[dict[str, Any]]:
    """Play ``deals`` deals (Guandan: one match continued deal to deal) and yield their records."""
    rules = find_game(game)
    agents = seat_agents(game, agent_names, seed)
    series = rules.new_series(seed, keep_finished=False)
    for _ in range(deals):
        deal = series.start_deal()
        play_out(deal, agents)
        series.finish_deal()
        yield rules.record(deal)


__all__ = ["seat_agents", "selfplay_records", "step"]
