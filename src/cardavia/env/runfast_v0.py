"""``cardavia.env.runfast_v0``: the Run Fast PettingZoo AEC environment (docs/env.md).

>>> e = env()
>>> e.reset(seed=1)
>>> int(e.action_space("player_0").n), len(e.possible_agents)
(152, 3)
"""

from __future__ import annotations

from typing import Any

from cardavia.env.aec import CardaviaEnv


def raw_env(render_mode: str | None = None, **kwargs: Any) -> CardaviaEnv:
    """The environment without wrappers: one deal per episode."""
    return CardaviaEnv("runfast", render_mode, **kwargs)


def env(render_mode: str | None = None, **kwargs: Any) -> CardaviaEnv:
    """The environment (no wrapper: the mask already stops illegal actions, which raise)."""
    return raw_env(render_mode, **kwargs)
