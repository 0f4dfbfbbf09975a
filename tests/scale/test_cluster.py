"""Two server processes on real PostgreSQL and Redis: any process serves any table.

Seat connections to both processes see the same frames in the same order; killing the
owner (``kill -9``) mid-deal or mid-tribute hands the table to the other process, which
finishes the deal with a log that ``cardavia replay`` verifies; a stale owner's write is
refused; two processes starting together on a fresh database both come up.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from cardavia.server import schema
from cardavia.server.limits import Limits
from cardavia.table import NextDeal, Table, TableConfig
from tests.scale.conftest import Node
from tests.server.conftest import Seat, free_port
from tests.server.ws_client import choose, must_act
from tests.table.test_table import _act

pytestmark = pytest.mark.timeout(240)


def _states(seat: Seat, since: int = 0) -> list[dict[str, Any]]:
    return [m for m in seat.received if m["type"] == "state" and m["event"] is not None and m["seq"] > since]


def _is_turn(m: dict[str, Any]) -> bool:
    return m["type"] == "state" and (
        must_act(m["observation"])
        or (m["observation"]["phase"] == "over" and (m["event"] or {}).get("event") == "deal_ended"))


def _wait_turn(seat: Seat, timeout: float = 30) -> dict[str, Any]:
    """The next frame in which the person must act or the deal has ended."""
    return seat.recv_until(_is_turn, timeout)


def _by_person(event: dict[str, Any]) -> bool:
    return event.get("seat", event.get("from")) == 0 and event["event"] in ("played", "passed", "returned")


def _act_on(seat: Seat, state: dict[str, Any], seed: int) -> None:
    move = choose(state["observation"], seed)
    seat.send(move)
    reply = seat.recv_until(lambda m: m["type"] == "error" or (m["type"] == "state" and m["event"] is not None
                                                                and _by_person(m["event"])), 30)
    if reply["type"] == "error":
        assert reply["code"] == "ambiguous", reply
        option = reply["options"][0]
        seat.send({**move, "interpretation": {"type": option["type"], "rank": option["rank"]}})


def _replay(node: Node, table_id: str, tmp_path: Path) -> dict[str, Any]:
    """The table's record from the process, checked by ``cardavia replay``."""
    record = httpx.get(f"{node.live.http}/api/tables/{table_id}/record", timeout=30).json()
    path = tmp_path / f"{table_id}.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in record["deals"]))
    done = subprocess.run([sys.executable, "-m", "cardavia", "replay", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    assert result["ok"] and result["deals"] == len(record["deals"])
    return result


def test_two_processes_starting_together_on_a_fresh_database_both_come_up(nodes: Any) -> None:
    a, b = nodes(start=False), nodes(start=False)
    a.launch()
    b.launch()  # at the same moment: both find an empty database
    a.wait_up()
    b.wait_up()
    created = a.live.create("runfast", seed=4, difficulty="random")
    summary = httpx.get(f"{b.live.http}/api/tables/{created['table_id']}", timeout=10)
    assert summary.status_code == 200 and summary.json()["game"] == "runfast"
    current = subprocess.run([sys.executable, "-m", "cardavia", "db", "current", "--db", a.db_url],
                             capture_output=True, text=True, timeout=60)
    head = schema.head_revision()
    assert f"schema revision {head}; this Cardavia's is {head}" in current.stdout, current


def test_seats_on_both_processes_see_the_same_frames_in_the_same_order(nodes: Any) -> None:
    a, b = nodes(pacing=0.02), nodes(pacing=0.02)
    created = a.live.create("guandan", seed=21, difficulty="random", partner="random")
    on_a = a.live.connect(created["table_id"], created["token"])
    on_b = b.live.connect(created["table_id"], created["token"])  # b follows a
    try:
        first_a, first_b = on_a.recv(), on_b.recv()
        assert first_a["type"] == first_b["type"] == "state"
        start = max(first_a["seq"], first_b["seq"])
        turn = 0
        state = _wait_turn(on_a)
        hinted = False
        while state["observation"]["phase"] != "over":
            actor = on_b if turn % 2 else on_a  # every other action goes through b, the follower
            if actor is on_b:
                state = on_b.recv_until(lambda m, s=state["seq"]: m["type"] == "state" and m["seq"] >= s, 30)
                if not hinted:  # a hint is worked out where the person is connected
                    on_b.send({"type": "hint"})
                    assert on_b.recv_until(lambda m: m["type"] in ("hint", "error"), 60)["type"] == "hint"
                    hinted = True
            _act_on(actor, state, 21)
            turn += 1
            state = _wait_turn(on_a)
        last = state["seq"]
        on_b.recv_until(lambda m: m["type"] == "state" and m["seq"] >= last, 30)
        frames_a = [m for m in _states(on_a, start) if m["seq"] <= last]
        frames_b = [m for m in _states(on_b, start) if m["seq"] <= last]
        assert [m["seq"] for m in frames_a] == list(range(start + 1, last + 1))
        assert frames_a == frames_b  # byte for byte the same frames, in seq order
        assert turn >= 4 and hinted
    finally:
        on_a.close()
        on_b.close()
    stored = a.live.stored_table(created["table_id"])
    assert stored.seq == last and stored.deal.over


def _tribute_seed() -> int:
    """A seed whose second Guandan deal waits for the person's return card (random AI, the
    tests' person policy)."""
    for seed in range(1, 80):
        table = Table.create(TableConfig.preset("guandan", seed, "random", "random"))
        while True:
            table.run_ai()
            if table.deal.over:
                break
            _act(table, choose(table.observation(0).to_json(), seed))
        table.apply_action(0, NextDeal())
        table.run_ai()
        obs = table.observation(0).to_json()
        if obs["phase"] == "tribute" and must_act(obs):
            return seed
    raise AssertionError("no seed in 1-79 has the person return tribute in deal 2")


def _failover(a: Node, b: Node, seat_a: Seat, seat_b: Seat, token: str, table_id: str) -> float:
    """kill -9 the owner a; the follower b must carry the table on. Seconds until b's seat
    sees the table move again (or shows it waiting for the person)."""
    seq_before = max(m["seq"] for m in seat_b.received if m["type"] == "state")
    killed = time.monotonic()
    a.kill()
    with pytest.raises((ConnectionClosed, TimeoutError, OSError)):
        seat_a.recv_until(lambda m: False, timeout=5)
    # the page reconnects by itself: here, to the process that is left
    again = b.live.connect(table_id, token)
    joined = again.recv()
    assert joined["type"] == "state" and joined["seq"] >= seq_before
    again.close()
    return time.monotonic() - killed


def test_kill_9_of_the_owner_mid_deal_the_other_process_finishes_it(nodes: Any, tmp_path: Path) -> None:
    a, b = nodes(pacing=0.3), nodes(pacing=0.3)
    created = a.live.create("guandan", seed=9, difficulty="random", partner="random")
    table_id, token = created["table_id"], created["token"]
    seat_a = a.live.connect(table_id, token)
    seat_b = b.live.connect(table_id, token)
    try:
        seat_a.recv()
        seat_b.recv()
        for _ in range(2):
            _act_on(seat_a, _wait_turn(seat_a), 9)
        # the AI is now moving, paced: kill its owner in the middle of that
        seat_a.recv_until(lambda m: m["type"] == "state" and m["event"] is not None and m["event"].get("seat") != 0)
        seq_at_kill = seat_a.last_state["seq"] if seat_a.last_state else 0
        took = _failover(a, b, seat_a, seat_b, token, table_id)
        moved = seat_b.recv_until(lambda m: m["type"] == "state" and m["seq"] > seq_at_kill + 1, 10)
        assert took < 5
        state = moved if _is_turn(moved) else _wait_turn(seat_b, 30)
        while state["observation"]["phase"] != "over":
            _act_on(seat_b, state, 9)
            state = _wait_turn(seat_b, 30)
        frames = [m["seq"] for m in _states(seat_b)]
        assert frames == sorted(set(frames)), "b's seat saw an entry twice or out of order"
    finally:
        seat_b.close()
    result = _replay(b, table_id, tmp_path)
    assert result["deals"] == 1
    stored = b.live.stored_table(table_id)
    assert stored.deal.over and stored.seq == state["seq"]


def test_kill_9_of_the_owner_mid_tribute_the_other_process_finishes_the_deal(nodes: Any, tmp_path: Path) -> None:
    seed = _tribute_seed()
    a, b = nodes(pacing=0.0), nodes(pacing=0.0)
    created = a.live.create("guandan", seed=seed, difficulty="random", partner="random")
    table_id, token = created["table_id"], created["token"]
    seat_a = a.live.connect(table_id, token)
    seat_b = b.live.connect(table_id, token)
    try:
        state = _wait_turn(seat_a)
        while state["observation"]["phase"] != "over":
            _act_on(seat_a, state, seed)
            state = _wait_turn(seat_a)
        seat_a.send({"type": "next_deal"})
        tribute = seat_a.recv_until(lambda m: m["type"] == "state" and m["observation"]["phase"] == "tribute"
                                    and must_act(m["observation"]), 30)
        seat_b.recv_until(lambda m: m["type"] == "state" and m["seq"] >= tribute["seq"], 30)
        took = _failover(a, b, seat_a, seat_b, token, table_id)
        assert took < 5
        state = tribute
        # the person's return card goes to b, which takes the table over for it
        while state["observation"]["phase"] != "over":
            _act_on(seat_b, state, seed)
            state = _wait_turn(seat_b, 30)
        assert state["observation"]["deal_index"] == 1
    finally:
        seat_b.close()
    result = _replay(b, table_id, tmp_path)
    assert result["deals"] == 2
    kinds = [e["event"] for e in b.live.stored_events(table_id)]
    assert "tribute_paid" in kinds or "tribute_cancelled" in kinds


def _caught_up(seat: Seat, seq: int, timeout: float) -> int:
    """Until ``seat`` has seen the table at ``seq`` or later: the seq it shows then."""
    if seat.last_state is None or seat.last_state["seq"] < seq:
        seat.recv_until(lambda m: m["type"] == "state" and m["seq"] >= seq, timeout)
    assert seat.last_state is not None
    shown: int = seat.last_state["seq"]
    return shown


def test_a_follower_reads_entries_whose_batch_was_lost_on_the_way(
    nodes: Any, pg_url: str, redis_url: str,
) -> None:
    """Pub/sub delivers at most once: while the follower's link to Redis is cut, the
    owner's batches of that moment never reach it, and no later batch comes while the
    person thinks. The follower still shows the table as stored, from its periodic
    comparison with the log."""
    from tests.scale.proxy import Proxy

    redis_port = int(redis_url.rsplit(":", 1)[1].split("/")[0])
    link = Proxy([redis_port])  # b reaches Redis only through this link
    a = nodes(pacing=0.0)
    b = Node(free_port(), pg_url, f"redis://127.0.0.1:{link.port}/0")
    b.start()
    created = a.live.create("runfast", seed=12, difficulty="random")
    table_id, token = created["table_id"], created["token"]
    on_a = a.live.connect(table_id, token)
    on_b = b.live.connect(table_id, token)  # b follows a
    try:
        on_b.recv()
        state = _wait_turn(on_a)
        for _ in range(2):
            _caught_up(on_b, state["seq"], 10)
            link.cut()
            _act_on(on_a, state, 12)
            state = _wait_turn(on_a)
            time.sleep(0.3)
            link.resume()
            stored = a.live.stored_table(table_id).seq
            assert stored == state["seq"]
            assert _caught_up(on_b, stored, 8) == stored
            if state["observation"]["phase"] == "over":
                break
    finally:
        on_a.close()
        on_b.close()
        b.stop()
        link.close()


def test_the_new_table_rate_of_one_client_is_shared_by_every_process(nodes: Any, redis_url: str) -> None:
    """A client creating tables on two processes in turn gets the burst once, not once per
    process (a token bucket in Redis): beyond it, 429 with a sentence."""
    import redis

    a, b = nodes(), nodes()
    shared = redis.Redis.from_url(redis_url)
    bucket = "cardavia:bucket:create:127.0.0.1"  # this client's (the other tests' too)
    shared.delete(bucket)
    burst, rate = Limits().create_burst, Limits().create_rate
    made = refused = 0
    started = time.monotonic()
    with httpx.Client(timeout=30) as http:
        for i in range(int(burst) + 20):
            node = (a, b)[i % 2]
            answer = http.post(f"{node.live.http}/api/tables", json={"game": "runfast", "difficulty": "random"})
            if answer.status_code == 200:
                made += 1
            else:
                assert answer.status_code == 429 and "too many new tables" in answer.json()["detail"], answer.text
                refused += 1
    elapsed = time.monotonic() - started
    shared.delete(bucket)  # the next tests create tables from this address too
    shared.close()
    assert made <= burst + rate * elapsed + 1, (made, elapsed)
    assert refused >= 20 - rate * elapsed - 1, (refused, elapsed)
