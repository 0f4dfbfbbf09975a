"""docs/env.md states the action-space sizes and the tensor layout the code has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardavia.env.actions import action_space
from cardavia.env.encode import fields, size

DOC = (Path(__file__).resolve().parents[2] / "docs" / "env.md").read_text("utf-8")


@pytest.mark.parametrize("game,title", [("guandan", "Guandan"), ("runfast", "Run Fast")])
def test_tensor_tables_match_the_encoder(game: str, title: str) -> None:
    section = DOC.split(f"### {title}: {size(game)} floats")[1].split("###")[0]
    rows = re.findall(r"^\| (\d+) \| (\d+) \| `(\w+)` \|", section, re.M)
    assert [(int(o), int(s), n) for o, s, n in rows] == [(f.offset, f.size, f.name) for f in fields(game)]


@pytest.mark.parametrize("game,title", [("guandan", "Guandan"), ("runfast", "Run Fast")])
def test_action_tables_match_the_space(game: str, title: str) -> None:
    space = action_space(game)
    section = DOC.split(f"### {title}: {space.size} actions")[1].split("###")[0]
    for first, last, kind in re.findall(r"^\| (\d+)(?:–(\d+))? \| (\w+) \|", section, re.M):
        lo, hi = int(first), int(last or first)
        assert {space.keys[i][0] for i in range(lo, hi + 1)} == {kind}
        assert hi + 1 == space.size or space.keys[hi + 1][0] != kind
