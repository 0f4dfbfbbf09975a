"""Duplicate play through the environment gives the tournament's result for the same deals."""

from __future__ import annotations

from typing import Any

import pytest

from cardavia.ai.tournament import build_agent, deal_seed, play_board
from cardavia.env import guandan_v0, runfast_v0
from cardavia.env.aec import CardaviaEnv


def _play(env: CardaviaEnv, agents: list[Any]) -> dict[str, float]:
    """Every seat's agent acts on ``infos[agent]["observation"]``; the env applies its move."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for name in env.agent_iter():
        _obs, reward, term, trunc, info = env.last()
        totals[name] += reward
        if term or trunc:
            env.step(None)
            continue
        obs = info["observation"]
        seat = obs.seat
        if obs.phase == "tribute":
            card = agents[seat].choose_return(obs).card
            env.step(env.space.index[("return", 0, 1, card.code)])
        else:
            env.step_combo(agents[seat].act(obs).combo)
    return totals


@pytest.mark.parametrize("names", [("basic", "random"), ("random", "basic", "random")])
def test_runfast_duplicate_equals_the_tournament(names: tuple[str, ...]) -> None:
    slots = names if len(names) == 3 else (names[0], names[1], names[1])
    for index in range(3):
        expected = play_board("runfast", slots, 77, index)
        ds = deal_seed(77, index)
        score = [0.0] * 3
        first = [0] * 3
        for rot in range(3):
            slot_of = [(s + rot) % 3 for s in range(3)]
            agents = [build_agent(slots[slot_of[s]], ds * 8 + s) for s in range(3)]
            env = runfast_v0.env()
            env.reset(options={"deal": ds})
            totals = _play(env, agents)
            for s in range(3):
                score[slot_of[s]] += totals[f"player_{s}"]
            assert env.deal is not None and env.deal.result is not None
            first[slot_of[env.deal.result["winner"]]] += 1
        assert score == expected["score"]
        assert first == expected["first"]


def test_guandan_duplicate_equals_the_tournament() -> None:
    names = ("basic", "random")
    for index in range(2):
        expected = play_board("guandan", names, 5, index)
        ds = deal_seed(5, index)
        wins, levels = [0, 0], [0, 0]
        for swap in (0, 1):
            side_of = [(s + swap) % 2 for s in range(4)]
            agents = [build_agent(names[side_of[s]], ds * 8 + s) for s in range(4)]
            env = guandan_v0.env()
            env.reset(options={"deal": ds})
            totals = _play(env, agents)
            for side in (0, 1):
                seats = [s for s in range(4) if side_of[s] == side]
                gained = totals[f"player_{seats[0]}"]
                if gained > 0:
                    wins[side] += 1
                    levels[side] += int(gained)
        assert wins == expected["wins"]
        assert levels == expected["levels"]
