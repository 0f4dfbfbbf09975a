"""Guandan legal-move generation (G-4, G-5), fast on rank counts (design.md §4).

Two levels:

* :func:`patterns` — *abstract* moves on rank counts: (type, rank, slots, wilds used), with
  the fewest wilds each pattern needs. A few dozen per hand; what agents and self-play use.
* :func:`all_moves` — every distinct *concrete* move (same multiset of cards + same
  (type, rank) = one move), for the ``legal`` command and for checking a person's play.

A hand is a count array ``cnt`` of 54 entries indexed by :attr:`Card.code`.

>>> from cardavia.cards import parse_cards
>>> cnt = counts(parse_cards("3s 3d 4s 4d 5c 6c 2h"))
>>> sorted(p.describe() for p in patterns(cnt, level=2) if p.type.value == "pair_run")
['pair_run 5 (1 wild)']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from itertools import chain, product
from operator import itemgetter
from typing import NamedTuple

from cardavia.cards import Card, card_from_code
from cardavia.cards import counts as counts  # re-exported: the old home of counts()
from cardavia.rules.combo import Combo, ComboType, beats, rank_symbol
from cardavia.rules.combo import Pattern as Pattern  # re-exported: the old home of Pattern
from cardavia.rules.guandan.combos import (
    BJ,
    JOKER_TIER,
    RJ,
    SF_TIER,
    bomb_tier,
    group_power,
    make_combo,
    natural_window,
    readings_of,
    wild_code,
)

_NATURAL = range(2, 15)


def rank_counts(cnt: Sequence[int], level: int) -> tuple[list[int], int]:
    """Natural (non-wild) counts per rank value (index 2–16) and the number of wilds."""
    rc = [0] * 17
    for r in _NATURAL:
        b = (r - 2) * 4
        rc[r] = cnt[b] + cnt[b + 1] + cnt[b + 2] + cnt[b + 3]
    w = cnt[wild_code(level)]
    rc[level] -= w
    rc[BJ] = cnt[52]
    rc[RJ] = cnt[53]
    return rc, w


# --------------------------------------------------------------------------- abstract


def patterns(cnt: Sequence[int], level: int, top: Combo | Pattern | None = None) -> list[Pattern]:
    """Every abstract move of the hand ``cnt`` that may be played over ``top`` (None: lead).

    Each pattern uses as few wilds as it can. A follower's pass is not included.
    """
    rc, w = rank_counts(cnt, level)
    out: list[Pattern] = []
    want: ComboType | None = None
    floor = -1
    if top is not None:
        if top.tier == 0:
            want = top.type
            floor = top.power
        else:
            _bombs(cnt, rc, w, level, out, top)
            return out
    if want is None or want == ComboType.SINGLE:
        _singles(rc, w, level, out, floor)
    if want is None or want == ComboType.PAIR:
        _groups(rc, w, level, out, floor, 2, ComboType.PAIR)
    if want is None or want == ComboType.TRIPLE:
        _groups(rc, w, level, out, floor, 3, ComboType.TRIPLE)
    if want is None or want == ComboType.FULL_HOUSE:
        _full_houses(rc, w, level, out, floor)
    if want is None or want == ComboType.STRAIGHT:
        _runs(rc, w, out, floor, ComboType.STRAIGHT, 5, 1, 5)
    if want is None or want == ComboType.PAIR_RUN:
        _runs(rc, w, out, floor, ComboType.PAIR_RUN, 3, 2, 3)
    if want is None or want == ComboType.TRIPLE_RUN:
        _runs(rc, w, out, floor, ComboType.TRIPLE_RUN, 2, 3, 2)
    _bombs(cnt, rc, w, level, out, None)
    return out


def _singles(rc: list[int], w: int, level: int, out: list[Pattern], floor: int) -> None:
    for r in range(2, 17):
        have = rc[r]
        if have or (r == level and w):
            power = group_power(r, level)
            if power > floor:
                used = 0 if have else 1
                out.append(Pattern(ComboType.SINGLE, r, 1, 0, power, ((r, 1),), -1, used))


def _groups(
    rc: list[int], w: int, level: int, out: list[Pattern], floor: int, n: int, ctype: ComboType
) -> None:
    for r in _NATURAL:
        have = rc[r]
        if not have and not (r == level and n == 2 and w == 2):
            continue
        need = n - have if have < n else 0
        if need <= w:
            power = group_power(r, level)
            if power > floor:
                out.append(Pattern(ctype, r, n, 0, power, ((r, n),), -1, need))
    if n == 2:
        for r in (BJ, RJ):
            if rc[r] == 2 and group_power(r, level) > floor:
                out.append(Pattern(ctype, r, 2, 0, group_power(r, level), ((r, 2),), -1, 0))


def _full_houses(rc: list[int], w: int, level: int, out: list[Pattern], floor: int) -> None:
    for t in _NATURAL:
        have_t = rc[t]
        if not have_t:
            continue
        need_t = 3 - have_t if have_t < 3 else 0
        if need_t > w:
            continue
        power = group_power(t, level)
        if power <= floor:
            continue
        spare = w - need_t
        for q in range(2, 17):
            if q == t:
                continue
            have_q = rc[q]
            if q >= BJ:
                if have_q == 2:
                    out.append(
                        Pattern(ComboType.FULL_HOUSE, t, 5, 0, power, ((t, 3), (q, 2)), -1, need_t)
                    )
                continue
            if not have_q:
                continue
            need_q = 2 - have_q if have_q < 2 else 0
            if need_q <= spare:
                out.append(
                    Pattern(
                        ComboType.FULL_HOUSE, t, 5, 0, power, ((t, 3), (q, 2)), -1, need_t + need_q
                    )
                )
        if spare == 2 and need_t == 0:
            out.append(Pattern(ComboType.FULL_HOUSE, t, 5, 0, power, ((t, 3), (0, 2)), -1, 2))


def _runs(
    rc: list[int],
    w: int,
    out: list[Pattern],
    floor: int,
    ctype: ComboType,
    length: int,
    copies: int,
    low_top: int,
) -> None:
    for top in range(max(low_top, floor + 1), 15):
        window = natural_window(top, length)
        need = 0
        for r in window:
            if rc[r] < copies:
                need += copies - rc[r]
        if need <= w:
            slots = tuple((r, copies) for r in window)
            out.append(Pattern(ctype, top, length * copies, 0, top, slots, -1, need))


#: Straight-flush windows: (top rank, its five natural ranks, its slots), ace-low first.
_SF_WINDOWS: tuple[tuple[int, tuple[int, int, int, int, int], tuple[tuple[int, int], ...]], ...] = tuple(
    (top, (w[0], w[1], w[2], w[3], w[4]), tuple((r, 1) for r in w))
    for top in range(5, 15)
    for w in [natural_window(top, 5)]
)


def _bombs(
    cnt: Sequence[int],
    rc: list[int],
    w: int,
    level: int,
    out: list[Pattern],
    top: Combo | Pattern | None,
) -> None:
    floor = (top.tier, top.power) if top is not None and top.tier else (0, 0)
    for r in _NATURAL:
        have = rc[r]
        if not have or have + w < 4:
            continue
        power = group_power(r, level)
        for n in range(4, min(10, have + w) + 1):
            tier = bomb_tier(n)
            if (tier, power) > floor:
                used = n - have if n > have else 0
                out.append(Pattern(ComboType.BOMB, r, n, tier, power, ((r, n),), -1, used))
    # straight flushes, per suit
    if floor < (SF_TIER, 14):
        wc = wild_code(level)
        for s in range(4):
            present = [0] * 15
            held = 0
            for r in _NATURAL:
                code = (r - 2) * 4 + s
                if cnt[code] and code != wc:
                    present[r] = 1
                    held += 1
            if held + w < 5:
                continue
            for top_rank, (a, b, c, d, e), slots in _SF_WINDOWS:
                if (SF_TIER, top_rank) <= floor:
                    continue
                need = 5 - (present[a] + present[b] + present[c] + present[d] + present[e])
                if need <= w:
                    out.append(
                        Pattern(ComboType.STRAIGHT_FLUSH, top_rank, 5, SF_TIER, top_rank, slots, s, need)
                    )
    if rc[BJ] == 2 and rc[RJ] == 2 and floor < (JOKER_TIER, 0):
        out.append(Pattern(ComboType.JOKER_BOMB, 0, 4, JOKER_TIER, 0, ((BJ, 2), (RJ, 2)), -1, 0))


# --------------------------------------------------------------------------- concrete


_SUIT_PREFERENCE = (0, 2, 3, 1)  # s, c, d, h: hearts last, so hearts stay for flushes less often


def concretize(pattern: Pattern, cnt: Sequence[int], level: int) -> Combo:
    """One canonical card choice for an abstract move: naturals first, wilds for the deficit."""
    wc = wild_code(level)
    cards: list[Card] = []
    wilds = 0
    for r, need in pattern.slots:
        if r == 0:
            wilds += need
            continue
        if r >= BJ:
            cards.extend([card_from_code(50 + r - 13)] * need)  # 15 → 52, 16 → 53
            continue
        base = (r - 2) * 4
        got = 0
        suits = (pattern.suit,) if pattern.suit >= 0 else _SUIT_PREFERENCE
        for s in suits:
            code = base + s
            if code == wc:
                continue
            take = min(cnt[code], need - got)
            if take > 0:
                cards.extend([card_from_code(code)] * take)
                got += take
            if got == need:
                break
        wilds += need - got
    cards.extend([card_from_code(wc)] * wilds)
    return reading(cards, level, pattern.type, pattern.rank)


def reading(cards: Sequence[Card], level: int, ctype: ComboType, rank: int) -> Combo:
    """The reading of ``cards`` with this type and rank (it must exist)."""
    for combo in readings_of(cards, level):
        if combo.type == ctype and (combo.rank is None or int(combo.rank) == rank):
            return combo
    raise ValueError(f"cards {' '.join(map(str, cards))} cannot be read as {ctype.value} {rank_symbol(rank)}")


def _sub_multisets(cnt: Sequence[int], codes: Sequence[int], k: int) -> Iterator[list[int]]:
    """Every distinct multiset of ``k`` cards drawn from ``codes`` (with counts ``cnt``)."""
    if k == 0:
        yield []
        return
    if not codes:
        return
    first, rest = codes[0], codes[1:]
    for take in range(min(cnt[first], k), -1, -1):
        for tail in _sub_multisets(cnt, rest, k - take):
            yield [first] * take + tail


def _rank_codes(r: int, level: int, suit: int = -1) -> list[int]:
    wc = wild_code(level)
    if r >= BJ:
        return [50 + r - 13]
    base = (r - 2) * 4
    suits = (suit,) if suit >= 0 else (0, 1, 2, 3)
    return [base + s for s in suits if base + s != wc]


class Move(NamedTuple):
    """One distinct concrete move in plain integers (cli.md: cards + (type, rank)).

    ``cards`` are card codes in ascending order; ``stands_for`` lists, in order, what each
    wild among ``cards`` stands for (codes). :meth:`combo` builds the full :class:`Combo`.
    """

    cards: tuple[int, ...]
    type: ComboType
    rank: int
    stands_for: tuple[int, ...]
    tier: int
    power: int

    def combo(self, level: int) -> Combo:
        """The :class:`Combo` of this move (the reading with its wilds resolved)."""
        return make_combo(
            self.type,
            None if self.type == ComboType.JOKER_BOMB else self.rank,
            [card_from_code(c) for c in self.cards],
            [card_from_code(c) for c in self.stands_for],
            level,
        )


_new_move = tuple.__new__  # Move(...) without the keyword-handling wrapper: hot loop

#: The ways to fill one slot, by the number of wilds used: wilds → natural code tuples
#: (shared through a cache: never mutate one).
SlotFills = Mapping[int, tuple[tuple[int, ...], ...]]


def _slot_fills(cnt: Sequence[int], level: int, spec: SlotSpec) -> SlotFills:
    """Every way to fill one slot (``r == 0``: wilds only), grouped by wilds used."""
    r, need, suit, min_natural = spec
    if r == 0:
        return {need: ((),)}
    held = tuple((c, cnt[c]) for c in _rank_codes(r, level, suit) if cnt[c])
    return _fills_from(held, need, min_natural)


@lru_cache(maxsize=16384)
def _fills_from(held: tuple[tuple[int, int], ...], need: int, min_natural: int) -> SlotFills:
    """:func:`_slot_fills` for the held (code, count) pairs of one rank (cached: ranks recur)."""
    counts_of = [0] * 54
    for code, n in held:
        counts_of[code] = n
    codes = [code for code, _n in held]
    fills: dict[int, tuple[tuple[int, ...], ...]] = {}
    for k in range(need, min_natural - 1, -1):
        found = tuple(tuple(chosen) for chosen in _sub_multisets(counts_of, codes, k))
        if found:
            fills[need - k] = found
    return fills


def _stand_in(spec: SlotSpec, level: int, triple_rank: int) -> int:
    """The card a wild stands for in this slot (the conventions of :func:`readings_of`)."""
    r, _need, suit, _min = spec
    if r == 0:  # a pair of wilds standing for a rank other than the triple's
        r = next(x for x in (level, 2, 3) if x != triple_rank)
    return (r - 2) * 4 + (suit if suit >= 0 else 1)


@lru_cache(maxsize=4096)
def _wild_splits(allowed: tuple[tuple[int, ...], ...], budget: int) -> tuple[tuple[int, ...], ...]:
    """Every split of at most ``budget`` wilds over slots allowing ``allowed[i]`` wilds each."""
    if not allowed:
        return ((),)
    return tuple(
        (used, *rest)
        for used in allowed[0]
        if used <= budget
        for rest in _wild_splits(allowed[1:], budget - used)
    )


def legal_moves(cnt: Sequence[int], level: int, top: Combo | None = None) -> list[Move]:
    """Every distinct concrete move of the hand that may be played over ``top`` (None: lead).

    Two moves are the same when they use the same multiset of cards with the same
    (type, rank) (cli.md ``legal``); each appears once, ordered by strength then cards.

    >>> from cardavia.cards import parse_cards
    >>> moves = legal_moves(counts(parse_cards("7s 7d 2h")), level=2)
    >>> [f"{m.type.value} {m.rank}" + "*" * len(m.stands_for) for m in moves]
    ['pair 7*', 'pair 7*', 'pair 7', 'single 7', 'single 7', 'single 2*', 'triple 7*']
    """
    rc, w = rank_counts(cnt, level)
    wc = wild_code(level)
    found: dict[tuple[tuple[int, ...], ComboType, int], tuple[tuple[object, ...], Move]] = {}
    memo: dict[SlotSpec, SlotFills] = {}  # slots recur across sequences: fill each once
    for ctype, rank, specs in _definitions(rc, w, level):
        size = sum(spec[1] for spec in specs)
        tier, power = _key_of(ctype, rank, size, level)
        if top is not None and not _key_beats(ctype, size, tier, power, top):
            continue
        fills = []
        for spec in specs:
            slot = memo.get(spec)
            if slot is None:
                slot = memo[spec] = _slot_fills(cnt, level, spec)
            fills.append(slot)
        order = (tier, ctype.value, power, size)
        stand_ins = [_stand_in(spec, level, rank) for spec in specs]
        for split in _wild_splits(tuple(tuple(slot) for slot in fills), w):
            used = 0
            stands: tuple[int, ...] = ()
            for code, n in zip(stand_ins, split, strict=True):
                if n:
                    used += n
                    stands += (code,) * n
            wilds = (wc,) * used
            flush_guard = ctype == ComboType.STRAIGHT and used > 0
            for parts in product(*[slot[n] for slot, n in zip(fills, split, strict=True)]):
                cards = tuple(sorted(chain(wilds, *parts)))
                key = (cards, ctype, rank)
                if key in found:
                    continue
                move_stands = stands
                if flush_guard and all(c % 4 == 1 for part in parts for c in part):
                    move_stands = tuple(c - 1 for c in stands)  # a plain straight, not a flush
                found[key] = (
                    (*order, cards),
                    _new_move(Move, (cards, ctype, rank, move_stands, tier, power)),
                )
    return [move for _order, move in sorted(found.values(), key=itemgetter(0))]


def all_moves(cnt: Sequence[int], level: int, top: Combo | None = None) -> list[Combo]:
    """:func:`legal_moves` as :class:`Combo` objects (what the ``legal`` command prints)."""
    return [move.combo(level) for move in legal_moves(cnt, level, top)]


def _key_of(ctype: ComboType, rank: int, size: int, level: int) -> tuple[int, int]:
    if ctype == ComboType.BOMB:
        return bomb_tier(size), group_power(rank, level)
    if ctype == ComboType.STRAIGHT_FLUSH:
        return SF_TIER, rank
    if ctype == ComboType.JOKER_BOMB:
        return JOKER_TIER, 0
    if ctype in (ComboType.STRAIGHT, ComboType.PAIR_RUN, ComboType.TRIPLE_RUN):
        return 0, rank
    return 0, group_power(rank, level)


def _key_beats(ctype: ComboType, size: int, tier: int, power: int, top: Combo) -> bool:
    if tier:
        return not top.tier or (tier, power) > (top.tier, top.power)
    return not top.tier and ctype == top.type and size == top.size and power > top.power


SlotSpec = tuple[int, int, int, int]  # rank, count, suit (-1 any), minimum naturals


def _definitions(
    rc: list[int], w: int, level: int
) -> Iterator[tuple[ComboType, int, list[SlotSpec]]]:
    """Every (type, rank, slots) shape the hand might fill (filtered later by the cards)."""
    for r in range(2, 17):
        if rc[r] or (r == level and w):
            yield ComboType.SINGLE, r, [(r, 1, -1, 0 if r == level else 1)]
    for r in _NATURAL:
        min_nat = 0 if r == level else 1
        if rc[r] + w >= 2 and (rc[r] or r == level):
            yield ComboType.PAIR, r, [(r, 2, -1, min_nat)]
        if rc[r] + w >= 3 and rc[r]:
            yield ComboType.TRIPLE, r, [(r, 3, -1, 1)]
        for n in range(4, min(10, rc[r] + w) + 1):
            if rc[r]:
                yield ComboType.BOMB, r, [(r, n, -1, 1)]
    for r in (BJ, RJ):
        if rc[r] == 2:
            yield ComboType.PAIR, r, [(r, 2, -1, 2)]
    if rc[BJ] == 2 and rc[RJ] == 2:
        yield ComboType.JOKER_BOMB, 0, [(BJ, 2, -1, 2), (RJ, 2, -1, 2)]
    for t in _NATURAL:
        if not rc[t] or rc[t] + w < 3:
            continue
        for q in range(2, 17):
            if q == t:
                continue
            if q >= BJ:
                if rc[q] == 2:
                    yield ComboType.FULL_HOUSE, t, [(t, 3, -1, 1), (q, 2, -1, 2)]
            elif rc[q]:
                yield ComboType.FULL_HOUSE, t, [(t, 3, -1, 1), (q, 2, -1, 1)]
        if w == 2:
            yield ComboType.FULL_HOUSE, t, [(t, 3, -1, 3), (0, 2, -1, 0)]
    for ctype, length, copies, low_top in (
        (ComboType.STRAIGHT, 5, 1, 5),
        (ComboType.PAIR_RUN, 3, 2, 3),
        (ComboType.TRIPLE_RUN, 2, 3, 2),
    ):
        for top_rank in range(low_top, 15):
            window = natural_window(top_rank, length)
            if sum(max(0, copies - rc[r]) for r in window) <= w:
                yield ctype, top_rank, [(r, copies, -1, 0) for r in window]
    for s in range(4):
        for top_rank in range(5, 15):
            window = natural_window(top_rank, 5)
            yield ComboType.STRAIGHT_FLUSH, top_rank, [(r, 1, s, 0) for r in window]


def legal_combos(cnt: Sequence[int], level: int, top: Combo | None) -> list[Combo]:
    """Alias of :func:`all_moves` kept for readability at call sites."""
    return all_moves(cnt, level, top)


def is_legal_reply(combo: Combo, top: Combo | None) -> bool:
    """Whether ``combo`` may be played now: anything when leading, else it must beat ``top``."""
    return top is None or beats(combo, top)
