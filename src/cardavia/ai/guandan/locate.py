"""Where the unseen Guandan cards are likely to be: a card-location model learned from play.

Three hands are hidden from a seat (its partner's and the opponents'). For an unseen card of
class ``c`` — a rank, the wild heart of the level (G-2.2) or a joker — the model gives each
other seat ``s`` (holding ``n_s`` cards) the probability

    P(the card is in s) ∝ n_s · exp(θ · φ(s, c))

with ``φ`` the turn features of :mod:`cardavia.ai.locate` (plays and passes by kind and by
where the class lies, powers at the deal's level, G-4.4). ``θ`` is fitted on ``basic``
self-play (``python -m cardavia.ai.locate_fit --game guandan``) and ships as
``locate.json`` beside this module; :func:`cardavia.ai.guandan.shape.deal_shaped` draws the
cards of each hand by these weights.

>>> from cardavia.rules.guandan.combos import classify
>>> seven = classify("7s", 2)[0]
>>> w = weights_by_code([(0, seven), (1, None), (2, None), (3, None)], [26, 27, 27, 27], me=3, level=2)
>>> sorted(w), len(w[0])
([0, 1, 2], 54)
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from cardavia.ai import locate as base
from cardavia.cards import N_CODES, Card, Suit
from cardavia.rules.combo import ComboType
from cardavia.rules.guandan.combos import BJ, RJ, group_power
from cardavia.rules.observation import HistoryEntry

WILD = 17  # the class of the level's heart
CLASSES = (*range(2, 15), BJ, RJ, WILD)


def card_class(card: Card, level: int) -> int:
    """A card's class: its rank value, or :data:`WILD` for a heart of the level."""
    rank = int(card.rank)
    if rank == level and card.suit == Suit.HEARTS:
        return WILD
    return rank


def code_class(code: int, level: int) -> int:
    """The class of a card code (``(rank − 2) × 4 + suit``, suits s h c d; 52, 53 jokers)."""
    if code >= 52:
        return BJ if code == 52 else RJ
    rank = code // 4 + 2
    return WILD if rank == level and code % 4 == 1 else rank


def _power(c: int, level: int) -> int:
    return 15 if c == WILD else group_power(c, level)


def _band(power: int) -> int:
    return 0 if power <= 6 else 1 if power <= 10 else 2 if power <= 14 else 3 if power == 15 else 4


SPEC = base.LocateSpec(
    n_seats=4,
    classes=CLASSES,
    class_of=card_class,
    power=_power,
    band=_band,
    types={
        ComboType.SINGLE: 0, ComboType.PAIR: 1, ComboType.TRIPLE: 2, ComboType.FULL_HOUSE: 3,
        ComboType.STRAIGHT: 4, ComboType.PAIR_RUN: 5, ComboType.TRIPLE_RUN: 6,
        ComboType.BOMB: 7, ComboType.STRAIGHT_FLUSH: 7, ComboType.JOKER_BOMB: 7,
    },
    short=10,
)


def seat_features(
    history: Sequence[HistoryEntry], hand_sizes: Sequence[int], me: int, level: int
) -> dict[int, dict[int, base.Features]]:
    """Seat → class → ``φ(seat, class)`` for the three other seats."""
    return base.seat_features(SPEC, history, hand_sizes, me, level)


def weights_by_code(
    history: Sequence[HistoryEntry], hand_sizes: Sequence[int], me: int, level: int,
    theta: Sequence[float] | None = None, strength: float = 1.0,
) -> dict[int, list[float]]:
    """Seat → per card code, ``exp(strength × θ · φ(seat, class))`` relative to the other
    seats' mean (hand sizes apart): the weights a card is drawn into that hand with."""
    th = weights() if theta is None else theta
    feats = seat_features(history, hand_sizes, me, level)
    raw = {
        s: {c: base.score(fs, th) * strength for c, fs in by_class.items()} for s, by_class in feats.items()
    }
    per: dict[int, dict[int, float]] = {s: {} for s in raw}
    for c in CLASSES:
        mean = sum(r[c] for r in raw.values()) / len(raw)
        for s, r in raw.items():
            per[s][c] = math.exp(max(-30.0, min(30.0, r[c] - mean)))
    classes = _code_classes(level)
    return {s: [w[c] for c in classes] for s, w in per.items()}


@cache
def _code_classes(level: int) -> tuple[int, ...]:
    return tuple(code_class(code, level) for code in range(N_CODES))


FILE = Path(__file__).with_name("locate.json")


@cache
def weights() -> tuple[float, ...]:
    """The fitted ``θ`` (``locate.json``); all zeros (no hints) if the file is missing."""
    if not FILE.exists():
        return (0.0,) * base.N_FEATURES
    theta = tuple(float(x) for x in json.loads(FILE.read_text())["theta"])
    if len(theta) != base.N_FEATURES:
        raise ValueError(f"{FILE.name} holds {len(theta)} weights, the model has {base.N_FEATURES}")
    return theta


__all__ = ["CLASSES", "FILE", "SPEC", "WILD", "card_class", "code_class", "seat_features", "weights", "weights_by_code"]
