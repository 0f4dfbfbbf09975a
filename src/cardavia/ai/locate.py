"""Where the unseen cards are likely to be: the features of a card-location model learned
from play (both games; each game's model is :mod:`cardavia.ai.runfast.locate` and
:mod:`cardavia.ai.guandan.locate`).

Passes and plays hint at a hand: a seat that led a low single rarely holds another low
single, a seat that answered a 9 with a king skipped the ranks between, a seat that passed
on a pair of 7s may lack pairs above them, the shorter hand keeps the high cards. For a
seat ``s`` and a class of cards ``c`` (a rank; in Guandan also the wild card and the
jokers), ``φ(s, c)`` counts ``s``'s public turns by kind — the combination's type, lead or
follow, play or pass, from a long or a short hand — and by where ``c`` lies relative to
them (below, among its cards, inside its span, skipped by a follow, above), plus the
seat's hand size by band of power and the cards of the class it has played. A game's model
scores ``θ · φ(s, c)``; the odds that an unseen card of class ``c`` is in seat ``s`` rather
than another are the exponentials of the score differences (hand sizes apart).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardavia.cards import Card
from cardavia.rules.combo import Combo, ComboType
from cardavia.rules.observation import HistoryEntry

#: where a class lies relative to a play: below it, among its cards, inside its span but
#: not played, skipped by a follow (above what it answered, below the play), above it
BELOW, AMONG, INSIDE, SKIPPED, ABOVE = range(5)
N_TYPES = 8  # type classes of plays (a game maps its combination types onto them)
_WHERE = 5
_PLAY_FEATURES = N_TYPES * 2 * _WHERE * 2  # type × lead/follow × where × short hand
PASS_BASE = _PLAY_FEATURES
_PASS_FEATURES = N_TYPES * 3 * 2  # type × below/among/above × short hand
SIZE_BASE = PASS_BASE + _PASS_FEATURES
_BANDS = 5
COPIES = SIZE_BASE + _BANDS
N_FEATURES = COPIES + 1

Features = dict[int, float]


def play_feature(type_class: int, follow: bool, where: int, short: bool) -> int:
    """The index of a play feature."""
    return (((type_class * 2 + int(follow)) * _WHERE + where) * 2) + int(short)


def pass_feature(type_class: int, where: int, short: bool) -> int:
    """The index of a pass feature (``where``: 0 below, 1 among/inside, 2 above)."""
    return PASS_BASE + (type_class * 3 + where) * 2 + int(short)


@dataclass(frozen=True)
class LocateSpec:
    """What a game's card-location features need to know (the preset as data)."""

    n_seats: int
    #: the card classes the model places (e.g. the ranks 2–14)
    classes: tuple[int, ...]
    #: a card's class, at the deal's level (Guandan) or 0
    class_of: Callable[[Card, int], int]
    #: a class's power (order of strength), at the level
    power: Callable[[int, int], int]
    #: a power's band (0 … 4) for the hand-size features
    band: Callable[[int], int]
    #: a combination type's type class (0 … N_TYPES − 1)
    types: dict[ComboType, int]
    #: a turn made from at most this many cards is a short hand's turn
    short: int


def _powers(spec: LocateSpec, cards: Sequence[Card], level: int) -> list[int]:
    return sorted({spec.power(spec.class_of(c, level), level) for c in cards})


def seat_features(
    spec: LocateSpec, history: Sequence[HistoryEntry], hand_sizes: Sequence[int], me: int, level: int = 0
) -> dict[int, dict[int, Features]]:
    """Seat → class → its sparse feature counts ``φ(seat, class)``, for every other seat.

    A trick ends when every other seat still holding cards has passed on its latest play;
    a pass is read against the latest play (a trick never opens with a pass)."""
    sizes = list(hand_sizes)
    for seat, combo in history:
        if combo is not None:
            sizes[seat] += combo.size
    out: dict[int, dict[int, Features]] = {
        s: {c: {} for c in spec.classes} for s in range(spec.n_seats) if s != me
    }
    powers = {c: spec.power(c, level) for c in spec.classes}
    top: Combo | None = None
    top_seat = -1
    passes = 0
    for seat, combo in history:
        short = sizes[seat] <= spec.short
        mine = out.get(seat)
        if combo is None:
            if top is not None and mine is not None:
                ps = _powers(spec, top.represented, level)
                lo, hi = ps[0], ps[-1]
                t = spec.types.get(top.type, N_TYPES - 1)
                for c, p in powers.items():
                    f = pass_feature(t, 0 if p < lo else 2 if p > hi else 1, short)
                    mine[c][f] = mine[c].get(f, 0.0) + 1.0
            passes += 1
            active = sum(1 for s in range(spec.n_seats) if sizes[s] > 0 and s != top_seat)
            if passes >= active:
                top, passes = None, 0
            continue
        if mine is not None:
            ps = _powers(spec, combo.represented, level)
            lo, hi = ps[0], ps[-1]
            played = set(ps)
            follow = top is not None
            answered = _powers(spec, top.represented, level)[-1] if top is not None else 99
            t = spec.types.get(combo.type, N_TYPES - 1)
            for c, p in powers.items():
                if p in played:
                    where = AMONG
                elif lo < p < hi:
                    where = INSIDE
                elif p < lo:
                    where = SKIPPED if answered < p else BELOW
                else:
                    where = ABOVE
                f = play_feature(t, follow, where, short)
                mine[c][f] = mine[c].get(f, 0.0) + 1.0
            for card in combo.cards:
                feats = mine[spec.class_of(card, level)]
                feats[COPIES] = feats.get(COPIES, 0.0) + 1.0
        sizes[seat] -= combo.size
        top, top_seat, passes = combo, seat, 0
    for s, by_class in out.items():
        for c, feats in by_class.items():
            feats[SIZE_BASE + spec.band(powers[c])] = hand_sizes[s] / 16.0
    return out


def score(feats: Features, theta: Sequence[float]) -> float:
    """``θ · φ``."""
    return sum(theta[f] * v for f, v in feats.items())


__all__ = [
    "ABOVE", "AMONG", "BELOW", "COPIES", "INSIDE", "N_FEATURES", "PASS_BASE", "SIZE_BASE", "SKIPPED",
    "LocateSpec", "pass_feature", "play_feature", "score", "seat_features",
]
