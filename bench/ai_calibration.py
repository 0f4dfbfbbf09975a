"""How well the search's estimates predict the true deal: at every search decision of the
expert (against ``basic``, on the duplicate boards of ``cardavia tournament``) the
gains it estimates for its candidates over the default move, from its sampled deals, against
the gains the same rollouts give on the true hidden hands.

    taskset -c 0 .venv/bin/python bench/ai_calibration.py --boards 20000:20100 --out /tmp/cal.jsonl
    taskset -c 1 .venv/bin/python bench/ai_calibration.py --game guandan --boards 20000:20020
    .venv/bin/python bench/ai_calibration.py --read /tmp/cal.jsonl   # the report again

Prints the calibration of the estimates (slope and intercept of true gain on estimated gain:
1 and 0 when the search is unbiased) and, per decision, the true gain of three ways to choose
(95 % intervals): the expert's own choice (its gate, as shipped), the best estimated mean
(no gate), and the oracle (the best candidate on the true hands: what no chooser from
public information can reach), with the gate's share of the oracle's gain. ``--out`` keeps
one line a decision (the sampled rows and the true row) for other choosers fitted offline
(docs/ai.md, nineteenth round).

A diagnostic only: it runs the plain-Python modules (``CARDAVIA_PURE=1``, so that it can
watch :meth:`cardavia.ai.search.Search.run`); the true row is one extra sample drawn with
the sampler replaced by the true hands. The agents never see a hidden card; the moves played
are the expert's own (its gate on the same sampled deals).
"""

from __future__ import annotations

import os

os.environ["CARDAVIA_PURE"] = "1"

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from typing import Any

from cardavia.ai import search as core
from cardavia.ai.base import Decision, ReturnDecision
from cardavia.ai.expert import ExpertAgent
from cardavia.ai.guandan import search as gd_search
from cardavia.ai.guandan import tournament as gd_tournament
from cardavia.ai.runfast import search as rf_search
from cardavia.ai.runfast import tournament as rf_tournament
from cardavia.ai.stats import mean_ci
from cardavia.ai.tournament import build_agent
from cardavia.cards import counts
from cardavia.observation import Observation
from cardavia.rules.runfast.moves import rank_counts
from cardavia.rules.seeds import deal_seed
from cardavia.rules.trick import TrickDeal

Row = list[float]


def describe(move: Any) -> list[Any]:
    """A candidate for choosers fitted offline: [pass?, cards, power, tier, type]."""
    if move is None:
        return [1, 0, 0, 0, "pass"]
    return [0, int(move.size), int(move.power), int(move.tier), str(move.type.value)]


class Watched:
    """The expert, its decisions recorded with the true hidden hands of the deal."""

    def __init__(self, seed: int, samples: int, deal: list[TrickDeal], sink: list[dict[str, Any]]) -> None:
        self.agent = ExpertAgent(seed, budget_ms=1e9, hard_cap_ms=1e9, max_samples=samples)
        self.samples, self.deal, self.sink = samples, deal, sink

    def hidden(self, me: int) -> dict[int, list[int]]:
        """The other seats' true hands as the game's sampler returns them."""
        deal = self.deal[0]
        hands = {s: counts(deal.hand(s)) for s in range(deal.n_seats) if s != me}
        if deal.game == "runfast":
            return {s: rank_counts(h) for s, h in hands.items()}
        return hands

    def act(self, obs: Observation) -> Decision:
        real_run = core.Search.run
        samples, sink = self.samples, self.sink
        module: Any = rf_search if self.deal[0].game == "runfast" else gd_search

        def run(
            search: core.Search,
            candidates: list[Any],
            default: Any,
            one_sample: Callable[[], Row],
            *args: Any,
            **kwargs: Any,
        ) -> Any:
            true = self.hidden(obs.seat)
            real_sample = module.sample_hands
            module.sample_hands = lambda *a, **k: {s: list(h) for s, h in true.items()}
            # Run Fast's swap chain would keep a chain started from the true hands and draw
            # the search's later samples from it: the true row is drawn without the chain
            burn = getattr(module, "CHAIN_BURN", 0)
            if burn:
                module.CHAIN_BURN = 0
            try:
                true_row = one_sample()
            finally:
                module.sample_hands = real_sample
                if burn:
                    module.CHAIN_BURN = burn
            rows = [one_sample() for _ in range(samples)]
            it = iter(rows)
            got = real_run(search, candidates, default, lambda: next(it), *args, **kwargs)
            sink.append(
                {
                    "d": candidates.index(default),
                    "pick": candidates.index(got[0]),
                    "cands": [describe(c) for c in candidates],
                    "rows": rows,
                    "true": true_row,
                    "sizes": list(obs.hand_sizes),
                    "me": obs.seat,
                }
            )
            return got

        setattr(core.Search, "run", run)  # noqa: B010 (mypy: no assigning to a method)
        try:
            return self.agent.act(obs)
        finally:
            setattr(core.Search, "run", real_run)  # noqa: B010

    def choose_return(self, obs: Observation) -> ReturnDecision:
        return self.agent.choose_return(obs)


def gains(rec: dict[str, Any]) -> list[tuple[float, float, float]]:
    """Per alternative to the default: (estimated gain, its standard error, true gain)."""
    rows, d = rec["rows"], rec["d"]
    n = len(rows)
    out = []
    for i in range(len(rows[0])):
        if i == d:
            continue
        diffs = [r[i] - r[d] for r in rows]
        m = sum(diffs) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in diffs) / (n - 1)) if n > 1 else 0.0
        out.append((m, sd / math.sqrt(n), rec["true"][i] - rec["true"][d]))
    return out


def chosen(rec: dict[str, Any], rule: str) -> float:
    """The true gain over the default of the candidate ``rule`` picks (0: the default):
    ``gate`` the expert's own choice, ``mean`` the best estimated mean, ``oracle`` the best
    on the true hands."""
    if rule == "gate" and "pick" in rec:
        return float(rec["true"][rec["pick"]] - rec["true"][rec["d"]])
    alts = gains(rec)
    if rule == "oracle":
        return max([0.0] + [a[2] for a in alts])
    best, margin = 0.0, 0.0
    for m, se, true in alts:
        score = m - core.DEFAULT_PRIOR - core.SIGNIFICANCE * se if rule == "gate" else m  # no pick: Run Fast's gate
        if score > margin:
            best, margin = true, score
    return best


def report(records: Sequence[dict[str, Any]]) -> None:
    pairs = [(m, t) for rec in records for m, _, t in gains(rec)]
    n = len(pairs)
    mx = sum(m for m, _ in pairs) / n
    my = sum(t for _, t in pairs) / n
    sxx = sum((m - mx) ** 2 for m, _ in pairs)
    sxy = sum((m - mx) * (t - my) for m, t in pairs)
    syy = sum((t - my) ** 2 for _, t in pairs)
    slope = sxy / sxx
    print(f"{len(records)} search decisions, {n} alternatives to the default move")
    print(
        f"calibration: true gain = {slope:.3f} × estimated gain {my - slope * mx:+.3f}"
        f" (correlation {sxy / math.sqrt(sxx * syy):.3f}; unbiased: 1 × … + 0)"
    )
    got = {}
    for rule in ("gate", "mean", "oracle"):
        mean, lo, hi = mean_ci([chosen(rec, rule) for rec in records])
        got[rule] = mean
        print(f"  {rule:<7} true gain a decision {mean:+.3f} [{lo:+.3f}, {hi:+.3f}]")
    print(f"  the gate reaches {got['gate'] / got['oracle']:.2f} of the oracle's gain")


def play_board(game: str, index: int, ds: int, samples: int) -> list[dict[str, Any]]:
    """One duplicate board of the expert against ``basic``; its search decisions recorded."""
    sink: list[dict[str, Any]] = []
    deal: list[TrickDeal] = []
    module: Any = rf_tournament if game == "runfast" else gd_tournament
    real_play_out: Callable[..., TrickDeal] = module.play_out

    def play_out(d: TrickDeal, agents: Any, *a: Any, **k: Any) -> TrickDeal:
        deal[:] = [d]
        return real_play_out(d, agents, *a, **k)

    def build(name: str, seed: int) -> Any:
        if name == "expert":
            return Watched(seed, samples, deal, sink)
        return build_agent(name, seed, None)

    module.play_out = play_out  # the deal being played, for the true hands
    try:
        module.play(module.slots(["expert", "basic"]), ds, index, build)
    finally:
        module.play_out = real_play_out
    return sink


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=["runfast", "guandan"], default="runfast")
    ap.add_argument("--boards", default="20000:20100", help="A:B")
    ap.add_argument("--samples", type=int, help="sampled deals a decision (default: the game's SAMPLE_CAP)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--out", help="one JSON line a decision")
    ap.add_argument("--read", help="report on a file an earlier --out wrote, without playing")
    args = ap.parse_args(argv)
    if args.read:
        with open(args.read) as f:
            report([json.loads(line) for line in f if line.strip()])
        return 0
    samples = args.samples or (rf_search if args.game == "runfast" else gd_search).SAMPLE_CAP
    first, _, last = args.boards.partition(":")
    records: list[dict[str, Any]] = []
    for index in range(int(first), int(last)):
        sink = play_board(args.game, index, deal_seed(args.seed, index), samples)
        records.extend(sink)
        if args.out:
            with open(args.out, "a") as f:
                for rec in sink:
                    f.write(json.dumps({"board": index, **rec}) + "\n")
    report(records)
    return 0


if __name__ == "__main__":
    sys.exit(main())
