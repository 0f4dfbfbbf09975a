"""The agent interface: an agent sees one seat's :class:`Observation`, never the full state.

Every answer carries a short human-readable reason, shown by the UI's hint/explain feature.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from cardavia.cards import Card
from cardavia.observation import Observation
from cardavia.rules.combo import Combo

from .reasons import Reason, ReasonArg


@dataclass(frozen=True, slots=True)
class Decision:
    """A move: ``combo`` to play, or ``None`` to pass, with the reason."""

    combo: Combo | None
    reason: str = ""  # English, for logs and the CLI
    reason_key: str = ""  # the web catalog's ``reasons.<key>``
    reason_args: dict[str, ReasonArg] = field(default_factory=dict)

    @classmethod
    def of(cls, combo: Combo | None, why: Reason) -> Decision:
        return cls(combo, why.text, why.key, dict(why.args))

    @property
    def is_pass(self) -> bool:
        return self.combo is None


@dataclass(frozen=True, slots=True)
class ReturnDecision:
    """The card a tribute recipient gives back (G-3.5), with the reason."""

    card: Card
    reason: str = ""
    reason_key: str = ""
    reason_args: dict[str, ReasonArg] = field(default_factory=dict)

    @classmethod
    def of(cls, card: Card, why: Reason) -> ReturnDecision:
        return cls(card, why.text, why.key, dict(why.args))


class Agent(Protocol):
    """What every agent offers; difficulty levels are configurations of agents."""

    name: str

    def act(self, obs: Observation) -> Decision:
        """Choose a legal move for ``obs.seat`` (it is that seat's turn)."""
        ...

    def choose_return(self, obs: Observation) -> ReturnDecision:
        """Choose a card among ``obs.return_options``."""
        ...
