"""Guandan (docs/rules.md part G): combinations, moves, the deal, tribute, levels, the match.

>>> [c.describe() for c in classify("8s 8c 8d 2h 2h", level=2)]
['full_house 8', 'bomb 8 (5 cards)']
"""

from cardavia.rules.guandan.combos import classify, level_value, readings_of
from cardavia.rules.guandan.deal import GuandanDeal, deal_hands
from cardavia.rules.guandan.levels import DealSettlement, settle_deal, team_of
from cardavia.rules.guandan.match import GuandanMatch
from cardavia.rules.guandan.moves import all_moves, concretize, legal_moves, patterns
from cardavia.rules.guandan.tribute import TributePlan, plan_tribute, return_eligible

__all__ = [
    "DealSettlement",
    "GuandanDeal",
    "GuandanMatch",
    "TributePlan",
    "all_moves",
    "classify",
    "concretize",
    "deal_hands",
    "legal_moves",
    "level_value",
    "patterns",
    "plan_tribute",
    "readings_of",
    "return_eligible",
    "settle_deal",
    "team_of",
]
