"""Property tests (Hypothesis) for the Guandan engine: legality soundness and exactness,
classification invariance, card conservation, seeded reproducibility, replay."""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardavia.cards import ALL_CARDS, Card, guandan_deck
from cardavia.record import replay_records
from cardavia.rules.combo import beats
from cardavia.rules.guandan.combos import readings_of
from cardavia.rules.guandan.moves import all_moves, concretize, counts, patterns
from cardavia.selfplay import selfplay_records

levels = st.integers(min_value=2, max_value=14)


@st.composite
def hands(draw: st.DrawFn, max_size: int = 27) -> list[Card]:
    deck = guandan_deck()
    size = draw(st.integers(min_value=1, max_value=max_size))
    idx = draw(st.lists(st.integers(0, 107), min_size=size, max_size=size, unique=True))
    return [deck[i] for i in idx]


@st.composite
def wild_rich_hands(draw: st.DrawFn, level: int, max_size: int = 10) -> list[Card]:
    """Small hands drawn from a few ranks around the level, with 0–2 wild hearts."""
    ranks = sorted({level, *draw(st.lists(st.integers(2, 14), min_size=2, max_size=4))})
    pool = [c for c in guandan_deck() if int(c.rank) in ranks or c.is_joker]
    size = draw(st.integers(min_value=1, max_value=max_size))
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    return [pool[i] for i in idx]


def sub_multisets(cards: list[Card]) -> set[tuple[int, ...]]:
    codes = sorted(c.code for c in cards)
    out: set[tuple[int, ...]] = set()
    for n in range(1, len(codes) + 1):
        for combo in itertools.combinations(codes, n):
            out.add(combo)
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_legal_moves_are_exactly_the_legal_readings_of_sub_multisets(data: st.DataObject) -> None:
    """all_moves = {(multiset, type, rank) : a reading of a sub-multiset that may be played}."""
    level = data.draw(levels)
    hand = data.draw(wild_rich_hands(level))
    top = None
    if data.draw(st.booleans()):
        top_cards = data.draw(wild_rich_hands(level, max_size=6))
        tops = readings_of(top_cards, level)
        if tops:
            top = data.draw(st.sampled_from(tops))
    expected: set[tuple[tuple[int, ...], str, object]] = set()
    for codes in sub_multisets(hand):
        cards = [ALL_CARDS[c] for c in codes]
        for r in readings_of(cards, level):
            if top is None or beats(r, top):
                expected.add((codes, r.type.value, r.rank))
    got = {
        (tuple(sorted(c.code for c in m.cards)), m.type.value, m.rank)
        for m in all_moves(counts(hand), level, top)
    }
    assert got == expected


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_every_pattern_is_sound_and_matches_all_moves(data: st.DataObject) -> None:
    level = data.draw(levels)
    hand = data.draw(hands())
    cnt = counts(hand)
    top = None
    if data.draw(st.booleans()):
        tops = readings_of(data.draw(hands(max_size=6)), level)
        if tops:
            top = data.draw(st.sampled_from(tops))
    concrete = all_moves(cnt, level, top)
    keys = {(m.type, m.rank, m.size) for m in concrete}
    for p in patterns(cnt, level, top):
        combo = concretize(p, cnt, level)
        # classified as its stated combination, uses cards in hand, beats the top
        assert any(r.type == combo.type and r.rank == combo.rank for r in readings_of(combo.cards, level))
        assert all(combo.cards.count(c) <= cnt[c.code] for c in combo.cards)
        assert top is None or beats(combo, top)
        assert (combo.type, combo.rank, combo.size) in keys
    pattern_keys = {(p.type, p.rank, p.size) for p in patterns(cnt, level, top)}
    assert {(int(r or 0), t.value, s) for t, r, s in keys} == {
        (r, t.value, s) for t, r, s in pattern_keys
    }


@settings(max_examples=100, deadline=None)
@given(hands(max_size=8), levels, st.randoms(use_true_random=False))
def test_classification_ignores_card_order(hand: list[Card], level: int, rnd: random.Random) -> None:
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    a = [(c.type, c.rank, c.size) for c in readings_of(hand, level)]
    b = [(c.type, c.rank, c.size) for c in readings_of(shuffled, level)]
    assert a == b


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_card_conservation_through_whole_deals(seed: int) -> None:
    from cardavia.ai import make_agent
    from cardavia.rules.guandan.match import GuandanMatch
    from cardavia.selfplay import step

    match = GuandanMatch(seed)
    agents = [make_agent("random", seed + s) for s in range(4)]
    for _ in range(2):
        deal = match.start_deal()
        played: list[Card] = []
        while not deal.over:
            before = len(deal.plays)
            step(deal, agents)
            total_in_hands = sum(deal.size)
            if len(deal.plays) > before and deal.plays[-1][1] is not None:
                combo = deal.plays[-1][1]
                assert combo is not None
                played.extend(combo.cards)
            assert total_in_hands + len(played) == 108
        pooled = sorted(c.code for s in range(4) for c in deal.hand(s)) + [c.code for c in played]
        assert sorted(pooled) == sorted(c.code for c in guandan_deck())
        match.finish_deal()


@settings(max_examples=5, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_same_seed_same_record_and_replay_reproduces_it(seed: int) -> None:
    a = list(selfplay_records("guandan", 3, seed, ["random"]))
    b = list(selfplay_records("guandan", 3, seed, ["random"]))
    assert a == b
    outcomes, problem = replay_records(a)
    assert problem is None
    assert [o["places"] for o in outcomes] == [r["places"] for r in a]
    assert [o["levels_after"] for o in outcomes] == [r["levels_after"] for r in a]
