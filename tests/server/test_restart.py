"""Kill the server process mid-deal, start it again on the same SQLite file: the table
resumes exactly where it was and the same seat finishes the deal with its token."""

from __future__ import annotations

from pathlib import Path

from cardavia.table import Table

from .conftest import LiveServer, SubprocessServer, free_port
from .leaks import check_no_leaks
from .ws_client import answer, choose, deal_over, drive, must_act


def test_server_restart_mid_deal(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    port = free_port()
    live = LiveServer(port, db_url)
    seed = 21

    # 1. a paced server: the person plays a few moves, then the process dies while the AI
    #    seats are still to move
    proc = SubprocessServer(port, db_url, pacing=0.3)
    proc.start()
    try:
        created = live.create("guandan", difficulty="easy", partner="easy", seed=seed)
        table_id, token = created["table_id"], created["token"]
        seat = live.connect(table_id, token)
        moves = 0
        while moves < 3:
            state = seat.recv_until(
                lambda m: m["type"] == "state" and must_act(m["observation"]), timeout=30
            )
            answer(seat, 0, choose(state["observation"], seed))
            moves += 1
        before_kill = len(live.stored_events(table_id))
    finally:
        proc.kill()
    first_frames = list(seat.received)
    stored = live.stored_events(table_id)
    assert len(stored) >= before_kill
    last_seen = max(m["seq"] for m in first_frames if m["type"] == "state")
    assert last_seen <= len(stored), "a frame was sent before its event was stored"

    # 2. the same database, a new process without pacing: the seat reconnects and the
    #    table continues from the stored log
    proc = SubprocessServer(port, db_url, pacing=0)
    proc.start()
    try:
        bad = live.connect(table_id, token + "x")
        assert bad.recv()["code"] == "auth"
        seat2 = live.connect(table_id, token)
        resumed = seat2.recv_until(lambda m: m["type"] == "state")
        # the first frame is the position the stored log folds to, before any new AI move
        truth = Table.rebuild(live.stored_config(table_id), stored)
        assert resumed["seq"] == len(stored)
        assert truth.pending_ai_seat() is not None, "killed while the AI seats were to move"
        assert resumed["observation"] == truth.observation_json(0)
        drive(seat2, 0, seed, until=deal_over)
        # a person-free wait: the AI is waiting for the person's next_deal now
        after = live.stored_events(table_id)
        assert after[: len(stored)] == stored, "an event was lost or changed by the restart"
        assert after[-1]["event"] == "deal_ended"
        assert max(m["seq"] for m in seat2.received if m["type"] == "state") == len(after)
        config = live.stored_config(table_id)
        check_no_leaks(config, after, first_frames, 0)
        check_no_leaks(config, after, seat2.received, 0)
        seat2.close()
    finally:
        proc.kill()


def test_resume_is_exact(tmp_path: Path) -> None:
    """Stopped while the person is to move: the reconnect shows the very same position."""
    db_url = f"sqlite:///{tmp_path / 'exact.sqlite3'}"
    port = free_port()
    live = LiveServer(port, db_url)
    proc = SubprocessServer(port, db_url, pacing=0)
    proc.start()
    try:
        created = live.create("runfast", difficulty="easy", seed=4)
        seat = live.connect(created["table_id"], created["token"])
        state = seat.recv_until(lambda m: m["type"] == "state" and must_act(m["observation"]))
        state = answer(seat, 0, choose(state["observation"], 4))
        state = seat.recv_until(lambda m: m["type"] == "state" and must_act(m["observation"]))
    finally:
        proc.kill()
    proc = SubprocessServer(port, db_url, pacing=0)
    proc.start()
    try:
        seat2 = live.connect(created["table_id"], created["token"])
        resumed = seat2.recv_until(lambda m: m["type"] == "state")
        assert resumed["observation"] == state["observation"]
        assert resumed["seq"] == state["seq"]
        final = drive(seat2, 0, 4, until=deal_over)
        assert final["observation"]["result"] is not None
        seat2.close()
    finally:
        proc.kill()
