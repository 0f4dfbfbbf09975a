"""Replay the attack battery's load scenarios against a fresh local server and print, per
scenario, the victim table's worst AI gap and whether any 5xx or ``server_error`` occurred.

Bounded and loopback only: the server is a child process on 127.0.0.1 with its own temporary
SQLite file, every scenario has a fixed length, and the script stops the server at the end.

    python bench/attack.py [--pacing 0.3] [--seconds 2] [--server-cmd "python -m cardavia.server.cli_serve"]

The victim is a Run Fast table (random AI) whose person answers at once; its "AI gap" is
the time from its last frame to the next AI move (the pacing when nothing holds it back).
``ratio`` is the worst gap divided by the calm baseline measured in the same run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.ws_client import choose, must_act  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Outcome:
    def __init__(self) -> None:
        self.http_5xx = 0
        self.server_errors = 0
        self.lock = threading.Lock()

    def http(self, response: httpx.Response) -> httpx.Response:
        if response.status_code >= 500:
            with self.lock:
                self.http_5xx += 1
        return response

    def frame(self, frame: dict[str, Any]) -> None:
        if frame.get("code") == "server_error":
            with self.lock:
                self.server_errors += 1


class Victim(threading.Thread):
    def __init__(self, base: str, outcome: Outcome) -> None:
        super().__init__(daemon=True)
        created = httpx.post(f"{base}/api/tables", json={"game": "runfast", "difficulty": "random"},
                             timeout=30).json()
        ws_base = base.replace("http://", "ws://")
        self.ws = connect(f"{ws_base}/ws/tables/{created['table_id']}?token={created['token']}",
                          max_size=2**22).__enter__()
        self.outcome = outcome
        self.gaps: list[tuple[float, float]] = []  # (when, gap)
        self.stop = threading.Event()

    def run(self) -> None:
        last = time.monotonic()
        while not self.stop.is_set():
            try:
                frame = json.loads(self.ws.recv(timeout=0.5))
            except TimeoutError:
                continue
            except ConnectionClosed:
                return
            now = time.monotonic()
            self.outcome.frame(frame)
            event = frame.get("event") or {}
            if frame["type"] == "state" and event.get("seat") not in (None, 0) and \
                    event.get("event") in ("played", "passed"):
                self.gaps.append((now, now - last))
            last = now
            if frame["type"] != "state":
                continue
            o = frame["observation"]
            if o["phase"] == "over" and frame["event"] is not None:
                self.ws.send('{"type":"next_deal"}')
            elif must_act(o):
                self.ws.send(json.dumps(choose(o, 1)))
            last = time.monotonic()

    def worst_between(self, start: float, end: float) -> float | None:
        window = [g for t, g in self.gaps if start <= t <= end]
        return max(window) if window else None


def _socket(base: str, table: dict[str, Any]) -> Any:
    ws_base = base.replace("http://", "ws://")
    return connect(f"{ws_base}/ws/tables/{table['table_id']}?token={table['token']}",
                   max_size=2**22)


def _drain(ws: Any, outcome: Outcome, done: threading.Event) -> None:
    while not done.is_set():
        try:
            outcome.frame(json.loads(ws.recv(timeout=0.3)))
        except TimeoutError:
            continue
        except Exception:
            return


def restart_stream(base: str, outcome: Outcome, seconds: float) -> None:
    """H1/M3: one client streams restarts (reconnecting when dropped)."""
    table = outcome.http(httpx.post(f"{base}/api/tables", json={"game": "guandan",
                                    "difficulty": "random", "partner": "random"}, timeout=30)).json()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with _socket(base, table) as ws:
                done = threading.Event()
                reader = threading.Thread(target=_drain, args=(ws, outcome, done), daemon=True)
                reader.start()
                try:
                    while time.monotonic() < end:
                        ws.send('{"type":"restart"}')
                except ConnectionClosed:
                    pass
                done.set()
                reader.join(5)
        except Exception:
            time.sleep(0.05)


def expert_flood(base: str, outcome: Outcome, seconds: float) -> None:
    """M4: 60 expert Guandan tables at once."""
    with httpx.Client(timeout=30) as client:
        for _ in range(60):
            outcome.http(client.post(f"{base}/api/tables", json={
                "game": "guandan", "difficulty": "expert", "partner": "expert"}))
    time.sleep(seconds)


def hint_flood(base: str, outcome: Outcome, seconds: float) -> None:
    """M4: 8 tables, each keeping one hint outstanding."""
    done = threading.Event()

    def keep_hinting(table: dict[str, Any]) -> None:
        try:
            with _socket(base, table) as ws:
                while not done.is_set():
                    frame = json.loads(ws.recv(timeout=5))
                    outcome.frame(frame)
                    if frame["type"] == "state" and must_act(frame["observation"]):
                        break
                while not done.is_set():
                    ws.send('{"type":"hint"}')
                    outcome.frame(json.loads(ws.recv(timeout=30)))
        except Exception:
            return

    tables = [outcome.http(httpx.post(f"{base}/api/tables", json={
        "game": "guandan", "difficulty": "easy", "partner": "easy"}, timeout=30)).json()
        for _ in range(8)]
    threads = [threading.Thread(target=keep_hinting, args=(t,), daemon=True) for t in tables
               if "table_id" in t]
    for t in threads:
        t.start()
    time.sleep(seconds)
    done.set()
    for t in threads:
        t.join(35)


def bad_frames(base: str, outcome: Outcome, seconds: float) -> None:
    """M1: unknown interpretation types and odd values at the person's turn."""
    table = outcome.http(httpx.post(f"{base}/api/tables", json={"game": "runfast",
                                    "difficulty": "random"}, timeout=30)).json()
    try:
        with _socket(base, table) as ws:
            end = time.monotonic() + seconds
            hand: list[str] = []
            while time.monotonic() < end:
                frame = json.loads(ws.recv(timeout=5))
                outcome.frame(frame)
                if frame["type"] == "state":
                    hand = frame["observation"]["hand"] or hand
                if hand and frame["type"] == "state" and must_act(frame["observation"]):
                    for interp in ({"type": "rocket"}, {"type": "single", "rank": "Z"}, 5):
                        ws.send(json.dumps({"type": "play", "cards": hand[:1],
                                            "interpretation": interp}))
                time.sleep(0.1)
    except Exception:
        return


def http_bodies(base: str, outcome: Outcome, seconds: float) -> None:
    """M2/L2: non-finite numbers, lone surrogates, oversized bodies."""
    bodies = ['{"game":"runfast","seed":NaN}', '{"game":"runfast","seed":Infinity}',
              '{"game":"\\ud800"}', "{" + " " * (8 * 2**20) + "}"]
    end = time.monotonic() + seconds
    with httpx.Client(timeout=30) as client:
        while time.monotonic() < end:
            for body in bodies:
                with contextlib.suppress(httpx.HTTPError):  # an upload may be cut short
                    outcome.http(client.post(f"{base}/api/tables", content=body,
                                             headers={"content-type": "application/json"}))


def table_flood(base: str, outcome: Outcome, seconds: float) -> None:
    """4.1: as many new tables as one client can post."""
    end = time.monotonic() + seconds
    with httpx.Client(timeout=30) as client:
        while time.monotonic() < end:
            outcome.http(client.post(f"{base}/api/tables", json={"game": "runfast",
                                                                 "difficulty": "random"}))


SCENARIOS: list[tuple[str, Callable[[str, Outcome, float], None]]] = [
    ("restart stream (H1)", restart_stream),
    ("60 expert tables (M4)", expert_flood),
    ("8 outstanding hints (M4)", hint_flood),
    ("bad interpretations (M1)", bad_frames),
    ("bad HTTP bodies (M2/L2)", http_bodies),
    ("table-creation flood", table_flood),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pacing", type=float, default=0.3)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each scenario")
    parser.add_argument("--server-cmd", default=f"{sys.executable} -m cardavia.server.cli_serve",
                        help="the server to attack (e.g. an older checkout's python -m ...)")
    parser.add_argument("--cwd", default=str(ROOT), help="where to run the server command")
    parser.add_argument("--extra", default="--allow-seeds",
                        help="extra server options ('' for a server without them)")
    args = parser.parse_args()
    print(f"pacing {args.pacing} s, {args.seconds} s per scenario, a fresh server each")
    print(f"{'scenario':28} {'worst AI gap':>13} {'ratio':>6} {'5xx':>5} {'server_error':>13}")
    baseline = 0.0
    for name, scenario in [("calm (baseline)", _calm), *SCENARIOS]:
        with _server(args) as base:
            outcome = Outcome()
            victim = Victim(base, outcome)
            victim.start()
            time.sleep(1.0)
            start = time.monotonic()
            worker = threading.Thread(target=scenario, args=(base, outcome, args.seconds),
                                      daemon=True)
            worker.start()
            worker.join(args.seconds + 60)
            time.sleep(1.0)  # what the attack left behind
            worst = victim.worst_between(start, time.monotonic())
            if worst is None:  # no AI move at all: the whole window is the gap
                worst = time.monotonic() - start
            victim.stop.set()
            victim.join(5)
            victim.ws.close()
        if not baseline:
            baseline = worst
        print(f"{name:28} {worst:>12.2f}s {worst / baseline:>6.1f} {outcome.http_5xx:>5} "
              f"{outcome.server_errors:>13}", flush=True)


def _calm(base: str, outcome: Outcome, seconds: float) -> None:
    time.sleep(seconds)


@contextlib.contextmanager
def _server(args: argparse.Namespace) -> Iterator[str]:
    """A fresh server (its own port and database), killed afterwards."""
    port = free_port()
    db = Path(tempfile.mkdtemp(prefix="cardavia-attack-")) / "attack.sqlite3"
    cmd = [*shlex.split(args.server_cmd), "--port", str(port), "--db", f"sqlite:///{db}",
           "--pacing", str(args.pacing), *shlex.split(args.extra)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.Popen(cmd, cwd=args.cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit("the server did not start")
            time.sleep(0.05)
        yield base
    finally:
        proc.kill()
        proc.wait(10)
        for leftover in db.parent.iterdir():
            leftover.unlink()
        db.parent.rmdir()


if __name__ == "__main__":
    main()
