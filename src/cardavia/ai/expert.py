"""The ``expert`` agent: basic + card tracking + inference + determinized Monte-Carlo search.

Per move (both games):

1. the ``basic`` policy proposes its move (the fallback answer, always available);
2. a few candidate moves come from the planner (planned units to lead; the cheapest
   replies, the smallest bomb and the pass to follow);
3. an exact endgame rule: when every planned play but one is unbeatable by any
   combination of the unseen cards, the unbeatable plays go first — a forced win;
4. otherwise hidden hands are sampled consistent with the counts and the evidence
   (:mod:`cardavia.ai.tracking`), each candidate is rolled out in every sample with a
   cheap planner policy, and the candidate with the best mean value wins.

The search is anytime: it stops at ``budget_ms`` and never runs past ``hard_cap_ms``.
``max_samples`` (optional) also stops it after that many sampled deals: with a budget too
large to matter, the agent's decisions then depend on its seed only (reproducible research).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from cardavia.ai.base import Decision, ReturnDecision
from cardavia.ai.legal import hand_counts
from cardavia.observation import Observation
from cardavia.rules.guandan.moves import Pattern
from cardavia.rules.guandan.moves import patterns as gd_patterns
from cardavia.rules.guandan.moves import rank_counts as gd_rank_counts

from . import gd_basic, gd_search, rf_basic, rf_search
from .basic import guandan_return
from .gd_plan import best_plan as gd_best_plan
from .reasons import Reason, ReasonArg, because, combo_arg
from .rf_plan import best_plan as rf_best_plan

DEFAULT_PRIOR = 0.05  # the basic move's head start (in value units): search must beat it
SIGNIFICANCE = 1.0  # standard errors by which an alternative must beat the basic move


def _describe(move: Pattern | None) -> str:
    return "pass" if move is None else move.describe()


class ExpertAgent:
    """Search on top of ``basic``. ``budget_ms`` per move, never more than ``hard_cap_ms``."""

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        *,
        budget_ms: float = 150.0,
        hard_cap_ms: float = 280.0,
        max_candidates: int = 5,
        max_samples: int | None = None,
        name: str = "expert",
    ) -> None:
        self.rng = random.Random(seed)
        self.name = name
        self.budget = budget_ms / 1000.0
        self.hard_cap = max(hard_cap_ms, budget_ms) / 1000.0
        self.max_candidates = max_candidates
        if max_samples is not None and max_samples < 1:
            raise ValueError(f"max_samples must be at least 1, not {max_samples}")
        self.max_samples = max_samples
        self.gd_cfg = gd_basic.GdConfig()
        self.rf_cfg = rf_basic.RfConfig()
        self.last_samples = 0

    # ------------------------------------------------------------------ interface

    def act(self, obs: Observation) -> Decision:
        t0 = time.perf_counter()
        cnt = hand_counts(obs)
        if obs.game == "guandan":
            move, reason = self._guandan(obs, cnt, t0)
            if move is None:
                return Decision.of(None, reason)
            assert obs.level is not None
            return Decision.of(gd_basic.to_combo(move, cnt, obs.level), reason)
        move, reason = self._runfast(obs, cnt, t0)
        if move is None:
            return Decision.of(None, reason)
        return Decision.of(rf_basic.to_combo(move, cnt, obs.opening), reason)

    def choose_return(self, obs: Observation) -> ReturnDecision:
        return guandan_return(obs)

    # ------------------------------------------------------------------ shared loop

    def _search(
        self,
        candidates: list[Pattern | None],
        default: Pattern | None,
        one_sample: Callable[[], list[float]],
        t0: float,
        why: Reason,
    ) -> tuple[Pattern | None, Reason]:
        rows: list[list[float]] = []
        deadline = t0 + self.budget
        cap = t0 + self.hard_cap
        longest = 0.0  # the slowest sample so far: never start one that would pass the cap
        limit = self.max_samples if self.max_samples is not None else 1 << 62
        now = time.perf_counter()
        while now < deadline and now + longest < cap and len(rows) < limit:
            values = one_sample()
            after = time.perf_counter()
            longest = max(longest, after - now)
            if after > cap and rows:
                break  # a late sample is dropped only if we already have an answer
            rows.append(values)
            now = after
        n = len(rows)
        self.last_samples = n
        if n == 0:
            return default, Reason(why.key, f"{why.text} (no time to search)", why.args)
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
            margin = m - DEFAULT_PRIOR - SIGNIFICANCE * sd / math.sqrt(n)
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

    # ------------------------------------------------------------------ Guandan

    def _guandan(self, obs: Observation, cnt: list[int], t0: float) -> tuple[Pattern | None, Reason]:
        from .tracking import track

        level = obs.level
        assert level is not None
        me = obs.seat
        view = gd_basic.GdView(me, cnt, level, obs.hand_sizes, obs.top, obs.top_seat)
        default, reason = gd_basic.choose(view, self.gd_cfg, self.rng)
        size = sum(cnt)
        if default is not None and default.size == size:
            return default, reason
        moves = gd_patterns(cnt, level, obs.top)
        if not moves:
            return None, reason
        tracked = track(obs)
        rc, w = gd_rank_counts(cnt, level)
        plan = gd_best_plan(rc, w, level)
        # exact endgame: all planned plays but one cannot be beaten by any unseen cards
        if obs.top is None and size <= 12 and len(plan.units) <= 4:
            units = [u for u in plan.units]
            safe = [u for u in units if gd_search.unbeatable(u.pattern(level), tracked.unseen, level)]
            if safe and len(units) - len(safe) <= 1:
                u = max(safe, key=lambda u: u.size)
                p = u.pattern(level)
                return p, because(
                    "endgame_unbeatable", f"endgame: {u.describe()} cannot be beaten; the rest follows",
                    combo=combo_arg(p),
                )
        candidates: list[Pattern | None] = [default]
        if obs.top is None:
            leads = sorted(
                (u for u in plan.units if not u.is_bomb), key=lambda u: u.value - 0.12 * u.size
            )
            for u in leads[:3] + leads[-1:]:
                p = u.pattern(level)
                if p not in candidates:
                    candidates.append(p)
        elif obs.top_seat == (me + 2) % 4:
            # never overtake the partner's winning play by search: pass or the basic move
            if None not in candidates:
                candidates.append(None)
        else:
            if None not in candidates:
                candidates.append(None)
            plain = [m for m in moves if m.tier == 0]
            _add_new(candidates, gd_basic.shortlist(plain, rc, keep=3))
            _add_smallest_bomb(candidates, moves)
        candidates = candidates[: self.max_candidates]
        if len(candidates) == 1:
            return default, reason
        mine: list[list[gd_search.SimUnit]] = []
        for c in candidates:
            if c is None:
                mine.append(gd_search.sim_units(plan, level))
            else:
                mine.append(gd_search.units_after(cnt, level, c))
        sizes = list(obs.hand_sizes)
        passes = 0
        for _, combo in reversed(obs.trick):
            if combo is not None:
                break
            passes += 1

        def one_sample() -> list[float]:
            hands = gd_search.sample_hands(
                me, sizes, tracked.unseen, tracked.known, self.rng, tracked.no_reply, level
            )
            others = {s: gd_search.units_of(h, level) for s, h in hands.items()}
            values: list[float] = []
            for c, my_units in zip(candidates, mine, strict=True):
                units = [list(my_units) if s == me else list(others[s]) for s in range(4)]
                first: Any = None if c is None else gd_search.SimUnit(c, 0.0, c.tier > 0)
                values.append(
                    gd_search.rollout(
                        units, list(sizes), me, obs.top, obs.top_seat, passes,
                        list(obs.places), me, first,
                    )
                )
            return values

        return self._search(candidates, default, one_sample, t0, reason)

    # ------------------------------------------------------------------ Run Fast

    def _runfast(self, obs: Observation, cnt: list[int], t0: float) -> tuple[Pattern | None, Reason]:
        from cardavia.rules.runfast.moves import patterns as rf_patterns
        from cardavia.rules.runfast.moves import rank_counts as rf_rank_counts

        from .tracking import track

        me = obs.seat
        view = rf_basic.view_of(obs, cnt)
        default, reason = rf_basic.choose(view, self.rf_cfg, self.rng)
        moves = rf_patterns(cnt, obs.top, obs.opening)
        if not moves or len(moves) == 1:
            return default, reason
        size = sum(cnt)
        if default is not None and default.size == size:
            return default, reason
        tracked = track(obs)
        unseen_rc = rf_rank_counts(tracked.unseen)
        rc = rf_rank_counts(cnt)
        plan = rf_best_plan(rc)
        if obs.top is None and not obs.opening and len(plan.units) <= 4:
            safe = [u for u in plan.units if rf_search.unbeatable(u.pattern, unseen_rc)]
            if safe and len(plan.units) - len(safe) <= 1:
                u = max(safe, key=lambda u: (u.size, u.value))
                return u.pattern, because(
                    "endgame_unbeatable", f"endgame: {u.describe()} cannot be beaten; the rest follows",
                    combo=combo_arg(u.pattern),
                )
        candidates: list[Pattern | None] = [default]
        if obs.top is None and not obs.opening:
            leads = sorted(
                (u for u in plan.units if not u.is_bomb), key=lambda u: u.value - 0.15 * u.size
            )
            for u in leads[:3] + leads[-1:]:
                if u.pattern not in candidates:
                    candidates.append(u.pattern)
        else:
            ranked = sorted(
                moves,
                key=lambda m: -(
                    rf_best_plan([a - b for a, b in zip(rc, _slots_rc(m), strict=True)]).score
                ),
            )
            _add_new(candidates, ranked[:3])
            _add_smallest_bomb(candidates, moves)
        candidates = candidates[: self.max_candidates]
        if len(candidates) == 1:
            return default, reason
        mine = [
            rf_search.units_of(rc) if c is None else rf_search.units_after(rc, c)
            for c in candidates
        ]
        passes = 0
        for _, combo in reversed(obs.trick):
            if combo is not None:
                break
            passes += 1
        standing: int | None = None  # the reply bomb standing on this trick
        for i, (seat, combo) in enumerate(obs.trick):
            if i > 0 and combo is not None and combo.tier in (1, 2):
                standing = seat
        bonuses = list(obs.extra.get("bomb_bonuses", []))
        sizes = list(obs.hand_sizes)

        def one_sample() -> list[float]:
            hands = rf_search.sample_hands(me, sizes, unseen_rc, tracked.no_reply, self.rng)
            others = {s: rf_search.units_of(h) for s, h in hands.items()}
            values: list[float] = []
            for c, my_units in zip(candidates, mine, strict=True):
                rcs = [list(rc) if s == me else list(hands[s]) for s in range(3)]
                units = [list(my_units) if s == me else list(others[s]) for s in range(3)]
                values.append(
                    rf_search.rollout(
                        units, rcs, me, obs.top, obs.top_seat, passes,
                        list(tracked.played_any), list(bonuses), standing, me, c,
                    )
                )
            return values

        return self._search(candidates, default, one_sample, t0, reason)


def _slots_rc(m: Pattern) -> list[int]:
    out = [0] * 15
    for r, n in m.slots:
        out[r] += n
    return out


__all__ = ["ExpertAgent"]


def _add_new(candidates: list[Any], moves: Iterable[Any]) -> None:
    """Append the moves not yet among the search candidates, in order."""
    for m in moves:
        if m not in candidates:
            candidates.append(m)


def _add_smallest_bomb(candidates: list[Any], moves: Sequence[Any]) -> None:
    """Add the cheapest bomb among ``moves`` to the search candidates (if any)."""
    bombs = [m for m in moves if m.tier > 0]
    if bombs:
        _add_new(candidates, [min(bombs, key=lambda m: (m.tier, m.power))])
