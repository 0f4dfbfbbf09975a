"""The Guandan card-location model (``ai/guandan/locate.py``): cards are classed by the
deal's level (G-2.2: the level's hearts are wild; G-4.4: the level rank above the ace), the
shipped weights predict where unseen cards are better than the hand sizes alone on deals
it was not fitted on, and the sampler drawing by them deals every card exactly once, keeps
the known cards and places more cards in the right hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.ai import locate as base
from cardavia.ai import make_agent
from cardavia.ai.guandan import locate, search
from cardavia.ai.guandan.shape import _lean_rest
from cardavia.ai.locate_fit import log_loss, rows_of_deal
from cardavia.ai.runner import guandan_deal
from cardavia.cards import N_CODES, Card
from cardavia.observation import Observation
from cardavia.rules.guandan.combos import BJ, RJ, classify

from .seats import decisions_with_hands


def _deal(seed: int) -> list[tuple[Observation, list[list[int]]]]:
    return decisions_with_hands(guandan_deal(seed), [make_agent("basic", seed * 4 + s) for s in range(4)])


def test_cards_are_classed_and_ordered_by_the_level() -> None:
    assert locate.card_class(Card.parse("7h"), 7) == locate.WILD
    assert locate.card_class(Card.parse("7s"), 7) == 7
    assert locate.card_class(Card.parse("7h"), 8) == 7
    assert [locate.code_class(c, 7) for c in (52, 53)] == [BJ, RJ]
    for text in ("5h", "5d", "Ah", "2c"):
        card = Card.parse(text)
        assert locate.code_class(card.code, 5) == locate.card_class(card, 5)
    # at level 7 a pair of 7s is above a pair of aces: an ace lies below it, a joker above
    sevens = classify("7s 7c", 7)[0]
    feats = locate.seat_features([(0, sevens)], [25, 27, 27, 27], me=3, level=7)

    def lead_pair(where: int) -> int:
        return base.play_feature(1, False, where, False)

    assert feats[0][14].get(lead_pair(base.BELOW)) == 1.0
    assert feats[0][7].get(lead_pair(base.AMONG)) == 1.0
    assert feats[0][BJ].get(lead_pair(base.ABOVE)) == 1.0
    assert feats[0][7].get(base.COPIES) == 2.0
    assert sorted(feats) == [0, 1, 2]


def test_the_shipped_model_predicts_better_than_the_hand_sizes_on_unseen_deals() -> None:
    assert len(locate.weights()) == base.N_FEATURES and any(locate.weights())
    rows = [row for seed in range(900_000, 900_012) for row in rows_of_deal("guandan", seed, every=3)]
    sizes_only = log_loss(rows, None)
    model = log_loss(rows, locate.weights())
    assert model < sizes_only - 0.03, (model, sizes_only)


def test_sampling_by_the_weights_deals_every_card_and_places_more_right() -> None:
    rng = random.Random(4)
    right = {False: 0, True: 0}
    cards = 0
    for seed in range(4):
        for obs, hands in _deal(seed)[::4]:
            level = obs.level or 2
            tracked = search.track(obs)
            lean = locate.weights_by_code(obs.history, obs.hand_sizes, obs.seat, level)
            for use in (False, True):
                got = search.sample_hands(
                    obs.seat, obs.hand_sizes, tracked.unseen, tracked.known, rng, None, level,
                    lean=lean if use else None,
                )
                total = [0] * N_CODES
                for s, h in got.items():
                    assert sum(h) == obs.hand_sizes[s]
                    assert all(h[c] >= 1 for c in tracked.known.get(s, []))
                    right[use] += sum(min(a, b) for a, b in zip(h, hands[s], strict=True))
                    total = [a + b for a, b in zip(total, h, strict=True)]
                assert total == list(tracked.unseen)
            cards += sum(obs.hand_sizes[s] for s in got)
    assert cards > 3000
    print(right, cards)
    assert right[True] > right[False] * 1.03, (right, cards)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, N_CODES - 1), min_size=0, max_size=40),
    st.lists(st.integers(0, 40), min_size=3, max_size=3),
    st.lists(st.lists(st.floats(0.05, 20.0), min_size=N_CODES, max_size=N_CODES), min_size=3, max_size=3),
    st.integers(0, 2**32 - 1),
)
def test_dealing_the_rest_by_weights_fills_every_hand_and_keeps_every_card(
    pool: list[int], cut: list[int], weights: list[list[float]], seed: int
) -> None:
    a, b = sorted(min(c, len(pool)) for c in cut[:2])
    need = {0: a, 1: b - a, 2: len(pool) - b}
    hands = {s: [0] * N_CODES for s in need}
    lean = dict(enumerate(weights))
    _lean_rest(list(pool), hands, dict(need), lean, random.Random(seed))
    assert {s: sum(h) for s, h in hands.items()} == need
    assert [sum(h[c] for h in hands.values()) for c in range(N_CODES)] == [pool.count(c) for c in range(N_CODES)]


def test_the_expert_reads_the_weights_only_when_the_model_is_on(monkeypatch: pytest.MonkeyPatch) -> None:
    obs, _ = _deal(3)[20]
    monkeypatch.setattr(search, "LOCATE", 0.0)
    assert search._lean(obs, obs.level or 2) is None
    monkeypatch.setattr(search, "LOCATE", 1.0)
    assert search._lean(obs, obs.level or 2) is not None
