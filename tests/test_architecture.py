"""The layering holds (issue 9): floors import only downwards, and no code outside
``rules/`` asks which game it is by its name — it asks the registry or the deal."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "cardavia"

#: (importing room, imported room) pairs that must never occur.
FORBIDDEN = {
    ("rules", "table"), ("rules", "server"), ("rules", "ai"), ("rules", "web"),
    ("rules", "cli"), ("rules", "oracle"), ("rules", "record"), ("rules", "selfplay"),
    ("ai", "server"), ("ai", "table"), ("ai", "web"), ("ai", "cli"),
    ("table", "server"), ("table", "web"), ("table", "cli"),
    ("cards", "rules"),
}

GAME_STRING_TEST = re.compile(r"""[!=]=\s*["'](guandan|runfast)["']|isinstance\(\w+,\s*\(?(GuandanDeal|RunFastDeal)""")
GAME_LIST = re.compile(r"""["']guandan["'],\s*["']runfast["']""")


def _python_files() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _room(path: Path) -> str:
    return path.relative_to(SRC).parts[0].removesuffix(".py")


def _imports(tree: ast.AST) -> list[tuple[str, bool]]:
    """Every ``cardavia.…`` module imported, and whether the import is inside a function."""
    found: list[tuple[str, bool]] = []

    def walk(node: ast.AST, local: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = local or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.ImportFrom) and (child.module or "").startswith("cardavia."):
                found.append((child.module or "", inner))
            elif isinstance(child, ast.Import):
                found.extend((a.name, inner) for a in child.names if a.name.startswith("cardavia."))
            walk(child, inner)

    walk(tree, False)
    return found


def test_no_import_goes_up_a_floor() -> None:
    bad = []
    for path in _python_files():
        src = _room(path)
        for module, _local in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            dst = module.split(".")[1]
            if (src, dst) in FORBIDDEN:
                bad.append(f"{path.relative_to(SRC)} imports {module}")
    assert bad == []


def test_no_game_is_named_by_string_outside_rules() -> None:
    hits = [
        f"{path.relative_to(SRC)}:{n}: {line.strip()}"
        for path in _python_files()
        if _room(path) != "rules"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if GAME_STRING_TEST.search(line)
    ]
    assert hits == []


def test_the_game_list_is_spelled_out_once() -> None:
    hits = [
        str(path.relative_to(SRC))
        for path in _python_files()
        for line in path.read_text(encoding="utf-8").splitlines()
        if GAME_LIST.search(line)
    ]
    assert hits == ["rules/games.py"]


def test_few_function_local_imports_of_one_game() -> None:
    local = [
        f"{path.relative_to(SRC)} → {module}"
        for path in _python_files()
        for module, inner in _imports(ast.parse(path.read_text(encoding="utf-8")))
        if inner and re.match(r"cardavia\.(rules\.)?(guandan|runfast)\b", module)
    ]
    assert len(local) <= 3, local


def test_the_checks_would_catch_a_violation() -> None:
    """The patterns above are live: they match the code they forbid."""
    assert GAME_STRING_TEST.search('if obs.game == "guandan":')
    assert GAME_STRING_TEST.search("isinstance(deal, GuandanDeal)")
    assert GAME_LIST.search('GAMES = ("guandan", "runfast")')
    tree = ast.parse("def f():\n    from cardavia.rules.guandan.deal import GuandanDeal\n")
    assert _imports(tree) == [("cardavia.rules.guandan.deal", True)]
