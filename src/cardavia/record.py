"""Game records (docs/cli.md "Game records"): one JSON object per deal, and their replay.

The same record is written by ``cardavia selfplay`` and served by the play server
(``GET /api/tables/{id}/record``); ``cardavia replay`` re-checks every action of it. Each
game's codec lives with the game (``rules/<game>/record.py``); this module picks it from
the registry.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cardavia.rules.errors import RulesError
from cardavia.rules.games import UnknownGame, find_game, game_of
from cardavia.rules.guandan.record import deal_record as guandan_record
from cardavia.rules.observation import history_entry_json
from cardavia.rules.replaying import ActionRefused, Carry, refusal_message
from cardavia.rules.runfast.record import deal_record as runfast_record
from cardavia.rules.trick import TrickDeal


def actions_json(deal: TrickDeal) -> list[dict[str, Any]]:
    """The play-phase actions of a deal in order (docs/cli.md ``actions``)."""
    return [history_entry_json(seat, combo) for seat, combo in deal.plays]


def deal_record(deal: TrickDeal) -> dict[str, Any]:
    """The record of a deal of either game."""
    return game_of(deal).record(deal)


# --------------------------------------------------------------------------- replay


@dataclass(frozen=True, slots=True)
class ReplayError:
    deal: int  # index of the record in the file (0-based)
    action: int | None  # index in "actions", None for a problem outside the actions
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"ok": False, "record": self.deal, "action": self.action, "error": self.message}


def replay_records(records: Iterable[dict[str, Any]]) -> tuple[list[dict[str, Any]], ReplayError | None]:
    """Re-check every record; the outcomes of the valid ones and the first problem, if any."""
    outcomes: list[dict[str, Any]] = []
    carry: Carry | None = None
    for index, record in enumerate(records):
        try:
            outcome, carry = _replay_one(record, carry, index)
        except ActionRefused as err:
            return outcomes, ReplayError(index, err.action, err.message)
        except (RulesError, ValueError, KeyError, TypeError) as err:
            return outcomes, ReplayError(index, None, refusal_message(err))
        outcomes.append(outcome)
    return outcomes, None


def _replay_one(record: dict[str, Any], carry: Carry | None, index: int) -> tuple[dict[str, Any], Carry | None]:
    try:
        game = find_game(record.get("game"))
    except UnknownGame:
        raise RulesError(f"record {index} has unknown game {record.get('game')!r}") from None
    return game.replay(record, carry)


__all__ = ["ReplayError", "actions_json", "deal_record", "guandan_record", "replay_records", "runfast_record"]
