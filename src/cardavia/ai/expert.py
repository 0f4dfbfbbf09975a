"""The ``expert`` agent: basic + card tracking + inference + determinized Monte-Carlo search.

Per move (both games; each game's steps are in :mod:`cardavia.ai.guandan.search` and
:mod:`cardavia.ai.runfast.search`):

1. the ``basic`` policy proposes its move (the fallback answer, always available);
2. candidate moves come from the planner (planned units to lead, minus an opponent's likely
   ways out; to follow, the pass, the cheapest replies, the highest reply as a block and the
   bomb that costs the plan least);
3. an exact endgame rule: when every planned play but one is unbeatable by any
   combination of the unseen cards, the unbeatable plays go first — a forced win;
4. otherwise hidden hands are sampled consistent with the counts and the evidence, shaped
   like real hands (short hands keep their pairs, triples and bombs; Run Fast draws them
   from swap chains that explain every play of the deal, :mod:`cardavia.ai.runfast.chain`),
   each candidate is rolled out in every sample with a planner policy close to ``basic`` —
   or, Guandan, with ≤ 10 cards left, solved exactly on the sampled deal — and a candidate
   replaces the basic move only when it is clearly better on the same samples
   (:mod:`cardavia.ai.search`).

The frozen pre-issue-15 version is ``expert_v1`` (:mod:`cardavia.ai.v1`).

The search is anytime: it stops at ``budget_ms`` and never runs past ``hard_cap_ms``.
``max_samples`` (optional) also stops it after that many sampled deals: with a budget too
large to matter, the agent's decisions then depend on its seed only (reproducible research).
"""

from __future__ import annotations

import random
import time

from cardavia.ai.base import Decision, ReturnDecision
from cardavia.ai.games import game_ai
from cardavia.ai.legal import hand_counts
from cardavia.ai.search import Search
from cardavia.observation import Observation


class ExpertAgent:
    """Search on top of ``basic``. ``budget_ms`` per move, never more than ``hard_cap_ms``."""

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        *,
        budget_ms: float = 150.0,
        hard_cap_ms: float = 280.0,
        max_candidates: int = 6,
        max_samples: int | None = None,
        name: str = "expert",
    ) -> None:
        self.rng = random.Random(seed)
        self.name = name
        self.search = Search(
            self.rng, budget_ms=budget_ms, hard_cap_ms=hard_cap_ms,
            max_candidates=max_candidates, max_samples=max_samples,
        )

    @property
    def last_samples(self) -> int:
        """How many sampled deals the latest decision's search used."""
        return self.search.last_samples

    def act(self, obs: Observation) -> Decision:
        t0 = time.perf_counter()
        cnt = hand_counts(obs)
        game = game_ai(obs.game)
        return game.expert_decision(obs, cnt, game.search(obs, cnt, self.search, t0))

    def choose_return(self, obs: Observation) -> ReturnDecision:
        return game_ai(obs.game).return_decision(obs)


__all__ = ["ExpertAgent"]
