"""The ``basic`` agent: a hand planner plus expert rules, no search (both games).

The policies: :mod:`cardavia.ai.guandan.basic`, :mod:`cardavia.ai.runfast.basic`. The agent
sees only its :class:`Observation`; difficulty levels configure it (noise, blocking).
"""

from __future__ import annotations

import random

from cardavia.ai.base import Decision, ReturnDecision
from cardavia.ai.games import game_ai
from cardavia.ai.legal import hand_counts
from cardavia.observation import Observation


class BasicAgent:
    """Planner + rules. ``noise`` plays a random legal move with that probability;
    ``blocking`` reacts to opponents close to going out (and, Guandan, helps the partner).
    ``config`` instead sets every knob: the policy configuration of the game the agent plays
    (``GdConfig`` / ``RfConfig``, e.g. the expert's tuned ``EXPERT_CONFIG``)."""

    name = "basic"

    def __init__(
        self, seed: int = 0, *, noise: float = 0.0, blocking: bool = True, name: str = "basic",
        config: object | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.name = name
        self.noise = noise
        self.blocking = blocking
        self.config = config

    def act(self, obs: Observation) -> Decision:
        cnt = hand_counts(obs)
        game = game_ai(obs.game)
        if self.config is not None:
            return game.decision(obs, cnt, game.basic_as(obs, cnt, self.rng, self.config))
        return game.decision(obs, cnt, game.basic(obs, cnt, self.rng, self.noise, self.blocking))

    def choose_return(self, obs: Observation) -> ReturnDecision:
        return game_ai(obs.game).return_decision(obs)


__all__ = ["BasicAgent"]
