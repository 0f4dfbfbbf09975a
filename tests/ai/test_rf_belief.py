"""The Run Fast belief carried between decisions (``ai/runfast/belief.py``): the turns are
read with the table as it was (R-3.5 tricks), every particle stays a possible deal (the
unseen cards split with the right sizes, every pass met: R-3.4), a new deal starts a new
belief, and the particles put more cards where they really are than fresh samples do."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from cardavia.ai.basic import BasicAgent
from cardavia.ai.expert import ExpertAgent
from cardavia.ai.runfast import belief, search
from cardavia.ai.runfast.evidence import recent_plays
from cardavia.ai.runfast.reading import has_reply
from cardavia.ai.runner import play_out, runfast_deal
from cardavia.cards import counts
from cardavia.observation import Observation
from cardavia.rules.runfast.moves import rank_counts


def _expert_deals(seeds: range, check: object) -> None:
    """Play ``seeds`` with an expert (20 samples, belief on) in seat 0; ``check(deal,
    expert, obs)`` after each of its searched decisions."""
    for seed in seeds:
        deal = runfast_deal(seed)
        expert = ExpertAgent(seed, budget_ms=1e9, hard_cap_ms=1e9, max_samples=20)

        def on(seat: int, obs: Observation, *_: object, expert: ExpertAgent = expert, deal: object = deal) -> None:
            b = expert.search.belief
            if seat == 0 and isinstance(b, belief.Belief) and b.read == tuple(obs.history):
                check(deal, expert, obs)  # type: ignore[operator]

        play_out(deal, [expert, BasicAgent(seed * 3 + 1), BasicAgent(seed * 3 + 2)], on)


def test_turns_carry_the_play_answered_and_the_sizes_before_it() -> None:
    deal = runfast_deal(3)
    play_out(deal, [BasicAgent(s) for s in range(3)])
    obs = deal.observation(0)
    turns = belief.turns_of(obs.history, obs.hand_sizes)
    assert [(t.seat, t.combo) for t in turns] == list(obs.history)
    assert sum(turns[0].sizes) == 48  # before the opening every card is in a hand
    for t, nxt in pairwise(turns):
        shrink = [a - b for a, b in zip(t.sizes, nxt.sizes, strict=True)]
        assert shrink == [t.combo.size if s == t.seat and t.combo else 0 for s in range(3)]
        if t.combo is not None and t.top is not None:
            assert t.combo.tier > t.top.tier or t.combo.power > t.top.power
    # the plays the fresh sampler reads have the same tops and sizes
    for plays in recent_plays(obs.history, obs.hand_sizes, 0).values():
        for p in plays:
            assert any(t.combo is p.combo and t.top is p.top and t.sizes == p.sizes for t in turns)


def test_every_particle_is_a_possible_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every particle splits the unseen cards with the right sizes; the passes are met by
    every particle but the rare fresh sample that is the sampler's least-violating fallback
    (``sample_hands``: 24 tries, then the sample that contradicts the fewest passes — about
    1 % of fresh samples in basic self-play, with or without the reading of plays)."""
    monkeypatch.setattr(search, "PARTICLES", 40)
    seen = [0]
    particles = [0, 0]  # checked, contradicting a pass

    def check(deal: object, expert: ExpertAgent, obs: Observation) -> None:
        b = expert.search.belief
        assert isinstance(b, belief.Belief) and len(b.particles) == 40
        tracked = search.track(obs)
        unseen = rank_counts(tracked.unseen)
        for hands in b.particles:
            assert sorted(hands) == [1, 2]
            assert [hands[1][r] + hands[2][r] for r in range(15)] == unseen
            assert all(sum(hands[s]) == obs.hand_sizes[s] for s in (1, 2))
            particles[0] += 1
            particles[1] += any(has_reply(hands[s], t) for s in (1, 2) for t in tracked.no_reply.get(s, []))
        seen[0] += 1

    _expert_deals(range(6), check)
    assert seen[0] > 15
    assert particles[1] <= 0.02 * particles[0], particles


def test_a_new_deal_starts_a_new_belief() -> None:
    rng = random.Random(1)
    start = runfast_deal(8)
    dealt = {s: rank_counts(counts(list(start.hand(s)))) for s in (1, 2)}
    fresh_made = [0]

    def fresh() -> dict[int, list[int]]:  # the true hands: they explain every turn
        fresh_made[0] += 1
        return {s: list(h) for s, h in dealt.items()}

    first = belief.update(None, 0, [], [16, 16, 16], 5, fresh, rng, {})
    assert fresh_made[0] == 5 and first.read == ()
    played = runfast_deal(8)
    play_out(played, [BasicAgent(8 * 3 + s) for s in range(3)])
    history = played.observation(0).history
    sizes = [16 - sum(c.size for s, c in history[:4] if s == seat and c) for seat in range(3)]
    again = belief.update(first, 0, history[:4], sizes, 5, fresh, rng, {})
    assert again.read == tuple(history[:4]) and fresh_made[0] == 5  # it extends: read, not made anew
    for hands in again.particles:  # the cards played left the players' hands
        assert [sum(hands[s]) for s in (1, 2)] == sizes[1:]
    moved = belief.update(again, 0, history[1:5], sizes, 5, fresh, rng, {})
    assert fresh_made[0] == 10 and moved.read == tuple(history[1:5])  # another history: anew


def test_the_particles_place_more_cards_right_than_fresh_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "PARTICLES", 40)
    rng = random.Random(5)
    right = {"belief": 0, "fresh": 0}
    cards = [0]

    def check(deal: object, expert: ExpertAgent, obs: Observation) -> None:
        b = expert.search.belief
        assert isinstance(b, belief.Belief)
        true = rank_counts(counts(list(deal.hand(1))))  # type: ignore[attr-defined]
        tracked = search.track(obs)
        unseen = rank_counts(tracked.unseen)
        for hands in b.particles:
            other = search.sample_hands(0, list(obs.hand_sizes), unseen, tracked.no_reply, rng)
            right["belief"] += sum(min(hands[1][r], true[r]) for r in range(15))
            right["fresh"] += sum(min(other[1][r], true[r]) for r in range(15))
            cards[0] += obs.hand_sizes[1]

    _expert_deals(range(20), check)
    assert cards[0] > 20_000
    assert right["belief"] > right["fresh"] * 1.02, (right, cards)
