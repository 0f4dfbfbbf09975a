"""A Gymnasium environment: one seat learns, built-in agents play the other seats.

>>> env = SingleAgentEnv("runfast", "random", seed=2)
>>> obs, info = env.reset()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((334,), True)
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from cardavia.env import _engine as eng
from cardavia.env import actions as act
from cardavia.env import encode as enc
from cardavia.env.deals import make_deal

ObsDict = dict[str, NDArray[Any]]


class SingleAgentEnv(gym.Env[ObsDict, int]):
    """``seat`` (default 0) is the learner; ``opponents`` is one agent name for the other
    seats, or one per other seat (Guandan: partner included), e.g. ``"basic"``."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's attribute

    def __init__(
        self,
        game: str,
        opponents: str | list[str] = "basic",
        *,
        seat: int = 0,
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = eng.check_game(game)
        n = eng.N_SEATS[game]
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} does not exist; {game} seats are 0 to {n - 1}")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"give one opponent name or {n - 1} (one per other seat)")
        for name in set(names):
            eng.build_agent(name, 0)  # fail early on a bad name
        self.seat = seat
        self.opponent_names = names
        self.render_mode = render_mode
        self.space = act.action_space(game)
        self.observation_space = spaces.Dict({  # type: ignore[assignment]
            "observation": spaces.Box(0.0, 1.0, (enc.size(game),), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.space.size,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(self.space.size)  # type: ignore[assignment]
        self._seed = seed
        self.deal: eng.TrickDeal | None = None
        self._legal = act.Legal([], {}, {})
        self._agents: list[Any] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=self._seed if seed is None and self.deal is None else seed)
        spec = (options or {}).get("deal")
        deal_seed = int(self.np_random.integers(2**62))
        self.deal = make_deal(self.game, deal_seed if spec is None else spec)
        others = iter(self.opponent_names)
        self._agents = [
            None if s == self.seat else eng.build_agent(next(others), deal_seed * 8 + s)
            for s in range(self.deal.n_seats)
        ]
        self._advance()
        return self._obs(), self._info()

    def _advance(self) -> None:
        deal = self._deal()
        while not deal.over:
            mover = eng.to_move(deal)
            assert mover is not None
            if mover == self.seat:
                self._legal = act.legal(deal, mover)
                return
            obs = eng.observation(deal, mover)
            agent = self._agents[mover]
            if deal.phase == eng.PHASE_TRIBUTE:
                eng.give_back(deal, mover, agent.choose_return(obs).card)
            else:
                eng.play(deal, mover, agent.act(obs).combo)
        self._legal = act.Legal([], {}, {})

    def _deal(self) -> eng.TrickDeal:
        if self.deal is None:
            raise RuntimeError("call reset() before step()")
        return self.deal

    def _obs(self) -> ObsDict:
        mask = np.zeros(self.space.size, dtype=np.int8)
        mask[self._legal.actions] = 1
        return {"observation": enc.encode(eng.observation(self._deal(), self.seat)), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        deal = self._deal()
        return {
            "action_mask": np.asarray(self._legal.actions),
            "observation": eng.observation(deal, self.seat),
            "result": deal.result,
        }

    def step(self, action: int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        deal = self._deal()
        if deal.over:
            raise RuntimeError("the deal is over; call reset()")
        what = act.concretize(deal, self.seat, int(action), self._legal)
        if isinstance(what, eng.Card):
            eng.give_back(deal, self.seat, what)
        else:
            eng.play(deal, self.seat, what)
        self._advance()
        reward = eng.deal_rewards(deal)[self.seat] if deal.over else 0.0
        return self._obs(), reward, deal.over, False, self._info()

    def render(self) -> str | None:
        from cardavia.env.aec import render_text

        return render_text(self._deal())
