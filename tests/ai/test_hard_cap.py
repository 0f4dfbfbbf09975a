"""The expert's hard cap holds inside a sample, not only between samples (issue 15)."""

from __future__ import annotations

import random
import time

import pytest

from cardavia.ai.guandan import search as gd
from cardavia.ai.guandan.endgame import solve_each
from cardavia.ai.reasons import because
from cardavia.ai.runfast import search as rf
from cardavia.ai.runner import guandan_deal, runfast_deal
from cardavia.ai.search import CAP_MARGIN, OutOfTime, Search, check_clock
from cardavia.cards import counts, parse_cards
from cardavia.rules.guandan.moves import patterns as gd_patterns
from cardavia.rules.runfast.moves import rank_counts as rf_rank_counts


def test_a_sample_running_into_the_cap_is_abandoned() -> None:
    search = Search(random.Random(1), budget_ms=40, hard_cap_ms=60)
    started: list[float] = []

    def slow_sample() -> list[float]:
        # a rollout that would take 10 s: it checks the clock as the real ones do
        started.append(time.perf_counter())
        end = time.perf_counter() + 10.0
        while time.perf_counter() < end:
            check_clock(search.stop_at)
        return [0.0, 1.0]

    t0 = time.perf_counter()
    move, reason = search.run([None, "alt"], None, slow_sample, t0, because("x", "pass"))  # type: ignore[list-item]
    elapsed = time.perf_counter() - t0
    assert elapsed < 2.0  # not the 10 s the sample wanted (wide: the CPU may be busy)
    assert elapsed >= 0.060 - CAP_MARGIN - 0.002  # it was the cap that stopped it
    assert (move, search.last_samples) == (None, 0)  # the abandoned sample is not counted
    assert "no time to search" in reason.text
    assert len(started) == 1
    assert search.stop_at == float("inf")  # outside a search nothing is stopped


def test_samples_finished_before_the_cap_count() -> None:
    search = Search(random.Random(1), budget_ms=30, hard_cap_ms=50)
    calls = 0

    def sample() -> list[float]:
        nonlocal calls
        calls += 1
        if calls <= 6:
            return [1.0, 0.0]
        end = time.perf_counter() + 10.0
        while time.perf_counter() < end:
            check_clock(search.stop_at)
        return [0.0, 1.0]

    t0 = time.perf_counter()
    move, reason = search.run([None, "alt"], None, sample, t0, because("x", "pass"))  # type: ignore[list-item]
    assert time.perf_counter() - t0 < 2.0  # the 7th sample (10 s) was abandoned
    assert search.last_samples == 6
    assert move is None
    assert "over 6 sampled deals" in reason.text


def _guandan_sample_position() -> tuple[list[list[int]], int]:
    deal = guandan_deal(5)
    return [counts(deal.hand(s)) for s in range(4)], deal.level_rank


def test_guandan_rollout_stops_at_a_passed_deadline() -> None:
    hands, level = _guandan_sample_position()
    units = [gd.units_of(h, level) for h in hands]
    sizes = [sum(h) for h in hands]
    args = ([list(u) for u in units], list(sizes), 0, None, None, 0, list[int](), 0, False)
    assert abs(gd.rollout(*args)) in (1.5, 2.0, 2.5)  # played out without a deadline ...
    with pytest.raises(OutOfTime):
        gd.rollout([list(u) for u in units], list(sizes), 0, None, None, 0, [], 0, False, 0.0)


def test_endgame_solve_stops_at_a_passed_deadline() -> None:
    hands = [counts(parse_cards(h)) for h in ("3s 4s 5d 8c 9c", "6s 7d Th", "4d 6d 9s", "5s 7s Jd")]
    first = gd_patterns(hands[0], 2, None)[0]
    value = solve_each(
        hands, 2, turn=0, top=None, top_seat=None, passes=0, places=[], me=0,
        firsts=[first], budget=10**6,
    )[0]
    assert value is not None  # solved in time without a deadline ...
    with pytest.raises(OutOfTime):
        solve_each(
            hands, 2, turn=0, top=None, top_seat=None, passes=0, places=[], me=0,
            firsts=[first], budget=10**6, deadline=0.0,
        )


def test_runfast_rollout_stops_at_a_passed_deadline() -> None:
    deal = runfast_deal(5)
    rcs = [rf_rank_counts(counts(deal.hand(s))) for s in range(3)]
    units = [rf.units_of(list(rc)) for rc in rcs]
    assert deal.turn is not None
    with pytest.raises(OutOfTime):
        rf.rollout(
            [list(u) for u in units], [list(r) for r in rcs], deal.turn, None, None, 0,
            [False] * 3, [], None, 0, False, 0.0,
        )
