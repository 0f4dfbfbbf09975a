"""Run Fast, 48-card preset (docs/rules.md part R): combinations, moves, deal and settlement.

>>> [c.describe() for c in classify("Ks Kd As Ac")]
['pair_run A']
"""

from cardavia.rules.runfast.combos import classify, readings_of
from cardavia.rules.runfast.deal import RunFastDeal, deal_hands
from cardavia.rules.runfast.moves import all_moves, concretize, patterns
from cardavia.rules.runfast.session import RunFastSession
from cardavia.rules.runfast.settlement import settle

__all__ = [
    "RunFastDeal",
    "RunFastSession",
    "all_moves",
    "classify",
    "concretize",
    "deal_hands",
    "patterns",
    "readings_of",
    "settle",
]
