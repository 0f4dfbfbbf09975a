"""Regression tests of the attack battery (issue 10), part 2: bad HTTP bodies, seeds,
storage faults, ``cardavia serve`` start-up, ``cardavia replay`` input, self-play memory."""

from __future__ import annotations

import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed

from cardavia.server.store import Store, StoreError

from .conftest import ROOT, LiveServer
from .test_hardening import live_server
from .ws_client import choose, must_act

# ---------------------------------------------------------------------------- M2 / L2

BAD_JSON = [
    '{"game":"runfast","seed":NaN}',
    '{"game":"runfast","seed":Infinity}',
    '{"game":"runfast","seed":-Infinity}',
    '{"game":"\\ud800"}',
    '{"game":"guandan","partner":"\\udfff"}',
    '{"game":"runfast","zz":NaN}',
]


@pytest.mark.parametrize("body", BAD_JSON)
def test_m2_non_finite_numbers_and_lone_surrogates_are_a_422(server: LiveServer, body: str) -> None:
    answer = httpx.post(f"{server.http}/api/tables", content=body,
                        headers={"content-type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert "input" not in answer.json()["detail"][0]


def test_l2_the_422_does_not_echo_the_body(server: LiveServer) -> None:
    big = json.dumps({"game": "x" * 60_000})
    answer = httpx.post(f"{server.http}/api/tables", content=big,
                        headers={"content-type": "application/json"})
    assert answer.status_code == 422 and len(answer.content) < 2_000


def test_l2_large_bodies_get_413_without_being_read(server: LiveServer) -> None:
    answer = httpx.post(f"{server.http}/api/tables", content=b"{" + b" " * (65 * 1024) + b"}",
                        headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "limited" in answer.json()["detail"]
    # a declared 100 MiB body: refused from its headers, before any of it is sent
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 104857600\r\n\r\n")
        head = sock.recv(4096).decode()
    assert head.startswith("HTTP/1.1 413"), head

    def chunks() -> Any:  # no Content-Length: counted while it is read
        for _ in range(64):
            yield b" " * 16384

    streamed = httpx.post(f"{server.http}/api/tables", content=chunks(),
                          headers={"content-type": "application/json"}, timeout=30)
    assert streamed.status_code == 413


# ---------------------------------------------------------------------------- M5


def test_m5_client_seeds_need_allow_seeds_and_server_seeds_mix_a_secret(tmp_path: Path) -> None:
    with live_server(tmp_path, "m5", allow_seeds=False) as live:
        refused = httpx.post(f"{live.http}/api/tables", json={"game": "guandan", "seed": 12345})
        assert refused.status_code == 422 and "--allow-seeds" in refused.json()["detail"]
        created = live.create("runfast", difficulty="easy")
        seed = live.stored_config(created["table_id"]).seed
        assert 0 <= seed < 2**63
        secret = live.app.state.store.seed_secret()
        assert len(secret) == 32
    # the secret is the database's: a restarted server keeps it, and the table resumes
    again = Store(live.db_url)
    try:
        assert again.seed_secret() == secret
    finally:
        again.close()
    with live_server(tmp_path, "m5", allow_seeds=False) as live2:
        seat = live2.connect(created["table_id"], created["token"])
        assert seat.recv()["type"] == "state"
        seat.close()


# ---------------------------------------------------------------------------- L3


def _break_row(db_url: str, table_id: str) -> None:
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as conn:
        conn.execute("UPDATE events SET body = 'not json' WHERE table_id = ? AND seq = 1",
                     (table_id,))


def test_l3_a_damaged_row_is_a_503_and_a_closing_error_frame(server: LiveServer) -> None:
    damaged = server.create("runfast", difficulty="easy", seed=31)
    fine = server.create("runfast", difficulty="easy", seed=32)
    registry = server.app.state.registry
    time.sleep(0.3)
    registry.rooms.pop(damaged["table_id"], None)
    _break_row(server.db_url, damaged["table_id"])
    for path in ("", "/record"):
        answer = httpx.get(f"{server.http}/api/tables/{damaged['table_id']}{path}")
        assert answer.status_code == 503, answer.text
        assert "damaged" in answer.json()["detail"]
    seat = server.connect(damaged["table_id"], damaged["token"])
    error = seat.recv()
    assert error["type"] == "error" and error["code"] == "server_error"
    with pytest.raises(ConnectionClosed) as closed:
        seat.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
    assert httpx.get(f"{server.http}/api/tables/{fine['table_id']}").status_code == 200


def test_l3_a_full_disk_is_a_503_and_nothing_committed_is_lost(tmp_path: Path) -> None:
    with live_server(tmp_path, "full") as live:
        created = live.create("runfast", difficulty="easy", seed=3)
        seat = live.connect(created["table_id"], created["token"])
        before = seat.recv_until(lambda m: m["type"] == "state" and must_act(m["observation"]))
        store = live.app.state.store
        prior = live.stored_events(created["table_id"])
        cap: list[int | None] = [None]

        def limit_pages(dbapi_conn: Any, _record: Any) -> None:  # every new connection
            if cap[0] is not None:
                dbapi_conn.execute(f"PRAGMA max_page_count = {cap[0]}")

        sa.event.listen(store.engine, "connect", limit_pages)

        def on_db(limit: bool) -> None:  # (nothing else writes meanwhile: the AI waits)
            """The disk is full (no page beyond the file's size now) on every connection the
            store opens from here on, or no longer."""
            probe = store.engine.raw_connection()
            try:
                pages = probe.driver_connection.execute("PRAGMA page_count").fetchone()[0]
            finally:
                probe.close()
            cap[0] = pages if limit else 2**30
            if store._writer is not None:
                store._writer.close()
                store._writer = None
            store.engine.dispose()  # pooled connections reopen with the cap

        on_db(True)
        many = [httpx.post(f"{live.http}/api/tables",
                           json={"game": "guandan", "seed": i, "difficulty": "easy", "partner": "easy"})
                for i in range(30)]
        assert {r.status_code for r in many} <= {200, 503} and 503 in {r.status_code for r in many}
        full = next(r for r in many if r.status_code == 503)
        assert "full" in full.json()["detail"]
        seat.send(choose(before["observation"], 3))
        error = seat.wait_error()
        assert error["code"] == "server_error"
        with pytest.raises(ConnectionClosed):
            seat.recv_until(lambda m: False, timeout=5)
        on_db(False)
        assert httpx.get(f"{live.http}/api/health").status_code == 200
        again = live.connect(created["table_id"], created["token"])
        resumed = again.recv()["seq"]
        again.close()
        # what was committed before the disk filled is all there, and the reloaded table is
        # exactly the stored log (the move may have committed in the last free page before
        # the AI's reply hit the full disk)
        stored = live.stored_events(created["table_id"])
        assert before["seq"] <= resumed <= len(stored)  # (the AI may move on after the frame)
        assert stored[: len(prior)] == prior


# ---------------------------------------------------------------------------- L4, L5, L9


def _serve(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cardavia", "serve", "--port", "0", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )


def _one_line_failure(proc: subprocess.Popen[str], *needles: str) -> None:
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, (out, err)
    assert "Traceback" not in err and "running" not in out, err
    assert len(err.strip().splitlines()) == 1, err
    for needle in needles:
        assert needle in err, err


def test_l4_startup_errors_are_one_line(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(os.urandom(8192))
    _one_line_failure(_serve("--db", f"sqlite:///{garbage}"), "cannot open the database")
    _one_line_failure(_serve("--db", "notaurl://x"), "database URL")
    _one_line_failure(_serve("--db", f"sqlite:///{tmp_path / 'missing' / 'x.sqlite3'}"), "database")
    _one_line_failure(_serve("--db", f"sqlite:///{tmp_path}"), "database")
    _one_line_failure(_serve("--db", f"sqlite:///{tmp_path / 'p.sqlite3'}",
                             env={"CARDAVIA_PACING": "fast"}), "CARDAVIA_PACING")


def test_l5_the_running_line_comes_once_connections_are_accepted(tmp_path: Path) -> None:
    proc = _serve("--db", f"sqlite:///{tmp_path / 'l5.sqlite3'}")
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"open (http://127\.0\.0\.1:(\d+)/)", line)
        assert match, line
        answer = httpx.get(f"{match.group(1)}api/health", timeout=5)  # at once, no retry
        assert answer.status_code == 200
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_l9_a_second_server_on_the_same_file_refuses_to_start(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    first = _serve("--db", db)
    try:
        assert first.stdout is not None
        assert "running" in first.stdout.readline()
        _one_line_failure(_serve("--db", db), "in use by another Cardavia server")
    finally:
        first.terminate()
        first.wait(timeout=20)
    second = _serve("--db", db)  # once the first is gone, the file is free again
    try:
        assert second.stdout is not None
        assert "running" in second.stdout.readline()
    finally:
        second.terminate()
        second.wait(timeout=20)


def test_l9_schema_creation_is_race_free(tmp_path: Path) -> None:
    for attempt in range(3):
        url = f"sqlite:///{tmp_path / f'race{attempt}.sqlite3'}"
        outcomes: list[str] = []
        barrier = threading.Barrier(4)

        def start(
            url: str = url, barrier: threading.Barrier = barrier, outcomes: list[str] = outcomes
        ) -> None:
            barrier.wait()
            try:
                Store(url).close()
                outcomes.append("up")
            except StoreError as err:
                outcomes.append(str(err))

        threads = [threading.Thread(target=start) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert outcomes == ["up"] * 4, outcomes


def test_l9_exclusive_stores_refuse_a_held_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'held.sqlite3'}"
    holder = Store(url, exclusive=True)
    try:
        with pytest.raises(StoreError, match="in use"):
            Store(url, exclusive=True)
    finally:
        holder.close()
    Store(url, exclusive=True).close()


# ---------------------------------------------------------------------------- L6


def _replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardavia", "replay", str(path)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


def _good_record() -> str:
    from cardavia.selfplay import selfplay_records

    return json.dumps(next(iter(selfplay_records("runfast", 1, 3, ["random"]))))


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("[" * 100_000, "nested too deeply"),
        ('{"game":' + "[" * 5000 + "]" * 5000 + "}", "nested too deeply"),
        ('{"seed": ' + "7" * 5000 + "}", "number too long"),
        ('{"game": "runfast", "hands": null}', "hands"),
        ('{"game": "runfast", "hands": [["3s"]], "actions": [{"seat": "x"}]}', "actions.0.seat"),
        ('{"game": "runfast", "hands": "3s"}', "hands"),
        ('{"game": "guandan", "hands": [[1]]}', "hands.0.0"),
        ('{"game": "runfast", "hands": [], "actions": 5}', "actions"),
    ],
)
def test_l6_bad_lines_are_one_sentence_naming_the_line(tmp_path: Path, line: str, needle: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(_good_record() + "\n" + line + "\n")
    done = _replay(path)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    error = json.loads(done.stdout)["error"]
    assert "line 2 of" in error and needle in error, error


def test_l6_records_are_streamed(tmp_path: Path) -> None:
    """The reader hands over each record as it reads it: an endless file is fine for the
    first records (a reader that loads the whole file first never returns)."""
    from cardavia.replay_reader import read_records

    record = _good_record() + "\n"

    class Endless:
        def readline(self, limit: int = -1) -> str:
            return record

    reader = read_records(Endless(), "endless")  # type: ignore[arg-type]
    assert [next(reader)["game"] for _ in range(3)] == ["runfast"] * 3


# ---------------------------------------------------------------------------- self-play


def _rss_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_selfplay_memory_stays_flat() -> None:
    from cardavia.selfplay import selfplay_records

    records = selfplay_records("guandan", 2_100, 17, ["random"])
    for _ in range(100):  # warm-up: caches, the first allocations
        next(records)
    start = _rss_bytes()
    count = sum(1 for _ in records)
    grown = _rss_bytes() - start
    assert count == 2_000
    assert grown < 20 * 2**20, f"{grown / 2**20:.1f} MB more after 2,000 deals"

