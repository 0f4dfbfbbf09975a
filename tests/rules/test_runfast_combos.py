"""Run Fast combinations and comparison (rules.md R-2.1, R-3.2, R-3.3, R-4.1 – R-4.4)."""

from __future__ import annotations

import doctest
from itertools import pairwise

import pytest

from cardavia.cards import CardError, Rank, parse_cards, runfast_deck
from cardavia.rules import runfast
from cardavia.rules.combo import Combo, ComboType, beats
from cardavia.rules.runfast import combos, deal, moves, settlement
from cardavia.rules.runfast.combos import classify, readings_of


def one(text: str, opening: bool = False) -> Combo:
    found = classify(text, opening)
    assert len(found) == 1, f"{text!r} reads as {[c.describe() for c in found]}"
    return found[0]


def kind(text: str, opening: bool = False) -> tuple[str, str | None, int] | None:
    found = classify(text, opening)
    if not found:
        return None
    c = found[0]
    return (c.type.value, None if c.rank is None else c.rank.symbol, c.size)


# --------------------------------------------------------------------------- ordinary


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7s", ("single", "7", 1)),
        ("2s", ("single", "2", 1)),
        ("9s 9d", ("pair", "9", 2)),
        ("As Ad", ("pair", "A", 2)),
        ("Qs Qh Qd", ("triple", "Q", 3)),
        ("3s 4d 5c 6h 7s", ("straight", "7", 5)),
        ("Ts Jd Qc Kh As", ("straight", "A", 5)),
        ("3s 3d 4s 4d", ("pair_run", "4", 4)),
        ("Ks Kd As Ac", ("pair_run", "A", 4)),
        ("5s 5d 6s 6d 7c 7h 8s 8h", ("pair_run", "8", 8)),
    ],
)
def test_r_4_1_ordinary_types(text: str, expected: tuple[str, str, int]) -> None:
    """R-4.1: single, pair, triple, straight (≥5), pair run (≥2 pairs); rank = top rank."""
    assert kind(text) == expected


def test_r_4_1_kkaa_is_a_valid_pair_run() -> None:
    """R-4.1: `KKAA` is a valid pair run (ace high)."""
    c = one("Kd Ks Ad As")
    assert (c.type, c.rank, c.tier, c.power) == (ComboType.PAIR_RUN, Rank.ACE, 0, 14)


def test_r_4_1_a2345_is_not_a_straight() -> None:
    """R-4.1: the ace is high only and the 2 never sits in a sequence: `A2345` is invalid."""
    assert classify("As 2s 3d 4c 5h") == []
    assert classify("Js Qd Kc As 2s") == []  # no 2 at the top either
    assert classify("Qs Kd As 2s 3c") == []  # no wrap-around


def test_r_4_1_twelve_card_straight() -> None:
    """R-4.1: the longest straight runs 3 … A (12 cards), top rank A."""
    c = one("3s 4d 5c 6h 7s 8d 9c Th Js Qd Kc As")
    assert (c.type, c.rank, c.size) == (ComboType.STRAIGHT, Rank.ACE, 12)


def test_r_4_1_lowest_and_highest_straight() -> None:
    """R-4.1: `3…7` is the lowest five-card straight and `TJQKA` the highest."""
    low = one("3s 4d 5c 6h 7s")
    high = one("Ts Jd Qc Kh As")
    assert beats(high, low) and not beats(low, high)


@pytest.mark.parametrize(
    "text",
    [
        "3s 4d 5c 6h",  # four-card straight
        "3s 4d 5c 6h 8s",  # gap
        "7s 7d 8s",  # pair + single
        "3s 3d 4s 4d 5s",  # pairs with a single
        "5s 5d 7s 7d",  # pairs with a gap
        "9s 9d 9c Ts Td Tc",  # triples are not pairs
    ],
)
def test_r_4_1_not_sequences(text: str) -> None:
    """R-4.1: straights need ≥5 consecutive ranks, pair runs exactly two of each rank."""
    assert classify(text) == []


def test_r_4_1_same_type_and_size_means_same_length() -> None:
    """R-4.1 / R-3.3: a longer straight or pair run does not beat a shorter one."""
    five = one("3s 4d 5c 6h 7s")
    six = one("4s 5d 6c 7h 8s 9s")
    assert not beats(six, five) and not beats(five, six)
    assert beats(one("4s 5d 6c 7h 8s"), five)
    two_pairs = one("3s 3d 4s 4d")
    three_pairs = one("5s 5d 6s 6d 7s 7d")
    assert not beats(three_pairs, two_pairs)
    assert beats(one("Ks Kd As Ac"), one("Qs Qd Ks Kc"))


# --------------------------------------------------------------------------- excluded


@pytest.mark.parametrize(
    "text",
    [
        "7s 7d 7c 8s",  # triple + single
        "7s 7d 7c 8s 8d",  # triple + pair (full house)
        "7s 7d 7c 8s 8d 8c",  # triple run ("airplane" without wings)
        "7s 7d 7c 8s 8d 8c 3s 4s",  # airplane with wings
        "9s 9d 9c 9h 3s 4s",  # four with two
        "9s 9d 9c 9h 3s",  # four with one
        "9s 9d 9c 9h 3s 3d",  # four with a pair
        "5s 6d",  # two different singles
    ],
)
def test_r_4_2_attachments_and_airplanes_are_no_combination(text: str) -> None:
    """R-4.2: triple with attachments, airplanes, four with attachments are excluded."""
    assert classify(text) == []


# --------------------------------------------------------------------------- order


def test_r_3_2_rank_order_2_highest_3_lowest() -> None:
    """R-3.2: `2 A K Q J T 9 8 7 6 5 4 3`, high to low; suits have no order."""
    order = ["3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts", "Js", "Qs", "Ks", "As", "2s"]
    singles = [one(t) for t in order]
    for low, high in pairwise(singles):
        assert beats(high, low) and not beats(low, high)
    assert one("2s").power == 15
    assert not beats(one("7h"), one("7s")) and not beats(one("7s"), one("7h"))


def test_r_3_2_pairs_and_triples_follow_rank_order() -> None:
    """R-3.2: pairs and triples compare by rank."""
    assert beats(one("As Ad"), one("Ks Kd"))
    assert beats(one("4s 4d 4c"), one("3s 3d 3c"))
    assert not beats(one("3s 3d 3c"), one("Ks Kd Kc"))


def test_r_3_3_same_type_and_size_or_a_bomb() -> None:
    """R-3.3: an ordinary reply needs the same type and size; a bomb beats any ordinary one."""
    assert not beats(one("Ks Kd"), one("3s"))
    assert not beats(one("2s"), one("3s 3d"))
    bomb = one("4s 4h 4c 4d")
    for text in ["2s", "As Ad", "Ks Kd Kc", "3s 4d 5c 6h 7s 8d 9c Th Js Qd Kc As", "Ks Kd As Ac"]:
        assert beats(bomb, one(text))
        assert not beats(one(text), bomb)


# --------------------------------------------------------------------------- bombs


def test_r_4_3_four_of_a_kind_is_a_bomb_compared_by_rank() -> None:
    """R-4.3: four equal cards are a bomb; bombs compare by rank (R-3.2)."""
    b5 = one("5s 5h 5c 5d")
    bk = one("Ks Kh Kc Kd")
    assert (b5.type, b5.tier) == (ComboType.BOMB, 1)
    assert beats(bk, b5) and not beats(b5, bk)


def test_r_4_3_three_aces_beat_four_kings() -> None:
    """R-4.3: three aces (`As Ac Ad`) are a bomb above every four-card bomb."""
    aces = one("As Ac Ad")
    kings = one("Ks Kh Kc Kd")
    assert (aces.type, aces.rank, aces.size) == (ComboType.ACE_BOMB, Rank.ACE, 3)
    assert beats(aces, kings) and not beats(kings, aces)
    assert aces.to_json()["rank"] == "A"


def test_r_4_3_three_aces_read_only_as_the_ace_bomb() -> None:
    """R-4.3 (decision): `As Ac Ad` reads as the ace bomb only, never as a triple."""
    assert [c.type for c in classify("As Ac Ad")] == [ComboType.ACE_BOMB]
    assert classify("As Ac Ad", opening=True)[0].type == ComboType.ACE_BOMB


# --------------------------------------------------------------------------- heavenly


def test_r_4_4_four_threes_as_opening_play_are_unbeatable() -> None:
    """R-4.4: the four 3s as the opening play are the heavenly bomb, beaten by nothing."""
    heavenly = classify("3s 3h 3c 3d", opening=True)
    assert [c.type for c in heavenly] == [ComboType.HEAVENLY_BOMB]  # not also "bomb 3"
    h = heavenly[0]
    assert h.to_json()["rank"] == "3"
    for text in ["As Ac Ad", "Ks Kh Kc Kd", "4s 4h 4c 4d", "2s"]:
        assert not beats(one(text), h)


def test_r_4_4_four_threes_later_are_the_lowest_bomb() -> None:
    """R-4.4: played later, four 3s are an ordinary bomb, the lowest one."""
    threes = one("3s 3h 3c 3d")
    assert (threes.type, threes.rank, threes.tier) == (ComboType.BOMB, Rank.THREE, 1)
    assert beats(one("4s 4h 4c 4d"), threes)
    assert beats(threes, one("2s"))


def test_r_4_4_opening_flag_changes_only_four_threes() -> None:
    """R-4.4: the opening flag changes nothing but the reading of the four 3s."""
    for text in ["3h", "3h 3s", "3h 4s 5s 6s 7s", "5s 5h 5c 5d", "As Ac Ad"]:
        assert classify(text, opening=True) == classify(text)


# --------------------------------------------------------------------------- pack


@pytest.mark.parametrize("text", ["Ah", "2h", "2c", "2d", "BJ", "RJ", "3s Ah", "3s 3s"])
def test_r_2_1_classify_refuses_cards_outside_the_48_card_pack(text: str) -> None:
    """R-2.1: no jokers, no `Ah`, of the 2s only `2s`; no card twice (CardError)."""
    with pytest.raises(CardError):
        classify(text)


def test_r_2_1_readings_take_text_strings_or_cards() -> None:
    """R-2.1 / cli.md: classify accepts text (with `10`), card strings and cards."""
    expected = classify("Ts Td")
    assert classify("10s 10D") == expected
    assert classify(["ts", "td"]) == expected
    assert classify(parse_cards("Ts Td")) == expected
    assert readings_of([]) == []


def test_r_2_1_every_deck_card_is_a_single() -> None:
    """R-2.1: each of the 48 cards is a single of its own rank."""
    deck = runfast_deck()
    assert len(deck) == 48
    for c in deck:
        (s,) = readings_of([c])
        assert (s.type, s.rank) == (ComboType.SINGLE, c.rank)


def test_doctests_of_the_run_fast_modules() -> None:
    """The examples in the Run Fast docstrings hold (R-4, R-5)."""
    for module in (runfast, combos, moves, settlement, deal):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__
