"""The AI seats' reasons a (re)connecting page needs for its "why?" buttons.

An AI seat's ``played`` / ``passed`` event carries its public reason (``{"key", "args"}``,
:func:`cardavia.ai.review.public_reason`: the combination it played and numbers only). Live
frames carry it with their event; a page that connects (or reloads) gets the latest one of
each seat in the current deal in its first ``state`` frame (``"reasons"``), so "why?" on
a play of the current trick still answers.

>>> from cardavia.table import LogEntry
>>> log = [LogEntry(1, {"event": "deal_started"}),
...        LogEntry(2, {"event": "passed", "seat": 1, "reason": {"key": "hold_back_pass", "args": {}}}),
...        LogEntry(3, {"event": "played", "seat": 2, "cards": ["3h"], "combo": {"type": "single"}})]
>>> latest_reasons(log)
[{'seat': 1, 'seq': 2, 'pass': True, 'combo': None, 'reason': {'key': 'hold_back_pass', 'args': {}}}]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardavia.table import LogEntry

ACTS = frozenset({"played", "passed"})


def latest_reasons(log: Sequence[LogEntry]) -> list[dict[str, Any]]:
    """Per seat, its latest play or pass of the current deal if it gave a reason: ``{"seat",
    "seq", "pass", "combo", "reason"}`` (public only: what the live frame said)."""
    latest: dict[int, dict[str, Any]] = {}
    for entry in reversed(log):
        event = entry.event
        kind = entry.kind
        if kind == "deal_started":
            break
        if kind not in ACTS:
            continue
        seat = int(event["seat"])
        if seat in latest:
            continue
        reason = event.get("reason")
        latest[seat] = {
            "seat": seat, "seq": entry.seq, "pass": kind == "passed",
            "combo": event.get("combo") if kind == "played" else None,
            "reason": reason if isinstance(reason, dict) else None,
        }
    return [latest[s] for s in sorted(latest) if latest[s]["reason"] is not None]
