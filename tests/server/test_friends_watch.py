"""Spectators' own tokens (docs/protocol.md, "Spectators"): everyone who opens the
spectator link gets a token of their own, stored hashed, good for watching that table
and nothing else; revoking the link stops new spectators without closing those watching;
the creator ends everyone's watching with ``revoke`` ``"spectators"``. Tables created
before keep their link's code as a spectator token while the link is open."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from cardavia.server.app import create_app
from cardavia.server.limits import Limits

from .conftest import LiveServer, ThreadServer
from .friends_helpers import check_spectator, create_friends, play_together, room_frame


def _app(db_url: str) -> object:
    return create_app(db_url, pacing=0, allow_seeds=True, limits=Limits(join_burst=10_000))


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db_url = f"sqlite:///{tmp_path_factory.mktemp('friends-watch') / 'cardavia.sqlite3'}"
    app = _app(db_url)
    with ThreadServer(app) as running:
        yield LiveServer(running.port, db_url, app)


def _watch(live: LiveServer, code: str) -> httpx.Response:
    return httpx.post(f"{live.http}/api/watch/{code}", timeout=10)


def _stored_hashes(live: LiveServer) -> str:
    engine = sa.create_engine(live.db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT code_hash, state FROM invites")).all()
    finally:
        engine.dispose()
    return json.dumps([list(r) for r in rows])


def test_each_spectator_gets_a_token_of_their_own(live: LiveServer) -> None:
    created = create_friends(live, "runfast", ["person", "easy", "easy"], seed=2, spectators="public")
    table_id, code = created["table_id"], created["watch"]
    first, second = (_watch(live, code).json() for _ in range(2))
    assert first["table_id"] == table_id == second["table_id"]
    tokens = {first["token"], second["token"]}
    assert len(tokens) == 2 and code not in tokens and all(len(t) >= 32 for t in tokens)
    stored = _stored_hashes(live)
    assert not any(t in stored for t in tokens), "a spectator token was stored in the clear"
    # the link's code itself watches nothing (on a table created now)
    assert live.connect(table_id, code).recv()["code"] == "auth"
    a, b = (live.connect(table_id, t) for t in tokens)
    for conn in (a, b):
        assert conn.recv_until(lambda m: m["type"] == "state")["observation"]["seat"] is None
        assert room_frame(conn)["you"] is None
    host = live.connect(table_id, created["token"])
    assert room_frame(host, lambda m: m["watching"] == 2)["watch_open"] is True
    # revoking the link: no new spectators, and the ones watching go on watching
    host.send({"type": "revoke", "target": "watch"})
    host.recv_until(lambda m: m["type"] == "revoked")
    assert _watch(live, code).status_code == 410
    play_together({0: host}, seed=2)
    for conn in (a, b):
        over = conn.recv_until(lambda m: m["type"] == "state" and m["observation"]["phase"] == "over")
        assert over["observation"]["hand"] == []
        assert not [m for m in conn.received if m["type"] == "error"]
    events = live.stored_events(table_id)
    assert check_spectator(live.stored_config(table_id), events, a.received) > 10
    # a new spectator link: the spectators still watch; the new link gives new tokens
    host.send({"type": "invite", "target": "watch"})
    fresh = host.recv_until(lambda m: m["type"] == "invite")["code"]
    third = _watch(live, fresh).json()["token"]
    assert third not in tokens
    again = live.connect(table_id, first["token"])
    assert again.recv_until(lambda m: m["type"] == "state")["observation"]["seat"] is None
    # the creator ends everyone's watching: every spectator connection closes, no token works
    host.send({"type": "revoke", "target": "spectators"})
    assert host.recv_until(lambda m: m["type"] == "revoked")["target"] == "spectators"
    for conn in (a, b, again):
        assert conn.recv_until(lambda m: m["type"] == "error")["code"] == "auth"
    for token in (*tokens, third):
        assert live.connect(table_id, token).recv()["code"] == "auth"
    # the link, still open, lets new spectators in
    assert live.connect(table_id, _watch(live, fresh).json()["token"]).recv()["type"] == "state"
    host.close()


def test_a_spectator_token_opens_nothing_but_watching_its_table(live: LiveServer) -> None:
    a = create_friends(live, "guandan", ["person", "person", "easy", "easy"], seed=4, spectators="public")
    b = create_friends(live, "runfast", ["person", "easy", "easy"], seed=5, spectators="public")
    token = _watch(live, a["watch"]).json()["token"]
    # another table, the invite and spectator routes, the review, the record: nothing
    assert live.connect(b["table_id"], token).recv()["code"] == "auth"
    assert httpx.get(f"{live.http}/api/join/{token}", timeout=10).status_code == 404
    assert httpx.post(f"{live.http}/api/join/{token}", json={"name": "Zed"}, timeout=10).status_code == 404
    assert _watch(live, token).status_code == 404
    review = httpx.get(f"{live.http}/api/tables/{a['table_id']}/deals/0/review",
                       headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert review.status_code == 403
    record = httpx.get(f"{live.http}/api/tables/{a['table_id']}/record",
                       headers={"X-Cardavia-Token": token}, timeout=10)
    assert record.status_code == 403  # "public": no finished hands
    spectator = live.connect(a["table_id"], token)
    spectator.recv_until(lambda m: m["type"] == "room")
    for msg in ({"type": "start"}, {"type": "invite", "target": 1}, {"type": "revoke", "target": "spectators"},
                {"type": "close"}, {"type": "resign"}, {"type": "pass"}):
        spectator.send(msg)
        assert spectator.wait_error()["code"] == "not_allowed", msg
    spectator.close()


def test_spectators_of_a_hands_table_read_the_record_with_their_token(live: LiveServer) -> None:
    a = create_friends(live, "runfast", ["person", "easy", "easy"], seed=8, spectators="hands")
    token = _watch(live, a["watch"]).json()["token"]
    host = live.connect(a["table_id"], a["token"])
    play_together({0: host}, seed=8)
    record = f"{live.http}/api/tables/{a['table_id']}/record"
    assert httpx.get(record, headers={"X-Cardavia-Token": token}, timeout=10).status_code == 200
    assert httpx.get(record, headers={"X-Cardavia-Token": a["watch"]}, timeout=10).status_code == 403
    host.close()


def _make_it_older(db_url: str, table_id: str) -> None:
    """The table's stored settings as a server before spectator tokens wrote them."""
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            config = json.loads(conn.execute(sa.text("SELECT config FROM tables WHERE id = :t"),
                                             {"t": table_id}).scalar_one())
            del config["friends"]["spectator_tokens"]
            conn.execute(sa.text("UPDATE tables SET config = :c WHERE id = :t"),
                         {"c": json.dumps(config), "t": table_id})
    finally:
        engine.dispose()


def test_a_table_from_before_keeps_its_code_as_a_spectator_token(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'older.sqlite3'}"
    with ThreadServer(_app(db_url)) as running:
        live = LiveServer(running.port, db_url, None)
        created = create_friends(live, "runfast", ["person", "easy", "easy"], seed=3, spectators="public")
    table_id, code = created["table_id"], created["watch"]
    _make_it_older(db_url, table_id)
    with ThreadServer(_app(db_url)) as running:
        live = LiveServer(running.port, db_url, None)
        old_tab = live.connect(table_id, code)  # a page opened before kept the code
        assert old_tab.recv_until(lambda m: m["type"] == "state")["observation"]["seat"] is None
        own = live.connect(table_id, _watch(live, code).json()["token"])
        own.recv_until(lambda m: m["type"] == "room")
        host = live.connect(table_id, created["token"])
        room_frame(host, lambda m: m["watching"] == 2)
        host.send({"type": "revoke", "target": "watch"})
        # the code ends with its link; the spectator's own token goes on
        assert old_tab.recv_until(lambda m: m["type"] == "error")["code"] == "auth"
        assert live.connect(table_id, code).recv()["code"] == "auth"
        play_together({0: host}, seed=3)
        own.recv_until(lambda m: m["type"] == "state" and m["observation"]["phase"] == "over")
        assert not [m for m in own.received if m["type"] == "error"]
        for conn in (own, host):
            conn.close()
