"""Nothing is sent before it is stored: a failing database loses no frame and no event."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from cardavia.server.app import create_app

from .conftest import LiveServer, ThreadServer
from .ws_client import answer, choose, must_act


def test_a_failed_commit_is_never_broadcast(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db_url = f"sqlite:///{tmp_path / 'failing.sqlite3'}"
    app = create_app(db_url, pacing=0, allow_seeds=True)
    with ThreadServer(app) as running:
        live = LiveServer(running.port, db_url, app)
        created = live.create("runfast", difficulty="easy", seed=3)
        seat = live.connect(created["table_id"], created["token"])
        before = seat.recv_until(lambda m: m["type"] == "state" and must_act(m["observation"]))
        store = app.state.store

        def broken(*_: Any, **__: Any) -> None:
            raise RuntimeError("disk full")

        monkeypatch.setattr(store, "append_many", broken)
        monkeypatch.setattr(store, "append_events", broken)
        move = choose(before["observation"], 3)
        seat.send(move)
        error = seat.wait_error()
        assert error["code"] == "server_error"
        with pytest.raises(ConnectionClosed):
            seat.recv_until(lambda m: False, timeout=5)
        assert all(m["seq"] <= before["seq"] for m in seat.received if m["type"] == "state")
        assert len(live.stored_events(created["table_id"])) == before["seq"]

        monkeypatch.undo()
        again = live.connect(created["table_id"], created["token"])
        resumed = again.recv()
        assert resumed["seq"] == before["seq"]
        assert resumed["observation"] == before["observation"]
        answer(again, 0, move)  # the same move now goes through
        assert len(live.stored_events(created["table_id"])) > before["seq"]
        again.close()
