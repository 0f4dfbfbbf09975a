"""The expert's anytime search, the same for every game.

A game's search (:mod:`cardavia.ai.guandan.search`, :mod:`cardavia.ai.runfast.search`)
picks a few candidate moves, the ``basic`` move first, and a ``one_sample`` function that
deals the hidden cards once and rolls every candidate out on that deal. :meth:`Search.run`
calls it until the budget is spent and keeps the basic move unless an alternative is
clearly better on the same sampled deals.

>>> import random, time
>>> search = Search(random.Random(1), budget_ms=1e6, hard_cap_ms=1e6, max_samples=8)
>>> why = because("nothing_to_gain_pass", "pass")
>>> move, reason = search.run([None, "a play"], None, lambda: [0.5, 0.0], time.perf_counter(), why)
>>> move, reason.text, search.last_samples
(None, 'pass; search agrees (+0.50 over 8 sampled deals)', 8)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from cardavia.observation import Observation
from cardavia.rules.combo import Pattern

from .reasons import Reason, ReasonArg, because, combo_arg

DEFAULT_PRIOR = 0.05  # the basic move's head start (in value units): search must beat it
SIGNIFICANCE = 1.0  # standard errors by which an alternative must beat the basic move
#: an alternative must also do better than the basic move on at least this share of the
#: sampled deals where the two differ (0: the mean alone decides)
MIN_WIN_SHARE = 0.0
#: a sample still running this close to the hard cap is abandoned (seconds): what is left
#: of the decision (the gate, the concrete cards) fits in it
CAP_MARGIN = 0.010


class OutOfTime(Exception):
    """Raised inside a sample (rollout, endgame solve) whose clock passed :attr:`Search.stop_at`."""


def check_clock(deadline: float) -> None:
    """Abandon the running sample when ``deadline`` (``time.perf_counter()``) has passed."""
    if time.perf_counter() > deadline:
        raise OutOfTime


class Search:
    """One expert's search settings (budget per move, hard cap, candidates, samples) and
    its random generator, shared with the basic policy it starts from."""

    def __init__(
        self,
        rng: random.Random,
        *,
        budget_ms: float = 150.0,
        hard_cap_ms: float = 280.0,
        max_candidates: int = 5,
        max_samples: int | None = None,
    ) -> None:
        if max_samples is not None and max_samples < 1:
            raise ValueError(f"max_samples must be at least 1, not {max_samples}")
        self.rng = rng
        self.budget = budget_ms / 1000.0
        self.hard_cap = max(hard_cap_ms, budget_ms) / 1000.0
        self.max_candidates = max_candidates
        self.max_samples = max_samples
        self.last_samples = 0  # sampled deals behind the latest decision
        #: what a game's search carries from one decision to the next (Run Fast: its
        #: belief about the other hands, :mod:`cardavia.ai.runfast.belief`)
        self.belief: object | None = None
        #: the clock (``time.perf_counter()``) at which a running sample is abandoned: the
        #: rollouts and endgame solves check it (:func:`check_clock`); infinite outside
        #: :meth:`run`
        self.stop_at = math.inf

    def run(
        self,
        candidates: list[Pattern | None],
        default: Pattern | None,
        one_sample: Callable[[], list[float]],
        t0: float,
        why: Reason,
        significance: float = SIGNIFICANCE,
        most: int | None = None,
        reduce: Callable[[list[list[float]]], list[list[float]]] | None = None,
    ) -> tuple[Pattern | None, Reason]:
        """Sample until the budget (from ``t0``) is spent; the chosen move and its reason.

        ``one_sample()`` returns one value per candidate on one sampled deal; ``why`` is
        the reason of ``default``, the basic move (one of the candidates); an alternative
        must beat it by :data:`DEFAULT_PRIOR` plus ``significance`` standard errors.
        ``most`` is the game's own limit on sampled deals (besides ``max_samples``; each
        game's ``SAMPLE_CAP`` says why it has the value it has). ``reduce`` (when given)
        turns the sampled rows into one value per candidate before the choice, all rows at
        once (``one_sample`` may then return more values than there are candidates).
        """
        rows: list[list[float]] = []
        deadline = t0 + self.budget
        cap = t0 + self.hard_cap
        longest = 0.0  # the slowest sample so far: never start one that would pass the cap
        limit = min((k for k in (self.max_samples, most) if k is not None), default=1 << 62)
        now = time.perf_counter()
        self.stop_at = cap - CAP_MARGIN
        try:
            while now < deadline and now + longest < cap and len(rows) < limit:
                try:
                    values = one_sample()
                except OutOfTime:
                    break  # the sample ran into the cap (a slow one, or a busy CPU): dropped
                after = time.perf_counter()
                longest = max(longest, after - now)
                if after > cap:
                    break  # a late sample is dropped
                rows.append(values)
                now = after
        finally:
            self.stop_at = math.inf
        n = len(rows)
        self.last_samples = n
        if n == 0:
            return default, Reason(why.key, f"{why.text} (no time to search)", why.args)
        if reduce is not None:
            rows = reduce(rows)
        d = candidates.index(default)
        means = [sum(r[i] for r in rows) / n for i in range(len(candidates))]
        # leave the planner's move only for a clearly better one: paired differences over
        # the same sampled deals, mean above a head start plus one standard error
        best, best_margin = d, 0.0
        for i in range(len(candidates)):
            if i == d or n < 4:
                continue
            diffs = [r[i] - r[d] for r in rows]
            m = sum(diffs) / n
            sd = math.sqrt(sum((x - m) ** 2 for x in diffs) / (n - 1))
            margin = m - DEFAULT_PRIOR - significance * sd / math.sqrt(n)
            if margin > best_margin and MIN_WIN_SHARE > 0:
                ahead = sum(1 for x in diffs if x > 0)
                behind = sum(1 for x in diffs if x < 0)
                if ahead < MIN_WIN_SHARE * (ahead + behind):
                    continue  # better on average, but by a few samples only
            if margin > best_margin:
                best, best_margin = i, margin
        move = candidates[best]
        if best == d:
            # the rule's reason stands (the search only confirms it)
            text = f"{why.text}; search agrees ({means[d]:+.2f} over {n} sampled deals)"
            return move, Reason(why.key, text, why.args)
        english = (
            f"{_describe(move)}: search prefers it ({means[best]:+.2f} vs {means[d]:+.2f} for"
            f" {_describe(default)}, {n} sampled deals)"
        )
        args: dict[str, ReasonArg] = {
            "delta": f"{means[best]:+.2f}", "base": f"{means[d]:+.2f}", "samples": str(n)
        }
        if move is None:
            assert default is not None
            return None, because("search_prefers_pass", english, alt=combo_arg(default), **args)
        if default is None:
            return move, because("search_prefers_over_pass", english, combo=combo_arg(move), **args)
        return move, because(
            "search_prefers", english, combo=combo_arg(move), alt=combo_arg(default), **args
        )


def _describe(move: Pattern | None) -> str:
    return "pass" if move is None else move.describe()


def add_new(candidates: list[Any], moves: Iterable[Any]) -> None:
    """Append the moves not yet among the search candidates, in order."""
    for m in moves:
        if m not in candidates:
            candidates.append(m)


def add_smallest_bomb(candidates: list[Any], moves: Sequence[Any]) -> None:
    """Add the cheapest bomb among ``moves`` to the search candidates (if any)."""
    bombs = [m for m in moves if m.tier > 0]
    if bombs:
        add_new(candidates, [min(bombs, key=lambda m: (m.tier, m.power))])


def trailing_passes(obs: Observation) -> int:
    """How many passes follow the latest play of the current trick."""
    passes = 0
    for _, combo in reversed(obs.trick):
        if combo is not None:
            break
        passes += 1
    return passes


__all__ = [
    "CAP_MARGIN",
    "DEFAULT_PRIOR",
    "SIGNIFICANCE",
    "OutOfTime",
    "Search",
    "add_new",
    "add_smallest_bomb",
    "check_clock",
    "trailing_passes",
]
