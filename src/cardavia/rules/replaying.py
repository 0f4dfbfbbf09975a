"""What both games' record replays share: reading the hands and re-playing the actions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardavia.cards import Card, parse_cards
from cardavia.rules.errors import RulesError
from cardavia.rules.trick import TrickDeal


@dataclass(frozen=True, slots=True)
class Carry:
    """What a replayed deal hands to the next record of the same match: its finishing order
    (the next deal's tribute, G-3) and the levels it left (G-1.3 – G-1.5)."""

    places: tuple[int, ...]
    levels: tuple[int, int]
    next_level: int


class ActionRefused(Exception):
    """A recorded action the rules refuse: its index in ``actions`` and why."""

    def __init__(self, action: int, message: str) -> None:
        super().__init__(message)
        self.action = action
        self.message = message


def refusal_message(err: BaseException) -> str:
    """One sentence for a refused record or action."""
    if isinstance(err, KeyError):
        return f"the record lacks the field {err.args[0]!r}"
    return str(err)


def record_hands(record: dict[str, Any]) -> list[list[Card]]:
    """The hands a record says were dealt (seat 0 first)."""
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RulesError("the record has no hands")
    return [parse_cards(h) for h in hands]


def _interpretation(action: dict[str, Any]) -> tuple[str, str | None] | None:
    combo = action.get("combo")
    if not isinstance(combo, dict) or "type" not in combo:
        return None
    return (str(combo["type"]), combo.get("rank"))


def play_actions(deal: TrickDeal, actions: list[dict[str, Any]]) -> None:
    """Re-play the recorded play-phase actions; :class:`ActionRefused` at the first bad one."""
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
            raise ActionRefused(i, refusal_message(err)) from None
    if not deal.over:
        raise ActionRefused(len(actions), "the actions end before the deal is over")
