"""Cardavia: exact Guandan and Run Fast engines, agents and a web table.

The five-line research API — make a deal, list its moves, play one:

>>> import cardavia
>>> deal = cardavia.find_game("guandan").new_series(seed=1).start_deal()
>>> moves = deal.legal_moves()
>>> event = deal.play_combo(deal.turn, moves[0])
>>> deal.observation(deal.turn).my_turn, len(deal.hand(event.seat)) + event.combo.size
(True, 27)

Every game is a :class:`Game` in :data:`GAMES` (:func:`find_game` by name); a deal is a
:class:`TrickDeal` whose :meth:`~TrickDeal.legal_moves` are :class:`Combo` values and whose
only exit for a seat is :meth:`~TrickDeal.observation` (an :class:`Observation`).
"""

from cardavia.cards import Card, CardError, Rank, Suit, counts, format_cards, parse_cards
from cardavia.rules.combo import Combo, ComboType, Pattern, beats
from cardavia.rules.errors import RulesError
from cardavia.rules.events import Event, event_from_json, event_to_json
from cardavia.rules.games import GAMES, Game, GameName, find_game
from cardavia.rules.observation import HistoryEntry, Observation
from cardavia.rules.seeds import deal_seed
from cardavia.rules.series import Series
from cardavia.rules.trick import Phase, TrickDeal

__all__ = [
    "GAMES",
    "Card",
    "CardError",
    "Combo",
    "ComboType",
    "Event",
    "Game",
    "GameName",
    "HistoryEntry",
    "Observation",
    "Pattern",
    "Phase",
    "Rank",
    "RulesError",
    "Series",
    "Suit",
    "TrickDeal",
    "beats",
    "counts",
    "deal_seed",
    "event_from_json",
    "event_to_json",
    "find_game",
    "format_cards",
    "parse_cards",
]
