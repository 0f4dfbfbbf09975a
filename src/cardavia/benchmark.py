"""Engine speed figures (``cardavia bench`` and ``bench/engine.py``): they print numbers.

* random self-play decisions per second on one core, with legal-move generation (the
  abstract patterns of design.md §4) at every decision, for each game;
* the median time to generate all legal moves of a fresh 27-card Guandan hand leading,
  with and without two wilds: abstract patterns, the exact list of distinct moves
  (:func:`~cardavia.rules.guandan.moves.legal_moves`) and that list as ``Combo`` objects.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from typing import NamedTuple

from cardavia.ai import make_agent
from cardavia.ai.runner import step
from cardavia.cards import Card, counts, guandan_deck
from cardavia.rules.games import GAME_NAMES, find_game
from cardavia.rules.guandan.moves import legal_moves, patterns


def selfplay_rate(game: str, seconds: float, seed: int = 1) -> tuple[float, int]:
    """Random self-play for about ``seconds``: (decisions per second, deals played)."""
    rules = find_game(game)
    agents = [make_agent("random", seed + s) for s in range(rules.seats)]
    series = rules.new_series(seed)
    decisions = 0
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        deal = series.start_deal()
        while not deal.over:
            step(deal, agents)
            decisions += 1
        series.finish_deal()
        deals += 1
    return decisions / (time.perf_counter() - start), deals


def _fresh_hand(rng: random.Random, level: int, wilds: int) -> list[Card]:
    deck = guandan_deck()
    wild = [c for c in deck if c.code == (level - 2) * 4 + 1]
    rest = [c for c in deck if c.code != (level - 2) * 4 + 1]
    rng.shuffle(rest)
    return wild[:wilds] + rest[: 27 - wilds]


class LegalTimings(NamedTuple):
    """Median milliseconds and mean counts for one kind of hand."""

    abstract_ms: float
    moves_ms: float
    combos_ms: float
    abstract_count: float
    move_count: float


def legal_timings(samples: int, wilds: int, seed: int = 7) -> LegalTimings:
    """Time the three generators on the same fresh leading hands."""
    rng = random.Random(seed)
    abstract_ms: list[float] = []
    moves_ms: list[float] = []
    combos_ms: list[float] = []
    n_abs: list[int] = []
    n_moves: list[int] = []
    for _ in range(samples):
        level = rng.randrange(2, 15)
        cnt = counts(_fresh_hand(rng, level, wilds))
        t0 = time.perf_counter()
        pats = patterns(cnt, level, None)
        t1 = time.perf_counter()
        moves = legal_moves(cnt, level, None)
        t2 = time.perf_counter()
        combos = [move.combo(level) for move in legal_moves(cnt, level, None)]
        t3 = time.perf_counter()
        abstract_ms.append((t1 - t0) * 1000)
        moves_ms.append((t2 - t1) * 1000)
        combos_ms.append((t3 - t2) * 1000)
        n_abs.append(len(pats))
        n_moves.append(len(moves))
        assert len(combos) == len(moves)
    return LegalTimings(
        statistics.median(abstract_ms),
        statistics.median(moves_ms),
        statistics.median(combos_ms),
        statistics.mean(n_abs),
        statistics.mean(n_moves),
    )


def main(argv: Sequence[str] = ()) -> int:
    p = argparse.ArgumentParser(prog="cardavia bench", description="Engine speed figures.")
    p.add_argument("--seconds", type=float, default=5.0, help="self-play time per game")
    p.add_argument("--samples", type=int, default=200, help="hands for the legal-move timing")
    p.add_argument("--game", choices=[*GAME_NAMES, "both"], default="both")
    ns = p.parse_args(list(argv))
    games = list(GAME_NAMES) if ns.game == "both" else [ns.game]
    for game in games:
        rate, deals = selfplay_rate(game, ns.seconds)
        print(f"{game}: random self-play {rate:,.0f} decisions/s on one core ({deals} deals)")
    for wilds in (0, 2):
        t = legal_timings(ns.samples, wilds)
        print(
            f"guandan: fresh 27-card hand leading, {wilds} wilds: all legal moves, median "
            f"{t.moves_ms:.2f} ms for the {t.move_count:.0f} distinct moves (legal_moves), "
            f"{t.combos_ms:.1f} ms as Combo objects, {t.abstract_ms:.3f} ms for "
            f"{t.abstract_count:.0f} abstract patterns"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
