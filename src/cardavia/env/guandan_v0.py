"""``cardavia.env.guandan_v0``: the Guandan PettingZoo AEC environment (docs/env.md).

>>> e = env()
>>> e.reset(seed=1)
>>> e.agent_selection in e.possible_agents, int(e.action_space("player_0").n)
(True, 473)
"""

from __future__ import annotations

from typing import Any

from cardavia.env.aec import CardaviaEnv


def raw_env(render_mode: str | None = None, **kwargs: Any) -> CardaviaEnv:
    """The environment without wrappers. ``match=True``: a whole match (levels, tribute),
    ``max_deals`` (default 200) truncates it; otherwise one first deal per episode."""
    return CardaviaEnv("guandan", render_mode, **kwargs)


def env(render_mode: str | None = None, **kwargs: Any) -> CardaviaEnv:
    """The environment (no wrapper: the mask already stops illegal actions, which raise)."""
    return raw_env(render_mode, **kwargs)
