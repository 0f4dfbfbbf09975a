"""Deal reviews over HTTP: who may read them, which deals, and that they leak no hidden card;
the table history and the record checker."""

from __future__ import annotations

import json
from typing import Any

import httpx
import sqlalchemy as sa

from cardavia.ai.review import LABELS, MISTAKE
from cardavia.cards import card_strings
from cardavia.server.review import deal_spans
from cardavia.table import Table

from .conftest import LiveServer
from .ws_client import answer, deal_over, drive, iter_cards


def _review(server: LiveServer, table_id: str, n: int, token: str | None) -> httpx.Response:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return httpx.get(f"{server.http}/api/tables/{table_id}/deals/{n}/review", headers=headers, timeout=120)


def _allowed_cards(server: LiveServer, table_id: str, seat: int) -> dict[int, set[str]]:
    """Log seq → the cards ``seat`` may know just before that entry: its own hand then and
    every card played (or paid in tribute) so far."""
    config = server.stored_config(table_id)
    table = Table(config)
    public: set[str] = set()
    allowed: dict[int, set[str]] = {}
    for seq, event in enumerate(server.stored_events(table_id), 1):
        own = set(card_strings(table.deal.hand(seat))) if table.series.deal is not None else set()
        allowed[seq] = own | public
        table.fold(event)
        if event["event"] == "deal_started":
            public = set()
        elif event["event"] in ("played", "tribute_paid"):
            public.update(event.get("cards") or [event.get("card")])
    return allowed


def _finished_table(server: LiveServer, game: str, seed: int) -> tuple[str, str, Any]:
    created = server.create(game, difficulty="easy", partner="easy", seed=seed)
    seat = server.connect(created["table_id"], created["token"])
    drive(seat, 0, seed=seed, until=deal_over)
    return created["table_id"], created["token"], seat


def test_review_of_a_finished_deal(server: LiveServer) -> None:
    table_id, token, seat = _finished_table(server, "runfast", 21)
    other = server.create("runfast", difficulty="easy", seed=22)

    assert _review(server, table_id, 0, None).status_code == 401
    assert _review(server, table_id, 0, "not-a-token").status_code == 403
    assert _review(server, table_id, 0, other["token"]).status_code == 403
    assert _review(server, table_id, 5, token).status_code == 404
    assert _review(server, "NoSuchTable123", 0, token).status_code == 404
    assert "detail" in _review(server, table_id, 5, token).json()

    answer(seat, 0, {"type": "next_deal"})
    unfinished = _review(server, table_id, 1, token)
    assert unfinished.status_code == 409, unfinished.text

    response = _review(server, table_id, 0, token)
    assert response.status_code == 200, response.text
    review = response.json()
    assert review["deal"] == 0 and review["seat"] == 0
    events = server.stored_events(table_id)
    span = deal_spans(events)[0]
    assert span.end is not None  # the first deal is over
    mine = [
        i + 1 for i in range(span.start + 1, span.end + 1)
        if events[i]["event"] in ("played", "passed") and events[i]["seat"] == 0
    ]
    assert [d["seq"] for d in review["decisions"]] == mine
    allowed = _allowed_cards(server, table_id, 0)
    for d in review["decisions"]:
        assert d["label"] in LABELS and d["loss"] >= 0
        assert set(d) >= {"seq", "played", "best", "loss", "label", "reason_key", "reason_args"}
        stray = set(iter_cards(d)) - allowed[d["seq"]]
        assert not stray, f"the review of seq {d['seq']} shows cards seat 0 could not know: {stray}"
    # computed once: the second answer is the cached one, stored in the database
    assert _review(server, table_id, 0, token).json() == review
    engine = sa.create_engine(server.db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT body FROM reviews WHERE table_id = :t"), {"t": table_id}).all()
    finally:
        engine.dispose()
    assert [json.loads(r[0]) for r in rows] == [review]
    seat.close()


def test_a_poor_guandan_move_is_a_mistake(server: LiveServer) -> None:
    """Seat 0 leads its strongest single at every lead (and follows with its strongest play):
    the review calls some of it a mistake, and never shows another seat's hidden card."""
    created = server.create("guandan", difficulty="easy", partner="easy", seed=3)
    table_id, token = created["table_id"], created["token"]
    seat = server.connect(table_id, created["token"])
    state = seat.recv_until(lambda m: m["type"] == "state")
    while True:
        obs = state["observation"]
        if obs["phase"] == "over":
            break
        if obs["phase"] == "play" and obs["turn"] == 0:
            table = server.stored_table(table_id)
            if table.seq == state["seq"]:
                moves = table.deal.legal_moves(0)
                if table.deal.leading:
                    moves = [m for m in moves if m.size == 1] or moves
                if moves:
                    pick = max(moves, key=lambda m: (m.tier, m.power, m.size))
                    rank = None if pick.rank is None else pick.rank.symbol
                    msg = {"type": "play", "cards": card_strings(pick.cards),
                           "interpretation": {"type": pick.type.value, "rank": rank}}
                else:
                    msg = {"type": "pass"}
                state = answer(seat, 0, msg)
                continue
        state = seat.recv_until(lambda m: m["type"] == "state")
    review = _review(server, table_id, 0, token).json()
    labels = [d["label"] for d in review["decisions"]]
    assert MISTAKE in labels, labels
    allowed = _allowed_cards(server, table_id, 0)
    for d in review["decisions"]:
        assert not set(iter_cards(d)) - allowed[d["seq"]]
    seat.close()


def test_history_and_record_check(server: LiveServer) -> None:
    table_id, _token, seat = _finished_table(server, "runfast", 23)
    answer(seat, 0, {"type": "restart"})
    history = httpx.get(f"{server.http}/api/tables/{table_id}/history", timeout=30).json()
    deals = history["deals"]
    assert [(d["n"], d["deal"], d["match"], d["finished"]) for d in deals] == [(0, 0, 0, True), (1, 0, 1, False)]
    assert deals[0]["record"]["game"] == "runfast" and deals[0]["after"]["totals"]
    assert history["created_at"]
    assert httpx.get(f"{server.http}/api/tables/NoSuchTable123/history", timeout=30).status_code == 404

    text = json.dumps(deals[0]["record"]) + "\n"
    ok = httpx.post(f"{server.http}/api/records/check", content=text, timeout=30).json()
    assert ok["ok"] and ok["game"] == "runfast" and len(ok["deals"]) == 1
    tampered = deals[0]["record"] | {"actions": deals[0]["record"]["actions"][:-1]}
    bad = httpx.post(f"{server.http}/api/records/check", content=json.dumps(tampered), timeout=30).json()
    assert not bad["ok"] and "not a valid game record" in bad["error"]
    junk = httpx.post(f"{server.http}/api/records/check", content=b"\xff\x00", timeout=30).json()
    assert not junk["ok"] and junk["error"]
    seat.close()


def test_ai_plays_carry_their_public_reason(server: LiveServer) -> None:
    """Every AI play or pass is stored with the reason the AI gave, without any combination
    it did not play."""
    table_id, _token, seat = _finished_table(server, "guandan", 8)
    events = server.stored_events(table_id)
    ai = [e for e in events if e["event"] in ("played", "passed") and e["seat"] != 0]
    assert ai and all("reason" in e for e in ai)
    for e in ai:
        args = e["reason"]["args"]
        assert "alt" not in args
        if "combo" in args:
            assert e["event"] == "played" and args["combo"]["rank"] == e["combo"]["rank"]
    seat.close()


def _ai_in_trick(state: dict[str, Any]) -> bool:
    obs = state["observation"]
    return (obs["phase"] == "play" and obs["turn"] == 0
            and any(a["seat"] != 0 for a in obs.get("trick") or []))


def test_a_reconnecting_page_gets_the_ai_reasons_of_the_current_deal(server: LiveServer) -> None:
    from .leaks import check_no_leaks

    created = server.create("guandan", difficulty="normal", partner="normal", seed=41)
    table_id = created["table_id"]
    first = server.connect(table_id, created["token"])
    state = drive(first, 0, seed=41, until=_ai_in_trick)
    drive(first, 0, seed=41, until=lambda s: _ai_in_trick(s) and s["seq"] > state["seq"])
    first.close()
    events = server.stored_events(table_id)
    start = max(i for i, e in enumerate(events) if e["event"] == "deal_started")
    expected: dict[int, dict[str, Any]] = {}
    for seq, event in enumerate(events[start:], start + 1):
        if event["event"] in ("played", "passed"):
            expected[event["seat"]] = {"seat": event["seat"], "seq": seq,
                                       "pass": event["event"] == "passed",
                                       "combo": event.get("combo"), "reason": event.get("reason")}
    expected = {s: r for s, r in expected.items() if r["reason"] is not None}
    assert expected and 0 not in expected  # the person's moves carry no reason
    again = server.connect(table_id, created["token"])
    connect = again.recv_until(lambda m: m["type"] == "state")
    assert connect["event"] is None and connect["seq"] == len(events)
    assert connect["reasons"] == [expected[s] for s in sorted(expected)]
    for r in connect["reasons"]:  # public reasons only: numbers and the combination played
        assert set(r["reason"]["args"]) <= {"n", "delta", "base", "samples", "combo"}
    # later frames (an event each) carry the reason with their event instead
    drive(again, 0, seed=41, until=lambda s: s["event"] is not None and s["event"]["event"] == "played"
          and s["event"]["seat"] != 0)
    assert all("reasons" not in m for m in again.received if m["type"] == "state" and m["event"])
    check_no_leaks(server.stored_config(table_id), server.stored_events(table_id), again.received, 0)
    again.close()


def _deal_with_a_return(server: LiveServer) -> tuple[str, str, Any]:
    """A solo Guandan table whose second deal seat 0 played out after returning a card."""
    for seed in range(60, 80):
        created = server.create("guandan", difficulty="easy", partner="easy", seed=seed)
        seat = server.connect(created["table_id"], created["token"])
        drive(seat, 0, seed=seed, until=deal_over)
        state = answer(seat, 0, {"type": "next_deal"})
        if state["observation"]["phase"] != "tribute" or not state["observation"]["return_options"]:
            seat.close()
            continue
        drive(seat, 0, seed=seed, until=deal_over)
        return created["table_id"], created["token"], seat
    raise AssertionError("no seed gave seat 0 a return card")


def test_the_return_card_is_reviewed_as_a_key_moment(server: LiveServer) -> None:
    table_id, token, seat = _deal_with_a_return(server)
    events = server.stored_events(table_id)
    returned = next(i for i, e in enumerate(events) if e["event"] == "returned" and e["from"] == 0)
    response = _review(server, table_id, 1, token)
    assert response.status_code == 200, response.text
    review = response.json()
    first = review["decisions"][0]
    assert first["kind"] == "return" and first["action"] == 0 and first["seq"] == returned + 1
    assert all(d["kind"] == "play" for d in review["decisions"][1:]) and len(review["decisions"]) > 5
    assert first["played"] == {"seat": 0, "card": events[returned]["card"], "to": events[returned]["to"]}
    # the expert's card is one the seat could return then (G-3.5), with its reason and loss
    truth = Table(server.stored_config(table_id))
    for event in events[:returned]:
        truth.fold(event)
    options = {str(c) for c in truth.deal.return_options(0)}
    assert first["best"]["card"] in options and first["best"]["to"] == first["played"]["to"]
    assert first["label"] in LABELS and first["loss"] >= 0
    assert first["reason_key"] == "return_least_missed" and first["reason_args"]["card"] == first["best"]["card"]
    if first["best"] == first["played"]:
        assert first["loss"] == 0 and first["label"] == "good"
    # no hidden card: only the seat's own hand then, and the public cards
    allowed = _allowed_cards(server, table_id, 0)
    for d in review["decisions"]:
        assert not set(iter_cards(d)) - allowed[d["seq"]], d
    seat.close()


def test_the_review_process_ends_with_its_server_even_on_kill_9() -> None:
    """A server killed with ``kill -9`` leaves no review process behind."""
    import os
    import subprocess
    import sys
    import time

    script = (
        "import os, signal, sys\n"
        "from cardavia.server.review import review_pool\n"
        "pid = review_pool().submit(os.getpid).result(60)\n"
        "print(pid, flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == -9, done.stderr
    worker = int(done.stdout.split()[0])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(worker, 9)
    raise AssertionError("the review process outlived its server")
