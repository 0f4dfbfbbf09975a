"""Match-aware values of the Guandan search (G-1.3, G-1.4, G-1.6): what a finish is worth
depends on the teams' levels, in the value table, the rollouts and the endgame solver."""

from __future__ import annotations

from cardavia.ai.guandan.endgame import solve
from cardavia.ai.guandan.search import SimUnit, rollout
from cardavia.ai.guandan.value import MATCH_VALUE, PLAIN, Values, outcome, outcome_values, value_for
from cardavia.cards import counts, parse_cards
from cardavia.rules.combo import ComboType, Pattern


def test_g_1_3_levels_of_a_finish() -> None:
    assert outcome([0, 2]) == (0, 3)
    assert outcome([1, 0, 3]) == (1, 2)
    assert outcome([2, 1, 3]) == (0, 1)  # 1st and 4th
    assert outcome([3]) is None and outcome([]) is None
    assert [value_for(PLAIN, (0, adv), me=0) for adv in (1, 2, 3)] == [1.5, 2.0, 2.5]
    assert value_for(PLAIN, (0, 3), me=1) == -2.5


def test_g_1_4_gains_stop_at_the_ace() -> None:
    values = outcome_values((13, 12), 13)  # team 0 on K, team 1 on Q
    assert values[0][1:] == (1.5, 1.5, 1.5)  # K → A whatever the partner's place
    assert values[1][1:] == (1.5, 2.0, 2.0)  # Q → K or A
    assert outcome_values((5, 7), 5)[0][1:] == PLAIN[0][1:]  # far from A: every level counts


def test_g_1_6_the_match_at_the_ace() -> None:
    at_a = outcome_values((14, 9), 14)
    assert at_a[0] == (1.0, 1.0, MATCH_VALUE, MATCH_VALUE)  # 1st+4th: the deal only
    assert at_a[1][1:] == (1.5, 2.0, 2.5)  # the other team still climbs
    # at A but the deal played at the other team's level: no match to win (G-1.6)
    assert outcome_values((14, 9), 9)[0][1:] == (1.0, 1.0, 1.0)
    assert max(PLAIN[0]) < MATCH_VALUE


def test_the_endgame_solver_values_the_match() -> None:
    # seat 0 goes out with its pair, then seat 3's 6 beats the partner's singles: 1st+4th
    hands = [counts(parse_cards(h)) for h in ("Ks Kd", "3s", "4s 5d", "6s")]
    at_a = outcome_values((14, 9), 14)

    def value(values: Values = PLAIN) -> float | None:
        return solve(
            hands, 14, turn=0, top=None, top_seat=None, passes=0, places=[], me=0, values=values
        )

    assert value() == 1.5
    assert value(at_a) == 1.0
    hands[2] = counts(parse_cards("4s 4d"))  # now the partner follows out 2nd: the match
    assert value(at_a) == MATCH_VALUE


def test_the_rollout_values_the_match() -> None:
    def single(rank: int) -> SimUnit:
        p = Pattern(ComboType.SINGLE, rank, 1, 0, rank, ((rank, 1),), -1, 0)
        return SimUnit(p, 0.0, False)

    def play(values: Values) -> float:
        # seat 0 leads its last card (an ace), seat 2 then goes out with its king: 1st+2nd
        units = [[single(14)], [single(3), single(4)], [single(13)], [single(5), single(6)]]
        return rollout(units, [1, 2, 1, 2], 0, None, None, 0, [], 0, False, values=values)

    assert play(PLAIN) == 2.5
    assert play(outcome_values((14, 14), 14)) == MATCH_VALUE
    assert play(outcome_values((13, 13), 13)) == 1.5
