"""The Run Fast swap chain (:mod:`cardavia.ai.runfast.chain`): it keeps the unseen cards and
the hand sizes, counts its violations right (a pass on a play the hand could beat breaks
R-3.4, must beat; a play ``basic`` would not have made is unexplained), finds no fault in
the true split, and places
more cards in the right hand than samples drawn afresh; the expert drawing from it plays
whole deals legally."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.ai import make_agent
from cardavia.ai.expert import ExpertAgent
from cardavia.ai.runfast import search
from cardavia.ai.runfast.chain import SwapChain
from cardavia.ai.runfast.evidence import recent_plays
from cardavia.ai.runfast.search import sample_hands, track
from cardavia.ai.runner import play_out, runfast_deal
from cardavia.ai.search import OutOfTime
from cardavia.observation import Observation
from cardavia.rules.runfast.moves import rank_counts

from .seats import decisions_with_hands

ALL = 99  # every play of the deal read


def _deal(seed: int) -> list[tuple[Observation, list[list[int]]]]:
    seen = decisions_with_hands(runfast_deal(seed), [make_agent("basic", seed * 3 + s) for s in range(3)])
    return [(obs, [rank_counts(h) for h in hands]) for obs, hands in seen]


def _chain(obs: Observation, start: dict[int, list[int]], rng: random.Random) -> SwapChain:
    read = {s: ps for s, ps in recent_plays(obs.history, obs.hand_sizes, obs.seat, ALL).items() if s != obs.seat}
    return SwapChain(start, track(obs).no_reply, read, rng, 0.1)


def _fresh(obs: Observation, rng: random.Random) -> dict[int, list[int]]:
    tracked = track(obs)
    return sample_hands(obs.seat, obs.hand_sizes, rank_counts(tracked.unseen), tracked.no_reply, rng)


def _placed(hands: dict[int, list[int]], true: list[list[int]]) -> tuple[int, int]:
    right = sum(min(h[r], true[s][r]) for s, h in hands.items() for r in range(2, 15))
    return right, sum(sum(true[s][2:15]) for s in hands)


def test_the_true_split_breaks_no_pass_and_no_play() -> None:
    checked = 0
    for seed in range(3):
        for obs, true in _deal(seed):
            others = {s: true[s] for s in range(3) if s != obs.seat}
            assert _chain(obs, others, random.Random(0)).violations == 0
            checked += 1
    assert checked > 60


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 40), at=st.integers(4, 30), steps=st.integers(1, 60))
def test_proposals_keep_the_cards_and_the_count(seed: int, at: int, steps: int) -> None:
    seen = _deal(seed)
    obs, true = seen[min(at, len(seen) - 1)]
    rng = random.Random(seed)
    chain = _chain(obs, _fresh(obs, rng), rng)
    for _ in range(steps):
        chain.step()
        for s, h in chain.hands.items():
            assert sum(h[2:15]) == obs.hand_sizes[s]
            assert min(h) >= 0
        for r in range(2, 15):
            assert sum(h[r] for h in chain.hands.values()) == sum(true[s][r] for s in chain.hands)
        assert chain.violations == chain._count(math.inf)


def test_the_chain_places_more_cards_right_than_fresh_samples() -> None:
    rng = random.Random(3)
    fresh_right = chain_right = total = 0
    agreeing = draws = 0
    for seed in range(6):
        for obs, true in _deal(seed)[9::4]:
            if min(obs.hand_sizes) < 2:
                continue
            for _ in range(3):
                start = _fresh(obs, rng)
                right, n = _placed(start, true)
                fresh_right += right
                total += n
                chain = _chain(obs, start, rng)
                chain.settle(400)
                chain_right += _placed(chain.draw(8), true)[0]
                agreeing += chain.violations == 0
                draws += 1
    assert draws > 60
    assert agreeing > 0.7 * draws
    assert chain_right > fresh_right + 0.04 * total, (fresh_right / total, chain_right / total)


def test_settling_stops_at_the_deadline() -> None:
    obs, _ = _deal(1)[20]
    rng = random.Random(2)
    chain = _chain(obs, _fresh(obs, rng), rng)
    with pytest.raises(OutOfTime):
        chain.draw(10, deadline=0.0)


def test_the_expert_drawing_from_the_chain_plays_whole_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "CHAIN_BURN", 300)
    for seed in (2, 9):
        agents = [ExpertAgent(seed * 3 + s, max_samples=6) for s in range(3)]
        deal = play_out(runfast_deal(seed), agents)
        assert deal.result is not None
        assert sum(deal.result["scores"]) == 0

