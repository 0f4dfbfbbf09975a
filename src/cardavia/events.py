"""Old import path of :mod:`cardavia.rules.events` (the events are part of the rules)."""

from cardavia.rules.events import *  # noqa: F403
from cardavia.rules.events import __all__  # noqa: F401
