"""Small builders for rules tests."""

from __future__ import annotations

from cardavia.cards import parse_cards
from cardavia.rules.guandan.combos import classify
from cardavia.rules.guandan.deal import GuandanDeal


def kinds(cards: str, level: int | str = 2) -> list[str]:
    """The readings of ``cards`` as 'type rank' strings."""
    return [c.describe() for c in classify(cards, level)]


def gd_deal(*hands: str, level: int = 2, leader: int = 0) -> GuandanDeal:
    """A Guandan deal with the given (short) hands, seat 0 first."""
    return GuandanDeal.start([parse_cards(h) for h in hands], level, leader=leader)
