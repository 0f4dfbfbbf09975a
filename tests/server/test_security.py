"""Refused input: each gets one clear error to its sender only, the table is unchanged and
the server stays up."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from .conftest import LiveServer, Seat
from .ws_client import answer, choose, must_act


def _table(server: LiveServer, game: str = "guandan") -> tuple[str, str, Seat, dict[str, Any]]:
    created = server.create(game, difficulty="easy", partner="easy", seed=13)
    seat = server.connect(created["table_id"], created["token"])
    state = seat.recv_until(lambda m: m["type"] == "state" and must_act(m["observation"]))
    return created["table_id"], created["token"], seat, state


def _unchanged(server: LiveServer, table_id: str, seq: int, seat: Seat) -> None:
    assert len(server.stored_events(table_id)) == seq
    summary = httpx.get(f"{server.http}/api/tables/{table_id}").json()
    assert summary["seq"] == seq
    # the connection still works and shows the same position
    seat.send({"type": "hint"})
    assert seat.recv_until(lambda m: m["type"] in ("hint", "error"))["type"] == "hint"


@pytest.mark.parametrize("token", [None, "", "forged-token-000000000000000000", "x" * 5000])
def test_bad_tokens_are_refused(server: LiveServer, token: str | None) -> None:
    table_id, _, seat, state = _table(server)
    intruder = server.connect(table_id, token)
    error = intruder.recv()
    assert error["type"] == "error" and error["code"] == "auth"
    with pytest.raises(ConnectionClosed) as closed:
        intruder.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    # the token of another table is no key to this one
    other = server.create("runfast", difficulty="easy")
    wrong = server.connect(table_id, other["token"])
    assert wrong.recv()["code"] == "auth"
    _unchanged(server, table_id, state["seq"], seat)
    assert not any(m["type"] == "error" for m in seat.received)  # nothing reached the seat
    seat.close()


def test_unknown_table(server: LiveServer) -> None:
    seat = server.connect("no-such-table-000", "whatever")
    assert seat.recv()["code"] == "not_found"
    with pytest.raises(ConnectionClosed) as closed:
        seat.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    seat2 = server.connect("x" * 200, "t")  # not a table id at all
    assert seat2.recv()["code"] == "not_found"
    with pytest.raises(InvalidStatus):  # no route: the handshake is refused
        server.connect("../../etc/passwd", "t")


BAD_FRAMES: list[tuple[str, str]] = [
    ("{not json", "bad_message"),
    ("[1, 2, 3]", "bad_message"),
    ('"play"', "bad_message"),
    ("null", "bad_message"),
    ('{"type": "explode"}', "bad_message"),
    ('{"no_type": 1}', "bad_message"),
    ('{"type": "play"}', "bad_message"),
    ('{"type": "play", "cards": []}', "bad_message"),
    ('{"type": "play", "cards": "7h"}', "bad_message"),
    ('{"type": "play", "cards": [7]}', "bad_message"),
    ('{"type": "play", "cards": ["zz"]}', "bad_message"),
    ('{"type": "play", "cards": ["7h"], "interpretation": {"rank": "7"}}', "bad_message"),
    ('{"type": "return"}', "bad_message"),
    ('{"type": "return", "card": "5s"}', "not_allowed"),
    ('{"type": "next_deal"}', "not_allowed"),
    ('{"type": "pass", "seat": 2}', "not_allowed"),
    ('{"type": "play", "cards": ["RJ"], "seat": 1}', "not_allowed"),
    ("[" * 5000 + "]" * 5000, "too_large"),
    (json.dumps({"type": "play", "cards": ["7h"] * 2000}), "too_large"),
    (json.dumps({"type": "hint", "pad": "é" * 5000}), "too_large"),
]


def test_malformed_frames(server: LiveServer) -> None:
    table_id, _, seat, state = _table(server)
    for frame, code in BAD_FRAMES:
        seat.send(frame)
        error = seat.wait_error()
        assert error["code"] == code, (frame[:60], error)
        assert isinstance(error["message"], str) and error["message"]
    seat.ws.send(b"\x00\x01binary")
    assert seat.wait_error()["code"] == "bad_message"
    _unchanged(server, table_id, state["seq"], seat)
    seat.close()


def test_oversized_frame_beyond_the_socket_limit(server: LiveServer) -> None:
    table_id, _, seat, state = _table(server)
    # above the server's WebSocket frame limit: the server may close the connection while
    # the frame is still being written, so the send itself may already fail
    with pytest.raises((ConnectionClosed, OSError)):
        seat.send("x" * (2 * 1024 * 1024))
        seat.recv_until(lambda m: False, timeout=5)
    again = server.connect(table_id, _table_token(server, table_id, seat))
    assert again.recv()["seq"] == state["seq"]
    assert httpx.get(f"{server.http}/api/health").json() == {"ok": True}
    again.close()


def _table_token(server: LiveServer, table_id: str, seat: Seat) -> str:
    token: str = seat.ws.request.path.split("token=")[1]  # type: ignore[union-attr]
    return token


def test_illegal_and_out_of_turn(server: LiveServer) -> None:
    table_id, _, seat, state = _table(server)
    obs = state["observation"]
    hand: list[str] = obs["hand"]
    not_held = next(c for c in ["RJ", "BJ", "As", "Ks", "2d", "3c"] if c not in hand)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"type": "play", "cards": [not_held]}, "illegal"),
        ({"type": "play", "cards": [hand[0], hand[-1]]}, "illegal"),  # no such combination
        ({"type": "play", "cards": [hand[0]], "interpretation": {"type": "bomb"}}, "illegal"),
    ]
    if obs["top"] is None:
        cases.append(({"type": "pass"}, "illegal"))  # a leader may not pass
    for message, code in cases:
        seat.send(message)
        error = seat.wait_error()
        assert error["code"] == code, (message, error)
    _unchanged(server, table_id, state["seq"], seat)
    # now act, and act again at once: the second is out of turn
    answer(seat, 0, choose(obs, 3, pass_rate=0.0))
    seat.send({"type": "play", "cards": [hand[0]]})
    error = seat.recv_until(lambda m: m["type"] == "error")
    assert error["code"] in ("not_your_turn", "illegal")
    seat.close()


def test_ambiguous_play_lists_options(server: LiveServer) -> None:
    """Cards with several legal readings (G-5.6) need an interpretation: the server lists
    the options, and the chosen one is played."""
    from collections import defaultdict

    from cardavia.rules.guandan import moves as gd_moves
    from cardavia.table import Table, TableConfig

    cards: list[str] = []
    for seed in range(300):
        table = Table.create(TableConfig.preset("guandan", seed, "easy", "easy"))
        table.run_ai()
        deal = table.deal
        if deal.top is not None or deal.turn != 0:
            continue
        groups: dict[tuple[int, ...], list[Any]] = defaultdict(list)
        for combo in gd_moves.all_moves(gd_moves.counts(deal.hand(0)), table.observation(0).level or 2):
            groups[tuple(sorted(c.code for c in combo.cards))].append(combo)
        several = [v for v in groups.values() if len(v) > 1]
        if several:
            cards = [str(c) for c in several[0][0].cards]
            break
    assert cards, "no seed with an ambiguous play"
    created = server.create("guandan", difficulty="easy", partner="easy", seed=seed)
    seat = server.connect(created["table_id"], created["token"])
    seat.recv_until(lambda m: m["type"] == "state" and must_act(m["observation"]))
    seat.send({"type": "play", "cards": cards})
    error = seat.wait_error()
    assert error["code"] == "ambiguous" and len(error["options"]) >= 2
    option = error["options"][0]
    assert {"type", "rank", "size", "cards", "as"} <= set(option)
    played = answer(
        seat, 0, {"type": "play", "cards": cards,
                  "interpretation": {"type": option["type"], "rank": option["rank"]}},
    )
    assert played["event"]["combo"]["type"] == option["type"]
    seat.close()


def test_burst_of_a_thousand_messages(server: LiveServer) -> None:
    """Within its allowance each frame is answered; the first frame over it gets one
    ``rate_limited``; a connection that keeps sending is closed (1008), nothing stored."""
    from websockets.exceptions import ConnectionClosed

    table_id, _, seat, state = _table(server)
    token = _table_token(server, table_id, seat)
    bystander = server.connect(table_id, token)
    bystander.recv()  # its own first state
    try:
        for _ in range(1000):
            seat.send({"type": "play", "cards": ["RJ", "RJ", "RJ"]})
    except ConnectionClosed:
        pass
    codes: list[str] = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            message = seat.recv(timeout=5)
            if message["type"] == "error":
                codes.append(message["code"])
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    assert set(codes) <= {"illegal", "rate_limited"}
    # the flood was cut off, not processed (that would answer ~1000): the allowance of 30
    # refused frames, plus what the bucket refills while the burst is being read
    assert codes.count("illegal") <= 40
    assert codes.count("rate_limited") == 2  # once when it began, once when it was closed
    # the errors went to the sender only
    with pytest.raises(TimeoutError):
        bystander.recv(timeout=0.3)
    assert httpx.get(f"{server.http}/api/health").json() == {"ok": True}
    assert len(server.stored_events(table_id)) == state["seq"]
    # a new connection is served
    again = server.connect(table_id, token)
    again.recv()
    _unchanged(server, table_id, state["seq"], again)
    again.close()
    bystander.close()


def test_ai_seat_cannot_be_driven_and_spectators_see_nothing(server: LiveServer) -> None:
    from cardavia.table import ActionError, Pass, Table, TableConfig

    table = Table.create(TableConfig.preset("runfast", 1, "easy"))
    with pytest.raises(ActionError) as err:
        table.apply_action(1, Pass())
    assert err.value.code == "not_allowed"
    start = table.log[0]
    hidden = table.public_event(start, None)
    assert all(h is None for h in hidden["hands"])


def test_out_of_turn_while_the_ai_thinks(tmp_path: Any) -> None:
    """With pacing, the AI's turn lasts a while: a play sent then is out of turn."""
    from cardavia.server.app import create_app

    from .conftest import ThreadServer

    db_url = f"sqlite:///{tmp_path / 'paced.sqlite3'}"
    app = create_app(db_url, pacing=0.4, allow_seeds=True)
    with ThreadServer(app) as running:
        live = LiveServer(running.port, db_url, app)
        created = live.create("runfast", difficulty="easy", seed=7)
        seat = live.connect(created["table_id"], created["token"])
        state = seat.recv_until(
            lambda m: m["type"] == "state" and must_act(m["observation"]), timeout=30
        )
        after = answer(seat, 0, choose(state["observation"], 7))
        if after["observation"]["phase"] == "over":
            raise AssertionError("a Run Fast deal cannot end on its first move (16 cards each)")
        assert after["observation"]["turn"] != 0
        hand = after["observation"]["hand"]
        for message in ({"type": "play", "cards": [hand[0]]}, {"type": "pass"}):
            seat.send(message)
            error = seat.recv_until(lambda m: m["type"] == "error")
            assert error["code"] == "not_your_turn", error
        seat.send({"type": "hint"})
        assert seat.recv_until(lambda m: m["type"] == "error")["code"] == "not_your_turn"
        seat.close()
