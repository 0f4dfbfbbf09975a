"""When the creator of a table with friends leaves, the creator's rights pass to the
lowest seat still held by a person (docs/protocol.md, "Tables with friends"), for everyone
to see; the last person leaving still closes the table."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
import sqlalchemy as sa

from cardavia.server.app import create_app
from cardavia.server.limits import Limits

from .conftest import LiveServer, ThreadServer
from .friends_helpers import create_friends, join_ok, play_together, room_frame


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("friends-host") / "cardavia.sqlite3"
    app = create_app(f"sqlite:///{db}", pacing=0, allow_seeds=True, limits=Limits(join_burst=10_000))
    with ThreadServer(app) as running:
        yield LiveServer(running.port, f"sqlite:///{db}", app)


def _stored_creator(live: LiveServer, table_id: str) -> int:
    engine = sa.create_engine(live.db_url)
    try:
        with engine.connect() as conn:
            config = conn.execute(sa.text("SELECT config FROM tables WHERE id = :t"), {"t": table_id}).scalar()
    finally:
        engine.dispose()
    assert config is not None
    return int(json.loads(config)["friends"]["creator"])


def test_the_creator_leaving_while_waiting_hands_on_start_and_invite(live: LiveServer) -> None:
    created = create_friends(live, "runfast", ["person", "person", "person"], seed=5, name="Kai")
    table_id = created["table_id"]
    lea = join_ok(live, created["invites"][0]["code"], "Lea")
    host = live.connect(table_id, created["token"])
    guest = live.connect(table_id, lea["token"])
    assert room_frame(guest, lambda m: m["waiting"])["creator"] == 0
    guest.send({"type": "start"})
    assert guest.wait_error()["code"] == "not_allowed"  # not yet the creator
    host.send({"type": "resign"})
    assert host.recv_until(lambda m: m["type"] == "left")["seat"] == 0
    passed = room_frame(guest, lambda m: m["creator"] == 1)
    assert passed["waiting"] is True and passed["seats"][0]["kind"] == "ai"
    assert _stored_creator(live, table_id) == 1
    info = httpx.get(f"{live.http}/api/join/{created['invites'][1]['code']}", timeout=10).json()
    assert info["creator"] == "Lea"
    # the new creator makes a new link for the open seat, then starts with the AI in it
    guest.send({"type": "invite", "target": 2})
    code = guest.recv_until(lambda m: m["type"] == "invite")["code"]
    assert httpx.get(f"{live.http}/api/join/{code}", timeout=10).json()["seat"] == 2
    guest.send({"type": "start"})
    started = room_frame(guest, lambda m: not m["waiting"])
    assert started["creator"] == 1 and started["seats"][2]["kind"] == "ai"
    play_together({1: guest}, seed=5)
    guest.send({"type": "restart"})
    guest.recv_until(lambda m: m["type"] == "state" and (m["event"] or {}).get("event") == "restarted")
    guest.send({"type": "close"})
    assert guest.recv_until(lambda m: m["type"] == "state" and m["phase"] == "closed")["phase"] == "closed"
    guest.close()
    host.close()


def test_the_rights_go_to_the_lowest_person_seat_left_and_the_last_one_closes(live: LiveServer) -> None:
    created = create_friends(live, "runfast", ["person", "person", "person"], seed=7, name="Kai")
    table_id = created["table_id"]
    seats = {0: live.connect(table_id, created["token"])}
    for invite, name in zip(created["invites"], ("Lea", "Mo"), strict=True):
        seats[invite["seat"]] = live.connect(table_id, join_ok(live, invite["code"], name)["token"])
    for conn in seats.values():
        room_frame(conn, lambda m: not m["waiting"])
    # seat 1 leaves first: the creator stays the creator
    seats[1].send({"type": "resign"})
    seats[1].recv_until(lambda m: m["type"] == "left")
    assert room_frame(seats[2], lambda m: m["seats"][1]["kind"] == "ai")["creator"] == 0
    # the creator leaves: seat 2 (the only person left) takes over, and everyone sees it
    seats[0].send({"type": "resign"})
    seats[0].recv_until(lambda m: m["type"] == "left")
    assert room_frame(seats[2], lambda m: m["creator"] == 2)["you"] == 2
    # the last person leaving closes the table, as before
    seats[2].send({"type": "resign"})
    closed = seats[2].recv_until(lambda m: m["type"] == "state" and m["phase"] == "closed")
    assert closed["event"]["event"] == "resigned"
    for conn in seats.values():
        conn.close()
