"""The action space against the engine: every masked action is legal, every legal move is
reachable (2,000 random positions per game, tribute phases included)."""

from __future__ import annotations

import pytest

from cardavia.env import _engine as eng
from cardavia.env import actions as act
from cardavia.env.deals import make_deal

from .helpers import positions

POSITIONS = 2000


@pytest.mark.parametrize("game", ["guandan", "runfast"])
def test_mask_is_exactly_the_engine_legal_list(game: str) -> None:
    space = act.action_space(game)
    tribute = 0
    for deal in positions(game, POSITIONS, seed=11):
        seat = eng.to_move(deal)
        assert seat is not None
        legal = act.legal(deal, seat)
        assert legal.actions, "the seat to move always has an action"
        if deal.phase == eng.PHASE_TRIBUTE:
            tribute += 1
            want = {space.index[act.return_key(c)] for c in eng.return_options(deal, seat)}
            assert set(legal.actions) == want
            continue
        level = eng.level_of(deal)
        moves = eng.concrete_moves(game, deal.cnt[seat], level, deal.top, eng.is_opening(deal))
        by_action: dict[int, set[tuple[int, ...]]] = {}
        for m in moves:
            by_action.setdefault(space.index[act.combo_key(game, m, level)], set()).add(
                tuple(sorted(c.code for c in m.cards))
            )
        reachable = set(by_action)
        if eng.can_pass(deal, seat):
            reachable.add(0)
        assert set(legal.actions) == reachable, deal.events
        for a in legal.actions:
            what = act.concretize(deal, seat, a, legal)
            if a == 0:
                assert what is None and deal.check_pass(seat) is None
                continue
            assert isinstance(what, eng.Combo)
            # the engine accepts the play as this very reading, and it is the action's
            chosen = deal.choose_reading(seat, list(what.cards), what)
            assert act.combo_key(game, chosen, level) == space.keys[a]
            # the canonical choice is one of the action's concrete choices
            assert tuple(sorted(c.code for c in what.cards)) in by_action[a]
    if game == "guandan":
        assert tribute > 0, "the positions include tribute returns"


def test_sizes_and_names() -> None:
    gd, rf = act.action_space("guandan"), act.action_space("runfast")
    assert (gd.size, rf.size) == (473, 152)
    assert len(set(gd.keys)) == gd.size and len(set(rf.keys)) == rf.size
    assert gd.name(gd.index[("full_house", 7, 5, 0)]) == "full_house 7 + wild pair"
    assert gd.name(gd.index[("straight_flush", 9, 5, 1)]) == "straight_flush 9 of h"
    assert rf.name(rf.index[("pair_run", 5, 6, 0)]) == "pair_run 5 (6 cards)"


def test_illegal_action_is_a_clear_error() -> None:
    deal = eng.new_deal("runfast", 1)
    seat = deal.turn
    assert seat is not None
    with pytest.raises(ValueError, match="not legal"):
        act.concretize(deal, seat, 0)  # the leader cannot pass


def test_choices_list_every_card_choice_of_an_action() -> None:
    """The "choose the cards" extension: a wild pair of 7s has both card choices."""
    deal = make_deal("guandan", {"hands": ["7s 7d 2h Ks", "3s 3s", "4s 4s", "5s 5s"], "level": 2})
    space = act.action_space("guandan")
    pair7 = space.index[("pair", 7, 2, 0)]
    cards = sorted(tuple(str(c) for c in m.cards) for m in act.choices(deal, 0, pair7))
    assert cards == [("2h", "7d"), ("2h", "7s"), ("7s", "7d")]
