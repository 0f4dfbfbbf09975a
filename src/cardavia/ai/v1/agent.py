"""The frozen ``expert_v1`` agent (see :mod:`cardavia.ai.v1`).

>>> from cardavia.ai.runner import play_out, runfast_deal
>>> play_out(runfast_deal(3), [ExpertV1Agent(s, max_samples=2) for s in range(3)]).over
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from cardavia.ai.base import Decision, ReturnDecision
from cardavia.ai.reasons import Reason
from cardavia.cards import Card, counts
from cardavia.observation import Observation
from cardavia.rules.combo import Combo, Pattern
from cardavia.rules.guandan.deal import GuandanDeal
from cardavia.rules.runfast.deal import RunFastDeal

from .guandan import basic as gd_basic
from .guandan import search as gd_search
from .runfast import basic as rf_basic
from .runfast import search as rf_search
from .search import Search

Choice = tuple[Pattern | None, Reason]
_Decide = Callable[[Observation, list[int], Search, float], Choice]
_Combo = Callable[[Observation, Pattern, list[int]], Combo]
_GiveBack = Callable[[Observation, list[int]], tuple[Card, Reason]]

_Basic = Callable[[Observation, list[int], random.Random, float, bool], Choice]

#: game name → the frozen ``basic`` policy (the yardstick ``basic_v1``)
_BASIC: dict[str, _Basic] = {
    GuandanDeal.game: gd_basic.decide,
    RunFastDeal.game: rf_basic.decide,
}

#: game name → (search, concrete cards, tribute return) of the frozen version
_PARTS: dict[str, tuple[_Decide, _Combo, _GiveBack]] = {
    GuandanDeal.game: (gd_search.decide, gd_basic.combo, gd_basic.give_back),
    RunFastDeal.game: (rf_search.decide, rf_basic.combo, rf_basic.give_back),
}


class ExpertV1Agent:
    """The pre-issue-15 expert: ``budget_ms`` per move, never more than ``hard_cap_ms``."""

    name = "expert_v1"

    def __init__(
        self,
        seed: int = 0,
        *,
        budget_ms: float = 150.0,
        hard_cap_ms: float = 280.0,
        max_candidates: int = 5,
        max_samples: int | None = None,
        name: str = "expert_v1",
    ) -> None:
        self.rng = random.Random(seed)
        self.name = name
        self.search = Search(
            self.rng, budget_ms=budget_ms, hard_cap_ms=hard_cap_ms,
            max_candidates=max_candidates, max_samples=max_samples,
        )

    @property
    def last_samples(self) -> int:
        return self.search.last_samples

    def act(self, obs: Observation) -> Decision:
        t0 = time.perf_counter()
        cnt = counts(obs.hand)
        decide, combo, _ = _PARTS[obs.game]
        move, why = decide(obs, cnt, self.search, t0)
        return Decision.of(None if move is None else combo(obs, move, cnt), why)

    def choose_return(self, obs: Observation) -> ReturnDecision:
        give_back = _PARTS[obs.game][2]
        return ReturnDecision.of(*give_back(obs, counts(obs.hand)))


class BasicV1Agent:
    """``basic`` as it was before issue 15 (planner + rules, no search), frozen as a yardstick
    for later changes to ``basic``."""

    name = "basic_v1"

    def __init__(self, seed: int = 0, *, name: str = "basic_v1") -> None:
        self.rng = random.Random(seed)
        self.name = name

    def act(self, obs: Observation) -> Decision:
        cnt = counts(obs.hand)
        move, why = _BASIC[obs.game](obs, cnt, self.rng, 0.0, True)
        combo = _PARTS[obs.game][1]
        return Decision.of(None if move is None else combo(obs, move, cnt), why)

    def choose_return(self, obs: Observation) -> ReturnDecision:
        give_back = _PARTS[obs.game][2]
        return ReturnDecision.of(*give_back(obs, counts(obs.hand)))


__all__ = ["BasicV1Agent", "ExpertV1Agent"]
