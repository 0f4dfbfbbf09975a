"""Guandan hand planner: split a hand (rank counts + wilds) into the fewest, strongest plays.

The planner works on rank counts (design.md §4), never on suits: it searches every useful
way to take sequences (straights, pair runs, triple runs, ace-low included, wilds filling
gaps) out of the hand, lowest rank first with memoisation, and groups whatever is left
(singles, pairs, triples, bombs, joker bomb), matching spare triples with low pairs into
full houses. Straight flushes are not planned (they appear as bomb moves when needed).

A plan's ``score`` is ``Σ unit value − UNIT_COST × units``: a hand that needs fewer plays,
and whose plays are harder to beat, scores higher. Leftover wilds are worth ``WILD_VALUE``
each and cost no play (a wild can always join another play).

>>> from cardavia.cards import parse_cards
>>> from cardavia.rules.guandan.moves import counts, rank_counts
>>> rc, w = rank_counts(counts(parse_cards("3s 4d 5c 6s 7h 9s 9d 9c Js Jd")), 2)
>>> plan = best_plan(rc, w, 2)
>>> sorted(u.describe() for u in plan.units)
['full_house 9', 'straight 7']
"""

from __future__ import annotations

from dataclasses import dataclass

from cardavia.rules.combo import ComboType, Pattern
from cardavia.rules.guandan.combos import BJ, RJ, group_power, natural_window, tier_power

UNIT_COST = 1.0
WILD_VALUE = 0.6

_ST = ComboType.STRAIGHT
_PR = ComboType.PAIR_RUN
_TR = ComboType.TRIPLE_RUN

#: (type, length, copies) of the sequences the planner may take.
_SEQS: tuple[tuple[ComboType, int, int], ...] = ((_ST, 5, 1), (_PR, 3, 2), (_TR, 2, 3))
#: For each start rank s (1 = ace low … 13): the sequences that may start there, with
#: (type, length, copies, top rank, natural window) — precomputed for the search's hot loop.
_SEQ_WINDOWS: dict[int, tuple[tuple[ComboType, int, int, int, tuple[int, ...]], ...]] = {
    s: tuple(
        (ctype, length, copies, s + length - 1, tuple(natural_window(s + length - 1, length)))
        for ctype, length, copies in _SEQS
        if s + length - 1 <= 14
    )
    for s in range(1, 14)
}


@dataclass(frozen=True, slots=True)
class Unit:
    """One planned play on rank counts. ``slots`` are (physical rank, count) pairs."""

    type: ComboType
    rank: int
    size: int
    slots: tuple[tuple[int, int], ...]
    wilds: int
    value: float

    def describe(self) -> str:
        if self.type == ComboType.JOKER_BOMB:
            return "joker_bomb"
        sym = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A", 15: "BJ", 16: "RJ"}
        text = f"{self.type.value} {sym.get(self.rank, str(self.rank))}"
        if self.type == ComboType.BOMB:
            text += f" ({self.size} cards)"
        return text

    @property
    def is_bomb(self) -> bool:
        return self.type in (ComboType.BOMB, ComboType.JOKER_BOMB, ComboType.STRAIGHT_FLUSH)

    def pattern(self, level: int) -> Pattern:
        """The abstract move of this unit (for :func:`moves.concretize`)."""
        tier, power = tier_power(self.type, self.rank, self.size, level)
        return Pattern(self.type, self.rank, self.size, tier, power, self.slots, -1, self.wilds)


@dataclass(frozen=True, slots=True)
class Plan:
    score: float
    units: tuple[Unit, ...]

    @property
    def plays(self) -> int:
        """Plays needed to empty the hand (leftover wilds join other plays)."""
        return sum(1 for u in self.units if not (u.wilds and u.size == u.wilds)) or len(self.units)


def single_value(power: int) -> float:
    return (power - 10) / 6.0


def group_value(ctype: ComboType, power: int, size: int) -> float:
    """How hard a group is to beat, about −1.3 (a low single) to +3 (joker bomb)."""
    if ctype == ComboType.SINGLE:
        return (power - 10) / 6.0
    if ctype == ComboType.PAIR:
        return (power - 9) / 6.0
    if ctype in (ComboType.TRIPLE, ComboType.FULL_HOUSE):
        return (power - 8) / 6.0
    if ctype == ComboType.BOMB:
        return 1.6 + 0.3 * (size - 4) + (power - 2) / 40.0
    if ctype == ComboType.JOKER_BOMB:
        return 3.2
    return 0.0


def sequence_value(ctype: ComboType, top: int) -> float:
    if ctype == _ST:
        return (top - 9) / 5.0
    if ctype == _PR:
        return (top - 8) / 5.0
    return (top - 7) / 5.0


#: (top, length, copies) or "no more"; the copies tell the type (:data:`_SEQ_TYPE`). Ints
#: only: the memo's values are then tuples of untracked objects, which the garbage collector
#: stops walking (with the type's enum member in them, 100 000 entries cost every full
#: collection tens of milliseconds inside the search).
Choice = tuple[int, int, int] | None
_SEQ_TYPE: dict[int, ComboType] = {copies: ctype for ctype, _, copies in _SEQS}

_MEMO: dict[tuple[int, int, int, tuple[int, ...]], tuple[float, Choice]] = {}
_LEAF: dict[tuple[int, int, tuple[int, ...]], float] = {}
_MEMO_LIMIT = 100_000  # ≈ 45 MB with the leaf memo (a server runs for weeks: keep it bounded)


def best_plan(rc: list[int], w: int, level: int) -> Plan:
    """The best plan of a hand given as rank counts (index 2–16, wilds excluded) and wilds."""
    if len(_MEMO) > _MEMO_LIMIT:
        _MEMO.clear()
    if len(_LEAF) > _MEMO_LIMIT:
        _LEAF.clear()
    work = list(rc[:17]) + [0] * max(0, 17 - len(rc))
    score = _search(work, w, 1, level)
    # replay the memoised choices to list the units
    units: list[Unit] = []
    s = 1
    while True:
        s = _next_start(work, s)
        if s > 13:
            break
        _, choice = _MEMO[(level, w, s, tuple(work))]
        if choice is None:
            s += 1
            continue
        top, length, copies = choice
        ctype = _SEQ_TYPE[copies]
        window = natural_window(top, length)
        deficit = 0
        for r in window:
            take = min(work[r], copies)
            deficit += copies - take
            work[r] -= take
        w -= deficit
        value = sequence_value(ctype, top) - 0.15 * deficit
        units.append(
            Unit(ctype, top, length * copies, tuple((r, copies) for r in window), deficit, value)
        )
    units.extend(_leaf_units(work, w, level))
    return Plan(score, tuple(units))


def _next_start(rc: list[int], s: int) -> int:
    if s >= 2:
        while s <= 13 and rc[s] == 0:
            s += 1
    return s


def _search(rc: list[int], w: int, start: int, level: int) -> float:
    """Best plan score when sequences may only start at natural rank ``start`` or later."""
    s = _next_start(rc, start)
    if s > 13:
        return _leaf_score(rc, w, level)
    key = (level, w, s, tuple(rc))
    found = _MEMO.get(key)
    if found is not None:
        return found[0]
    best = _search(rc, w, s + 1, level)  # no (more) sequences starting at s
    choice: Choice = None
    for ctype, length, copies, top, window in _SEQ_WINDOWS[s]:
        deficit = 0
        good = 0
        ok = True
        for r in window:
            have = rc[r]
            if have >= 4:
                ok = False  # never break a bomb for a sequence
                break
            if have < copies:
                deficit += copies - have
            if copies == 1:
                good += have == 1
            elif copies == 2:
                good += have in (1, 2)
            else:
                good += have in (2, 3)
        if not ok or deficit > w:
            continue
        if good < (2 if copies == 1 else len(window) - 1 if copies == 3 else 2):
            continue
        used: list[tuple[int, int]] = []
        for r in window:
            take = min(rc[r], copies)
            rc[r] -= take
            used.append((r, take))
        rest = _search(rc, w - deficit, s, level)
        for r, take in used:
            rc[r] += take
        score = rest + sequence_value(ctype, top) - 0.15 * deficit - UNIT_COST
        if score > best:
            best = score
            choice = (top, length, copies)
    _MEMO[key] = (best, choice)
    return best


def _leaf_score(rc: list[int], w: int, level: int) -> float:
    key = (level, w, tuple(rc))
    found = _LEAF.get(key)
    if found is not None:
        return found
    total = 0.0
    n = 0
    triples: list[int] = []
    low_pairs: list[int] = []
    for r in range(2, 15):
        c = rc[r]
        if not c:
            continue
        p = 15 if r == level else r
        n += 1
        if c == 1:
            total += (p - 10) / 6.0
        elif c == 2:
            total += (p - 9) / 6.0
            if p <= 13:
                low_pairs.append(p)
        elif c == 3:
            total += (p - 8) / 6.0
            triples.append(p)
        else:
            total += 1.6 + 0.3 * (min(c, 10) - 4) + (p - 2) / 40.0
    bj, rj = rc[BJ], rc[RJ]
    if bj == 2 and rj == 2:
        total += 3.2
        n += 1
    else:
        if bj:
            n += 1
            total += (16 - 10) / 6.0 if bj == 1 else (16 - 9) / 6.0
        if rj:
            n += 1
            total += (17 - 10) / 6.0 if rj == 1 else (17 - 9) / 6.0
    k = min(len(triples), len(low_pairs))
    if k:
        low_pairs.sort()
        for p in low_pairs[:k]:
            total -= (p - 9) / 6.0
        n -= k
    score = total - UNIT_COST * n + WILD_VALUE * w
    _LEAF[key] = score
    return score


def _leaf_units(rc: list[int], w: int, level: int) -> list[Unit]:
    units: list[Unit] = []
    triples: list[Unit] = []
    pairs: list[Unit] = []
    for r in range(2, 15):
        c = rc[r]
        if not c:
            continue
        p = group_power(r, level)
        if c == 1:
            units.append(Unit(ComboType.SINGLE, r, 1, ((r, 1),), 0, group_value(ComboType.SINGLE, p, 1)))
        elif c == 2:
            pairs.append(Unit(ComboType.PAIR, r, 2, ((r, 2),), 0, group_value(ComboType.PAIR, p, 2)))
        elif c == 3:
            triples.append(Unit(ComboType.TRIPLE, r, 3, ((r, 3),), 0, group_value(ComboType.TRIPLE, p, 3)))
        else:
            n = min(c, 10)
            units.append(Unit(ComboType.BOMB, r, n, ((r, n),), 0, group_value(ComboType.BOMB, p, n)))
    bj, rj = rc[BJ], rc[RJ]
    if bj == 2 and rj == 2:
        units.append(Unit(ComboType.JOKER_BOMB, 0, 4, ((BJ, 2), (RJ, 2)), 0, 3.2))
    else:
        for r, c in ((BJ, bj), (RJ, rj)):
            p = group_power(r, level)
            if c == 1:
                units.append(Unit(ComboType.SINGLE, r, 1, ((r, 1),), 0, group_value(ComboType.SINGLE, p, 1)))
            elif c == 2:
                units.append(Unit(ComboType.PAIR, r, 2, ((r, 2),), 0, group_value(ComboType.PAIR, p, 2)))
    # full houses: each triple takes the lowest pair still free (not A / level / jokers)
    pairs.sort(key=lambda u: group_power(u.rank, level))
    low_pairs = [u for u in pairs if group_power(u.rank, level) <= 13]
    high_pairs = [u for u in pairs if group_power(u.rank, level) > 13]
    triples.sort(key=lambda u: group_power(u.rank, level))
    k = min(len(triples), len(low_pairs))
    for i in range(k):
        t, q = triples[i], low_pairs[i]
        units.append(Unit(ComboType.FULL_HOUSE, t.rank, 5, ((t.rank, 3), (q.rank, 2)), 0, t.value))
    units.extend(triples[k:])
    units.extend(low_pairs[k:])
    units.extend(high_pairs)
    if w:
        ctype = ComboType.SINGLE if w == 1 else ComboType.PAIR
        units.append(Unit(ctype, level, w, ((level, w),), w, WILD_VALUE * w))
    return units


def remove_pattern(rc: list[int], w: int, slots: tuple[tuple[int, int], ...]) -> tuple[list[int], int]:
    """Rank counts and wilds after playing a pattern (naturals first, wilds for the rest)."""
    out = list(rc)
    for r, n in slots:
        if r == 0:
            w -= n
            continue
        take = min(out[r], n)
        out[r] -= take
        w -= n - take
    return out, w


__all__ = ["UNIT_COST", "WILD_VALUE", "Plan", "Unit", "best_plan", "remove_pattern", "single_value"]
