"""Fit a card-location model (:mod:`cardavia.ai.locate`) on ``basic`` self-play.

``python -m cardavia.ai.locate_fit --game runfast --deals 3000`` (or ``--game guandan``)
plays ``basic`` on every seat; at every decision, for each class with unseen cards, the
features of the other seats and how many of those cards each really holds form one row.
``θ`` is fitted by Newton's method on the conditional-logit likelihood (L2-penalised; each
seat's log hand size is an offset) and written to the game's ``locate.json``; held-out
deals (``--test``) report the mean log-loss per unseen card against the hand sizes alone.
Needs numpy (the research extras).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardavia.ai import locate as base
from cardavia.ai.base import Decision
from cardavia.ai.basic import BasicAgent
from cardavia.ai.games import GAMES, game_ai
from cardavia.ai.runner import play_out
from cardavia.observation import Observation

#: one row: per other seat its features and log hand size, and how many cards it holds
Row = tuple[list[base.Features], list[float], list[int]]


def rows_of_deal(game: str, seed: int, every: int = 1) -> list[Row]:
    """The rows of one ``basic`` self-play deal of ``game`` (every ``every``-th decision)."""
    spec = game_ai(game).locate
    deal = spec.deal(seed)
    agents = [BasicAgent(seed * deal.n_seats + s) for s in range(deal.n_seats)]
    rows: list[Row] = []
    step = [0]

    def on(seat: int, obs: Observation, decision: Decision, seconds: float) -> None:
        step[0] += 1
        if step[0] % every:
            return
        feats = spec.features(obs)
        others = [s for s in sorted(feats) if obs.hand_sizes[s] > 0]
        if len(others) < 2:
            return
        held: dict[int, dict[int, int]] = {}
        for s in others:
            by_class: dict[int, int] = {}
            for card in deal.hand(s):
                c = spec.code_class(card.code, obs)
                by_class[c] = by_class.get(c, 0) + 1
            held[s] = by_class
        offsets = [math.log(obs.hand_sizes[s]) for s in others]
        for c in feats[others[0]]:
            ys = [held[s].get(c, 0) for s in others]
            if sum(ys):
                rows.append(([feats[s][c] for s in others], offsets, ys))

    play_out(deal, agents, on)
    return rows


def _arrays(rows: Sequence[Row], width: int) -> tuple[Any, Any, Any]:
    import numpy as np

    x = np.zeros((len(rows), width, base.N_FEATURES), dtype=np.float32)
    off = np.full((len(rows), width), -1e9)
    y = np.zeros((len(rows), width))
    for i, (fs, os, ys) in enumerate(rows):
        for j, (f, o, v) in enumerate(zip(fs, os, ys, strict=True)):
            for k, val in f.items():
                x[i, j, k] = val
            off[i, j] = o
            y[i, j] = v
    return x, off, y


def fit(rows: Sequence[Row], l2: float = 1.0, iterations: int = 15, chunk: int = 40_000) -> list[float]:
    """Newton's method on the conditional-logit log-likelihood; returns θ."""
    import numpy as np

    width = max(len(r[1]) for r in rows)
    x, off, y = _arrays(rows, width)
    n = y.sum(axis=1)
    theta = np.zeros(base.N_FEATURES)
    for _ in range(iterations):
        grad = -l2 * theta
        hess = l2 * np.eye(base.N_FEATURES)
        for a in range(0, len(rows), chunk):
            xs = x[a : a + chunk].astype(np.float64)
            z = xs @ theta + off[a : a + chunk]
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            ns = n[a : a + chunk]
            grad += np.einsum("is,isf->f", y[a : a + chunk] - ns[:, None] * p, xs)
            mean = np.einsum("is,isf->if", p, xs)
            flat = xs.reshape(-1, base.N_FEATURES)
            hess += (flat * (ns[:, None] * p).reshape(-1, 1)).T @ flat
            hess -= (mean * ns[:, None]).T @ mean
        step = np.linalg.solve(hess, grad)
        theta = theta + step
        if float(np.abs(step).max()) < 1e-6:
            break
    return [float(t) for t in theta]


def log_loss(rows: Sequence[Row], theta: Sequence[float] | None) -> float:
    """Mean log-loss per unseen card (θ None: the hand sizes alone)."""
    total = 0.0
    cards = 0
    for fs, offs, ys in rows:
        zs = [o + (base.score(f, theta) if theta is not None else 0.0) for f, o in zip(fs, offs, strict=True)]
        top = max(zs)
        log_norm = top + math.log(sum(math.exp(z - top) for z in zs))
        total -= sum(v * (z - log_norm) for z, v in zip(zs, ys, strict=True))
        cards += sum(ys)
    return total / max(cards, 1)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--game", choices=sorted(GAMES), required=True)
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--test", type=int, default=300, help="held-out deals")
    ap.add_argument("--every", type=int, default=1, help="read every n-th decision")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    first = args.seed * 1_000_003
    train = [row for i in range(args.deals) for row in rows_of_deal(args.game, first + i, args.every)]
    test = [row for i in range(args.test) for row in rows_of_deal(args.game, first + args.deals + i, args.every)]
    theta = fit(train, args.l2)
    report = {
        "game": args.game, "deals": args.deals, "every": args.every, "seed": args.seed, "l2": args.l2,
        "rows": len(train), "test_deals": args.test,
        "test_log_loss_sizes_only": round(log_loss(test, None), 5),
        "test_log_loss_model": round(log_loss(test, theta), 5),
    }
    out: Path = args.out or game_ai(args.game).locate.file
    out.write_text(json.dumps({**report, "theta": [round(t, 5) for t in theta]}) + "\n")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
