"""Run Fast properties over many random deals and hands (Hypothesis).

Rules checked: R-1.1, R-2.1 – R-2.3, R-3.3 – R-3.5, R-4.1 – R-4.4, R-5.1 – R-5.5.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.cards import Card, CardError, card_from_code, parse_cards, runfast_deck
from cardavia.events import event_from_json, event_to_json
from cardavia.rules.combo import Combo, beats
from cardavia.rules.errors import CardsNotInHand, IllegalPass, IllegalPlay, NotYourTurn
from cardavia.rules.runfast.combos import classify, readings_of
from cardavia.rules.runfast.deal import RunFastDeal, deal_hands
from cardavia.rules.runfast.moves import all_moves, concretize, counts, patterns
from cardavia.rules.runfast.settlement import settle

DECK = runfast_deck()
THREE_HEARTS = Card.parse("3h")
BAD_CARDS = parse_cards("Ah 2h 2c 2d BJ RJ")


def snapshot(deal: RunFastDeal) -> tuple[Any, ...]:
    return (
        len(deal.events),
        [deal.hand(s) for s in range(3)],
        list(deal.size),
        deal.turn,
        deal.top,
        deal.passes,
        list(deal.bomb_bonuses),
        deal.standing_bomb,
        deal.is_opening,
    )


def reference_bonuses(plays: list[tuple[int, Combo | None]]) -> list[int]:
    """R-5.4 computed straight from the action list, independently of the deal."""
    bonuses: list[int] = []
    top: Combo | None = None
    standing: int | None = None
    passes = 0
    for seat, combo in plays:
        if combo is None:
            passes += 1
            if passes == 2:
                if standing is not None:
                    bonuses.append(standing)
                top, standing, passes = None, None, 0
            continue
        if top is not None and combo.type.value in ("bomb", "ace_bomb"):
            standing = seat
        top, passes = combo, 0
    if standing is not None:
        bonuses.append(standing)
    return bonuses


def try_illegal(deal: RunFastDeal, seat: int, rng: random.Random) -> None:
    """Refused actions raise their specific error and leave the deal exactly as it was."""
    before = snapshot(deal)
    other = (seat + 1 + rng.randrange(2)) % 3
    with pytest.raises(NotYourTurn):
        deal.play(other, deal.hand(other)[:1])
    with pytest.raises(CardsNotInHand):
        deal.play(seat, deal.hand(other)[:1])
    mine = deal.hand(seat)
    pairs = [(a, b) for a, b in combinations(mine, 2) if not readings_of([a, b])]
    if pairs:
        with pytest.raises(IllegalPlay):
            deal.play(seat, list(rng.choice(pairs)))
    top = deal.top
    if top is not None:
        losers = [c for c in mine if not beats(readings_of([c])[0], top)]
        if losers:
            with pytest.raises(IllegalPlay):
                deal.play(seat, [rng.choice(losers)])
    assert snapshot(deal) == before


def play_random_deal(seed: int, rng: random.Random, check_all_moves: bool) -> RunFastDeal:
    hands, leader = deal_hands(seed)
    deal = RunFastDeal.start(hands, seed=seed)
    assert deal.turn == leader and THREE_HEARTS in hands[leader]
    played: list[Card] = []
    while not deal.over:
        seat = deal.turn
        assert seat is not None
        cnt = deal.cnt[seat]
        top = deal.top
        opening = deal.is_opening
        found = patterns(cnt, top, opening)
        if rng.random() < 0.1:
            try_illegal(deal, seat, rng)
        if check_all_moves:
            concrete = all_moves(cnt, top, opening)
            shapes = {(p.type, p.rank, p.size) for p in found}
            assert {(m.type, int(m.rank or 0), m.size) for m in concrete} == shapes
            keys = {(m.cards, m.type) for m in concrete}
            assert len(keys) == len(concrete)  # each distinct move once
            for p in found:
                assert concretize(p, cnt, opening) in concrete
        if not found:
            assert top is not None  # the leader always has a move
            assert deal.check_pass(seat) is None  # no reply, so the pass is legal
            deal.pass_turn(seat)
            continue
        if top is not None:  # a reply exists, so the pass is refused
            before = snapshot(deal)
            with pytest.raises(IllegalPass):
                deal.pass_turn(seat)
            assert snapshot(deal) == before
        pattern = found[rng.randrange(len(found))]
        combo = concretize(pattern, cnt, opening)
        assert readings_of(combo.cards, opening) == [combo]  # classified as stated
        assert (combo.type, int(combo.rank or 0), combo.size) == (
            pattern.type, pattern.rank, pattern.size,
        )
        assert top is None or (beats(combo, top) and pattern.beats(top))
        if opening:
            assert THREE_HEARTS in combo.cards
        deal.play_combo(seat, combo)
        played.extend(combo.cards)
        # card conservation: what is held plus what was played is the pack
        held = [c for s in range(3) for c in deal.hand(s)]
        assert Counter(held) + Counter(played) == Counter(DECK)
        assert sum(deal.size) + len(played) == 48
    return deal


def check_result(deal: RunFastDeal) -> None:
    result = deal.result
    assert result is not None
    winner = result["winner"]
    assert deal.hand(winner) == [] and deal.places == [winner]
    assert all(deal.hand(s) for s in range(3) if s != winner)
    assert sum(result["scores"]) == 0
    assert result["bomb_bonuses"] == reference_bonuses(deal.plays)
    never = [s for s in range(3) if all(seat != s or c is None for seat, c in deal.plays)]
    assert result["never_played"] == never
    expected = [0, 0, 0]
    for s in range(3):  # written out again
        if s == winner:
            continue
        hand = deal.hand(s)
        owe = len(hand) * (2 if s in never else 1)
        owe += 10 * any(str(c) == "2s" for c in hand)
        ranks = Counter(c.rank for c in hand)
        owe += 10 * sum(1 for k in ranks.values() if k == 4)
        owe += 10 * all(c in hand for c in parse_cards("As Ac Ad"))
        expected[s] -= owe
        expected[winner] += owe
    for b in result["bomb_bonuses"]:
        expected = [x + 20 if s == b else x - 10 for s, x in enumerate(expected)]
    assert result["scores"] == expected
    assert result["scores"] == settle(
        winner, [deal.hand(s) for s in range(3)], never, result["bomb_bonuses"]
    )


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1))
def test_r_5_5_random_deals_are_zero_sum_and_conserve_cards(seed: int, choice_seed: int) -> None:
    """R-5.5 / R-2.1 / R-3.4 / R-5.4: random legal play conserves the pack, never passes
    while a reply exists, and settles to zero with the R-5.1 – R-5.4 amounts."""
    deal = play_random_deal(seed, random.Random(choice_seed), check_all_moves=False)
    check_result(deal)
    again = RunFastDeal.from_events([event_from_json(event_to_json(e)) for e in deal.events])
    assert again.result == deal.result and again.bomb_bonuses == deal.bomb_bonuses


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1))
def test_r_3_4_patterns_and_all_moves_agree_during_play(seed: int, choice_seed: int) -> None:
    """R-3.3 / R-3.4 / R-4: at every decision, all_moves and patterns describe the same
    moves, and each pattern's canonical cards are among the concrete moves."""
    deal = play_random_deal(seed, random.Random(choice_seed), check_all_moves=True)
    check_result(deal)


# --------------------------------------------------------------------------- exhaustive oracle


@st.composite
def small_situation(draw: st.DrawFn) -> tuple[list[Card], Combo | None, bool]:
    opening = draw(st.booleans())
    codes = sorted({c.code for c in DECK})
    hand_codes = draw(st.lists(st.sampled_from(codes), min_size=1, max_size=10, unique=True))
    if opening and draw(st.booleans()) and THREE_HEARTS.code not in hand_codes:
        hand_codes = [*hand_codes[:9], THREE_HEARTS.code]
    top: Combo | None = None
    if draw(st.booleans()):
        rest = [c for c in codes if c not in hand_codes]
        size = draw(st.integers(1, 8))
        start = draw(st.integers(0, len(rest) - 1))
        window = rest[start : start + size]
        # pick a readable subset of the window, if any (largest first)
        for k in range(len(window), 0, -1):
            for sub in combinations(window, k):
                found = readings_of([card_from_code(c) for c in sub])
                if found:
                    top = found[0]
                    break
            if top is not None:
                break
    return [card_from_code(c) for c in hand_codes], top, opening


@settings(max_examples=400, deadline=None)
@given(small_situation())
def test_r_4_all_moves_matches_brute_force(situation: tuple[list[Card], Combo | None, bool]) -> None:
    """R-2.3 / R-3.3 / R-4.1 – R-4.4: every sub-multiset of a small hand that reads as a
    combination beating the top (and holding `3h` when opening) is exactly all_moves."""
    hand, top, opening = situation
    expected = set()
    for k in range(1, len(hand) + 1):
        for sub in combinations(sorted(hand), k):
            if opening and THREE_HEARTS not in sub:
                continue
            for r in readings_of(list(sub), opening):
                if top is None or beats(r, top):
                    expected.add((tuple(c.code for c in sub), r.type, r.rank, r.tier, r.power))
    moves = all_moves(counts(hand), top, opening)
    got = [(tuple(sorted(c.code for c in m.cards)), m.type, m.rank, m.tier, m.power) for m in moves]
    assert len(got) == len(set(got))
    assert set(got) == expected
    assert bool(patterns(counts(hand), top, opening)) == bool(expected)


# --------------------------------------------------------------------------- bad input


@settings(max_examples=60, deadline=None)
@given(
    good=st.lists(st.sampled_from([c for c in DECK if str(c) not in ("3h", "Ks")]),
                  max_size=6, unique=True),
    bad=st.sampled_from(BAD_CARDS),
    at=st.integers(0, 6),
)
def test_r_2_1_cards_outside_the_pack_are_refused(good: list[Card], bad: Card, at: int) -> None:
    """R-2.1: `Ah`, the 2s other than `2s`, and jokers raise CardError (check_in_deck)."""
    cards = [*good[:at], bad, *good[at:]]
    with pytest.raises(CardError, match=str(bad)):
        classify(cards)
    with pytest.raises(CardError, match=str(bad)):
        RunFastDeal.start([[THREE_HEARTS], cards, [Card.parse("Ks")]])


@settings(max_examples=60, deadline=None)
@given(cards=st.lists(st.sampled_from(DECK), min_size=1, max_size=6, unique=True), data=st.data())
def test_r_2_1_repeated_cards_are_refused(cards: list[Card], data: st.DataObject) -> None:
    """R-2.1: the pack holds each card once; a repeated card raises CardError."""
    dup = data.draw(st.sampled_from(cards))
    with pytest.raises(CardError, match="appears 2 times"):
        classify([*cards, dup])
