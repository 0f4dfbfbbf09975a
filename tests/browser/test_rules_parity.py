"""The browser's light check (static/js/rules.js) reads cards exactly as the engine does.

Play is enabled, explained and disambiguated in the browser before anything is sent, so the
JavaScript readings must be the engine's: the same (type, rank) set, the same cards that the
wild hearts stand for, and the same ``beats`` answers against a top combination.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page

from cardavia.cards import Card, guandan_deck, runfast_deck
from cardavia.rules.combo import Combo, beats
from cardavia.rules.guandan.combos import readings_of as gd_readings
from cardavia.rules.runfast.combos import readings_of as rf_readings
from tests.browser.conftest import Live

pytestmark = pytest.mark.browser

RANKS = "23456789TJQKA"


def _guandan_cases(rng: random.Random, n: int) -> list[tuple[list[Card], int]]:
    deck = guandan_deck()
    cases: list[tuple[list[Card], int]] = []
    while len(cases) < n:
        level = rng.randint(2, 14)
        wild = Card.parse(f"{RANKS[level - 2]}h")
        kind = rng.random()
        if kind < 0.3:
            cards = rng.sample(deck, rng.randint(1, 10))
        elif kind < 0.6:  # one or two ranks plus wilds: groups, full houses, bombs
            ranks = rng.sample(RANKS, 2)
            pool = [c for c in deck if str(c)[0] in ranks] + [wild, wild]
            cards = rng.sample(pool, rng.randint(2, 10))
        else:  # a short window of ranks plus wilds: straights, runs, flushes
            top = rng.randint(1, 12)
            window = [RANKS[(top + i) % 13] for i in range(rng.randint(2, 5))]
            suit = rng.choice("shcd")
            pool = [c for c in deck if str(c)[0] in window and (rng.random() < 0.5 or str(c)[1] == suit)]
            pool += [wild, wild] + ([Card.parse("BJ")] if rng.random() < 0.1 else [])
            cards = rng.sample(pool, min(len(pool), rng.choice((5, 5, 6, 6, 4))))
        cases.append((cards, level))
    return cases


def _runfast_cases(rng: random.Random, n: int) -> list[tuple[list[Card], bool]]:
    deck = runfast_deck()
    cases: list[tuple[list[Card], bool]] = []
    while len(cases) < n:
        if rng.random() < 0.5:
            cards = rng.sample(deck, rng.randint(1, 8))
        else:
            lo = rng.randint(1, 12)
            window = {RANKS[(lo + i) % 13] for i in range(rng.randint(1, 7))}
            pool = [c for c in deck if str(c)[0] in window]
            cards = rng.sample(pool, rng.randint(1, min(len(pool), 12)))
        cases.append((cards, rng.random() < 0.2))
    return cases


def _key(c: Combo) -> tuple[str, str | None, tuple[str, ...]]:
    return (c.type.value, None if c.rank is None else c.rank.symbol, tuple(map(str, c.represented)))


JS = """async ([gd, rf, pairs]) => {
  const R = await import('/static/js/rules.js');
  const C = await import('/static/js/cards.js');
  const gdOut = gd.map(([cs, level]) => R.guandanReadings(C.cards(cs), level)
    .map((r) => [r.type, r.rank, r.as]));
  const rfOut = rf.map(([cs, opening]) => R.runfastReadings(C.cards(cs), opening)
    .map((r) => [r.type, r.rank]));
  const beatsOut = pairs.map(([game, cs, level, top]) => {
    const reads = game === 'guandan' ? R.guandanReadings(C.cards(cs), level) : R.runfastReadings(C.cards(cs), false);
    const prev = R.keyOf(top, game, level);
    return reads.map((r) => R.beats(r, prev));
  });
  return [gdOut, rfOut, beatsOut];
}"""


def test_browser_readings_match_the_engine(page: Page, live: Live) -> None:
    rng = random.Random(20240611)
    gd = _guandan_cases(rng, 2500)
    rf = _runfast_cases(rng, 1500)
    gd_truth = [[_key(c) for c in gd_readings(cards, level)] for cards, level in gd]
    rf_truth = [[(c.type.value, None if c.rank is None else c.rank.symbol)
                 for c in rf_readings(cards, opening)] for cards, opening in rf]
    # beats: each case's readings against the first reading of another case as the top
    pairs: list[list[Any]] = []
    pair_truth: list[list[bool]] = []
    for i in range(0, 1200, 2):
        (cards, level), (top_cards, _) = gd[i], gd[i + 1]
        tops = gd_readings(top_cards, level)
        if tops:
            pairs.append(["guandan", [str(c) for c in cards], level, tops[-1].to_json()])
            pair_truth.append([beats(r, tops[-1]) for r in gd_readings(cards, level)])
    for i in range(0, 1000, 2):
        (cards, _), (top_cards, _) = rf[i], rf[i + 1]
        tops = rf_readings(top_cards)
        if tops:
            pairs.append(["runfast", [str(c) for c in cards], None, tops[0].to_json()])
            pair_truth.append([beats(r, tops[0]) for r in rf_readings(cards)])

    page.goto(f"{live.http}/")
    gd_js, rf_js, beats_js = page.evaluate(JS, [
        [[[str(c) for c in cards], level] for cards, level in gd],
        [[[str(c) for c in cards], opening] for cards, opening in rf],
        pairs,
    ])
    assert sum(1 for t in gd_truth if len(t) > 1) > 50, "too few ambiguous Guandan cases"
    for (cards, level), want, got in zip(gd, gd_truth, gd_js, strict=True):
        got_keys = [(t, r, tuple(a)) for t, r, a in got]
        assert sorted(got_keys, key=str) == sorted(want, key=str), (
            f"Guandan {' '.join(map(str, cards))} at level {level}")
    for (cards, opening), rf_want, got in zip(rf, rf_truth, rf_js, strict=True):
        assert [tuple(x) for x in got] == rf_want, f"Run Fast {' '.join(map(str, cards))} {opening}"
    assert beats_js == pair_truth
