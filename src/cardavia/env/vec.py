"""``VecGame``: N deals stepped together, observations and masks as numpy arrays.

Every row is one deal; the row's *mover* is the seat that acts next (the tribute-return
giver in a Guandan tribute phase). ``step(actions)`` applies one action per row, and a row
whose deal ends starts a new deal at once (auto-reset): its reward row holds the finished
deal's rewards, ``done`` is True, and its observation is already the new deal's.

>>> vg = VecGame("runfast", 4, seed=1)
>>> obs, mask, mover = vg.reset()
>>> obs.shape, mask.shape, mover.shape
((4, 334), (4, 152), (4,))
>>> obs, mask, mover, rewards, done = vg.step(vg.sample_actions())
>>> rewards.shape, done.dtype.name
((4, 3), 'bool')
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray

from cardavia.env import _engine as eng
from cardavia.env import actions as act
from cardavia.env import encode as enc
from cardavia.env.deals import DealSpec, make_deal


class VecGame:
    """N independent deals of ``game`` (first deals; Guandan at the level its seed draws).

    ``deals``: specs (see :mod:`cardavia.env.deals`) used, in order, for the next starts;
    when they run out, deal seeds come from ``seed``'s RNG. ``auto_reset=False`` leaves a
    finished row finished (mask all zero, mover -1) until :meth:`reset`.
    """

    def __init__(
        self,
        game: str,
        n: int,
        seed: int = 0,
        *,
        deals: Iterable[DealSpec] | None = None,
        auto_reset: bool = True,
    ) -> None:
        eng.check_game(game)
        if n < 1:
            raise ValueError("a VecGame needs at least one game")
        self.game = game
        self.n = n
        self.n_seats = eng.N_SEATS[game]
        self.auto_reset = auto_reset
        self.space = act.action_space(game)
        self.obs_size = enc.size(game)
        self.obs: NDArray[np.float32] = np.zeros((n, self.obs_size), dtype=np.float32)
        self.mask: NDArray[np.bool_] = np.zeros((n, self.space.size), dtype=np.bool_)
        self.mover: NDArray[np.int64] = np.full(n, -1, dtype=np.int64)
        self.rewards: NDArray[np.float32] = np.zeros((n, self.n_seats), dtype=np.float32)
        self.done: NDArray[np.bool_] = np.zeros(n, dtype=np.bool_)
        self.deals_finished = 0
        self._rng = np.random.default_rng(seed)
        self._queue: deque[DealSpec] = deque(deals or ())
        self._deals: list[eng.TrickDeal] = []
        self._legal: list[act.Legal] = []
        self._played: list[NDArray[np.float32]] = []
        self._started = False

    # ------------------------------------------------------------------ deals

    def set_deals(self, deals: Iterable[DealSpec]) -> None:
        """Queue explicit deals for the next starts (duplicate play)."""
        self._queue.extend(deals)

    def deal(self, row: int) -> eng.TrickDeal:
        """The engine deal of a row (read it; acting on it directly breaks the arrays)."""
        return self._deals[row]

    def _next_deal(self) -> eng.TrickDeal:
        if self._queue:
            return make_deal(self.game, self._queue.popleft())
        return eng.new_deal(self.game, int(self._rng.integers(2**62)))

    def _start(self, row: int) -> None:
        deal = self._next_deal()
        played = np.zeros((self.n_seats, 54), dtype=np.float32)
        if row < len(self._deals):
            self._deals[row] = deal
            self._played[row] = played
        else:
            self._deals.append(deal)
            self._played.append(played)
            self._legal.append(act.Legal([], {}, {}))
        self._refresh(row)

    def _refresh(self, row: int) -> None:
        deal = self._deals[row]
        mover = eng.to_move(deal)
        mask = self.mask[row]
        mask[:] = False
        if mover is None:
            self.mover[row] = -1
            self._legal[row] = act.Legal([], {}, {})
            self.obs[row] = 0.0
            return
        self.mover[row] = mover
        legal = act.legal(deal, mover)
        self._legal[row] = legal
        mask[legal.actions] = True
        enc.encode(eng.observation(deal, mover, history=False), self._played[row], out=self.obs[row])

    # ------------------------------------------------------------------ stepping

    def reset(
        self, seed: int | None = None, deals: Iterable[DealSpec] | None = None
    ) -> tuple[NDArray[np.float32], NDArray[np.bool_], NDArray[np.int64]]:
        """Start N new deals (``deals`` first, as queued specs). Returns (obs, mask, mover)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        if deals is not None:
            self._queue = deque(deals)
        self._deals, self._legal, self._played = [], [], []
        for row in range(self.n):
            self._start(row)
        self.rewards[:] = 0.0
        self.done[:] = False
        self._started = True
        return self.obs, self.mask, self.mover

    def step(
        self, actions: NDArray[np.integer] | list[int]
    ) -> tuple[NDArray[np.float32], NDArray[np.bool_], NDArray[np.int64], NDArray[np.float32], NDArray[np.bool_]]:
        """One action per row (ignored for a finished row without auto-reset).

        Returns ``(obs, mask, mover, rewards, done)``; the arrays are reused between calls.
        An illegal action raises :class:`ValueError` naming the row.
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.n,):
            raise ValueError(f"step() takes {self.n} actions (one per game), got shape {acts.shape}")
        self.rewards[:] = 0.0
        self.done[:] = False
        for row in range(self.n):
            deal = self._deals[row]
            mover = int(self.mover[row])
            if mover < 0:
                continue
            action = int(acts[row])
            legal = self._legal[row]
            try:
                what = act.concretize(deal, mover, action, legal)
            except ValueError as err:
                raise ValueError(f"game {row}: {err}") from None
            if isinstance(what, eng.Card):
                eng.give_back(deal, mover, what)
            else:
                eng.play(deal, mover, what)
                if what is not None:
                    played = self._played[row][mover]
                    for c in what.cards:
                        played[c.code] += 1.0
            if deal.over:
                self.rewards[row] = eng.deal_rewards(deal)
                self.done[row] = True
                self.deals_finished += 1
                if self.auto_reset:
                    self._start(row)
                    continue
            self._refresh(row)
        return self.obs, self.mask, self.mover, self.rewards, self.done

    def sample_actions(self, rng: np.random.Generator | None = None) -> NDArray[np.int64]:
        """A uniformly random legal action per row (-1 for a finished row)."""
        r = self._rng if rng is None else rng
        out = np.full(self.n, -1, dtype=np.int64)
        for row in range(self.n):
            legal = self._legal[row].actions
            if legal:
                out[row] = legal[int(r.integers(len(legal)))]
        return out
