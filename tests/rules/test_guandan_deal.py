"""The Guandan deal state machine: G-1.1, G-1.2, G-2.x, G-4.1 – G-4.3, G-5.6, G-6.1, bad input."""

from __future__ import annotations

import copy

import pytest

from cardavia.cards import CardError, parse_cards
from cardavia.rules.errors import (
    AmbiguousPlay,
    BadInterpretation,
    CardsNotInHand,
    DealOver,
    IllegalPass,
    IllegalPlay,
    NotYourTurn,
)
from cardavia.rules.guandan.deal import GuandanDeal, deal_hands
from cardavia.rules.guandan.match import GuandanMatch
from cardavia.rules.guandan.tribute import partner

from .helpers import gd_deal


def snapshot(deal: GuandanDeal) -> tuple[object, ...]:
    return (
        copy.deepcopy(deal.cnt),
        list(deal.size),
        deal.turn,
        deal.top,
        deal.passes,
        list(deal.places),
        len(deal.events),
        deal.phase,
    )


def test_g_1_1_partners_sit_opposite() -> None:
    assert [partner(s) for s in range(4)] == [2, 3, 0, 1]


def test_g_1_2_turn_order_counter_clockwise() -> None:
    deal = gd_deal("9s Ts", "3s 4s", "5s 6s", "7s 8s", leader=1)
    order = []
    for _ in range(4):
        order.append(deal.turn)
        seat = deal.turn
        assert seat is not None
        deal.play(seat, deal.hand(seat)[:1])
    assert order == [1, 2, 3, 0]


def test_g_2_1_each_player_gets_27_cards() -> None:
    hands, leader = deal_hands(123)
    assert [len(h) for h in hands] == [27, 27, 27, 27]
    assert 0 <= leader <= 3
    pooled = sorted(c.code for h in hands for c in h)
    assert pooled == sorted([c for c in range(54)] * 2)


def test_g_2_3_first_leader_is_random_but_seeded() -> None:
    leaders = {deal_hands(seed)[1] for seed in range(40)}
    assert leaders == {0, 1, 2, 3}


def test_g_2_4_same_seed_same_deal() -> None:
    assert deal_hands(99) == deal_hands(99)
    assert deal_hands(99) != deal_hands(100)
    a = GuandanMatch(seed=5).start_deal()
    b = GuandanMatch(seed=5).start_deal()
    assert a.dealt == b.dealt and a.first_leader == b.first_leader


def test_g_4_1_leader_must_play_followers_may_pass() -> None:
    deal = gd_deal("3s 4s", "5s 6s", "7s 8s", "9s Ts")
    before = snapshot(deal)
    with pytest.raises(IllegalPass, match="leads and cannot pass"):
        deal.pass_turn(0)
    assert snapshot(deal) == before
    deal.play(0, "3s")
    deal.pass_turn(1)  # a follower may pass even holding a higher single
    assert deal.turn == 2


def test_g_4_2_trick_ends_when_the_others_pass() -> None:
    deal = gd_deal("3s 4s", "5s 6s", "7s 8s", "9s Ts")
    deal.play(0, "4s")
    deal.play(1, "5s")
    for seat in (2, 3, 0):
        deal.pass_turn(seat)
    assert deal.top is None and deal.turn == 1  # seat 1 leads a fresh trick


def test_g_4_3_lead_goes_to_partner_when_last_player_finished() -> None:
    deal = gd_deal("As", "3s 4s", "5s 6s", "7s 8s")
    deal.play(0, "As")  # seat 0 finishes on the last play
    assert deal.places == [0]
    for seat in (1, 2, 3):
        deal.pass_turn(seat)
    assert deal.turn == 2  # the partner leads


def test_g_4_3_next_active_when_partner_has_finished_too() -> None:
    deal = gd_deal("As", "3s 4s 5s", "Ks", "7s 8s 9s", leader=2)
    deal.play(2, "Ks")  # seat 2 finishes
    deal.pass_turn(3)
    deal.play(0, "As")  # seat 0 finishes: 1st+2nd for team 0, play goes on (G-6.1)
    assert deal.places == [2, 0] and not deal.over
    deal.pass_turn(1)
    deal.pass_turn(3)
    assert deal.turn == 1  # partner 2 finished: next active after seat 0


def test_g_6_1_deal_ends_at_the_third_finisher() -> None:
    deal = gd_deal("3s", "4s", "5s", "6s 7s")
    deal.play(0, "3s")
    deal.play(1, "4s")
    deal.play(2, "5s")
    assert deal.over
    assert deal.places == [0, 1, 2, 3]
    assert deal.result is not None and deal.result["winner_team"] == 0
    with pytest.raises(DealOver):
        deal.play(3, "6s")


def test_g_4_5_a_play_must_beat_the_trick() -> None:
    deal = gd_deal("9s 9d 3s", "Ts Td Js", "3c 3d", "4c 4d")
    deal.play(0, "9s 9d")
    before = snapshot(deal)
    with pytest.raises(IllegalPlay, match="does not beat"):
        deal.play(1, "Js")
    with pytest.raises(IllegalPlay, match="not a combination"):
        deal.play(1, "Ts Js")
    assert snapshot(deal) == before
    deal.play(1, "Ts Td")


def test_g_5_6_ambiguous_play_needs_an_interpretation() -> None:
    deal = gd_deal("8s 8c 8d 2h 2h 3s", "4s", "5s", "6s")
    before = snapshot(deal)
    with pytest.raises(AmbiguousPlay, match="full_house 8, bomb 8"):
        deal.play(0, "8s 8c 8d 2h 2h")
    with pytest.raises(BadInterpretation, match="cannot be read as straight"):
        deal.play(0, "8s 8c 8d 2h 2h", "straight")
    assert snapshot(deal) == before
    event = deal.play(0, "8s 8c 8d 2h 2h", ("full_house", "8"))
    assert event.combo.describe() == "full_house 8"


def test_g_5_6_interpretation_may_be_left_out_when_only_one_is_legal() -> None:
    deal = gd_deal("3s", "8s 8c 8d 2h 2h", "5s", "6s")
    deal.play(0, "3s")
    played = deal.play(1, "8s 8c 8d 2h 2h")  # over a single only the bomb is legal
    assert played.combo.describe() == "bomb 8 (5 cards)"


def test_g_5_6_interpretation_that_cannot_beat_is_refused() -> None:
    deal = gd_deal("9s 9d 9c 4s 4d", "8s 8c 8d 2h 2h", "5s", "6s")
    deal.play(0, "9s 9d 9c 4s 4d")
    with pytest.raises(IllegalPlay, match="does not beat"):
        deal.play(1, "8s 8c 8d 2h 2h", "full_house")
    assert deal.play(1, "8s 8c 8d 2h 2h", "bomb").combo.is_bomb


def test_bad_input_is_refused_and_changes_nothing() -> None:
    deal = gd_deal("3s 4s 5s", "6s 7s", "8s 9s", "Ts Js")
    before = snapshot(deal)
    with pytest.raises(NotYourTurn, match="seat 0's turn"):
        deal.play(1, "6s")
    with pytest.raises(CardsNotInHand, match="does not hold 6s"):
        deal.play(0, "6s")
    with pytest.raises(CardsNotInHand, match="3s 2 times"):
        deal.play(0, "3s 3s")
    with pytest.raises(CardError):
        deal.play(0, "3x")
    with pytest.raises(IllegalPlay, match="at least one card"):
        deal.play(0, [])
    with pytest.raises(NotYourTurn, match="does not exist"):
        deal.play(7, "3s")
    assert snapshot(deal) == before


def test_fold_of_the_event_log_rebuilds_the_deal() -> None:
    match = GuandanMatch(seed=11)
    deal = match.start_deal()
    deal.play(deal.turn or 0, deal.hand(deal.turn or 0)[:1])
    rebuilt = GuandanDeal.from_events(deal.events)
    assert snapshot(rebuilt) == snapshot(deal)


def test_match_object_plays_levels_forward() -> None:
    """G-1.5: the next deal is played at the winners' promoted level."""
    match = GuandanMatch(seed=1)
    deal = match.start_deal()
    # force a quick finish by replaying a scripted result through the public settle path
    settlement = deal.settle([1, 3, 0, 2])
    assert settlement.levels == (2, 5) and settlement.next_level == 5


def test_cards_parse_for_hands() -> None:
    assert len(parse_cards("3s 4s")) == 2
