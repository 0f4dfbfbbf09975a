"""The rules command line as cli.md describes it (a public contract)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardavia.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    code = main(list(args))
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_classify_lists_every_reading(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "rules", "classify", "--game", "guandan", "--level", "2", "8s", "8c", "8d", "2h", "2h")
    assert code == 0
    assert out["cards"] == ["8s", "8c", "8d", "2h", "2h"]
    assert [(c["type"], c["rank"], c["size"]) for c in out["combos"]] == [
        ("full_house", "8", 5),
        ("bomb", "8", 5),
    ]
    assert out["combos"][1]["as"] == ["8s", "8c", "8d", "8h", "8h"]


def test_classify_accepts_one_string_lowercase_and_10(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "rules", "classify", "--level", "10", "10s js qs ks as")
    assert code == 0
    assert out["cards"] == ["Ts", "Js", "Qs", "Ks", "As"]
    assert [c["type"] for c in out["combos"]] == ["straight", "straight_flush"]


def test_classify_ace_low_ranks(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run(capsys, "rules", "classify", "--level", "9", "As 2d 3c 4s 5s")
    assert out["combos"][0]["rank"] == "5"
    _, out = run(capsys, "rules", "classify", "--level", "9", "As Ad Ac 2s 2d 2c")
    assert out["combos"][0] == {
        "type": "triple_run", "rank": "2", "size": 6,
        "cards": ["As", "Ad", "Ac", "2s", "2d", "2c"], "as": ["As", "Ad", "Ac", "2s", "2d", "2c"],
    }
    _, out = run(capsys, "rules", "classify", "BJ BJ RJ RJ")
    assert out["combos"][0]["type"] == "joker_bomb" and out["combos"][0]["rank"] is None


def test_beats_reads_prev_strongest_and_play_strongest_beating(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "rules", "beats", "--prev", "8s 8c 8d 2h 2h", "--play", "9s 9c 9d 9h")
    assert code == 0 and out["prev"]["type"] == "bomb" and out["beats"] is False
    _, out = run(
        capsys, "rules", "beats", "--prev", "8s 8c 8d 2h 2h", "--prev-type", "full_house",
        "--play", "9s 9c 9d 9h",
    )
    assert out["beats"] is True and out["play"]["type"] == "bomb"
    _, out = run(capsys, "rules", "beats", "--prev", "3s", "--play", "4s 4d")
    assert out == {"beats": False, "prev": out["prev"], "play": None}


def test_legal_lists_distinct_moves_and_can_pass(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "rules", "legal", "--level", "5", "--hand", "3s 3s 3d 4c", "--prev", "2c")
    assert code == 0
    assert [m["cards"] for m in out["moves"]] == [["3s"], ["3d"], ["4c"]]
    assert out["can_pass"] is True
    _, out = run(capsys, "rules", "legal", "--hand", "3s 3s 3d")
    pairs = [m["cards"] for m in out["moves"] if m["combo"]["type"] == "pair"]
    assert pairs == [["3s", "3s"], ["3s", "3d"]]
    assert out["can_pass"] is False


def test_tribute(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(
        capsys, "rules", "tribute", "--level", "2", "--places", "0,2",
        "--hands", "3s 4s", "RJ 5d", "As 6c", "Kd 9s",
    )
    assert code == 0
    assert out["cancelled"] is False
    assert out["tributes"] == [{"from": 1, "to": 0, "card": "RJ"}, {"from": 3, "to": 2, "card": "Kd"}]
    assert out["returns"] == [
        {"from": 0, "to": 1, "eligible": ["3s", "4s"]},
        {"from": 2, "to": 3, "eligible": ["6c"]},
    ]
    assert out["leader"] == 1


def test_settle_guandan(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(
        capsys, "rules", "settle", "--game", "guandan", "--levels", "A,9", "--deal-level", "A", "--places", "0,2"
    )
    assert code == 0
    assert out == {"winner_team": 0, "advance": 3, "levels": ["A", "9"], "next_level": "A", "match_winner": 0}


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["rules", "classify", "Zz"], "Zz"),
        (["rules", "classify", "--game", "runfast", "Ah"], "Ah"),
        (["rules", "classify", "7h", "7h", "7h"], "7h"),
        (["rules", "classify", "--level", "1", "7h"], "1"),
        (["rules", "beats", "--play", "3s"], "--prev"),
        (["rules", "beats", "--prev", "3s 5d", "--play", "4s"], "3s 5d"),
        (["rules", "legal", "--hand", "3s", "--prev", "4s", "--prev-type", "pair"], "pair"),
        (["rules", "tribute", "--places", "0,1", "--hands", "3s", "4s", "5s", "6s"], "partners"),
        (["rules", "settle", "--levels", "2,2", "--deal-level", "9", "--places", "0,2"], "9"),
        (["rules", "nonsense"], "nonsense"),
    ],
)
def test_bad_input_answers_error_with_status_2(
    capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    code, out = run(capsys, *args)
    assert code == 2
    assert set(out) == {"error"} and needle in out["error"]


def test_batch_answers_each_line_and_goes_on() -> None:
    lines = [
        {"op": "classify", "game": "guandan", "level": "2", "cards": ["BJ", "BJ"]},
        "not json",
        {"op": "classify", "cards": ["Qx"]},
        {"op": "beats", "game": "guandan", "prev": ["3s"], "play": ["4s"]},
        {"op": "settle", "game": "guandan", "levels": ["2", "2"], "deal_level": "2", "places": [1, 3]},
    ]
    stdin = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    proc = subprocess.run(
        [sys.executable, "-m", "cardavia.cli", "rules", "batch"],
        input=stdin, capture_output=True, text=True, check=True,
    )
    answers = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(answers) == 5
    assert answers[0]["combos"][0]["type"] == "pair"
    assert "error" in answers[1] and "error" in answers[2] and "Qx" in answers[2]["error"]
    assert answers[3]["beats"] is True
    assert answers[4]["levels"] == ["2", "5"]


def test_selfplay_then_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "games.jsonl"
    code, out = run(
        capsys, "selfplay", "--game", "guandan", "--deals", "3", "--seed", "4", "--agent", "random",
        "--out", str(out_file),
    )
    assert code == 0 and out["deals"] == 3
    records = [json.loads(x) for x in out_file.read_text().splitlines()]
    for key in ("game", "seed", "deal", "hands", "leader", "actions", "places", "level",
                "levels_before", "levels_after", "tribute", "match_winner"):
        assert key in records[0]
    assert records[1]["tribute"] is not None and "returned" in records[1]["tribute"]
    code, out = run(capsys, "replay", str(out_file))
    assert code == 0 and out["ok"] is True and out["deals"] == 3


def test_replay_reports_the_first_illegal_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "games.jsonl"
    run(capsys, "selfplay", "--deals", "1", "--seed", "2", "--out", str(out_file))
    record = json.loads(out_file.read_text())
    first_play = next(i for i, a in enumerate(record["actions"]) if not a.get("pass"))
    record["actions"][first_play]["cards"] = ["BJ", "RJ"]
    out_file.write_text(json.dumps(record) + "\n")
    code, out = run(capsys, "replay", str(out_file))
    assert code == 1 and out["ok"] is False and out["action"] == first_play


def test_replay_refuses_a_corrupt_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    code, out = run(capsys, "replay", str(bad))
    assert code == 2 and "not valid JSON" in out["error"]
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\x00\xff\xfe{}")
    code, out = run(capsys, "replay", str(binary))
    assert code == 2 and "not a UTF-8 text file" in out["error"]
    code, out = run(capsys, "replay", str(tmp_path / "missing.jsonl"))
    assert code == 2 and out["error"].startswith("cannot read") and "missing.jsonl" in out["error"]
