"""Difficulty levels for the UI: configurations of the agents.

The person's Guandan partner plays at the strongest level unless the person chooses otherwise.
"""

from __future__ import annotations

from collections.abc import Callable

from cardavia.ai import make_agent
from cardavia.ai.base import Agent

DIFFICULTIES: tuple[str, ...] = ("easy", "normal", "hard", "expert")
#: Every AI level a table accepts: the four above plus ``random`` (uniformly random legal
#: moves), for tests, load benchmarks and research, and the learned agents added by
#: :func:`register_level`; the lobby offers only the four.
AI_LEVELS: list[str] = [*DIFFICULTIES, "random"]
#: Learned agents added at run time (``cardavia serve --agent NAME=PATH``, cardavia.env.agents).
_LEARNED: dict[str, Callable[[int], Agent]] = {}


def register_level(name: str, factory: Callable[[int], Agent]) -> None:
    """Make ``name`` an AI level playing ``factory(seed)`` (a learned agent)."""
    if name not in AI_LEVELS:
        AI_LEVELS.append(name)
    _LEARNED[name] = factory


STRONGEST = "expert"

#: difficulty → agent name in :data:`cardavia.ai.AGENTS`:
#: easy = basic with 25 % loose moves and no blocking, normal = basic (planner + rules),
#: hard = ``expert_rules`` (basic plus the expert's sure rules: the exact endgame rule and
#: no lead into an opponent's likely way out; no search), expert = the current expert with
#: the full 150 ms budget. Each level beats the one below in duplicate tournaments
#: (docs/ai.md, the difficulty table).
_AGENT_FOR: dict[str, str] = {
    "easy": "basic_loose",
    "normal": "basic",
    "hard": "expert_rules",
    "expert": "expert",
    "random": "random",
}


def agent_for(difficulty: str, seed: int = 0) -> Agent:
    """The agent playing at ``difficulty`` (one of :data:`DIFFICULTIES`)."""
    if difficulty in _LEARNED:
        return _LEARNED[difficulty](seed)
    if difficulty not in _AGENT_FOR:
        raise ValueError(
            f"unknown difficulty {difficulty!r}; choose one of {', '.join(AI_LEVELS)}"
        )
    return make_agent(_AGENT_FOR[difficulty], seed)
