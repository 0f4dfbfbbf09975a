"""What card inference could still buy: the expert as it is against the same expert whose
sampler is handed the true hidden hands, on the same duplicate boards against ``basic``.

    taskset -c 0 .venv/bin/python bench/ai_true_hands.py --game runfast --boards 100 --think-ms 150
    taskset -c 0 .venv/bin/python bench/ai_true_hands.py --game guandan --boards 100 --samples 30
    taskset -c 0 .venv/bin/python bench/ai_true_hands.py --game guandan --boards 100 --samples 30 --know short:10

A diagnostic only: the "true hands" expert breaks the observation-only rule on purpose (its
game's ``sample_hands`` is replaced while it plays; the agents themselves never see a hidden
card). Everything else — candidates, rollouts, the endgame solver, the gate — is the
expert's own, so the paired difference per board is what perfect inference of the hidden
hands would be worth to this search. Prints each side's result and the paired difference
(Run Fast: the expert's points a deal; Guandan: its deal-win share), 95 % intervals.
``--samples`` fixes the sampled deals per search (no clock, load-independent).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from cardavia.ai import tournament
from cardavia.ai.base import Agent
from cardavia.ai.expert import ExpertAgent
from cardavia.ai.games import game_ai
from cardavia.ai.guandan import search as gd_search
from cardavia.ai.guandan import tournament as gd_tournament
from cardavia.ai.runfast import search as rf_search
from cardavia.ai.runfast import tournament as rf_tournament
from cardavia.ai.stats import mean_ci
from cardavia.cards import N_CODES
from cardavia.rules.runfast.moves import rank_counts
from cardavia.rules.trick import TrickDeal


def _codes(deal: TrickDeal, seat: int) -> list[int]:
    cnt = [0] * N_CODES
    for card in deal.hand(seat):
        cnt[card.code] += 1
    return cnt


def _told(know: str, me: int, seat: int, size: int) -> bool:
    """Whether ``know`` hands ``me`` the true hand of ``seat`` (holding ``size`` cards)."""
    if know == "all":
        return True
    if know == "partner":
        return (seat - me) % 4 == 2
    if know == "opponents":
        return (seat - me) % 2 == 1
    return size <= int(know.removeprefix("short:"))


def _bomb_cards(cnt: list[int]) -> list[int]:
    """The codes of the ranks of which a hand holds four or more natural cards."""
    out: list[int] = []
    for rank in range(13):
        codes = range(rank * 4, rank * 4 + 4)
        if sum(cnt[c] for c in codes) >= 4:
            out.extend(c for c in codes for _ in range(cnt[c]))
    return out


@contextmanager
def true_hands(game: str, know: str = "all") -> Iterator[None]:
    """While open, the game's sampler returns the hidden hands of the deal being played
    (Guandan: only the hands ``know`` names — ``partner``, ``opponents`` or ``short:N``,
    hands of at most N cards, or ``bombs``: only the opponents' natural bombs —, the rest
    sampled around them as usual)."""
    module: Any = rf_tournament if game == "runfast" else gd_tournament
    search: Any = rf_search if game == "runfast" else gd_search
    playing: list[TrickDeal] = []
    real_play_out: Callable[..., TrickDeal] = module.play_out
    real_sample = search.sample_hands

    def play_out(deal: TrickDeal, agents: list[Agent], *args: Any, **kwargs: Any) -> TrickDeal:
        playing[:] = [deal]
        return real_play_out(deal, agents, *args, **kwargs)

    def sample(me: int, *args: Any, **kwargs: Any) -> dict[int, list[int]]:
        deal = playing[0]
        hands = {s: _codes(deal, s) for s in range(deal.n_seats) if s != me}
        if game == "runfast":
            return {s: rank_counts(h) for s, h in hands.items()}
        if know == "all":
            return hands
        sizes, unseen, known = args[0], args[1], dict(args[2])
        for s, h in hands.items():
            if know == "bombs" and (s - me) % 2 == 1:  # an opponent's natural bombs only
                known[s] = [*known.get(s, []), *_bomb_cards(h)]
            elif know != "bombs" and _told(know, me, s, sizes[s]):  # dealt to its seat first
                known[s] = [code for code in range(N_CODES) for _ in range(h[code])]
        got: dict[int, list[int]] = real_sample(me, sizes, unseen, known, *args[3:], **kwargs)
        return got

    module.play_out, search.sample_hands = play_out, sample
    try:
        yield
    finally:
        module.play_out, search.sample_hands = real_play_out, real_sample


def _value(game: str, row: dict[str, Any]) -> float:
    if game == "runfast":
        return float(row["score"][0]) / float(row["games"][0])
    return float(row["wins"][0]) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=["guandan", "runfast"], required=True)
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--think-ms", type=float, default=150.0)
    parser.add_argument("--samples", type=int, default=None, help="sampled deals a search (no clock)")
    parser.add_argument("--know", default="all", help="Guandan: all, partner, opponents, bombs or short:N")
    args = parser.parse_args()
    real_build = tournament.build_agent

    def build(name: str, seed: int, think_ms: float | None = None) -> Agent:
        if name == "expert" and args.samples is not None:
            return ExpertAgent(seed, budget_ms=1e9, hard_cap_ms=1e9, max_samples=args.samples)
        return real_build(name, seed, think_ms)

    tournament.build_agent = build
    slots = list(game_ai(args.game).tournament.slots(["expert", "basic"]))
    think = None if args.samples is not None else args.think_ms
    plain: list[float] = []
    told: list[float] = []
    seconds = [0.0, 0.0]
    for i in range(args.boards):
        t0 = time.perf_counter()
        plain.append(_value(args.game, tournament.play_board(args.game, slots, args.seed, i, think)))
        t1 = time.perf_counter()
        with true_hands(args.game, args.know):
            told.append(_value(args.game, tournament.play_board(args.game, slots, args.seed, i, think)))
        seconds[0] += t1 - t0
        seconds[1] += time.perf_counter() - t1
    what = "points a deal" if args.game == "runfast" else "deal-win share"
    budget = f"{args.samples} samples" if args.samples is not None else f"{args.think_ms:g} ms"
    print(f"{args.game}: expert vs basic, {args.boards} boards, seed {args.seed}, {budget}; {what}; told: {args.know}")
    for name, values, secs in (("as it is", plain, seconds[0]), ("true hands", told, seconds[1])):
        m, lo, hi = mean_ci(values)
        print(f"  {name:<11} {m:+.3f} [{lo:+.3f}, {hi:+.3f}]  ({secs:.0f} s)")
    m, lo, hi = mean_ci([b - a for a, b in zip(plain, told, strict=True)])
    print(f"  paired difference (true hands − as it is): {m:+.3f} [{lo:+.3f}, {hi:+.3f}]")


if __name__ == "__main__":
    main()
