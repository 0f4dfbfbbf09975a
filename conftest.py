"""Pytest set-up for tests/ and the doctests in src/ (pyproject's ``--doctest-modules``).

While the AI's compiled modules are in use (:mod:`cardavia.ai.native`), pytest cannot
collect doctests from their ``.py`` files (the imported module is the compiled one). Those
doctests then run in plain Python in a subprocess instead:
``tests/ai/test_native.py::test_doctests_of_compiled_modules_in_plain_python``.
"""

from __future__ import annotations

from pathlib import Path

from cardavia.ai import native

COMPILED_SOURCES = (
    {native.source_of(m).resolve() for m in native.MODULES} if native.status().active else set()
)


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    return True if collection_path.resolve() in COMPILED_SOURCES else None
