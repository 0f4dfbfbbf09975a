"""Legal moves from an observation, for agents (abstract patterns, then one concrete play)."""

from __future__ import annotations

from cardavia.cards import counts
from cardavia.observation import Observation
from cardavia.rules.combo import Combo, Pattern

from .games import game_ai


def hand_counts(obs: Observation) -> list[int]:
    """The count array of the observing seat's hand."""
    return counts(obs.hand)


def abstract_moves(obs: Observation, cnt: list[int] | None = None) -> list[Pattern]:
    """The abstract moves (patterns) the observing seat may play now; a pass is not included."""
    return game_ai(obs.game).legal(obs, hand_counts(obs) if cnt is None else cnt)


def to_combo(obs: Observation, pattern: Pattern, cnt: list[int] | None = None) -> Combo:
    """One concrete card choice for a pattern from :func:`abstract_moves`."""
    return game_ai(obs.game).combo(obs, pattern, hand_counts(obs) if cnt is None else cnt)
