"""The engine entry points the corpus tests and scripts use, in one place.

Everything else in ``tests/corpus`` and ``tests/golden`` talks to the engine through the
record format and the command line (``cardavia.cli.main``). If a refactor moves one of
these names, fix the import here.
"""

from __future__ import annotations

from cardavia.cli import main as cli_main
from cardavia.record import replay_records
from cardavia.selfplay import selfplay_records

__all__ = ["cli_main", "replay_records", "selfplay_records"]
