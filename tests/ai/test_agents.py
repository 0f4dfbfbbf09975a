"""Planner, expert rules, time cap, difficulty presets and the tournament."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import pytest

from cardavia.ai import AGENTS, make_agent
from cardavia.ai.base import Agent, Decision
from cardavia.ai.basic import BasicAgent
from cardavia.ai.difficulty import DIFFICULTIES, PerGame, agent_for
from cardavia.ai.expert import ExpertAgent
from cardavia.ai.guandan.plan import best_plan
from cardavia.ai.runfast.plan import best_plan as rf_best_plan
from cardavia.ai.runner import guandan_deal, play_out, runfast_deal
from cardavia.ai.tournament import mean_ci, run, tournament_main
from cardavia.cards import parse_cards
from cardavia.observation import Observation, observation
from cardavia.rules.combo import Combo
from cardavia.rules.guandan.deal import GuandanDeal
from cardavia.rules.guandan.moves import counts, rank_counts
from cardavia.rules.runfast.deal import RunFastDeal
from cardavia.rules.runfast.moves import counts as rf_counts
from cardavia.rules.runfast.moves import rank_counts as rf_rank_counts


def test_guandan_planner_uses_wilds_in_sequences() -> None:
    # 3 4 5 _ 7 + a wild (level 2: 2h) = one straight; 9 9 9 + J J = one full house
    rc, w = rank_counts(counts(parse_cards("3s 4d 5c 7s 2h 9s 9d 9c Js Jd")), 2)
    plan = best_plan(rc, w, 2)
    assert plan.plays == 2
    assert sorted(u.type.value for u in plan.units) == ["full_house", "straight"]


def test_runfast_planner_minimum_plays() -> None:
    rc = rf_rank_counts(rf_counts(parse_cards("3s 3d 4s 4d 5s 5d 9c Tc Jc Qc Kc")))
    plan = rf_best_plan(rc)
    assert plan.plays == 2  # pair run 3-5 and straight 9-K


def test_basic_goes_out_when_possible() -> None:
    hands = [parse_cards("5s 5d 5c 8s 8d"), parse_cards("3s"), parse_cards("4s"), parse_cards("6s")]
    deal = GuandanDeal.start(hands, 2, leader=0)
    decision = BasicAgent().act(observation(deal, 0))
    assert decision.combo is not None and decision.combo.size == 5
    assert "go out" in decision.reason


def test_basic_does_not_bomb_the_partner() -> None:
    # seat 2 (partner of 0) leads a single A; seat 3 passes; seat 0 holds a bomb and junk
    hands = [
        parse_cards("9s 9d 9c 9h 3s 4d 6c 8s Jd"),
        parse_cards("3d 4s 5s 6d 7d 8d"),
        parse_cards("As Kd Kc 5d 7c"),
        parse_cards("3c 4c 5c 6s 7s"),
    ]
    deal = GuandanDeal.start(hands, 2, leader=2)
    deal.play(2, "As")
    deal.pass_turn(3)
    decision = BasicAgent().act(observation(deal, 0))
    assert decision.combo is None, decision.reason


def test_runfast_basic_blocks_never_passes_with_a_reply() -> None:
    hands = [parse_cards("3h 4s"), parse_cards("5s 6s 7s 8s Ts"), parse_cards("Ks Kd 9d")]
    deal = RunFastDeal.start(hands)
    deal.play(0, "3h")
    obs = observation(deal, 1)
    decision = BasicAgent().act(obs)
    assert decision.combo is not None  # must beat


def test_expert_answers_within_hard_cap() -> None:
    agent = ExpertAgent(1, budget_ms=20, hard_cap_ms=60)
    worst = 0.0

    def on(seat: int, obs: object, decision: object, seconds: float) -> None:
        nonlocal worst
        if seat == 0:
            worst = max(worst, seconds)

    play_out(guandan_deal(4), [agent, BasicAgent(1), BasicAgent(2), BasicAgent(3)], on)
    play_out(runfast_deal(4), [agent, BasicAgent(1), BasicAgent(2)], on)
    assert worst < 0.060 + 0.300  # the cap plus generous slack: other jobs share the CPU


def test_difficulties_are_configurations() -> None:
    names = {d: agent_for(d).name for d in DIFFICULTIES}
    assert names == {"easy": "basic_loose", "normal": "basic", "hard": "hard", "expert": "expert"}
    # hard is the agent that sits between normal and expert in each game (docs/ai.md)
    hard = agent_for("hard", 3)
    assert isinstance(hard, PerGame)
    for deal, expected in ((guandan_deal(5), "expert_v1_quick"), (runfast_deal(5), "expert_rules")):
        assert deal.turn is not None
        obs = deal.observation(deal.turn)
        decision = hard.act(obs)
        assert hard.agent(obs).name == expected
        assert decision.combo is not None  # the leader plays
        deal.play_combo(deal.turn, decision.combo)  # a legal move (an illegal one raises)
    for name in AGENTS:
        assert make_agent(name, 1).name == name or name == "random"
    with pytest.raises(ValueError, match="unknown difficulty"):
        agent_for("grandmaster")


def test_mean_ci() -> None:
    m, lo, hi = mean_ci([1.0, 0.0, 1.0, 0.0])
    assert m == 0.5 and lo < 0.5 < hi


def test_tournament_summary_both_games(capsys: pytest.CaptureFixture[str]) -> None:
    gd = run("guandan", ["basic", "random"], deals=2, seed=1, progress=False)
    assert gd["games"] == 4 and gd["sides"][0]["win_rate"]["mean"] >= 0.5
    rf = run("runfast", ["basic", "random"], deals=2, seed=1, progress=False)
    assert rf["games"] == 6
    assert abs(sum(s["score_per_deal"]["mean"] for s in rf["slots"])) < 1e-3
    assert tournament_main(["--game", "runfast", "--agents", "basic", "random", "--deals", "1", "--json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out)["game"] == "runfast"
    assert tournament_main(["--game", "runfast", "--agents", "nobody", "basic", "--deals", "1"]) == 2


def test_runfast_pass_is_a_hard_constraint_on_samples() -> None:
    import random

    from cardavia.ai.runfast import search as rf_search
    from cardavia.ai.runfast.search import track

    hands = [
        parse_cards("3h 4s 9d"),
        parse_cards("5s 6s 7s Ks Kd"),
        parse_cards("8s 8d Qs Qd Js Jd As Ac"),
    ]
    deal = RunFastDeal.start(hands)
    deal.play(0, "3h")
    deal.play(1, "Ks")
    deal.play(2, "As")
    deal.pass_turn(0)  # seat 0 holds 4s 9d: no reply to A, so the pass is legal
    obs = observation(deal, 1)
    tracked = track(obs)
    assert [t.describe() for t in tracked.no_reply[0]] == ["single A"]
    unseen = rf_rank_counts(tracked.unseen)
    rng = random.Random(3)
    for _ in range(20):
        sample = rf_search.sample_hands(1, obs.hand_sizes, unseen, tracked.no_reply, rng)
        assert sum(sample[0][2:]) == 2 and sum(sample[2][2:]) == 7
        assert not rf_search.has_reply(sample[0], tracked.no_reply[0][0])


def test_guandan_passes_are_soft_evidence_on_samples() -> None:
    import random

    from cardavia.ai.guandan import search as gd_search
    from cardavia.ai.guandan.search import track

    hands = [
        parse_cards("9s 3s 4s"),
        parse_cards("5d 6d 7d"),
        parse_cards("3c 4c 5c"),
        parse_cards("Kd 8c 8d"),
    ]
    deal = GuandanDeal.start(hands, 2, leader=0)
    deal.play(0, "9s")
    deal.pass_turn(1)  # an opponent passes on a single 9: evidence
    deal.pass_turn(2)  # the partner passes: no evidence (partners pass on purpose)
    deal.play(3, "Kd")
    obs = observation(deal, 0)
    tracked = track(obs)
    assert {s: [t.describe() for t in tops] for s, tops in tracked.no_reply.items()} == {
        1: ["single 9"]
    }

    def holds_reply_rate(passed_on: dict[int, list[Combo]] | None) -> float:
        rng = random.Random(11)
        held = 0
        for _ in range(400):
            sample = gd_search.sample_hands(
                0, obs.hand_sizes, tracked.unseen, tracked.known, rng, passed_on, 2, shape=0.0
            )
            assert [sum(sample[s]) for s in (1, 2, 3)] == [3, 3, 2]
            held += gd_search._plain_replies(sample[1], 2, tracked.no_reply[1]) > 0
        return held / 400

    prior, weighed = holds_reply_rate(None), holds_reply_rate(tracked.no_reply)
    assert prior > 0.75  # most random 3-card hands hold a single above 9 ...
    assert weighed < prior - 0.1  # ... the pass makes it clearly less likely
    assert weighed > 0.3  # ... but not impossible: a player may keep a big single


def test_endgame_unbeatable_is_judged_against_all_unseen_cards() -> None:
    from cardavia.ai.guandan import search as gd_search
    from cardavia.rules.guandan.moves import patterns

    mine = counts(parse_cards("RJ RJ 3s"))
    pair = next(p for p in patterns(mine, 2) if p.type.value == "pair")
    assert gd_search.unbeatable(pair, counts(parse_cards("4d 6c 5d 7c 8d 9c")), 2)
    assert not gd_search.unbeatable(pair, counts(parse_cards("5s 5d 5c 5h 9c")), 2)


def test_expert_with_a_sample_cap_is_reproducible() -> None:
    # a budget too large to matter and a sample cap: the decisions depend on the seed only
    def decisions(seed: int) -> list[str]:
        seen: list[str] = []

        def on(seat: int, obs: object, decision: Decision, seconds: float) -> None:
            seen.append(f"{seat} {decision.combo} {decision.reason}")

        agents = [ExpertAgent(seed + s, budget_ms=60_000, max_samples=6) for s in range(3)]
        play_out(runfast_deal(7), agents, on)
        return seen

    first = decisions(1)
    assert first == decisions(1)
    assert any("over 6 sampled deals" in line for line in first)
    assert not any(re.search(r"over ([7-9]|\d\d+) sampled", line) for line in first)
    with pytest.raises(ValueError, match="max_samples"):
        ExpertAgent(max_samples=0)


@pytest.mark.parametrize("game", ["guandan", "runfast"])
def test_expert_rules_never_samples(game: str) -> None:
    """``expert_rules`` (Run Fast's difficulty hard) is the expert without search: no
    decision of whole deals — endgames included, where the Run Fast expert lets every legal
    move compete — ever samples a deal."""
    deals = 3 if game == "guandan" else 12
    for seed in range(deals):
        agents = [make_agent("expert_rules", seed * 4 + s) for s in range(4 if game == "guandan" else 3)]
        deal = guandan_deal(seed) if game == "guandan" else runfast_deal(seed)
        searched = _samples_per_decision(deal, agents)
        assert searched and not any(searched)


def _samples_per_decision(deal: GuandanDeal | RunFastDeal, agents: Sequence[Agent]) -> list[int]:
    """Play the deal out; the sampled deals behind each decision of the (expert) agents."""
    searched: list[int] = []

    def watch(seat: int, obs: Observation, decision: Decision, seconds: float) -> None:
        agent = agents[seat]
        assert isinstance(agent, ExpertAgent)
        searched.append(agent.last_samples)

    play_out(deal, agents, watch)
    return searched
