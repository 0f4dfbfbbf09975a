"""Engine benchmark: prints random self-play decisions/s and legal-move generation times.

Run: ``.venv/bin/python bench/engine.py [--seconds 5] [--samples 200] [--game both]``
"""

from __future__ import annotations

import sys

from cardavia.benchmark import main

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
