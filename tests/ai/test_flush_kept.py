"""The Guandan expert holds a natural straight flush aside as a bomb (G-5.5: above every
five-card bomb), where the rank-count planner would spend its cards as plain plays."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.ai import make_agent
from cardavia.ai.guandan import basic
from cardavia.ai.guandan import search as gd_search
from cardavia.ai.runner import guandan_deal, take_turn
from cardavia.cards import counts, parse_cards
from cardavia.rules.combo import ComboType
from cardavia.rules.guandan.moves import concretize, patterns


def test_a_natural_flush_is_held_and_the_rest_planned() -> None:
    hand = counts(parse_cards("5s 6s 7s 8s 9s 7d 7c Kd Kc 3h"))
    kept = basic.flush_to_keep(hand, 2)
    assert kept is not None
    flush, rest = kept
    assert flush.type == ComboType.STRAIGHT_FLUSH and flush.rank == 9 and not flush.wilds
    assert sorted(str(c) for c in concretize(flush, hand, 2).cards) == ["5s", "6s", "7s", "8s", "9s"]
    assert [a - b for a, b in zip(hand, rest, strict=True)] == counts(parse_cards("5s 6s 7s 8s 9s"))


def test_no_flush_no_wild_flush_and_not_the_whole_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(basic, "FLUSH_WILDS", 0)
    # a plain straight of mixed suits: nothing to hold
    assert basic.flush_to_keep(counts(parse_cards("5s 6d 7s 8s 9s 3c")), 2) is None
    # a flush only with the level's heart as a wild (level 3: 3h is wild): not natural
    assert basic.flush_to_keep(counts(parse_cards("5s 6s 7s 9s 3h Kd")), 3) is None
    # the flush is the whole hand: it goes out, nothing to hold aside
    assert basic.flush_to_keep(counts(parse_cards("5s 6s 7s 8s 9s")), 2) is None


def _view(hand: str, top: str | None, sizes: list[int], top_seat: int | None) -> basic.GdView:
    cnt = counts(parse_cards(hand))
    top_combo = None
    if top is not None:
        found = [m for m in patterns(counts(parse_cards(top)), 2) if m.size == len(top.split())]
        top_combo = max(found, key=lambda m: (m.tier, m.power))
    return basic.GdView(0, cnt, 2, sizes, top_combo, top_seat)


def test_a_lead_keeps_the_flush_cards() -> None:
    view = _view("5s 6s 7s 8s 9s 7d 7c Kd Kc 3h", None, [10, 20, 20, 20], None)
    kept = basic.flush_to_keep(view.cnt, 2)
    assert kept is not None
    move, _why, source = basic.choose_keeping(view, basic.EXPERT_CONFIG, random.Random(0), kept)
    assert move is not None and move.type != ComboType.STRAIGHT_FLUSH
    assert source == kept[1]
    spent = concretize(move, source, 2).cards
    assert not {str(c) for c in spent} & {"5s", "6s", "7s", "8s", "9s"}


def test_the_flush_is_the_bomb_when_the_whole_hand_would_bomb() -> None:
    # an opponent on 2 cards leads a pair of aces: basic bombs (G-5.5); the flush does it
    view = _view("5s 6s 7s 8s 9s 4d 4c Jd Qc Kh", "Ad Ac", [10, 2, 20, 20], 1)
    kept = basic.flush_to_keep(view.cnt, 2)
    assert kept is not None
    whole, _ = basic.choose(view, basic.EXPERT_CONFIG, random.Random(0))
    assert whole is not None and whole.tier > 0
    move, why, source = basic.choose_keeping(view, basic.EXPERT_CONFIG, random.Random(0), kept)
    assert move == kept[0] and source == view.cnt
    assert why.args["combo"] == {"type": "straight_flush", "rank": "9", "size": 5}


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_expert_plays_never_spend_a_held_flush_on_plain_plays(seed: int) -> None:
    """Property: with a natural flush held aside, the expert's cards for any plain lead of the
    rest of the hand come from the rest (the flush stays whole)."""
    obs = guandan_deal(seed).observation(seed % 4)
    level = obs.level or 2
    cnt = counts(obs.hand)
    kept = basic.flush_to_keep(cnt, level)
    if kept is None:
        return
    flush, rest = kept
    flush_cards = counts(concretize(flush, cnt, level).cards)
    assert gd_search.expert_combo(obs, flush, cnt).type == ComboType.STRAIGHT_FLUSH
    for move in patterns(rest, level, None):
        if move.tier:
            continue
        spent = counts(gd_search.expert_combo(obs, move, cnt).cards)
        assert all(s <= r for s, r in zip(spent, rest, strict=True))
        assert all(s + f <= c for s, f, c in zip(spent, flush_cards, cnt, strict=True))


def test_expert_holding_flushes_plays_legal_deals() -> None:
    """Whole deals of the expert (holding flushes) against basic: every play accepted by the
    engine, and the expert held a flush at some of its turns."""
    held = 0
    for d in range(3):
        deal = guandan_deal(9100 + d)
        agents = [
            make_agent("expert", s) if s % 2 == 0 else make_agent("basic", s) for s in range(4)
        ]
        while not deal.over:
            seat = deal.to_act()[0]
            if seat % 2 == 0:
                obs = deal.observation(seat)
                held += gd_search.kept_flush(counts(obs.hand), obs.level or 2) is not None
            take_turn(deal, seat, agents[seat])
    assert held > 0


def test_a_flush_with_one_wild_only_when_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """``FLUSH_WILDS`` 1: the level's heart may fill the flush's gap (G-5.4), and the wild
    goes with the flush, not into the rest of the hand."""
    hand = counts(parse_cards("5s 6s 7s 9s 3h Kd Kc"))
    monkeypatch.setattr(basic, "FLUSH_WILDS", 0)
    assert basic.flush_to_keep(hand, 3) is None
    monkeypatch.setattr(basic, "FLUSH_WILDS", 1)
    kept = basic.flush_to_keep(hand, 3)
    assert kept is not None
    flush, rest = kept
    assert flush.wilds == 1 and flush.rank == 9
    assert sorted(str(c) for c in concretize(flush, hand, 3).cards) == ["3h", "5s", "6s", "7s", "9s"]
    assert rest == counts(parse_cards("Kd Kc"))
