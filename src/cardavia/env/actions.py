"""The fixed discrete action spaces: one index per abstract move (docs/env.md, "Actions").

An action is an abstract move — (type, rank[, extra]) — never a list of cards, so the
space is small and fixed. :func:`concretize` turns it into the engine's canonical card
choice; :func:`choices` lists every concrete card choice of one action (the "choose the
cards" extension, for Guandan's wilds and suits).

>>> space = action_space("runfast")
>>> space.size, space.name(0), space.name(space.index[("single", 3, 1, 0)])
(152, 'pass', 'single 3')
>>> action_space("guandan").size
473
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from cardavia.env import _engine as eng

#: (type, rank, size, extra): ``extra`` is the straight flush's suit (0–3 = s h c d), the
#: full house's pair rank (0 = a pair of two wild hearts), a returned card's code, else 0.
Key = tuple[str, int, int, int]

PASS: Key = ("pass", 0, 0, 0)
_SUITS = "shcd"
_RANK_SYMBOL = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A", 15: "BJ", 16: "RJ"}


def _sym(rank: int) -> str:
    return _RANK_SYMBOL.get(rank, str(rank))


@dataclass(frozen=True)
class ActionSpace:
    """The keys of one game's actions, in index order, and the way back."""

    game: str
    keys: tuple[Key, ...]
    index: dict[Key, int] = field(repr=False)

    @property
    def size(self) -> int:
        return len(self.keys)

    def name(self, action: int) -> str:
        """A short text for an action: ``'pass'``, ``'bomb 8 (5 cards)'``, ``'return 7h'``."""
        ctype, rank, size, extra = self.keys[action]
        if ctype == "pass":
            return "pass"
        if ctype == "return":
            return f"return {eng.card_from_code(extra)}"
        if ctype == "joker_bomb":
            return "joker_bomb"
        text = f"{ctype} {_sym(rank)}"
        if ctype == "bomb":
            text += f" ({size} cards)"
        elif ctype == "full_house":
            text += " + wild pair" if extra == 0 else f" + pair {_sym(extra)}"
        elif ctype == "straight_flush":
            text += f" of {_SUITS[extra]}"
        elif ctype in ("straight", "pair_run") and not eng.has_levels(self.game):
            text += f" ({size} cards)"
        return text


def _guandan_keys() -> list[Key]:
    keys: list[Key] = [PASS]
    keys += [("single", r, 1, 0) for r in range(2, 17)]
    keys += [("pair", r, 2, 0) for r in range(2, 17)]
    keys += [("triple", r, 3, 0) for r in range(2, 15)]
    keys += [("full_house", t, 5, q) for t in range(2, 15) for q in (*range(2, 17), 0)]
    keys += [("straight", top, 5, 0) for top in range(5, 15)]
    keys += [("pair_run", top, 6, 0) for top in range(3, 15)]
    keys += [("triple_run", top, 6, 0) for top in range(2, 15)]
    keys += [("bomb", r, n, 0) for r in range(2, 15) for n in range(4, 11)]
    keys += [("straight_flush", top, 5, s) for top in range(5, 15) for s in range(4)]
    keys += [("joker_bomb", 0, 4, 0)]
    keys += [("return", 0, 1, code) for code in range(54)]
    return keys


def _runfast_keys() -> list[Key]:
    keys: list[Key] = [PASS]
    keys += [("single", r, 1, 0) for r in (*range(3, 15), 2)]
    keys += [("pair", r, 2, 0) for r in range(3, 15)]
    keys += [("triple", r, 3, 0) for r in range(3, 14)]
    keys += [("straight", top, n, 0) for top in range(7, 15) for n in range(5, top - 1)]
    keys += [("pair_run", top, 2 * n, 0) for top in range(4, 15) for n in range(2, top - 1)]
    keys += [("bomb", r, 4, 0) for r in range(3, 14)]
    keys += [("ace_bomb", 14, 3, 0), ("heavenly_bomb", 3, 4, 0)]
    return keys


@cache
def action_space(game: str) -> ActionSpace:
    """The action space of ``game`` (``"guandan"``: 473 actions, ``"runfast"``: 152)."""
    keys = tuple(_guandan_keys() if eng.has_levels(eng.check_game(game)) else _runfast_keys())
    return ActionSpace(game, keys, {k: i for i, k in enumerate(keys)})


# --------------------------------------------------------------------------- keys


def pattern_key(game: str, p: eng.Pattern) -> Key:
    """The action key of an engine abstract move."""
    ctype = p.type.value
    if ctype == "full_house" and eng.has_levels(game):
        return (ctype, p.rank, 5, p.slots[1][0])
    if ctype == "straight_flush":
        return (ctype, p.rank, 5, p.suit)
    if ctype == "joker_bomb":
        return (ctype, 0, 4, 0)
    return (ctype, p.rank, p.size, 0)


def combo_key(game: str, combo: eng.Combo, level: int) -> Key:
    """The action key of a concrete move (which abstract action plays it)."""
    ctype = combo.type.value
    rank = 0 if combo.rank is None else int(combo.rank)
    if eng.has_levels(game):
        if ctype == "full_house":
            wc = eng.wild_code(level)
            pair = [c for c, rep in zip(combo.cards, combo.represented, strict=True) if int(rep.rank) != rank]
            naturals = [c for c in pair if c.code != wc]
            return (ctype, rank, 5, int(naturals[0].rank) if naturals else 0)
        if ctype == "straight_flush":
            return (ctype, rank, 5, combo.represented[0].code % 4)
        if ctype == "joker_bomb":
            return (ctype, 0, 4, 0)
    return (ctype, rank, combo.size, 0)


def return_key(card: eng.Card) -> Key:
    return ("return", 0, 1, card.code)


# --------------------------------------------------------------------------- per position


@dataclass(slots=True)
class Legal:
    """The legal actions of the seat to move: indices, and what each one does."""

    actions: list[int]
    patterns: dict[int, eng.Pattern]  # action → the engine's abstract move
    returns: dict[int, eng.Card]  # action → the card to give back (tribute phase)


def hand_counts(deal: eng.TrickDeal, seat: int) -> list[int]:
    return deal.cnt[seat]


def legal(deal: eng.TrickDeal, seat: int) -> Legal:
    """The legal actions of ``seat`` now (empty when it is not that seat's move)."""
    space = action_space(deal.game)
    if eng.to_move(deal) != seat:
        return Legal([], {}, {})
    if deal.phase == eng.PHASE_TRIBUTE:
        returns = {space.index[return_key(c)]: c for c in eng.return_options(deal, seat)}
        return Legal(sorted(returns), {}, returns)
    pats: dict[int, eng.Pattern] = {}
    for p in eng.patterns_of(deal.game, deal.cnt[seat], eng.level_of(deal), deal.top, eng.is_opening(deal)):
        pats.setdefault(space.index[pattern_key(deal.game, p)], p)
    acts = sorted(pats)
    if eng.can_pass(deal, seat):
        acts.insert(0, 0)
    return Legal(acts, pats, {})


def legal_from_observation(obs: eng.Observation) -> Legal:
    """:func:`legal` computed from the seat's own observation (what an agent may know)."""
    space = action_space(obs.game)
    if obs.phase == eng.PHASE_TRIBUTE:
        returns = {space.index[return_key(c)]: c for c in obs.return_options}
        return Legal(sorted(returns), {}, returns)
    if not obs.my_turn:
        return Legal([], {}, {})
    cnt = [0] * 54
    for c in obs.hand:
        cnt[c.code] += 1
    pats: dict[int, eng.Pattern] = {}
    for p in eng.patterns_of(obs.game, cnt, obs.level or 0, obs.top, obs.opening):
        pats.setdefault(space.index[pattern_key(obs.game, p)], p)
    acts = sorted(pats)
    if obs.can_pass:
        acts.insert(0, 0)
    return Legal(acts, pats, {})


def concretize_for(obs: eng.Observation, action: int, found: Legal) -> eng.Combo | eng.Card | None:
    """:func:`concretize` from an observation (the seat's own hand)."""
    if action not in found.actions:
        raise ValueError(f"action {action} is not legal for seat {obs.seat} now")
    if action in found.returns:
        return found.returns[action]
    if action == 0:
        return None
    cnt = [0] * 54
    for c in obs.hand:
        cnt[c.code] += 1
    return eng.concretize(obs.game, found.patterns[action], cnt, obs.level or 0, obs.opening)


def concretize(deal: eng.TrickDeal, seat: int, action: int, found: Legal | None = None) -> eng.Combo | eng.Card | None:
    """What ``action`` does for ``seat``: the canonical combo, a return card, or None (pass).

    Raises :class:`ValueError` when the action is not legal now.
    """
    found = legal(deal, seat) if found is None else found
    if action not in found.actions:
        space = action_space(deal.game)
        what = space.name(action) if 0 <= action < space.size else f"index {action}"
        raise ValueError(f"action {action} ({what}) is not legal for seat {seat} now")
    if action in found.returns:
        return found.returns[action]
    if action == 0:
        return None
    return eng.concretize(deal.game, found.patterns[action], deal.cnt[seat], eng.level_of(deal), eng.is_opening(deal))


def choices(deal: eng.TrickDeal, seat: int, action: int) -> list[eng.Combo]:
    """Every concrete card choice of a play action (the "choose the cards" extension).

    The engine's canonical choice (:func:`concretize`) is one of them.
    """
    game = deal.game
    level = eng.level_of(deal)
    key = action_space(game).keys[action]
    moves = eng.concrete_moves(game, deal.cnt[seat], level, deal.top, eng.is_opening(deal))
    return [m for m in moves if combo_key(game, m, level) == key]


def mask_of(actions: Sequence[int], size: int) -> list[int]:
    out = [0] * size
    for a in actions:
        out[a] = 1
    return out
