"""A scripted seat for the server tests and the load benchmark: it reads only its own
``state`` frames and picks moves with the engine (``cardavia.ai.legal``) on them."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from cardavia.ai.legal import abstract_moves, to_combo
from cardavia.cards import Card, Rank, card_strings, parse_cards
from cardavia.observation import Observation
from cardavia.rules.combo import Combo


class SeatConn(Protocol):
    """What :func:`answer` and :func:`drive` need of a seat (``tests.server.conftest.Seat``)."""

    @property
    def last_state(self) -> dict[str, Any] | None: ...

    def send(self, message: dict[str, Any]) -> None: ...

    def recv_until(self, predicate: Callable[[dict[str, Any]], object]) -> dict[str, Any]: ...


def _readings(game: str, cards: list[Card], level: int | None) -> list[Combo]:
    if game == "guandan":
        from cardavia.rules.guandan.combos import readings_of

        assert level is not None
        return readings_of(cards, level)
    from cardavia.rules.runfast.combos import readings_of as rf_readings

    return rf_readings(cards, False) + rf_readings(cards, True)


def combo_from_wire(game: str, data: dict[str, Any], level: int | None) -> Combo:
    """The engine's Combo for a combo object of the wire (which has no comparison keys)."""
    cards = parse_cards(data["cards"])
    for r in _readings(game, cards, level):
        if r.type.value == data["type"] and (r.rank.symbol if r.rank else None) == data["rank"]:
            return r
    raise AssertionError(f"no reading of {data} found")


def obs_from_wire(o: dict[str, Any]) -> Observation:
    """Enough of an Observation, from its JSON, for move generation."""
    level = None if o.get("level") is None else int(Rank.parse(o["level"]))
    top = None if o["top"] is None else combo_from_wire(o["game"], o["top"], level)
    must = o.get("must_include")
    return Observation(
        game=o["game"],
        seat=o["seat"],
        n_seats=o["n_seats"],
        phase=o["phase"],
        deal_index=o["deal_index"],
        hand=tuple(parse_cards(o["hand"])),
        hand_sizes=tuple(o["hand_sizes"]),
        turn=o["turn"],
        first_leader=o["first_leader"],
        top=top,
        top_seat=o["top_seat"],
        trick=(),
        history=(),
        places=tuple(o["places"]),
        played_any=tuple(o["played_any"]),
        can_pass=o["can_pass"],
        level=level,
        opening=o["opening"],
        must_include=None if must is None else Card.parse(must),
        return_options=tuple(parse_cards(o["return_options"])),
    )


def must_act(o: dict[str, Any]) -> bool:
    """Whether the seat of this observation is awaited."""
    if o["phase"] == "tribute":
        return any(r["from"] == o["seat"] for r in o["pending_returns"])
    return bool(o["phase"] == "play" and o["turn"] == o["seat"])


def choose(o: dict[str, Any], seed: int, pass_rate: float = 0.3) -> dict[str, Any]:
    """The scripted move for observation ``o`` (stateless: seeded by the position)."""
    rng = random.Random(f"{seed}/{o['deal_index']}/{len(o['history'])}/{len(o['hand'])}")
    if o["phase"] == "tribute":
        return {"type": "return", "card": rng.choice(o["return_options"])}
    obs = obs_from_wire(o)
    moves = abstract_moves(obs)
    if obs.can_pass and (not moves or rng.random() < pass_rate):
        return {"type": "pass"}
    combo = to_combo(obs, rng.choice(moves))
    message: dict[str, Any] = {"type": "play", "cards": card_strings(combo.cards)}
    if rng.random() < 0.8:  # sometimes leave the reading out: the server asks if needed
        rank = None if combo.rank is None else combo.rank.symbol
        message["interpretation"] = {"type": combo.type.value, "rank": rank}
    return message


def own_event(message: dict[str, Any], seat: int, sent: dict[str, Any]) -> bool:
    """Whether ``message`` is the server's answer to ``sent``: its event, or an error."""
    if message["type"] == "error":
        return True
    event = message.get("event")
    if message["type"] != "state" or event is None:
        return False
    kind = sent["type"]
    if kind == "play":
        return bool(event["event"] == "played" and event["seat"] == seat)
    if kind == "pass":
        return bool(event["event"] == "passed" and event["seat"] == seat)
    if kind == "return":
        return bool(event["event"] == "returned" and event["from"] == seat)
    if kind in ("next_deal", "restart"):
        return bool(event["event"] == "deal_started")
    if kind == "resign":
        return bool(event["event"] == "resigned")
    return False


def iter_cards(obj: Any, skip: frozenset[str] = frozenset({"as"})) -> Iterator[str]:
    """Every string in a JSON value that reads as a card (``as`` lists — what wilds stand
    for — are skipped: they are not physical cards)."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key not in skip:
                yield from iter_cards(value, skip)
    elif isinstance(obj, list):
        for value in obj:
            yield from iter_cards(value, skip)
    elif isinstance(obj, str) and 2 <= len(obj) <= 3:
        try:
            Card.parse(obj)
        except ValueError:
            return
        if obj.upper() not in ("10",):
            yield str(Card.parse(obj))


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def answer(seat_conn: SeatConn, me: int, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` and return the server's answer to it (resolving ``ambiguous``)."""
    seat_conn.send(message)
    reply = seat_conn.recv_until(lambda m: own_event(m, me, message))
    if reply["type"] == "error" and reply["code"] == "ambiguous":
        option = reply["options"][0]
        retry = {**message, "interpretation": {"type": option["type"], "rank": option["rank"]}}
        seat_conn.send(retry)
        reply = seat_conn.recv_until(lambda m: own_event(m, me, retry))
    if reply["type"] == "error":
        raise AssertionError(f"the server refused {message}: {reply}")
    return reply


def drive(
    seat_conn: SeatConn,
    me: int,
    seed: int,
    until: Callable[[dict[str, Any]], object],
    timeout: float = 60,
) -> dict[str, Any]:
    """Play the seat's moves until ``until(state)`` holds; return that state."""
    import time

    deadline = time.monotonic() + timeout
    state = seat_conn.last_state
    if state is None:
        state = seat_conn.recv_until(lambda m: m["type"] == "state")
    while True:
        assert time.monotonic() < deadline, "the game did not progress"
        if until(state):
            return state
        if must_act(state["observation"]):
            state = answer(seat_conn, me, choose(state["observation"], seed))
        else:
            state = seat_conn.recv_until(lambda m: m["type"] == "state")


def deal_over(state: dict[str, Any]) -> bool:
    """The frame of the ``deal_ended`` event (or a fresh connection to a finished deal)."""
    event = state["event"]
    return bool(
        state["observation"]["phase"] == "over"
        and (event is None or event["event"] == "deal_ended")
    )
