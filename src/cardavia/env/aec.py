"""The PettingZoo AEC environment shared by ``guandan_v0`` and ``runfast_v0`` (docs/env.md).

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers). The agent to act is the seat
whose turn it is — in a Guandan tribute phase, the recipient who owes a return card. Each
observation is ``{"observation": float32 tensor, "action_mask": int8 mask}``; the seat's
raw :class:`~cardavia.observation.Observation` is ``infos[agent]["observation"]``.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from numpy.typing import NDArray
from pettingzoo import AECEnv

from cardavia.env import _engine as eng
from cardavia.env import actions as act
from cardavia.env import encode as enc
from cardavia.env.deals import DealSpec, make_deal

ObsDict = dict[str, NDArray[Any]]


class CardaviaEnv(AECEnv[str, ObsDict, int | None]):  # type: ignore[misc]
    """One deal per episode (or, for Guandan with ``match=True``, a whole match)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's class attribute
        "render_modes": ["ansi", "human"], "name": "cardavia", "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        render_mode: str | None = None,
        *,
        match: bool = False,
        max_deals: int = 200,
        raw_infos: bool = True,
    ) -> None:
        super().__init__()
        eng.check_game(game)
        if match and not eng.has_levels(game):
            raise ValueError("match mode is Guandan's (levels across deals); Run Fast deals stand alone")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}; choose one of {self.metadata['render_modes']}")
        if max_deals < 1:
            raise ValueError("max_deals must be at least 1")
        self.game = game
        self.render_mode = render_mode
        self.match_mode = match
        self.max_deals = max_deals
        self.raw_infos = raw_infos
        self.metadata = {**self.metadata, "name": f"{game}_v0"}
        n = eng.N_SEATS[game]
        self.space = act.action_space(game)
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agents: list[str] = []
        self._obs_size = enc.size(game)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (self._obs_size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.space.size,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.deal: eng.TrickDeal | None = None
        self.matchplay: eng.Series[eng.TrickDeal] | None = None
        self.deals_played = 0
        self._legal: act.Legal = act.Legal([], {}, {})

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal (or match). ``options={"deal": spec}`` plays that deal (see
        :mod:`cardavia.env.deals`); otherwise the deal seed is drawn from the env's seeded RNG."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        spec: DealSpec | None = (options or {}).get("deal")
        self.deals_played = 0
        if self.match_mode:
            match_seed = int(self.np_random.integers(2**62)) if spec is None else _match_seed(spec)
            self.matchplay = eng.new_match(self.game, match_seed)
            self.deal = self.matchplay.start_deal()
        else:
            self.matchplay = None
            self.deal = make_deal(self.game, int(self.np_random.integers(2**62)) if spec is None else spec)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_change()

    def _after_change(self) -> None:
        deal = self._deal()
        mover = eng.to_move(deal)
        if mover is not None:
            self.agent_selection = self.possible_agents[mover]
            self._legal = act.legal(deal, mover)
        else:
            self._legal = act.Legal([], {}, {})
        if self.raw_infos:
            for a in self.agents:
                self.infos[a] = {"observation": eng.observation(deal, int(a.split("_")[1]))}

    def _deal(self) -> eng.TrickDeal:
        if self.deal is None:
            raise RuntimeError("call reset() before using the environment")
        return self.deal

    # ------------------------------------------------------------------ observing

    def observe(self, agent: str) -> ObsDict:
        deal = self._deal()
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.space.size, dtype=np.int8)
        done = self.terminations.get(agent, True) or self.truncations.get(agent, True)
        if agent == self.agent_selection and not done:
            mask[self._legal.actions] = 1
        return {"observation": enc.encode(eng.observation(deal, seat)), "action_mask": mask}

    def legal_actions(self) -> list[int]:
        """The legal action indices of the agent to act."""
        return list(self._legal.actions)

    def choices(self, action: int) -> list[eng.Combo]:
        """Every concrete card choice of a play action for the agent to act ("choose the cards")."""
        deal = self._deal()
        seat = self.possible_agents.index(self.agent_selection)
        if action not in self._legal.actions:
            raise ValueError(f"action {action} is not legal now")
        return act.choices(deal, seat, action) if action in self._legal.patterns else []

    # ------------------------------------------------------------------ acting

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: give a legal action index, not None")
        deal = self._deal()
        seat = self.possible_agents.index(agent)
        what = act.concretize(deal, seat, int(action), self._legal)
        if isinstance(what, eng.Card):
            eng.give_back(deal, seat, what)
        else:
            eng.play(deal, seat, what)
        self._after_action(agent)

    def step_combo(self, combo: eng.Combo | None) -> None:
        """Play a concrete move (one of :meth:`choices`, or None to pass) for the agent to act."""
        agent = self.agent_selection
        deal = self._deal()
        seat = self.possible_agents.index(agent)
        if self.terminations[agent] or self.truncations[agent]:
            raise ValueError(f"{agent} is done; step(None) to remove it")
        key = act.PASS if combo is None else act.combo_key(self.game, combo, eng.level_of(deal))
        action = self.space.index.get(key)
        if action is None or action not in self._legal.actions:
            raise ValueError(f"{'pass' if combo is None else combo.describe()} is not legal now")
        eng.play(deal, seat, combo)
        self._after_action(agent)

    def _after_action(self, agent: str) -> None:
        deal = self._deal()
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        if deal.over:
            self.deals_played += 1
            for a, r in zip(self.possible_agents, eng.deal_rewards(deal), strict=True):
                self.rewards[a] = r
            self._accumulate_rewards()
            if self.matchplay is not None:
                settled = self.matchplay.finish_deal()
                if settled.match_winner is not None:
                    self._end(truncated=False)
                    return
                if self.deals_played >= self.max_deals:
                    self._end(truncated=True)
                    return
                self.deal = self.matchplay.start_deal()
                self._after_change()
                return
            self._end(truncated=False)
            return
        self._accumulate_rewards()
        self._after_change()

    def _end(self, truncated: bool) -> None:
        for a in self.agents:
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
        if self.raw_infos:
            deal = self._deal()
            for a in self.agents:
                self.infos[a] = {"observation": eng.observation(deal, int(a.split("_")[1])), "result": deal.result}
        self._legal = act.Legal([], {}, {})
        self.agent_selection = self.agents[0]

    # ------------------------------------------------------------------ research extras

    def clone(self) -> CardaviaEnv:
        """An independent copy of the whole state (deal, match, RNG)."""
        return copy.deepcopy(self)

    def resample_hidden(
        self, seat: int | str, rng: random.Random | np.random.Generator | int | None = None
    ) -> CardaviaEnv:
        """A copy whose hidden cards are redrawn consistently with ``seat``'s information
        (``infos``/observations of ``seat`` unchanged, every card conserved); see
        :func:`cardavia.env.hidden.resample_deal`."""
        from cardavia.env.hidden import resample_deal

        s = self.possible_agents.index(seat) if isinstance(seat, str) else int(seat)
        other = self.clone()
        other.deal = resample_deal(self._deal(), s, rng)
        if other.matchplay is not None:
            other.matchplay.deal = other.deal  # type: ignore[misc]  # the series protocol exposes deal read-only
        other._after_change()
        return other

    def render(self) -> str | None:
        text = render_text(self._deal())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _match_seed(spec: DealSpec) -> int:
    if isinstance(spec, int) and not isinstance(spec, bool):
        return spec
    if isinstance(spec, dict) and set(spec) == {"seed"}:
        return int(spec["seed"])
    raise ValueError('in match mode the "deal" option is the match seed (an int or {"seed": n})')


def render_text(deal: eng.TrickDeal) -> str:
    """Every hand, the play to beat and who acts (the env knows all; it is not the server)."""
    head = f"{deal.game} deal {deal.deal_index}, phase {deal.phase}"
    level = eng.level_of(deal)
    if level:
        head += f", level {_sym(level)}, team levels {'/'.join(_sym(x) for x in getattr(deal, 'team_levels', ()))}"
    lines = [head]
    mover = eng.to_move(deal)
    for s in range(deal.n_seats):
        mark = ">" if s == mover else " "
        cards = " ".join(str(c) for c in deal.hand(s))
        lines.append(f"{mark} seat {s} ({deal.size[s]:2d}): {cards}")
    if deal.top is not None:
        lines.append(f"to beat: {deal.top.describe()} [{' '.join(map(str, deal.top.cards))}] by seat {deal.top_seat}")
    if deal.places:
        lines.append(f"places: {' '.join(map(str, deal.places))}")
    if deal.result is not None:
        lines.append(f"result: {deal.result}")
    return "\n".join(lines)


def _sym(rank: int) -> str:
    return {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}.get(rank, str(rank))
