"""An independent check of Guandan readings with wilds (G-5.4): a wild may stand for any
ordinary card, so the readings of a set with wilds are the union of the readings of every
substitution — read by a deliberately simple natural-only classifier written from G-5.1."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.cards import ALL_CARDS, Card
from cardavia.rules.guandan.combos import readings_of, wild_code

NATURALS = [c for c in ALL_CARDS if not c.is_joker]


def natural_readings(cards: list[Card]) -> set[tuple[str, int]]:
    """(type, main rank) of a set of cards, no wilds, straight from the G-5.1 table."""
    n = len(cards)
    ranks = Counter(int(c.rank) for c in cards)
    jokers = [c for c in cards if c.is_joker]
    out: set[tuple[str, int]] = set()
    if len(ranks) == 1:
        (r, k), = ranks.items()
        name = {1: "single", 2: "pair", 3: "triple"}.get(k)
        if name and not (r >= 15 and k == 2 and len(set(jokers)) == 2):
            out.add((name, r))
        if 4 <= k <= 10 and not jokers:
            out.add(("bomb", r))
    if n == 4 and Counter(str(c) for c in jokers) == Counter({"BJ": 2, "RJ": 2}):
        out.add(("joker_bomb", 0))
    if n == 5 and sorted(ranks.values()) == [2, 3]:
        t = next(r for r, k in ranks.items() if k == 3)
        p = next(r for r, k in ranks.items() if k == 2)
        if t < 15 and (p < 15 or len({str(c) for c in jokers}) == 1):
            out.add(("full_house", t))
    if not jokers:
        for length, copies, name in ((5, 1, "straight"), (3, 2, "pair_run"), (2, 3, "triple_run")):
            if n != length * copies:
                continue
            for top in range(length, 15):
                window = [14 if r == 1 else r for r in range(top - length + 1, top + 1)]
                if top - length + 1 < 1:
                    continue
                if Counter({r: copies for r in window}) == ranks:
                    out.add((name, top))
                    if name == "straight" and len({c.suit for c in cards}) == 1:
                        out.add(("straight_flush", top))
    return out


def substitution_readings(cards: list[Card], level: int) -> set[tuple[str, int]]:
    wc = wild_code(level)
    naturals = [c for c in cards if c.code != wc]
    wilds = len(cards) - len(naturals)
    if not naturals:  # wilds alone are level-rank cards (G-5.4)
        return natural_readings(list(cards))
    out: set[tuple[str, int]] = set()
    for subst in itertools.product(NATURALS, repeat=wilds):
        out |= natural_readings(naturals + list(subst))
    return out


@st.composite
def wild_sets(draw: st.DrawFn) -> tuple[list[Card], int]:
    level = draw(st.integers(2, 14))
    wc = ALL_CARDS[wild_code(level)]
    base = draw(st.integers(2, 12))
    near = [c for c in ALL_CARDS if c.is_joker or base <= int(c.rank) <= base + 3 or int(c.rank) == 14]
    size = draw(st.integers(1, 6))
    wilds = draw(st.integers(0, min(2, size)))
    naturals = draw(st.lists(st.sampled_from(near), min_size=size - wilds, max_size=size - wilds))
    naturals = [c for c in naturals if c is not wc]
    # respect the double deck: at most two copies of a card
    counts = Counter(naturals)
    naturals = [c for c in counts for _ in range(min(2, counts[c]))]
    return naturals + [wc] * wilds, level


@settings(max_examples=150, deadline=None)
@given(wild_sets())
def test_g_5_4_readings_equal_the_union_over_wild_substitutions(case: tuple[list[Card], int]) -> None:
    cards, level = case
    if not cards:
        return
    got = {(c.type.value, int(c.rank) if c.rank is not None else 0) for c in readings_of(cards, level)}
    assert got == substitution_readings(cards, level)
