"""The Run Fast card-location model (``ai/runfast/locate.py``): its features read the seats'
turns as R-3.5 runs the tricks, the shipped weights predict where unseen cards are better
than the hand sizes alone on deals it was not fitted on, and the sampler that uses them
keeps every hard constraint while placing more cards in the right hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.ai import locate as base
from cardavia.ai import make_agent
from cardavia.ai.locate_fit import log_loss, rows_of_deal
from cardavia.ai.runfast import locate, search
from cardavia.ai.runfast.search import _lean_split, _violations, sample_hands, track
from cardavia.ai.runner import runfast_deal
from cardavia.observation import Observation
from cardavia.rules.runfast.combos import classify
from cardavia.rules.runfast.moves import rank_counts

from .seats import decisions_with_hands


def _deal(seed: int) -> list[tuple[Observation, list[list[int]]]]:
    seen = decisions_with_hands(runfast_deal(seed), [make_agent("basic", seed * 3 + s) for s in range(3)])
    return [(obs, [rank_counts(h) for h in hands]) for obs, hands in seen]


def test_a_follow_marks_the_ranks_it_skipped_and_a_pass_the_ranks_it_passed_on() -> None:
    nine, king = classify("9s")[0], classify("Kd")[0]
    feats = locate.seat_features([(0, nine), (1, king), (2, None), (0, None)], [15, 15, 16], me=2)
    seat1 = feats[1]

    def follow(where: int) -> int:  # a single answering a single, from a long hand
        return base.play_feature(0, True, where, False)

    assert seat1[13].get(follow(base.AMONG)) == 1.0  # the king itself
    assert seat1[11].get(follow(base.SKIPPED)) == 1.0  # a jack: skipped over the 9
    assert seat1[5].get(follow(base.BELOW)) == 1.0  # a 5: below the 9 it answered
    assert seat1[14].get(follow(base.ABOVE)) == 1.0  # an ace: above the king
    assert seat1[2].get(follow(base.ABOVE)) == 1.0  # a 2 is the highest rank
    assert feats[0][14].get(base.pass_feature(0, 2, False)) == 1.0  # seat 0 passed on the king
    assert feats[0][9].get(base.play_feature(0, False, base.AMONG, False)) == 1.0  # its lead
    assert feats[0][9].get(base.COPIES) == 1.0
    assert all(f < base.N_FEATURES for ranks in feats.values() for fs in ranks.values() for f in fs)
    assert 2 not in feats


def test_the_shipped_model_predicts_better_than_the_hand_sizes_on_unseen_deals() -> None:
    assert len(locate.weights()) == locate.N_FEATURES
    assert any(locate.weights())
    rows = [row for seed in range(900_000, 900_040) for row in rows_of_deal("runfast", seed)]
    sizes_only = log_loss(rows, None)
    model = log_loss(rows, locate.weights())
    assert model < sizes_only - 0.02, (model, sizes_only)


def test_sampling_by_the_odds_keeps_the_passes_and_places_more_cards_right() -> None:
    rng = random.Random(3)
    right = {False: 0, True: 0}
    bad = {False: 0, True: 0}
    cards = 0
    for seed in range(12):
        for obs, hands in _deal(seed):
            sizes = list(obs.hand_sizes)
            tracked = track(obs)
            unseen = rank_counts(tracked.unseen)
            lean = locate.odds(obs.history, obs.hand_sizes, obs.seat)
            a = lean[0]
            for use in (False, True):
                for _ in range(4):
                    got = sample_hands(obs.seat, sizes, unseen, tracked.no_reply, rng, lean=lean if use else None)
                    for s, h in got.items():
                        assert sum(h) == sizes[s]
                        bad[use] += _violations(h, tracked.no_reply.get(s, [])) > 0
                    assert [x + y for x, y in zip(*got.values(), strict=True)] == unseen
                    right[use] += sum(min(got[a][r], hands[a][r]) for r in range(15))
            cards += 4 * sizes[a]
    assert cards > 2000
    print(right, bad, cards)
    assert right[True] > right[False] * 1.01, (right, cards)
    # rejection sampling (24 tries) rarely ends on a deal against a pass, with or without odds
    assert bad[True] <= max(10, 1.5 * bad[False]), bad


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(2, 14), min_size=0, max_size=30),
    st.integers(0, 30),
    st.lists(st.floats(0.01, 100.0), min_size=15, max_size=15),
    st.integers(0, 2**32 - 1),
)
def test_a_weighted_split_fills_both_hands_and_keeps_every_card(
    rest: list[int], room_a: int, w: list[float], seed: int
) -> None:
    room_a = min(room_a, len(rest))
    hands = {0: [0] * 15, 1: [0] * 15}
    room = {0: room_a, 1: len(rest) - room_a}
    pool = list(rest)
    _lean_split(pool, hands, room, (0, w), random.Random(seed))
    assert pool == [] and room == {0: 0, 1: 0}
    assert sum(hands[0]) == room_a
    assert [hands[0][r] + hands[1][r] for r in range(15)] == [rest.count(r) for r in range(15)]


def test_the_expert_reads_the_odds_only_when_the_model_is_on(monkeypatch: pytest.MonkeyPatch) -> None:
    obs, _ = _deal(5)[10]
    monkeypatch.setattr(search, "LOCATE", 0.0)
    assert search._lean(obs) is None
    monkeypatch.setattr(search, "LOCATE", 1.0)
    assert search._lean(obs) is not None
