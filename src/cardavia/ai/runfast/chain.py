"""A swap chain over the split of the unseen cards: samples that agree with every play read.

In Run Fast every card is dealt, so the unseen cards are known as a whole; only their split
between the two other seats is hidden. A sampled split is scored by its **violations**:
each play it passed on that the sampled hand could have beaten (R-3.4, a proof: weighted
:data:`PASS_WEIGHT`) and each read play that ``basic``, holding the sampled hand plus the
cards played since, would not have made (:func:`cardavia.ai.runfast.reading.misses`).
The chain proposes swapping one card of one seat for one card of the other and accepts a
proposal that adds ``d`` violations with probability ``eps ** d`` (Metropolis on the
target ``eps ** violations``): against ``basic`` the true split has no violation, and the
chain reaches splits with none far more often than drawing afresh does. The expert's
search draws its samples from 8 such chains (``runfast.search.CHAIN_COUNT`` and
``CHAIN_BURN``; issue 15, twenty-second round, docs/ai.md: +0.31 ± 0.18 a deal against
two ``basic`` at the 150 ms clock, paired over 1 600 boards).

>>> import random
>>> chain = SwapChain({1: [0] * 15, 2: [0] * 15}, {}, {}, random.Random(1), 0.1)
>>> chain.violations
0
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from cardavia.ai.search import check_clock
from cardavia.rules.combo import Combo

from .evidence import Play
from .reading import has_reply, misses

#: a pass on a play the hand could beat counts as this many unexplained plays (a proof)
PASS_WEIGHT = 3
#: a proposal adding this many violations or more is turned down without reading further
GIVE_UP = 3


class SwapChain:
    """The chain's state: rank counts of the two other seats and their violations."""

    def __init__(
        self,
        start: Mapping[int, Sequence[int]],
        no_reply: Mapping[int, Sequence[Combo]],
        plays: Mapping[int, Sequence[Play]],
        rng: random.Random,
        eps: float,
    ) -> None:
        self.hands = {s: list(h) for s, h in start.items()}
        self.seats = sorted(self.hands)
        self.no_reply = {s: list(no_reply.get(s, ())) for s in self.seats}
        # newest (smallest hands) first: the plays a wrong hand most often fails
        self.plays = {s: sorted(plays.get(s, ()), key=lambda p: p.sizes[s]) for s in self.seats}
        self.rng = rng
        self.eps = eps
        self.memo: dict[tuple[int, tuple[int, ...]], list[int]] = {}
        self.violations = self._count(math.inf)

    def _count(self, limit: float) -> int:
        """The state's violations, counting stopped once they reach ``limit``."""
        v = 0
        for s in self.seats:
            v += self._known(s)[0]
            if v >= limit:
                return v
        for s in self.seats:
            v += self._plays_missed(s, limit - v)
            if v >= limit:
                return v
        return v

    def _known(self, s: int) -> list[int]:
        """What is known of seat ``s``'s hand now: [pass weight, then each play: 1 missed,
        0 made, -1 not read yet] (a proposal often brings back a hand seen before)."""
        key = (s, tuple(self.hands[s]))
        found = self.memo.get(key)
        if found is None:
            rc = self.hands[s]
            broken = sum(PASS_WEIGHT for top in self.no_reply[s] if has_reply(rc, top))
            found = self.memo[key] = [broken] + [-1] * len(self.plays[s])
        return found

    def _plays_missed(self, s: int, limit: float) -> int:
        known = self._known(s)
        rc = self.hands[s]
        v = 0
        for i, p in enumerate(self.plays[s], 1):
            k = known[i]
            if k < 0:
                k = known[i] = 1 if misses(s, rc, (p,)) else 0
            v += k
            if v >= limit:
                return v
        return v

    def step(self) -> None:
        """One proposal: a random card of one seat for a random card of the other."""
        a, b = self.seats
        ha, hb = self.hands[a], self.hands[b]
        x = pick_rank(ha, self.rng)
        y = pick_rank(hb, self.rng)
        if x < 0 or y < 0 or x == y:
            return
        swap(ha, hb, x, y)
        v = self._count(self.violations + GIVE_UP)
        d = v - self.violations
        if d <= 0 or (d < GIVE_UP and self.rng.random() < self.eps**d):
            self.violations = v
            return
        swap(ha, hb, y, x)

    def settle(self, steps: int, deadline: float = math.inf) -> None:
        """Up to ``steps`` proposals, stopping early once no play is violated."""
        for k in range(steps):
            if self.violations == 0:
                return
            if not k & 7:
                check_clock(deadline)
            self.step()

    def draw(self, steps: int, deadline: float = math.inf) -> dict[int, list[int]]:
        """A copy of the state after ``steps`` more proposals."""
        for k in range(steps):
            if not k & 7:
                check_clock(deadline)
            self.step()
        return {s: list(h) for s, h in self.hands.items()}


def swap(ha: list[int], hb: list[int], x: int, y: int) -> None:
    """Move one card of rank ``x`` from hand ``ha`` to ``hb`` and one of rank ``y`` back
    (``swap(ha, hb, y, x)`` undoes it).

    >>> ha, hb = [0, 0, 0, 1, 0], [0, 0, 0, 0, 2]
    >>> swap(ha, hb, 3, 4)
    >>> ha, hb
    ([0, 0, 0, 0, 1], [0, 0, 0, 1, 1])
    """
    ha[x] -= 1
    ha[y] += 1
    hb[y] -= 1
    hb[x] += 1


def pick_rank(rc: Sequence[int], rng: random.Random) -> int:
    """A rank of the hand drawn in proportion to its count (-1 for an empty hand)."""
    n = sum(rc[2:15])
    if n == 0:
        return -1
    k = rng.randrange(n)
    for r in range(2, 15):
        k -= rc[r]
        if k < 0:
            return r
    return -1


__all__ = ["GIVE_UP", "PASS_WEIGHT", "SwapChain", "pick_rank", "swap"]
