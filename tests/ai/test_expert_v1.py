"""``expert_v1`` is the expert frozen before issue 15: it must keep playing exactly as that
expert did. ``data/expert_v1_decisions.json`` was recorded from the pre-change
``ExpertAgent`` (commit 5ed448b) with a fixed seed and sample cap (``record()`` below)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from cardavia.ai import make_agent
from cardavia.ai.base import Agent
from cardavia.ai.runner import guandan_deal, play_out, runfast_deal
from cardavia.ai.v1.agent import ExpertV1Agent

DATA = Path(__file__).parent / "data" / "expert_v1_decisions.json"
SAMPLES = 6


def _moves(deal_of: Any, seed: int, n: int, build: Any) -> list[str]:
    moves: list[str] = []

    def on(seat: int, obs: object, decision: Any, seconds: float) -> None:
        combo = decision.combo
        moves.append(f"{seat}:{'pass' if combo is None else ' '.join(str(c) for c in combo.cards)}")

    agents: list[Agent] = [build(seed * 8 + s) for s in range(n)]
    play_out(deal_of(seed), agents, on)
    return moves


def record(build: Any) -> dict[str, list[str]]:
    """Every decision of two seeded deals per game, all seats played by ``build(seed)``."""
    out: dict[str, list[str]] = {}
    for seed in (3, 11):
        out[f"guandan/{seed}"] = _moves(guandan_deal, seed, 4, build)
        out[f"runfast/{seed}"] = _moves(runfast_deal, seed, 3, build)
    return out


def test_expert_v1_replays_the_pre_change_expert() -> None:
    expected = json.loads(DATA.read_text(encoding="utf-8"))
    got = record(lambda s: ExpertV1Agent(s, budget_ms=1e6, hard_cap_ms=1e6, max_samples=SAMPLES))
    assert got.keys() == expected.keys()
    for key in expected:
        assert got[key] == expected[key], key


def test_expert_v1_is_an_agent_name() -> None:
    agent = make_agent("expert_v1", 5)
    assert isinstance(agent, ExpertV1Agent) and agent.name == "expert_v1"


def test_basic_v1_is_the_frozen_basic_policy() -> None:
    """``basic_v1`` plays the pre-issue-15 ``basic`` (ai/v1's copy): every decision of a
    seeded Guandan and Run Fast deal equals that policy's answer on the same observation."""
    from cardavia.ai.v1.agent import BasicV1Agent
    from cardavia.ai.v1.guandan import basic as gd_v1
    from cardavia.ai.v1.runfast import basic as rf_v1
    from cardavia.cards import counts

    agent = make_agent("basic_v1", 2)
    assert isinstance(agent, BasicV1Agent) and agent.name == "basic_v1"
    checked = 0

    def on(seat: int, obs: Any, decision: Any, seconds: float) -> None:
        nonlocal checked
        policy = gd_v1 if obs.game == "guandan" else rf_v1
        move, why = policy.decide(obs, counts(obs.hand), random.Random(0), 0.0, True)
        assert (move is None) == (decision.combo is None)
        if move is not None:
            assert decision.combo == policy.combo(obs, move, counts(obs.hand))
        assert decision.reason_key == why.key
        checked += 1

    play_out(guandan_deal(4), [make_agent("basic_v1", s) for s in range(4)], on)
    play_out(runfast_deal(4), [make_agent("basic_v1", s) for s in range(3)], on)
    assert checked > 40
