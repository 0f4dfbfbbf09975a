"""The policy the expert starts from: ``basic`` with tuned knobs (``EXPERT_CONFIG``).

The ``basic`` agent keeps its defaults (it is the ``normal`` level and the tournaments'
yardstick); the expert's default move — the move it plays unless the search finds a
clearly better one — comes from the tuned configuration, and that configuration must beat
``basic`` on the duplicate boards.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardavia.ai import make_agent, tournament
from cardavia.ai.base import Agent
from cardavia.ai.basic import BasicAgent
from cardavia.ai.games import game_ai
from cardavia.ai.guandan import basic as gd_basic
from cardavia.ai.guandan import search as gd_search
from cardavia.ai.legal import hand_counts
from cardavia.ai.runfast import basic as rf_basic
from cardavia.ai.runfast import search as rf_search
from cardavia.ai.runner import guandan_deal, runfast_deal, take_turn
from cardavia.ai.stats import mean_ci
from cardavia.rules.trick import PHASE_TRIBUTE, TrickDeal

MODULES: dict[str, Any] = {"guandan": gd_basic, "runfast": rf_basic}


def _deal(game: str, seed: int) -> TrickDeal:
    return guandan_deal(seed) if game == "guandan" else runfast_deal(seed)


@pytest.mark.parametrize("game", ["guandan", "runfast"])
def test_the_default_configuration_is_basic(game: str) -> None:
    """``decide_as`` with the config's defaults takes every decision ``basic`` takes (whole
    self-play deals)."""
    module = MODULES[game]
    default = module.GdConfig() if game == "guandan" else module.RfConfig()
    checked = 0
    for d in range(6):
        deal = _deal(game, 300 + d)
        agents = [make_agent("basic", s) for s in range(deal.n_seats)]
        while not deal.over:
            seat = deal.to_act()[0]
            if deal.phase != PHASE_TRIBUTE:
                obs = deal.observation(seat)
                cnt = hand_counts(obs)
                plain = module.decide(obs, cnt, random.Random(0))[0]
                assert module.decide_as(obs, cnt, random.Random(0), default)[0] == plain
                configured = BasicAgent(0, config=default).act(obs)
                assert configured.combo == BasicAgent(0).act(obs).combo
                checked += 1
            take_turn(deal, seat, agents[seat])
    assert checked > 100


def test_the_expert_starts_from_the_tuned_configuration() -> None:
    """Both searches take their default move from ``EXPERT_CONFIG``, and in Guandan it
    differs from ``basic``'s defaults (the follow threshold, the knob that paid)."""
    assert gd_search.START is gd_basic.EXPERT_CONFIG
    assert rf_search.START is rf_basic.EXPERT_CONFIG
    assert gd_basic.EXPERT_CONFIG.follow_threshold < gd_basic.GdConfig().follow_threshold


def test_run_fast_rollouts_lead_for_the_searcher_as_its_default_move_does() -> None:
    """The searcher's rollout lead rule is the tuned configuration's lead knobs, the other
    seats' rule ``basic``'s defaults: with a low single and a pair of queens left (worth
    0.6), the searcher's rule leads the pair first (it holds from 0.3), the others' rule
    the single (it needs 0.8), as the two ``basic`` configurations do."""
    from cardavia.cards import parse_cards
    from cardavia.rules.runfast.moves import counts, rank_counts

    assert rf_search.lead_rule(rf_basic.EXPERT_CONFIG) == rf_search.MY_LEAD
    assert rf_search.lead_rule(rf_basic.RfConfig()) == rf_search.OTHERS_LEAD
    rc = rank_counts(counts(parse_cards("3s Qd Qc")))
    units = rf_search.units_of(rc)
    rcs = [list(rc), [0] * len(rc), [0] * len(rc)]
    rcs[1][9], rcs[2][10] = 4, 4  # the others hold more cards than the searcher
    mine = rf_search.policy_choice(0, units, rcs, None, rf_search.MY_LEAD)[1]
    theirs = rf_search.policy_choice(0, units, rcs, None, rf_search.OTHERS_LEAD)[1]
    assert mine is not None and mine.describe() == "pair Q"
    assert theirs is not None and theirs.describe() == "single 3"
    for cfg, play in ((rf_basic.EXPERT_CONFIG, mine), (rf_basic.RfConfig(), theirs)):
        view = rf_basic.RfView(0, counts(parse_cards("3s Qd Qc")), [3, 4, 4], None, None, False)
        assert rf_basic.choose(view, cfg, random.Random(0))[0] == play


@pytest.mark.parametrize("game", ["guandan", "runfast"])
def test_the_tuned_configuration_beats_basic(game: str) -> None:
    """Over fixed duplicate boards the tuned policy beats ``basic`` with the whole 95 %
    interval above even (Guandan: deal-win share > 50 %; Run Fast: points a deal > 0), or —
    where nothing was changed — plays the same deals."""
    module = MODULES[game]
    cfg = module.EXPERT_CONFIG
    real_build = tournament.build_agent

    def build(name: str, seed: int, think_ms: float | None = None) -> Agent:
        if name == "configured":
            return BasicAgent(seed, config=cfg, name="configured")
        return real_build(name, seed, think_ms)

    values: list[float] = []
    tournament.build_agent = build
    try:
        slots = game_ai(game).tournament.slots(["configured", "basic"])
        for i in range(300):
            row = tournament.play_board(game, slots, 2024, i, None)
            values.append(row["wins"][0] / 2 - 0.5 if game == "guandan" else row["score"][0] / row["games"][0])
    finally:
        tournament.build_agent = real_build
    m, lo, _hi = mean_ci(values)
    if cfg == (module.GdConfig() if game == "guandan" else module.RfConfig()):
        assert m == 0.0
    else:
        assert lo > 0.0, (m, lo)
