"""What a Run Fast seat's plays say about its hand (inference from plays): the plays read
from the history (R-3.5 tricks) are the ones the seats made, and ``basic`` holding the true
hand makes every one of them again, while random hands of the same size often would not."""

from __future__ import annotations

import random

import pytest

from cardavia.ai import make_agent
from cardavia.ai.runfast import search
from cardavia.ai.runfast.evidence import recent_plays
from cardavia.ai.runfast.reading import misses
from cardavia.ai.runfast.search import sample_hands, track
from cardavia.ai.runner import runfast_deal
from cardavia.observation import Observation
from cardavia.rules.runfast.moves import patterns, rank_counts

from .seats import decisions_with_hands


def _deal(seed: int) -> list[tuple[Observation, list[list[int]]]]:
    """Every decision of a ``basic`` self-play deal, with the three true hands (rank counts)."""
    seen = decisions_with_hands(runfast_deal(seed), [make_agent("basic", seed * 3 + s) for s in range(3)])
    return [(obs, [rank_counts(h) for h in hands]) for obs, hands in seen]


def test_the_plays_read_are_the_seats_own() -> None:
    checked = 0
    for seed in range(4):
        for obs, _ in _deal(seed):
            found = recent_plays(obs.history, obs.hand_sizes, obs.seat, per_seat=3)
            assert obs.seat not in found
            for seat, plays in found.items():
                assert len(plays) <= 3
                own = [c for i, (s, c) in enumerate(obs.history) if s == seat and c is not None and i > 0]
                assert [p.combo for p in plays] == own[::-1][: len(plays)]
                for k, p in enumerate(plays):
                    # the cards played since: this play and the newer ones, no more
                    assert sum(p.since) == sum(q.combo.size for q in plays[: k + 1])
                    # the hand it played from is the hand now plus those cards
                    assert p.sizes[seat] == obs.hand_sizes[seat] + sum(p.since)
                    assert p.top is None or p.top.tier < p.combo.tier or p.combo.power > p.top.power
                checked += 1
    assert checked > 50


def test_basic_holding_the_true_hand_makes_every_play_again() -> None:
    checked = 0
    for seed in range(4):
        for obs, hands in _deal(seed):
            for seat, plays in recent_plays(obs.history, obs.hand_sizes, obs.seat).items():
                assert misses(seat, hands[seat], plays) == 0
                checked += len(plays)
    assert checked > 100


def test_random_hands_often_contradict_the_plays_and_the_evidence_cuts_that(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(5)
    plain = weighed = total = 0
    for seed in range(3):
        for obs, _ in _deal(seed)[6::3]:
            plays = recent_plays(obs.history, obs.hand_sizes, obs.seat)
            if not plays:
                continue
            tracked = track(obs)
            unseen = rank_counts(tracked.unseen)
            for evidence, where in ((1.0, "plain"), (0.1, "weighed")):
                monkeypatch.setattr(search, "PLAY_EVIDENCE", evidence)
                hands = sample_hands(obs.seat, obs.hand_sizes, unseen, tracked.no_reply, rng, plays=plays)
                missed = sum(misses(s, hands[s], plays.get(s, [])) for s in hands)
                if where == "plain":
                    plain += missed
                    total += sum(len(v) for v in plays.values())
                else:
                    weighed += missed
    assert total > 50
    assert plain > 0.2 * total  # the information is there
    assert weighed < 0.5 * plain  # and the weighing uses it
    print(f"plays contradicted: {plain}/{total} unweighed, {weighed}/{total} at 0.1")


def test_basics_remembered_moves_are_the_moves_it_makes_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """``reading.basic_move`` keeps the moves it has worked out; asked again (the same hand,
    hand sizes, play to answer and configuration) it answers as ``basic`` does afresh, and
    a different configuration is a different question. A full memo is cleared, not grown."""
    from cardavia.ai.runfast import basic, reading

    rng = random.Random(4)
    deck = [r for r in range(3, 14) for _ in range(4)] + [14] * 3 + [2]
    tight = basic.RfConfig(lead_size_bonus=0.6)
    for _ in range(300):
        rng.shuffle(deck)
        rc = [0] * 15
        for r in deck[: rng.randint(1, 16)]:
            rc[r] += 1
        sizes = [sum(rc), rng.randint(1, 16), rng.randint(1, 16)]
        top = rng.choice([None, *patterns(reading.fake_cnt(rc), None)[:5]])
        for cfg in (None, tight):
            view = basic.RfView(0, reading.fake_cnt(rc), sizes, top, None, False)
            fresh = basic.choose(view, reading._BASIC_CFG if cfg is None else cfg, random.Random(0))[0]
            assert reading.basic_move(0, rc, sizes, top, cfg) == fresh
            assert reading.basic_move(0, rc, sizes, top, cfg) == fresh  # remembered
    monkeypatch.setattr(reading, "MEMO_SIZE", 3)
    reading._MEMO.clear()
    for k in range(10):
        reading.basic_move(0, [0] * 3 + [1] * (k + 1) + [0] * (11 - k), [k + 1, 5, 5], None)
        assert len(reading._MEMO) <= 3
