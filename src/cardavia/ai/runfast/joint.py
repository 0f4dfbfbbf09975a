"""The Run Fast endgame solved over all sampled deals at once: one plan for what the
searcher cannot tell apart (no strategy fusion).

The exact endgame of :mod:`cardavia.ai.runfast.endgame` solves each sampled deal on its
own: on each, the searcher's later moves are chosen knowing that deal's hidden hands. That
is *strategy fusion*: a candidate whose follow-up must guess (lead the 9 or the ace next?)
is valued as if the guess were always right. Here every sampled deal is played together:
the other seats play the same fixed policy as there (each deal its own move), the deals on
which they made the same public moves stay together, and at each of the searcher's turns
one move is chosen for the whole group — the one with the best total over its deals. The
value of a candidate on each deal is its value under that one plan, so the search's gate
compares candidates deal by deal as before. A deal alone in its group is solved exactly
(the perfect-information best reply, :func:`cardavia.ai.runfast.endgame.solve_each`'s
solver): nothing is left to guess once the public moves tell it apart from the others.

Since it is a best reply chosen without the hidden hands, each candidate's mean is at most
its mean over the deals solved one by one.

>>> from cardavia.ai.runfast.endgame import solve_each
>>> from cardavia.ai.runfast.search import policy_move
>>> from cardavia.rules.runfast.moves import PAIR
>>> def hand(*ranks):
...     rc = [0] * 15
...     for r in ranks:
...         rc[r] += 1
...     return rc

Seat 0 holds 4 6 K K and leads its pair of kings; the 3 and the 5 are out, and the two
sampled deals differ only in which of the other seats holds which. Solved deal by deal,
the searcher always picks the right single next and scores 3 on both; with one plan for
both (it cannot tell them apart when it must choose), the plan that wins on one deal
loses on the other:

>>> deals = [[hand(4, 6, 13, 13), hand(5, 13, 13), hand(3, 12, 14)],
...          [hand(4, 6, 13, 13), hand(3, 13, 13), hand(5, 12, 14)]]
>>> table = dict(turn=0, top=None, top_seat=None, passes=0, played_any=[True] * 3,
...     standing=None, me=0, firsts=[PAIR[13]], policy=policy_move)
>>> [solve_each(d, **table)[0] for d in deals]
[3.0, 3.0]
>>> solve_joint(deals, **table)
[[-1.0, 3.0]]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from cardavia.ai.alphabeta import OutOfBudget, play_key
from cardavia.ai.search import check_clock
from cardavia.rules.combo import Combo, Pattern
from cardavia.rules.runfast.moves import patterns_of_ranks

from .endgame import Policy, _bonus, _settle, _Solver

SEATS = 3
#: sampled-deal visits the joint solve of one decision may make (a node of a group of ``k``
#: deals counts ``k``) before it gives up and the deals' own solves stand
JOINT_BUDGET = 60000
#: the perfect-information solve of a deal left alone in its group: its node budget
ALONE_BUDGET = 2000

#: the deals of a group: sample index → the three hands' rank counts
Group = dict[int, list[list[int]]]
#: the value of a deal left alone whose exact solve is too big: ``(me, hands, turn, top,
#: top_seat, passes, played, standing) → me's value`` (the search's rollout)
Alone = Callable[
    [int, list[list[int]], int, Pattern | Combo | None, int | None, int, tuple[bool, ...], int | None], float
]
Values = dict[int, float]


class OutOfJoint(Exception):
    """The joint solve ran past its budget: the caller keeps the deals' own values."""


class _Joint:
    def __init__(self, me: int, policy: Policy, budget: int, deadline: float, alone: Alone | None) -> None:
        self.me = me
        self.alone = alone
        self.policy = policy
        self.limit = budget
        self.nodes = 0
        self.deadline = deadline
        self.memo: dict[tuple[object, ...], Values] = {}

    def visit(self, k: int) -> None:
        """Count ``k`` deals visited; past the budget :class:`OutOfJoint`, past the
        deadline :class:`~cardavia.ai.search.OutOfTime`."""
        self.nodes += k
        if self.nodes > self.limit:
            raise OutOfJoint
        check_clock(self.deadline)

    def step(
        self, group: Group, turn: int, top: Pattern | Combo | None, top_seat: int | None,
        passes: int, played: tuple[bool, ...], standing: int | None, move: Pattern | None,
    ) -> Values:
        """Each deal's value after ``turn`` makes ``move`` (the same move on every deal)."""
        me = self.me
        if move is None:
            assert top_seat is not None
            passes += 1
            if passes >= SEATS - 1:  # the last player leads again
                gain = 0.0 if standing is None else _bonus(standing, me)
                got = self.search(group, top_seat, None, None, 0, played, None)
                return {i: v + gain for i, v in got.items()}
            return self.search(group, (turn + 1) % SEATS, top, top_seat, passes, played, standing)
        new: Group = {}
        for i, rcs in group.items():
            hand = list(rcs[turn])
            for r, n in move.slots:
                hand[r] -= n
            after = list(rcs)
            after[turn] = hand
            new[i] = after
        if move.tier in (1, 2) and top is not None:
            standing = turn  # a reply bomb
        if not played[turn]:
            played = (*played[:turn], True, *played[turn + 1 :])
        if not any(next(iter(new.values()))[turn]):  # hand sizes are public: out on every deal
            gain = 0.0 if standing is None else _bonus(standing, me)
            return {i: gain + _settle(turn, rcs, played, me) for i, rcs in new.items()}
        return self.search(new, (turn + 1) % SEATS, move, turn, 0, played, standing)

    def search(
        self, group: Group, turn: int, top: Pattern | Combo | None, top_seat: int | None,
        passes: int, played: tuple[bool, ...], standing: int | None,
    ) -> Values:
        self.visit(len(group))
        if len(group) == 1:  # nothing left to guess: the deal's own exact best reply
            (i, rcs), = group.items()
            solver = _Solver(self.me, ALONE_BUDGET, self.deadline, self.policy)
            try:
                v = solver.search(rcs, turn, top, top_seat, passes, played, standing, -math.inf, math.inf)
            except OutOfBudget as exc:
                if self.alone is None:
                    raise OutOfJoint from exc
                v = self.alone(self.me, rcs, turn, top, top_seat, passes, played, standing)
            self.visit(solver.budget.nodes - 1)
            return {i: v}
        # every card played is public, so the first deal's hands and the group's deals
        # fix every deal's hands
        first = next(iter(group.values()))
        key = (
            turn, play_key(top), top_seat, passes, played, standing, tuple(group),
            tuple(tuple(h) for h in first),
        )
        found = self.memo.get(key)
        if found is not None:
            return found
        out: Values = {}
        if turn != self.me:  # each deal its policy move; the same public move, the same group
            split: dict[object, tuple[Pattern | None, Group]] = {}
            for i, rcs in group.items():
                m = self.policy(turn, rcs, top)
                k = None if m is None else (m.type, m.size, m.tier, m.power)
                split.setdefault(k, (m, {}))[1][i] = rcs
            for m, part in split.values():
                out.update(self.step(part, turn, top, top_seat, passes, played, standing, m))
        else:  # one move for the whole group: the best total
            mine = next(iter(group.values()))[turn]
            size = sum(mine[2:15])
            moves: list[Pattern | None] = list(patterns_of_ranks(mine, top))
            moves.sort(key=lambda m: (m is not None and m.size == size, 0 if m is None else m.size), reverse=True)
            if not moves:
                moves = [None]  # a pass only without any reply
            best = -math.inf
            for m in moves:
                got = self.step(group, turn, top, top_seat, passes, played, standing, m)
                total = sum(got.values())
                if total > best:
                    best, out = total, got
        self.memo[key] = out
        return out


def solve_joint(
    deals: Sequence[Sequence[Sequence[int]]], *, turn: int, top: Pattern | Combo | None,
    top_seat: int | None, passes: int, played_any: Sequence[bool], standing: int | None, me: int,
    firsts: Sequence[Pattern | None], policy: Policy, budget: int | None = None,
    deadline: float = math.inf, alone: Alone | None = None,
) -> list[list[float]] | None:
    """For each first move of ``turn`` (None = pass), ``me``'s value on each sampled deal
    (the three hands' rank counts, ``me``'s the same in all) when ``me`` plays on with one
    plan for the deals it cannot tell apart, the other seats playing ``policy``; None when
    the solve passes its budget (:data:`JOINT_BUDGET` as it is at the call). A deal left
    alone is solved exactly within :data:`ALONE_BUDGET` nodes, valued by ``alone`` beyond
    it (without ``alone``: the whole solve gives None). Raises
    :class:`~cardavia.ai.search.OutOfTime` once the clock passes ``deadline``."""
    joint = _Joint(me, policy, JOINT_BUDGET if budget is None else budget, deadline, alone)
    group: Group = {i: [list(h) for h in d] for i, d in enumerate(deals)}
    played = tuple(bool(p) for p in played_any)
    out: list[list[float]] = []
    try:
        for first in firsts:
            got = joint.step(group, turn, top, top_seat, passes, played, standing, first)
            out.append([got[i] for i in range(len(deals))])
    except OutOfJoint:
        return None
    return out


__all__ = ["ALONE_BUDGET", "JOINT_BUDGET", "solve_joint"]
