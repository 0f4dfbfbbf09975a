"""A table's log: numbered entries (the engine's events and the table's own) and the
table's bookkeeping of what of its current deal is logged and rendered."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardavia.rules.trick import TrickDeal

#: Log entries that belong to the table, not to a deal (the engine's events are the rest).
RESTARTED = "restarted"
RESIGNED = "resigned"
TABLE_EVENTS = frozenset({RESTARTED, RESIGNED})
DEAL_STARTED = "deal_started"
@dataclass(frozen=True, slots=True)
class LogEntry:
    """One entry of a table's log: a sequence number (from 1) and the event's JSON."""

    seq: int
    event: dict[str, Any]

    @property
    def kind(self) -> str:
        return str(self.event.get("event"))


@dataclass(slots=True)
class Cursor:
    """Which deal the table plays and how many of its events are in the log."""

    deal: TrickDeal | None = None
    logged: int = 0  # how many of deal.events are in the table log


@dataclass(slots=True)
class HistoryCache:
    """The current deal's public history as JSON, extended between frames."""

    deal: TrickDeal | None = None
    items: list[dict[str, Any]] = field(default_factory=list)
