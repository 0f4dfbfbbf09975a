"""Run Fast hand planner: the fewest, strongest plays that empty a hand (rank counts only).

Sequences (straights of ≥ 5 ranks, pair runs of ≥ 2 pairs; 3…A, never the 2) are searched
lowest rank first with memoisation; what is left becomes singles, pairs, triples and bombs
(four of a kind, the three aces). Bombs are never broken for a sequence.

>>> from cardavia.cards import parse_cards
>>> from cardavia.rules.runfast.moves import counts, rank_counts
>>> plan = best_plan(rank_counts(counts(parse_cards("3s 4s 5d 6c 7s 9s 9d Js Jd Jc"))))
>>> sorted(u.describe() for u in plan.units)
['pair 9', 'straight 7 (5)', 'triple J']
"""

from __future__ import annotations

from dataclasses import dataclass

from cardavia.rules.combo import ComboType, Pattern
from cardavia.rules.runfast.moves import ACE_BOMB, BOMB, PAIR, PAIR_RUN, SINGLE, STRAIGHT, TRIPLE

UNIT_COST = 1.0

_SYM = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A", 2: "2"}


@dataclass(frozen=True, slots=True)
class Unit:
    pattern: Pattern
    value: float

    @property
    def size(self) -> int:
        return self.pattern.size

    @property
    def is_bomb(self) -> bool:
        return self.pattern.tier > 0

    def describe(self) -> str:
        p = self.pattern
        text = f"{p.type.value} {_SYM.get(p.rank, str(p.rank))}"
        if p.type in (ComboType.STRAIGHT, ComboType.PAIR_RUN):
            text += f" ({p.size})"
        return text


@dataclass(frozen=True, slots=True)
class Plan:
    score: float
    units: tuple[Unit, ...]

    @property
    def plays(self) -> int:
        return len(self.units)


def power_of(rank: int) -> int:
    return 15 if rank == 2 else rank


def unit_value(p: Pattern) -> float:
    """How hard a play is to beat (about −1.4 for a low single, 2+ for bombs)."""
    t = p.type
    if t == ComboType.SINGLE:
        return (power_of(p.rank) - 10) / 5.0
    if t == ComboType.PAIR:
        return (p.rank - 9) / 5.0
    if t == ComboType.TRIPLE:
        return (p.rank - 7) / 5.0
    if t == ComboType.STRAIGHT:
        return (p.rank - 10) / 5.0 + 0.15 * (p.size - 5)
    if t == ComboType.PAIR_RUN:
        return (p.rank - 8) / 5.0 + 0.1 * (p.size - 4)
    if t == ComboType.ACE_BOMB:
        return 2.6
    if t == ComboType.HEAVENLY_BOMB:
        return 3.0
    return 2.0 + (p.rank - 3) / 40.0


#: plan scores are searched in 1/SCALE points: every unit value is a whole number of them
#: (singles, pairs and triples step by 0.2, sequences by 0.15 and 0.1 a card, bombs by
#: 1/40), so a score is exact whatever order its plays are added in, and one memo entry
#: serves every hand with the same ranks from ``s`` up (issue 15, twenty-second round: a
#: 16-card plan about 10× faster, 235 → 22 µs cold, than keying the memo by the whole hand)
SCALE = 40
#: the memo of the sequence search: ``(rank counts from s up) << 4 | s`` -> the best score
#: of those ranks in points, times 1024, plus the first sequence taken (0: none;
#: ``kind << 8 | top << 4 | length``)
_MEMO: dict[int, int] = {}
_MEMO_LIMIT = 200_000  # two ints an entry, ≈ 25 MB at most (a server runs for weeks: keep it bounded)
#: [the UNIT_COST the tables below were made for]; points of a leaf play by rank and count,
#: of a sequence by kind (1 straight, 2 pair run), top rank and length, and each run's
#: mask in the hand's key (3 bits a rank)
_MADE_FOR: list[float] = []
_LEAF_PTS: list[list[int]] = []
_SEQ_PTS: list[list[list[int]]] = []
_RUN_MASK: list[list[int]] = [
    [sum(1 << (3 * r) for r in range(s, top + 1)) if 3 <= s <= top else 0 for top in range(15)]
    for s in range(15)
]


def _points(x: float) -> int:
    return round(x * SCALE)


def _tables() -> None:
    """(Re)make the points tables for the current :data:`UNIT_COST` (a run may set it)."""
    if _MADE_FOR and _MADE_FOR[0] == UNIT_COST:
        return
    cost = _points(UNIT_COST)
    _LEAF_PTS[:] = [[_points(_LEAF_VALUE[r][c]) - cost if c else 0 for c in range(5)] for r in range(15)]
    seq = [[[0] * 15 for _ in range(15)] for _ in range(3)]
    for top in range(3, 15):
        for length, pat in STRAIGHT.get(top, {}).items():
            seq[1][top][length] = _points(unit_value(pat)) - cost
        for length, pat in PAIR_RUN.get(top, {}).items():
            seq[2][top][length] = _points(unit_value(pat)) - cost
    _SEQ_PTS[:] = seq
    _MEMO.clear()
    _PLANS.clear()
    _MADE_FOR[:] = [UNIT_COST]


_UNITS: dict[Pattern, Unit] = {}


def unit_of(p: Pattern) -> Unit:
    """The one :class:`Unit` of a play pattern. Shared by every plan: the cached plans then
    hold few objects of their own, and a full garbage collection walks few (one unit per
    plan and play made the collector's pauses reach 120 ms)."""
    found = _UNITS.get(p)
    if found is None:
        found = _UNITS[p] = Unit(p, unit_value(p))
    return found


_PLANS: dict[tuple[int, ...], Plan] = {}
_PLANS_LIMIT = 50_000  # whole plans by hand (the rollouts re-plan the same hands often)


def best_plan(rc: list[int]) -> Plan:
    """The best plan of a hand given as Run Fast rank counts (index 2–14)."""
    _tables()
    key = tuple(rc[:15])
    found = _PLANS.get(key)
    if found is not None:
        return found
    if len(_PLANS) > _PLANS_LIMIT:
        _PLANS.clear()
    plan = _plan(list(key))
    _PLANS[key] = plan
    return plan


def _plan(work: list[int]) -> Plan:
    if len(_MEMO) > _MEMO_LIMIT:
        _MEMO.clear()
    key = 0
    for r in range(3, 15):
        key |= work[r] << (3 * r)
    points = _LEAF_PTS[2][work[2]] + _search(work, 3, key)
    units: list[Unit] = []
    s = 3
    while True:
        while s <= 13 and work[s] == 0:
            s += 1
        if s > 13:
            break
        choice = _MEMO[((key >> (3 * s)) << 4) | s] & 1023
        if choice == 0:
            s += 1
            continue
        kind, top, length = choice >> 8, (choice >> 4) & 15, choice & 15
        for r in range(top - length + 1, top + 1):
            work[r] -= kind
        key -= kind * _RUN_MASK[s][top]
        units.append(unit_of(STRAIGHT[top][length] if kind == 1 else PAIR_RUN[top][length]))
    units.extend(_leaf_units(work))
    return Plan(points / SCALE, tuple(units))


def _search(rc: list[int], start: int, key: int) -> int:
    """The best points of the ranks from ``start`` up (``key`` encodes ``rc``, 3 bits a
    rank): each rank's cards left after the sequences that start there are one leaf play."""
    s = start
    while s <= 13 and rc[s] == 0:
        s += 1
    if s > 13:
        return _LEAF_PTS[14][rc[14]]
    mkey = ((key >> (3 * s)) << 4) | s
    found = _MEMO.get(mkey)
    if found is not None:
        return found >> 10
    best = _LEAF_PTS[s][rc[s]] + _search(rc, s + 1, key)
    choice = 0
    # straights s … top (length ≥ 5), pair runs s … top (≥ 2 pairs); never break a bomb
    for kind, min_len in ((1, 5), (2, 2)):
        top = s
        while top <= 14 and rc[top] >= kind and rc[top] < 4 and not (top == 14 and rc[14] == 3):
            length = top - s + 1
            if length >= min_len:
                for r in range(s, top + 1):
                    rc[r] -= kind
                rest = _search(rc, s, key - kind * _RUN_MASK[s][top])
                for r in range(s, top + 1):
                    rc[r] += kind
                points = rest + _SEQ_PTS[kind][top][length]
                if points > best:
                    best = points
                    choice = kind << 8 | top << 4 | length
            top += 1
    _MEMO[mkey] = best * 1024 + choice
    return best


def _leaf_patterns(rc: list[int]) -> list[Pattern]:
    out: list[Pattern] = []
    if rc[2]:
        out.append(SINGLE[2])
    for r in range(3, 15):
        c = rc[r]
        if c == 1:
            out.append(SINGLE[r])
        elif c == 2:
            out.append(PAIR[r])
        elif c == 3:
            out.append(ACE_BOMB if r == 14 else TRIPLE[r])
        elif c == 4:
            out.append(BOMB[r])
    return out


def _leaf_value(r: int, c: int) -> float:
    """The value of the leaf play of ``c`` cards of rank ``r`` (as :func:`_leaf_patterns`
    makes it; 0 for counts no hand holds)."""
    rc = [0] * 15
    rc[r] = c
    pats = _leaf_patterns(rc) if r >= 2 and (r, c) != (14, 4) else []
    return unit_value(pats[0]) if pats else 0.0


_LEAF_VALUE = [[_leaf_value(r, c) for c in range(5)] for r in range(15)]


def _leaf_units(rc: list[int]) -> list[Unit]:
    return [unit_of(p) for p in _leaf_patterns(rc)]


def remove_pattern(rc: list[int], p: Pattern) -> list[int]:
    out = list(rc)
    for r, n in p.slots:
        out[r] -= n
    return out


__all__ = ["UNIT_COST", "Plan", "Unit", "best_plan", "power_of", "remove_pattern", "unit_value"]
