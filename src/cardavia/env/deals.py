"""Deal specifications for ``reset(options={"deal": …})`` and :class:`VecGame` (duplicate play).

A spec is one of:

* an ``int`` — the seed of a fresh first deal (Guandan at the level the tournament draws
  from the seed, ``2 + seed % 13``, with the seed's first leader; Run Fast as dealt);
* a ``dict`` with ``"seed"`` (and for Guandan optionally ``"level"``);
* a ``dict`` with ``"hands"`` — one card list per seat (``"7h 7h BJ …"`` or a list of card
  strings) and for Guandan ``"level"`` (default 2), ``"leader"`` (default 0) and
  ``"team_levels"``;
* a deal object of the engine, which is copied (never shared).

>>> deal = make_deal("runfast", {"seed": 5})
>>> deal.game, sum(deal.size)
('runfast', 48)
>>> make_deal("guandan", {"hands": "7h"})
Traceback (most recent call last):
...
ValueError: a deal's "hands" must be a list with one card list per seat (4 for guandan)
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from cardavia.cards import CardError, Rank, parse_cards, rank_from_symbol
from cardavia.env import _engine as eng

DealSpec = int | Mapping[str, Any] | eng.TrickDeal


def _level(value: Any, what: str) -> int:
    if isinstance(value, bool):
        raise ValueError(f"{what} {value!r} is not a rank")
    if isinstance(value, int):
        if not 2 <= value <= 14:
            raise ValueError(f"{what} {value} must be a rank from 2 to 14 (A)")
        return value
    if isinstance(value, str):
        try:
            rank = rank_from_symbol(value)
        except CardError as err:
            raise ValueError(f"{what}: {err}") from None
        if rank > Rank.ACE:
            raise ValueError(f"{what} {value!r} must be a rank from 2 to A")
        return int(rank)
    raise ValueError(f"{what} {value!r} is not a rank")


def _seed(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"a deal seed must be a non-negative integer, not {value!r}")
    return value


def make_deal(game: str, spec: DealSpec) -> eng.TrickDeal:
    """The deal ``spec`` describes (see the module docstring); a clear ValueError otherwise."""
    eng.check_game(game)
    if isinstance(spec, eng.TrickDeal):
        if spec.game != game:
            raise ValueError(f"a {spec.game} deal cannot be played in the {game} environment")
        return copy.deepcopy(spec)
    if isinstance(spec, int) and not isinstance(spec, bool):
        return eng.new_deal(game, _seed(spec))
    if not isinstance(spec, Mapping):
        raise ValueError(f"a deal is a seed, a dict with 'seed' or 'hands', or a deal object; not {spec!r}")
    known = {"seed", "level", "hands", "leader", "team_levels"}
    extra = set(spec) - known
    if extra:
        names = ", ".join(sorted(map(str, extra)))
        raise ValueError(f"unknown deal field(s) {names}; fields are {', '.join(sorted(known))}")
    level = None if spec.get("level") is None else _level(spec["level"], "level")
    if not eng.has_levels(game) and (level is not None or "leader" in spec or "team_levels" in spec):
        raise ValueError("a Run Fast deal has no level, leader or team levels (the 3h holder leads)")
    if "hands" not in spec:
        if "seed" not in spec:
            raise ValueError("a deal dict needs 'seed' or 'hands'")
        return eng.new_deal(game, _seed(spec["seed"]), level)
    hands_in = spec["hands"]
    n = eng.N_SEATS[game]
    if isinstance(hands_in, str) or not isinstance(hands_in, list | tuple) or len(hands_in) != n:
        raise ValueError(f'a deal\'s "hands" must be a list with one card list per seat ({n} for {game})')
    try:
        hands = [parse_cards(h) for h in hands_in]
    except CardError as err:
        raise ValueError(f"bad hand: {err}") from None
    leader = spec.get("leader", 0)
    if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < n:
        raise ValueError(f"leader {leader!r} is not a seat (0 to {n - 1})")
    team_levels = None
    if spec.get("team_levels") is not None:
        tl = spec["team_levels"]
        if not isinstance(tl, list | tuple) or len(tl) != 2:
            raise ValueError("team_levels must be two ranks")
        team_levels = (_level(tl[0], "team level"), _level(tl[1], "team level"))
    try:
        return eng.deal_from_hands(
            game, hands, level=level or 2, leader=leader, team_levels=team_levels,
            seed=_seed(spec.get("seed", 0)),
        )
    except (CardError, eng.RulesError) as err:
        raise ValueError(f"bad deal: {err}") from None
