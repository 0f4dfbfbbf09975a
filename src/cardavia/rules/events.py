"""A game is its event log: typed, immutable events with a JSON form.

The state of a deal is the fold of its events (``Deal.from_events``); the same log is the
replay, the saved game and the test fixture.

>>> ev = Passed(seat=2)
>>> event_to_json(ev)
{'event': 'passed', 'seat': 2}
>>> event_from_json(event_to_json(ev)) == ev
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardavia.cards import Card, Rank, card_strings, parse_cards
from cardavia.rules.combo import Combo


def combo_to_json(combo: Combo) -> dict[str, Any]:
    """A play's combo as the event log stores it (with its comparison keys)."""
    return combo.to_json(keys=True)


def combo_from_json(data: dict[str, Any]) -> Combo:
    """Read :func:`combo_to_json`'s object back."""
    return Combo.from_json(data)


@dataclass(frozen=True, slots=True)
class DealStarted:
    """A new deal: the hands as dealt (seat 0 first) and, if known, the first leader."""

    game: str
    deal: int
    seed: int
    hands: tuple[tuple[Card, ...], ...]
    level: int | None = None
    leader: int | None = None
    team_levels: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class TributePaid:
    """G-3.2: ``giver`` handed ``card`` to ``receiver`` (automatic)."""

    giver: int
    receiver: int
    card: Card


@dataclass(frozen=True, slots=True)
class TributeCancelled:
    """G-3.4: the payers held both red jokers; no cards move."""

    payers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Returned:
    """G-3.5: the recipient ``giver`` returned ``card`` to the payer ``receiver``."""

    giver: int
    receiver: int
    card: Card


@dataclass(frozen=True, slots=True)
class LeaderSet:
    """Who leads the first trick (G-2.3, G-3.4, G-3.6, R-2.3)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    combo: Combo


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int


@dataclass(frozen=True, slots=True)
class DealEnded:
    """The deal is over: finishing order and the game's settlement."""

    places: tuple[int, ...]
    result: dict[str, Any]


Event = DealStarted | TributePaid | TributeCancelled | Returned | LeaderSet | Played | Passed | DealEnded

_KINDS: dict[str, type] = {
    "deal_started": DealStarted,
    "tribute_paid": TributePaid,
    "tribute_cancelled": TributeCancelled,
    "returned": Returned,
    "leader_set": LeaderSet,
    "played": Played,
    "passed": Passed,
    "deal_ended": DealEnded,
}
_NAMES: dict[type, str] = {v: k for k, v in _KINDS.items()}


def event_name(event: Event) -> str:
    return _NAMES[type(event)]


def event_to_json(event: Event) -> dict[str, Any]:
    """The JSON object of an event, with its kind in ``"event"``."""
    out: dict[str, Any] = {"event": _NAMES[type(event)]}
    if isinstance(event, DealStarted):
        out.update(
            game=event.game,
            deal=event.deal,
            seed=event.seed,
            hands=[card_strings(h) for h in event.hands],
            level=None if event.level is None else Rank(event.level).symbol,
            leader=event.leader,
        )
        if event.team_levels is not None:
            out["team_levels"] = [Rank(x).symbol for x in event.team_levels]
    elif isinstance(event, TributePaid | Returned):
        out.update({"from": event.giver, "to": event.receiver, "card": str(event.card)})
    elif isinstance(event, TributeCancelled):
        out.update(payers=list(event.payers))
    elif isinstance(event, LeaderSet | Passed):
        out.update(seat=event.seat)
    elif isinstance(event, Played):
        out.update(seat=event.seat, cards=card_strings(event.combo.cards), combo=combo_to_json(event.combo))
    elif isinstance(event, DealEnded):
        out.update(places=list(event.places), result=event.result)
    return out


def _levels(value: Any) -> tuple[int, int] | None:
    if value is None:
        return None
    a, b = (int(Rank.parse(str(x))) for x in value)
    return (a, b)


def event_from_json(data: dict[str, Any]) -> Event:
    """Read an event written by :func:`event_to_json`."""
    kind = data.get("event")
    if kind not in _KINDS:
        raise ValueError(f"unknown event kind {kind!r}")
    if kind == "deal_started":
        level = data.get("level")
        return DealStarted(
            game=str(data["game"]),
            deal=int(data["deal"]),
            seed=int(data["seed"]),
            hands=tuple(tuple(parse_cards(h)) for h in data["hands"]),
            level=None if level is None else int(Rank.parse(str(level))),
            leader=data.get("leader"),
            team_levels=_levels(data.get("team_levels")),
        )
    if kind == "tribute_paid":
        return TributePaid(int(data["from"]), int(data["to"]), parse_cards([data["card"]])[0])
    if kind == "returned":
        return Returned(int(data["from"]), int(data["to"]), parse_cards([data["card"]])[0])
    if kind == "tribute_cancelled":
        return TributeCancelled(tuple(int(s) for s in data["payers"]))
    if kind == "leader_set":
        return LeaderSet(int(data["seat"]))
    if kind == "passed":
        return Passed(int(data["seat"]))
    if kind == "played":
        return Played(int(data["seat"]), combo_from_json(data["combo"]))
    return DealEnded(tuple(int(s) for s in data["places"]), dict(data["result"]))



__all__ = [
    "DealEnded",
    "DealStarted",
    "Event",
    "LeaderSet",
    "Passed",
    "Played",
    "Returned",
    "TributeCancelled",
    "TributePaid",
    "combo_from_json",
    "combo_to_json",
    "event_from_json",
    "event_name",
    "event_to_json",
]
