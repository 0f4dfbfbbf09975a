"""The ``basic`` agent: a hand planner plus expert rules, no search (both games).

Guandan: :mod:`cardavia.ai.gd_basic`; Run Fast: :mod:`cardavia.ai.rf_basic`. The agent sees
only its :class:`Observation`; difficulty levels configure it (noise, blocking).
"""

from __future__ import annotations

import random

from cardavia.ai.base import Decision, ReturnDecision
from cardavia.ai.legal import hand_counts
from cardavia.observation import Observation

from . import gd_basic


class BasicAgent:
    """Planner + rules. ``noise`` plays a random legal move with that probability."""

    name = "basic"

    def __init__(
        self, seed: int = 0, *, noise: float = 0.0, blocking: bool = True, name: str = "basic"
    ) -> None:
        self.rng = random.Random(seed)
        self.name = name
        self.gd = gd_basic.GdConfig(noise=noise, blocking=blocking, partner_help=blocking)
        self.noise = noise
        self.blocking = blocking

    def act(self, obs: Observation) -> Decision:
        cnt = hand_counts(obs)
        if obs.game == "guandan":
            assert obs.level is not None
            view = gd_basic.GdView(obs.seat, cnt, obs.level, obs.hand_sizes, obs.top, obs.top_seat)
            pattern, reason = gd_basic.choose(view, self.gd, self.rng)
            if pattern is None:
                return Decision.of(None, reason)
            return Decision.of(gd_basic.to_combo(pattern, cnt, obs.level), reason)
        from . import rf_basic

        rf_view = rf_basic.view_of(obs, cnt)
        rf_pattern, reason = rf_basic.choose(
            rf_view, rf_basic.RfConfig(noise=self.noise, blocking=self.blocking), self.rng
        )
        if rf_pattern is None:
            return Decision.of(None, reason)
        return Decision.of(rf_basic.to_combo(rf_pattern, cnt, obs.opening), reason)

    def choose_return(self, obs: Observation) -> ReturnDecision:
        return guandan_return(obs)


__all__ = ["BasicAgent"]


def guandan_return(obs: Observation) -> ReturnDecision:
    """The tribute return (G-3.5): the eligible card whose loss costs the hand's plan least."""
    assert obs.level is not None
    card, reason = gd_basic.choose_return(obs.return_options, hand_counts(obs), obs.level)
    return ReturnDecision.of(card, reason)
