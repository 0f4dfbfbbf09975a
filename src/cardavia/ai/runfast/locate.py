"""Where the unseen Run Fast cards are likely to be: a card-location model learned from play.

With three seats every unseen card is in one of the two other hands. Passes prove what a
seat lacks (R-3.4; :mod:`cardavia.ai.runfast.search` uses them as hard constraints); the
plays only hint — a seat that led a low single rarely holds another low single, a seat that
answered a 9 with a king skipped the ranks between, the shorter hand keeps the high cards.
This model turns those hints into odds, once per decision, so that drawing a sampled deal
costs nothing more: for an unseen card of rank ``r`` and the two other seats ``a`` and ``b``
(holding ``n_a`` and ``n_b`` cards),

    P(the card is in a) = σ(log(n_a / n_b) + θ · (φ(a, r) − φ(b, r)))

where ``φ(s, r)`` counts seat ``s``'s public turns by kind and by where ``r`` lies relative
to them (:mod:`cardavia.ai.locate`), plus the seat's hand size by rank band.
``θ`` is fitted by logistic regression on ``basic`` self-play (``python -m
cardavia.ai.runfast.locate_fit``) and ships as ``locate.json`` beside this module.

>>> from cardavia.rules.runfast.combos import classify
>>> five = classify("5s")[0]
>>> feats = seat_features([(0, five), (1, None), (2, None)], [15, 16, 16], me=2)
>>> sorted(feats[0][3].items())  # rank 3 lies below seat 0's lead of a single 5
[(0, 1.0), (208, 0.9375)]
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from cardavia.ai import locate as base
from cardavia.ai.runfast.plan import power_of
from cardavia.cards import Card
from cardavia.rules.combo import ComboType
from cardavia.rules.observation import HistoryEntry

N_FEATURES = base.N_FEATURES
RANKS = tuple(range(2, 15))


def _band(power: int) -> int:
    return 0 if power <= 6 else 1 if power <= 10 else 2 if power <= 14 else 3


def _class(card: Card, level: int) -> int:
    return int(card.rank)


def code_class(code: int) -> int:
    """A card code's rank (``(rank − 2) × 4 + suit``)."""
    return code // 4 + 2


SPEC = base.LocateSpec(
    n_seats=3,
    classes=RANKS,
    class_of=_class,
    power=lambda c, level: power_of(c),
    band=_band,
    types={
        ComboType.SINGLE: 0, ComboType.PAIR: 1, ComboType.TRIPLE: 2, ComboType.STRAIGHT: 3,
        ComboType.PAIR_RUN: 4, ComboType.BOMB: 5, ComboType.ACE_BOMB: 5, ComboType.HEAVENLY_BOMB: 5,
    },
    short=8,
)


def seat_features(
    history: Sequence[HistoryEntry], hand_sizes: Sequence[int], me: int
) -> dict[int, dict[int, base.Features]]:
    """Seat → rank → ``φ(seat, rank)`` (:func:`cardavia.ai.locate.seat_features`)."""
    return base.seat_features(SPEC, history, hand_sizes, me)


def odds(
    history: Sequence[HistoryEntry], hand_sizes: Sequence[int], me: int,
    theta: Sequence[float] | None = None,
) -> tuple[int, list[float]]:
    """``(a, w)``: the first other seat and, per rank, the odds that an unseen card of that
    rank is in ``a`` rather than in the other seat, hand sizes apart (the sampler draws the
    cards of each hand by these weights)."""
    th = weights() if theta is None else theta
    feats = seat_features(history, hand_sizes, me)
    a, b = sorted(feats)
    w = [1.0] * 15
    for r in RANKS:
        x = base.score(feats[a][r], th) - base.score(feats[b][r], th)
        w[r] = math.exp(max(-30.0, min(30.0, x)))
    return a, w


FILE = Path(__file__).with_name("locate.json")


@cache
def weights() -> tuple[float, ...]:
    """The fitted ``θ`` (``locate.json``); all zeros (no hints) if the file is missing."""
    if not FILE.exists():
        return (0.0,) * N_FEATURES
    data = json.loads(FILE.read_text())
    theta = tuple(float(x) for x in data["theta"])
    if len(theta) != N_FEATURES:
        raise ValueError(f"{FILE.name} holds {len(theta)} weights, the model has {N_FEATURES}")
    return theta


__all__ = ["FILE", "N_FEATURES", "RANKS", "SPEC", "code_class", "odds", "seat_features", "weights"]
