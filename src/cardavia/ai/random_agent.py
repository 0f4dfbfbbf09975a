"""The ``random`` agent: a uniformly random legal abstract move (or pass), seeded."""

from __future__ import annotations

import random
from typing import Any

from cardavia.ai.base import Decision, ReturnDecision
from cardavia.ai.legal import abstract_moves, hand_counts, to_combo
from cardavia.ai.reasons import because
from cardavia.observation import Observation
from cardavia.rules.combo import Combo


class RandomAgent:
    """Picks uniformly among the legal abstract moves, plus the pass when it is allowed."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> Decision:
        cnt = hand_counts(obs)
        moves = abstract_moves(obs, cnt)
        options = len(moves) + (1 if obs.can_pass else 0)
        if options == 0:
            raise ValueError(f"seat {obs.seat} has no legal move and may not pass")
        pick = self.rng.randrange(options)
        if pick == len(moves):
            return Decision.of(None, because("random_pass", "random pass"))
        combo = to_combo(obs, moves[pick], cnt)
        return Decision.of(combo, because("random_move", "random legal move", combo=_combo_arg(combo)))

    def choose_return(self, obs: Observation) -> ReturnDecision:
        options = sorted(obs.return_options, key=lambda c: c.code)
        card = self.rng.choice(options)
        return ReturnDecision.of(card, because("random_card", "random eligible card", card=str(card)))


def _combo_arg(combo: Combo) -> dict[str, Any]:
    j = combo.to_json()
    return {"type": j["type"], "rank": j["rank"], "size": j["size"]}
