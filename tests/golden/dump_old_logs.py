"""Write the old-log fixtures: table logs as today's code stores them (issue 9: "stored logs
stay readable").

``python tests/golden/dump_old_logs.py`` plays preset tables (the person in seat 0 follows
the table's own hint, the AI seats play themselves) and writes ``old_logs/NAME.json`` with

- ``config``: ``TableConfig.to_json()``;
- ``log``: the log entries (``seq``, ``event``) in order;
- ``expect``: what the table reported when the log was written — every seat's
  observation JSON, the match JSON (levels or running totals), the seats to act, the
  phase, the last sequence number and the records of the finished deals.

``test_old_logs.py`` rebuilds each table from ``config`` and ``log`` with the public
``Table.rebuild`` and compares with ``expect``. The fixtures were written by commit
a5d250e; do not regenerate them to make a failing test pass: a log stored by an older
version must stay readable.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardavia.table import NextDeal, Pass, Play, Restart, ReturnCard, Table, TableConfig

HERE = Path(__file__).resolve().parent / "old_logs"


def person_step(table: Table) -> None:
    """Seat 0 takes the table's hint (deterministic: a function of the position)."""
    hint = table.hint(0)
    if table.phase == "tribute":
        assert hint.cards is not None
        table.apply_action(0, ReturnCard(hint.cards[0]))
    elif hint.is_pass:
        table.apply_action(0, Pass())
    else:
        assert hint.cards is not None and hint.combo is not None
        table.apply_action(0, Play(hint.cards, hint.combo["type"], hint.combo["rank"]))


def play_until(table: Table, done: Any, max_steps: int = 5_000) -> None:
    for _ in range(max_steps):
        if done(table):
            return
        table.run_ai()
        if done(table):
            return
        if table.person_to_act():
            person_step(table)
        elif table.phase == "over":
            return
    raise RuntimeError("the table did not reach the wanted state")


def snapshot(table: Table) -> dict[str, Any]:
    return {
        "observations": [table.observation_json(s) for s in range(table.n_seats)],
        "match": table.match_json(),
        "seats_to_act": table.seats_to_act(),
        "phase": table.phase,
        "seq": table.seq,
        "records": table.records(),
    }


def dump(name: str, table: Table, note: str) -> None:
    data = {
        "note": note,
        "config": table.config.to_json(),
        "log": [{"seq": e.seq, "event": e.event} for e in table.log],
        "expect": snapshot(table),
    }
    HERE.mkdir(exist_ok=True)
    (HERE / f"{name}.json").write_text(json.dumps(data, indent=None, ensure_ascii=False) + "\n", encoding="utf-8")
    print(name, "entries:", len(table.log), "deals:", len(table.records()), "phase:", table.phase)


def finish_deal(table: Table) -> None:
    play_until(table, lambda t: t.phase == "over")


def guandan(seed: int) -> tuple[Table, Table]:
    table = Table.create(TableConfig.preset("guandan", seed=seed, difficulty="easy", partner="easy"))
    kinds: list[str] = []
    for deal in range(3):
        if deal:
            table.apply_action(0, NextDeal())
        finish_deal(table)
        kinds.extend(e.kind for e in table.log)
    if "tribute_paid" not in kinds and "tribute_cancelled" not in kinds:
        raise RuntimeError("no tribute in the first three deals")
    over = Table.rebuild(table.config, table.log)
    # the next deal: tribute, the returns, then a few plays, stopping while the person is due
    table.apply_action(0, NextDeal())
    start = table.seq
    play_until(table, lambda t: t.seq > start + 12 and t.person_to_act() and t.phase == "play")
    return over, table


def runfast(seed: int) -> Table:
    table = Table.create(TableConfig.preset("runfast", seed=seed, difficulty="easy"))
    finish_deal(table)
    table.apply_action(0, NextDeal())
    finish_deal(table)
    table.apply_action(0, NextDeal())
    play_until(table, lambda t: t.seq > 0 and len(t.deal.plays) >= 5)
    table.apply_action(0, Restart())  # mid-deal: totals back to 0, a new deal
    finish_deal(table)
    table.apply_action(0, NextDeal())
    play_until(table, lambda t: len(t.deal.plays) >= 4 and t.person_to_act())
    return table


def main() -> int:
    over, mid = guandan(seed=11)
    dump(
        "guandan_over",
        over,
        "Guandan preset, three deals played to the end (deals 2 and 3 after tribute); the"
        " next deal is due.",
    )
    dump(
        "guandan_mid",
        mid,
        "Guandan preset, four deals; the fourth after tribute and its returns, stopped while"
        " the person is to play.",
    )
    dump(
        "runfast_restart",
        runfast(seed=5),
        "Run Fast preset: two deals, a third restarted mid-deal (totals reset), one more deal"
        " played, a fifth in progress with the person to play.",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
