"""Agents never see hidden hands: what act() receives holds no other seat's cards."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from cardavia.ai.base import Agent, Decision, ReturnDecision
from cardavia.ai.basic import BasicAgent
from cardavia.ai.expert import ExpertAgent
from cardavia.ai.runner import runfast_deal, step
from cardavia.ai.v1.agent import ExpertV1Agent
from cardavia.cards import Card
from cardavia.observation import Observation
from cardavia.rules.guandan.match import GuandanMatch
from cardavia.rules.trick import TrickDeal


def _cards_in(value: Any, out: Counter[int], path: str, seen: set[int]) -> None:
    """Every Card reachable from ``value`` (recursively); fails on engine objects."""
    assert not isinstance(value, TrickDeal), f"{path} leaks the deal itself"
    if isinstance(value, Card):
        out[value.code] += 1
        return
    if id(value) in seen:
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        seen.add(id(value))
        for f in dataclasses.fields(value):
            _cards_in(getattr(value, f.name), out, f"{path}.{f.name}", seen)
    elif isinstance(value, dict):
        for k, v in value.items():
            _cards_in(v, out, f"{path}[{k!r}]", seen)
    elif isinstance(value, list | tuple | set | frozenset):
        for i, v in enumerate(value):
            _cards_in(v, out, f"{path}[{i}]", seen)
    else:
        assert isinstance(value, int | float | str | bool | type(None)), (
            f"{path} is an unexpected {type(value).__name__}"
        )


class Spy:
    """Wraps an agent and checks every observation against the live deal."""

    def __init__(self, inner: Agent, deal_ref: list[TrickDeal]) -> None:
        self.inner = inner
        self.name = inner.name
        self.deal_ref = deal_ref
        self.checked = 0

    def _check(self, obs: Observation) -> None:
        deal = self.deal_ref[0]
        assert sorted(c.code for c in obs.hand) == sorted(c.code for c in deal.hand(obs.seat))
        assert list(obs.hand_sizes) == list(deal.size)
        found: Counter[int] = Counter()
        _cards_in(dataclasses.replace(obs, hand=()), found, "obs", set())
        # public cards: everything played, plus tributes (and returns this seat took part in)
        public: Counter[int] = Counter()
        for _, combo in deal.plays:
            if combo is not None:
                public.update(c.code for c in combo.cards)
                public.update(c.code for c in combo.represented)
        for _g, _r, c in obs.tributes:
            public[c.code] += 2
        for _g, _r, c in obs.my_returns:
            public[c.code] += 2
        own = Counter(c.code for c in obs.hand)
        for code, n in found.items():
            allowed = public[code] * 4 + own[code] * 4 + (2 if code >= 0 else 0)
            # the only cards outside plays/tributes must be this seat's own (return options)
            if public[code] == 0:
                assert own[code] > 0, f"card code {code} of another seat reached the agent"
            assert n <= allowed
        self.checked += 1

    def act(self, obs: Observation) -> Decision:
        self._check(obs)
        return self.inner.act(obs)

    def choose_return(self, obs: Observation) -> ReturnDecision:
        self._check(obs)
        return self.inner.choose_return(obs)


def test_guandan_agents_see_only_their_observation() -> None:
    match = GuandanMatch(seed=21)
    ref: list[TrickDeal] = []
    agents: list[Agent] = [
        ExpertAgent(1, budget_ms=3, hard_cap_ms=30), BasicAgent(1),
        ExpertAgent(2, budget_ms=3, hard_cap_ms=30), ExpertV1Agent(3, budget_ms=3, hard_cap_ms=30),
    ]
    spies = [Spy(a, ref) for a in agents]
    for _ in range(3):
        deal = match.start_deal()
        ref[:] = [deal]
        while not deal.over:
            step(deal, spies)
        match.finish_deal()
    assert all(s.checked > 20 for s in spies)


def test_runfast_agents_see_only_their_observation() -> None:
    for seed in range(3):
        deal = runfast_deal(seed)
        ref: list[TrickDeal] = [deal]
        inner: list[Agent] = [ExpertAgent(seed, budget_ms=3, hard_cap_ms=30)]
        inner += [BasicAgent(1), ExpertV1Agent(seed, budget_ms=3, hard_cap_ms=30)]
        spies = [Spy(a, ref) for a in inner]
        while not deal.over:
            step(deal, spies)
        assert sum(s.checked for s in spies) > 10
