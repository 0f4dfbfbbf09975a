"""Run Fast settlement (R-5.1 – R-5.5)."""

from __future__ import annotations

import pytest

from cardavia.cards import Card, CardError, parse_cards
from cardavia.rules.errors import RulesError
from cardavia.rules.runfast.settlement import payment, settle, unplayed_bombs


def h(text: str) -> list[Card]:
    return parse_cards(text)


def test_r_5_1_one_point_per_card() -> None:
    """R-5.1: each opponent pays the winner 1 point per card still in hand."""
    assert settle(2, [h("5s 6s 7d"), h("9c"), []], [], []) == [-3, -1, 4]


def test_r_5_1_never_played_pays_double() -> None:
    """R-5.1: an opponent who never played a card pays double for the cards."""
    assert settle(0, [[], h("5s 6s 7d"), h("9c")], [1], []) == [7, -6, -1]


def test_r_5_1_doubling_applies_to_the_card_count_only() -> None:
    """R-5.1: the 2s and bomb penalties are not doubled."""
    assert payment(h("2s 5s 5h 5c 5d"), never_played=True) == 5 * 2 + 10 + 10
    assert payment(h("2s 5s 5h 5c 5d"), never_played=False) == 5 + 10 + 10


def test_r_5_2_holding_the_2s_costs_10() -> None:
    """R-5.2: an opponent still holding `2s` pays 10 more."""
    assert settle(1, [h("2s"), [], h("3s")], [], []) == [-11, 12, -1]


def test_r_5_3_each_unplayed_bomb_costs_10() -> None:
    """R-5.3: +10 per bomb still held: each rank held four times, and the three aces."""
    assert unplayed_bombs(h("4s 4h 4c 4d 9s 9h 9c 9d As Ac Ad")) == 3
    assert unplayed_bombs(h("As Ac 4s 4h 4c")) == 0
    assert unplayed_bombs(h("3s 3h 3c 3d")) == 1  # four 3s in hand are a bomb too
    assert settle(0, [[], h("4s 4h 4c 4d As Ac Ad"), h("Ks")], [], []) == [28, -27, -1]


def test_r_5_4_bomb_bonus_pays_20_from_both_opponents() -> None:
    """R-5.4: each bomb bonus gives its seat 20, 10 from each opponent; once per bonus."""
    assert settle(0, [[], h("5s"), h("6s")], [], [2]) == [-8, -11, 19]
    assert settle(0, [[], h("5s"), h("6s")], [], [2, 2, 0]) == [2 + 20 - 20, -1 - 30, -1 + 30]


def test_r_5_5_settlements_sum_to_zero() -> None:
    """R-5.5: every settlement sums to zero, whatever the hands and bonuses."""
    cases = [
        (0, [[], h("2s 3s 3h 3c 3d"), h("As Ac Ad Ks")], [1, 2], []),
        (1, [h("9s"), [], h("Ts Js Qs")], [2], [0, 1, 1]),
        (2, [h("4s 4h 4c 4d 5s 5h 5c 5d"), h("6s"), []], [], [1]),
    ]
    for winner, hands, never, bonuses in cases:
        assert sum(settle(winner, hands, never, bonuses)) == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, [h("5s"), h("6s"), h("7s")], [], []), "the winner, seat 0, still holds"),
        ((3, [[], h("6s"), h("7s")], [], []), "winner 3 is not a seat"),
        ((0, [[], h("6s")], [], []), "settles 3 hands, got 2"),
        ((0, [[], h("6s"), h("7s")], [5], []), "never-played seat 5"),
        ((0, [[], h("6s"), h("7s")], [0], []), "won, so it cannot have never played"),
        ((0, [[], h("6s"), h("7s")], [], [-1]), "bomb-bonus seat -1"),
        ((0, [[], h("6s"), h("7s")], [1], [1]), "earned a bomb bonus"),
    ],
)
def test_r_5_settle_refuses_impossible_input(
    args: tuple[int, list[list[Card]], list[int], list[int]], message: str
) -> None:
    """R-5: impossible settlement input raises a RulesError with one clear sentence."""
    with pytest.raises(RulesError, match=message):
        settle(*args)


def test_r_5_settle_refuses_cards_outside_the_pack() -> None:
    """R-2.1 / R-5: hands must come from the 48-card pack, each card once."""
    with pytest.raises(CardError, match="Ah"):
        settle(0, [[], h("Ah"), h("7s")], [], [])
    with pytest.raises(CardError, match="7s appears 2 times"):
        settle(0, [[], h("7s"), h("7s")], [], [])
