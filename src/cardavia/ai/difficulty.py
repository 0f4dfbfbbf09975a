"""Difficulty levels for the UI: configurations of the agents.

The person's Guandan partner plays at the strongest level unless the person chooses otherwise.
"""

from __future__ import annotations

from collections.abc import Callable

from cardavia.ai import make_agent
from cardavia.ai.base import Agent, Decision, ReturnDecision
from cardavia.ai.games import GameAI, game_ai
from cardavia.observation import Observation

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
#: expert = the current expert with the full 150 ms budget. ``hard`` is chosen per game
#: (:attr:`cardavia.ai.games.GameAI.hard`, :class:`PerGame`): Guandan ``expert_v1_quick``
#: (the frozen pre-issue-15 expert at 50 ms), Run Fast ``expert_rules`` (basic plus the
#: expert's sure rules, no search) — in each game the agent that beats ``normal`` and loses
#: to ``expert`` in duplicate tournaments (docs/ai.md, the difficulty table).
_AGENT_FOR: dict[str, str] = {
    "easy": "basic_loose",
    "normal": "basic",
    "expert": "expert",
    "random": "random",
}
#: difficulty → the part of a game's AI that names its agent, where the games differ
_PER_GAME: dict[str, Callable[[GameAI], str]] = {
    "hard": lambda parts: parts.hard,
}


class PerGame:
    """An AI level played by a different agent in each game: the observation's game picks
    it (made on first use, seeded alike).

    >>> agent = PerGame("hard", lambda parts: parts.hard, seed=1)
    >>> agent.name
    'hard'
    """

    def __init__(self, name: str, pick: Callable[[GameAI], str], seed: int = 0) -> None:
        self.name = name
        self._pick = pick
        self._seed = seed
        self._agents: dict[str, Agent] = {}

    def agent(self, obs: Observation) -> Agent:
        """The agent of ``obs``'s game."""
        found = self._agents.get(obs.game)
        if found is None:
            found = self._agents[obs.game] = make_agent(self._pick(game_ai(obs.game)), self._seed)
        return found

    def act(self, obs: Observation) -> Decision:
        return self.agent(obs).act(obs)

    def choose_return(self, obs: Observation) -> ReturnDecision:
        return self.agent(obs).choose_return(obs)


def agent_for(difficulty: str, seed: int = 0) -> Agent:
    """The agent playing at ``difficulty`` (one of :data:`DIFFICULTIES`)."""
    if difficulty in _LEARNED:
        return _LEARNED[difficulty](seed)
    if difficulty in _PER_GAME:
        return PerGame(difficulty, _PER_GAME[difficulty], seed)
    if difficulty not in _AGENT_FOR:
        raise ValueError(
            f"unknown difficulty {difficulty!r}; choose one of {', '.join(AI_LEVELS)}"
        )
    return make_agent(_AGENT_FOR[difficulty], seed)
