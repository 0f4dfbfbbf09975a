"""The exceptions the rules raise; each message is one clear sentence naming the bad value.

Every rules error is a :class:`ValueError`, so callers may catch either. An error never
leaves a deal changed: the state machine validates before it applies.
"""

from __future__ import annotations


class RulesError(ValueError):
    """An action or question the rules refuse."""


class NotYourTurn(RulesError):
    """A seat acted when it was not its turn (or acted in the wrong phase)."""


class CardsNotInHand(RulesError):
    """A play or return used cards the seat does not hold."""


class IllegalPlay(RulesError):
    """Cards that form no combination, do not beat the trick, or break a turn rule."""


class IllegalPass(RulesError):
    """A pass the rules forbid (the leader, or Run Fast's must-beat)."""


class AmbiguousPlay(IllegalPlay):
    """Cards with several legal readings were played without choosing one (G-5.6)."""


class BadInterpretation(IllegalPlay):
    """The chosen reading is not one the cards support."""


class DealOver(RulesError):
    """An action after the deal (or match) has ended."""
