"""The rules command line answers byte for byte as it did when the golden files were written.

The files come from ``make_queries.py`` (run on commit a5d250e, before the engine
refactor of issue 9): 1,000 seeded ``rules batch`` requests of both games and their
answers, and every invocation form of cli.md with its exit status and stdout. A refactor
that changes one character of one answer fails here, with the request named.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardavia.cli import main

from .make_queries import CLI_EXAMPLES, make_queries

HERE = Path(__file__).resolve().parent


def _examples() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads((HERE / "cli_examples.json").read_text(encoding="utf-8"))
    return data


def test_the_stored_queries_are_the_seeded_generator_s() -> None:
    """The query files are what the generator makes (nobody edited one by hand)."""
    stored = (HERE / "batch_queries.jsonl").read_text(encoding="utf-8").splitlines()
    assert stored == make_queries()
    assert len(stored) == 1000
    assert [e["argv"] for e in _examples()] == CLI_EXAMPLES


def test_the_golden_set_covers_every_operation_both_games_and_errors() -> None:
    """A weak golden set would guard nothing: count what it exercises."""
    queries = (HERE / "batch_queries.jsonl").read_text(encoding="utf-8").splitlines()
    answers = [json.loads(line) for line in (HERE / "batch_outputs.jsonl").read_text(encoding="utf-8").splitlines()]
    seen: set[tuple[str, str]] = set()
    for line, ans in zip(queries, answers, strict=True):
        try:
            req = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(req, dict) and "error" not in ans:
            seen.add((str(req.get("op")), str(req.get("game", "guandan"))))
    for op in ("classify", "beats", "legal", "settle"):
        assert (op, "guandan") in seen and (op, "runfast") in seen
    assert ("tribute", "guandan") in seen
    errors = sum(1 for a in answers if "error" in a)
    assert 50 <= errors <= 400
    text = (HERE / "batch_outputs.jsonl").read_text(encoding="utf-8")
    for combo_type in ("straight_flush", "joker_bomb", "ace_bomb", "heavenly_bomb", "triple_run", "full_house"):
        assert f'"type": "{combo_type}"' in text
    assert '"cancelled": true' in text  # an anti-tribute (G-3.4)
    assert '"match_winner": 0' in text or '"match_winner": 1' in text  # a match won at A (G-1.6)


def test_batch_answers_are_byte_identical() -> None:
    """One ``cardavia rules batch`` process answers the 1,000 requests as stored."""
    queries = (HERE / "batch_queries.jsonl").read_text(encoding="utf-8")
    expected = (HERE / "batch_outputs.jsonl").read_text(encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "cardavia", "rules", "batch"],
        input=queries, capture_output=True, text=True, encoding="utf-8", check=False, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    got_lines = proc.stdout.splitlines()
    want_lines = expected.splitlines()
    assert len(got_lines) == len(want_lines)
    query_lines = queries.splitlines()
    diffs = [i for i, (g, w) in enumerate(zip(got_lines, want_lines, strict=True)) if g != w]
    assert not diffs, (
        f"{len(diffs)} answers changed; first: request {query_lines[diffs[0]]}\n"
        f"was:  {want_lines[diffs[0]]}\nnow:  {got_lines[diffs[0]]}"
    )
    assert proc.stdout == expected


@pytest.mark.parametrize("example", _examples(), ids=lambda e: " ".join(e["argv"])[:80])
def test_cli_md_example_is_byte_identical(example: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    """Each cli.md invocation: the same exit status and the same stdout, byte for byte."""
    code = main(list(example["argv"]))
    out = capsys.readouterr().out
    assert (code, out) == (example["exit"], example["stdout"])


def test_one_cli_example_in_a_fresh_process() -> None:
    """The installed entry point (not only ``main``) gives the stored bytes."""
    example = _examples()[0]
    proc = subprocess.run(
        [sys.executable, "-m", "cardavia", *example["argv"]],
        capture_output=True, text=True, encoding="utf-8", check=False, timeout=60,
    )
    assert (proc.returncode, proc.stdout) == (example["exit"], example["stdout"])
