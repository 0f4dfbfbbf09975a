"""Hand-shaped sampling of hidden Guandan hands: sampled hands keep combinations.

Real hands are not random subsets of the unseen cards: players shed loose cards first and
keep pairs, triples, sequences and bombs, so a short hand is far more often one or two
plays than a random deal of its size would be. Measured on self-play (``bench/ai_hand_shapes.py``,
basic on all seats, 40 deals): an opponent on 2 cards holds a pair 56 % of the time, a
random deal of the unseen cards 21–23 %; on 4 cards a bomb 27.5 %, random 0 %.

The model ("planned plays survive"): a hand of ``n`` cards is chosen from ``n + k`` random
unseen cards (:data:`OVERDRAW`: ``k`` by hand size) the way a player would have kept it: the
``k + n`` cards are planned (:mod:`cardavia.ai.guandan.plan`), whole planned plays are kept
— the hardest to beat and the longest first (:data:`SIZE_BONUS`) — and the weakest are
"shed" back into the pool; loose cards fill what whole plays cannot. Hands of at most
:data:`SHAPED_MAX` cards are shaped, shortest first; the longest hand gets the rest at
random. ``k`` and the size bonus were calibrated so that the sampler's hand shapes by card
count match basic self-play (``bench/ai_hand_shapes.py`` prints both): e.g. on 2 cards a
pair 56 % (self-play 56 %, random 23 %), on 4 cards a bomb 31 % (27.5 %, random 0 %),
7–12 cards a bomb 43–62 % (39–71 %, random 4–19 %), planned plays within ~0.4 of self-play.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from cardavia.cards import N_CODES
from cardavia.rules.guandan.combos import BJ, wild_code
from cardavia.rules.guandan.moves import rank_counts

from .plan import Unit, best_plan

#: hands of at most this many cards are shaped; longer ones are dealt at random
SHAPED_MAX = 20


#: how much a kept play's size counts against its value (players keep multi-card plays)
SIZE_BONUS = 0.4
#: extra cards drawn per hand size n = 1…SHAPED_MAX (calibrated on self-play hand shapes)
OVERDRAW: tuple[float, ...] = (0, 12, 12, 9, 5, 6, 9, 9, 9, 9, 9, 9, 9, 9, 8, 8, 7, 7, 6, 6)


def overdraw(n: int) -> float:
    """How many cards more than ``n`` a shaped hand of ``n`` cards is chosen from (0: random)."""
    if n < 1 or n > SHAPED_MAX:
        return 0.0
    return OVERDRAW[n - 1]


def _codes_of_rank(r: int, level: int) -> tuple[int, ...]:
    if r >= BJ:
        return (52 if r == BJ else 53,)
    wild = wild_code(level)
    return tuple(c for c in range((r - 2) * 4, (r - 2) * 4 + 4) if c != wild)


def _keep_strongest(
    drawn: list[int], k: int, level: int, rng: random.Random
) -> tuple[list[int], list[Unit] | None]:
    """``k`` of the ``drawn`` cards as a player would keep them: whole planned plays, bombs
    and the hardest to beat first; the weakest plays are the ones shed. Also the kept
    plays when they fill the hand exactly (None when loose cards had to fill it)."""
    rc, w = rank_counts(drawn, level)
    plan = best_plan(rc, w, level)
    left = list(drawn)
    kept = [0] * N_CODES
    room = k
    wild = wild_code(level)
    units: list[Unit] = []
    for u in sorted(plan.units, key=lambda u: -(u.value + SIZE_BONUS * (u.size - 1))):
        if u.size > room:
            continue
        for r, n in u.slots:
            # the leftover-wild unit is all wilds: its slot names the level rank, whose
            # natural cards belong to other units
            for code in () if u.wilds == u.size else _codes_of_rank(r, level):
                take = min(n, left[code])
                left[code] -= take
                kept[code] += take
                n -= take
            if n:  # filled by wilds
                left[wild] -= n
                kept[wild] += n
        room -= u.size
        units.append(u)
        if room == 0:
            return kept, units
    rest = [code for code, c in enumerate(left) for _ in range(c)]
    for code in rng.sample(rest, room):
        kept[code] += 1
    return kept, None


def deal_shaped(
    me: int,
    sizes: Sequence[int],
    unseen: Sequence[int],
    known: dict[int, list[int]],
    rng: random.Random,
    level: int,
    strength: float = 1.0,
    plans: dict[int, list[Unit]] | None = None,
    lean: dict[int, list[float]] | None = None,
) -> dict[int, list[int]]:
    """One deal of the unseen cards to the other seats with their exact counts: cards a
    seat surely holds (``known``) first, short hands shaped (``strength`` scales the
    overdraw), the rest at random. ``plans`` (optional) receives the planned plays of the
    shaped hands that consist of whole kept plays (the rollouts need not plan them again).
    ``lean`` (seat → weight per card code, :func:`cardavia.ai.guandan.locate.weights_by_code`)
    draws each hand's cards by those weights (weighted sampling without replacement)
    instead of evenly."""
    pool: list[int] = []
    for code, n in enumerate(unseen):
        pool.extend([code] * max(0, n))
    hands: dict[int, list[int]] = {}
    need: dict[int, int] = {}
    for s in range(4):
        if s == me:
            continue
        cnt = [0] * N_CODES
        for code in known.get(s, []):
            if code in pool and sum(cnt) < sizes[s]:
                pool.remove(code)
                cnt[code] += 1
        hands[s] = cnt
        need[s] = sizes[s] - sum(cnt)
    # shape the short hands, shortest first (they constrain the most)
    for s in sorted(hands, key=lambda s: sizes[s]):
        k = need[s]
        extra = round(overdraw(sizes[s]) * strength)
        if extra <= 0 or k <= 0 or k > len(pool):
            continue
        m = min(len(pool), k + extra)
        idx = rng.sample(range(len(pool)), m) if lean is None else _weighted(pool, lean[s], m, rng)
        drawn = [0] * N_CODES
        for i in idx:
            drawn[pool[i]] += 1
        kept, units = _keep_strongest(drawn, k, level, rng)
        if plans is not None and units is not None and k == sizes[s]:
            plans[s] = units
        for code, c in enumerate(kept):
            hands[s][code] += c
        # back into the pool: what was drawn and not kept
        taken = list(kept)
        for i in sorted(idx, reverse=True):
            code = pool[i]
            if taken[code] > 0:
                taken[code] -= 1
                pool[i] = pool[-1]
                pool.pop()
        need[s] = 0
    if lean is not None:
        _lean_rest(pool, hands, need, lean, rng)
        return hands
    rng.shuffle(pool)
    i = 0
    for s, cnt in hands.items():
        for code in pool[i : i + need[s]]:
            cnt[code] += 1
        i += need[s]
    return hands


def _weighted(pool: Sequence[int], w: Sequence[float], m: int, rng: random.Random) -> list[int]:
    """``m`` indices of ``pool`` drawn without replacement by the weights of their codes
    (Efraimidis–Spirakis keys ``log(U) / w``, the largest win)."""
    keys = [math.log(1.0 - rng.random()) / w[code] for code in pool]
    return sorted(range(len(pool)), key=keys.__getitem__, reverse=True)[:m]


def _lean_rest(
    pool: list[int], hands: dict[int, list[int]], need: dict[int, int],
    lean: dict[int, list[float]], rng: random.Random,
) -> None:
    """Deal what is left of the pool seat by seat, each hand's cards drawn by its weight
    relative to the seats still to be dealt (the last one takes the rest)."""
    left = [s for s in hands if need[s] > 0]
    while left and pool:
        s = left.pop(0)
        if not left:
            for code in pool[: need[s]]:
                hands[s][code] += 1
            return
        share = len(left) + 1
        w = [lean[s][code] * share / (lean[s][code] + sum(lean[t][code] for t in left)) for code in range(len(lean[s]))]
        idx = _weighted(pool, w, need[s], rng)
        for i in idx:
            hands[s][pool[i]] += 1
        for i in sorted(idx, reverse=True):
            pool[i] = pool[-1]
            pool.pop()


__all__ = ["OVERDRAW", "SHAPED_MAX", "SIZE_BONUS", "deal_shaped", "overdraw"]
