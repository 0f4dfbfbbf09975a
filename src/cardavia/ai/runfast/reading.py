"""Reading a Run Fast hand on rank counts: whether it can reply to a play (R-3.4) and
which of a seat's past plays ``basic``, holding it, would not have made (shared by the
fresh sampler and the carried belief)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardavia.ai.alphabeta import play_key
from cardavia.ai.tracking import same_turn
from cardavia.cards import N_CODES
from cardavia.rules.combo import Combo, Pattern
from cardavia.rules.runfast.moves import patterns

from . import basic
from .evidence import Play

_BASIC_CFG = basic.RfConfig()
_BASIC_RNG = random.Random(0)  # basic draws only for loose moves, and these have none
#: ``basic``'s moves already worked out: (seat, rank counts, hand sizes, the play to
#: answer, configuration) → move. The chain's readings and the faithful rollouts ask the
#: same questions many times a decision; cleared when it holds :data:`MEMO_SIZE` entries
_MEMO: dict[tuple[object, ...], Pattern | None] = {}
MEMO_SIZE = 1 << 18


def fake_cnt(rc: Sequence[int]) -> list[int]:
    """A count array with the rank counts on one suit code (for ``patterns``)."""
    cnt = [0] * N_CODES
    for r in range(2, 15):
        cnt[(r - 2) * 4] = rc[r]
    return cnt


def has_reply(rc: Sequence[int], top: Pattern | Combo) -> bool:
    """Whether a hand of these rank counts holds a reply to ``top``."""
    return bool(patterns(fake_cnt(rc), top))


def basic_move(
    seat: int, rc: Sequence[int], sizes: Sequence[int], top: Pattern | Combo | None,
    cfg: basic.RfConfig | None = None,
) -> Pattern | None:
    """The move (None = pass) of ``basic`` configured by ``cfg`` (None: its defaults) for
    ``seat`` holding ``rc``, with the hand sizes ``sizes`` and ``top`` to answer (None: a
    lead)."""
    cfg = _BASIC_CFG if cfg is None else cfg
    key = (seat, tuple(rc), tuple(sizes), play_key(top), cfg)
    if key in _MEMO:
        return _MEMO[key]
    view = basic.RfView(seat, fake_cnt(rc), sizes, top, None, False)
    move = basic.choose(view, cfg, _BASIC_RNG)[0]
    if cfg.noise <= 0:  # a noisy configuration draws: never the same answer twice
        if len(_MEMO) >= MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = move
    return move


def basic_makes(seat: int, rc: Sequence[int], sizes: Sequence[int], top: Combo | None, combo: Combo) -> bool:
    """Whether ``basic``, holding ``rc`` with the hand sizes ``sizes`` and ``top`` to answer
    (None: a lead), makes the play ``combo``."""
    return same_turn(basic_move(seat, rc, sizes, top), combo)


def misses(seat: int, rc: Sequence[int], plays: Sequence[Play]) -> int:
    """How many of ``plays`` ``basic`` would not have made holding ``rc`` plus the cards
    played since each of them."""
    return sum(
        not basic_makes(seat, [a + b for a, b in zip(rc, p.since, strict=True)], p.sizes, p.top, p.combo)
        for p in plays
    )


__all__ = ["basic_makes", "basic_move", "fake_cnt", "has_reply", "misses"]
