"""A deterministic, cheap move policy for seat 0 in browser tests.

The browser tests read the true state from the server's database, choose with this policy
and then click the cards. The same policy drives an in-process simulation used to find
seeds with the situations a test needs (a return tribute owed by seat 0, wild hearts).
"""

from __future__ import annotations

from dataclasses import dataclass

from cardavia.ai.difficulty import agent_for
from cardavia.observation import Observation
from cardavia.table import NextDeal, Pass, Play, ReturnCard, Table, TableConfig


@dataclass(frozen=True)
class Move:
    """What seat 0 does: play ``cards`` (with the reading's type/rank), pass, or return."""

    kind: str  # "play" | "pass" | "return"
    cards: tuple[str, ...] = ()
    type: str | None = None
    rank: str | None = None


def choose(obs: Observation) -> Move:
    """Seat 0 plays like the ``normal`` AI (the basic agent: deterministic, fast)."""
    agent = agent_for("normal", 12345)
    if obs.return_options:
        return Move("return", (str(agent.choose_return(obs).card),))
    decision = agent.act(obs)
    combo = decision.combo
    if combo is None:
        return Move("pass")
    rank = None if combo.rank is None else combo.rank.symbol
    return Move("play", tuple(str(c) for c in combo.cards), combo.type.value, rank)


def to_action(move: Move) -> Play | Pass | ReturnCard:
    if move.kind == "pass":
        return Pass()
    if move.kind == "return":
        return ReturnCard(move.cards[0])
    return Play(move.cards, move.type, move.rank)


def simulate_to_second_deal(seed: int) -> Table:
    """Play deal 1 of a Guandan table (``easy`` opponents, ``normal`` partner: both
    deterministic) with :func:`choose` for seat 0, then deal deal 2."""
    table = Table.create(TableConfig.preset("guandan", seed, "easy", "normal"))
    for _ in range(2000):
        table.run_ai()
        if table.deal.over:
            break
        table.apply_action(0, to_action(choose(table.observation(0))))
    table.apply_action(0, NextDeal())
    table.run_ai()
    return table


def seat0_owes_return(table: Table) -> bool:
    obs = table.observation(0)
    return obs.phase == "tribute" and bool(obs.return_options)


def wild_lead_seed(limit: int = 3000) -> tuple[int, list[str]]:
    """A table seed whose first Guandan deal has seat 0 leading with a wild heart (2h) and
    two natural pairs, so that ``pair + pair + 2h`` reads as two full houses (G-5.6)."""
    for seed in range(limit):
        obs = Table.create(TableConfig.preset("guandan", seed)).observation(0)
        hand = [str(c) for c in obs.hand]
        if obs.turn != 0 or "2h" not in hand:
            continue
        by_rank: dict[str, list[str]] = {}
        for c in hand:
            if c in ("BJ", "RJ") or c[0] == "2":
                continue
            by_rank.setdefault(c[0], []).append(c)
        pairs = [cs for _, cs in sorted(by_rank.items()) if len(cs) == 2]
        if len(pairs) >= 2:
            return seed, [*pairs[0], *pairs[1], "2h"]
    raise LookupError("no seed with a wild lead found")


def runfast_opening_seed(limit: int = 200) -> int:
    """A Run Fast table seed where seat 0 holds the 3 of hearts and so leads (R-2.3)."""
    for seed in range(limit):
        obs = Table.create(TableConfig.preset("runfast", seed)).observation(0)
        if obs.must_include is not None and obs.turn == 0:
            return seed
    raise LookupError("no seed where seat 0 opens")
