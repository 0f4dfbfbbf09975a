"""The ``random`` agent: a uniformly random legal abstract move (or pass), seeded."""

from __future__ import annotations

import random

from cardavia.ai.base import Decision, ReturnDecision
from cardavia.ai.legal import abstract_moves, hand_counts, to_combo
from cardavia.observation import Observation


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
            return Decision(None, "random pass")
        return Decision(to_combo(obs, moves[pick], cnt), "random legal move")

    def choose_return(self, obs: Observation) -> ReturnDecision:
        options = sorted(obs.return_options, key=lambda c: c.code)
        return ReturnDecision(self.rng.choice(options), "random eligible card")
