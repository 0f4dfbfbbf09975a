"""Guandan levels and the match (G-1.3 – G-1.7, G-6).

>>> r = settle_deal([2, 2], 2, [0, 2, 1, 3])
>>> r.winner_team, r.advance, r.levels, r.next_level, r.match_winner
(0, 3, (5, 2), 5, None)
>>> settle_deal([14, 9], 14, [2, 1, 0, 3]).match_winner   # at A, played at A, partner 3rd
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardavia.rules.errors import RulesError
from cardavia.rules.guandan.tribute import full_places, partner

ACE = 14


@dataclass(frozen=True, slots=True)
class DealSettlement:
    winner_team: int
    advance: int
    levels: tuple[int, int]
    next_level: int
    match_winner: int | None


def team_of(seat: int) -> int:
    """Team 0 = seats 0 and 2, team 1 = seats 1 and 3 (G-1.1)."""
    return seat % 2


def settle_deal(levels: Sequence[int], deal_level: int, places: Sequence[int]) -> DealSettlement:
    """Levels after a deal (G-1.3, G-1.4, G-1.6); ``levels`` are the teams' levels before it."""
    if len(levels) != 2 or any(not 2 <= lv <= ACE for lv in levels):
        raise RulesError(f"levels {list(levels)} must be two ranks from 2 to A")
    if deal_level not in levels:
        raise RulesError(
            f"deal level {deal_level} is neither team's level {list(levels)}; a deal is played"
            " at a team's level"
        )
    order = full_places(places)
    first = order[0]
    team = team_of(first)
    advance = 3 - order.index(partner(first)) + 1  # partner 2nd → 3, 3rd → 2, 4th → 1
    new = list(levels)
    match_winner: int | None = None
    if levels[team] == ACE and deal_level == ACE and advance >= 2:
        match_winner = team  # G-1.6
    else:
        new[team] = min(ACE, levels[team] + advance)
    return DealSettlement(team, advance, (new[0], new[1]), new[team], match_winner)
