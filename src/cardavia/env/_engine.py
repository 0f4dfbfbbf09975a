"""Every engine internal the research interface uses, in one place.

The environments, the batched engine and the agent adapter import the rules engine only
through this module, so a move of the engine's modules is repointed here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardavia.cards import ALL_CARDS, Card, card_from_code, check_in_deck, guandan_deck, runfast_deck
from cardavia.events import DealStarted, Passed, Played, Returned
from cardavia.observation import Observation, observation
from cardavia.rules.combo import Combo, ComboType
from cardavia.rules.errors import RulesError
from cardavia.rules.guandan import moves as gd_moves
from cardavia.rules.guandan.combos import BJ, RJ, wild_code
from cardavia.rules.guandan.deal import GuandanDeal, GuandanMatch
from cardavia.rules.guandan.deal import deal_hands as gd_deal_hands
from cardavia.rules.guandan.match import team_of
from cardavia.rules.runfast import moves as rf_moves
from cardavia.rules.runfast.deal import RunFastDeal, RunFastSession
from cardavia.rules.runfast.deal import deal_hands as rf_deal_hands
from cardavia.rules.trick import PHASE_OVER, PHASE_PLAY, PHASE_TRIBUTE, TrickDeal

Pattern = gd_moves.Pattern  # both games' abstract moves share this tuple type

GAMES: tuple[str, ...] = ("guandan", "runfast")
N_SEATS: dict[str, int] = {"guandan": 4, "runfast": 3}


def check_game(game: str) -> str:
    """``game`` if it is one of :data:`GAMES`, else a clear :class:`ValueError`."""
    if game not in N_SEATS:
        raise ValueError(f"unknown game {game!r}; games are {', '.join(GAMES)}")
    return game


# --------------------------------------------------------------------------- deals


def tournament_seed_level(seed: int) -> int:
    """The level the tournament plays a first Guandan deal of seed ``seed`` at (2…A)."""
    return 2 + seed % 13


def new_deal(game: str, seed: int, level: int | None = None) -> TrickDeal:
    """A fresh first deal from ``seed``: Guandan at ``level`` (default: drawn from the seed,
    as the tournament does), no tribute; Run Fast with the 3h holder leading."""
    if check_game(game) == "guandan":
        hands, leader = gd_deal_hands(seed)
        lv = tournament_seed_level(seed) if level is None else level
        return GuandanDeal.start(hands, lv, seed=seed, team_levels=(lv, lv), leader=leader)
    rf_hands, _ = rf_deal_hands(seed)
    return RunFastDeal.start(rf_hands, seed=seed)


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
    if check_game(game) == "guandan":
        check_in_deck([c for h in hands for c in h], guandan_deck(), "guandan")
        levels = team_levels or (level, level)
        if level not in levels:
            raise RulesError(f"deal level {level} is neither team's level {list(levels)}")
        return GuandanDeal.start(
            hands, level, seed=seed, team_levels=levels, leader=leader
        )
    return RunFastDeal.start(hands, seed=seed)


def new_match(game: str, seed: int) -> GuandanMatch | RunFastSession:
    """A Guandan match (levels and tribute between deals) or a Run Fast session."""
    return GuandanMatch(seed) if check_game(game) == "guandan" else RunFastSession(seed)


# --------------------------------------------------------------------------- moves


def level_of(deal: TrickDeal) -> int:
    """The Guandan deal level (0 for Run Fast)."""
    return int(getattr(deal, "level", 0))


def is_opening(deal: TrickDeal) -> bool:
    return bool(getattr(deal, "is_opening", False))


def patterns_of(game: str, cnt: Sequence[int], level: int, top: Combo | None, opening: bool) -> list[Pattern]:
    """The abstract moves of a hand (a pass not included)."""
    if game == "guandan":
        return gd_moves.patterns(cnt, level, top)
    return rf_moves.patterns(cnt, top, opening)


def concretize(game: str, pattern: Pattern, cnt: Sequence[int], level: int, opening: bool) -> Combo:
    """The engine's canonical card choice for an abstract move."""
    if game == "guandan":
        return gd_moves.concretize(pattern, cnt, level)
    return rf_moves.concretize(pattern, cnt, opening)


def concrete_moves(game: str, cnt: Sequence[int], level: int, top: Combo | None, opening: bool) -> list[Combo]:
    """Every distinct concrete move the engine allows (its ``legal`` list; a pass not included)."""
    if game == "guandan":
        return gd_moves.all_moves(cnt, level, top)
    return rf_moves.all_moves(cnt, top, opening)


def can_pass(deal: TrickDeal, seat: int) -> bool:
    return deal.phase == PHASE_PLAY and deal.turn == seat and deal.top is not None and deal.check_pass(seat) is None


def to_move(deal: TrickDeal) -> int | None:
    """The seat that acts next: the turn, or in the tribute phase the first owed return."""
    if deal.phase == PHASE_TRIBUTE:
        pending: dict[int, int] = getattr(deal, "pending_returns", {})
        return min(pending) if pending else None
    return deal.turn


def return_options(deal: TrickDeal, seat: int) -> list[Card]:
    if isinstance(deal, GuandanDeal):
        return deal.return_options(seat)
    return []


# --------------------------------------------------------------------------- acting


def play(deal: TrickDeal, seat: int, combo: Combo | None) -> None:
    """Play ``combo`` (None: pass) for ``seat``, validated by the engine."""
    if combo is None:
        deal.pass_turn(seat)
    else:
        deal.play_combo(seat, combo)


def give_back(deal: TrickDeal, seat: int, card: Card) -> None:
    """The tribute recipient ``seat`` returns ``card`` (G-3.5), validated by the engine."""
    if not isinstance(deal, GuandanDeal):
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
    if deal.game == "guandan":
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
    "TrickDeal",
    "card_from_code",
    "guandan_deck",
    "observation",
    "runfast_deck",
    "team_of",
    "wild_code",
]

