"""Guandan passes read by ``basic``'s own reply rule (:func:`cardavia.ai.guandan.search.split_passes`)."""

from __future__ import annotations

import random

import pytest

from cardavia.ai.guandan import basic
from cardavia.ai.guandan import search as gd_search
from cardavia.ai.guandan.plan import Unit
from cardavia.cards import parse_cards
from cardavia.observation import Observation, observation
from cardavia.rules.combo import Combo
from cardavia.rules.guandan.combos import classify
from cardavia.rules.guandan.deal import GuandanDeal
from cardavia.rules.guandan.moves import counts


def _two_passes() -> Observation:
    """Seat 1 passes on seat 0's single 9 while every hand is long (out of danger); seat 2
    passes on seat 3's single K while seat 3 holds 5 cards (danger)."""
    hands = [
        parse_cards("9s 3s 4s 5s 6s 7s 8s Ts"),
        parse_cards("3d 4d 5d 6d 7d 8d 9d Td"),
        parse_cards("3c 4c 5c 6c 7c 8c 9c Tc"),
        parse_cards("Kd 3h 4h 5h 6h 7h"),
    ]
    deal = GuandanDeal.start(hands, 2, leader=0)
    deal.play(0, "9s")
    deal.pass_turn(1)  # out of danger: seat 0 keeps 7 cards, seat 2 holds 8
    deal.pass_turn(2)  # the partner's play: not read
    deal.play(3, "Kd")
    deal.pass_turn(0)  # the observer's own pass: not read
    deal.pass_turn(1)  # the partner's play: not read
    deal.pass_turn(2)  # danger: seat 3 holds 5 cards
    return observation(deal, 0)


def test_passes_are_split_by_basic_danger_rule() -> None:
    danger, loose = gd_search.split_passes(_two_passes())
    assert {s: [t.describe() for t in ts] for s, ts in danger.items()} == {2: ["single K"]}
    assert {s: [t.describe() for t in ts] for s, ts in loose.items()} == {1: ["single 9"]}


def _single(text: str) -> Combo:
    return classify(parse_cards(text), 2)[0]


@pytest.mark.parametrize(
    ("hand", "unit", "group"),
    [
        ("Kd 5d 6c", 1, 1),  # a planned single K: basic answers the 9 with it
        ("Kd Kc Ks 5d", 0, 1),  # only a triple holds a K: basic keeps it, a group test objects
        ("RJ 5d 7c", 0, 1),  # the red joker costs basic's plan too much to answer a 9
        ("5d 6c 8h", 0, 0),  # nothing above 9
    ],
)
def testunit_replies_follow_basic_out_of_danger(hand: str, unit: int, group: int) -> None:
    cnt = counts(parse_cards(hand))
    nine = _single("9s")
    units = gd_search.plan_units(cnt, 2, {}, 1)
    assert gd_search.unit_replies(units, 2, [nine]) == unit
    assert gd_search._plain_replies(cnt, 2, [nine]) == group
    # the test agrees with basic itself, out of danger (every hand long)
    view = basic.GdView(1, cnt, 2, [20, 20, 20, 20], nine, 0)
    reply = basic.choose(view, basic.GdConfig(), random.Random(0))[0]
    assert (reply is not None) == bool(unit)


def testplan_units_are_planned_once_and_kept_for_the_rollouts() -> None:
    cnt = counts(parse_cards("Kd 5d 6c"))
    plans: dict[int, list[Unit]] = {}
    first = gd_search.plan_units(cnt, 2, plans, 3)
    assert plans[3] is first and gd_search.plan_units(cnt, 2, plans, 3) is first


def test_loose_passes_make_hands_with_a_cheap_reply_less_likely(monkeypatch: pytest.MonkeyPatch) -> None:
    obs = _two_passes()
    tracked = gd_search.track(obs)
    _, loose = gd_search.split_passes(obs)
    monkeypatch.setattr(gd_search, "LOOSE_PASS_EVIDENCE", 0.1)

    def cheap_reply_rate(read: dict[int, list[Combo]] | None) -> float:
        rng = random.Random(5)
        held = 0
        for _ in range(300):
            plans: dict[int, list[Unit]] = {}
            sample = gd_search.sample_hands(
                0, obs.hand_sizes, tracked.unseen, tracked.known, rng, None, 2, 1.0, plans, loose=read
            )
            assert [sum(sample[s]) for s in (1, 2, 3)] == list(obs.hand_sizes[1:])
            units = gd_search.plan_units(sample[1], 2, plans, 1)
            held += gd_search.unit_replies(units, 2, loose[1]) > 0
        return held / 300

    prior, weighed = cheap_reply_rate(None), cheap_reply_rate(loose)
    assert prior > 0.4  # many 8-card hands plan a single above 9 …
    assert weighed < prior - 0.15  # … the pass makes that clearly less likely
