"""Every agent move is legal in long seeded self-play (both games), with a reason."""

from __future__ import annotations

from typing import Any

import pytest

from cardavia.ai.base import Agent, Decision
from cardavia.ai.basic import BasicAgent
from cardavia.ai.runner import play_out, runfast_deal, step
from cardavia.observation import Observation
from cardavia.rules.guandan.match import GuandanMatch
from cardavia.rules.guandan.moves import all_moves as gd_all_moves
from cardavia.rules.runfast.moves import all_moves as rf_all_moves
from cardavia.rules.runfast.moves import patterns as rf_patterns

from .seats import seat_agents


class Checker:
    """Checks each decision against the full legal move list before the engine applies it."""

    def __init__(self) -> None:
        self.moves = 0

    def __call__(self, seat: int, obs: Observation, decision: Decision, seconds: float) -> None:
        self.moves += 1
        assert decision.reason, "every decision carries a reason"
        if obs.game == "guandan":
            assert obs.level is not None
            cnt = [0] * 54
            for c in obs.hand:
                cnt[c.code] += 1
            if decision.combo is None:
                assert obs.can_pass, "a leader never passes (G-4.1)"
                return
            legal = gd_all_moves(cnt, obs.level, obs.top)
            keys = {(tuple(sorted(c.code for c in m.cards)), m.type, m.rank) for m in legal}
            combo = decision.combo
            assert (tuple(sorted(c.code for c in combo.cards)), combo.type, combo.rank) in keys
        else:
            cnt = [0] * 54
            for c in obs.hand:
                cnt[c.code] += 1
            if decision.combo is None:
                assert not rf_patterns(cnt, obs.top, obs.opening), "must beat (R-3.4)"
                return
            rf_legal = rf_all_moves(cnt, obs.top, obs.opening)
            rf_keys = {(tuple(sorted(c.code for c in m.cards)), m.type) for m in rf_legal}
            played = decision.combo
            assert (tuple(sorted(c.code for c in played.cards)), played.type) in rf_keys


@pytest.mark.parametrize("kind", ["random", "basic", "loose", "expert", "mixed"])
def test_guandan_match_selfplay_is_legal(kind: str) -> None:
    deals = 2 if kind in ("expert", "mixed") else 6
    match = GuandanMatch(seed=11 + len(kind))
    agents = seat_agents(kind, 4, seed=5)
    checker = Checker()
    returns = 0
    for _ in range(deals):
        deal = match.start_deal()
        while not deal.over:
            if deal.phase == "tribute":
                returns += 1
            step(deal, agents, checker)
        assert len(deal.places) == 4
        match.finish_deal()
    assert checker.moves > 50 * deals


@pytest.mark.parametrize("kind", ["random", "basic", "loose", "expert", "mixed"])
def test_runfast_selfplay_is_legal(kind: str) -> None:
    deals = 6 if kind in ("expert", "mixed") else 25
    checker = Checker()
    for seed in range(deals):
        deal = play_out(runfast_deal(100 + seed), seat_agents(kind, 3, seed), checker)
        result: Any = deal.result
        assert result is not None and sum(result["scores"]) == 0
    assert checker.moves > 10 * deals


def test_basic_returns_an_eligible_card() -> None:
    match = GuandanMatch(seed=3)
    agents: list[Agent] = [BasicAgent(s) for s in range(4)]
    for _ in range(3):
        deal = match.start_deal()
        while not deal.over:
            if deal.phase == "tribute":
                seat = min(deal.pending_returns)
                from cardavia.observation import observation

                obs = observation(deal, seat)
                choice = agents[seat].choose_return(obs)
                assert choice.card in obs.return_options and choice.reason
            step(deal, agents)
        match.finish_deal()
