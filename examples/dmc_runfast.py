"""A small Deep Monte-Carlo learner for Run Fast, trained on ``cardavia.env.VecGame``.

Deep Monte-Carlo (as in DouZero): a network Q(observation) gives one value per action; the
target of every action taken is the acting seat's final deal reward (no bootstrapping).
All three seats share the network (self-play); actions are epsilon-greedy among the legal
ones. The trained network is saved as a numpy ``.npz`` policy (no torch needed to play it)
and evaluated with the duplicate tournament against ``random`` and ``basic``.

    pip install -e '.[dmc]'        # torch: install a CPU wheel
    python examples/dmc_runfast.py --minutes 10 --out dmc_runfast.npz

Then play it: ``cardavia tournament --game runfast --agents dmc=dmc_runfast.npz basic`` or
at a table: ``cardavia serve --agent dmc=dmc_runfast.npz`` (AI level ``dmc``).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch
from torch import nn

from cardavia.ai.tournament import run as tournament
from cardavia.env import VecGame
from cardavia.env.agents import register, save_mlp

SCALE = 20.0  # rewards are settlement points; /20 keeps targets near [-2, 2]


def network(n_in: int, n_out: int, hidden: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, n_out)
    )


def train(minutes: float, games: int, hidden: int, seed: int) -> tuple[nn.Sequential, dict[str, float]]:
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)
    vg = VecGame("runfast", games, seed=seed)
    obs, mask, mover = vg.reset()
    net = network(vg.obs_size, vg.space.size, hidden)
    opt = torch.optim.Adam(net.parameters(), lr=3e-4)
    # per row and seat, the (observation, action) pairs of the deal in progress
    open_steps: list[list[list[tuple[np.ndarray, int]]]] = [[[] for _ in range(3)] for _ in range(games)]
    buf_x: list[np.ndarray] = []
    buf_a: list[int] = []
    buf_r: list[float] = []
    t0 = time.perf_counter()
    steps = updates = 0
    deals = 0
    while time.perf_counter() - t0 < minutes * 60:
        eps = max(0.05, 0.5 * (1 - (time.perf_counter() - t0) / (minutes * 60 * 0.6)))
        with torch.no_grad():
            q = net(torch.from_numpy(obs)).numpy()
        q = np.where(mask, q, -np.inf)
        actions = q.argmax(axis=1)
        explore = rng.random(games) < eps
        for row in np.flatnonzero(explore):
            actions[row] = rng.choice(np.flatnonzero(mask[row]))
        for row in range(games):
            open_steps[row][int(mover[row])].append((obs[row].copy(), int(actions[row])))
        obs, mask, mover, rewards, done = vg.step(actions)
        steps += games
        for row in np.flatnonzero(done):
            deals += 1
            for seat in range(3):
                for x, a in open_steps[row][seat]:
                    buf_x.append(x)
                    buf_a.append(a)
                    buf_r.append(float(rewards[row, seat]) / SCALE)
                open_steps[row][seat] = []
        if len(buf_x) >= 4096:
            x = torch.from_numpy(np.stack(buf_x))
            a = torch.tensor(buf_a)
            r = torch.tensor(buf_r, dtype=torch.float32)
            for _ in range(2):
                perm = torch.randperm(len(a))
                for i in range(0, len(a), 512):
                    idx = perm[i : i + 512]
                    pred = net(x[idx]).gather(1, a[idx, None]).squeeze(1)
                    loss = nn.functional.mse_loss(pred, r[idx])
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
                    updates += 1
            buf_x, buf_a, buf_r = [], [], []
    seconds = time.perf_counter() - t0
    return net, {"seconds": round(seconds, 1), "env_steps": steps, "deals": deals, "updates": updates}


def export(net: nn.Sequential, path: str) -> None:
    linears = [m for m in net if isinstance(m, nn.Linear)]
    layers = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears]
    save_mlp(path, layers, "runfast")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--minutes", type=float, default=10.0, help="training budget (one core)")
    p.add_argument("--games", type=int, default=64, help="VecGame rows")
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--deals", type=int, default=300, help="duplicate deals per evaluation")
    p.add_argument("--out", default="dmc_runfast.npz")
    args = p.parse_args()
    net, stats = train(args.minutes, args.games, args.hidden, args.seed)
    export(net, args.out)
    register("dmc", args.out)
    report: dict[str, object] = {"training": stats, "policy": args.out}
    for opponent in ("random", "basic"):
        s = tournament("runfast", ["dmc", opponent], args.deals, seed=12345, progress=False)
        report[f"vs_{opponent}"] = {
            "dmc_score_per_deal": s["slots"][0]["score_per_deal"],
            "dmc_first_rate": s["slots"][0]["first_rate"],
            "deals": args.deals,
        }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
