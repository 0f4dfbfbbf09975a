"""Tables with friends over the real server (docs/protocol.md, "Tables with friends"):
invite links, waiting for players, names, spectators, reactions, the stand-in after the
grace period and at the turn timer, leaving a seat to the AI, the creator's rights."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardavia.server.app import create_app
from cardavia.server.limits import Limits

from .conftest import LiveServer, ThreadServer
from .friends_helpers import check_spectator, create_friends, join, join_ok, play_together, room_frame
from .leaks import check_no_leaks
from .ws_client import answer, choose, deal_over, must_act


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("friends") / "cardavia.sqlite3"
    db_url = f"sqlite:///{db}"
    # plenty of link attempts: the guessing test has its own server
    app = create_app(db_url, pacing=0, allow_seeds=True, limits=Limits(join_burst=10_000))
    with ThreadServer(app) as running:
        yield LiveServer(running.port, db_url, app)


def _room(live: LiveServer, table_id: str) -> Any:
    return live.app.state.registry.rooms[table_id]


def test_two_partners_join_by_link_and_play_a_deal(live: LiveServer) -> None:
    created = create_friends(live, "guandan", ["person", "easy", "person", "easy"], seed=3,
                             name="Ann")
    table_id = created["table_id"]
    assert [i["seat"] for i in created["invites"]] == [2]
    code = created["invites"][0]["code"]
    assert created["invites"][0]["url"] == f"/join/{code}" and len(code) >= 32
    host = live.connect(table_id, created["token"])
    first = room_frame(host)
    assert first["waiting"] is True and first["you"] == 0 and first["creator"] == 0
    assert [s["state"] for s in first["seats"]] == ["here", "ai", "open", "ai"]
    assert first["awaiting"] == [2]
    # nothing moves while a seat waits for its person
    host.send({"type": "pass"})
    assert host.wait_error()["code"] == "not_allowed"
    info = httpx.get(f"{live.http}/api/join/{code}", timeout=10).json()
    assert info["seat"] == 2 and info["creator"] == "Ann" and info["game"] == "guandan"
    mate = join_ok(live, code, "  Bea  ")
    assert mate["seat"] == 2 and mate["table_id"] == table_id and mate["token"] != created["token"]
    seated = room_frame(host, lambda m: not m["waiting"])
    assert [s["name"] for s in seated["seats"]][::2] == ["Ann", "Bea"]
    partner = live.connect(table_id, mate["token"])
    assert room_frame(partner)["you"] == 2
    play_together({0: host, 2: partner}, seed=3)
    events = live.stored_events(table_id)
    assert events[-1]["event"] == "deal_ended"
    by = {(e["seat"], e["by"]) for e in events if e["event"] in ("played", "passed")}
    assert {s for s, b in by if b == "person"} == {0, 2}
    assert {s for s, b in by if b == "ai"} == {1, 3}
    config = live.stored_config(table_id)
    assert check_no_leaks(config, events, host.received, 0) > 10
    assert check_no_leaks(config, events, partner.received, 2) > 10
    # the finished hands: to the table's seats only
    record = f"{live.http}/api/tables/{table_id}/record"
    assert httpx.get(record, timeout=10).status_code == 403
    assert httpx.get(record, headers={"X-Cardavia-Token": mate["token"]}, timeout=10).status_code == 200
    host.close()
    partner.close()


def test_a_used_or_revoked_link_is_refused(live: LiveServer) -> None:
    created = create_friends(live, "runfast", ["person", "person", "person"], seed=5)
    one, two = (i["code"] for i in created["invites"])
    first = join(live, one, "Cy")
    assert first.status_code == 200
    again = join(live, one, "Dee")
    assert again.status_code == 410 and "used" in again.json()["detail"]
    host = live.connect(created["table_id"], created["token"])
    room_frame(host)
    host.send({"type": "revoke", "target": 2})
    assert host.recv_until(lambda m: m["type"] == "revoked")["target"] == 2
    revoked = join(live, two, "Eve")
    assert revoked.status_code == 410 and "revoked" in revoked.json()["detail"]
    assert httpx.get(f"{live.http}/api/join/{two}", timeout=10).status_code == 410
    # a new link for the seat works once
    host.send({"type": "invite", "target": 2})
    fresh = host.recv_until(lambda m: m["type"] == "invite")["code"]
    assert fresh != two
    assert join(live, fresh, "Eve").status_code == 200
    assert join(live, fresh, "Fay").status_code == 410
    assert room_frame(host, lambda m: not m["waiting"])["seats"][2]["name"] == "Eve"
    # only the creator may invite, revoke, start or close
    guest = live.connect(created["table_id"], first.json()["token"])
    room_frame(guest)
    for msg in ({"type": "invite", "target": 1}, {"type": "revoke", "target": 1},
                {"type": "start"}, {"type": "close"}, {"type": "restart"}):
        guest.send(msg)
        assert guest.wait_error()["code"] == "not_allowed", msg
    host.close()
    guest.close()


def test_seat_token_of_another_table_and_spectators_cannot_act(live: LiveServer) -> None:
    a = create_friends(live, "runfast", ["person", "easy", "easy"], seed=1, spectators="public")
    b = create_friends(live, "runfast", ["person", "easy", "easy"], seed=2)
    other = live.connect(b["table_id"], a["token"])
    refused = other.recv()
    assert refused["code"] == "auth"
    # a spectator: public table, no hand, never acts
    watch = httpx.post(f"{live.http}/api/watch/{a['watch']}", timeout=10)
    assert watch.status_code == 200
    spec_token = watch.json()["token"]
    spectator = live.connect(a["table_id"], spec_token)
    state = spectator.recv_until(lambda m: m["type"] == "state")
    assert state["observation"]["seat"] is None and state["observation"]["hand"] == []
    assert room_frame(spectator)["you"] is None
    for msg in ({"type": "play", "cards": ["3h"]}, {"type": "pass"}, {"type": "hint"},
                {"type": "next_deal"}, {"type": "restart"}, {"type": "resign"},
                {"type": "return", "card": "5s"}, {"type": "set_pace", "speed": "fast"},
                {"type": "react", "reaction": "nice"}, {"type": "start"}, {"type": "close"},
                {"type": "play", "cards": ["3h"], "seat": 0}):
        spectator.send(msg)
        assert spectator.wait_error()["code"] == "not_allowed", msg
    host = live.connect(a["table_id"], a["token"])
    play_together({0: host}, seed=1)
    spectator.recv_until(lambda m: m["type"] == "state" and m["observation"]["phase"] == "over")
    events = live.stored_events(a["table_id"])
    assert events[-1]["event"] == "deal_ended"
    assert check_spectator(live.stored_config(a["table_id"]), events, spectator.received) > 10
    # "public" spectators do not see the hands of finished deals
    record = f"{live.http}/api/tables/{a['table_id']}/record"
    assert httpx.get(record, headers={"X-Cardavia-Token": spec_token}, timeout=10).status_code == 403
    assert httpx.get(record, headers={"X-Cardavia-Token": a["token"]}, timeout=10).status_code == 200
    # the seat token of table a reads nothing of table b either
    other_record = f"{live.http}/api/tables/{b['table_id']}/record"
    assert httpx.get(other_record, headers={"X-Cardavia-Token": a["token"]}, timeout=10).status_code == 403
    # a revoked spectator link opens nothing more; ending the watching closes the spectators
    host.send({"type": "revoke", "target": "watch"})
    host.recv_until(lambda m: m["type"] == "revoked")
    assert httpx.post(f"{live.http}/api/watch/{a['watch']}", timeout=10).status_code == 410
    host.send({"type": "revoke", "target": "spectators"})
    assert spectator.recv_until(lambda m: m["type"] == "error")["code"] == "auth"
    host.close()


def test_spectators_may_see_hands_after_the_deal_if_allowed(live: LiveServer) -> None:
    a = create_friends(live, "runfast", ["person", "easy", "easy"], seed=8, spectators="hands")
    token = httpx.post(f"{live.http}/api/watch/{a['watch']}", timeout=10).json()["token"]
    record = f"{live.http}/api/tables/{a['table_id']}/record"
    host = live.connect(a["table_id"], a["token"])
    play_together({0: host}, seed=8)
    answer_ = httpx.get(record, headers={"X-Cardavia-Token": token}, timeout=10)
    assert answer_.status_code == 200 and len(answer_.json()["deals"]) == 1
    host.close()


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("<script>alert(1)</script>", None),
        ("<img src=x onerror=1>", "<img src=x onerror=1>"),
        ("  Zoë \u200b", "Zoë"),
        ("\u202eevil\u202c", "evil"),
        ("שרה", "שרה"),
        ("अनुष्का", "अनुष्का"),
        ("小明", "小明"),
    ],
)
def test_names_are_kept_as_text(live: LiveServer, raw: str, shown: str | None) -> None:
    created = create_friends(live, "runfast", ["person", "person", "easy"], seed=4)
    code = created["invites"][0]["code"]
    if shown is None:  # 25 characters: too long
        assert join(live, code, raw).status_code == 422
        return
    joined = join_ok(live, code, raw)
    host = live.connect(created["table_id"], created["token"])
    frame = room_frame(host)
    assert frame["seats"][1]["name"] == shown
    assert live.stored_config(created["table_id"]).seats[joined["seat"]].name == shown
    # the server writes no name into HTML: the table page carries none of it
    page = httpx.get(f"{live.http}/table/{created['table_id']}", timeout=10).text
    assert "<img src=x" not in page and "<script>alert" not in page
    host.close()


@pytest.mark.parametrize(
    "raw", ["", "   ", "\u200b\u200c\u200d", "\u202e\u202c", "\u3164", "\n", "a\nb", "x" * 25]
)
def test_empty_or_invisible_names_are_refused_with_a_sentence(live: LiveServer, raw: str) -> None:
    created = create_friends(live, "runfast", ["person", "person", "easy"], seed=4)
    refused = join(live, created["invites"][0]["code"], raw)
    assert refused.status_code == 422
    message = refused.json()["detail"][0]["msg"]
    assert "name" in message and " " in message
    assert raw.strip() == "" or raw not in message  # the input is not echoed
    # the link stays usable
    assert join(live, created["invites"][0]["code"], "Gus").status_code == 200
    bad_host = httpx.post(f"{live.http}/api/tables", json={
        "game": "runfast", "seats": ["person", "easy", "easy"], "name": raw}, timeout=10)
    assert bad_host.status_code == 422


def test_creator_starts_with_the_ai_and_later_offers_an_ai_seat(live: LiveServer) -> None:
    created = create_friends(live, "runfast", ["person", "person", "easy"], seed=6)
    code = created["invites"][0]["code"]
    host = live.connect(created["table_id"], created["token"])
    room_frame(host, lambda m: m["waiting"])
    host.send({"type": "start"})
    started = room_frame(host, lambda m: not m["waiting"])
    assert started["seats"][1]["kind"] == "ai" and started["seats"][1]["state"] == "ai"
    assert join(live, code, "Hal").status_code == 410  # its link went with the seat
    # mid-deal the AI seat cannot be offered; after the deal it can
    host.send({"type": "invite", "target": 1})
    assert host.wait_error()["code"] == "not_allowed"
    play_together({0: host}, seed=6)
    host.send({"type": "invite", "target": 1})
    new_code = host.recv_until(lambda m: m["type"] == "invite")["code"]
    waiting = room_frame(host, lambda m: m["waiting"])
    assert waiting["seats"][1]["state"] == "open"
    host.send({"type": "next_deal"})
    assert host.wait_error()["code"] == "not_allowed"
    joined = join_ok(live, new_code, "Hal")
    room_frame(host, lambda m: not m["waiting"])
    hal = live.connect(created["table_id"], joined["token"])
    host.send({"type": "next_deal"})
    for conn in (host, hal):
        conn.recv_until(lambda m: m["type"] == "state" and (m["event"] or {}).get("event") == "deal_started")
    play_together({0: host, 1: hal}, seed=6)
    host.close()
    hal.close()


def test_leaving_hands_the_seat_to_the_ai_and_the_creator_closes(live: LiveServer) -> None:
    created = create_friends(live, "runfast", ["person", "person", "easy"], seed=9)
    joined = join_ok(live, created["invites"][0]["code"], "Ivy")
    host = live.connect(created["table_id"], created["token"])
    ivy = live.connect(created["table_id"], joined["token"])
    room_frame(ivy)
    ivy.send({"type": "resign"})
    assert ivy.recv_until(lambda m: m["type"] == "left")["seat"] == 1
    frame = room_frame(host, lambda m: m["seats"][1]["kind"] == "ai")
    assert frame["seats"][1]["state"] == "ai"
    gone = live.connect(created["table_id"], joined["token"])
    assert gone.recv()["code"] == "auth"
    # the table goes on: the host plays on with two AIs
    play_together({0: host}, seed=9)
    host.send({"type": "close"})
    closed = host.recv_until(lambda m: m["type"] == "state" and m["phase"] == "closed")
    assert closed["event"]["event"] == "resigned"
    host.close()


def test_reactions_are_fixed_rate_limited_and_for_everyone(live: LiveServer) -> None:
    created = create_friends(live, "runfast", ["person", "person", "easy"], seed=2, spectators="public")
    joined = join_ok(live, created["invites"][0]["code"], "Jo")
    host = live.connect(created["table_id"], created["token"])
    jo = live.connect(created["table_id"], joined["token"])
    watch = httpx.post(f"{live.http}/api/watch/{created['watch']}", timeout=10).json()["token"]
    spec = live.connect(created["table_id"], watch)
    host.send({"type": "react", "reaction": "nice"})
    for conn in (jo, spec, host):
        got = conn.recv_until(lambda m: m["type"] == "reaction")
        assert got == {"type": "reaction", "seat": 0, "reaction": "nice"}
    host.send({"type": "react", "reaction": "you are bad"})
    assert host.wait_error()["code"] == "bad_message"
    host.send(json.dumps({"type": "react", "text": "hello"}))
    assert host.wait_error()["code"] == "bad_message"
    for _ in range(2):
        host.send({"type": "react", "reaction": "sorry"})
    host.send({"type": "react", "reaction": "hurry"})
    assert host.wait_error()["code"] == "rate_limited"
    # a solo table has no reactions
    solo = live.create("runfast", seed=1)
    alone = live.connect(solo["table_id"], solo["token"])
    alone.send({"type": "react", "reaction": "nice"})
    assert alone.wait_error()["code"] == "not_allowed"
    for conn in (host, jo, spec, alone):
        conn.close()


def test_stand_in_plays_after_the_grace_period_and_the_person_takes_over(live: LiveServer) -> None:
    created = create_friends(live, "runfast", ["person", "person", "person"], seed=11,
                             grace_seconds=1)
    tokens = {0: created["token"]}
    for invite in created["invites"]:
        tokens[invite["seat"]] = join_ok(live, invite["code"], f"P{invite['seat']}")["token"]
    seats = {s: live.connect(created["table_id"], t) for s, t in tokens.items()}
    seats[1].close()  # seat 1 closes its tab at once
    away = room_frame(seats[0], lambda m: m["seats"][1]["state"] == "stand_in", timeout=10)
    assert away["seats"][1]["state"] == "stand_in"
    # the others play; the stand-in plays seat 1's turns
    def stand_in_moved(state: dict[str, Any]) -> bool:
        events = live.stored_events(created["table_id"])
        return any(e.get("by") == "stand_in" and e.get("seat") == 1 for e in events) or deal_over(state)
    play_together({0: seats[0], 2: seats[2]}, seed=11, until=stand_in_moved)
    events = live.stored_events(created["table_id"])
    assert any(e.get("by") == "stand_in" and e["seat"] == 1 for e in events)
    if events[-1]["event"] != "deal_ended":
        # seat 1 comes back and takes over at its next turn
        seats[1] = live.connect(created["table_id"], tokens[1])
        room_frame(seats[1], lambda m: m["seats"][1]["state"] == "here")
        play_together(seats, seed=11)
        after = live.stored_events(created["table_id"])[len(events):]
        by_one = [e["by"] for e in after if e["event"] in ("played", "passed") and e["seat"] == 1]
        assert by_one and set(by_one) == {"person"}, by_one
    for conn in seats.values():
        conn.close()


def test_turn_timer_lets_the_stand_in_play_that_turn(live: LiveServer) -> None:
    created = create_friends(live, "runfast", ["person", "easy", "easy"], seed=13, turn_timer=15)
    table_id = created["table_id"]
    assert live.stored_config(table_id) is not None
    people = _room(live, table_id).people
    assert people.settings.turn_timer == 15
    people.settings = replace(people.settings, turn_timer=1)  # a quicker clock for the test
    host = live.connect(table_id, created["token"])
    frame = room_frame(host)
    assert frame["timer"]["seconds"] == 1
    state = host.recv_until(lambda m: m["type"] == "state" and must_act(m["observation"]), timeout=30)
    started = time.monotonic()
    # the host does nothing: after the timer the stand-in moves for seat 0
    host.recv_until(lambda m: m["type"] == "state" and (m["event"] or {}).get("by") == "stand_in", timeout=10)
    assert time.monotonic() - started >= 0.8
    del state
    # the next turn is the person's own again
    state = host.recv_until(lambda m: m["type"] == "state" and must_act(m["observation"]), timeout=30)
    reply = answer(host, 0, choose(state["observation"], 13))
    assert reply["event"]["by"] == "person"
    host.close()


def test_solo_tables_are_unchanged(live: LiveServer) -> None:
    solo = live.create("guandan", seed=2)
    assert solo["invites"] == [] and solo["watch"] is None
    seat = live.connect(solo["table_id"], solo["token"])
    first = seat.recv()
    assert first["type"] == "state"
    assert httpx.get(f"{live.http}/api/tables/{solo['table_id']}/record", timeout=10).status_code == 200
    seat.close()


def test_guessed_codes_are_refused_and_rate_limited(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'guess.sqlite3'}", pacing=0)
    with ThreadServer(app) as running:
        base = f"http://127.0.0.1:{running.port}"
        real = httpx.post(f"{base}/api/tables", json={
            "game": "runfast", "seats": ["person", "person", "easy"], "name": "Kim"}, timeout=10).json()
        statuses = []
        import secrets

        started = time.monotonic()
        for i in range(100):
            guess = secrets.token_urlsafe(24)
            if i % 2:
                statuses.append(httpx.post(f"{base}/api/join/{guess}", json={"name": "x"}, timeout=10).status_code)
            else:
                statuses.append(httpx.get(f"{base}/api/join/{guess}", timeout=10).status_code)
        elapsed = time.monotonic() - started
        assert set(statuses) <= {404, 429}
        # a burst, then the rate: on a busy machine the 100 tries take longer and refill more
        limits = Limits()
        allowed = limits.join_burst + limits.join_rate * elapsed + 1
        assert statuses.count(404) <= allowed and statuses.count(429) >= 70 - limits.join_rate * elapsed, (
            statuses, elapsed)
        # once limited, even the real code waits (the limit is per client, not per code):
        # right after a guess that used the token just refilled (the bucket is at ≈ 0 then,
        # whatever the machine's pace; right after a refused guess it may hold 0.99 tokens)
        give_up = time.monotonic() + 10
        while time.monotonic() < give_up:
            if httpx.get(f"{base}/api/join/{secrets.token_urlsafe(24)}", timeout=10).status_code == 404:
                break
        assert httpx.post(f"{base}/api/join/{real['invites'][0]['code']}", json={"name": "Lu"},
                          timeout=10).status_code == 429
