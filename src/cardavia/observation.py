"""Old import path of :mod:`cardavia.rules.observation` (the engine's exit is part of the rules)."""

from cardavia.rules.observation import *  # noqa: F403
from cardavia.rules.observation import __all__  # noqa: F401
