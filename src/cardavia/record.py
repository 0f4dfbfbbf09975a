"""Game records (cli.md "Game records"): one JSON object per deal, and their replay.

The same record is written by ``cardavia selfplay`` and served by the play server
(``GET /api/tables/{id}/record``); ``cardavia replay`` re-checks every action of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cardavia.cards import Card, Rank, card_strings, parse_cards
from cardavia.events import DealStarted
from cardavia.rules.errors import RulesError
from cardavia.rules.trick import TrickDeal


def _sym(level: int) -> str:
    return Rank(level).symbol


def actions_json(deal: TrickDeal) -> list[dict[str, Any]]:
    """The play-phase actions of a deal in order (cli.md ``actions``)."""
    out: list[dict[str, Any]] = []
    for seat, combo in deal.plays:
        if combo is None:
            out.append({"seat": seat, "pass": True})
        else:
            out.append({"seat": seat, "cards": card_strings(combo.cards), "combo": combo.to_json()})
    return out


def guandan_record(deal: Any) -> dict[str, Any]:
    """The record of a finished (or abandoned) Guandan deal."""
    from cardavia.rules.guandan.deal import GuandanDeal
    from cardavia.rules.guandan.tribute import return_eligible

    assert isinstance(deal, GuandanDeal)
    start = deal.events[0]
    assert isinstance(start, DealStarted)
    tribute: dict[str, Any] | None = None
    if deal.tribute_cancelled or deal.tributes:
        plan = deal.plan
        returns: list[dict[str, Any]] = []
        if plan is not None and not plan.cancelled:
            after = [list(h) for h in start.hands]
            for t in deal.tributes:
                after[t.giver].remove(t.card)
                after[t.receiver].append(t.card)
            for recipient, payer in plan.returns:
                returns.append(
                    {
                        "from": recipient,
                        "to": payer,
                        "eligible": card_strings(return_eligible(after[recipient], deal.level)),
                    }
                )
        tribute = {
            "cancelled": deal.tribute_cancelled,
            "tributes": [
                {"from": t.giver, "to": t.receiver, "card": str(t.card)} for t in deal.tributes
            ],
            "returns": returns,
            "leader": deal.first_leader,
            "returned": [
                {"from": r.giver, "to": r.receiver, "card": str(r.card)} for r in deal.returns
            ],
        }
    result = deal.result or {}
    levels_after = result.get("levels")
    return {
        "game": "guandan",
        "seed": deal.seed,
        "deal": deal.deal_index,
        "hands": [card_strings(h) for h in start.hands],
        "leader": deal.first_leader,
        "actions": actions_json(deal),
        "places": list(deal.places),
        "level": _sym(deal.level),
        "levels_before": [_sym(x) for x in deal.team_levels],
        "levels_after": None if levels_after is None else [_sym(x) for x in levels_after],
        "tribute": tribute,
        "match_winner": result.get("match_winner"),
    }


def runfast_record(deal: Any) -> dict[str, Any]:
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
        "actions": actions_json(deal),
        "winner": result.get("winner"),
        "scores": result.get("scores"),
        "bomb_bonuses": result.get("bomb_bonuses", []),
    }


def deal_record(deal: TrickDeal) -> dict[str, Any]:
    """The record of a deal of either game."""
    return guandan_record(deal) if deal.game == "guandan" else runfast_record(deal)


# --------------------------------------------------------------------------- replay


@dataclass(frozen=True, slots=True)
class ReplayError:
    deal: int  # index of the record in the file (0-based)
    action: int | None  # index in "actions", None for a problem outside the actions
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"ok": False, "record": self.deal, "action": self.action, "error": self.message}


def _interpretation(action: dict[str, Any]) -> tuple[str, str | None] | None:
    combo = action.get("combo")
    if not isinstance(combo, dict) or "type" not in combo:
        return None
    return (str(combo["type"]), combo.get("rank"))


def _hands(record: dict[str, Any]) -> list[list[Card]]:
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RulesError("the record has no hands")
    return [parse_cards(h) for h in hands]


def replay_records(records: Iterable[dict[str, Any]]) -> tuple[list[dict[str, Any]], ReplayError | None]:
    """Re-check every record; the outcomes of the valid ones and the first problem, if any."""
    outcomes: list[dict[str, Any]] = []
    previous_places: Sequence[int] | None = None
    for index, record in enumerate(records):
        try:
            outcome, previous_places = _replay_one(record, previous_places, index)
        except _ActionError as err:
            return outcomes, ReplayError(index, err.action, err.message)
        except (RulesError, ValueError, KeyError, TypeError) as err:
            return outcomes, ReplayError(index, None, _message(err))
        outcomes.append(outcome)
    return outcomes, None


class _ActionError(Exception):
    def __init__(self, action: int, message: str) -> None:
        super().__init__(message)
        self.action = action
        self.message = message


def _message(err: BaseException) -> str:
    if isinstance(err, KeyError):
        return f"the record lacks the field {err.args[0]!r}"
    return str(err)


def _play_actions(deal: TrickDeal, actions: list[dict[str, Any]]) -> None:
    for i, action in enumerate(actions):
        try:
            seat = int(action["seat"])
            if action.get("pass"):
                if seat != deal.turn:
                    raise RulesError(f"seat {seat} passed out of turn (seat {deal.turn} was to act)")
                deal.pass_turn(seat)
            else:
                deal.play(seat, parse_cards(action["cards"]), _interpretation(action))
        except (RulesError, ValueError, KeyError, TypeError) as err:
            raise _ActionError(i, _message(err)) from None
    if not deal.over:
        raise _ActionError(len(actions), "the actions end before the deal is over")


def _replay_one(
    record: dict[str, Any], previous_places: Sequence[int] | None, index: int
) -> tuple[dict[str, Any], Sequence[int] | None]:
    game = record.get("game")
    if game == "guandan":
        return _replay_guandan(record, previous_places)
    if game == "runfast":
        return _replay_runfast(record), None
    raise RulesError(f"record {index} has unknown game {game!r}")


def _replay_guandan(
    record: dict[str, Any], previous_places: Sequence[int] | None
) -> tuple[dict[str, Any], Sequence[int] | None]:
    from cardavia.cards import check_in_deck, guandan_deck
    from cardavia.rules.guandan.combos import level_value
    from cardavia.rules.guandan.deal import GuandanDeal

    hands = _hands(record)
    check_in_deck([c for h in hands for c in h], guandan_deck(), "guandan")
    level = level_value(str(record["level"]))
    levels_before = tuple(level_value(str(x)) for x in record.get("levels_before") or [level, level])
    team_levels = (levels_before[0], levels_before[1])
    seed = int(record.get("seed", 0))
    index = int(record.get("deal", 0))
    tribute = record.get("tribute")
    if tribute:
        if previous_places is None:
            raise RulesError("a deal with tribute needs the previous deal's record before it")
        deal = GuandanDeal.start(
            hands, level, seed=seed, deal_index=index, team_levels=team_levels,
            previous_places=previous_places,
        )
        got = [{"from": t.giver, "to": t.receiver, "card": str(t.card)} for t in deal.tributes]
        if got != tribute.get("tributes", []) or deal.tribute_cancelled != bool(
            tribute.get("cancelled")
        ):
            raise RulesError(f"the recorded tribute does not follow G-3: the rules give {got}")
        for r in tribute.get("returned", []):
            deal.return_card(int(r["from"]), parse_cards([r["card"]])[0])
        if deal.phase == "tribute":
            raise RulesError("the record leaves a return card unpaid")
    else:
        leader = int(record["leader"])
        deal = GuandanDeal.start(
            hands, level, seed=seed, deal_index=index, team_levels=team_levels, leader=leader
        )
    if record.get("leader") is not None and deal.first_leader != int(record["leader"]):
        raise RulesError(
            f"the record says seat {record['leader']} leads; the rules say seat {deal.first_leader}"
        )
    _play_actions(deal, list(record.get("actions", [])))
    outcome = {"deal": index, "places": list(deal.places)}
    if deal.result is not None:
        outcome["levels_after"] = [Rank(x).symbol for x in deal.result["levels"]]
        outcome["match_winner"] = deal.result["match_winner"]
    if "places" in record and list(record["places"]) != list(deal.places):
        raise RulesError(f"the recorded places {record['places']} differ from {list(deal.places)}")
    recorded_after = record.get("levels_after")
    if recorded_after is not None and [str(x) for x in recorded_after] != outcome.get("levels_after"):
        raise RulesError(
            f"the recorded levels {recorded_after} differ from {outcome.get('levels_after')}"
        )
    places: Sequence[int] | None = list(deal.places)
    if deal.result is not None and deal.result.get("match_winner") is not None:
        places = None  # a new match follows: no tribute for its first deal
    return outcome, places


def _replay_runfast(record: dict[str, Any]) -> dict[str, Any]:
    from cardavia.cards import check_in_deck, runfast_deck
    from cardavia.rules.runfast.deal import RunFastDeal

    hands = _hands(record)
    check_in_deck([c for h in hands for c in h], runfast_deck(), "runfast")
    deal = RunFastDeal.start(
        hands, seed=int(record.get("seed", 0)), deal_index=int(record.get("deal", 0))
    )
    _play_actions(deal, list(record.get("actions", [])))
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
    return outcome

