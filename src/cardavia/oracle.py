"""The rules oracle: answers the questions of docs/cli.md as JSON-ready dicts.

Both the command line (``cardavia rules …``) and ``cardavia rules batch`` build a request
dict and call :func:`answer`. A bad request raises :class:`OracleError` (a ``ValueError``)
with one clear sentence naming the bad value.

>>> answer({"op": "classify", "game": "guandan", "cards": ["BJ", "BJ"]})["combos"][0]["type"]
'pair'
>>> answer({"op": "beats", "game": "runfast", "prev": "KS KD", "play": "AS AD"})["beats"]
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardavia.cards import Card, CardError, Rank, card_strings, check_in_deck, counts
from cardavia.cards import parse_cards as _parse_cards
from cardavia.rules.combo import Combo, ComboType, beats, strength
from cardavia.rules.errors import RulesError
from cardavia.rules.games import GAMES, GUANDAN, Game, UnknownGame, find_game
from cardavia.rules.guandan.combos import level_value
from cardavia.rules.guandan.levels import settle_deal
from cardavia.rules.guandan.tribute import hands_after_tribute, plan_tribute, return_eligible
from cardavia.rules.runfast.settlement import settle


class OracleError(ValueError):
    """A request the oracle cannot answer; the message names the bad value."""


# --------------------------------------------------------------------------- request fields


def _game(req: dict[str, Any]) -> Game:
    name = req.get("game", GUANDAN.name)
    try:
        return find_game(name)
    except UnknownGame:
        raise OracleError(f"unknown game {name!r}; games are {' and '.join(GAMES)}") from None


def _level(req: dict[str, Any]) -> int:
    value = req.get("level", "2")
    if value is None:
        value = "2"
    try:
        return level_value(str(value))
    except CardError:
        raise OracleError(f"unknown level {value!r}; levels are 2 3 4 5 6 7 8 9 T J Q K A") from None


def _cards(req: dict[str, Any], key: str, *, required: bool = True) -> list[Card] | None:
    value = req.get(key)
    if value is None:
        if required:
            raise OracleError(f"missing {key.replace('_', '-')}: give the cards")
        return None
    if isinstance(value, str):
        return _parse_cards(value)
    if isinstance(value, list):
        return _parse_cards(value)
    raise OracleError(f"{key} must be a card list, not {value!r}")


def _check(game: Game, *card_lists: Sequence[Card] | None) -> None:
    check_in_deck([c for cl in card_lists if cl for c in cl], game.deck(), game.name)


def _seat_list(value: Any, name: str, n_seats: int) -> list[int]:
    if value is None:
        return []
    if isinstance(value, str):
        parts = [p for p in value.replace(" ", ",").split(",") if p]
    elif isinstance(value, list):
        parts = [str(v) for v in value]
    elif isinstance(value, int):
        parts = [str(value)]
    else:
        raise OracleError(f"{name} must list seats, not {value!r}")
    seats: list[int] = []
    for p in parts:
        try:
            seat = int(p)
        except (TypeError, ValueError):
            raise OracleError(f"{name}: {p!r} is not a seat number") from None
        if not 0 <= seat < n_seats:
            raise OracleError(f"{name}: seat {seat} does not exist; seats are 0 to {n_seats - 1}")
        seats.append(seat)
    return seats


def _hands(req: dict[str, Any], n: int) -> list[list[Card]]:
    value = req.get("hands")
    if not isinstance(value, list):
        raise OracleError(f"missing hands: give {n} hands, seat 0 first")
    if len(value) != n:
        raise OracleError(f"hands: give exactly {n} hands, seat 0 first (got {len(value)})")
    out: list[list[Card]] = []
    for h in value:
        if isinstance(h, str | list):
            out.append(_parse_cards(h))
        else:
            raise OracleError(f"a hand must be a card list, not {h!r}")
    return out


def _type(req: dict[str, Any], key: str) -> ComboType | None:
    value = req.get(key)
    if value is None:
        return None
    try:
        return ComboType.parse(str(value))
    except ValueError as err:
        raise OracleError(str(err)) from None


# --------------------------------------------------------------------------- game adapters


def _read_prev(game: Game, req: dict[str, Any], level: int, opening: bool) -> Combo:
    prev = _cards(req, "prev")
    assert prev is not None
    readings = game.readings(prev, level, opening)
    if not readings:
        raise OracleError(f"prev: {' '.join(map(str, prev))} is not a combination in {game.name}")
    want = _type(req, "prev_type")
    if want is not None:
        readings = [r for r in readings if r.type == want]
        if not readings:
            raise OracleError(f"prev-type: {' '.join(map(str, prev))} cannot be read as {want.value}")
    return max(readings, key=strength)


# --------------------------------------------------------------------------- operations


def op_classify(req: dict[str, Any]) -> dict[str, Any]:
    game = _game(req)
    cards = _cards(req, "cards")
    assert cards is not None
    _check(game, cards)
    level = _level(req)
    combos = game.readings(cards, level, bool(req.get("opening")))
    return {"cards": card_strings(cards), "combos": [c.to_json() for c in combos]}


def op_beats(req: dict[str, Any]) -> dict[str, Any]:
    game = _game(req)
    level = _level(req)
    opening = bool(req.get("opening"))
    prev_cards = _cards(req, "prev")
    play_cards = _cards(req, "play")
    _check(game, prev_cards, play_cards)
    prev = _read_prev(game, req, level, opening)
    assert play_cards is not None
    readings = game.readings(play_cards, level, False)
    want = _type(req, "type")
    if want is not None:
        readings = [r for r in readings if r.type == want]
    winners = [r for r in readings if beats(r, prev)]
    best = max(winners, key=strength) if winners else None
    return {
        "beats": best is not None,
        "prev": prev.to_json(),
        "play": None if best is None else best.to_json(),
    }


def op_legal(req: dict[str, Any]) -> dict[str, Any]:
    game = _game(req)
    level = _level(req)
    opening = bool(req.get("opening"))
    hand = _cards(req, "hand")
    assert hand is not None
    prev_cards = _cards(req, "prev", required=False)
    _check(game, hand, prev_cards)
    top: Combo | None = None
    if prev_cards is not None:
        top = _read_prev(game, req, level, opening)
    must = game.opening_card
    if must is not None and opening and top is None and must not in hand:
        raise OracleError(f"hand: an opening hand must hold {must} (R-2.3)")
    moves = game.all_moves(counts(hand), level, top, opening and top is None)
    if top is None:
        can_pass = False
    elif game.free_pass:
        can_pass = True
    else:
        can_pass = not moves
    return {
        "moves": [{"cards": card_strings(m.cards), "combo": m.to_json()} for m in moves],
        "can_pass": can_pass,
    }


def op_tribute(req: dict[str, Any]) -> dict[str, Any]:
    if req.get("game", GUANDAN.name) != GUANDAN.name:
        raise OracleError("tribute exists only in guandan")
    level = _level(req)
    places = _seat_list(req.get("places"), "places", GUANDAN.seats)
    hands = _hands(req, GUANDAN.seats)
    _check(GUANDAN, *hands)
    try:
        plan = plan_tribute(places, hands, level)
    except RulesError as err:
        raise OracleError(str(err)) from None
    after = hands_after_tribute(hands, plan.tributes)
    return {
        "cancelled": plan.cancelled,
        "tributes": [{"from": t.giver, "to": t.receiver, "card": str(t.card)} for t in plan.tributes],
        "returns": [
            {"from": r, "to": p, "eligible": card_strings(return_eligible(after[r], level))}
            for r, p in plan.returns
        ],
        "leader": plan.leader,
    }


def _levels(value: Any) -> list[int]:
    if isinstance(value, str):
        parts = [p for p in value.replace(" ", ",").split(",") if p]
    elif isinstance(value, list):
        parts = value
    else:
        raise OracleError("missing levels: give the two team levels, e.g. 2,5")
    if len(parts) != 2:
        raise OracleError(f"levels: give exactly two team levels, not {value!r}")
    try:
        return [level_value(str(p)) for p in parts]
    except CardError:
        raise OracleError(f"levels: {value!r} must be two ranks from 2 to A") from None


def op_settle(req: dict[str, Any]) -> dict[str, Any]:
    game = _game(req)
    if game.levels:
        levels = _levels(req.get("levels"))
        deal_level_value = req.get("deal_level")
        if deal_level_value is None:
            raise OracleError("missing deal-level: give the level the deal was played at")
        try:
            deal_level = level_value(str(deal_level_value))
        except CardError:
            raise OracleError(f"deal-level: unknown level {deal_level_value!r}") from None
        places = _seat_list(req.get("places"), "places", game.seats)
        try:
            s = settle_deal(levels, deal_level, places)
        except RulesError as err:
            raise OracleError(str(err)) from None
        return {
            "winner_team": s.winner_team,
            "advance": s.advance,
            "levels": [Rank(x).symbol for x in s.levels],
            "next_level": Rank(s.next_level).symbol,
            "match_winner": s.match_winner,
        }
    n = game.seats
    winner_list = _seat_list(req.get("winner"), "winner", n)
    if len(winner_list) != 1:
        raise OracleError("winner: give exactly one seat (0, 1 or 2)")
    hands = _hands(req, n)
    _check(game, *hands)
    never = _seat_list(req.get("never_played"), "never-played", n)
    bonus = _seat_list(req.get("bomb_bonus"), "bomb-bonus", n)
    try:
        scores = settle(winner_list[0], hands, set(never), bonus)
    except RulesError as err:
        raise OracleError(str(err)) from None
    return {"scores": scores}


OPERATIONS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "classify": op_classify,
    "beats": op_beats,
    "legal": op_legal,
    "tribute": op_tribute,
    "settle": op_settle,
}


def answer(req: dict[str, Any]) -> dict[str, Any]:
    """Answer one rules request (cli.md); raises :class:`OracleError` for a bad request."""
    if not isinstance(req, dict):
        raise OracleError("a request must be a JSON object")
    op = req.get("op")
    handler = OPERATIONS.get(str(op))
    if handler is None:
        raise OracleError(f"unknown op {op!r}; ops are {', '.join(OPERATIONS)}")
    try:
        return handler(req)
    except (CardError, RulesError) as err:
        raise OracleError(str(err)) from None
