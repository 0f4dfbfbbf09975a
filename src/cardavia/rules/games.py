"""The games as data: one :class:`Game` value per preset, found by name.

Everything outside ``rules/`` asks this registry (or the deal) what a game is — its seats,
deck, deal and series classes, move generators, record codec and rule switches — instead of
testing the game's name (python-chess's ``find_variant``, pokerkit's ``games.py``). Adding a
game is one package under ``rules/`` and one entry here.

>>> game = find_game("runfast")
>>> game.seats, game.hand_size, len(game.deck())
(3, 16, 48)
>>> ", ".join(GAMES)
'guandan, runfast'
>>> find_game("chess")
Traceback (most recent call last):
...
cardavia.rules.games.UnknownGame: unknown game 'chess'; games are guandan, runfast
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from cardavia.cards import Card, card_from_code, guandan_deck, runfast_deck
from cardavia.rules.combo import Combo
from cardavia.rules.guandan import record as guandan_record
from cardavia.rules.guandan.combos import readings_of as guandan_readings
from cardavia.rules.guandan.deal import GuandanDeal
from cardavia.rules.guandan.deal import deal_hands as guandan_deal_hands
from cardavia.rules.guandan.match import GuandanMatch
from cardavia.rules.guandan.moves import all_moves as guandan_all_moves
from cardavia.rules.replaying import Carry
from cardavia.rules.runfast import record as runfast_record
from cardavia.rules.runfast.combos import THREE_OF_HEARTS
from cardavia.rules.runfast.combos import readings_of as runfast_readings
from cardavia.rules.runfast.deal import RunFastDeal
from cardavia.rules.runfast.deal import deal_hands as runfast_deal_hands
from cardavia.rules.runfast.moves import all_moves as runfast_all_moves
from cardavia.rules.runfast.session import RunFastSession
from cardavia.rules.series import Series
from cardavia.rules.trick import TrickDeal

#: The name of a game, defined once.
GameName = Literal["guandan", "runfast"]
GAME_NAMES: tuple[GameName, ...] = get_args(GameName)



class UnknownGame(ValueError):
    """A game name that is not in the registry."""


@dataclass(frozen=True, slots=True)
class Game:
    """One preset: what a table, the oracle, self-play and the agents need to know.

    ``readings(cards, level, opening)`` and ``all_moves(counts, level, top, opening)`` take
    both games' situation arguments; a game ignores what it does not use (Run Fast has no
    level, Guandan no opening rule).
    """

    name: GameName
    title: str
    seats: int
    hand_size: int
    deck: Callable[[], list[Card]]
    deal_class: type[TrickDeal]
    series: Callable[..., Series[TrickDeal]]
    deal_hands: Callable[[int], tuple[tuple[tuple[Card, ...], ...], int]]
    readings: Callable[[Sequence[Card], int, bool], list[Combo]]
    all_moves: Callable[[Sequence[int], int, Combo | None, bool], list[Combo]]
    #: G-1.1: seats 0+2 and 1+3 play as partners
    partnerships: bool
    #: G-1: team levels, the level rank and its wildcards; tribute between deals (G-3)
    levels: bool
    #: G-4.1 a follower may always pass; R-3.4 only when nothing beats the trick
    free_pass: bool
    #: R-2.3: the card the first play of a deal must include (None: any lead)
    opening_card: Card | None
    #: the record of a deal (docs/cli.md "Game records") and its replay check
    record: Callable[[TrickDeal], dict[str, Any]]
    replay: Callable[[dict[str, Any], Carry | None], tuple[dict[str, Any], Carry | None]]

    def fresh_deal(self, seed: int, level: int | None = None) -> TrickDeal:
        """A self-contained first deal shuffled from ``seed`` (a board for tournaments and
        benchmarks; Guandan's level from the seed unless given)."""
        return self.deal_class.fresh(seed, level)

    def new_series(self, seed: int = 0, *, keep_finished: bool = True) -> Series[TrickDeal]:
        """A new match (Guandan) or session (Run Fast)."""
        return self.series(seed, keep_finished=keep_finished)


GUANDAN = Game(
    name="guandan",
    title="Guandan",
    seats=4,
    hand_size=27,
    deck=guandan_deck,
    deal_class=GuandanDeal,
    series=GuandanMatch,
    deal_hands=guandan_deal_hands,
    readings=lambda cards, level, opening: guandan_readings(cards, level),
    all_moves=lambda cnt, level, top, opening: guandan_all_moves(cnt, level, top),
    partnerships=True,
    levels=True,
    free_pass=True,
    opening_card=None,
    record=guandan_record.deal_record,
    replay=guandan_record.replay,
)

RUNFAST = Game(
    name="runfast",
    title="Run Fast",
    seats=3,
    hand_size=16,
    deck=runfast_deck,
    deal_class=RunFastDeal,
    series=RunFastSession,
    deal_hands=runfast_deal_hands,
    readings=lambda cards, level, opening: runfast_readings(cards, opening),
    all_moves=lambda cnt, level, top, opening: runfast_all_moves(cnt, top, opening),
    partnerships=False,
    levels=False,
    free_pass=False,
    opening_card=card_from_code(THREE_OF_HEARTS),
    record=runfast_record.deal_record,
    replay=runfast_record.replay,
)

#: Every game, by name, in the order the product lists them.
GAMES: dict[GameName, Game] = {g.name: g for g in (GUANDAN, RUNFAST)}


def find_game(name: object) -> Game:
    """The game called ``name``; :class:`UnknownGame` (a ``ValueError``) names the choices."""
    for game in GAMES.values():
        if game.name == name:
            return game
    raise UnknownGame(f"unknown game {name!r}; games are {', '.join(GAMES)}")


def game_of(deal: TrickDeal) -> Game:
    """The game a deal belongs to."""
    return find_game(deal.game)


__all__ = ["GAMES", "GAME_NAMES", "GUANDAN", "RUNFAST", "Game", "GameName", "UnknownGame", "find_game", "game_of"]
