"""``cardavia serve`` as a newcomer meets it: the URL it prints works, and a bad port or a
taken one is a clear one-line error before any URL is printed."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def _serve(*args: str, db: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cardavia", "serve", "--db", f"sqlite:///{db}", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def test_port_zero_picks_a_free_port_and_prints_its_url(tmp_path: Path) -> None:
    proc = _serve("--port", "0", db=tmp_path / "a.sqlite3")
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"open (http://127\.0\.0\.1:(\d+)/)", line)
        assert match and int(match.group(2)) > 0, line
        deadline = time.monotonic() + 20
        while True:
            try:
                page = httpx.get(match.group(1), timeout=2)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the printed URL never answered"
                time.sleep(0.1)
        assert page.status_code == 200 and "CARDAVIA" in page.text.upper()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_a_taken_port_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = _serve("--port", str(port), db=tmp_path / "b.sqlite3")
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    assert "Cardavia is running" not in out  # no URL that would not work
    assert f"cannot listen on 127.0.0.1:{port}" in err and "Traceback" not in err


def test_a_bad_port_is_refused(tmp_path: Path) -> None:
    proc = _serve("--port", "99999", db=tmp_path / "c.sqlite3")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "not a port number" in err and not out
