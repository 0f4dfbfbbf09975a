"""Jobs for the AI pool's tests (importable by name in a worker process)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def pid() -> int:
    return os.getpid()


def fail(message: str) -> None:
    raise ValueError(message)


def nap(seconds: float, tag: str) -> str:
    time.sleep(seconds)
    return tag


def spin(seconds: float) -> int:
    """Busy CPU for ``seconds`` (holds that process's GIL throughout)."""
    end = time.process_time() + seconds
    n = 0
    while time.process_time() < end:
        n += 1
    return n


def die_once(marker: str) -> int:
    """Kill this worker the first time (the marker file does not exist yet)."""
    path = Path(marker)
    if not path.exists():
        path.write_text("died")
        os._exit(9)
    return os.getpid()


def die_always() -> None:
    os._exit(9)
