"""Guandan combinations: every reading of a card multiset (G-4.4, G-5).

The level rank matters twice: the two hearts of the level rank are wild (G-2.2, G-5.4),
and in matching-rank groups the level rank ranks above the ace (G-4.4), while sequences
keep natural order (G-5.3).

>>> [c.describe() for c in classify("8s 8c 8d 2h 2h", level=2)]
['full_house 8', 'bomb 8 (5 cards)']
>>> [c.describe() for c in classify("As 2d 3c 4s 5s", level=9)]
['straight 5']
>>> classify("BJ RJ", level=2)
[]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cardavia.cards import Card, CardError, Rank, Suit, card_from_code, parse_cards
from cardavia.rules.combo import Combo, ComboType, strength

BJ = 15  # rank value of the black joker
RJ = 16  # rank value of the red joker

#: Bomb tiers (G-5.5): 4 < 5 < straight flush < 6 < 7 < 8 < 9 < 10 < four jokers.
SF_TIER = 11
JOKER_TIER = 22


def bomb_tier(size: int) -> int:
    """The tier of an ordinary bomb of ``size`` cards (4–10)."""
    return 2 * size


def group_power(rank: int, level: int) -> int:
    """Single-card order for matching-rank groups (G-4.4): level rank above A, jokers on top."""
    if rank == level:
        return 15
    if rank == BJ:
        return 16
    if rank == RJ:
        return 17
    return rank


def wild_code(level: int) -> int:
    """The code of the level rank's heart card (the wild card, G-2.2)."""
    return (level - 2) * 4 + 1


def is_wild(c: Card, level: int) -> bool:
    """Whether ``c`` is a wild heart of the level rank (G-2.2)."""
    return c.code == wild_code(level)


def natural_window(top: int, length: int) -> list[int]:
    """The natural ranks of a sequence window with top rank ``top`` (ace-low: 14 stands for 1).

    >>> natural_window(5, 5), natural_window(3, 3), natural_window(14, 2)
    ([14, 2, 3, 4, 5], [14, 2, 3], [13, 14])
    """
    return [14 if r == 1 else r for r in range(top - length + 1, top + 1)]


#: Sequence shapes: type → (distinct ranks, copies of each, lowest top rank).
SEQUENCE_SHAPES: dict[ComboType, tuple[int, int, int]] = {
    ComboType.STRAIGHT: (5, 1, 5),
    ComboType.STRAIGHT_FLUSH: (5, 1, 5),
    ComboType.PAIR_RUN: (3, 2, 3),
    ComboType.TRIPLE_RUN: (2, 3, 2),
}


def tier_power(ctype: ComboType, rank: int, size: int, level: int) -> tuple[int, int]:
    """The comparison key (tier, power) of a Guandan reading."""
    if ctype == ComboType.BOMB:
        return bomb_tier(size), group_power(rank, level)
    if ctype == ComboType.STRAIGHT_FLUSH:
        return SF_TIER, rank
    if ctype == ComboType.JOKER_BOMB:
        return JOKER_TIER, 0
    if ctype in SEQUENCE_SHAPES:
        return 0, rank
    return 0, group_power(rank, level)


def make_combo(
    ctype: ComboType,
    rank: int | None,
    cards: Sequence[Card],
    missing: Sequence[Card],
    level: int,
) -> Combo:
    """Build a combo: naturals stand for themselves, wilds (in order) for ``missing``."""
    wc = wild_code(level)
    fill = iter(missing)
    represented = tuple(next(fill) if c.code == wc else c for c in cards)
    size = len(cards)
    tier, power = tier_power(ctype, rank or 0, size, level)
    return Combo(
        type=ctype,
        rank=None if rank is None else Rank(rank),
        size=size,
        cards=tuple(cards),
        represented=represented,
        tier=tier,
        power=power,
    )


def _card(rank: int, suit: int) -> Card:
    return card_from_code((rank - 2) * 4 + suit)


_HEARTS = 1
_SPADES = 0


class _Parts:
    """A card multiset split into wilds, jokers and natural rank/suit counts."""

    __slots__ = ("bj", "cards", "rank_count", "rj", "suits_of", "wilds")

    def __init__(self, cards: Sequence[Card], level: int) -> None:
        wc = wild_code(level)
        self.cards = cards
        self.wilds = 0
        self.bj = 0
        self.rj = 0
        self.rank_count: dict[int, int] = {}
        self.suits_of: dict[int, list[int]] = {}
        for c in cards:
            code = c.code
            if code == wc:
                self.wilds += 1
            elif code == 52:
                self.bj += 1
            elif code == 53:
                self.rj += 1
            else:
                r = code // 4 + 2
                self.rank_count[r] = self.rank_count.get(r, 0) + 1
                self.suits_of.setdefault(r, []).append(code % 4)

    @property
    def jokers(self) -> int:
        return self.bj + self.rj


def _group_readings(p: _Parts, level: int, n: int) -> list[tuple[ComboType, int, list[Card]]]:
    """Single / pair / triple / bomb / four-joker readings (matching-rank groups)."""
    out: list[tuple[ComboType, int, list[Card]]] = []
    if p.jokers:
        if n == 1:
            out.append((ComboType.SINGLE, BJ if p.bj else RJ, []))
        elif n == 2 and (p.bj == 2 or p.rj == 2):
            out.append((ComboType.PAIR, BJ if p.bj else RJ, []))
        elif n == 4 and p.bj == 2 and p.rj == 2:
            out.append((ComboType.JOKER_BOMB, 0, []))
        return out
    ranks = list(p.rank_count)
    if len(ranks) > 1:
        return out
    rank = ranks[0] if ranks else level  # wilds alone are level-rank cards (G-5.4)
    missing = [_card(rank, _HEARTS)] * p.wilds
    if n == 1:
        out.append((ComboType.SINGLE, rank, missing))
    elif n == 2:
        out.append((ComboType.PAIR, rank, missing))
    elif n == 3:
        out.append((ComboType.TRIPLE, rank, missing))
    elif 4 <= n <= 10:
        out.append((ComboType.BOMB, rank, missing))
    return out


def _other_rank(avoid: int, level: int) -> int:
    for r in (level, 2, 3):
        if r != avoid:
            return r
    return 4  # pragma: no cover - unreachable: two of 2, 3, level differ from avoid


def _full_house_readings(p: _Parts, level: int) -> list[tuple[ComboType, int, list[Card]]]:
    out: list[tuple[ComboType, int, list[Card]]] = []
    rc = p.rank_count
    if p.jokers:
        # the pair must be two identical jokers, the triple naturals (+ wilds) of one rank
        if (p.bj == 2 or p.rj == 2) and p.jokers == 2 and len(rc) == 1:
            (t,) = rc
            out.append((ComboType.FULL_HOUSE, t, [_card(t, _HEARTS)] * p.wilds))
        return out
    if len(rc) == 2:
        a, b = rc
        for t, q in ((a, b), (b, a)):
            if rc[t] <= 3 and rc[q] <= 2:
                missing = [_card(t, _HEARTS)] * (3 - rc[t]) + [_card(q, _HEARTS)] * (2 - rc[q])
                out.append((ComboType.FULL_HOUSE, t, missing))
    elif len(rc) == 1 and p.wilds == 2:
        (t,) = rc  # three naturals of t plus a pair of wilds standing for another rank
        q = _other_rank(t, level)
        out.append((ComboType.FULL_HOUSE, t, [_card(q, _HEARTS)] * 2))
    return out


def _sequence_readings(p: _Parts, level: int, n: int) -> list[tuple[ComboType, int, list[Card]]]:
    out: list[tuple[ComboType, int, list[Card]]] = []
    if p.jokers:
        return out  # jokers never appear in sequences (G-5.2)
    rc = p.rank_count
    for ctype, (length, copies, low_top) in SEQUENCE_SHAPES.items():
        if length * copies != n:
            continue
        flush_suit: int | None = None
        if ctype == ComboType.STRAIGHT_FLUSH:
            suits = {s for ss in p.suits_of.values() for s in ss}
            if len(suits) != 1:
                continue
            (flush_suit,) = suits
        for top in range(low_top, 15):
            window = natural_window(top, length)
            if any(r not in window for r in rc) or any(rc.get(r, 0) > copies for r in window):
                continue
            missing: list[Card] = []
            for r in window:
                need = copies - rc.get(r, 0)
                if ctype == ComboType.STRAIGHT_FLUSH:
                    assert flush_suit is not None
                    missing.extend([_card(r, flush_suit)] * need)
                else:
                    missing.extend([_card(r, _HEARTS)] * need)
            if ctype == ComboType.STRAIGHT and missing and flush_suit is None:
                natural_suits = {s for ss in p.suits_of.values() for s in ss}
                if natural_suits == {_HEARTS}:  # keep a plain straight from looking like a flush
                    missing = [_card(c.rank, _SPADES) for c in missing]
            out.append((ctype, top, missing))
    return out


def readings_of(cards: Sequence[Card], level: int) -> list[Combo]:
    """Every distinct (type, rank) reading of ``cards`` at ``level``, weakest first."""
    n = len(cards)
    if n == 0:
        return []
    p = _Parts(cards, level)
    found = _group_readings(p, level, n)
    if n == 5:
        found += _full_house_readings(p, level)
    if n in (5, 6):
        found += _sequence_readings(p, level, n)
    combos: dict[tuple[ComboType, int], Combo] = {}
    for ctype, rank, missing in found:
        if (ctype, rank) not in combos:
            r: int | None = None if ctype == ComboType.JOKER_BOMB else rank
            combos[(ctype, rank)] = make_combo(ctype, r, cards, missing, level)
    return sorted(combos.values(), key=strength)


def classify(cards: str | Iterable[str] | Iterable[Card], level: int | Rank | str = 2) -> list[Combo]:
    """Every reading of a card multiset at a level (rules G-5), weakest first.

    ``cards`` may be text (``"7h 7h BJ"``), card strings or :class:`Card` objects;
    ``level`` a rank value, :class:`Rank` or rank text.

    >>> [c.describe() for c in classify("3s 3d 4s 4d 2h 2h", level=2)]
    ['pair_run 4', 'triple_run 4', 'pair_run 5']
    """
    return readings_of(to_cards(cards), level_value(level))


def to_cards(cards: str | Iterable[str] | Iterable[Card]) -> list[Card]:
    """Accept text, strings or cards and return a card list."""
    if isinstance(cards, str):
        return parse_cards(cards)
    items = list(cards)
    if all(isinstance(c, Card) for c in items):
        return [c for c in items if isinstance(c, Card)]
    return parse_cards(str(c) for c in items)


def level_value(level: int | Rank | str) -> int:
    """A level as its rank value 2–14 (``'T'``, ``'10'``, ``Rank.TEN`` and ``10`` all work)."""
    if isinstance(level, str):
        return int(Rank.parse(level))
    value = int(level)
    if not 2 <= value <= 14:
        raise CardError(f"level {level!r} is not a rank from 2 to A")
    return value


__all__ = [
    "BJ",
    "JOKER_TIER",
    "RJ",
    "SEQUENCE_SHAPES",
    "SF_TIER",
    "Suit",
    "bomb_tier",
    "classify",
    "group_power",
    "is_wild",
    "level_value",
    "make_combo",
    "natural_window",
    "readings_of",
    "tier_power",
    "to_cards",
    "wild_code",
]
