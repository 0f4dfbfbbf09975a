"""Every engine internal the research interface uses, in one place.

The environments, the batched engine and the agent adapter import the rules engine only
through this module, so a move of the engine's modules is repointed here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardavia.cards import ALL_CARDS, Card, card_from_code, check_in_deck, counts, guandan_deck, runfast_deck
from cardavia.rules.combo import Combo, ComboType, Pattern
from cardavia.rules.errors import RulesError
from cardavia.rules.events import DealStarted, Passed, Played, Returned
from cardavia.rules.games import GAME_NAMES, UnknownGame, find_game
from cardavia.rules.guandan import moves as gd_moves
from cardavia.rules.guandan.combos import BJ, RJ, wild_code
from cardavia.rules.guandan.deal import GuandanDeal
from cardavia.rules.guandan.levels import team_of
from cardavia.rules.guandan.match import GuandanMatch
from cardavia.rules.observation import Observation, observation
from cardavia.rules.runfast import moves as rf_moves
from cardavia.rules.runfast.deal import RunFastDeal
from cardavia.rules.runfast.session import RunFastSession
from cardavia.rules.series import Series
from cardavia.rules.trick import PHASE_OVER, PHASE_PLAY, PHASE_TRIBUTE, TrickDeal

GAMES: tuple[str, ...] = GAME_NAMES
N_SEATS: dict[str, int] = {name: find_game(name).seats for name in GAME_NAMES}


def check_game(game: str) -> str:
    """``game`` if it is one of :data:`GAMES`, else a clear :class:`ValueError`."""
    try:
        return find_game(game).name
    except UnknownGame:
        raise ValueError(f"unknown game {game!r}; games are {', '.join(GAMES)}") from None


def has_levels(game: str) -> bool:
    """Whether ``game`` plays with levels, wildcards and tribute (Guandan's rules)."""
    return find_game(game).levels


def deck(game: str) -> list[Card]:
    """The game's full deck."""
    return find_game(game).deck()


# --------------------------------------------------------------------------- deals


def tournament_seed_level(seed: int) -> int:
    """The level the tournament plays a first Guandan deal of seed ``seed`` at (2…A)."""
    return 2 + seed % 13


def new_deal(game: str, seed: int, level: int | None = None) -> TrickDeal:
    """A fresh first deal from ``seed``: Guandan at ``level`` (default: drawn from the seed,
    as the tournament does), no tribute; Run Fast with the 3h holder leading."""
    return find_game(check_game(game)).fresh_deal(seed, level)


def deal_from_hands(
    game: str,
    hands: Sequence[Sequence[Card]],
    *,
    level: int = 2,
    leader: int = 0,
    team_levels: tuple[int, int] | None = None,
    seed: int = 0,
) -> TrickDeal:
    """A first deal from explicit hands (Run Fast: the 3h holder leads, ``leader`` unused)."""
    if has_levels(check_game(game)):
        check_in_deck([c for h in hands for c in h], guandan_deck(), game)
        levels = team_levels or (level, level)
        if level not in levels:
            raise RulesError(f"deal level {level} is neither team's level {list(levels)}")
        return GuandanDeal.start(hands, level, seed=seed, team_levels=levels, leader=leader)
    return RunFastDeal.start(hands, seed=seed)


def new_match(game: str, seed: int) -> Series[TrickDeal]:
    """A Guandan match (levels and tribute between deals) or a Run Fast session."""
    return find_game(check_game(game)).new_series(seed)


# --------------------------------------------------------------------------- moves


def level_of(deal: TrickDeal) -> int:
    """The Guandan deal level (0 for Run Fast)."""
    return deal.level_rank or 0


def is_opening(deal: TrickDeal) -> bool:
    return deal.opening


def patterns_of(game: str, cnt: Sequence[int], level: int, top: Combo | None, opening: bool) -> list[Pattern]:
    """The abstract moves of a hand (a pass not included)."""
    if has_levels(game):
        return gd_moves.patterns(cnt, level, top)
    return rf_moves.patterns(cnt, top, opening)


def concretize(game: str, pattern: Pattern, cnt: Sequence[int], level: int, opening: bool) -> Combo:
    """The engine's canonical card choice for an abstract move."""
    if has_levels(game):
        return gd_moves.concretize(pattern, cnt, level)
    return rf_moves.concretize(pattern, cnt, opening)


def concrete_moves(game: str, cnt: Sequence[int], level: int, top: Combo | None, opening: bool) -> list[Combo]:
    """Every distinct concrete move the engine allows (its ``legal`` list; a pass not included)."""
    return find_game(game).all_moves(cnt, level, top, opening)


def can_pass(deal: TrickDeal, seat: int) -> bool:
    return deal.can_pass(seat)


def to_move(deal: TrickDeal) -> int | None:
    """The seat that acts next: the turn, or in the tribute phase the first owed return."""
    seats = deal.to_act()
    return seats[0] if seats else None


def return_options(deal: TrickDeal, seat: int) -> list[Card]:
    return deal.return_options(seat)


# --------------------------------------------------------------------------- acting


def play(deal: TrickDeal, seat: int, combo: Combo | None) -> None:
    """Play ``combo`` (None: pass) for ``seat``, validated by the engine."""
    if combo is None:
        deal.pass_turn(seat)
    else:
        deal.play_combo(seat, combo)


def give_back(deal: TrickDeal, seat: int, card: Card) -> None:
    """The tribute recipient ``seat`` returns ``card`` (G-3.5), validated by the engine."""
    if not has_levels(deal.game):
        raise RulesError("only Guandan has return cards")
    deal.return_card(seat, card)


def build_agent(name: str, seed: int) -> Any:
    """A built-in agent or difficulty by name (as ``cardavia tournament`` builds them)."""
    from cardavia.ai.tournament import build_agent as build

    return build(name, seed)


# --------------------------------------------------------------------------- results


def deal_rewards(deal: TrickDeal) -> list[float]:
    """Per seat, zero-sum: Guandan ±levels gained by the winning team (G-1.3), Run Fast the
    settlement points (R-5)."""
    result = deal.result
    if result is None:
        return [0.0] * deal.n_seats
    if has_levels(deal.game):
        advance = float(result["advance"])
        winner = int(result["winner_team"])
        return [advance if team_of(s) == winner else -advance for s in range(4)]
    return [float(x) for x in result["scores"]]


__all__ = [
    "ALL_CARDS",
    "BJ",
    "GAMES",
    "N_SEATS",
    "PHASE_OVER",
    "PHASE_PLAY",
    "PHASE_TRIBUTE",
    "RJ",
    "Card",
    "Combo",
    "ComboType",
    "DealStarted",
    "GuandanDeal",
    "GuandanMatch",
    "Observation",
    "Passed",
    "Pattern",
    "Played",
    "Returned",
    "RulesError",
    "RunFastDeal",
    "RunFastSession",
    "Series",
    "TrickDeal",
    "card_from_code",
    "counts",
    "deck",
    "guandan_deck",
    "has_levels",
    "observation",
    "runfast_deck",
    "team_of",
    "wild_code",
]

