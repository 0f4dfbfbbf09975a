"""The expert's hard cap holds inside a sample, not only between samples (issue 15)."""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from cardavia.ai.basic import BasicAgent
from cardavia.ai.expert import ExpertAgent
from cardavia.ai.reasons import because
from cardavia.ai.runner import guandan_deal, play_out, runfast_deal
from cardavia.ai.search import CAP_MARGIN, Search, check_clock


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
    assert elapsed < 0.060 + 0.005
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
    assert time.perf_counter() - t0 < 0.050 + 0.005
    assert search.last_samples == 6
    assert move is None
    assert "over 6 sampled deals" in reason.text


@pytest.fixture
def busy_cpu() -> Iterator[None]:
    """Another CPU-bound thread competes for the interpreter in 20 ms slices: the agent is
    stalled mid-sample as on an overloaded machine."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(0.02)
    stop = threading.Event()

    def spin() -> None:
        x = 0
        while not stop.is_set():
            x += 1

    t = threading.Thread(target=spin, daemon=True)
    t.start()
    try:
        yield
    finally:
        stop.set()
        t.join()
        sys.setswitchinterval(old)


@pytest.fixture
def warm() -> None:
    """One decision before the clock matters (lazy tables of the first call in a process)."""
    play_out(guandan_deal(6), [ExpertAgent(0, budget_ms=5, hard_cap_ms=20), *(BasicAgent(s) for s in range(3))])


def test_expert_cap_holds_on_a_busy_cpu(warm: None, busy_cpu: None) -> None:
    cap = 0.080
    agent = ExpertAgent(3, budget_ms=60, hard_cap_ms=cap * 1000)
    times: list[float] = []

    def on(seat: int, obs: object, decision: object, seconds: float) -> None:
        if seat == 0:
            times.append(seconds)

    play_out(guandan_deal(5), [agent, BasicAgent(1), BasicAgent(2), BasicAgent(3)], on)
    play_out(runfast_deal(5), [agent, BasicAgent(1), BasicAgent(2)], on)
    # a stall (a 20 ms slice of the other thread) can still come after the last clock
    # check, and one more when the answer is handed back; a sample's length never adds
    assert max(times) < cap + 2 * 0.020 + 0.010, sorted(times)[-5:]
    assert sorted(times)[len(times) // 2] < cap
