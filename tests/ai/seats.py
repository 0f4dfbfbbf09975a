"""Agents for whole test deals, by kind (shared by the AI test modules)."""

from __future__ import annotations

from cardavia.ai.base import Agent, Decision
from cardavia.ai.basic import BasicAgent
from cardavia.ai.expert import ExpertAgent
from cardavia.ai.random_agent import RandomAgent
from cardavia.ai.runner import play_out
from cardavia.cards import counts
from cardavia.observation import Observation
from cardavia.rules.trick import TrickDeal


def seat_agents(kind: str, n: int, seed: int, expert_ms: float = 4) -> list[Agent]:
    """``n`` agents of ``kind`` (random, basic, loose, expert; anything else: a mixed table
    of expert, basic and random), seeded from ``seed``; experts think ``expert_ms``."""
    if kind == "random":
        return [RandomAgent(seed + s) for s in range(n)]
    if kind == "basic":
        return [BasicAgent(seed + s) for s in range(n)]
    if kind == "loose":
        return [BasicAgent(seed + s, noise=0.25, blocking=False) for s in range(n)]
    if kind == "expert":
        return [ExpertAgent(seed + s, budget_ms=expert_ms, hard_cap_ms=40) for s in range(n)]
    pool: list[Agent] = [
        ExpertAgent(seed, budget_ms=expert_ms, hard_cap_ms=40), BasicAgent(seed), RandomAgent(seed)
    ]
    return [pool[s % len(pool)] for s in range(n)]


def decisions_with_hands(deal: TrickDeal, agents: list[Agent]) -> list[tuple[Observation, list[list[int]]]]:
    """Play ``deal`` out with ``agents``: every decision's observation with the true hands
    then (card-code counts per seat) — what a test of inference compares samples with."""
    seen: list[tuple[Observation, list[list[int]]]] = []

    def on(seat: int, obs: Observation, decision: Decision, seconds: float) -> None:
        seen.append((obs, [counts(list(deal.hand(s))) for s in range(deal.n_seats)]))

    play_out(deal, agents, on)
    return seen
