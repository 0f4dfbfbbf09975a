"""The AI's compiled modules (cardavia.ai.native): in use after ./scripts/setup, the same
moves as plain Python, and never used once a source differs from what was compiled."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardavia.ai import native
from cardavia.ai.base import Decision
from cardavia.ai.expert import ExpertAgent
from cardavia.ai.runner import guandan_deal, play_out, runfast_deal
from cardavia.rules.observation import Observation

ROOT = Path(__file__).resolve().parents[2]


def moves_of(game: str, seed: int) -> list[str]:
    """Every decision of a deal played by fixed-sample experts (no clock, so no timing in
    the result): the moves with the search's reasons, in order."""
    deal = guandan_deal(seed) if game == "guandan" else runfast_deal(seed)
    seats = 4 if game == "guandan" else 3
    agents = [ExpertAgent(seed * 10 + s, budget_ms=1e9, hard_cap_ms=1e9, max_samples=6) for s in range(seats)]
    seen: list[str] = []

    def record(seat: int, obs: Observation, decision: Decision, seconds: float) -> None:
        seen.append(f"{seat} {decision!r}")

    play_out(deal, agents, record)
    return seen


def test_compiled_modules_are_in_use() -> None:
    """./scripts/setup builds them (when there is a C compiler); CARDAVIA_PURE=1 turns them off."""
    state = native.status()
    if os.environ.get("CARDAVIA_PURE"):
        assert not state.active and state.reason == "pure"
        return
    assert state.active, f"the AI runs as plain Python: {state.reason} (run ./scripts/setup)"
    for module in native.MODULES:
        assert sys.modules[module].__file__ is not None
        loaded = Path(sys.modules[module].__file__ or "")
        assert loaded.is_relative_to(state.directory) and loaded.suffix == ".so", module


@pytest.mark.parametrize(("game", "seed"), [("guandan", 3), ("runfast", 5)])
def test_same_moves_as_plain_python(game: str, seed: int) -> None:
    here = moves_of(game, seed)
    code = f"import json; from tests.ai.test_native import moves_of; print(json.dumps(moves_of({game!r}, {seed})))"
    env = {**os.environ, "CARDAVIA_PURE": "1"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    pure = json.loads(done.stdout)
    assert len(here) > 10
    assert here == pure


def _built_copy(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the sources and a manifest naming them (with empty stand-in files)."""
    root = tmp_path / "src"
    shutil.copytree(native.PACKAGE_ROOT / "cardavia", root / "cardavia",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "web", "server"))
    built = tmp_path / "native"
    built.mkdir()
    suffix = native._suffix()
    for module in native.MODULES:
        (built / f"{module}{suffix}").write_bytes(b"")
    (built / f"abc__mypyc{suffix}").write_bytes(b"")
    manifest = {"python": sys.version, "suffix": suffix, "shared": "abc__mypyc",
                "sources": {m: native.fingerprint(m, root) for m in native.MODULES}}
    (built / native.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    return root, built


def test_manifest_that_matches_is_used(tmp_path: Path) -> None:
    root, built = _built_copy(tmp_path)
    files, reason = native.check(built, root)
    assert reason == "compiled"
    assert set(files) == {*native.MODULES, "abc__mypyc"}


def test_an_edited_source_means_plain_python(tmp_path: Path) -> None:
    root, built = _built_copy(tmp_path)
    source = native.source_of("cardavia.ai.guandan.search", root)
    source.write_text(source.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    files, reason = native.check(built, root)
    assert files == {}
    assert reason == "not used: cardavia.ai.guandan.search changed since the build"


def test_missing_or_foreign_builds_mean_plain_python(tmp_path: Path) -> None:
    root, built = _built_copy(tmp_path)
    (built / f"cardavia.ai.search{native._suffix()}").unlink()
    assert native.check(built, root) == ({}, "not used: cardavia.ai.search is missing")
    manifest = json.loads((built / native.MANIFEST).read_text(encoding="utf-8"))
    manifest["python"] = "2.7.18"
    (built / native.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    assert native.check(built, root) == ({}, "not used: built for another Python")
    (built / native.MANIFEST).write_text("{not json", encoding="utf-8")
    assert native.check(built, root)[1].startswith("not used: unreadable manifest")
    assert native.check(tmp_path / "nowhere", root)[1].startswith("not used: nothing built")


def test_doctests_of_compiled_modules_in_plain_python() -> None:
    """The compiled modules' doctests (which pytest cannot collect from a compiled module, see
    conftest.py) all run, and pass, in plain Python."""
    files = [native.source_of(m) for m in native.MODULES]
    expected = sum(">>> " in f.read_text(encoding="utf-8") for f in files)
    env = {**os.environ, "CARDAVIA_PURE": "1"}
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *map(str, files)]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-3000:]
    passed = re.search(r"(\d+) passed", done.stdout)
    assert passed is not None and expected >= 10 and int(passed.group(1)) >= expected, done.stdout[-1000:]
