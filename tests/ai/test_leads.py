"""The leads read from a Guandan history (inference from plays): checked against the deal
engine's own tricks (G-4.1, G-4.2, G-4.3) over whole self-play deals."""

from __future__ import annotations

import random

import pytest

from cardavia.ai import make_agent
from cardavia.ai.base import Decision
from cardavia.ai.guandan import search
from cardavia.ai.guandan.leads import Lead, last_leads, recent_actions, start_sizes, trick_actions, trick_leads
from cardavia.ai.guandan.search import _other_lead, _same_turn
from cardavia.ai.runner import guandan_deal, play_out
from cardavia.cards import counts, parse_cards
from cardavia.observation import Observation
from cardavia.rules.guandan.combos import classify

from .seats import decisions_with_hands


def _observations(seed: int) -> list[Observation]:
    seen: list[Observation] = []

    def on(seat: int, obs: Observation, decision: Decision, seconds: float) -> None:
        seen.append(obs)

    play_out(guandan_deal(seed), [make_agent("basic", seed * 4 + s) for s in range(4)], on)
    return seen


def test_leads_match_the_engines_tricks() -> None:
    checked = 0
    for seed in range(6):
        sizes_at: dict[int, tuple[int, ...]] = {}
        for obs in _observations(seed):
            history = list(obs.history)
            sizes_at[len(history)] = obs.hand_sizes
            leads = trick_leads(history, 4, start_sizes(obs.hand_sizes, history))
            assert start_sizes(obs.hand_sizes, history) == [27, 27, 27, 27]
            if obs.trick:  # the current trick opened with the latest lead
                assert leads[-1].index == len(history) - len(obs.trick)
                assert leads[-1].seat == obs.trick[0][0]
                checked += 1
            else:  # a new trick: every play so far sits in a trick some lead opened
                assert not history or leads
            for lead in leads:
                if lead.index in sizes_at:
                    assert lead.sizes == sizes_at[lead.index]
    assert checked > 100


def test_last_leads_only_reads_short_hands_and_plain_leads() -> None:
    for seed in range(3):
        for obs in _observations(seed):
            for seat, (lead, since) in last_leads(obs.history, obs.hand_sizes, obs.seat, 15).items():
                assert seat != obs.seat and lead.seat == seat
                assert lead.sizes[seat] <= 15 and lead.combo.tier == 0
                assert lead.combo.size < lead.sizes[seat]
                # the cards played since the lead, the lead's own among them
                assert len(since) == lead.sizes[seat] - obs.hand_sizes[seat]


def test_the_rollout_policys_lead_is_read_from_the_hand_it_led_from() -> None:
    three = classify("3s", 2)[0]
    lead = Lead(1, three, 10, (20, 6, 20, 20))  # seat 1 led a single 3 from 6 cards
    since = [c.code for c in three.cards]

    def other(hand: str) -> bool:
        return _other_lead(counts(parse_cards(hand)), 2, lead, since)

    assert not other("4s 4d 9s 9d 9c")  # 3 + pair + triple: the 3 is its weakest play
    assert not other("5s 6d 7c 8s 9h")  # 3 + a straight
    assert other("3d 3c 9s 9d 9c")  # it would have led three 3s with the nines, not a 3


def test_samples_weigh_the_leads(monkeypatch: pytest.MonkeyPatch) -> None:
    """With lead evidence on, sampled hands from which the policy would have led another
    kind of play are rarer than without it (and counts stay exact)."""
    found = None
    for seed in range(10):
        for obs in _observations(seed):
            led = last_leads(obs.history, obs.hand_sizes, obs.seat, 15)
            if led and all(obs.hand_sizes[s] >= 4 for s in led):
                found = (obs, led)
                break
        if found:
            break
    assert found is not None
    obs, led = found
    tracked = search.track(obs)
    level = obs.level or 2

    def mismatch_rate(evidence: float) -> float:
        monkeypatch.setattr(search, "LEAD_EVIDENCE", evidence)
        rng = random.Random(5)
        bad = 0
        for _ in range(300):
            hands = search.sample_hands(
                obs.seat, obs.hand_sizes, tracked.unseen, tracked.known, rng, None, level,
                leads=led if evidence < 1.0 else None,
            )
            for s, (lead, since) in led.items():
                assert sum(hands[s]) == obs.hand_sizes[s]
                bad += _other_lead(hands[s], level, lead, since)
        return bad / (300 * len(led))

    without, weighed = mismatch_rate(1.0), mismatch_rate(0.2)
    assert weighed < without - 0.05, (without, weighed)


def _deal_with_hands(seed: int) -> list[tuple[Observation, list[list[int]]]]:
    return decisions_with_hands(guandan_deal(seed), [make_agent("basic", seed * 4 + s) for s in range(4)])


def test_turns_are_read_with_the_table_as_it_was() -> None:
    checked = 0
    for seed in range(3):
        seen = _deal_with_hands(seed)
        for obs, _ in seen:
            history = list(obs.history)
            acts = trick_actions(history, 4, start_sizes(obs.hand_sizes, history))
            assert [(a.seat, a.combo) for a in acts] == history
            for seat, turns in recent_actions(history, obs.hand_sizes, obs.seat, 3, 12).items():
                assert seat != obs.seat and obs.hand_sizes[seat] > 0 and len(turns) <= 3
                for act, since in turns:
                    assert act.sizes[seat] <= 12
                    assert len(since) == act.sizes[seat] - obs.hand_sizes[seat]
                    if act.combo is None:  # a pass answers an opponent's play
                        assert act.top_seat is not None and act.top_seat != (seat + 2) % 4
                    checked += 1
    assert checked > 100


def test_basic_holding_the_true_hand_takes_every_turn_again() -> None:
    checked = 0
    for seed in range(3):
        for obs, hands in _deal_with_hands(seed):
            level = obs.level
            assert level is not None
            for seat, turns in recent_actions(obs.history, obs.hand_sizes, obs.seat, 3, 12).items():
                for act, since in turns:
                    assert _same_turn(hands[seat], level, act, since)
                    checked += 1
    assert checked > 100


def test_the_turns_read_weigh_the_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(4)
    # the evidence weighs samples by rejection: with the tries it had when it was measured
    # (the shipped search tries 2 deals a sample, and this evidence is off)
    monkeypatch.setattr(search, "SAMPLE_TRIES", 8)
    plain = weighed = total = 0
    for seed in range(2):
        for obs, _ in _deal_with_hands(seed)[40::6]:
            level = obs.level
            assert level is not None
            turns = recent_actions(obs.history, obs.hand_sizes, obs.seat, 3, 12)
            if not turns:
                continue
            unseen = search.track(obs).unseen
            for evidence in (1.0, 0.1):
                monkeypatch.setattr(search, "PLAY_EVIDENCE", evidence)
                hands = search.sample_hands(
                    obs.seat, obs.hand_sizes, unseen, {}, rng, level=level,
                    turns=turns if evidence < 1.0 else None,
                )
                wrong = sum(
                    not _same_turn(hands[s], level, act, since) for s, ts in turns.items() for act, since in ts
                )
                if evidence == 1.0:
                    plain += wrong
                    total += sum(len(ts) for ts in turns.values())
                else:
                    weighed += wrong
    assert total > 30
    assert plain > 0.2 * total
    assert weighed < 0.6 * plain
    print(f"turns contradicted: {plain}/{total} unweighed, {weighed}/{total} at 0.1")
