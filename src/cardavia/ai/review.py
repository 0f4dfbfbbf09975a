"""The expert's judgement of a decision already made, and the public face of an AI's reason.

:func:`judge` answers, for one seat's observation at a decision and the move it made:
the move the expert prefers (its search, :mod:`cardavia.ai.search`), how much better the
expert estimates it (``loss``, on the search's deal-value scale: Guandan ``±(1 + 0.5 ×
levels)`` per deal for the seat's team, Run Fast the seat's settlement points), a label
(``good`` / ``inaccuracy`` / ``mistake``, thresholds in :data:`THRESHOLDS` and
docs/ai.md) and the expert's reason for its move.

The loss compares the two moves on the *same* sampled deals (paired rollouts, as the
search compares its candidates): the played move is rolled out from the hand it really
left, so any legal move can be judged, not only the search's candidates. Only the
observation is read: what the seat could know at that moment.

:func:`public_reason` is what an AI seat's decision may tell the other seats: its reason
with every argument that is not public (a combination it did not play) removed.

>>> from cardavia.rules.runfast.deal import RunFastDeal
>>> deal = RunFastDeal.fresh(5)
>>> seat = deal.to_act()[0]
>>> obs = deal.observation(seat)
>>> j = judge(obs, obs_move(obs), seed=1, samples=8, search_samples=4)
>>> j.label in LABELS and j.loss >= 0
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardavia.ai.base import Decision
from cardavia.ai.games import game_ai
from cardavia.ai.guandan import search as gd
from cardavia.ai.guandan.value import outcome_values
from cardavia.ai.reasons import Reason, ReasonArg
from cardavia.ai.runfast import search as rf
from cardavia.ai.search import Search, trailing_passes
from cardavia.cards import counts
from cardavia.observation import Observation
from cardavia.rules.combo import Combo, Pattern
from cardavia.rules.guandan.deal import GuandanDeal
from cardavia.rules.runfast.deal import RunFastDeal
from cardavia.rules.runfast.moves import rank_counts as rf_rank_counts

GOOD = "good"
INACCURACY = "inaccuracy"
MISTAKE = "mistake"
LABELS = (GOOD, INACCURACY, MISTAKE)

#: Per game: (inaccuracy from, mistake from), in the search's deal-value units. Guandan's
#: value is ±1.5 … ±2.5 a deal (a deal won or lost, with its levels), Run Fast's the
#: settlement points (a loser typically pays 5–30).
THRESHOLDS: dict[str, tuple[float, float]] = {
    GuandanDeal.game: (0.15, 0.45),
    RunFastDeal.game: (2.0, 6.0),
}

#: Paired sampled deals per judged decision, and the samples of the expert's own search.
SAMPLES = 128
SEARCH_SAMPLES = 64


@dataclass(frozen=True, slots=True)
class Judgement:
    """The expert's view of one decision."""

    played: Combo | None  # None: a pass
    best: Combo | None
    loss: float  # >= 0: how much better ``best`` is estimated (same scale as the search)
    label: str
    reason: Reason  # the expert's reason for ``best``
    samples: int

    @property
    def same(self) -> bool:
        return _same(self.played, self.best)


def label_for(game: str, loss: float) -> str:
    """``good`` / ``inaccuracy`` / ``mistake`` for a loss in ``game``'s value units.

    >>> label_for("guandan", 0.1), label_for("guandan", 0.2), label_for("runfast", 7)
    ('good', 'inaccuracy', 'mistake')
    """
    inaccuracy, mistake = THRESHOLDS[game]
    if loss >= mistake:
        return MISTAKE
    if loss >= inaccuracy:
        return INACCURACY
    return GOOD


def _same(a: Combo | None, b: Combo | None) -> bool:
    if a is None or b is None:
        return a is b
    return (a.type, a.rank, a.size, a.power) == (b.type, b.rank, b.size, b.power) and sorted(
        c.code for c in a.cards
    ) == sorted(c.code for c in b.cards)


def obs_move(obs: Observation) -> Combo | None:
    """Some legal move of the observing seat (the first legal play; a pass if it may pass):
    for examples and tests."""
    if obs.top is not None and obs.can_pass:
        return None
    moves = game_ai(obs.game).legal(obs, counts(obs.hand))
    return game_ai(obs.game).combo(obs, moves[0], counts(obs.hand))


def judge(
    obs: Observation,
    played: Combo | None,
    *,
    seed: int,
    samples: int = SAMPLES,
    search_samples: int = SEARCH_SAMPLES,
) -> Judgement:
    """The expert's judgement of ``played`` (None: a pass) at ``obs`` (the seat's turn)."""
    ai = game_ai(obs.game)
    cnt = counts(obs.hand)
    rng = random.Random(seed)
    search = Search(rng, budget_ms=1e9, hard_cap_ms=1e9, max_samples=search_samples)
    pattern, reason = ai.search(obs, cnt, search, time.perf_counter())
    best = None if pattern is None else ai.expert_combo(obs, pattern, cnt)
    if _same(played, best):
        return Judgement(played, best, 0.0, GOOD, reason, search.last_samples)
    values = _VALUES[obs.game](obs, cnt, [best, played], samples, rng)
    diffs = [row[0] - row[1] for row in values]
    loss = max(0.0, sum(diffs) / len(diffs)) if diffs else 0.0
    loss = round(loss, 3)
    if not math.isfinite(loss):
        loss = 0.0
    return Judgement(played, best, loss, label_for(obs.game, loss), reason, len(values))


# ---- paired values of moves on sampled deals (each game's rollouts)


def _as_pattern(combo: Combo, slots: tuple[tuple[int, int], ...] = ()) -> Pattern:
    """A concrete play as the rollouts' abstract move (type, size, tier and power decide
    what beats it; ``slots`` the ranks it takes from a Run Fast hand)."""
    rank = 0 if combo.rank is None else int(combo.rank)
    return Pattern(combo.type, rank, combo.size, combo.tier, combo.power, slots, -1, 0)


def _minus(cnt: Sequence[int], cards: Sequence[Any]) -> list[int]:
    left = list(cnt)
    for c in cards:
        left[c.code] -= 1
    return left


def _guandan_values(
    obs: Observation, cnt: list[int], moves: list[Combo | None], n: int, rng: random.Random
) -> list[list[float]]:
    assert obs.level is not None
    level, me = obs.level, obs.seat
    tracked = gd.track(obs)
    mine: list[list[gd.SimUnit]] = []
    firsts: list[gd.SimUnit | None] = []
    for move in moves:
        if move is None:
            mine.append(gd.units_of(cnt, level))
            firsts.append(None)
            continue
        left = _minus(cnt, move.cards)
        mine.append(gd.units_of(left, level) if sum(left) else [])
        firsts.append(gd.SimUnit(_as_pattern(move), 0.0, move.tier > 0))
    sizes = list(obs.hand_sizes)
    passes = trailing_passes(obs)
    stakes = outcome_values(obs.team_levels, level)  # the match's terms, as the expert's
    rows: list[list[float]] = []
    for _ in range(n):
        hands = gd.sample_hands(me, sizes, tracked.unseen, tracked.known, rng, tracked.no_reply, level)
        others = {s: gd.units_of(h, level) for s, h in hands.items()}
        row: list[float] = []
        for my_units, first in zip(mine, firsts, strict=True):
            units = [list(my_units) if s == me else list(others[s]) for s in range(4)]
            row.append(
                gd.rollout(
                    units, list(sizes), me, obs.top, obs.top_seat, passes, list(obs.places), me, first,
                    values=stakes,
                )
            )
        rows.append(row)
    return rows


def _runfast_values(
    obs: Observation, cnt: list[int], moves: list[Combo | None], n: int, rng: random.Random
) -> list[list[float]]:
    me = obs.seat
    tracked = rf.track(obs)
    unseen_rc = rf_rank_counts(tracked.unseen)
    rc = rf_rank_counts(cnt)
    mine: list[list[rf.SimUnit]] = []
    firsts: list[Pattern | None] = []
    for move in moves:
        if move is None:
            mine.append(rf.units_of(rc))
            firsts.append(None)
            continue
        left = rf_rank_counts(_minus(cnt, move.cards))
        mine.append(rf.units_of(left))
        taken: dict[int, int] = {}
        for c in move.cards:
            taken[int(c.rank)] = taken.get(int(c.rank), 0) + 1
        firsts.append(_as_pattern(move, tuple(sorted(taken.items()))))
    passes = trailing_passes(obs)
    standing: int | None = None  # the reply bomb standing on this trick
    for i, (seat, combo) in enumerate(obs.trick):
        if i > 0 and combo is not None and combo.tier in (1, 2):
            standing = seat
    bonuses = list(obs.extra.get("bomb_bonuses", []))
    sizes = list(obs.hand_sizes)
    rows: list[list[float]] = []
    for _ in range(n):
        hands = rf.sample_hands(me, sizes, unseen_rc, tracked.no_reply, rng)
        others = {s: rf.units_of(h) for s, h in hands.items()}
        row: list[float] = []
        for my_units, first in zip(mine, firsts, strict=True):
            rcs = [list(rc) if s == me else list(hands[s]) for s in range(obs.n_seats)]
            units = [list(my_units) if s == me else list(others[s]) for s in range(obs.n_seats)]
            row.append(
                rf.rollout(
                    units, rcs, me, obs.top, obs.top_seat, passes,
                    list(tracked.played_any), list(bonuses), standing, me, first,
                )
            )
        rows.append(row)
    return rows


_VALUES: dict[
    str,
    Callable[[Observation, list[int], list[Combo | None], int, random.Random], list[list[float]]],
] = {GuandanDeal.game: _guandan_values, RunFastDeal.game: _runfast_values}


# ---- what an AI seat's reason may tell the table

#: Reasons that name a combination the AI did not play (its hidden hand): told without it.
_WITHOUT_ALT = {
    "search_prefers": "search_prefers_public",
    "search_prefers_pass": "search_prefers_pass_public",
}
#: Reasons that would say what the AI still holds: told as a plain holding back.
_HOLDINGS = {"keep_bombs_pass": "hold_back_pass", "keep_plan_pass": "hold_back_pass"}
_NUMBERS = frozenset({"n", "delta", "base", "samples"})


def public_reason(decision: Decision) -> dict[str, Any] | None:
    """The reason of an AI's play or pass as the other seats may read it: ``{"key",
    "args"}`` with only the played combination and numbers as arguments (a combination it
    did not play would tell its hidden hand), or None when it gave none.

    >>> from cardavia.ai.reasons import because
    >>> r = because("search_prefers_pass", "…", alt={"type": "pair", "rank": "7", "size": 2}, delta="+0.4")
    >>> public_reason(Decision.of(None, r))
    {'key': 'search_prefers_pass_public', 'args': {'delta': '+0.4'}}
    """
    key = decision.reason_key
    if not key:
        return None
    played = None if decision.combo is None else decision.combo.to_json()
    args: dict[str, ReasonArg] = {}
    for name, value in decision.reason_args.items():
        if (name in _NUMBERS and isinstance(value, str)) or (
            name == "combo" and isinstance(value, dict) and played is not None
            and (value.get("type"), value.get("rank")) == (played["type"], played["rank"])
        ):
            args[name] = value
    key = _HOLDINGS.get(key, _WITHOUT_ALT.get(key, key))
    if "combo" in decision.reason_args and "combo" not in args:
        key = "hold_back_pass" if decision.combo is None else "plain_choice"
        args = {}
    return {"key": key, "args": args}


__all__ = [
    "GOOD",
    "INACCURACY",
    "LABELS",
    "MISTAKE",
    "SAMPLES",
    "THRESHOLDS",
    "Judgement",
    "judge",
    "label_for",
    "obs_move",
    "public_reason",
]
