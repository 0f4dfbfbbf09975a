"""Drive whole deals with agents through the public engine API (tests, bench, tournament).

Every agent call receives ``observation(deal, seat)`` only. ``on_act`` (optional) is told
about each decision: ``(seat, observation, decision, seconds)``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from cardavia.ai.base import Agent, Decision
from cardavia.observation import Observation, observation
from cardavia.rules.trick import PHASE_TRIBUTE, TrickDeal

OnAct = Callable[[int, Observation, Decision, float], None]


def step(deal: TrickDeal, agents: Sequence[Agent], on_act: OnAct | None = None) -> None:
    """Let the agents take the next step of the deal (a return card, a play or a pass)."""
    if deal.phase == PHASE_TRIBUTE:
        pending: dict[int, int] = getattr(deal, "pending_returns", {})
        giver = min(pending)
        choice = agents[giver].choose_return(observation(deal, giver))
        deal.return_card(giver, choice.card)  # type: ignore[attr-defined]
        return
    seat = deal.turn
    assert seat is not None
    obs = observation(deal, seat)
    t0 = time.perf_counter()
    decision = agents[seat].act(obs)
    elapsed = time.perf_counter() - t0
    if on_act is not None:
        on_act(seat, obs, decision, elapsed)
    if decision.combo is None:
        deal.pass_turn(seat)
    else:
        deal.play_combo(seat, decision.combo)


def play_out(deal: TrickDeal, agents: Sequence[Agent], on_act: OnAct | None = None) -> TrickDeal:
    """Play a deal to its end."""
    while not deal.over:
        step(deal, agents, on_act)
    return deal


def guandan_deal(seed: int, level: int | None = None) -> Any:
    """A fresh first-of-match Guandan deal from ``seed`` (level from the seed unless given)."""
    from cardavia.rules.guandan.deal import GuandanDeal, deal_hands

    hands, leader = deal_hands(seed)
    lv = 2 + seed % 13 if level is None else level
    return GuandanDeal.start(hands, lv, seed=seed, team_levels=(lv, lv), leader=leader)


def runfast_deal(seed: int) -> Any:
    """A fresh Run Fast deal from ``seed``."""
    from cardavia.rules.runfast.deal import RunFastDeal, deal_hands

    hands, _ = deal_hands(seed)
    return RunFastDeal.start(hands, seed=seed)


__all__ = ["OnAct", "guandan_deal", "play_out", "runfast_deal", "step"]
