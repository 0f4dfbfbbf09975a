"""The one agent driver: how an agent's choice becomes an action on a deal.

Self-play, tournaments, benchmarks and the play table all drive deals through
:func:`take_turn` / :func:`play_out`. Every agent call receives ``observation(deal, seat)``
only. ``on_act`` (optional) is told about each play decision: ``(seat, observation,
decision, seconds)``.

>>> from cardavia.ai.random_agent import RandomAgent
>>> deal = runfast_deal(3)
>>> agents = [RandomAgent(s) for s in range(3)]
>>> play_out(deal, agents).over
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from cardavia.ai.base import Agent, Decision, ReturnDecision
from cardavia.rules.events import Event
from cardavia.rules.guandan.deal import GuandanDeal
from cardavia.rules.observation import Observation, observation
from cardavia.rules.runfast.deal import RunFastDeal
from cardavia.rules.trick import PHASE_TRIBUTE, TrickDeal

OnAct = Callable[[int, Observation, Decision, float], None]


def apply_decision(deal: TrickDeal, seat: int, decision: Decision | ReturnDecision) -> Event:
    """Carry out ``seat``'s decision on the deal (validated by the rules like any action)."""
    if isinstance(decision, ReturnDecision):
        return deal.return_card(seat, decision.card)
    if decision.combo is None:
        return deal.pass_turn(seat)
    return deal.play_combo(seat, decision.combo)


def decide(agent: Agent, deal: TrickDeal, seat: int) -> Decision | ReturnDecision:
    """What ``agent`` chooses for ``seat`` now (a return card in the tribute phase)."""
    obs = observation(deal, seat)
    if deal.phase == PHASE_TRIBUTE:
        return agent.choose_return(obs)
    return agent.act(obs)


def take_turn(deal: TrickDeal, seat: int, agent: Agent, on_act: OnAct | None = None) -> Event:
    """Let ``agent`` act for ``seat`` (which must be one the deal waits for)."""
    if deal.phase == PHASE_TRIBUTE:
        return apply_decision(deal, seat, agent.choose_return(observation(deal, seat)))
    obs = observation(deal, seat)
    if on_act is None:
        return apply_decision(deal, seat, agent.act(obs))
    t0 = time.perf_counter()
    decision = agent.act(obs)
    on_act(seat, obs, decision, time.perf_counter() - t0)
    return apply_decision(deal, seat, decision)


def step(deal: TrickDeal, agents: Sequence[Agent], on_act: OnAct | None = None) -> None:
    """Let the agents take the next step of the deal (a return card, a play or a pass)."""
    seat = deal.to_act()[0]
    take_turn(deal, seat, agents[seat], on_act)


def play_out(deal: TrickDeal, agents: Sequence[Agent], on_act: OnAct | None = None) -> TrickDeal:
    """Play a deal to its end."""
    while not deal.over:
        step(deal, agents, on_act)
    return deal


def guandan_deal(seed: int, level: int | None = None) -> GuandanDeal:
    """A fresh first-of-match Guandan deal from ``seed`` (level from the seed unless given)."""
    return GuandanDeal.fresh(seed, level)


def runfast_deal(seed: int) -> RunFastDeal:
    """A fresh Run Fast deal from ``seed``."""
    return RunFastDeal.fresh(seed)


__all__ = ["OnAct", "apply_decision", "decide", "guandan_deal", "play_out", "runfast_deal", "step", "take_turn"]
