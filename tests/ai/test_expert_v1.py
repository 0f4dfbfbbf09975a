"""``expert_v1`` is the expert frozen before issue 15: it must keep playing exactly as that
expert did. ``data/expert_v1_decisions.json`` was recorded from the pre-change
``ExpertAgent`` (commit 5ed448b) with a fixed seed and sample cap (``record()`` below)."""

from __future__ import annotations

import json
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
