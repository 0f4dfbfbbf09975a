"""What a Guandan deal's outcome is worth to the searching team, in its match.

The search values a finished deal by who finished first and how many levels that team
gains (G-1.3): ``1 + 0.5 × levels``. In a match the levels are not all worth the same:

* a team never passes A (G-1.4), so close to A the bigger finishes gain less (a team on K
  gains 1 level whether its partner is 2nd or last);
* a team that stands at A in a deal played at A wins the **match** by finishing 1st with the
  partner not last (G-1.6) — worth :data:`MATCH_VALUE` — while 1st and 4th wins the deal but
  gains nothing (the team stays at A).

:func:`outcome_values` turns the team levels and the deal's level into a table, one row per
winning team, one entry per finish (levels 1–3 of G-1.3); the rollouts and the endgame
solver read it (:func:`value_for`).

>>> values = outcome_values((14, 9), 14)   # we (team 0) stand at A, the deal at A
>>> value_for(values, outcome([0, 2]), me=0)   # 1st and 2nd: the match
4.0
>>> value_for(values, outcome([0, 1, 3]), me=0)   # 1st and 4th: the deal, no level
1.0
>>> value_for(values, outcome([1, 3]), me=0)   # they finish 1st and 2nd: 9 → Q
-2.5
>>> outcome_values(None, 5) == PLAIN
True
"""

from __future__ import annotations

from collections.abc import Sequence

from cardavia.cards import Rank

WIN_VALUE = 1.0
LEVEL_VALUE = 0.5
#: a match won (G-1.6): more than any deal (at most 1 + 0.5 × 3)
MATCH_VALUE = 4.0
ACE = int(Rank.ACE)

#: [winning team][levels 0–3 of G-1.3] → the deal's value for the winning team
Values = tuple[tuple[float, ...], tuple[float, ...]]

_PLAIN_ROW = tuple(WIN_VALUE + LEVEL_VALUE * adv for adv in range(4))
#: the values outside a match (levels unknown): every level counts
PLAIN: Values = (_PLAIN_ROW, _PLAIN_ROW)


def outcome_values(team_levels: Sequence[int] | None, level: int) -> Values:
    """The value table of a deal played at ``level`` with the teams at ``team_levels``."""
    if team_levels is None:
        return PLAIN
    rows: list[tuple[float, ...]] = []
    for team in (0, 1):
        at = team_levels[team]
        row = []
        for adv in range(4):
            if at == ACE and level == ACE and adv >= 2:
                row.append(MATCH_VALUE)
            else:
                row.append(WIN_VALUE + LEVEL_VALUE * (min(ACE, at + adv) - at))
        rows.append(tuple(row))
    return rows[0], rows[1]


def outcome(places: Sequence[int]) -> tuple[int, int] | None:
    """(winning team, levels of G-1.3) once the finishing order decides them, else None."""
    if not places:
        return None
    first = places[0]
    mate = (first + 2) % 4
    if mate in places:
        return first % 2, 4 - places.index(mate)  # 2nd → 3, 3rd → 2
    if len(places) >= 3:
        return first % 2, 1
    return None


def value_for(values: Values, result: tuple[int, int] | None, me: int) -> float:
    """The value of a decided ``result`` (:func:`outcome`) for ``me``'s team."""
    assert result is not None
    team, adv = result
    v = values[team][adv]
    return v if team == me % 2 else -v


__all__ = ["MATCH_VALUE", "PLAIN", "Values", "outcome", "outcome_values", "value_for"]
