"""PettingZoo's own checks, and what the AEC environments promise beyond them."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cardavia.env import guandan_v0, runfast_v0
from cardavia.env.aec import CardaviaEnv
from cardavia.rules.guandan.match import GuandanMatch

MODULES = {"guandan": guandan_v0, "runfast": runfast_v0}


@pytest.mark.parametrize("game", ["guandan", "runfast"])
def test_api_and_seed(game: str) -> None:
    module = MODULES[game]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "should be a Box" for the mask dict
        api_test(module.env(), num_cycles=300)
        seed_test(module.env, num_cycles=200)


def test_guandan_match_mode_passes_the_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(guandan_v0.env(match=True, max_deals=3), num_cycles=600)


def _play_random(env: CardaviaEnv, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert info["observation"].seat == int(agent.split("_")[1])
        env.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize("game", ["guandan", "runfast"])
def test_rewards_are_zero_sum_and_match_the_settlement(game: str) -> None:
    for seed in range(5):
        env = MODULES[game].env()
        env.reset(seed=seed)
        totals = _play_random(env, seed)
        assert sum(totals.values()) == 0
        result = env.deal.result if env.deal else None
        assert result is not None
        if game == "runfast":
            assert [totals[a] for a in env.possible_agents] == result["scores"]
        else:
            winners = {s for s in range(4) if s % 2 == result["winner_team"]}
            for s, a in enumerate(env.possible_agents):
                assert totals[a] == (result["advance"] if s in winners else -result["advance"])


def test_match_mode_plays_on_with_tribute_and_levels() -> None:
    env = guandan_v0.env(match=True, max_deals=4)
    env.reset(seed=3)
    totals = _play_random(env, 3)
    match = env.matchplay
    assert isinstance(match, GuandanMatch)  # Guandan's series: levels, tribute
    assert env.deals_played == 4 or match.match_winner is not None
    assert sum(totals.values()) == 0
    assert len(match.finished) == env.deals_played
    assert any(d.tributes or d.tribute_cancelled for d in match.finished[1:])


def test_explicit_deal_and_seeding() -> None:
    a, b = runfast_v0.env(), runfast_v0.env()
    a.reset(options={"deal": {"seed": 42}})
    b.reset(seed=7, options={"deal": 42})
    assert a.deal is not None and b.deal is not None
    assert a.deal.dealt == b.deal.dealt
    a.reset(seed=5)
    first = a.deal.dealt if a.deal else None
    a.reset(seed=5)
    assert a.deal is not None and a.deal.dealt == first
    with pytest.raises(ValueError, match="hands"):
        a.reset(options={"deal": {"hands": "3h"}})


def test_render_clone_and_concrete_steps() -> None:
    env = guandan_v0.env(render_mode="ansi")
    env.reset(seed=9)
    text = env.render()
    assert text is not None and "seat 3 (27)" in text and "level" in text
    twin = env.clone()
    action = env.legal_actions()[-1]
    combos = env.choices(action)
    assert combos
    env.step_combo(combos[-1])
    assert twin.deal is not None and env.deal is not None
    assert len(twin.deal.plays) == 0 and len(env.deal.plays) == 1
    twin.step(action)
    assert twin.deal.plays[0][1] is not None
    with pytest.raises(ValueError, match="not legal"):
        env.step(0) if not env.legal_actions() or env.legal_actions()[0] != 0 else env.step(10**6)
