"""Run Fast move generation (R-2.3, R-3.3, R-3.4, R-4.1 – R-4.4)."""

from __future__ import annotations

import pytest

from cardavia.cards import parse_cards
from cardavia.rules.combo import ComboType, beats
from cardavia.rules.runfast.combos import readings_of
from cardavia.rules.runfast.moves import (
    SINGLE,
    all_moves,
    classify_one,
    concretize,
    counts,
    has_reply,
    patterns,
)


def hand(text: str) -> list[int]:
    return counts(parse_cards(text))


def described(text: str, top: str | None = None, opening: bool = False) -> list[str]:
    t = None if top is None else classify_one(top)
    return sorted(p.describe() for p in patterns(hand(text), t, opening))


def test_r_4_1_leading_lists_every_ordinary_type() -> None:
    """R-4.1: a leader may play singles, pairs, triples, straights ≥5, pair runs ≥2."""
    got = described("3s 4s 4d 5s 5d 6c 7c 7d 7h")
    assert "triple 7" in got
    assert "pair_run 5" in got
    assert "straight 7" in got
    assert "single 3" in got
    assert not any(d.startswith("bomb") for d in got)


def test_r_4_1_long_straights_and_pair_runs_every_length() -> None:
    """R-4.1: every length of straight (5…12) and pair run (2…) is generated."""
    full = "3s 4d 5c 6h 7s 8d 9c Th Js Qd Kc As"
    straights = [p for p in patterns(hand(full), None) if p.type == ComboType.STRAIGHT]
    assert sorted({p.size for p in straights}) == list(range(5, 13))
    assert len(straights) == sum(13 - n for n in range(5, 13))  # windows of each length
    runs = [p for p in patterns(hand("Ts Td Js Jd Qs Qd Ks Kd As Ad"), None)
            if p.type == ComboType.PAIR_RUN]
    assert sorted(p.size for p in runs if p.rank == 14) == [4, 6, 8, 10]


def test_r_4_3_three_aces_are_a_bomb_not_a_triple_when_generating() -> None:
    """R-4.3: `As Ac Ad` is offered as the ace bomb, and never as a triple."""
    got = described("As Ac Ad")
    assert "ace_bomb A" in got and "triple A" not in got
    assert described("As Ac Ad", top="Ks Kh Kc Kd") == ["ace_bomb A"]
    assert described("Ks Kh Kc Kd", top="As Ac Ad") == []


def test_r_3_3_replies_need_same_type_and_size() -> None:
    """R-3.3: replies are the same type and size with a higher rank, or a bomb."""
    h = "4s 5s 6s 7s 8s 9s 9d Ts Td"
    assert described(h, top="3s 4d 5c 6h 7d") == [
        "straight 8", "straight 9", "straight T",
    ]
    assert described(h, top="3s 4d 5c 6h 7d 8c") == ["straight 9", "straight T"]
    assert described(h, top="8s 8d 9c 9h") == ["pair_run T"]
    assert described(h, top="Ks") == []


def test_r_3_4_must_beat_forces_the_bomb_when_it_is_the_only_reply() -> None:
    """R-3.4: bombs count as replies; when only a bomb beats, it is the one move."""
    h = hand("7s 7h 7c 7d 5s")
    top = classify_one("Ks")
    assert [p.describe() for p in patterns(h, top)] == ["bomb 7 (4 cards)"]
    assert has_reply(h, top)
    assert not has_reply(hand("5s 6d"), top)


def test_r_2_3_opening_moves_all_include_3h() -> None:
    """R-2.3: every opening move includes `3h`; without it there is none."""
    text = "3s 3h 3c 4s 4d 5s 6d 7c 9s"
    cnt = hand(text)
    got = [p.describe() for p in patterns(cnt, None, opening=True)]
    assert got == ["single 3", "pair 3", "triple 3", "straight 7", "pair_run 4"]
    for combo in all_moves(cnt, None, opening=True):
        assert any(str(c) == "3h" for c in combo.cards)
    assert patterns(hand("3s 4s 5s 6s 7s"), None, opening=True) == []
    assert all_moves(hand("3s 4s 5s 6s 7s"), None, opening=True) == []


def test_r_2_3_opening_pair_runs_start_at_three() -> None:
    """R-2.3: an opening pair run must contain the 3s, so it starts at 3."""
    got = described("3s 3h 4s 4d 5s 5d 7s 7d 8s 8d", opening=True)
    assert "pair_run 4" in got and "pair_run 5" in got and "pair_run 8" not in got


def test_r_4_4_opening_four_threes_offer_the_heavenly_bomb() -> None:
    """R-4.4: the opening hand with four 3s offers the heavenly bomb, not the 3-bomb."""
    got = described("3s 3h 3c 3d 9s", opening=True)
    assert "heavenly_bomb 3" in got and "bomb 3 (4 cards)" not in got
    later = described("3s 3h 3c 3d 9s")
    assert "bomb 3 (4 cards)" in later and "heavenly_bomb 3" not in later
    heavenly = classify_one("3s 3h 3c 3d", opening=True)
    assert patterns(hand("As Ac Ad Ks Kh Kc Kd 2s"), heavenly) == []


def test_r_2_3_concretize_puts_3h_in_the_opening_play() -> None:
    """R-2.3: the canonical opening single 3 is `3h`; it fails when `3h` is missing."""
    cnt = hand("3s 3h 3d")
    assert [str(c) for c in concretize(SINGLE[3], cnt, opening=True).cards] == ["3h"]
    assert [str(c) for c in concretize(SINGLE[3], cnt).cards] == ["3s"]
    with pytest.raises(ValueError, match="3h"):
        concretize(SINGLE[3], hand("3s 3d"), opening=True)
    with pytest.raises(ValueError, match="cannot fill"):
        concretize(SINGLE[9], cnt)


def test_r_3_4_all_moves_lists_each_distinct_move_once() -> None:
    """R-3.4 / cli.md `legal`: every distinct (cards, type, rank) once, deterministic."""
    cnt = hand("5s 5h 5c 6s 7s 8s 9s")
    moves = all_moves(cnt, classify_one("4d 5d 6d 7d 8d"))
    assert [(m.describe(), " ".join(map(str, m.cards))) for m in moves] == [
        ("straight 9", "5s 6s 7s 8s 9s"),
        ("straight 9", "5h 6s 7s 8s 9s"),
        ("straight 9", "5c 6s 7s 8s 9s"),
    ]
    pairs = all_moves(cnt, classify_one("4s 4d"))
    assert len(pairs) == 3  # 5s5h, 5s5c, 5h5c
    assert all_moves(cnt, None) == all_moves(list(cnt), None)


def test_r_4_1_moves_are_readings_that_beat_the_top() -> None:
    """R-4.1 / R-3.3: each generated move reads as itself and beats the top."""
    cnt = hand("3s 4s 5s 6s 7s 7d 8s 8d 9s 9d 9c 9h Ts 2s As Ac Ad")
    for top_text in [None, "3d", "4d 4c", "5d 5c 5h", "3d 4d 5d 6d 7h", "5d 5c 6d 6c",
                     "4d 4c 4h 4s", "Kd Kc Kh Ks"]:
        top = None if top_text is None else classify_one(top_text)
        for m in all_moves(cnt, top):
            (r,) = readings_of(m.cards)
            assert r == m
            assert top is None or beats(m, top)
