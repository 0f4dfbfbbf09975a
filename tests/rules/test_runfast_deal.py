"""The Run Fast deal state machine (R-1 – R-3, R-5.4, R-5.6)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from cardavia.cards import Card, CardError, parse_cards, runfast_deck
from cardavia.events import DealEnded, event_from_json, event_to_json
from cardavia.observation import observation
from cardavia.rules.combo import ComboType
from cardavia.rules.errors import (
    BadInterpretation,
    CardsNotInHand,
    DealOver,
    IllegalPass,
    IllegalPlay,
    NotYourTurn,
    RulesError,
)
from cardavia.rules.runfast.deal import RunFastDeal, deal_hands
from cardavia.rules.runfast.session import RunFastSession


def make(*hands: str) -> RunFastDeal:
    return RunFastDeal.start([parse_cards(t) for t in hands])


def snapshot(deal: RunFastDeal) -> tuple[Any, ...]:
    return (
        len(deal.events),
        [deal.hand(s) for s in range(3)],
        deal.turn,
        deal.top,
        deal.top_seat,
        deal.passes,
        list(deal.bomb_bonuses),
        deal.standing_bomb,
        deal.is_opening,
        list(deal.played_any),
    )


# --------------------------------------------------------------------------- R-2 setup


def test_r_2_1_the_pack_has_48_cards() -> None:
    """R-2.1: 3–K four times each, `As Ac Ad`, and `2s`; no jokers, no `Ah`, no other 2."""
    deck = runfast_deck()
    by_rank = Counter(c.rank.symbol for c in deck)
    assert len(deck) == 48 and len(set(deck)) == 48
    assert all(by_rank[r] == 4 for r in "3456789TJQK")
    assert sorted(str(c) for c in deck if c.rank.symbol == "A") == ["Ac", "Ad", "As"]
    assert [str(c) for c in deck if c.rank.symbol == "2"] == ["2s"]


def test_r_2_2_sixteen_cards_each_no_kitty() -> None:
    """R-2.2: every card of the pack is dealt, 16 to each seat."""
    for seed in range(20):
        hands, _ = deal_hands(seed)
        assert [len(x) for x in hands] == [16, 16, 16]
        assert sorted(c.code for x in hands for c in x) == sorted(c.code for c in runfast_deck())
    assert deal_hands(5) == deal_hands(5)
    assert deal_hands(5) != deal_hands(6)


def test_r_2_3_holder_of_3h_leads_and_must_include_it() -> None:
    """R-2.3: the holder of `3h` leads first; the opening play must include `3h`."""
    for seed in range(10):
        hands, leader = deal_hands(seed)
        assert Card.parse("3h") in hands[leader]
        deal = RunFastDeal.start(hands, seed=seed)
        assert deal.turn == leader == deal.first_leader
        assert deal.is_opening and str(deal.must_include) == "3h"
        obs = observation(deal, leader)
        assert obs.opening and str(obs.must_include) == "3h"


def test_r_2_3_opening_play_without_3h_is_refused_and_changes_nothing() -> None:
    """R-2.3: an opening play without `3h` is refused (IllegalPlay), state unchanged."""
    deal = make("3h 4s 5s 6s 7s 8s 9s", "Ts", "Js")
    before = snapshot(deal)
    with pytest.raises(IllegalPlay, match="must include 3h"):
        deal.play(0, "9s")
    with pytest.raises(IllegalPlay, match="must include 3h"):
        deal.play(0, "4s 5s 6s 7s 8s")
    assert snapshot(deal) == before
    deal.play(0, "3h 4s 5s 6s 7s")
    assert not deal.is_opening and deal.must_include is None


def test_r_2_3_start_needs_someone_holding_3h() -> None:
    """R-2.3: a deal without `3h` has no first leader and is refused."""
    with pytest.raises(RulesError, match="3h"):
        make("9s", "Ts", "Js")


def test_r_2_1_start_refuses_cards_outside_the_pack() -> None:
    """R-2.1: dealt hands must come from the 48-card pack, each card once."""
    with pytest.raises(CardError, match="Ah"):
        make("3h", "Ah", "Js")
    with pytest.raises(CardError, match="2d"):
        make("3h", "2d", "Js")
    with pytest.raises(CardError, match="appears 2 times"):
        make("3h 9s", "9s", "Js")
    with pytest.raises(RulesError, match="3 hands"):
        make("3h", "9s")
    with pytest.raises(RulesError, match="no cards"):
        make("3h", "", "Js")


# --------------------------------------------------------------------------- R-3 turns


def test_r_3_1_turn_order_is_0_1_2() -> None:
    """R-3.1: play runs seat 0 → 1 → 2 → 0."""
    deal = make("5s 6s", "3h 8s 9s", "Ts Js Qs")
    assert deal.turn == 1
    deal.play(1, "3h")
    assert deal.turn == 2
    deal.play(2, "Ts")
    assert deal.turn == 0
    with pytest.raises(NotYourTurn):
        deal.play(2, "Js")


def test_r_3_4_pass_refused_while_a_reply_exists() -> None:
    """R-3.4: a follower holding any reply may not pass (IllegalPass), state unchanged."""
    deal = make("3h 9s", "4s Ks", "5s Qs")
    deal.play(0, "3h")
    before = snapshot(deal)
    with pytest.raises(IllegalPass, match="must beat single 3"):
        deal.pass_turn(1)
    assert snapshot(deal) == before
    obs = observation(deal, 1)
    assert not obs.can_pass


def test_r_3_4_must_beat_with_a_bomb_when_it_is_the_only_reply() -> None:
    """R-3.4: bombs included — the only reply is a bomb, so passing is refused."""
    deal = make("3h Ks 9s", "7s 7h 7c 7d 5s", "8s 9d")
    deal.play(0, "3h")
    deal.play(1, "5s")
    deal.play(2, "9d")
    deal.play(0, "Ks")
    with pytest.raises(IllegalPass, match=r"7s 7h 7c 7d \(bomb 7"):
        deal.pass_turn(1)
    assert [p.describe() for p in deal.move_patterns(1)] == ["bomb 7 (4 cards)"]
    deal.play(1, "7s 7h 7c 7d")
    assert deal.over and deal.result is not None and deal.result["winner"] == 1


def test_r_3_4_pass_allowed_only_when_no_reply() -> None:
    """R-3.4: with no reply the follower may (must) pass; the leader never may."""
    deal = make("3h 2s 9s", "4s 5s", "6s 7s")
    with pytest.raises(IllegalPass, match="leads and cannot pass"):
        deal.pass_turn(0)
    deal.play(0, "3h")
    deal.play(1, "5s")
    deal.play(2, "7s")
    deal.play(0, "2s")
    assert observation(deal, 1).can_pass
    deal.pass_turn(1)
    deal.pass_turn(2)
    assert deal.turn == 0 and deal.top is None


def test_r_3_5_after_two_passes_the_last_player_leads_again() -> None:
    """R-3.5: when both opponents have passed, the player who made the last play leads."""
    deal = make("3h 3s 9d", "4s Ks", "5s Qs")
    deal.play(0, "3h 3s")
    deal.pass_turn(1)
    assert deal.turn == 2
    deal.pass_turn(2)
    assert deal.turn == 0 and deal.leading and deal.top is None
    with pytest.raises(IllegalPass):
        deal.pass_turn(0)


def test_r_3_3_a_reply_that_does_not_beat_is_refused() -> None:
    """R-3.3: a reply of another type/size or a lower rank is refused, state unchanged."""
    deal = make("3h 3s 9d", "4s 4d Ks", "5s Qs")
    deal.play(0, "3h 3s")
    before = snapshot(deal)
    with pytest.raises(IllegalPlay, match="does not beat pair 3"):
        deal.play(1, "Ks")
    with pytest.raises(IllegalPlay, match="not a combination"):
        deal.play(1, "4s Ks")
    with pytest.raises(CardsNotInHand, match="does not hold 5s"):
        deal.play(1, "5s")
    with pytest.raises(NotYourTurn):
        deal.play(2, "5s")
    with pytest.raises(IllegalPlay):
        deal.play(1, [])
    assert snapshot(deal) == before


# ---------------------------------------------------------------------------


def test_r_1_1_first_player_out_wins_and_the_deal_is_settled_at_once() -> None:
    """R-1.1 / R-5: the first player out wins; the others keep their cards and pay."""
    deal = make("3h Ks", "4s 9s", "5s 6s")
    deal.play(0, "3h")
    deal.play(1, "9s")
    deal.pass_turn(2)
    deal.play(0, "Ks")
    assert deal.over and deal.places == [0]
    assert deal.result == {
        "winner": 0,
        "scores": [5, -1, -4],  # seat 1: one card; seat 2 never played: two cards doubled
        "bomb_bonuses": [],
        "never_played": [2],
    }
    assert deal.hand(1) == parse_cards("4s") and len(deal.hand(2)) == 2
    with pytest.raises(DealOver):
        deal.play(1, "4s")
    assert isinstance(deal.events[-1], DealEnded)


def test_r_4_4_heavenly_bomb_opening_cannot_be_answered_and_earns_no_bonus() -> None:
    """R-4.4 / R-5.4: four 3s as the opening play: nobody can beat them; no bonus."""
    deal = make("3s 3h 3c 3d 9s", "As Ac Ad Ks", "Kh Kc Kd Qs")
    with pytest.raises(BadInterpretation, match="heavenly_bomb"):
        deal.play(0, "3s 3h 3c 3d", ("bomb", "3"))
    deal.play(0, "3s 3h 3c 3d")
    assert deal.top is not None and deal.top.type == ComboType.HEAVENLY_BOMB
    assert observation(deal, 1).can_pass
    deal.pass_turn(1)
    deal.pass_turn(2)
    deal.play(0, "9s")
    assert deal.result is not None
    assert deal.result["bomb_bonuses"] == []
    # seats 1 and 2 never played: 4 cards doubled; seat 1 also holds the ace bomb
    assert deal.result["scores"] == [8 + 10 + 8, -(8 + 10), -8]


# --------------------------------------------------------------------------- bonuses


def test_r_5_4_bomb_bonus_won() -> None:
    """R-5.4: a bomb replying over another's cards, unbeaten in the trick, earns 20."""
    deal = make("3h 9s", "4s 4h 4c 4d 5s", "6s 7s")
    deal.play(0, "3h")
    deal.play(1, "4s 4h 4c 4d")
    assert deal.standing_bomb == 1 and deal.bomb_bonuses == []
    deal.pass_turn(2)
    deal.pass_turn(0)
    assert deal.bomb_bonuses == [1]
    assert observation(deal, 0).extra == {"bomb_bonuses": [1]}
    deal.play(1, "5s")
    assert deal.result == {
        "winner": 1,
        "scores": [-1 - 10, 1 + 4 + 20, -4 - 10],
        "bomb_bonuses": [1],
        "never_played": [2],
    }


def test_r_5_4_bomb_bonus_lost_to_a_bigger_bomb_in_the_same_trick() -> None:
    """R-5.4 decision: a bomb beaten later in the trick earns nothing; the beater may."""
    deal = make("3h 9s", "4s 4h 4c 4d 5s", "8s 8h 8c 8d 6s 7s")
    deal.play(0, "3h")
    deal.play(1, "4s 4h 4c 4d")
    deal.play(2, "8s 8h 8c 8d")  # forced: the only reply
    assert deal.standing_bomb == 2
    deal.pass_turn(0)
    deal.pass_turn(1)
    assert deal.bomb_bonuses == [2]
    deal.play(2, "6s")
    deal.play(0, "9s")
    assert deal.result is not None
    assert deal.result["bomb_bonuses"] == [2]
    assert deal.result["scores"] == [2 - 10, -1 - 10, -1 + 20]


def test_r_5_4_ace_bomb_over_a_bomb_takes_the_bonus() -> None:
    """R-5.4 / R-4.3: three aces over a four-card bomb take the trick's bonus."""
    deal = make("3h As Ac Ad 9s", "Ks Kh Kc Kd 5s", "6s 7s")
    deal.play(0, "3h")
    deal.play(1, "Ks Kh Kc Kd")
    assert deal.standing_bomb == 1
    deal.pass_turn(2)
    with pytest.raises(IllegalPass, match="must beat bomb K"):
        deal.pass_turn(0)
    deal.play(0, "As Ac Ad")
    assert deal.standing_bomb == 0
    deal.pass_turn(1)
    deal.pass_turn(2)
    assert deal.bomb_bonuses == [0]


def test_r_5_4_led_bomb_earns_no_bonus() -> None:
    """R-5.4: a bomb led into a fresh trick earns nothing."""
    deal = make("3h 3s 7s 7h 7c 7d 9d", "4s 6c", "5s 8c")
    deal.play(0, "3h 3s")
    deal.pass_turn(1)
    deal.pass_turn(2)
    deal.play(0, "7s 7h 7c 7d")
    assert deal.standing_bomb is None
    deal.pass_turn(1)
    deal.pass_turn(2)
    assert deal.bomb_bonuses == []
    deal.play(0, "9d")
    assert deal.result is not None
    assert deal.result["bomb_bonuses"] == []
    assert deal.result["scores"] == [8, -4, -4]  # both never played: 2 cards doubled


def test_r_5_4_finishing_bomb_settles_its_bonus_immediately() -> None:
    """R-5.4: a bomb that is the bomber's last cards earns its bonus with the deal."""
    deal = make("3h 9s", "4s 4h 4c 4d", "6s 7s")
    deal.play(0, "3h")
    deal.play(1, "4s 4h 4c 4d")
    assert deal.over and deal.result is not None
    assert deal.result["bomb_bonuses"] == [1]
    assert deal.result["scores"] == [-1 - 10, 1 + 4 + 20, -4 - 10]
    assert deal.bomb_bonuses == [1]


def test_r_5_5_each_deal_sums_to_zero_and_replays_from_its_events() -> None:
    """R-5.5: a finished deal's scores sum to zero; the event log rebuilds the deal."""
    deal = make("3h 9s", "4s 4h 4c 4d 5s", "8s 8h 8c 8d 6s 7s")
    for action in [(0, "3h"), (1, "4s 4h 4c 4d"), (2, "8s 8h 8c 8d")]:
        deal.play(*action)
    deal.pass_turn(0)
    deal.pass_turn(1)
    deal.play(2, "6s")
    deal.play(0, "9s")
    assert deal.result is not None and sum(deal.result["scores"]) == 0
    logged = [event_from_json(event_to_json(e)) for e in deal.events]
    again = RunFastDeal.from_events(logged)
    assert again.result == deal.result
    assert again.bomb_bonuses == deal.bomb_bonuses
    assert [again.hand(s) for s in range(3)] == [deal.hand(s) for s in range(3)]


# --------------------------------------------------------------------------- session


def test_r_5_6_session_keeps_a_running_total() -> None:
    """R-5.6: deal after deal, each settled as above, with a running total per seat."""
    session = RunFastSession(seed=11)
    totals = [0, 0, 0]
    seeds = []
    for _ in range(3):
        deal = session.start_deal()
        seeds.append(deal.seed)
        with pytest.raises(RulesError, match="not over"):
            session.start_deal()
        _play_out(deal)
        scores = session.finish_deal()
        totals = [a + b for a, b in zip(totals, scores, strict=True)]
        assert session.totals == totals
        with pytest.raises(RulesError, match="already settled"):
            session.finish_deal()
    assert sum(session.totals) == 0
    assert len(set(seeds)) == 3
    assert seeds == [RunFastSession.deal_seed(11, i) for i in range(3)]
    assert [d.deal_index for d in session.finished] == [0, 1, 2]


def test_r_5_6_session_needs_the_finished_deal_settled() -> None:
    """R-5.6: a finished deal is added to the totals before the next deal starts."""
    session = RunFastSession(seed=2)
    with pytest.raises(RulesError, match="no finished deal"):
        session.finish_deal()
    _play_out(session.start_deal())
    with pytest.raises(RulesError, match="finish_deal"):
        session.start_deal()
    session.finish_deal()
    assert session.start_deal(seed=99).seed == 99


def _play_out(deal: RunFastDeal) -> None:
    """Play the lowest legal move (or pass) until the deal ends."""
    from cardavia.rules.runfast.moves import concretize

    while not deal.over:
        seat = deal.turn
        assert seat is not None
        found = deal.move_patterns(seat)
        if found:
            deal.play_combo(seat, concretize(found[0], deal.cnt[seat], deal.is_opening))
        else:
            deal.pass_turn(seat)
