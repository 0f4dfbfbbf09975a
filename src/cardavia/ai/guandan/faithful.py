"""Faithful Guandan rollouts: every seat plays the sampled deal out as ``basic`` would.

The expert's usual rollouts (:func:`cardavia.ai.guandan.search.rollout`) play planned units
on card counts: each seat plans its hand once and plays those units by ``basic``'s main rules,
which is fast but not ``basic`` itself (an opponent's follow agrees 86.5 % of the time). Here
each turn asks ``basic.choose`` on the seat's sampled cards, the move is made concrete on
those cards (G-5) and the trick goes on as in the engine (G-4: a trick ends when every other
active seat has passed; when its winner has gone out, the partner leads). The searcher's team
plays the tuned configuration (:data:`basic.EXPERT_CONFIG`), the opponents ``basic``'s
defaults. Slower (the planner runs for every turn), closer to the real opponents.

>>> from cardavia.cards import counts, parse_cards
>>> hands = [counts(parse_cards(h)) for h in ("As Ad", "3s", "4s 4d", "6s")]
>>> play_out(hands, 2, turn=0, top=None, top_seat=None, passes=0, places=[], me=0, first=False)
2.5
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardavia.ai.search import check_clock
from cardavia.rules.combo import Combo, Pattern
from cardavia.rules.guandan.moves import concretize

from . import basic
from .endgame import after_pass, next_active
from .value import PLAIN, Values, outcome, value_for

_RNG = random.Random(0)  # the configurations below make no random moves
_OPPONENTS = basic.GdConfig()


def take(move: Pattern, cnt: list[int], level: int) -> None:
    """Take the cards of ``move``, made concrete on ``cnt`` (G-5), out of ``cnt``."""
    for c in concretize(move, cnt, level).cards:
        cnt[c.code] -= 1


def basic_play(
    seat: int, cnt: list[int], level: int, sizes: Sequence[int], top: Pattern | Combo | None,
    top_seat: int | None, cfg: basic.GdConfig = _OPPONENTS,
) -> Pattern | None:
    """The move of ``basic`` configured by ``cfg`` (its defaults unless given; None = pass)
    for ``seat`` holding ``cnt``, whose cards are then taken out of ``cnt``."""
    move = basic.choose(basic.GdView(seat, cnt, level, sizes, top, top_seat), cfg, _RNG)[0]
    if move is not None:
        take(move, cnt, level)
    return move


@dataclass(slots=True)
class State:
    """Where a shortened play-out stopped: the hands (count arrays), their sizes, the seat
    to act, the trick's top play and its seat, the passes since, the places so far."""

    hands: list[list[int]]
    sizes: list[int]
    turn: int
    top: Pattern | Combo | None
    top_seat: int | None
    passes: int
    places: list[int]


def play_out(
    hands: Sequence[Sequence[int]],
    level: int,
    *,
    turn: int,
    top: Pattern | Combo | None,
    top_seat: int | None,
    passes: int,
    places: Sequence[int],
    me: int,
    first: Pattern | bool | None,
    deadline: float = math.inf,
    values: Values = PLAIN,
    team: basic.GdConfig | None = None,
    turns: int = 800,
) -> float | State:
    """Play the deal ``hands`` (a count array per seat) out by ``basic`` from ``turn``;
    ``first`` is that seat's move (a pattern, None = pass, False: ``basic``'s). The value for
    ``me``'s team (``values``: the match's terms); ``team`` is the searcher's team's
    configuration (default :data:`basic.EXPERT_CONFIG`). After ``turns`` turns (plays and
    passes) of an undecided deal, the :class:`State` reached instead of a value. Raises
    :class:`~cardavia.ai.search.OutOfTime` once the clock passes ``deadline``."""
    mine_cfg = basic.EXPERT_CONFIG if team is None else team
    work = [list(h) for h in hands]
    sizes = [sum(h) for h in work]
    done = list(places)
    forced: Pattern | bool | None = first
    for steps in range(1, 800):
        if steps > turns:
            return State(work, sizes, turn, top, top_seat, passes, done)
        if not steps & 15:
            check_clock(deadline)
        seat = turn
        move: Pattern | None
        if forced is not False:
            move = forced if isinstance(forced, Pattern) else None
            forced = False
            if move is not None:
                take(move, work[seat], level)
        else:
            cfg = mine_cfg if (seat - me) % 2 == 0 else _OPPONENTS
            move = basic_play(seat, work[seat], level, sizes, top, top_seat, cfg)
        if move is None:
            if top is None or top_seat is None:
                break  # a leader must play; cannot happen
            passes += 1
            turn, ended = after_pass(sizes, seat, top_seat, passes)
            if ended:
                top, top_seat, passes = None, None, 0
            continue
        sizes[seat] -= move.size
        top, top_seat, passes = move, seat, 0
        if sizes[seat] <= 0:
            sizes[seat] = 0
            done.append(seat)
            result = outcome(done)
            if result is not None:
                return value_for(values, result, me)
        turn = next_active(sizes, seat)
    mine = sizes[me] + sizes[(me + 2) % 4]
    theirs = sizes[(me + 1) % 4] + sizes[(me + 3) % 4]
    return 0.5 if mine < theirs else -0.5


__all__ = ["State", "basic_play", "play_out", "take"]
