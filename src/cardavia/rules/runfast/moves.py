"""Run Fast legal-move generation (R-2.3, R-3.3, R-3.4, R-4), fast on rank counts.

Two levels, as for Guandan (:mod:`cardavia.rules.guandan.moves`):

* :func:`patterns` — *abstract* moves on rank counts (type, rank, size, slots). Every
  pattern is a precomputed value, so generation only walks a 15-entry count array; this is
  what agents, self-play and the must-beat check (R-3.4) use.
* :func:`all_moves` — every distinct *concrete* move (same multiset of cards + same
  (type, rank) = one move), for the ``legal`` command and for checking a person's play.

A hand is a count array ``cnt`` of 54 entries indexed by :attr:`Card.code`.
``opening=True`` means the move is the deal's first play: it must include ``3h`` (R-2.3)
and four 3s are the heavenly bomb (R-4.4).

>>> from cardavia.cards import parse_cards
>>> cnt = counts(parse_cards("3h 4s 5d 6c 7s 7d 8h 3s"))
>>> [p.describe() for p in patterns(cnt, opening=True)]
['single 3', 'pair 3', 'straight 7', 'straight 8']
>>> top = classify_one("6s")
>>> [p.describe() for p in patterns(cnt, top)]
['single 7', 'single 8']
>>> [c.describe() for c in all_moves(cnt, classify_one("3d 4d 5d 6d 7d"))]
['straight 8', 'straight 8']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, product

from cardavia.cards import Card, card_from_code
from cardavia.cards import counts as counts  # re-exported: the old home of counts()
from cardavia.rules.combo import Combo, ComboType
from cardavia.rules.combo import Pattern as Pattern  # re-exported: the old home of Pattern
from cardavia.rules.runfast.combos import (
    ACE_BOMB_TIER,
    BOMB_TIER,
    HEAVENLY_TIER,
    MIN_PAIR_RUN,
    MIN_STRAIGHT,
    RANKS,
    THREE_OF_HEARTS,
    classify,
    single_power,
)

__all__ = [
    "ACE_BOMB",
    "BOMB",
    "HEAVENLY_BOMB",
    "PAIR",
    "PAIR_RUN",
    "SINGLE",
    "STRAIGHT",
    "TRIPLE",
    "Pattern",
    "all_moves",
    "classify_one",
    "concretize",
    "counts",
    "has_reply",
    "patterns",
    "patterns_of_ranks",
    "rank_counts",
]

_CARDS: tuple[Card, ...] = tuple(card_from_code(c) for c in range(54))

# --------------------------------------------------------------------------- pattern tables
# Every abstract move of Run Fast exists once, built at import time; generation only picks.


def _p(
    ctype: ComboType, rank: int, slots: tuple[tuple[int, int], ...], tier: int, power: int
) -> Pattern:
    return Pattern(ctype, rank, sum(n for _, n in slots), tier, power, slots, -1, 0)


SINGLE: dict[int, Pattern] = {
    r: _p(ComboType.SINGLE, r, ((r, 1),), 0, single_power(r)) for r in range(2, 15)
}
PAIR: dict[int, Pattern] = {r: _p(ComboType.PAIR, r, ((r, 2),), 0, r) for r in range(3, 15)}
TRIPLE: dict[int, Pattern] = {r: _p(ComboType.TRIPLE, r, ((r, 3),), 0, r) for r in range(3, 14)}
BOMB: dict[int, Pattern] = {r: _p(ComboType.BOMB, r, ((r, 4),), BOMB_TIER, r) for r in range(3, 14)}
ACE_BOMB: Pattern = _p(ComboType.ACE_BOMB, 14, ((14, 3),), ACE_BOMB_TIER, 14)
HEAVENLY_BOMB: Pattern = _p(ComboType.HEAVENLY_BOMB, 3, ((3, 4),), HEAVENLY_TIER, 3)
#: ``STRAIGHT[top][length]`` and ``PAIR_RUN[top][length]``: sequences by top rank and length.
STRAIGHT: dict[int, dict[int, Pattern]] = {
    top: {
        n: _p(ComboType.STRAIGHT, top, tuple((r, 1) for r in range(top - n + 1, top + 1)), 0, top)
        for n in range(MIN_STRAIGHT, top - 1)
    }
    for top in range(7, 15)
}
PAIR_RUN: dict[int, dict[int, Pattern]] = {
    top: {
        n: _p(ComboType.PAIR_RUN, top, tuple((r, 2) for r in range(top - n + 1, top + 1)), 0, top)
        for n in range(MIN_PAIR_RUN, top - 1)
    }
    for top in range(4, 15)
}

_ORDINARY_RANKS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2)  # low → high
_FOUR_RANKS = range(3, 14)  # ranks with four cards in the 48-card pack


def rank_counts(cnt: Sequence[int]) -> list[int]:
    """Cards held per rank value, indexed 0–14 (entries 0 and 1 unused).

    >>> from cardavia.cards import parse_cards
    >>> rank_counts(counts(parse_cards("2s As Ad 5c")))[2:]
    [1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    """
    return [
        0, 0,
        cnt[0] + cnt[1] + cnt[2] + cnt[3],
        cnt[4] + cnt[5] + cnt[6] + cnt[7],
        cnt[8] + cnt[9] + cnt[10] + cnt[11],
        cnt[12] + cnt[13] + cnt[14] + cnt[15],
        cnt[16] + cnt[17] + cnt[18] + cnt[19],
        cnt[20] + cnt[21] + cnt[22] + cnt[23],
        cnt[24] + cnt[25] + cnt[26] + cnt[27],
        cnt[28] + cnt[29] + cnt[30] + cnt[31],
        cnt[32] + cnt[33] + cnt[34] + cnt[35],
        cnt[36] + cnt[37] + cnt[38] + cnt[39],
        cnt[40] + cnt[41] + cnt[42] + cnt[43],
        cnt[44] + cnt[45] + cnt[46] + cnt[47],
        cnt[48] + cnt[49] + cnt[50] + cnt[51],
    ]  # fmt: skip


# --------------------------------------------------------------------------- abstract


def patterns(
    cnt: Sequence[int], top: Combo | Pattern | None = None, opening: bool = False
) -> list[Pattern]:
    """Every abstract move of the hand ``cnt`` that may be played now (a pass is not one).

    ``top`` is the play to beat (None: the hand leads). With ``opening`` every move
    includes ``3h`` (R-2.3) — none when the hand lacks it — and four 3s are the heavenly
    bomb (R-4.4). Replies follow R-3.3 / R-4.3: the same type and size with a higher power,
    or a higher bomb.
    """
    rc = rank_counts(cnt)
    if opening:
        found = _opening(cnt, rc)
        return found if top is None else [p for p in found if p.beats(top)]
    return patterns_of_ranks(rc, top)


def patterns_of_ranks(rc: list[int], top: Combo | Pattern | None = None) -> list[Pattern]:
    """:func:`patterns` on rank counts (:func:`rank_counts`), outside the opening play:
    suits do not matter then, so searches that work on rank counts call this directly.

    >>> [p.describe() for p in patterns_of_ranks([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], SINGLE[7])]
    ['single 8', 'single 9']
    """
    out: list[Pattern] = []
    if top is None:
        _leads(rc, out)
        _bombs(rc, out, 0, 0)
        return out
    if top.tier:
        _bombs(rc, out, top.tier, top.power)
        return out
    ttype = top.type
    power = top.power
    if ttype == ComboType.SINGLE:
        for r in _ORDINARY_RANKS:
            if rc[r] and single_power(r) > power:
                out.append(SINGLE[r])
    elif ttype == ComboType.PAIR:
        for r in range(power + 1, 15):
            if rc[r] >= 2:
                out.append(PAIR[r])
    elif ttype == ComboType.TRIPLE:
        for r in range(power + 1, 14):
            if rc[r] >= 3:
                out.append(TRIPLE[r])
    elif ttype == ComboType.STRAIGHT:
        n = top.size
        run = 0
        for r in range(3, 15):
            run = run + 1 if rc[r] else 0
            if run >= n and r > power:
                out.append(STRAIGHT[r][n])
    elif ttype == ComboType.PAIR_RUN:
        n = top.size // 2
        run = 0
        for r in range(3, 15):
            run = run + 1 if rc[r] >= 2 else 0
            if run >= n and r > power:
                out.append(PAIR_RUN[r][n])
    _bombs(rc, out, 0, 0)
    return out


def _leads(rc: list[int], out: list[Pattern]) -> None:
    """Every ordinary combination of the hand (R-4.1), leading."""
    for r in _ORDINARY_RANKS:
        k = rc[r]
        if k:
            out.append(SINGLE[r])
            if k >= 2:
                out.append(PAIR[r])
                if k >= 3 and r != 14:  # three aces are the ace bomb
                    out.append(TRIPLE[r])
    run1 = 0
    run2 = 0
    for r in range(3, 15):
        k = rc[r]
        if k:
            run1 += 1
            if run1 >= MIN_STRAIGHT:
                by_len = STRAIGHT[r]
                for n in range(MIN_STRAIGHT, run1 + 1):
                    out.append(by_len[n])
            if k >= 2:
                run2 += 1
                if run2 >= MIN_PAIR_RUN:
                    by_len = PAIR_RUN[r]
                    for n in range(MIN_PAIR_RUN, run2 + 1):
                        out.append(by_len[n])
            else:
                run2 = 0
        else:
            run1 = 0
            run2 = 0


def _bombs(rc: list[int], out: list[Pattern], tier: int, power: int) -> None:
    """Bombs above (tier, power) (R-4.3); (0, 0) for every bomb."""
    if tier <= BOMB_TIER:
        for r in _FOUR_RANKS:
            if rc[r] == 4 and (tier < BOMB_TIER or r > power):
                out.append(BOMB[r])
    if tier < ACE_BOMB_TIER and rc[14] == 3:
        out.append(ACE_BOMB)


def _opening(cnt: Sequence[int], rc: list[int]) -> list[Pattern]:
    """The moves of an opening play: each includes a 3, so it can include ``3h`` (R-2.3)."""
    out: list[Pattern] = []
    if not cnt[THREE_OF_HEARTS]:
        return out
    k = rc[3]
    out.append(SINGLE[3])
    if k >= 2:
        out.append(PAIR[3])
    if k >= 3:
        out.append(TRIPLE[3])
    top = 3
    while top < 14 and rc[top + 1]:
        top += 1
    for r in range(3 + MIN_STRAIGHT - 1, top + 1):
        out.append(STRAIGHT[r][r - 2])
    top = 2
    while top < 14 and rc[top + 1] >= 2:
        top += 1
    for r in range(3 + MIN_PAIR_RUN - 1, top + 1):
        out.append(PAIR_RUN[r][r - 2])
    if k == 4:
        out.append(HEAVENLY_BOMB)  # the opening four 3s, not the bomb of 3s
    return out


def has_reply(cnt: Sequence[int], top: Combo | Pattern) -> bool:
    """Whether the hand holds any move that beats ``top``, bombs included (R-3.4)."""
    return bool(patterns(cnt, top))


# --------------------------------------------------------------------------- concrete


def _code(c: Card) -> int:
    return c.code


_OPENING_SUITS = (1, 0, 2, 3)  # 3h first, so an opening play includes it
_SUITS = (0, 1, 2, 3)


def concretize(pattern: Pattern, cnt: Sequence[int], opening: bool = False) -> Combo:
    """One canonical card choice for an abstract move: the lowest suits (s, h, c, d) of each
    rank, but ``3h`` whenever ``opening``; cards in code order, as in :func:`all_moves`.
    Raises :class:`ValueError` when the hand cannot fill the pattern.

    >>> from cardavia.cards import parse_cards
    >>> cnt = counts(parse_cards("3s 3h 3d 4c 5c 6c 7c"))
    >>> concretize(SINGLE[3], cnt, opening=True).to_json()["cards"]
    ['3h']
    >>> concretize(STRAIGHT[7][5], cnt).to_json()["cards"]
    ['3s', '4c', '5c', '6c', '7c']
    """
    cards: list[Card] = []
    for r, need in pattern.slots:
        base = (r - 2) * 4
        got = 0
        for s in _OPENING_SUITS if opening and r == 3 else _SUITS:
            if cnt[base + s] > 0:
                cards.append(_CARDS[base + s])
                got += 1
                if got == need:
                    break
        if got < need:
            raise ValueError(f"the hand cannot fill {pattern.describe()}")
    if opening:
        if _CARDS[THREE_OF_HEARTS] not in cards:
            raise ValueError(f"an opening {pattern.describe()} cannot include 3h")
        cards.sort(key=_code)  # cards in code order, as everywhere else
    held = tuple(cards)
    return Combo(
        pattern.type, RANKS[pattern.rank], len(held), held, held, pattern.tier, pattern.power
    )


def all_moves(
    cnt: Sequence[int], top: Combo | Pattern | None = None, opening: bool = False
) -> list[Combo]:
    """Every distinct concrete move of the hand that may be played now (cli.md ``legal``).

    Two moves are the same when they use the same cards with the same (type, rank); each
    appears once. Order: by tier, type, size, power, then card codes (deterministic).
    """
    found: list[tuple[tuple[int, int, int, int, tuple[int, ...]], Combo]] = []
    for p in patterns(cnt, top, opening):
        per_slot: list[list[tuple[int, ...]]] = []
        for r, need in p.slots:
            base = (r - 2) * 4
            held = [base + s for s in _SUITS if cnt[base + s] > 0]
            picks = list(combinations(held, need))
            if opening and r == 3:
                picks = [x for x in picks if THREE_OF_HEARTS in x]
            per_slot.append(picks)
        for choice in product(*per_slot):
            codes = tuple(c for part in choice for c in part)
            cards = tuple(_CARDS[c] for c in codes)
            combo = Combo(p.type, RANKS[p.rank], p.size, cards, cards, p.tier, p.power)
            found.append(((p.tier, _TYPE_ORDER[p.type], p.size, p.power, codes), combo))
    found.sort(key=lambda item: item[0])
    return [combo for _, combo in found]


_TYPE_ORDER: dict[ComboType, int] = {t: i for i, t in enumerate(ComboType)}


def classify_one(cards: str | Iterable[str] | Iterable[Card], opening: bool = False) -> Combo:
    """The reading of ``cards`` (for tests and examples); :class:`ValueError` if none.

    >>> classify_one("9s 9d").describe()
    'pair 9'
    """
    found = classify(cards, opening)
    if not found:
        raise ValueError("those cards are not a Run Fast combination")
    return found[-1]
