"""Kill -9 the server with four people at a Guandan table mid-trick, start it again on the
same database: every person reconnects with their own token and the deal finishes with
nothing lost (and nobody sees another's cards, before or after)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardavia.table import Table

from .conftest import LiveServer, SubprocessServer, free_port
from .friends_helpers import create_friends, join_ok, play_together, room_frame
from .leaks import check_no_leaks
from .ws_client import deal_over


def _mid_trick(state: dict[str, Any]) -> bool:
    obs = state["observation"]
    return obs["phase"] == "play" and len(obs["history"]) >= 9 and obs["top"] is not None


def test_kill_with_four_people_mid_trick_and_resume(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'friends-restart.sqlite3'}"
    port = free_port()
    live = LiveServer(port, db_url)
    seed = 17
    proc = SubprocessServer(port, db_url, pacing=0)
    proc.start()
    try:
        created = create_friends(live, "guandan", ["person"] * 4, seed=seed, name="North")
        table_id = created["table_id"]
        tokens = {0: created["token"]}
        for invite in created["invites"]:
            tokens[invite["seat"]] = join_ok(live, invite["code"], f"Seat{invite['seat']}")["token"]
        seats = {s: live.connect(table_id, t) for s, t in tokens.items()}
        for conn in seats.values():
            room_frame(conn, lambda m: not m["waiting"])
        play_together(seats, seed, until=_mid_trick)
    finally:
        proc.kill()  # SIGKILL: no shutdown, no goodbye
    before = {s: list(c.received) for s, c in seats.items()}
    stored = live.stored_events(table_id)
    truth = Table.rebuild(live.stored_config(table_id), stored)
    assert truth.deal.top is not None and truth.deal.phase == "play", "killed mid-trick"
    last_seen = max(m["seq"] for c in seats.values() for m in c.received if m["type"] == "state")
    assert last_seen <= len(stored), "a frame was sent before its event was stored"

    proc = SubprocessServer(port, db_url, pacing=0)
    proc.start()
    try:
        again = {s: live.connect(table_id, t) for s, t in tokens.items()}
        for s, conn in again.items():
            state = conn.recv_until(lambda m: m["type"] == "state")
            assert state["seq"] == len(stored)
            assert state["observation"] == truth.observation_json(s)
            frame = room_frame(conn)
            assert frame["you"] == s and frame["seats"][s]["name"] in ("North", f"Seat{s}")
        play_together(again, seed, until=deal_over)
        after = live.stored_events(table_id)
        assert after[: len(stored)] == stored, "an event was lost or changed by the kill"
        assert after[-1]["event"] == "deal_ended"
        assert all(e["by"] == "person" for e in after if e["event"] in ("played", "passed"))
        config = live.stored_config(table_id)
        for s in tokens:
            check_no_leaks(config, after, before[s], s)
            check_no_leaks(config, after, again[s].received, s)
            again[s].close()
    finally:
        proc.kill()
