"""Guandan rollouts played by the real ``basic`` policy on a sampled (perfect-information) deal.

The expert's unit rollouts (:func:`cardavia.ai.guandan.search.rollout`) play planned units
with a few of ``basic``'s rules; this playout asks :func:`cardavia.ai.guandan.basic.choose`
itself at every turn, on each seat's sampled cards (count arrays, no engine objects), so a
candidate is valued by how the deal goes on when every seat plays like ``basic``. The trick
rules are the rollouts' (G-4: a trick ends when every other active seat has passed; when its
winner has gone out, the partner leads, G-4.3) and so is the value, ``±(1 + 0.5 × levels)``
for the first finisher's team.

>>> from cardavia.cards import counts, parse_cards
>>> hands = [counts(parse_cards(h)) for h in ("As Ad", "3s", "4s 4d", "6s")]
>>> playout(hands, 2, turn=0, top=None, top_seat=None, passes=0, places=[], me=0, first=False)
2.5
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from cardavia.ai.search import check_clock
from cardavia.rules.combo import Combo, Pattern
from cardavia.rules.guandan.combos import BJ
from cardavia.rules.guandan.moves import wild_code

from .basic import GdConfig, GdView, choose

WIN_VALUE = 1.0
LEVEL_VALUE = 0.5
_CFG = GdConfig()
_RNG = random.Random(0)  # basic without noise never draws from it
_SUITS = (0, 1, 2, 3)


def take_cards(cnt: list[int], move: Pattern, level: int) -> None:
    """Remove ``move``'s cards from the count array (naturals first, wilds for the rest, as
    :func:`cardavia.rules.guandan.moves.concretize` chooses them)."""
    wc = wild_code(level)
    wilds = 0
    for r, need in move.slots:
        if r == 0:
            wilds += need
            continue
        if r >= BJ:
            cnt[50 + r - 13] -= need
            continue
        base = (r - 2) * 4
        suits = (move.suit,) if move.suit >= 0 else _SUITS
        for s in suits:
            code = base + s
            if code == wc:
                continue
            take = min(cnt[code], need)
            cnt[code] -= take
            need -= take
            if not need:
                break
        wilds += need
    cnt[wc] -= wilds


def _outcome(places: Sequence[int]) -> tuple[int, int] | None:
    first = places[0]
    mate = (first + 2) % 4
    if mate in places:
        return first % 2, 4 - places.index(mate)
    if len(places) >= 3:
        return first % 2, 1
    return None


def _next_active(sizes: Sequence[int], seat: int) -> int:
    for step in range(1, 5):
        s = (seat + step) % 4
        if sizes[s] > 0:
            return s
    return seat


def playout(
    hands: list[list[int]],
    level: int,
    *,
    turn: int,
    top: Pattern | Combo | None,
    top_seat: int | None,
    passes: int,
    places: list[int],
    me: int,
    first: Pattern | bool | None,
    deadline: float = math.inf,
) -> float:
    """Play the deal out with ``basic`` on every seat; ``first`` is the move of ``turn`` (a
    pattern, None = pass, False: basic's own). ``hands`` and ``places`` are modified.
    Raises :class:`~cardavia.ai.search.OutOfTime` once the clock passes ``deadline``."""
    sizes = [sum(h) for h in hands]
    forced: Pattern | bool | None = first
    for step in range(600):
        if not step & 7:
            check_clock(deadline)
        seat = turn
        play: Pattern | None
        if forced is not False:
            play = forced if isinstance(forced, Pattern) else None
            forced = False
        else:
            view = GdView(seat, hands[seat], level, sizes, top, top_seat)
            play = choose(view, _CFG, _RNG)[0]
        if play is None:
            assert top_seat is not None
            passes += 1
            active = sum(1 for s in sizes if s > 0)
            if sizes[top_seat] > 0:
                if passes >= active - 1:
                    top, turn, top_seat, passes = None, top_seat, None, 0
                    continue
            elif passes >= active:
                mate = (top_seat + 2) % 4
                turn = mate if sizes[mate] > 0 else _next_active(sizes, top_seat)
                top, top_seat, passes = None, None, 0
                continue
            turn = _next_active(sizes, seat)
            continue
        take_cards(hands[seat], play, level)
        sizes[seat] -= play.size
        top, top_seat, passes = play, seat, 0
        if sizes[seat] <= 0:
            sizes[seat] = 0
            places.append(seat)
            result = _outcome(places)
            if result is not None:
                team, adv = result
                value = WIN_VALUE + LEVEL_VALUE * adv
                return value if team == me % 2 else -value
        turn = _next_active(sizes, seat)
    mine = sizes[me] + sizes[(me + 2) % 4]
    theirs = sizes[(me + 1) % 4] + sizes[(me + 3) % 4]
    return 0.5 if mine < theirs else -0.5


__all__ = ["playout", "take_cards"]
