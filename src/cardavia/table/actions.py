"""What a person may ask a table to do, the answer to a refused request, and a hint."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``cards``; ``rank``/``type`` name the reading when several are legal (G-5.6)."""

    cards: tuple[str, ...]
    type: str | None = None
    rank: str | None = None


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass the turn."""


@dataclass(frozen=True, slots=True)
class ReturnCard:
    """Return ``card`` to the tribute payer (G-3.5)."""

    card: str


@dataclass(frozen=True, slots=True)
class NextDeal:
    """Deal the next deal once the current one is over."""


@dataclass(frozen=True, slots=True)
class Restart:
    """Restart the match (G-1.7) or the Run Fast session: levels/totals reset, new deal."""


@dataclass(frozen=True, slots=True)
class Resign:
    """Leave the table for good: no further actions are accepted."""


Action = Play | Pass | ReturnCard | NextDeal | Restart | Resign


class ActionError(ValueError):
    """A refused request: a short ``code`` (docs/protocol.md), one clear sentence, and for
    ``ambiguous`` the legal readings as combo objects. The table is unchanged. The one
    ``(code, message)`` error of the table and the WebSocket protocol."""

    def __init__(self, code: str, message: str, options: Sequence[dict[str, Any]] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.options = list(options)


@dataclass(frozen=True, slots=True)
class Hint:
    """The strongest agent's suggestion for a seat: cards to play or return, or a pass."""

    cards: tuple[str, ...] | None
    combo: dict[str, Any] | None
    is_pass: bool
    reason: str
    reason_key: str = ""  # the web catalog's ``reasons.<key>`` (language-independent)
    reason_args: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": None if self.cards is None else list(self.cards),
            "combo": self.combo,
            "pass": self.is_pass,
            "reason": self.reason,
            "reason_key": self.reason_key,
            "reason_args": dict(self.reason_args),
        }
