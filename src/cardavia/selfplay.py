"""Seeded self-play: agents play whole deals through the public engine API.

>>> records = list(selfplay_records("guandan", deals=1, seed=5, agent_names=["random"]))
>>> records[0]["game"], len(records[0]["places"])
('guandan', 4)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from cardavia.ai import make_agent
from cardavia.ai.base import Agent
from cardavia.observation import observation
from cardavia.record import deal_record
from cardavia.rules.trick import PHASE_TRIBUTE, TrickDeal


def seat_agents(game: str, names: Sequence[str], seed: int) -> list[Agent]:
    """One agent per seat: one name for all seats; Guandan: two names = teams (seats 0+2, 1+3)."""
    n = 4 if game == "guandan" else 3
    if len(names) == 1:
        per_seat = [names[0]] * n
    elif game == "guandan" and len(names) == 2:
        per_seat = [names[s % 2] for s in range(n)]
    elif len(names) == n:
        per_seat = list(names)
    else:
        allowed = "1, 2 or 4" if game == "guandan" else "1 or 3"
        raise ValueError(f"give {allowed} agent names for {game}, not {len(names)}")
    return [make_agent(name, seed * 10 + seat) for seat, name in enumerate(per_seat)]


def step(deal: TrickDeal, agents: Sequence[Agent]) -> None:
    """Let the agents take the next step of the deal (a return card, a play or a pass)."""
    if deal.phase == PHASE_TRIBUTE:
        pending = getattr(deal, "pending_returns", {})
        seat = min(pending)
        choice = agents[seat].choose_return(observation(deal, seat))
        deal.return_card(seat, choice.card)  # type: ignore[attr-defined]
        return
    seat = deal.turn
    assert seat is not None
    decision = agents[seat].act(observation(deal, seat))
    if decision.combo is None:
        deal.pass_turn(seat)
    else:
        deal.play_combo(seat, decision.combo)


def play_out(deal: TrickDeal, agents: Sequence[Agent]) -> None:
    """Play a deal to its end with the agents."""
    while not deal.over:
        step(deal, agents)


def selfplay_records(
    game: str, deals: int, seed: int, agent_names: Sequence[str]
) -> Iterator[dict[str, Any]]:
    """Play ``deals`` deals (Guandan: one match continued deal to deal) and yield their records."""
    agents = seat_agents(game, agent_names, seed)
    if game == "guandan":
        from cardavia.rules.guandan.deal import GuandanMatch

        match = GuandanMatch(seed, keep_finished=False)  # records are streamed: flat memory
        for _ in range(deals):
            deal = match.start_deal()
            play_out(deal, agents)
            match.finish_deal()
            yield deal_record(deal)
    elif game == "runfast":
        from cardavia.rules.runfast.deal import RunFastSession

        session = RunFastSession(seed, keep_finished=False)
        for _ in range(deals):
            rf_deal = session.start_deal()
            play_out(rf_deal, agents)
            session.finish_deal()
            yield deal_record(rf_deal)
    else:
        raise ValueError(f"unknown game {game!r}; games are guandan and runfast")
