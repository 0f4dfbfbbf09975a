"""The AI's layout: per-game packages behind one table, no game tests by name in ``ai/``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cardavia.ai
from cardavia.ai.basic import BasicAgent
from cardavia.ai.games import GAMES, game_ai
from cardavia.cards import parse_cards
from cardavia.observation import observation
from cardavia.rules.guandan.deal import GuandanDeal
from cardavia.rules.runfast.deal import RunFastDeal

AI = Path(cardavia.ai.__file__).parent
NAMES = {GuandanDeal.game, RunFastDeal.game}
#: game-independent modules: they must not reach into one game's AI package
SHARED = ["base", "reasons", "rollout", "search", "stats", "tracking"]


def _trees() -> dict[str, ast.Module]:
    return {
        str(p.relative_to(AI)): ast.parse(p.read_text(encoding="utf-8")) for p in sorted(AI.rglob("*.py"))
    }


def _imports(tree: ast.Module) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            out.update(f"{base}.{a.name}" if node.module is None else base for a in node.names)
    return out


def test_no_game_name_is_spelled_in_ai_code() -> None:
    # neither `obs.game == "guandan"` nor a list of the games: the table is keyed by the deals
    found = [
        f"{path}:{node.lineno}"
        for path, tree in _trees().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in NAMES
    ]
    assert found == []
    assert set(GAMES) == NAMES


def test_no_hand_built_count_arrays() -> None:
    found = [
        f"{path}:{node.lineno}"
        for path, tree in _trees().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Mult)
        and any(isinstance(side, ast.Constant) and side.value == 54 for side in (node.left, node.right))
    ]
    assert found == []


def test_expert_agent_is_small_and_has_no_game_branch() -> None:
    tree = _trees()["expert.py"]
    cls = next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == "ExpertAgent")
    assert cls.end_lineno is not None and cls.end_lineno - cls.lineno + 1 < 100
    assert not [n for n in ast.walk(cls) if isinstance(n, ast.If | ast.IfExp | ast.Match)]


def test_games_do_not_import_each_other_and_shared_modules_import_no_game() -> None:
    trees = _trees()
    for game in ("guandan", "runfast"):
        other = "runfast" if game == "guandan" else "guandan"
        for path, tree in trees.items():
            if path.startswith(f"{game}/"):
                bad = [m for m in _imports(tree) if f"ai.{other}" in m or m.startswith(f"..{other}")]
                assert bad == [], (path, bad)
    for name in SHARED:
        imported = _imports(trees[f"{name}.py"])
        games = ("cardavia.ai.guandan", "cardavia.ai.runfast", ".guandan", ".runfast")
        bad = [m for m in imported if m.startswith(games)]
        assert bad == [], (name, bad)


def test_unknown_game_and_runfast_return_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'; games are"):
        game_ai("chess")
    deal = RunFastDeal.start([parse_cards("3h 4s"), parse_cards("5s 6s"), parse_cards("7s 8s")])
    with pytest.raises(ValueError, match="Run Fast has no tribute"):
        BasicAgent().choose_return(observation(deal, 0))
