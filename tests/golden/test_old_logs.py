"""Table logs stored by an older version stay readable (issue 9, part 4).

The fixtures in ``old_logs/`` were written by ``dump_old_logs.py`` on commit a5d250e: a
table's config and its log entries, and what that table reported at the time (every
seat's observation, levels or running totals, who is to act, the records of the finished
deals). Each is rebuilt here through the public ``Table.rebuild`` and must report the same,
then play on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardavia.table import NextDeal, Pass, Play, ReturnCard, Table, TableConfig

HERE = Path(__file__).resolve().parent / "old_logs"
NAMES = ("guandan_over", "guandan_mid", "runfast_restart")


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))
    return data


def phase_of(table: Table) -> str:
    """``table.phase`` read afresh (for mypy, which keeps an asserted phase across steps)."""
    return table.phase


def rebuild(data: dict[str, Any], *, keep_finished: bool = True) -> Table:
    config = TableConfig.from_json(data["config"])
    return Table.rebuild(config, [e["event"] for e in data["log"]], keep_finished=keep_finished)


#: Observation fields added after the fixtures were written (extensions, not changes).
ADDED_FIELDS = frozenset({"has_reply"})


def as_stored(obs: dict[str, Any]) -> dict[str, Any]:
    """An observation as the old code wrote it: the fields added since are left out."""
    assert obs.keys() >= ADDED_FIELDS
    return {k: v for k, v in obs.items() if k not in ADDED_FIELDS}


def person_step(table: Table) -> None:
    hint = table.hint(0)
    if table.phase == "tribute":
        assert hint.cards is not None
        table.apply_action(0, ReturnCard(hint.cards[0]))
    elif hint.is_pass:
        table.apply_action(0, Pass())
    else:
        assert hint.cards is not None and hint.combo is not None
        table.apply_action(0, Play(hint.cards, hint.combo["type"], hint.combo["rank"]))


@pytest.mark.parametrize("name", NAMES)
def test_rebuilt_table_reports_what_the_old_code_stored(name: str) -> None:
    data = load(name)
    expect = data["expect"]
    table = rebuild(data)
    assert [e.seq for e in table.log] == [e["seq"] for e in data["log"]]
    assert table.seq == expect["seq"]
    assert table.phase == expect["phase"]
    assert table.seats_to_act() == expect["seats_to_act"]
    assert table.match_json() == expect["match"]
    for seat, obs in enumerate(expect["observations"]):
        assert as_stored(table.observation_json(seat)) == obs, f"seat {seat}"
    # since this change a restart begins a new match or session (G-1.7): the records list
    # only the deals finished since the last restart, as the old code wrote them
    restarts = [e["seq"] for e in data["log"] if e["event"]["event"] == "restarted"]
    deals_after = {
        e["event"]["deal"]
        for e in data["log"]
        if e["event"]["event"] == "deal_started" and (not restarts or e["seq"] > restarts[-1])
    }
    assert table.records() == [r for r in expect["records"] if r["deal"] in deals_after]
    assert not restarts or len(table.records()) < len(expect["records"])


@pytest.mark.parametrize("name", NAMES)
def test_server_style_rebuild_keeps_the_same_state(name: str) -> None:
    """``keep_finished=False`` (the server) folds the same log to the same observations."""
    data = load(name)
    table = rebuild(data, keep_finished=False)
    assert table.seq == data["expect"]["seq"]
    assert table.match_json() == data["expect"]["match"]
    for seat, obs in enumerate(data["expect"]["observations"]):
        assert as_stored(table.observation_json(seat)) == obs


def test_the_fixtures_hold_what_they_claim() -> None:
    """Tribute deals, an anti-tribute, a restart and the levels of a match in progress."""
    kinds = {name: [e["event"]["event"] for e in load(name)["log"]] for name in NAMES}
    assert kinds["guandan_over"].count("deal_ended") == 3
    assert kinds["guandan_over"].count("tribute_paid") >= 1
    assert "returned" in kinds["guandan_over"]
    assert "tribute_cancelled" in kinds["guandan_mid"]
    assert "restarted" in kinds["runfast_restart"]
    assert kinds["runfast_restart"].count("deal_started") == 5
    assert load("guandan_mid")["expect"]["match"]["levels"] != ["2", "2"]


def test_finished_guandan_log_deals_the_next_deal_with_tribute() -> None:
    """After rebuild the match remembers the last places: the next deal starts with G-3."""
    data = load("guandan_over")
    table = rebuild(data)
    places = data["expect"]["match"]["last_settlement"]["places"]
    first, second = places[0], places[1]
    double = second == (first + 2) % 4
    payers = {(first + 1) % 4, (first + 3) % 4} if double else {places[3]}
    new = table.apply_action(0, NextDeal())
    kinds = [e.kind for e in new]
    assert kinds[0] == "deal_started"
    paid = [e.event for e in new if e.kind == "tribute_paid"]
    if "tribute_cancelled" in kinds:
        assert table.phase == "play" and not paid
    else:
        assert {p["from"] for p in paid} == payers
        assert table.phase == "tribute"
    for _ in range(400):  # returns, then play on to the end of the deal
        table.run_ai()
        if phase_of(table) == "over":
            break
        person_step(table)
    assert phase_of(table) == "over"
    assert len(table.records()) == len(data["expect"]["records"]) + 1


@pytest.mark.parametrize("name", ["guandan_mid", "runfast_restart"])
def test_rebuilt_table_plays_on_and_its_new_log_rebuilds_alike(name: str) -> None:
    data = load(name)
    table = rebuild(data)
    assert table.person_to_act()
    before = table.seq
    person_step(table)
    table.run_ai(max_steps=20)
    assert table.seq > before + 1
    again = Table.rebuild(table.config, table.log)
    assert again.seq == table.seq
    for seat in range(table.n_seats):
        assert again.observation_json(seat) == table.observation_json(seat)
    assert again.match_json() == table.match_json()
