"""Faithful Guandan rollouts (:mod:`cardavia.ai.guandan.faithful`): with every seat on
``basic``'s defaults, a play-out on the true hands is the deal the engine plays with four
``basic`` agents — the same finishing order, so the same value (G-4 trick rules, G-6.1)."""

from __future__ import annotations

import pytest

from cardavia.ai import make_agent
from cardavia.ai.guandan import basic, faithful
from cardavia.ai.guandan.value import PLAIN, outcome, value_for
from cardavia.ai.runner import guandan_deal, play_out
from cardavia.cards import counts


@pytest.mark.parametrize("seed", range(8))
def test_a_play_out_by_basic_is_the_engines_deal_by_basic(seed: int) -> None:
    deal = guandan_deal(9100 + seed)
    obs = deal.observation(deal.to_act()[0])
    assert obs.level is not None
    hands = [counts(deal.observation(s).hand) for s in range(4)]
    leader = obs.seat
    played = play_out(deal, [make_agent("basic", s) for s in range(4)])
    truth = value_for(PLAIN, outcome(played.places), 0)
    for me in (0, 1):
        got = faithful.play_out(
            hands, obs.level, turn=leader, top=None, top_seat=None, passes=0, places=[], me=me,
            first=False, team=basic.GdConfig(),
        )
        assert got == (truth if me == 0 else -truth)


def test_a_shortened_play_out_stops_with_the_state_reached() -> None:
    deal = guandan_deal(9200)
    obs = deal.observation(deal.to_act()[0])
    assert obs.level is not None
    hands = [counts(deal.observation(s).hand) for s in range(4)]
    got = faithful.play_out(
        hands, obs.level, turn=obs.seat, top=None, top_seat=None, passes=0, places=[], me=0,
        first=False, turns=6,
    )
    assert isinstance(got, faithful.State)
    assert [sum(h) for h in got.hands] == got.sizes
    assert sum(got.sizes) < 108  # the leader played at least once
    assert hands == [counts(deal.observation(s).hand) for s in range(4)]  # the input is not changed
