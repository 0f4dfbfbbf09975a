"""The documentation ships with the repository and cannot drift from the code.

* No file of the repository points outside it: the rule texts it cites are ``docs/rules.md``,
  ``docs/cli.md`` and ``docs/design.md``, and every citation of them resolves.
* ``docs/rules.md`` and the Full rules pages (``src/cardavia/web/rules/<lang>/``) define the
  same rule IDs, in every language, and every rule ID cited anywhere is defined.
* Every example of ``docs/cli.md`` runs through the real command line and prints exactly what
  the document shows.

The examples of ``docs/cli.md`` are ``console`` blocks: ``$ cardavia …`` followed by its
stdout. ``… || echo "exit status $?"`` shows a non-zero exit status as a last line;
``<<'EOF'`` … ``EOF`` is the command's stdin; ``$ cat > FILE <<'EOF'`` writes a file. A
``json FILE LINE [KEY]`` block shows line LINE (from 1) of a file written by an earlier
example (or its KEY), pretty-printed. All examples of the file run in order in one empty
directory. After a deliberate change of the output, rewrite the examples with
``.venv/bin/python tests/test_docs.py --update`` and read the diff.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULES_MD = DOCS / "rules.md"
CLI_MD = DOCS / "cli.md"
DESIGN_MD = DOCS / "design.md"
WEB_RULES = ROOT / "src" / "cardavia" / "web" / "rules"
LANGUAGES = ("en", "fi", "hi", "hu", "nl", "th", "zh")

_SKIP_DIRS = {".git", ".venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis"}


def repo_files() -> list[Path]:
    """The repository's files: tracked or not yet added, never ignored ones (build output)."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, check=True, capture_output=True,
        ).stdout
        files = [ROOT / name for name in out.decode().split("\0") if name]
    except (OSError, subprocess.CalledProcessError):  # an unpacked source tree without git
        files = []
        for dirpath, dirnames, filenames in os.walk(ROOT):
            dirnames[:] = [d for d in dirnames if d not in _SKIP_DIRS and not d.endswith(".egg-info")]
            files.extend(Path(dirpath) / f for f in filenames)
    return [f for f in files if f.is_file()]


def text_files() -> Iterator[tuple[Path, str]]:
    for path in repo_files():
        data = path.read_bytes()
        if b"\0" in data:
            continue  # binary
        try:
            yield path, data.decode("utf-8")
        except UnicodeDecodeError:
            continue


# ---------------------------------------------------------------------- (a) self-contained

#: Paths that lead out of the repository: the workspace the project was written in, the rule
#: sheets and specification it was built from, and absolute paths of that machine.
OUTSIDE = [
    (re.compile(r"\bshared[/\\]"), "a path into a 'shared' directory outside the repository"),
    (re.compile(r"\.\.[/\\]seeds\b|\bseeds[/\\]0\d\d_"), "the source rule sheets (not shipped)"),
    (re.compile(r"(?<![\w./-])spec[/\\](?:rules|cli)\.md"), "the old spec folder: cite docs/rules.md or docs/cli.md"),
    (re.compile(r"(?<![\w.-])/work[/\\]"), "an absolute path of the development machine"),
    (re.compile(r"(?<![\w.])\.\.[/\\](?:spec|reviews|seeds|design\.md)\b"), "a file outside the repository"),
]


def test_no_file_points_outside_the_repository() -> None:
    found = []
    for path, text in text_files():
        for number, line in enumerate(text.splitlines(), 1):
            for pattern, why in OUTSIDE:
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {why}: {line.strip()[:120]}")
    assert not found, "\n".join(found)


def test_the_outside_patterns_catch_what_they_should() -> None:
    """The patterns above are not vacuous (each would have caught a line of the old README)."""
    s = "shar" + "ed"  # spelled apart so that this file does not match itself
    bad = [
        f"see `{s}/spec/cli.md`",
        f"Cardavia follows `../{s}/spec/rules.md`",
        f"the sources in `{s}/seeds/`",
        "read /wor" + f"k/{s}/design.md",
        "the texts in ../" + "seeds/" + "000_x.txt",
        "cite spec" + "/rules.md §0",
        "cite ../" + "reviews/architecture.md",
    ]
    for line in bad:
        assert any(p.search(line) for p, _ in OUTSIDE), line
    for pattern, why in OUTSIDE:
        assert any(pattern.search(line) for line in bad), why
    fine = ["docs/rules.md §0", "src/cardavia/web/rules/en/guandan.md", "the shared ideas live once"]
    for line in fine:
        assert not any(p.search(line) for p, _ in OUTSIDE), line


def _headings(path: Path) -> list[str]:
    return [line.lstrip("#").strip() for line in path.read_text("utf-8").splitlines() if line.startswith("#")]


#: (citation, the document it names, whether a heading must equal the cited text exactly
#: rather than start with it)
CITATIONS = [
    (re.compile(r"\brules\.md (§\d+|Part [A-Z])\b"), RULES_MD, False),  # rules.md §0, rules.md Part S
    (re.compile(r"\bdesign\.md (§\d+)\b"), DESIGN_MD, False),  # design.md §4
    (re.compile(r"\bcli\.md \"([^\"]+)\""), CLI_MD, True),  # cli.md "Game records"
]


def test_every_citation_of_the_docs_resolves() -> None:
    """``rules.md §0``, ``rules.md Part S``, ``design.md §2``, ``cli.md "Game records"``, and
    every ``docs/….md`` named anywhere, exist."""
    missing = []
    for path, text in text_files():
        for pattern, target, exact in CITATIONS:
            heads = _headings(target)
            for m in pattern.finditer(text):
                ref = m.group(1)
                if not any(h == ref if exact else h.startswith(ref) for h in heads):
                    missing.append(f"{path.relative_to(ROOT)}: {m.group(0)} — no such section in docs/{target.name}")
        for m in re.finditer(r"\bdocs/([\w-]+\.md)\b", text):
            if not (DOCS / m.group(1)).is_file():
                missing.append(f"{path.relative_to(ROOT)}: {m.group(0)} does not exist")
    assert not missing, "\n".join(missing)


def test_the_readme_points_at_the_docs() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "docs/cli.md" in readme and "docs/rules.md" in readme
    assert "./scripts/start\n" in readme and "./scripts/test\n" in readme


# ---------------------------------------------------------------------- (b) rule IDs in sync

_DEFINED = re.compile(r"^(?:#+ |\s*- \*\*)([GRS]-\d+(?:\.\d+)?)\b", re.M)
_CITED = re.compile(r"\b([GRS]-\d+(?:\.\d+)?)\b")


def defined_ids(path: Path) -> list[str]:
    """The rule and section IDs a page defines: a heading ``## G-1 …`` or a bullet ``- **G-1.1**``."""
    return _DEFINED.findall(path.read_text("utf-8"))


def _families(ids: list[str], prefixes: str) -> list[str]:
    return [i for i in ids if i[0] in prefixes]


def test_docs_rules_define_each_id_once_in_order() -> None:
    ids = defined_ids(RULES_MD)
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]

    def key(rule_id: str) -> tuple[int, ...]:
        return ("GRS".index(rule_id[0]), *map(int, rule_id[2:].split(".")))

    assert ids == sorted(ids, key=key)
    # both games in full, and the site rules: G-1 … G-6 (33 rules), R-1 … R-5 (19), S-1 … S-5
    assert len(_families(ids, "G")) == 6 + 33
    assert len(_families(ids, "R")) == 5 + 19
    assert _families(ids, "S") == [f"S-{n}" for n in range(1, 6)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_web_rules_pages_define_the_ids_of_docs_rules(lang: str) -> None:
    """Each Full rules page defines exactly its game's IDs of docs/rules.md (the site rules,
    S-…, describe the site and are not on a game's page)."""
    ids = defined_ids(RULES_MD)
    for game, family in (("guandan", "G"), ("runfast", "R")):
        page = WEB_RULES / lang / f"{game}.md"
        on_page = defined_ids(page)
        assert on_page == _families(ids, family), f"{page.relative_to(ROOT)} and docs/rules.md differ"


def test_the_languages_are_those_on_disk() -> None:
    assert sorted(p.name for p in WEB_RULES.iterdir() if p.is_dir()) == sorted(LANGUAGES)


def test_every_cited_rule_id_is_defined() -> None:
    defined = set(defined_ids(RULES_MD))
    unknown = []
    for path, text in text_files():
        for number, line in enumerate(text.splitlines(), 1):
            for rule_id in _CITED.findall(line):
                if rule_id not in defined:
                    unknown.append(f"{path.relative_to(ROOT)}:{number}: {rule_id}")
    assert not unknown, "rule IDs that docs/rules.md does not define:\n" + "\n".join(unknown)


# ---------------------------------------------------------------------- (c) cli.md examples

_EXIT = '|| echo "exit status $?"'


@dataclass
class Example:
    """One example of docs/cli.md: a command and its output, or a file shown as JSON."""

    line: int  # line of docs/cli.md (from 1) of the "$ …" line or the json block's fence
    kind: str  # "command", "write" (cat > FILE) or "json"
    command: str  # the shell text after "$ ", or the json block's "FILE LINE [KEY]"
    stdin: str | None
    expected: str  # stdout as the document shows it (for "json": the block's text)
    span: tuple[int, int]  # the lines (0-based, end excluded) holding ``expected``


def parse_examples(text: str) -> list[Example]:
    lines = text.splitlines()
    examples: list[Example] = []
    i = 0
    while i < len(lines):
        fence = re.match(r"^```(\S*)\s*(.*)$", lines[i])
        if not fence or fence.group(1) not in ("console", "json") or (fence.group(1) == "json" and not fence.group(2)):
            if fence:  # skip any other fenced block whole
                i += 1
                while i < len(lines) and not lines[i].startswith("```"):
                    i += 1
            i += 1
            continue
        start = i + 1
        end = start
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        if fence.group(1) == "json":
            body = "\n".join(lines[start:end]) + "\n"
            examples.append(Example(i + 1, "json", fence.group(2).strip(), None, body, (start, end)))
        else:
            examples.extend(_console(lines, start, end))
        i = end + 1
    return examples


def _console(lines: list[str], start: int, end: int) -> list[Example]:
    out: list[Example] = []
    j = start
    while j < end:
        if not lines[j].startswith("$ "):
            raise AssertionError(f"docs/cli.md line {j + 1}: a console block line must start with '$ '")
        command = lines[j][2:]
        at = j
        j += 1
        stdin = None
        if command.endswith("<<'EOF'"):
            command = command[: -len("<<'EOF'")].rstrip()
            body = []
            while j < end and lines[j] != "EOF":
                body.append(lines[j])
                j += 1
            if j == end:
                raise AssertionError(f"docs/cli.md line {at + 1}: the here-document has no EOF line")
            stdin = "".join(b + "\n" for b in body)
            j += 1
        first = j
        while j < end and not lines[j].startswith("$ "):
            j += 1
        kind = "write" if command.startswith("cat > ") else "command"
        expected = "".join(line + "\n" for line in lines[first:j])
        out.append(Example(at + 1, kind, command, stdin, expected, (first, j)))
    return out


def _run_command(example: Example) -> str:
    command = example.command
    show_exit = command.endswith(_EXIT)
    if show_exit:
        command = command[: -len(_EXIT)].rstrip()
    argv = shlex.split(command)
    if not argv or argv[0] != "cardavia" or any(a in ("|", "||", "&&", ";", ">", "<") for a in argv):
        raise AssertionError(f"docs/cli.md line {example.line}: not a plain cardavia command: {example.command}")
    from cardavia.cli import main

    stdout = io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(example.stdin or "")
    try:
        with contextlib.redirect_stdout(stdout):
            code = main(argv[1:])
    finally:
        sys.stdin = old_stdin
    text = stdout.getvalue()
    if code != 0:
        if not show_exit:
            raise AssertionError(
                f"docs/cli.md line {example.line}: exit status {code}; "
                f"end the command with {_EXIT} to show it\n{text}"
            )
        text += f"exit status {code}\n"
    return text


def pretty(value: Any, width: int = 96) -> str:
    """A record for reading: one field per line; a list of lists or objects one item per line,
    and a list of cards wrapped to ``width`` columns."""
    if not isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    fields = []
    for key, item in value.items():
        head = f"  {json.dumps(key)}: "
        flat = json.dumps(item, ensure_ascii=False)
        if not isinstance(item, list) or len(head) + len(flat) <= width or not item:
            fields.append(head + flat)
        elif all(isinstance(x, dict | list) for x in item):
            rows = ",\n".join("    " + json.dumps(x, ensure_ascii=False) for x in item)
            fields.append(f"{head}[\n{rows}\n  ]")
        else:
            wrapped: list[str] = []
            line = ""
            for x in item:
                word = json.dumps(x, ensure_ascii=False)
                if line and len(line) + len(word) + 6 > width:
                    wrapped.append(line + ",")
                    line = ""
                line = f"{line}, {word}" if line else "    " + word
            fields.append(f"{head}[\n" + "\n".join([*wrapped, line]) + "\n  ]")
    return "{\n" + ",\n".join(fields) + "\n}"


def _json_value(example: Example, cwd: Path) -> Any:
    parts = example.command.split()
    if len(parts) not in (2, 3) or not parts[1].isdigit():
        raise AssertionError(f"docs/cli.md line {example.line}: write ```json FILE LINE [KEY]")
    lines = (cwd / parts[0]).read_text("utf-8").splitlines()
    value = json.loads(lines[int(parts[1]) - 1])
    return value[parts[2]] if len(parts) == 3 else value


def run_examples(examples: list[Example], cwd: Path) -> list[tuple[Example, str]]:
    """Run every example in order in ``cwd``: (example, what it really prints)."""
    results = []
    here = Path.cwd()
    os.chdir(cwd)
    try:
        for ex in examples:
            if ex.kind == "write":
                target = shlex.split(ex.command)[2:]
                if len(target) != 1 or ex.stdin is None:
                    raise AssertionError(f"docs/cli.md line {ex.line}: write $ cat > FILE <<'EOF'")
                (cwd / target[0]).write_text(ex.stdin, "utf-8")
                results.append((ex, ""))
            elif ex.kind == "json":
                results.append((ex, pretty(_json_value(ex, cwd)) + "\n"))
            else:
                results.append((ex, _run_command(ex)))
    finally:
        os.chdir(here)
    return results


def test_cli_md_examples_print_what_the_document_shows(tmp_path: Path) -> None:
    examples = parse_examples(CLI_MD.read_text("utf-8"))
    problems = []
    for ex, actual in run_examples(examples, tmp_path):
        if ex.expected != actual:  # byte for byte, the pretty-printed records too
            problems.append(f"docs/cli.md line {ex.line}: $ {ex.command}\n--- the document shows\n"
                            f"{ex.expected}--- the command prints\n{actual}")
    assert not problems, "\n".join(problems) + "\n(rewrite with: python tests/test_docs.py --update)"


def test_cli_md_has_examples_of_every_command() -> None:
    commands = [ex.command for ex in parse_examples(CLI_MD.read_text("utf-8")) if ex.kind == "command"]
    least = {"classify": 5, "beats": 5, "legal": 4, "tribute": 5, "settle": 5, "batch": 1}
    for sub, n in least.items():
        count = sum(c.startswith(f"cardavia rules {sub} ") or c == f"cardavia rules {sub}" for c in commands)
        assert count >= n, f"docs/cli.md shows {count} examples of rules {sub}, fewer than {n}"
    for cmd in ("selfplay", "replay"):
        assert any(c.startswith(f"cardavia {cmd} ") for c in commands), cmd
    assert sum(c.endswith(_EXIT) for c in commands) >= 5  # bad input is documented too


def test_the_example_parser_reads_what_it_should() -> None:
    doc = (
        "text\n```console\n$ cardavia rules classify 3s\n{\"a\": 1}\n"
        "$ cardavia rules batch <<'EOF'\n{}\nEOF\n{\"b\": 2}\n```\n"
        "```json\n{\"not\": \"an example\"}\n```\n```json out.jsonl 2 key\n{}\n```\n"
    )
    examples = parse_examples(doc)
    assert [(e.kind, e.command, e.stdin, e.expected) for e in examples] == [
        ("command", "cardavia rules classify 3s", None, '{"a": 1}\n'),
        ("command", "cardavia rules batch", "{}\n", '{"b": 2}\n'),
        ("json", "out.jsonl 2 key", None, "{}\n"),
    ]


def update(path: Path = CLI_MD) -> None:
    """Rewrite the outputs shown in docs/cli.md with what the command line prints now."""
    lines = path.read_text("utf-8").splitlines()
    examples = parse_examples("\n".join(lines) + "\n")
    with tempfile.TemporaryDirectory() as tmp:
        results = run_examples(examples, Path(tmp))
    for ex, actual in reversed(results):
        if ex.kind == "write":
            continue
        start, end = ex.span
        lines[start:end] = actual.splitlines()
    path.write_text("\n".join(lines) + "\n", "utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/test_docs.py --update")
    update()
