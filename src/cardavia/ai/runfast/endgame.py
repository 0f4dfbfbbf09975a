"""An exact Run Fast endgame on one sampled (perfect-information) deal.

When few cards remain, the expert's search values a candidate on a sampled deal by solving
the rest of the deal instead of rolling it out: an alpha-beta search over every legal play
under the real must-beat rule (R-3.4: a pass only without a reply), on rank counts (suits
do not matter after the opening play), with a transposition table. Two models of the other
seats:

* **policy** (what the expert uses): they play a fixed policy — the rollout policy, each
  seat planning its hand afresh as ``basic`` does every turn — and only the searcher's moves
  branch: the value is the searcher's best reply to that policy on this deal. Cheap enough
  for 24 cards in play (most solves need under a thousand nodes);
* **paranoid** (no policy): both others minimise the searcher's score (either of them going
  out costs the searcher its cards) — exact against any play, but the tree is far bigger.
  In the development runs (Run Fast expert vs two ``basic``, 400 deals, seed 7, 50 ms)
  the paranoid solve up to 14 cards gave +3.25 points a deal, the policy solve up to 24
  cards +3.52, rollouts alone +3.12.

The value is the rollouts' (:func:`cardavia.ai.runfast.search.rollout`): the exact
settlement when someone goes out, the cards left doubled for a seat that never played, the
``2s`` and unplayed bombs, and the 20-point bonus of a reply bomb left standing (R-5.4). A
node budget bounds the work: a position too big for it gives None and the caller rolls out.

>>> from cardavia.rules.runfast.moves import SINGLE
>>> def hand(*ranks):
...     rc = [0] * 15
...     for r in ranks:
...         rc[r] += 1
...     return rc

Seat 0 holds an ace and a 4 and leads. The ace first holds the trick (nothing higher is
left), then the 4 goes out and the others pay their three cards. Leading the 4 lets seat 1
beat it (it must, R-3.4) and keep a card: seat 0 still goes out with the ace, for 2:

>>> solve_each([hand(14, 4), hand(13, 12), hand(5)], turn=0, top=None, top_seat=None,
...     passes=0, played_any=[True] * 3, standing=None, me=0, firsts=[SINGLE[14], SINGLE[4]])
[3.0, 2.0]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from cardavia.ai.alphabeta import Budget, OutOfBudget, Table, best_move_value, play_key, probe, store
from cardavia.rules.combo import Combo, Pattern
from cardavia.rules.runfast.moves import patterns_of_ranks

SEATS = 3
#: a sampled deal is solved when at most this many cards are left in the three hands (the
#: expert solves with the rollout policy for the other seats; issue 15 development runs:
#: 20, 24 and 28 cards gave +3.46, +3.52 and +3.49 points a deal against two ``basic``).
#: Seventeenth round, paired (docs/ai.md, "Strength"): 12 cards −0.14 ± 0.10 a deal on 40
#: fixed samples; 28 cards with 4 000 nodes +0.09 ± 0.09 on fixed samples but +0.14, +0.08
#: and −0.12 (± 0.23–0.25) at the 150 ms clock, where its solves cost samples: not kept
ENDGAME_CARDS = 24
#: nodes the solves of one sampled deal may visit before they give up (None: roll out; read
#: at each call). 8 000 instead of 1 000 at 24 cards: +0.01 ± 0.05 a deal (fixed samples)
NODE_BUDGET = 1000

_Key = tuple[object, ...]
#: a fixed policy for the other seats: ``(seat, rank counts of every hand, top) → play``
#: (None = pass); with one, only the searching seat's moves branch
Policy = Callable[[int, Sequence[Sequence[int]], Pattern | Combo | None], Pattern | None]


def _bonus(bomber: int, me: int) -> float:
    """What a standing reply bomb (R-5.4) is worth to ``me``: +20 for the bomber, −10 else."""
    return 20.0 if bomber == me else -10.0


def _settle(winner: int, rcs: Sequence[Sequence[int]], played_any: Sequence[bool], me: int) -> float:
    """``me``'s settlement (R-5.1–R-5.3) when ``winner`` goes out, bonuses apart."""

    def owed(s: int) -> int:
        rc = rcs[s]
        cards = sum(rc[2:15])
        total = cards * (1 if played_any[s] else 2)
        total += 10 if rc[2] else 0
        total += 10 * (sum(1 for r in range(3, 14) if rc[r] == 4) + (1 if rc[14] == 3 else 0))
        return total

    if winner == me:
        return float(sum(owed(s) for s in range(SEATS) if s != me))
    return float(-owed(me))


#: the searching seat's leads when not every play is tried (e.g. its planned plays)
Leads = Callable[[Sequence[int]], list[Pattern]]


class _Solver:
    def __init__(self, me: int, budget: int, deadline: float, policy: Policy | None = None) -> None:
        self.me = me
        self.policy = policy
        self.budget = Budget(budget, deadline)
        self.table: Table = {}

    def step(
        self, rcs: list[list[int]], turn: int, top: Pattern | Combo | None, top_seat: int | None,
        passes: int, played: tuple[bool, ...], standing: int | None, move: Pattern | None,
        alpha: float, beta: float,
    ) -> float:
        """The value (bonuses still to come included) after ``turn`` makes ``move``."""
        if move is None:
            assert top_seat is not None
            passes += 1
            if passes >= SEATS - 1:  # the last player leads again
                gain = 0.0 if standing is None else _bonus(standing, self.me)
                return gain + self.search(rcs, top_seat, None, None, 0, played, None, alpha - gain, beta - gain)
            return self.search(rcs, (turn + 1) % SEATS, top, top_seat, passes, played, standing, alpha, beta)
        hand = list(rcs[turn])
        for r, n in move.slots:
            hand[r] -= n
        new = list(rcs)
        new[turn] = hand
        if move.tier in (1, 2) and top is not None:
            standing = turn  # a reply bomb; the heavenly bomb is never a reply
        if not played[turn]:
            played = (*played[:turn], True, *played[turn + 1 :])
        if not any(hand):
            gain = 0.0 if standing is None else _bonus(standing, self.me)
            return gain + _settle(turn, new, played, self.me)
        return self.search(new, (turn + 1) % SEATS, move, turn, 0, played, standing, alpha, beta)

    def search(
        self, rcs: list[list[int]], turn: int, top: Pattern | Combo | None, top_seat: int | None,
        passes: int, played: tuple[bool, ...], standing: int | None, alpha: float, beta: float,
    ) -> float:
        self.budget.visit()
        top_key = play_key(top)
        key: _Key = (tuple(tuple(h) for h in rcs), turn, top_key, top_seat, passes, played, standing)
        found = probe(self.table, key, alpha, beta)
        if found is not None:
            return found
        maximise = turn == self.me
        moves: list[Pattern | None]
        if not maximise and self.policy is not None:
            moves = [self.policy(turn, rcs, top)]
            v = self.step(rcs, turn, top, top_seat, passes, played, standing, moves[0], alpha, beta)
            store(self.table, key, v, alpha, beta)
            return v
        moves = list(patterns_of_ranks(rcs[turn], top))
        size = sum(rcs[turn][2:15])
        # going out first, then the plays that shed most (the usual best lines)
        moves.sort(key=lambda m: (m is not None and m.size == size, 0 if m is None else m.size), reverse=True)
        if not moves:
            moves = [None]  # a pass only without any reply (the leader always has one)
        best = best_move_value(
            moves, lambda m, a, b: self.step(rcs, turn, top, top_seat, passes, played, standing, m, a, b),
            maximise, alpha, beta,
        )
        store(self.table, key, best, alpha, beta)
        return best


def solve_each(
    rcs: Sequence[Sequence[int]], *, turn: int, top: Pattern | Combo | None, top_seat: int | None,
    passes: int, played_any: Sequence[bool], standing: int | None, me: int,
    firsts: Sequence[Pattern | None], budget: int | None = None, deadline: float = math.inf,
    policy: Policy | None = None, nodes_used: list[int] | None = None,
) -> list[float | None]:
    """``me``'s exact score from here for each first move of ``turn`` (a pattern, None =
    pass), bonuses earned from here on included; the moves share one transposition table
    and one node budget, and those left when it runs out get None. Without a ``policy`` the
    other seats minimise ``me``'s score (paranoid); with one they play it (``me``'s best
    reply to that policy: only its own moves branch). ``nodes_used`` (optional) receives
    the nodes visited. Raises :class:`~cardavia.ai.search.OutOfTime` once the clock passes
    ``deadline``. ``budget`` defaults to :data:`NODE_BUDGET` as it is at the call."""
    solver = _Solver(me, NODE_BUDGET if budget is None else budget, deadline, policy)
    work = [list(h) for h in rcs]
    played = tuple(bool(p) for p in played_any)
    out: list[float | None] = []
    for first in firsts:
        try:
            out.append(
                solver.step(work, turn, top, top_seat, passes, played, standing, first, -math.inf, math.inf)
            )
        except OutOfBudget:
            out.extend([None] * (len(firsts) - len(out)))
            break
    if nodes_used is not None:
        nodes_used.append(solver.budget.nodes)
    return out


__all__ = ["ENDGAME_CARDS", "NODE_BUDGET", "Policy", "solve_each"]
