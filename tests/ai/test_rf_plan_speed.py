"""The Run Fast planner's fast paths give the best plan: its scores are whole points (so the
order plays are added in does not matter), the memoised search finds the score of an
exhaustive search over every set of sequences, and a cached plan is the plan computed afresh."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.ai.runfast import plan
from cardavia.rules.runfast.moves import PAIR_RUN, STRAIGHT

_DECK = [r for r in range(3, 14) for _ in range(4)] + [14] * 3 + [2]  # the 48-card pack


def hands(max_size: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.sampled_from(range(len(_DECK))), min_size=1, max_size=max_size, unique=True).map(
        lambda idx: [sum(1 for i in idx if _DECK[i] == r) for r in range(15)]
    )


def test_every_unit_value_is_a_whole_number_of_points() -> None:
    sequences = [p for table in (STRAIGHT, PAIR_RUN) for by_len in table.values() for p in by_len.values()]
    held = [[c if i == r else 0 for i in range(15)] for r in range(2, 15) for c in range(1, _DECK.count(r) + 1)]
    leaves = [p for rc in held for p in plan._leaf_patterns(rc)]
    for p in sequences + leaves:
        points = plan.unit_value(p) * plan.SCALE
        assert abs(points - round(points)) < 1e-9, p


def _exhaustive(rc: list[int], start: int) -> float:
    """The best score over every set of sequences (taken by start rank, never from a bomb:
    four of a rank, or the three aces) with the rest as leaf plays; no memo, no shortcut."""
    leaves = plan._leaf_patterns(rc)
    best = sum(plan.unit_value(p) for p in leaves) - plan.UNIT_COST * len(leaves)
    for s in range(start, 14):
        for table, copies in ((STRAIGHT, 1), (PAIR_RUN, 2)):
            for top, by_len in table.items():
                length = top - s + 1
                pat = by_len.get(length)
                if pat is None:
                    continue
                ranks = range(s, top + 1)
                if any(rc[r] < copies or rc[r] == 4 or (r == 14 and rc[14] == 3) for r in ranks):
                    continue
                rest = list(rc)
                for r in ranks:
                    rest[r] -= copies
                best = max(best, _exhaustive(rest, s) + plan.unit_value(pat) - plan.UNIT_COST)
    return best


@given(hands(11))
@settings(max_examples=150, deadline=None)
def test_the_search_finds_the_exhaustive_best(rc: list[int]) -> None:
    found = plan.best_plan(rc)
    assert abs(found.score - _exhaustive(rc, 3)) < 1e-9
    units = found.units
    assert abs(found.score - sum(u.value - plan.UNIT_COST for u in units)) < 1e-9
    assert sum(u.size for u in units) == sum(rc[2:15])


@given(hands(16))
@settings(max_examples=200, deadline=None)
def test_a_cached_plan_is_the_plan_computed_afresh(rc: list[int]) -> None:
    first = plan.best_plan(rc)
    assert plan.best_plan(list(rc)) is first  # from the cache
    plan._PLANS.clear()
    plan._MEMO.clear()
    again = plan.best_plan(rc)
    assert again == first and again is not first
    assert sum(u.size for u in again.units) == sum(rc[2:15])


def test_a_changed_unit_cost_remakes_the_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    rc = [0, 0, 1, 2, 2, 1, 1, 1, 0, 0, 0, 0, 0, 0, 3]  # 2, 33 44 5 6 7, AAA
    monkeypatch.setattr(plan, "UNIT_COST", 0.5)  # as a tuning run sets it (``--set``)
    cheap = plan.best_plan(rc)
    assert abs(cheap.score - _exhaustive(rc, 3)) < 1e-9
    monkeypatch.setattr(plan, "UNIT_COST", 1.0)
    assert abs(plan.best_plan(rc).score - _exhaustive(rc, 3)) < 1e-9
    assert plan.best_plan(rc).score != cheap.score
