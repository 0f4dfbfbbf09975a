"""Levels and the match: G-1.3 – G-1.8, G-6.2, G-6.3."""

from __future__ import annotations

import pytest

from cardavia.rules.errors import RulesError
from cardavia.rules.guandan.match import GuandanMatch, settle_deal


@pytest.mark.parametrize(("places", "advance"), [([0, 2, 1, 3], 3), ([0, 1, 2, 3], 2), ([0, 1, 3, 2], 1)])
def test_g_1_3_advance_by_partners_place(places: list[int], advance: int) -> None:
    s = settle_deal([2, 2], 2, places)
    assert s.winner_team == 0 and s.advance == advance and s.levels == (2 + advance, 2)


def test_g_1_4_separate_levels_capped_at_ace() -> None:
    s = settle_deal([5, 13], 13, [1, 3, 0, 2])
    assert s.levels == (5, 14) and s.next_level == 14


def test_g_1_5_next_deal_at_the_winners_level() -> None:
    s = settle_deal([9, 4], 9, [3, 0, 2, 1])  # team 1 wins with partner 4th
    assert s.levels == (9, 5) and s.next_level == 5


def test_g_1_6_match_won_at_ace() -> None:
    assert settle_deal([14, 9], 14, [0, 2, 1, 3]).match_winner == 0
    assert settle_deal([14, 9], 14, [2, 1, 0, 3]).match_winner == 0


def test_g_1_6_not_won_at_ace_with_partner_last() -> None:
    s = settle_deal([14, 9], 14, [0, 1, 3, 2])
    assert s.match_winner is None and s.levels == (14, 9) and s.next_level == 14


def test_g_1_6_not_won_in_a_deal_played_at_another_level() -> None:
    s = settle_deal([14, 9], 9, [0, 2, 1, 3])
    assert s.match_winner is None and s.levels == (14, 9) and s.next_level == 14


def test_g_1_6_not_won_when_reaching_ace_this_deal() -> None:
    s = settle_deal([12, 9], 12, [0, 2, 1, 3])
    assert s.match_winner is None and s.levels == (14, 9)


def test_settle_refuses_impossible_situations() -> None:
    with pytest.raises(RulesError, match="neither team's level"):
        settle_deal([2, 5], 7, [0, 2, 1, 3])
    with pytest.raises(RulesError, match="not partners"):
        settle_deal([2, 2], 2, [0, 1])


def test_g_1_7_restart_resets_levels_and_discards_the_deal() -> None:
    match = GuandanMatch(seed=3)
    match.start_deal()
    match.levels = [7, 4]
    match.restart()
    assert match.levels == [2, 2] and match.deal is None and match.deal_level == 2
    assert match.start_deal().phase == "play"  # a fresh first deal: no tribute


def test_g_1_8_and_g_6_2_bombs_give_no_extra_points() -> None:
    # settle only looks at places: the same places give the same levels whatever was played
    assert settle_deal([2, 2], 2, [0, 2, 1, 3]) == settle_deal([2, 2], 2, [0, 2, 3, 1])


def test_g_6_3_the_match_continues_with_tribute_until_won_then_restarts() -> None:
    from cardavia.ai import make_agent
    from cardavia.ai.runner import play_out

    match = GuandanMatch(seed=21)
    agents = [make_agent("random", s) for s in range(4)]
    deal = match.start_deal()
    assert deal.phase == "play" and not deal.tributes  # first deal: random leader, no tribute
    played = 0
    for _ in range(60):
        play_out(deal, agents)
        played += 1
        settlement = match.finish_deal()
        if settlement.match_winner is not None:
            break
        deal = match.start_deal()
        assert deal.level == settlement.next_level  # G-1.5
        assert deal.tributes or deal.tribute_cancelled  # G-3 on every later deal
    else:
        raise AssertionError("no match was won in 60 random deals")
    assert played >= 4  # levels climb from 2 to A over several deals
    fresh = match.start_deal()  # a new match (selfplay's "restarting at level 2")
    assert match.levels == [2, 2] and fresh.level == 2 and not fresh.tributes
