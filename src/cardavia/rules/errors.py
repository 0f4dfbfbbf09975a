"""The exceptions the rules raise; each message is one clear sentence naming the bad value.

Every rules error is a :class:`ValueError`, so callers may catch either. An error never
leaves a deal changed: the state machine validates before it applies.
"""

from __future__ import annotations

from typing import ClassVar


class RulesError(ValueError):
    """An action or question the rules refuse.

    ``code`` is the protocol error code a table answers with (docs/protocol.md), so callers
    map any rules error with one ``except RulesError as err: … err.code …``.
    """

    code: ClassVar[str] = "illegal"


class NotYourTurn(RulesError):
    """A seat acted when it was not its turn (or acted in the wrong phase)."""

    code: ClassVar[str] = "not_your_turn"


class CardsNotInHand(RulesError):
    """A play or return used cards the seat does not hold."""


class IllegalPlay(RulesError):
    """Cards that form no combination, do not beat the trick, or break a turn rule."""


class IllegalPass(RulesError):
    """A pass the rules forbid (the leader, or Run Fast's must-beat)."""


class AmbiguousPlay(IllegalPlay):
    """Cards with several legal readings were played without choosing one (G-5.6)."""

    code: ClassVar[str] = "ambiguous"


class BadInterpretation(IllegalPlay):
    """The chosen reading is not one the cards support."""


class DealOver(RulesError):
    """An action after the deal (or match) has ended."""

    code: ClassVar[str] = "not_your_turn"


class NotAllowed(RulesError):
    """An action the table does not take now (the deal is not over, no return is owed …)."""

    code: ClassVar[str] = "not_allowed"
