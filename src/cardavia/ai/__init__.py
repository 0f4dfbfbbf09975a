"""AI agents. :func:`make_agent` builds one by name (``random``; more in later modules)."""

from __future__ import annotations

from collections.abc import Callable

from cardavia.ai.base import Agent, Decision, ReturnDecision
from cardavia.ai.random_agent import RandomAgent

AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
}


def make_agent(name: str, seed: int = 0) -> Agent:
    """An agent by name, seeded (``cardavia.ai.AGENTS`` lists the names)."""
    try:
        factory = AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; agents are {', '.join(sorted(AGENTS))}") from None
    return factory(seed)


__all__ = ["AGENTS", "Agent", "Decision", "RandomAgent", "ReturnDecision", "make_agent"]
