"""Guandan combinations, wildcards and comparison: G-2.2, G-4.4, G-4.5, G-5.1 – G-5.6."""

from __future__ import annotations

import itertools

import pytest

from cardavia.rules.combo import beats
from cardavia.rules.guandan.combos import classify

from .helpers import kinds


def one(cards: str, level: int | str = 2) -> str:
    (only,) = kinds(cards, level)
    return only


# ---------------------------------------------------------------- G-5.1 types


@pytest.mark.parametrize(
    ("cards", "reading"),
    [
        ("9s", "single 9"),
        ("9s 9d", "pair 9"),
        ("9s 9d 9c", "triple 9"),
        ("9s 9d 9c 4s 4d", "full_house 9"),
        ("5s 6d 7c 8h 9s", "straight 9"),
        ("3s 3d 4s 4d 5c 5c", "pair_run 5"),
        ("7s 7d 7c 8s 8d 8c", "triple_run 8"),
        ("9s 9d 9c 9h", "bomb 9 (4 cards)"),
        ("BJ BJ RJ RJ", "joker_bomb"),
    ],
)
def test_g_5_1_each_type(cards: str, reading: str) -> None:
    assert one(cards, level=3) == reading


@pytest.mark.parametrize(
    "cards",
    [
        "9s 9d 9c 4s",  # triple plus single
        "3s 4d 5c 6h 7s 8d",  # six-card straight
        "3s 3d 4s 4d 5c 5c 6s 6s",  # four-pair run
        "7s 7d 7c 8s 8d 8c 9s 9d 9c",  # three-triple run
        "7s 7d 7c 8s 8d 8c 3s 4s",  # airplane with wings
        "9s 9d 4c",
        "3s 5d",
    ],
)
def test_g_5_1_nothing_else_is_a_combination(cards: str) -> None:
    assert kinds(cards, level=3) == []


def test_g_5_1_straight_flush_is_also_a_straight() -> None:
    assert kinds("5h 6h 7h 8h 9h", level=3) == ["straight 9", "straight_flush 9"]


# ---------------------------------------------------------------- G-5.2 jokers


def test_g_5_2_identical_jokers_pair_and_mixed_refused() -> None:
    assert one("BJ BJ") == "pair BJ"
    assert one("RJ RJ") == "pair RJ"
    assert kinds("BJ RJ") == []


def test_g_5_2_joker_pair_in_full_house() -> None:
    assert one("9s 9d 9c BJ BJ", level=3) == "full_house 9"
    assert one("9s 9d 9c RJ RJ", level=3) == "full_house 9"
    assert kinds("9s 9d 9c BJ RJ", level=3) == []


def test_g_5_2_jokers_never_in_sequences_nor_wild() -> None:
    assert kinds("Ts Jd Qc Ks BJ", level=3) == []
    assert kinds("BJ 2h", level=2) == []  # a wild never stands for a joker (G-5.4)
    assert kinds("BJ BJ 2h", level=2) == []


# ---------------------------------------------------------------- G-5.3 sequences


def test_g_5_3_ace_low_and_high_and_no_wrap() -> None:
    assert one("As 2d 3c 4s 5s", level=9) == "straight 5"
    assert one("Ts Jd Qc Ks As", level=9) == "straight A"
    assert kinds("Qs Kd Ac 2s 3s", level=9) == []
    assert kinds("Ks Ad 2c 3s 4s", level=9) == []


def test_g_5_3_ace_low_pair_and_triple_runs() -> None:
    assert one("As Ad 2c 2s 3s 3d", level=9) == "pair_run 3"
    assert one("As Ad Ac 2c 2s 2d", level=9) == "triple_run 2"
    assert one("Qs Qd Kc Ks As Ad", level=9) == "pair_run A"
    assert one("Ks Kd Kc As Ad Ac", level=9) == "triple_run A"
    assert kinds("Ks Kd As Ad 2s 2d", level=9) == []


def test_g_5_3_ace_low_sequences_are_the_lowest_of_their_kind() -> None:
    low = classify("As 2d 3c 4s 5s", level=9)[0]
    six = classify("2s 3d 4c 5s 6s", level=9)[0]
    assert beats(six, low) and not beats(low, six)
    aa2233 = classify("As Ad 2c 2s 3s 3d", level=9)[0]
    p234 = classify("2s 2d 3c 3s 4s 4d", level=9)[0]
    assert beats(p234, aa2233)


def test_g_5_3_level_rank_keeps_its_natural_place_in_sequences() -> None:
    # level 7: 3-4-5-6-7 is the straight topped by 7, below 4-5-6-7-8
    s37 = classify("3s 4d 5c 6s 7d", level=7)[0]
    s48 = classify("4s 5d 6c 7s 8d", level=7)[0]
    assert s37.describe() == "straight 7"
    assert beats(s48, s37)


# ---------------------------------------------------------------- G-4.4 single-card order


def test_g_4_4_level_rank_above_ace_in_groups() -> None:
    level = 7
    seven = classify("7s", level)[0]
    ace = classify("As", level)[0]
    bj = classify("BJ", level)[0]
    rj = classify("RJ", level)[0]
    assert beats(seven, ace) and not beats(ace, seven)
    assert beats(bj, seven) and beats(rj, bj) and not beats(bj, rj)
    pair7 = classify("7s 7d", level)[0]
    pair_a = classify("As Ad", level)[0]
    assert beats(pair7, pair_a)
    fh7 = classify("7s 7d 7c 3s 3d", level)[0]
    fh_a = classify("As Ad Ac 3s 3d", level)[0]
    assert beats(fh7, fh_a)


def test_g_4_4_suits_have_no_order() -> None:
    a = classify("9s", 2)[0]
    b = classify("9h", 2)[0]
    assert not beats(a, b) and not beats(b, a)


def test_g_4_4_jokers_pairs_order() -> None:
    bb = classify("BJ BJ", 2)[0]
    rr = classify("RJ RJ", 2)[0]
    aa = classify("2s 2d", 2)[0]  # level pair
    assert beats(bb, aa) and beats(rr, bb)


# ---------------------------------------------------------------- G-4.5 same type and size


def test_g_4_5_same_type_and_size_and_higher_rank() -> None:
    pair9 = classify("9s 9d", 3)[0]
    pair_t = classify("Ts Td", 3)[0]
    triple_t = classify("Ts Td Tc", 3)[0]
    single_a = classify("As", 3)[0]
    assert beats(pair_t, pair9)
    assert not beats(pair9, pair9)
    assert not beats(triple_t, pair9)
    assert not beats(single_a, pair9)
    straight = classify("5s 6d 7c 8h 9s", 3)[0]
    full_house = classify("Ts Td Tc 4s 4d", 3)[0]
    assert not beats(full_house, straight) and not beats(straight, full_house)


# ---------------------------------------------------------------- G-2.2 / G-5.4 wildcards


def test_g_2_2_only_hearts_of_the_level_rank_are_wild() -> None:
    # level 7: 7h is wild, so 7h + 9s is a pair of nines; 7s is not wild
    assert one("7h 9s", level=7) == "pair 9"
    assert kinds("7s 9s", level=7) == []
    assert kinds("8h 9s", level=7) == []


def test_g_5_4_lone_wild_is_a_level_rank_single_and_two_wilds_a_level_pair() -> None:
    assert one("7h", level=7) == "single 7"
    assert one("7h 7h", level=7) == "pair 7"
    wild = classify("7h", 7)[0]
    assert beats(wild, classify("As", 7)[0])
    assert not beats(wild, classify("BJ", 7)[0])


def test_g_5_4_wilds_in_pairs_triples_and_full_houses() -> None:
    assert one("9s 2h", level=2) == "pair 9"
    assert one("9s 2h 2h", level=2) == "triple 9"
    assert one("9s 9c 2h", level=2) == "triple 9"
    assert kinds("9s 9d 9c 4s 2h", level=2) == ["full_house 9"]
    assert kinds("9s 9d 4c 4s 2h", level=2) == ["full_house 4", "full_house 9"]
    assert kinds("9s 9d 9c 2h 2h", level=2) == ["full_house 9", "bomb 9 (5 cards)"]


def test_g_5_4_wilds_in_every_sequence_type() -> None:
    assert kinds("5s 6d 7c 8s 2h", level=2) == ["straight 8", "straight 9"]
    assert kinds("As 3d 4c 5s 2h", level=2) == ["straight 5"]  # wild as the 2
    assert kinds("3s 3d 4s 4d 5c 2h", level=2) == ["pair_run 5"]
    assert kinds("7s 7d 8s 8d 8c 2h", level=2) == ["triple_run 8"]
    assert kinds("Ks Kd As Ad 2h 2h", level=2) == ["pair_run A", "triple_run A"]


def test_g_5_4_wilds_in_straight_flushes() -> None:
    assert kinds("5h 6h 7h 8h 2h", level=2) == [
        "straight 8",
        "straight 9",
        "straight_flush 8",
        "straight_flush 9",
    ]
    assert kinds("5s 6s 8s 2h 2h", level=2) == [
        "straight 8",
        "straight 9",
        "straight_flush 8",
        "straight_flush 9",
    ]


def test_g_5_4_nine_and_ten_card_bombs_with_wilds() -> None:
    assert one("9s 9s 9d 9d 9c 9c 9h 2h 2h", level=2) == "bomb 9 (9 cards)"
    assert one("9s 9s 9d 9d 9c 9c 9h 9h 2h 2h", level=2) == "bomb 9 (10 cards)"
    assert kinds("9s 9s 9d 9d 9c 9c 9h 9h 2h 2h 9s", level=2) == []


def test_g_5_4_wild_as_its_own_level_rank() -> None:
    assert one("7s 7d 7c 7h", level=7) == "bomb 7 (4 cards)"
    combo = classify("3h 4h 5h 6h 7h", level=7)
    assert [c.describe() for c in combo] == [
        "straight 6",  # the wild as 2h
        "straight 7",  # the wild as itself
        "straight_flush 6",
        "straight_flush 7",
    ]


def test_g_5_4_represented_cards_are_resolved() -> None:
    (fh, bomb) = classify("8s 8c 8d 2h 2h", level=2)
    assert fh.to_json()["as"][:3] == ["8s", "8c", "8d"]
    assert bomb.to_json()["as"] == ["8s", "8c", "8d", "8h", "8h"]
    sf = classify("5h 6h 7h 8h 2h", level=2)[-1]
    assert sf.to_json()["as"] == ["5h", "6h", "7h", "8h", "9h"]


# ---------------------------------------------------------------- G-5.5 bomb order


def test_g_5_5_bomb_ladder() -> None:
    level = 3
    ladder = [
        classify("9s 9d 9c 9h", level)[0],  # 4
        classify("Ks Kd Kc Kh", level)[0],  # 4, higher rank
        classify("3s 3d 3c 3c", level)[0],  # 4, level rank
        classify("5s 5d 5c 5h 5s", level)[0],  # 5
        classify("6s 7s 8s 9s Ts", level)[-1],  # straight flush T
        classify("9h Th Jh Qh Kh", level)[-1],  # straight flush K
        classify("4s 4d 4c 4h 4s 4d", level)[0],  # 6
        classify("4s 4d 4c 4h 4s 4d 4c", level)[0],  # 7
        classify("4s 4d 4c 4h 4s 4d 4c 4h", level)[0],  # 8
        classify("4s 4d 4c 4h 4s 4d 4c 4h 3h", level)[0],  # 9 (wild)
        classify("4s 4d 4c 4h 4s 4d 4c 4h 3h 3h", level)[0],  # 10
        classify("BJ BJ RJ RJ", level)[0],
    ]
    for low, high in itertools.pairwise(ladder):
        assert beats(high, low), (high.describe(), low.describe())
        assert not beats(low, high), (low.describe(), high.describe())


def test_g_5_5_straight_flush_between_five_and_six_card_bombs() -> None:
    sf = classify("As 2s 3s 4s 5s", 9)[-1]  # the lowest straight flush
    five = classify("As Ad Ac Ah As", 9)[0]
    six = classify("2s 2d 2c 2h 2s 2d", 9)[0]
    assert sf.describe() == "straight_flush 5"
    assert beats(sf, five) and beats(six, sf) and not beats(sf, six)


def test_g_5_5_four_joker_bomb_over_ten_card_bomb() -> None:
    ten = classify("As As Ad Ad Ac Ac Ah Ah 2h 2h", 2)[0]
    jokers = classify("BJ BJ RJ RJ", 2)[0]
    assert ten.describe() == "bomb A (10 cards)"
    assert beats(jokers, ten) and not beats(ten, jokers)


def test_g_5_5_any_bomb_beats_any_ordinary_combination() -> None:
    bomb = classify("2s 2d 2c 2s", 3)[0]
    for ordinary in ("RJ", "RJ RJ", "As Ad Ac Ks Kd", "Ts Jd Qc Ks As", "Qs Qd Ks Kd As Ad"):
        assert beats(bomb, classify(ordinary, 3)[0])
        assert not beats(classify(ordinary, 3)[0], bomb)


def test_g_5_5_same_size_bombs_by_rank_with_level_high() -> None:
    level_bomb = classify("7s 7d 7c 7c", 7)[0]
    ace_bomb = classify("As Ad Ac Ah", 7)[0]
    assert beats(level_bomb, ace_bomb)


def test_g_5_5_straight_flushes_by_top_rank() -> None:
    low = classify("9h Th Jh Qh Kh", 2)[-1]
    high = classify("Ts Js Qs Ks As", 2)[-1]
    assert beats(high, low) and not beats(low, high)


# ---------------------------------------------------------------- G-5.6 interpretation


def test_g_5_6_several_readings_are_offered() -> None:
    assert len(classify("5h 6h 7h 8h 2h", 2)) == 4
    assert len(classify("8s 8c 8d 2h 2h", 2)) == 2


def test_classification_ignores_card_order() -> None:
    a = kinds("2h 8s 8c 2h 8d", 2)
    b = kinds("8s 8c 8d 2h 2h", 2)
    assert a == b
