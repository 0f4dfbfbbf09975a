"""AI agents. :func:`make_agent` builds one by name (``random``, ``basic``, ``expert``, …)."""

from __future__ import annotations

from collections.abc import Callable

import cardavia.ai.native  # noqa: F401  (first: it puts the compiled modules in use)
from cardavia.ai.base import Agent, Decision, ReturnDecision
from cardavia.ai.basic import BasicAgent
from cardavia.ai.expert import ExpertAgent
from cardavia.ai.random_agent import RandomAgent
from cardavia.ai.v1.agent import BasicV1Agent, ExpertV1Agent


def _loose(seed: int) -> Agent:
    """``basic`` with 25 % random moves and no blocking/partner rules (difficulty easy)."""
    return BasicAgent(seed, noise=0.25, blocking=False, name="basic_loose")


def _quick(seed: int) -> Agent:
    """``expert`` with a small search budget (50 ms, 120 ms cap)."""
    return ExpertAgent(seed, budget_ms=50.0, hard_cap_ms=120.0, name="expert_quick")


def _rules(seed: int) -> Agent:
    """``expert`` without sampling: ``basic`` plus the expert's sure rules (the exact
    endgame rule, no lead into an opponent's likely way out) — one candidate, no search."""
    return ExpertAgent(seed, max_candidates=1, name="expert_rules")


def _v1_quick(seed: int) -> Agent:
    """The frozen ``expert_v1`` with a small search budget (the difficulty hard before issue 15)."""
    return ExpertV1Agent(seed, budget_ms=50.0, hard_cap_ms=120.0, name="expert_v1_quick")


AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
    "basic": BasicAgent,
    "basic_loose": _loose,
    "basic_v1": BasicV1Agent,
    "expert_quick": _quick,
    "expert": ExpertAgent,
    "expert_rules": _rules,
    "expert_v1": ExpertV1Agent,
    "expert_v1_quick": _v1_quick,
}


def make_agent(name: str, seed: int = 0) -> Agent:
    """An agent by name, seeded (``cardavia.ai.AGENTS`` lists the names)."""
    try:
        factory = AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; agents are {', '.join(sorted(AGENTS))}") from None
    return factory(seed)


__all__ = ["AGENTS", "Agent", "BasicAgent", "Decision", "ExpertAgent", "RandomAgent", "ReturnDecision", "make_agent"]
