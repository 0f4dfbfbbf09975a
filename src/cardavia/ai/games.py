"""The AI's parts of each game, looked up by the observation's game name in one place.

The agents never test which game they play: they ask :func:`game_ai` for the parts and
call them. Adding a game to the AI is one package (``ai/<game>/``) and one entry here.

>>> from cardavia.rules.runfast.deal import RunFastDeal
>>> game_ai(RunFastDeal.game).search.__module__
'cardavia.ai.runfast.search'
>>> game_ai("chess")
Traceback (most recent call last):
...
ValueError: unknown game 'chess'; games are guandan and runfast
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardavia.ai.base import Agent, Decision, ReturnDecision
from cardavia.ai.locate import Features
from cardavia.ai.reasons import Reason
from cardavia.ai.search import Search
from cardavia.ai.tracking import Tracked
from cardavia.cards import Card, counts
from cardavia.observation import Observation
from cardavia.rules.combo import Combo, Pattern
from cardavia.rules.guandan.deal import GuandanDeal
from cardavia.rules.runfast.deal import RunFastDeal
from cardavia.rules.trick import TrickDeal

from .guandan import basic as gd_basic
from .guandan import locate as gd_locate
from .guandan import search as gd_search
from .guandan import tournament as gd_tournament
from .runfast import basic as rf_basic
from .runfast import locate as rf_locate
from .runfast import search as rf_search
from .runfast import tournament as rf_tournament

#: A move as a policy answers it: the abstract pattern (None = pass) and its reason.
Choice = tuple[Pattern | None, Reason]


@dataclass(frozen=True, slots=True)
class Tournament:
    """A game's duplicate format, as :mod:`cardavia.ai.tournament` runs it."""

    #: the agent name of each slot from the names given (ValueError for a wrong count)
    slots: Callable[[Sequence[str]], tuple[str, ...]]
    #: one deal's duplicate games: ``(slots, deal seed, index, build(name, seed))`` → result
    play: Callable[[Sequence[str], int, int, Callable[[str, int], Agent]], dict[str, Any]]
    #: the summary's per-game part: ``(results, names, slots)``
    summarize: Callable[[Sequence[dict[str, Any]], Sequence[str], Sequence[str]], dict[str, Any]]
    #: the table rows of a summary
    lines: Callable[[dict[str, Any]], list[str]]


@dataclass(frozen=True, slots=True)
class Locate:
    """A game's card-location model, as :mod:`cardavia.ai.locate_fit` fits it."""

    #: seat → card class → features ``φ`` for the observing seat's others
    features: Callable[[Observation], dict[int, dict[int, Features]]]
    #: a card code's class at the observation's deal
    code_class: Callable[[int, Observation], int]
    #: where the fitted weights ship
    file: Path
    #: a fresh self-play deal from a seed
    deal: Callable[[int], TrickDeal]


@dataclass(frozen=True, slots=True)
class GameAI:
    """What the agents need of one game."""

    #: the abstract moves the observing seat may play now (a pass is not included)
    legal: Callable[[Observation, list[int]], list[Pattern]]
    #: one concrete card choice for a pattern of :attr:`legal`
    combo: Callable[[Observation, Pattern, list[int]], Combo]
    #: the ``basic`` policy: ``(obs, counts, rng, noise, blocking)``
    basic: Callable[[Observation, list[int], random.Random, float, bool], Choice]
    #: the ``basic`` policy with every knob given: ``(obs, counts, rng, config)``, the config
    #: being the game's (``GdConfig`` / ``RfConfig``)
    basic_as: Callable[[Observation, list[int], random.Random, Any], Choice]
    #: the tribute return card (G-3.5) and its reason
    give_back: Callable[[Observation, list[int]], tuple[Card, Reason]]
    #: the ``expert`` search: ``(obs, counts, search, t0)``
    search: Callable[[Observation, list[int], Search, float], Choice]
    #: card tracking (unseen cards and what the passes tell)
    track: Callable[[Observation], Tracked]
    #: the duplicate tournament format
    tournament: Tournament
    #: the agent of difficulty ``hard`` in this game (:mod:`cardavia.ai.difficulty`): the
    #: one that beats ``normal`` and loses to ``expert`` in this game's tournaments
    hard: str
    #: the card-location model's parts
    locate: Locate
    #: the ``expert``'s concrete cards for a pattern (Guandan: sparing a straight flush it
    #: holds aside, :func:`cardavia.ai.guandan.search.expert_combo`)
    expert_combo: Callable[[Observation, Pattern, list[int]], Combo]

    def decision(self, obs: Observation, cnt: list[int], choice: Choice) -> Decision:
        """The agent's answer: the chosen pattern made concrete on this hand, with its reason."""
        move, why = choice
        return Decision.of(None if move is None else self.combo(obs, move, cnt), why)

    def expert_decision(self, obs: Observation, cnt: list[int], choice: Choice) -> Decision:
        """The ``expert``'s answer: as :meth:`decision`, the cards chosen by :attr:`expert_combo`."""
        move, why = choice
        return Decision.of(None if move is None else self.expert_combo(obs, move, cnt), why)

    def return_decision(self, obs: Observation) -> ReturnDecision:
        """The tribute return for ``obs``, by the basic policy (every agent but ``random``)."""
        return ReturnDecision.of(*self.give_back(obs, counts(obs.hand)))


#: Game name → its AI parts (the names are the deal classes' ``game``).
GAMES: dict[str, GameAI] = {
    GuandanDeal.game: GameAI(
        gd_basic.legal, gd_basic.combo, gd_basic.decide, gd_basic.decide_as, gd_basic.give_back,
        gd_search.decide, gd_search.track,
        Tournament(gd_tournament.slots, gd_tournament.play, gd_tournament.summarize, gd_tournament.lines),
        hard="expert_v1_quick",
        locate=Locate(
            lambda o: gd_locate.seat_features(o.history, o.hand_sizes, o.seat, o.level or 2),
            lambda code, o: gd_locate.code_class(code, o.level or 2),
            gd_locate.FILE, GuandanDeal.fresh,
        ),
        expert_combo=gd_search.expert_combo,
    ),
    RunFastDeal.game: GameAI(
        rf_basic.legal, rf_basic.combo, rf_basic.decide, rf_basic.decide_as, rf_basic.give_back,
        rf_search.decide, rf_search.track,
        Tournament(rf_tournament.slots, rf_tournament.play, rf_tournament.summarize, rf_tournament.lines),
        hard="expert_rules",
        locate=Locate(
            lambda o: rf_locate.seat_features(o.history, o.hand_sizes, o.seat),
            lambda code, o: rf_locate.code_class(code),
            rf_locate.FILE, RunFastDeal.fresh,
        ),
        expert_combo=rf_basic.combo,
    ),
}


def game_ai(name: str) -> GameAI:
    """The AI parts of the game called ``name``."""
    try:
        return GAMES[name]
    except KeyError:
        *first, last = GAMES
        raise ValueError(f"unknown game {name!r}; games are {', '.join(first)} and {last}") from None


__all__ = ["GAMES", "Choice", "GameAI", "Locate", "Tournament", "game_ai"]
