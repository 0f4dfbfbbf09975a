"""Random positions of both games, reached by random legal actions through the env layer."""

from __future__ import annotations

import random
from collections.abc import Iterator

from cardavia.env import _engine as eng
from cardavia.env import actions as act


def random_step(deal: eng.TrickDeal, rng: random.Random) -> None:
    seat = eng.to_move(deal)
    assert seat is not None
    legal = act.legal(deal, seat)
    what = act.concretize(deal, seat, rng.choice(legal.actions), legal)
    if isinstance(what, eng.Card):
        eng.give_back(deal, seat, what)
    else:
        eng.play(deal, seat, what)


def positions(game: str, count: int, seed: int) -> Iterator[eng.TrickDeal]:
    """``count`` positions (deals in progress, some in a Guandan tribute phase), each yielded
    before its next random action; deals come from a match so tribute happens."""
    rng = random.Random(seed)
    match = eng.new_match(game, seed)
    made = 0
    while made < count:
        deal = match.start_deal()
        while not deal.over and made < count:
            yield deal
            made += 1
            random_step(deal, rng)
        while not deal.over:
            random_step(deal, rng)
        match.finish_deal()
