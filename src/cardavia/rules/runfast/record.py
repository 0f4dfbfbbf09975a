"""Run Fast's game-record codec (docs/cli.md "Game records"): a deal → its record, and the
replay check of a record (R-2 – R-5)."""

from __future__ import annotations

from typing import Any

from cardavia.cards import card_strings, check_in_deck, runfast_deck
from cardavia.rules.errors import RulesError
from cardavia.rules.events import DealStarted
from cardavia.rules.observation import history_entry_json
from cardavia.rules.replaying import Carry, play_actions, record_hands
from cardavia.rules.runfast.deal import RunFastDeal
from cardavia.rules.trick import TrickDeal


def deal_record(deal: TrickDeal) -> dict[str, Any]:
    """The record of a finished Run Fast deal."""
    start = deal.events[0]
    assert isinstance(start, DealStarted)
    result = deal.result or {}
    return {
        "game": "runfast",
        "seed": deal.seed,
        "deal": deal.deal_index,
        "hands": [card_strings(h) for h in start.hands],
        "leader": deal.first_leader,
        "actions": [history_entry_json(s, c) for s, c in deal.plays],
        "winner": result.get("winner"),
        "scores": result.get("scores"),
        "bomb_bonuses": result.get("bomb_bonuses", []),
    }


def replay(record: dict[str, Any], previous: Carry | None) -> tuple[dict[str, Any], Carry | None]:
    """Re-check a Run Fast record (deals are independent: nothing carries to the next)."""
    hands = record_hands(record)
    check_in_deck([c for h in hands for c in h], runfast_deck(), "runfast")
    deal = RunFastDeal.start(hands, seed=int(record.get("seed", 0)), deal_index=int(record.get("deal", 0)))
    play_actions(deal, list(record.get("actions", [])))
    result = deal.result or {}
    outcome = {
        "deal": int(record.get("deal", 0)),
        "winner": result.get("winner"),
        "scores": result.get("scores"),
        "bomb_bonuses": result.get("bomb_bonuses", []),
    }
    for key in ("winner", "scores", "bomb_bonuses"):
        if key in record and record[key] != outcome[key]:
            raise RulesError(f"the recorded {key} {record[key]} differs from {outcome[key]}")
    return outcome, None
