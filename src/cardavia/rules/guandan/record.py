"""Guandan's game-record codec (docs/cli.md "Game records"): a deal → its record, and the
replay check of a record (G-2 – G-6; tribute from the previous record's places, G-3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardavia.cards import Rank, card_strings, check_in_deck, guandan_deck, parse_cards
from cardavia.rules.errors import RulesError
from cardavia.rules.events import DealStarted
from cardavia.rules.guandan.combos import level_value
from cardavia.rules.guandan.deal import GuandanDeal
from cardavia.rules.guandan.tribute import return_eligible
from cardavia.rules.observation import history_entry_json
from cardavia.rules.replaying import Carry, play_actions, record_hands
from cardavia.rules.trick import PHASE_TRIBUTE, TrickDeal


def _tribute_json(deal: GuandanDeal, start: DealStarted) -> dict[str, Any] | None:
    if not (deal.tribute_cancelled or deal.tributes):
        return None
    plan = deal.plan
    returns: list[dict[str, Any]] = []
    if plan is not None and not plan.cancelled:
        after = [list(h) for h in start.hands]
        for t in deal.tributes:
            after[t.giver].remove(t.card)
            after[t.receiver].append(t.card)
        for recipient, payer in plan.returns:
            eligible = card_strings(return_eligible(after[recipient], deal.level))
            returns.append({"from": recipient, "to": payer, "eligible": eligible})
    return {
        "cancelled": deal.tribute_cancelled,
        "tributes": [{"from": t.giver, "to": t.receiver, "card": str(t.card)} for t in deal.tributes],
        "returns": returns,
        "leader": deal.first_leader,
        "returned": [{"from": r.giver, "to": r.receiver, "card": str(r.card)} for r in deal.returns],
    }


def deal_record(deal: TrickDeal) -> dict[str, Any]:
    """The record of a finished (or abandoned) Guandan deal."""
    if not isinstance(deal, GuandanDeal):
        raise TypeError(f"a {deal.game} deal has no Guandan record")
    start = deal.events[0]
    assert isinstance(start, DealStarted)
    result = deal.result or {}
    levels_after = result.get("levels")
    return {
        "game": "guandan",
        "seed": deal.seed,
        "deal": deal.deal_index,
        "hands": [card_strings(h) for h in start.hands],
        "leader": deal.first_leader,
        "actions": [history_entry_json(s, c) for s, c in deal.plays],
        "places": list(deal.places),
        "level": Rank(deal.level).symbol,
        "levels_before": [Rank(x).symbol for x in deal.team_levels],
        "levels_after": None if levels_after is None else [Rank(x).symbol for x in levels_after],
        "tribute": _tribute_json(deal, start),
        "match_winner": result.get("match_winner"),
    }


def replay(record: dict[str, Any], previous: Carry | None) -> tuple[dict[str, Any], Carry | None]:
    """Re-check a Guandan record; its outcome and what the match's next record must follow
    (the places for its tribute, the levels it starts from)."""
    hands = record_hands(record)
    check_in_deck([c for h in hands for c in h], guandan_deck(), "guandan")
    level = level_value(str(record["level"]))
    levels_before = tuple(level_value(str(x)) for x in record.get("levels_before") or [level, level])
    team_levels = (levels_before[0], levels_before[1])
    seed = int(record.get("seed", 0))
    index = int(record.get("deal", 0))
    tribute = record.get("tribute")
    if tribute:
        if previous is None:
            raise RulesError("a deal with tribute needs the previous deal's record before it")
        if team_levels != previous.levels or level != previous.next_level:
            raise RulesError(
                f"the record starts at levels {_symbols(team_levels)} played at {Rank(level).symbol}; the"
                f" previous deal left {_symbols(previous.levels)} played at {Rank(previous.next_level).symbol}"
                " (G-1.3 – G-1.5)"
            )
        deal = GuandanDeal.start(
            hands, level, seed=seed, deal_index=index, team_levels=team_levels,
            previous_places=previous.places,
        )
        got = [{"from": t.giver, "to": t.receiver, "card": str(t.card)} for t in deal.tributes]
        if got != tribute.get("tributes", []) or deal.tribute_cancelled != bool(tribute.get("cancelled")):
            raise RulesError(f"the recorded tribute does not follow G-3: the rules give {got}")
        for r in tribute.get("returned", []):
            deal.return_card(int(r["from"]), parse_cards([r["card"]])[0])
        if deal.phase == PHASE_TRIBUTE:
            raise RulesError("the record leaves a return card unpaid")
    else:
        leader = int(record["leader"])
        deal = GuandanDeal.start(hands, level, seed=seed, deal_index=index, team_levels=team_levels, leader=leader)
    if record.get("leader") is not None and deal.first_leader != int(record["leader"]):
        raise RulesError(f"the record says seat {record['leader']} leads; the rules say seat {deal.first_leader}")
    play_actions(deal, list(record.get("actions", [])))
    outcome: dict[str, Any] = {"deal": index, "places": list(deal.places)}
    if deal.result is not None:
        outcome["levels_after"] = [Rank(x).symbol for x in deal.result["levels"]]
        outcome["match_winner"] = deal.result["match_winner"]
    if "places" in record and list(record["places"]) != list(deal.places):
        raise RulesError(f"the recorded places {record['places']} differ from {list(deal.places)}")
    recorded_after = record.get("levels_after")
    if recorded_after is not None and [str(x) for x in recorded_after] != outcome.get("levels_after"):
        raise RulesError(f"the recorded levels {recorded_after} differ from {outcome.get('levels_after')}")
    result = deal.result
    if result is None or result.get("match_winner") is not None:
        return outcome, None  # a new match follows: no tribute for its first deal
    after = (int(result["levels"][0]), int(result["levels"][1]))
    return outcome, Carry(tuple(deal.places), after, int(result["next_level"]))


def _symbols(levels: Sequence[int]) -> list[str]:
    return [Rank(x).symbol for x in levels]
