"""Learned agents everywhere: any ``(observation tensor, mask) -> action`` policy as an Agent.

:class:`PolicyAgent` plays through the same :class:`~cardavia.ai.base.Agent` interface as the
built-in agents, so a trained policy sits in ``cardavia tournament``, ``cardavia selfplay``
and at a web table (``cardavia serve --agent NAME=PATH``). It sees only the seat's
``Observation``: the tensor and mask are built from it exactly as the environments do.

A policy file is either

* ``.npz`` — a masked Q-network saved by :func:`save_mlp` (``examples/dmc_runfast.py``):
  arrays ``W0, b0, W1, b1, …`` of a ReLU MLP from the tensor to one value per action, and
  ``game``; the agent plays the legal action of highest value (numpy only, no torch);
* ``.py`` — a module defining ``policy(obs, mask) -> int`` and ``GAME = "guandan"`` or
  ``"runfast"`` (optionally ``make_policy(seed)`` returning such a callable instead).

>>> agent = PolicyAgent(lambda obs, mask: int(mask.nonzero()[0][0]), "runfast", name="first")
>>> from cardavia.env import _engine as eng
>>> deal = eng.new_deal("runfast", 3)
>>> agent.act(eng.observation(deal, deal.turn)).combo.describe()
'single 3'
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardavia.ai.base import Decision, ReturnDecision
from cardavia.ai.reasons import because
from cardavia.env import _engine as eng
from cardavia.env import actions as act
from cardavia.env import encode as enc

Policy = Callable[[NDArray[np.float32], NDArray[np.bool_]], int]


class PolicyAgent:
    """An Agent that asks ``policy(tensor, mask)`` for an action index of ``game``."""

    def __init__(self, policy: Policy, game: str, name: str = "policy") -> None:
        self.policy = policy
        self.game = eng.check_game(game)
        self.name = name
        self.space = act.action_space(game)

    def _choose(self, obs: eng.Observation) -> eng.Combo | eng.Card | None:
        if obs.game != self.game:
            raise ValueError(f"agent {self.name!r} was trained for {self.game}, not {obs.game}")
        legal = act.legal_from_observation(obs)
        if not legal.actions:
            raise ValueError(f"seat {obs.seat} has nothing to do now")
        mask = np.zeros(self.space.size, dtype=np.bool_)
        mask[legal.actions] = True
        action = int(self.policy(enc.encode(obs), mask))
        if not 0 <= action < self.space.size or not mask[action]:
            raise ValueError(f"policy {self.name!r} chose action {action}, which is not legal now")
        return act.concretize_for(obs, action, legal)

    def act(self, obs: eng.Observation) -> Decision:
        combo = self._choose(obs)
        if combo is None:
            return Decision.of(None, because("policy_pass", f"{self.name}: its policy passes"))
        if isinstance(combo, eng.Card):
            raise ValueError("a return card is chosen with choose_return")
        j = combo.to_json()
        arg = {"type": j["type"], "rank": j["rank"], "size": j["size"]}
        return Decision.of(combo, because("policy_move", f"{self.name}: its policy's choice", combo=arg))

    def choose_return(self, obs: eng.Observation) -> ReturnDecision:
        card = self._choose(obs)
        if not isinstance(card, eng.Card):
            raise ValueError(f"seat {obs.seat} owes no return card now")
        return ReturnDecision.of(card, because("policy_card", f"{self.name}: its policy's card", card=str(card)))


# --------------------------------------------------------------------------- networks


class MLPPolicy:
    """A ReLU MLP tensor → action values; the policy plays the legal action of highest value."""

    def __init__(self, layers: list[tuple[NDArray[np.float32], NDArray[np.float32]]], game: str) -> None:
        self.layers = layers
        self.game = game

    def values(self, obs: NDArray[np.float32]) -> NDArray[np.float32]:
        x = obs
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < len(self.layers) - 1:
                x = np.maximum(x, 0.0)
        return x

    def __call__(self, obs: NDArray[np.float32], mask: NDArray[np.bool_]) -> int:
        q = self.values(obs)
        return int(np.argmax(np.where(mask, q, -np.inf)))


def save_mlp(path: str | Path, layers: list[tuple[NDArray[np.float32], NDArray[np.float32]]], game: str) -> None:
    """Save an MLP policy (weights as (in, out) matrices) for :func:`load_policy`."""
    arrays: dict[str, Any] = {"game": np.array(game)}
    for i, (w, b) in enumerate(layers):
        arrays[f"W{i}"] = np.asarray(w, dtype=np.float32)
        arrays[f"b{i}"] = np.asarray(b, dtype=np.float32)
    np.savez(path, **arrays)


def load_policy(path: str | Path) -> tuple[Policy, str]:
    """The policy in ``path`` and its game (see the module docstring for the formats)."""
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"policy file {str(p)!r} does not exist")
    if p.suffix == ".npz":
        try:
            data = np.load(p, allow_pickle=False)
            game = str(data["game"])
            layers = []
            i = 0
            while f"W{i}" in data:
                layers.append((data[f"W{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)))
                i += 1
        except (OSError, KeyError, ValueError) as err:
            raise ValueError(f"{p} is not an MLP policy file ({err})") from None
        if not layers:
            raise ValueError(f"{p} holds no layers W0, b0, …")
        eng.check_game(game)
        need = enc.size(game)
        if layers[0][0].shape[0] != need or layers[-1][0].shape[1] != act.action_space(game).size:
            raise ValueError(
                f"{p}: the network maps {layers[0][0].shape[0]} inputs to {layers[-1][0].shape[1]} values;"
                f" {game} needs {need} inputs and {act.action_space(game).size} values"
            )
        return MLPPolicy(layers, game), game
    if p.suffix == ".py":
        spec = importlib.util.spec_from_file_location(f"cardavia_policy_{p.stem}", p)
        if spec is None or spec.loader is None:
            raise ValueError(f"cannot load {p} as a Python module")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        declared = getattr(module, "GAME", None)
        if not isinstance(declared, str):
            raise ValueError(f'{p} must set GAME = "guandan" or "runfast"')
        game = eng.check_game(declared)
        if hasattr(module, "make_policy"):
            fn = module.make_policy(0)
        elif hasattr(module, "policy"):
            fn = module.policy
        else:
            raise ValueError(f"{p} defines neither policy(obs, mask) nor make_policy(seed)")
        if not callable(fn):
            raise ValueError(f"{p}: the policy is not callable")
        return fn, game
    raise ValueError(f"{p}: a policy file is a .npz network or a .py module")


class LearnedAgent:
    """One agent name for one or two games' policies (a table may be either game)."""

    def __init__(self, name: str, policies: dict[str, Policy]) -> None:
        self.name = name
        self.agents = {g: PolicyAgent(fn, g, name) for g, fn in policies.items()}

    def _for(self, obs: eng.Observation) -> PolicyAgent:
        agent = self.agents.get(obs.game)
        if agent is None:
            raise ValueError(f"agent {self.name!r} has no {obs.game} policy (it plays {', '.join(self.agents)})")
        return agent

    def act(self, obs: eng.Observation) -> Decision:
        return self._for(obs).act(obs)

    def choose_return(self, obs: eng.Observation) -> ReturnDecision:
        return self._for(obs).choose_return(obs)


@lru_cache(maxsize=64)
def _cached(path: str) -> Policy:
    return load_policy(path)[0]


#: name → {game: policy file}: the learned agents registered in this process.
REGISTERED: dict[str, dict[str, str]] = {}


def register(name: str, path: str | Path) -> str:
    """Make ``name`` an agent of :data:`cardavia.ai.AGENTS` (and an AI level of the tables)
    that plays the policy in ``path``; a second file for the other game adds to the name."""
    from cardavia.ai import AGENTS
    from cardavia.ai.difficulty import register_level

    if not name or not name.replace("_", "").replace("-", "").isalnum():
        raise ValueError(f"agent name {name!r}: use letters, digits, '-' and '_'")
    if name in AGENTS and name not in REGISTERED:
        raise ValueError(f"agent name {name!r} is taken by a built-in agent")
    _fn, game = load_policy(path)
    files = REGISTERED.setdefault(name, {})
    files[game] = str(Path(path).resolve())

    def factory(seed: int, _files: dict[str, str] = files, _name: str = name) -> LearnedAgent:
        return LearnedAgent(_name, {g: _cached(f) for g, f in _files.items()})

    AGENTS[name] = factory
    register_level(name, factory)
    return name


def parse_spec(spec: str) -> str:
    """``NAME=PATH``: register the policy and return NAME; any other text is returned as is."""
    if "=" not in spec:
        return spec
    name, _, path = spec.partition("=")
    return register(name.strip(), path.strip())


def resolve_agents(specs: list[str]) -> list[str]:
    """Agent names for the command line: ``NAME=PATH`` entries registered, others kept."""
    return [parse_spec(s) for s in specs]
