"""The research interface: PettingZoo environments, a batched engine and learned agents.

Needs the ``[env]`` extra (numpy, gymnasium, pettingzoo). See docs/env.md.

* :mod:`cardavia.env.guandan_v0`, :mod:`cardavia.env.runfast_v0` — AEC environments;
* :class:`VecGame` — N deals stepped together with numpy arrays;
* :func:`single_agent` — a Gymnasium environment: one seat against built-in agents;
* :class:`PolicyAgent` — any ``(observation tensor, mask) -> action`` policy as an agent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardavia.env.agents import PolicyAgent
    from cardavia.env.single import SingleAgentEnv
    from cardavia.env.vec import VecGame

__all__ = ["PolicyAgent", "SingleAgentEnv", "VecGame", "guandan_v0", "runfast_v0", "single_agent"]


def single_agent(game: str, opponents: str = "basic", **kwargs: Any) -> SingleAgentEnv:
    """A Gymnasium environment: seat ``seat`` (default 0) learns, built-in agents play the rest."""
    from cardavia.env.single import SingleAgentEnv

    return SingleAgentEnv(game, opponents, **kwargs)


def __getattr__(name: str) -> Any:
    import importlib

    if name in ("guandan_v0", "runfast_v0"):
        return importlib.import_module(f"cardavia.env.{name}")
    if name == "VecGame":
        return importlib.import_module("cardavia.env.vec").VecGame
    if name == "PolicyAgent":
        return importlib.import_module("cardavia.env.agents").PolicyAgent
    if name == "SingleAgentEnv":
        return importlib.import_module("cardavia.env.single").SingleAgentEnv
    raise AttributeError(f"module 'cardavia.env' has no attribute {name!r}")
