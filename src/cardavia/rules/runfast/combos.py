"""Run Fast combinations: the reading of a card multiset (R-3.2, R-4).

Comparison keys (``tier``, ``power``) make :func:`cardavia.rules.combo.beats` decide every
Run Fast comparison:

* ordinary combinations have tier 0; singles, pairs and triples have the R-3.2 order as
  power (3 lowest … A = 14, the ``2s`` = 15); sequences have their top rank as power
  (ace high only, never the 2), and must match in size (R-4.1);
* four of a kind is a ``bomb`` of tier 1, power by rank (R-4.3);
* ``As Ac Ad`` is the ``ace_bomb``, tier 2: above every four-card bomb (R-4.3);
* all four 3s as the opening play of the deal are the ``heavenly_bomb``, tier 3, which
  nothing beats (R-4.4); played later they are the lowest ordinary bomb.

A card multiset has at most one reading in Run Fast (no wilds, ace high only), so the
lists below hold zero or one combination.

>>> [c.describe() for c in classify("Ks Kd As Ac")]
['pair_run A']
>>> classify("As 2s 3s 4s 5s")
[]
>>> [c.describe() for c in classify("3s 3h 3c 3d")]
['bomb 3 (4 cards)']
>>> [c.describe() for c in classify("3s 3h 3c 3d", opening=True)]
['heavenly_bomb 3']
>>> [(c.type.value, c.tier, c.power) for c in classify("As Ac Ad")]
[('ace_bomb', 2, 14)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cardavia.cards import Card, Rank, check_in_deck, parse_cards, runfast_deck
from cardavia.rules.combo import Combo, ComboType, strength

#: Bomb tiers (R-4.3, R-4.4): four of a kind < three aces < heavenly bomb.
BOMB_TIER = 1
ACE_BOMB_TIER = 2
HEAVENLY_TIER = 3

#: Card codes that matter to the rules.
THREE_OF_HEARTS = 5  # (3 - 2) * 4 + 1
TWO_OF_SPADES = 0
ACE_BOMB_CODES = frozenset({48, 50, 51})  # As Ac Ad (there is no Ah, R-2.1)

#: Sequences use the ranks 3 … A (R-4.1): the 2 is never in a sequence.
SEQUENCE_LOW = 3
SEQUENCE_HIGH = 14
MIN_STRAIGHT = 5
MIN_PAIR_RUN = 2

#: ``RANKS[r]`` is ``Rank(r)`` (a table, so hot paths skip the enum call).
RANKS: tuple[Rank, ...] = (Rank.TWO, Rank.TWO, *(Rank(r) for r in range(2, 15)))


def single_power(rank: int) -> int:
    """The R-3.2 order for singles, pairs, triples and bombs: 3 lowest, A = 14, 2 = 15.

    >>> single_power(3), single_power(14), single_power(2)
    (3, 14, 15)
    """
    return 15 if rank == 2 else rank


def tier_power(ctype: ComboType, rank: int) -> tuple[int, int]:
    """The comparison key (tier, power) of a Run Fast reading of this type and main rank."""
    if ctype == ComboType.BOMB:
        return BOMB_TIER, rank
    if ctype == ComboType.ACE_BOMB:
        return ACE_BOMB_TIER, 14
    if ctype == ComboType.HEAVENLY_BOMB:
        return HEAVENLY_TIER, 3
    if ctype in (ComboType.STRAIGHT, ComboType.PAIR_RUN):
        return 0, rank
    return 0, single_power(rank)


def make_combo(ctype: ComboType, rank: int, cards: Sequence[Card]) -> Combo:
    """A Run Fast combo of ``cards`` read as ``ctype`` with main rank ``rank`` (no checks)."""
    tier, power = tier_power(ctype, rank)
    held = tuple(cards)
    return Combo(ctype, RANKS[rank], len(held), held, held, tier, power)


def reading_key(cards: Sequence[Card], opening: bool = False) -> tuple[ComboType, int] | None:
    """The (type, main rank) of the only reading of ``cards``, or None when they form none.

    >>> reading_key(parse_cards("9s Td Jc Qh Ks Ad"))
    (<ComboType.STRAIGHT: 'straight'>, 14)
    >>> reading_key(parse_cards("7s 7d 7c 8s")) is None   # triple + single (R-4.2)
    True
    """
    n = len(cards)
    if n == 0:
        return None
    rc: dict[int, int] = {}
    for c in cards:
        code = c.code
        if code >= 52:
            return None  # no jokers in Run Fast
        r = (code >> 2) + 2
        rc[r] = rc.get(r, 0) + 1
    if len(rc) == 1:
        ((r, k),) = rc.items()
        if k == 1:
            return ComboType.SINGLE, r
        if k == 2:
            return ComboType.PAIR, r
        if k == 3:
            if r == 14:
                # the three aces are a bomb (and only a bomb: there is no fourth ace)
                if {c.code for c in cards} == ACE_BOMB_CODES:
                    return ComboType.ACE_BOMB, 14
                return None
            return ComboType.TRIPLE, r
        if k == 4 and SEQUENCE_LOW <= r <= 13:
            if r == 3 and opening:
                return ComboType.HEAVENLY_BOMB, 3
            return ComboType.BOMB, r
        return None  # four with attachments and the like are no combination
    lo = min(rc)
    hi = max(rc)
    if lo < SEQUENCE_LOW or hi - lo + 1 != len(rc):
        return None  # no 2 in sequences, no gaps, no wrap-around
    copies = set(rc.values())
    if copies == {1} and len(rc) >= MIN_STRAIGHT:
        return ComboType.STRAIGHT, hi
    if copies == {2} and len(rc) >= MIN_PAIR_RUN:
        return ComboType.PAIR_RUN, hi
    return None


def readings_of(cards: Sequence[Card], opening: bool = False) -> list[Combo]:
    """Every distinct (type, rank) reading of ``cards``, weakest first (R-4).

    ``opening``: the cards are the deal's opening play, where four 3s are the heavenly
    bomb (R-4.4). Cards are not checked against the deck here (see :func:`classify`).
    """
    key = reading_key(cards, opening)
    if key is None:
        return []
    combos = [make_combo(key[0], key[1], cards)]
    return sorted(combos, key=strength)


def to_cards(cards: str | Iterable[str] | Iterable[Card]) -> list[Card]:
    """Accept text, card strings or cards and return a card list.

    >>> to_cards("10s jd"), to_cards(["As"])
    ([Card('Ts'), Card('Jd')], [Card('As')])
    """
    if isinstance(cards, str):
        return parse_cards(cards)
    items: list[str | Card] = list(cards)
    if all(isinstance(c, Card) for c in items):
        return [c for c in items if isinstance(c, Card)]
    return parse_cards(str(c) for c in items)


def check_cards(cards: Iterable[Card]) -> None:
    """Raise :class:`cardavia.cards.CardError` for a card the 48-card pack lacks, or a repeat.

    >>> check_cards(parse_cards("2s 2d"))
    Traceback (most recent call last):
    ...
    cardavia.cards.CardError: card 2d is not in the runfast deck
    """
    check_in_deck(cards, _DECK, "runfast")


_DECK: tuple[Card, ...] = tuple(runfast_deck())


def classify(cards: str | Iterable[str] | Iterable[Card], opening: bool = False) -> list[Combo]:
    """Every reading of a card set (R-4), weakest first; ``[]`` when it is no combination.

    ``cards`` may be text (``"Ks Kd As Ad"``, ``10`` accepted for ``T``), card strings or
    :class:`Card` objects. Cards the 48-card pack lacks (``Ah``, ``2d``, jokers) and repeated
    cards raise :class:`cardavia.cards.CardError`.

    >>> [c.describe() for c in classify("3s 4d 5c 6h 7s 8s 9s Ts Js Qs Ks As")]
    ['straight A']
    >>> classify("Ah")
    Traceback (most recent call last):
    ...
    cardavia.cards.CardError: card Ah is not in the runfast deck
    """
    card_list = to_cards(cards)
    check_cards(card_list)
    return readings_of(card_list, opening)


__all__ = [
    "ACE_BOMB_CODES",
    "ACE_BOMB_TIER",
    "BOMB_TIER",
    "HEAVENLY_TIER",
    "RANKS",
    "THREE_OF_HEARTS",
    "TWO_OF_SPADES",
    "check_cards",
    "classify",
    "make_combo",
    "reading_key",
    "readings_of",
    "single_power",
    "tier_power",
    "to_cards",
]
