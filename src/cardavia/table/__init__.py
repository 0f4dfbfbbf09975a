"""The play table: configuration (:mod:`.config`), requests (:mod:`.actions`) and the table
itself (:mod:`.table`), its AI seats (:mod:`.ai`). Everything is importable from ``cardavia.table``."""

from cardavia.rules.games import GAME_NAMES
from cardavia.rules.observation import public_event
from cardavia.table.actions import Action, ActionError, Hint, NextDeal, Pass, Play, Resign, Restart, ReturnCard
from cardavia.table.ai import AiRequest, decide, decide_safely, hint_of
from cardavia.table.config import AI, PERSON, SeatConfig, SeatKind, TableConfig
from cardavia.table.log import DEAL_STARTED, RESIGNED, RESTARTED, TABLE_EVENTS, LogEntry
from cardavia.table.table import Table, random_seed

#: The games a table can play (the registry's names; kept for old imports).
GAMES: tuple[str, ...] = GAME_NAMES

__all__ = [
    "AI",
    "DEAL_STARTED",
    "GAMES",
    "PERSON",
    "RESIGNED",
    "RESTARTED",
    "TABLE_EVENTS",
    "Action",
    "ActionError",
    "AiRequest",
    "Hint",
    "LogEntry",
    "NextDeal",
    "Pass",
    "Play",
    "Resign",
    "Restart",
    "ReturnCard",
    "SeatConfig",
    "SeatKind",
    "Table",
    "TableConfig",
    "decide",
    "decide_safely",
    "hint_of",
    "public_event",
    "random_seed",
]
