"""Tribute, anti-tribute, return and leader: G-3.1 – G-3.7."""

from __future__ import annotations

import pytest

from cardavia.cards import parse_cards
from cardavia.rules.errors import IllegalPlay, NotYourTurn, RulesError
from cardavia.rules.guandan.deal import GuandanDeal
from cardavia.rules.guandan.tribute import plan_tribute, return_eligible, tribute_card


def hands(*texts: str) -> list[list]:  # type: ignore[type-arg]
    return [parse_cards(t) for t in texts]


def test_g_3_1_single_tribute_last_pays_first() -> None:
    plan = plan_tribute([1, 0, 3, 2], hands("3s", "4s", "As 5d", "6s"), level=2)
    assert [(t.giver, t.receiver, str(t.card)) for t in plan.tributes] == [(2, 1, "As")]
    assert plan.returns == ((1, 2),)


def test_g_3_1_last_place_pays_even_when_it_is_the_winners_partner() -> None:
    """Decision of G-3.1: a 1st+4th result, the partner (last) pays 1st place."""
    plan = plan_tribute([0, 1, 3, 2], hands("3s", "4s", "Ks", "6s"), level=2)
    assert [(t.giver, t.receiver) for t in plan.tributes] == [(2, 0)]
    assert plan.leader == 2


def test_g_3_1_double_win_both_opponents_pay() -> None:
    plan = plan_tribute([0, 2], hands("3s", "Ks", "4s", "Qs"), level=2)
    assert sorted(t.giver for t in plan.tributes) == [1, 3]


def test_g_3_2_strongest_card_excluding_wild_hearts() -> None:
    # level 9: 9h is wild (excluded); 9d is the level rank, above the ace
    assert str(tribute_card(parse_cards("9h As 9d 3s"), 9)) == "9d"
    assert str(tribute_card(parse_cards("9h As 3s"), 9)) == "As"
    assert str(tribute_card(parse_cards("BJ RJ As"), 9)) == "RJ"


def test_g_3_2_equal_candidates_give_a_fixed_suit() -> None:
    """Decision of G-3.2: among equal cards the suit order s, h, c, d decides."""
    assert str(tribute_card(parse_cards("Ad Ac Ah"), 5)) == "Ah"
    assert str(tribute_card(parse_cards("Ad Ac As"), 5)) == "As"


def test_g_3_3_higher_tribute_to_first_place() -> None:
    plan = plan_tribute([0, 2], hands("3s", "Ks 3d", "4s", "BJ 4d"), level=2)
    assert {(t.giver, t.receiver, str(t.card)) for t in plan.tributes} == {
        (3, 0, "BJ"),
        (1, 2, "Ks"),
    }
    assert plan.leader == 3


def test_g_3_3_equal_tributes_in_turn_order_from_first_place() -> None:
    # first place is seat 2: the first payer after seat 2 in turn order is seat 3
    plan = plan_tribute([2, 0], hands("3s", "Ks", "4s", "Kd"), level=2)
    assert {(t.giver, t.receiver) for t in plan.tributes} == {(3, 2), (1, 0)}
    assert plan.leader == 3


def test_g_3_4_anti_tribute_single_payer_holds_both_red_jokers() -> None:
    plan = plan_tribute([0, 1, 2, 3], hands("3s", "4s", "5s", "RJ RJ 6s"), level=2)
    assert plan.cancelled and plan.tributes == () and plan.leader == 0


def test_g_3_4_anti_tribute_red_jokers_split_between_payers() -> None:
    plan = plan_tribute([0, 2], hands("3s", "RJ 4s", "5s", "RJ 6s"), level=2)
    assert plan.cancelled and plan.leader == 0


def test_g_3_4_one_red_joker_does_not_cancel() -> None:
    plan = plan_tribute([0, 2], hands("RJ", "RJ 4s", "5s", "BJ 6s"), level=2)
    assert not plan.cancelled


def test_g_3_5_return_eligible_cards() -> None:
    # level 7: 7h wild excluded; 7s (non-heart level rank, in 2–T) allowed; J and above not
    cards = parse_cards("7h 7s 5d Jc As Ts")
    assert [str(c) for c in return_eligible(cards, 7)] == ["5d", "7s", "Ts"]


def test_g_3_5_return_with_no_two_to_ten_card() -> None:
    cards = parse_cards("Js Qd As BJ 2h")
    assert [str(c) for c in return_eligible(cards, 2)] == ["Js"]


def test_g_3_6_and_g_3_7_tribute_deal_flow() -> None:
    deal = GuandanDeal.start(
        hands("3s 4s Ks", "5s 6s As", "7s 8s 9s", "Ts Js BJ"),
        2,
        previous_places=[0, 2, 1, 3],
    )
    assert deal.phase == "tribute"
    # double win: seat 3 pays BJ to 0, seat 1 pays As to 2
    assert [(t.giver, t.receiver, str(t.card)) for t in deal.tributes] == [(3, 0, "BJ"), (1, 2, "As")]
    with pytest.raises(NotYourTurn):
        deal.play(0, "3s")
    with pytest.raises(IllegalPlay, match="may not be returned"):
        deal.return_card(0, parse_cards("BJ")[0])
    with pytest.raises(NotYourTurn, match="owes no return"):
        deal.return_card(1, parse_cards("5s")[0])
    deal.return_card(2, parse_cards("7s")[0])
    deal.return_card(0, parse_cards("3s")[0])
    assert deal.phase == "play"
    assert deal.turn == 3  # received the return from 1st place
    assert sorted(map(str, deal.hand(3))) == sorted(["Ts", "Js", "3s"])


def test_places_must_be_consistent() -> None:
    with pytest.raises(RulesError, match="not partners"):
        plan_tribute([0, 1], hands("3s", "4s", "5s", "6s"), level=2)
    with pytest.raises(RulesError, match="distinct seats"):
        plan_tribute([0, 0, 1, 2], hands("3s", "4s", "5s", "6s"), level=2)
