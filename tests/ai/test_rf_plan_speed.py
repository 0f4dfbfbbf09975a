"""The Run Fast planner's fast paths give the same plans as the plain computation: the
table of leaf values sums to the same float, and a cached plan is the plan computed afresh."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.ai.runfast import plan

_DECK = [r for r in range(3, 14) for _ in range(4)] + [14] * 3 + [2]  # the 48-card pack

hands = st.lists(st.sampled_from(range(len(_DECK))), min_size=1, max_size=16, unique=True).map(
    lambda idx: [sum(1 for i in idx if _DECK[i] == r) for r in range(15)]
)


@given(hands)
@settings(max_examples=300, deadline=None)
def test_leaf_table_is_the_sum_of_the_leaf_plays(rc: list[int]) -> None:
    pats = plan._leaf_patterns(rc)
    assert plan._leaf_score(rc) == sum(plan.unit_value(p) for p in pats) - plan.UNIT_COST * len(pats)


@given(hands)
@settings(max_examples=200, deadline=None)
def test_a_cached_plan_is_the_plan_computed_afresh(rc: list[int]) -> None:
    first = plan.best_plan(rc)
    assert plan.best_plan(list(rc)) is first  # from the cache
    plan._PLANS.clear()
    plan._MEMO.clear()
    again = plan.best_plan(rc)
    assert again == first and again is not first
    assert sum(u.size for u in again.units) == sum(rc[2:15])
