"""Research-interface speed: env steps per second with random masked actions, one core.

Prints, for Guandan and Run Fast: the plain engine (random abstract moves played straight
on the deal, no observation), ``VecGame`` with 1, 64 and 512 games (observation tensor and
mask for every step), the AEC environment, and their ratio to the plain engine; then
RLCard's Dou Dizhu ``env.step`` rate measured in the same run as the reference (the target:
batched Guandan at least 2x RLCard per core).

    python bench/env.py [--seconds 1] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from functools import partial

import numpy as np

from cardavia.env import _engine as eng
from cardavia.env.aec import CardaviaEnv
from cardavia.env.vec import VecGame


def plain_engine(game: str, seconds: float) -> float:
    """Decisions/s of random legal moves applied to the engine directly (no tensors)."""
    rng = random.Random(0)
    steps = 0
    seed = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        deal = eng.new_deal(game, seed)
        seed += 1
        while not deal.over:
            seat = eng.to_move(deal)
            assert seat is not None
            pats = eng.patterns_of(game, deal.cnt[seat], eng.level_of(deal), deal.top, eng.is_opening(deal))
            options = len(pats) + (1 if eng.can_pass(deal, seat) else 0)
            k = rng.randrange(options)
            combo = None if k == len(pats) else eng.concretize(
                game, pats[k], deal.cnt[seat], eng.level_of(deal), eng.is_opening(deal)
            )
            eng.play(deal, seat, combo)
            steps += 1
    return steps / (time.perf_counter() - t0)


def vec(game: str, n: int, seconds: float) -> float:
    vg = VecGame(game, n, seed=1)
    vg.reset()
    rng = np.random.default_rng(0)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        vg.step(vg.sample_actions(rng))
        steps += n
    return steps / (time.perf_counter() - t0)


def aec(game: str, seconds: float) -> float:
    env = CardaviaEnv(game, raw_infos=False)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.reset()
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps / (time.perf_counter() - t0)


def rlcard_doudizhu(seconds: float) -> float | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("doudizhu", config={"seed": 0})
    rng = random.Random(0)
    state, _pid = env.reset()
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        if env.is_over():
            state, _pid = env.reset()
            continue
        state, _pid = env.step(rng.choice(list(state["legal_actions"].keys())))
        steps += 1
    return steps / (time.perf_counter() - t0)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=1.0, help="per measurement")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best is kept")
    args = p.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {os.sched_getaffinity(0).pop()})  # one core
    s = args.seconds
    print(
        f"env steps/s, random masked actions, one core: best of {args.rounds} interleaved rounds"
        f" of {s:.0f} s (the machine's load moves between rounds)"
    )
    have_rlcard = rlcard_doudizhu(0.01) is not None
    configs: list[tuple[str, Callable[[], float]]] = []
    for game in ("guandan", "runfast"):
        configs.append((f"{game} plain", partial(plain_engine, game, s)))
        for n in (1, 64, 512):
            configs.append((f"{game} vec {n}", partial(vec, game, n, s)))
        configs.append((f"{game} aec", partial(aec, game, s)))
    if have_rlcard:
        configs.append(("rlcard", lambda: rlcard_doudizhu(s) or 0.0))
    best: dict[str, float] = {}
    for _ in range(args.rounds):
        for name, measure in configs:
            best[name] = max(best.get(name, 0.0), measure())
    for game in ("guandan", "runfast"):
        base = best[f"{game} plain"]
        print(f"{game:8s} plain engine      {base:10.0f} decisions/s")
        for n in (1, 64, 512):
            rate = best[f"{game} vec {n}"]
            print(f"{game:8s} VecGame n={n:<4d}   {rate:10.0f} steps/s  ({rate / base:.2f}x the plain engine)")
        rate = best[f"{game} aec"]
        print(f"{game:8s} AEC env           {rate:10.0f} steps/s  ({rate / base:.2f}x the plain engine)")
    if not have_rlcard:
        print("RLCard is not installed (pip install rlcard): the Dou Dizhu reference is skipped")
        return
    reference = best["rlcard"]
    print(f"RLCard doudizhu env.step {reference:10.0f} steps/s (reference, same run)")
    for n in (64, 512):
        r = best[f"guandan vec {n}"] / reference
        verdict = "meets" if r >= 2 else "misses"
        print(f"batched Guandan n={n}: {r:.2f}x RLCard Dou Dizhu ({verdict} the 2x target)")


if __name__ == "__main__":
    main()
