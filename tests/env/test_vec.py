"""VecGame: arrays equal to the per-seat encoder, auto-reset, explicit deals, zero-sum rewards."""

from __future__ import annotations

import numpy as np
import pytest

from cardavia.env import _engine as eng
from cardavia.env import encode as enc
from cardavia.env.vec import VecGame


@pytest.mark.parametrize("game", ["guandan", "runfast"])
def test_rows_are_the_movers_observations_and_masks(game: str) -> None:
    vg = VecGame(game, 6, seed=2)
    vg.reset()
    finished = 0
    for _ in range(250):
        _obs, _mask, _mover, rewards, done = vg.step(vg.sample_actions())
        finished += int(done.sum())
        assert np.all(rewards.sum(axis=1) == 0)
        assert np.all(rewards[~done] == 0)
        for row in range(vg.n):
            deal = vg.deal(row)
            seat = int(vg.mover[row])
            assert seat == eng.to_move(deal)
            assert np.array_equal(vg.obs[row], enc.encode(eng.observation(deal, seat)))
            assert set(np.flatnonzero(vg.mask[row])) == set(_legal(deal, seat))
    assert finished > 0, "some deals ended and were restarted"
    assert vg.deals_finished == finished


def _legal(deal: eng.TrickDeal, seat: int) -> list[int]:
    from cardavia.env.actions import legal

    return legal(deal, seat).actions


def test_explicit_deals_are_used_in_order_then_seeded_ones() -> None:
    vg = VecGame("runfast", 2, seed=0, deals=[11, {"seed": 12}, 13])
    vg.reset()
    assert vg.deal(0).dealt == eng.new_deal("runfast", 11).dealt
    assert vg.deal(1).dealt == eng.new_deal("runfast", 12).dealt
    while not vg.step(vg.sample_actions())[4].any():
        pass
    restarted = [row for row in range(2) if vg.done[row]]
    assert vg.deal(restarted[0]).dealt == eng.new_deal("runfast", 13).dealt


def test_same_seed_same_run_and_clear_errors() -> None:
    a, b = VecGame("guandan", 3, seed=5), VecGame("guandan", 3, seed=5)
    a.reset()
    b.reset()
    for _ in range(40):
        assert np.array_equal(a.obs, b.obs)
        a.step(a.sample_actions())
        b.step(b.sample_actions())
    with pytest.raises(ValueError, match="3 actions"):
        a.step([0])
    bad = a.sample_actions()
    bad[1] = 10**5
    with pytest.raises(ValueError, match="game 1"):
        a.step(bad)


def test_without_auto_reset_a_finished_row_waits() -> None:
    vg = VecGame("runfast", 2, seed=1, auto_reset=False)
    vg.reset()
    for _ in range(400):
        vg.step(vg.sample_actions())
    assert np.all(vg.mover == -1) and not vg.mask.any()
    assert all(vg.deal(r).over for r in range(2))
