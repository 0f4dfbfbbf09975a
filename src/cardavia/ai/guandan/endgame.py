"""An exact Guandan endgame on one sampled (perfect-information) deal.

When few cards remain, the expert's search values a candidate on a sampled deal by solving
the rest of the deal exactly instead of rolling it out: alpha-beta over every legal play
and pass of every seat (one team maximises the value, the other minimises it), with a
transposition table, and the same value as the rollouts (``±(1 + 0.5 × levels)`` for the
first finisher's team in the match's terms, :mod:`cardavia.ai.guandan.value`). The search votes across
the sampled deals like any rollout value. A node budget bounds the work: a position too big
for it returns None and the caller rolls out instead.

With a ``policy`` (:data:`Policy`) the other three seats play it instead — the rollout
policy, each seat planning its hand afresh every turn — and only the searching seat's plays
branch (:data:`Moves`): the value is its best reply to that policy on this deal, as in the
Run Fast endgame (``POLICY_CARDS`` in :mod:`cardavia.ai.guandan.search`, off by default).

The trick rules are those of the rollouts (G-4): a trick ends when every other active seat
has passed; when its winner has gone out, the winner's partner leads (or the next active seat).

>>> from cardavia.cards import counts, parse_cards
>>> hands = [counts(parse_cards(h)) for h in ("As Ad", "3s", "4s 5d", "6s")]
>>> solve(hands, 2, turn=0, top=None, top_seat=None, passes=0, places=[], me=0)
1.5

(seat 0 goes out, but the 6 of seat 3 beats both of the partner's cards); with a pair the
partner goes out second (3 levels):

>>> hands[2] = counts(parse_cards("4s 4d"))
>>> solve(hands, 2, turn=0, top=None, top_seat=None, passes=0, places=[], me=0)
2.5
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from cardavia.ai.alphabeta import Budget, OutOfBudget, Table, best_move_value, play_key, probe, store
from cardavia.rules.combo import Combo, Pattern
from cardavia.rules.guandan.moves import concretize, patterns

from .value import PLAIN, Values, outcome, value_for

#: positions with at most this many cards in the active hands are solved
ENDGAME_CARDS = 10
#: nodes one solve may visit before it gives up (returns None)
NODE_BUDGET = 400

_Key = tuple[object, ...]
#: a fixed policy for the other seats: ``(seat, count array of every hand, top, top_seat) →
#: play`` (None = pass); with one, only the searching seat's moves branch (its best reply)
Policy = Callable[[int, Sequence[Sequence[int]], Pattern | Combo | None, int | None], Pattern | None]
#: the searching seat's moves at its later turns of a policy solve: ``(its hand, top) →
#: plays`` (the pass is added when following); None = every legal play
Moves = Callable[[Sequence[int], Pattern | Combo | None], list[Pattern]]


def next_active(sizes: Sequence[int], seat: int) -> int:
    """The next seat after ``seat`` that still holds cards (``seat`` itself if none)."""
    for step in range(1, 5):
        s = (seat + step) % 4
        if sizes[s] > 0:
            return s
    return seat


def after_pass(sizes: Sequence[int], seat: int, top_seat: int, passes: int) -> tuple[int, bool]:
    """After ``seat`` passes (``passes`` counts this pass): the seat to act next and whether
    the trick has ended (G-4: every other active seat passed; when the trick's winner has
    gone out, its partner leads, or the next active seat)."""
    active = sum(1 for s in sizes if s > 0)
    if sizes[top_seat] > 0:
        if passes >= active - 1:
            return top_seat, True
    elif passes >= active:
        mate = (top_seat + 2) % 4
        return (mate if sizes[mate] > 0 else next_active(sizes, top_seat)), True
    return next_active(sizes, seat), False


class _Solver:
    def __init__(
        self, level: int, me: int, budget: int, deadline: float = math.inf, values: Values = PLAIN,
        policy: Policy | None = None, own_moves: Moves | None = None,
    ) -> None:
        self.level = level
        self.me = me
        self.values = values
        self.policy = policy
        self.own_moves = own_moves
        self.budget = Budget(budget, deadline)
        self.table: Table = {}

    def value_of(self, places: Sequence[int]) -> float | None:
        result = outcome(places)
        if result is None:
            return None
        return value_for(self.values, result, self.me)

    def step(
        self, hands: list[list[int]], turn: int, top: Pattern | Combo | None, top_seat: int | None,
        passes: int, places: list[int], move: Pattern | None, alpha: float, beta: float,
    ) -> float:
        """The value after ``turn`` makes ``move`` (None = pass)."""
        sizes = [sum(h) for h in hands]
        if move is None:
            assert top_seat is not None
            nxt, ended = after_pass(sizes, turn, top_seat, passes + 1)
            if ended:
                return self.search(hands, nxt, None, None, 0, places, alpha, beta)
            return self.search(hands, nxt, top, top_seat, passes + 1, places, alpha, beta)
        combo = concretize(move, hands[turn], self.level)
        hand = list(hands[turn])
        for c in combo.cards:
            hand[c.code] -= 1
        new_hands = list(hands)
        new_hands[turn] = hand
        new_places = places
        if not any(hand):
            new_places = [*places, turn]
            v = self.value_of(new_places)
            if v is not None:
                return v
            sizes[turn] = 0
        else:
            sizes[turn] -= move.size
        return self.search(new_hands, next_active(sizes, turn), move, turn, 0, new_places, alpha, beta)

    def search(
        self, hands: list[list[int]], turn: int, top: Pattern | Combo | None, top_seat: int | None,
        passes: int, places: list[int], alpha: float, beta: float,
    ) -> float:
        self.budget.visit()
        top_key = play_key(top)
        key: _Key = (tuple(tuple(h) for h in hands), turn, top_key, top_seat, passes, tuple(places))
        found = probe(self.table, key, alpha, beta)
        if found is not None:
            return found
        if self.policy is not None and turn != self.me:
            v = self.step(
                hands, turn, top, top_seat, passes, places, self.policy(turn, hands, top, top_seat),
                alpha, beta,
            )
            store(self.table, key, v, alpha, beta)
            return v
        maximise = turn % 2 == self.me % 2
        moves: list[Pattern | None]
        if self.policy is not None and self.own_moves is not None:
            moves = list(self.own_moves(hands[turn], top))
        else:
            moves = list(patterns(hands[turn], self.level, top))
        size = sum(hands[turn])
        moves.sort(key=lambda m: (m is not None and m.size == size, 0 if m is None else m.size), reverse=True)
        if top is not None:
            moves.append(None)
        best = best_move_value(
            moves, lambda m, a, b: self.step(hands, turn, top, top_seat, passes, places, m, a, b),
            maximise, alpha, beta,
        )
        store(self.table, key, best, alpha, beta)
        return best


def solve(
    hands: Sequence[Sequence[int]], level: int, *, turn: int, top: Pattern | Combo | None,
    top_seat: int | None, passes: int, places: Sequence[int], me: int,
    first: Pattern | bool | None = False, budget: int = NODE_BUDGET, values: Values = PLAIN,
) -> float | None:
    """The exact value for ``me``'s team of the deal ``hands`` (a count array per seat) with
    ``turn`` to act; ``first`` is that seat's move (a pattern, None = pass, False: any).
    None when the position needs more than ``budget`` nodes. ``values``: what each finish
    is worth in the match (:mod:`cardavia.ai.guandan.value`)."""
    solver = _Solver(level, me, budget, values=values)
    work = [list(h) for h in hands]
    try:
        if first is False:
            return solver.search(work, turn, top, top_seat, passes, list(places), -99.0, 99.0)
        assert first is not True
        return solver.step(work, turn, top, top_seat, passes, list(places), first, -99.0, 99.0)
    except OutOfBudget:
        return None


def solve_each(
    hands: Sequence[Sequence[int]], level: int, *, turn: int, top: Pattern | Combo | None,
    top_seat: int | None, passes: int, places: Sequence[int], me: int,
    firsts: Sequence[Pattern | None], budget: int = NODE_BUDGET, deadline: float = math.inf,
    values: Values = PLAIN, policy: Policy | None = None, own_moves: Moves | None = None,
) -> list[float | None]:
    """:func:`solve` for each first move of ``turn`` on one deal, sharing one transposition
    table and one node budget; None for the moves left when the budget ran out. Raises
    :class:`~cardavia.ai.search.OutOfTime` once the clock passes ``deadline``. With a
    ``policy`` the other three seats play it and the value is ``me``'s best reply to it on
    this deal (``own_moves``: the plays ``me`` tries at its later turns)."""
    solver = _Solver(level, me, budget, deadline, values, policy, own_moves)
    work = [list(h) for h in hands]
    out: list[float | None] = []
    for first in firsts:
        try:
            out.append(solver.step(work, turn, top, top_seat, passes, list(places), first, -99.0, 99.0))
        except OutOfBudget:
            out.extend([None] * (len(firsts) - len(out)))
            break
    return out


__all__ = ["ENDGAME_CARDS", "NODE_BUDGET", "Moves", "Policy", "after_pass", "next_active", "solve", "solve_each"]
