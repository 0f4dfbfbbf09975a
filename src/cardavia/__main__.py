"""``python -m cardavia …`` — the same as the ``cardavia`` command."""

from cardavia.cli import main

raise SystemExit(main())
