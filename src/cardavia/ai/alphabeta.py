"""The alpha-beta pieces both exact endgame solvers share (:mod:`cardavia.ai.guandan.endgame`,
:mod:`cardavia.ai.runfast.endgame`): the transposition table's bounds and the loop over
one node's moves.

A table entry is ``(value, flag)``: flag 0 exact, 1 a lower bound (the search failed high),
−1 an upper bound (it failed low).

>>> table: Table = {}
>>> best_move_value([3.0, 5.0, 1.0], lambda v, a, b: v, True, -9.0, 9.0)
5.0
>>> store(table, "k", 5.0, -9.0, 4.0)  # above beta = 4: a lower bound
>>> probe(table, "k", -9.0, 4.0), probe(table, "k", -9.0, 9.0)
(5.0, None)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from cardavia.ai.search import check_clock
from cardavia.rules.combo import Combo, Pattern

M = TypeVar("M")
Table = dict[Hashable, tuple[float, int]]


class OutOfBudget(Exception):
    """A solve visited more nodes than its budget: the caller rolls out instead."""


class Budget:
    """The nodes one solve may visit and the clock it must not pass."""

    def __init__(self, limit: int, deadline: float = math.inf) -> None:
        self.limit = limit
        self.deadline = deadline
        self.nodes = 0

    def visit(self) -> None:
        """Count a node; :class:`OutOfBudget` past the limit, and every 64 nodes the clock
        (:class:`~cardavia.ai.search.OutOfTime` once ``deadline`` has passed)."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfBudget
        if not self.nodes & 63:
            check_clock(self.deadline)


def play_key(top: Pattern | Combo | None) -> tuple[object, ...] | None:
    """What a transposition key needs of the play to beat (None: a lead)."""
    return None if top is None else (top.type, top.size, top.tier, top.power)


def probe(table: Table, key: Hashable, alpha: float, beta: float) -> float | None:
    """The stored value of ``key`` when it decides the node within (alpha, beta), else None."""
    found = table.get(key)
    if found is None:
        return None
    v, flag = found
    if flag == 0 or (flag > 0 and v >= beta) or (flag < 0 and v <= alpha):
        return v
    return None


def store(table: Table, key: Hashable, value: float, alpha: float, beta: float) -> None:
    """Keep ``value`` of the node searched within (alpha, beta) with its kind of bound."""
    table[key] = (value, 1 if value >= beta else -1 if value <= alpha else 0)


def best_move_value(
    moves: Iterable[M], value_of: Callable[[M, float, float], float], maximise: bool,
    alpha: float, beta: float,
) -> float:
    """The node's value: the best of ``value_of(move, alpha, beta)`` for the side to move,
    the window narrowing as moves are searched, stopping at a cut-off."""
    best = -math.inf if maximise else math.inf
    for m in moves:
        v = value_of(m, alpha, beta)
        if maximise:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


__all__ = ["Budget", "OutOfBudget", "Table", "best_move_value", "play_key", "probe", "store"]
