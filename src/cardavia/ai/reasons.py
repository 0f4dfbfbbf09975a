"""Language-independent reasons: a stable key, the English sentence, and neutral arguments.

Every agent decision explains itself three ways: ``text`` (English, for logs and the CLI),
``key`` (a ``reasons.<key>`` entry of the web UI's catalogs) and ``args`` (the variable
parts: numbers as strings, cards as card text such as ``"7h"``, combinations as combo
objects ``{"type", "rank", "size"}`` that the UI names in the page's language).

>>> r = because("go_out", "go out with pair 7", combo={"type": "pair", "rank": "7", "size": 2})
>>> r.key, r.text, r.args["combo"]["rank"]
('go_out', 'go out with pair 7', '7')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardavia.rules.combo import ComboType, Pattern

#: One argument: a string (number, card text) or a combo object.
ReasonArg = str | dict[str, Any]

_SYM = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A", 15: "BJ", 16: "RJ"}


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an agent chose a move: catalog key, English sentence, neutral arguments."""

    key: str
    text: str
    args: dict[str, ReasonArg] = field(default_factory=dict)


def because(key: str, english: str, **args: ReasonArg) -> Reason:
    """A reason with the catalog ``key``, the English sentence and its arguments."""
    return Reason(key, english, dict(args))


def combo_arg(p: Pattern) -> dict[str, Any]:
    """The combo object (type, rank symbol, size) of an abstract move, as the UI names it."""
    rank = None if p.type == ComboType.JOKER_BOMB else _SYM.get(p.rank, str(p.rank))
    return {"type": p.type.value, "rank": rank, "size": p.size}


__all__ = ["Reason", "ReasonArg", "because", "combo_arg"]
