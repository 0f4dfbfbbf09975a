"""The Run Fast joint endgame (``cardavia.ai.runfast.joint``): every sampled deal solved at
once, one plan for the deals the searcher cannot tell apart (no strategy fusion)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.ai.runfast import search as rs
from cardavia.ai.runfast.endgame import solve_each
from cardavia.ai.runfast.joint import solve_joint
from cardavia.rules.combo import Pattern
from cardavia.rules.runfast.moves import PAIR, patterns_of_ranks

_DECK = [r for r in range(3, 14) for _ in range(4)] + [14] * 3 + [2]


def _rc(ranks: list[int]) -> list[int]:
    rc = [0] * 15
    for r in ranks:
        rc[r] += 1
    return rc


def _deals(seed: int, mine: int, first: int, second: int, count: int) -> list[list[list[int]]]:
    """``count`` deals sharing seat 0's hand; the other two hands split the same unseen cards
    differently on each (as the search's samples do)."""
    rng = random.Random(seed)
    cards = list(_DECK)
    rng.shuffle(cards)
    hand, rest = cards[:mine], cards[mine : mine + first + second]
    out = []
    for _ in range(count):
        rng.shuffle(rest)
        out.append([_rc(hand), _rc(rest[:first]), _rc(rest[first:])])
    return out


_TABLE = dict(turn=0, top=None, top_seat=None, passes=0, standing=None, me=0)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10**6), st.integers(1, 5), st.integers(1, 4), st.integers(1, 4), st.integers(1, 3),
    st.lists(st.booleans(), min_size=3, max_size=3),
)
def test_one_plan_for_all_deals_is_never_worth_more_than_each_deal_solved_alone(
    seed: int, mine: int, first: int, second: int, count: int, played: list[bool]
) -> None:
    """The joint solve chooses the searcher's later moves without the hidden hands, so each
    candidate's mean over the deals is at most its mean with every deal solved on its own
    (the perfect-information best reply); with one deal the two are the same solve."""
    deals = _deals(seed, mine, first, second, count)
    firsts: list[Pattern | None] = list(patterns_of_ranks(deals[0][0], None))
    table = {**_TABLE, "played_any": played}
    joint = solve_joint(deals, firsts=firsts, policy=rs.policy_move, budget=10**7, **table)  # type: ignore[arg-type]
    assert joint is not None
    alone = [solve_each(d, firsts=firsts, policy=rs.policy_move, budget=10**7, **table) for d in deals]  # type: ignore[arg-type]
    for k in range(len(firsts)):
        per_deal = [a[k] for a in alone]
        assert all(v is not None for v in per_deal)
        assert sum(joint[k]) <= sum(v for v in per_deal if v is not None) + 1e-9
        if count == 1:
            assert joint[k] == per_deal


def _fused_example() -> list[list[list[int]]]:
    # seat 0: 4 6 K K; the 3 and the 5 are out, in one other hand or the other
    return [
        [_rc([4, 6, 13, 13]), _rc([5, 13, 13]), _rc([3, 12, 14])],
        [_rc([4, 6, 13, 13]), _rc([3, 13, 13]), _rc([5, 12, 14])],
    ]


def test_a_guess_the_searcher_must_make_costs_in_the_joint_solve() -> None:
    """After its kings it must lead the 4 or the 6 without knowing which other seat holds
    the 3 and which the 5: solved alone each deal scores 3, one plan for both loses one."""
    deals = _fused_example()
    table = {**_TABLE, "played_any": [True] * 3}
    assert [solve_each(d, firsts=[PAIR[13]], policy=rs.policy_move, **table)[0] for d in deals] == [3.0, 3.0]  # type: ignore[arg-type]
    assert solve_joint(deals, firsts=[PAIR[13]], policy=rs.policy_move, **table) == [[-1.0, 3.0]]  # type: ignore[arg-type]


def test_joint_rows_revalue_the_search_rows_and_keep_them_when_out_of_nodes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardavia.ai.runfast import joint

    deals = _fused_example()
    rows = [[3.0, 0.0], [3.0, 0.0]]
    cands: list[Pattern | None] = [PAIR[13], PAIR[13]]
    state = dict(me=0, top=None, top_seat=None, passes=0, played_any=[True] * 3, standing=None, deadline=float("inf"))
    # the bonuses already earned (settled) are added to the joint values
    assert rs.joint_rows(rows, deals, cands, 20.0, **state) == [[19.0, 19.0], [23.0, 23.0]]  # type: ignore[arg-type]
    monkeypatch.setattr(joint, "JOINT_BUDGET", 3)
    assert rs.joint_rows(rows, deals, cands, 20.0, **state) == rows  # type: ignore[arg-type]


def test_joint_rows_keep_the_rows_past_the_deadline() -> None:
    deals = _fused_example()
    rows = [[3.0], [3.0]]
    state = dict(me=0, top=None, top_seat=None, passes=0, played_any=[True] * 3, standing=None, deadline=0.0)
    assert rs.joint_rows(rows, deals, [PAIR[13]], 0.0, **state) == rows  # type: ignore[arg-type]


def test_an_expert_with_the_joint_endgame_plays_whole_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    # JOINT_CARDS on: whole deals through the engine (every move checked by the rules)
    from cardavia.ai.expert import ExpertAgent
    from cardavia.ai.runner import play_out, runfast_deal

    monkeypatch.setattr(rs, "JOINT_CARDS", 24)
    agents = [ExpertAgent(s, max_samples=8) for s in range(3)]
    for seed in range(3):
        assert play_out(runfast_deal(7500 + seed), agents).over


def test_a_deal_too_big_to_solve_alone_is_rolled_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past :data:`~cardavia.ai.runfast.joint.ALONE_BUDGET` a deal left alone in its group
    takes the value ``alone`` gives it; without ``alone`` the joint solve gives up."""
    from cardavia.ai.runfast import joint

    deals = _deals(11, 5, 4, 4, 2)
    firsts: list[Pattern | None] = list(patterns_of_ranks(deals[0][0], None))
    table = {**_TABLE, "played_any": [True] * 3}
    monkeypatch.setattr(joint, "ALONE_BUDGET", 1)
    assert solve_joint(deals, firsts=firsts, policy=rs.policy_move, **table) is None  # type: ignore[arg-type]
    asked: list[int] = []

    def alone(me: int, rcs: list[list[int]], *state: object) -> float:
        asked.append(me)
        return 7.0

    got = solve_joint(deals, firsts=firsts, policy=rs.policy_move, alone=alone, **table)  # type: ignore[arg-type]
    assert got is not None and asked and set(asked) == {0}
    assert all(len(row) == 2 for row in got)
