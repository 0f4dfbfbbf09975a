"""The Table without HTTP: actions, errors, the AI, records, and rebuild from the log."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardavia.record import replay_records
from cardavia.rules.observation import observation
from cardavia.table import (
    ActionError,
    NextDeal,
    Pass,
    Play,
    Resign,
    Restart,
    ReturnCard,
    Table,
    TableConfig,
    public_event,
)
from tests.server.leaks import check_no_leaks
from tests.server.ws_client import choose, must_act


def _act(table: Table, move: dict[str, Any]) -> None:
    if move["type"] == "return":
        table.apply_action(0, ReturnCard(move["card"]))
    elif move["type"] == "pass":
        table.apply_action(0, Pass())
    else:
        interp = move.get("interpretation") or {}
        try:
            table.apply_action(0, Play(tuple(move["cards"]), interp.get("type"), interp.get("rank")))
        except ActionError as err:
            assert err.code == "ambiguous" and err.options
            option = err.options[0]
            table.apply_action(0, Play(tuple(move["cards"]), option["type"], option["rank"]))


def play_deals(table: Table, deals: int, seed: int) -> None:
    for index in range(deals):
        while True:
            table.run_ai()
            if table.deal.over:
                break
            obs = table.observation(0).to_json()
            assert must_act(obs)
            _act(table, choose(obs, seed))
        if index < deals - 1:
            table.apply_action(0, NextDeal())


@pytest.mark.parametrize("game", ["guandan", "runfast"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rebuild_from_the_log_at_every_step(game: str, seed: int) -> None:
    table = Table.create(TableConfig.preset(game, seed, "easy", "easy"))
    play_deals(table, 3, seed)
    stored = [json.loads(json.dumps(e.event)) for e in table.log]
    again = Table.rebuild(table.config, stored)
    assert again.observation(0) == table.observation(0)
    assert again.records() == table.records()
    assert again.match_json() == table.match_json()
    # a rebuilt table continues exactly like the original
    again.apply_action(0, NextDeal())
    table.apply_action(0, NextDeal())
    assert [e.event for e in again.run_ai()] == [e.event for e in table.run_ai()]
    # every prefix folds
    partial = Table(table.config)
    for event in stored[: len(stored) // 2]:
        partial.fold(event)
    assert partial.seq == len(stored) // 2


@pytest.mark.parametrize("game", ["guandan", "runfast"])
def test_records_replay(game: str) -> None:
    table = Table.create(TableConfig.preset(game, 9, "easy", "easy"))
    play_deals(table, 3, 9)
    records = table.records()
    assert [r["deal"] for r in records] == [0, 1, 2]
    outcomes, problem = replay_records(json.loads(json.dumps(records)))
    assert len(outcomes) == 3
    assert problem is None, problem
    if game == "guandan":
        assert records[0]["tribute"] is None and records[1]["tribute"] is not None
        for key in ("places", "level", "levels_before", "levels_after", "match_winner"):
            assert key in records[1]
        assert records[1]["levels_before"] == records[0]["levels_after"]
    else:
        assert all(sum(r["scores"]) == 0 for r in records)
        assert table.match_json()["totals"] == [
            sum(r["scores"][s] for r in records) for s in range(3)
        ]


@pytest.mark.parametrize("game", ["guandan", "runfast"])
def test_observation_json_matches_the_engine(game: str) -> None:
    table = Table.create(TableConfig.preset(game, 6, "easy", "easy"))
    for deal in range(2):
        while not table.deal.over:
            for seat in range(table.n_seats):
                assert table.observation_json(seat) == observation(table.deal, seat, reply=True).to_json()
            if table.step_ai():
                continue
            _act(table, choose(table.observation(0).to_json(), 6))
        assert table.observation_json(1) == table.observation(1).to_json()
        if deal == 0:
            table.apply_action(0, NextDeal())
            assert table.observation_json(0) == table.observation(0).to_json()


def test_errors_leave_the_table_unchanged() -> None:
    table = Table.create(TableConfig.preset("runfast", 5, "easy"))
    table.run_ai()
    before = (table.seq, table.observation(0))
    hand = [str(c) for c in table.deal.hand(0)]
    not_mine = next(str(c) for s in (1, 2) for c in table.deal.hand(s))
    cases: list[tuple[int, Any, str]] = [
        (1, Pass(), "not_allowed"),
        (7, Pass(), "not_allowed"),
        (0, Play((not_mine,)), "illegal"),
        (0, Play(("zz",)), "bad_message"),
        (0, Play((hand[0],), None, "7"), "bad_message"),
        (0, ReturnCard(hand[0]), "not_allowed"),
        (0, NextDeal(), "not_allowed"),
    ]
    for seat, action, code in cases:
        with pytest.raises(ActionError) as err:
            table.apply_action(seat, action)
        assert err.value.code == code, (action, err.value)
        assert (table.seq, table.observation(0)) == before


def test_restart_resign_and_closed() -> None:
    table = Table.create(TableConfig.preset("guandan", 4, "easy", "easy"))
    play_deals(table, 1, 4)
    assert table.match_json()["last_settlement"] is not None
    entries = table.apply_action(0, Restart())
    assert [e.kind for e in entries][:2] == ["restarted", "deal_started"]
    assert table.match_json() == {
        "levels": ["2", "2"], "deal_level": "2", "match_winner": None, "last_settlement": None
    }
    # G-1.7: a new match; its deals are numbered from 0 and the old match's leave the list
    assert table.deal.deal_index == 0 and table.records() == []
    table.apply_action(0, Resign())
    assert table.phase == "closed" and table.pending_ai_seat() is None
    with pytest.raises(ActionError):
        table.apply_action(0, NextDeal())
    again = Table.rebuild(table.config, [e.event for e in table.log])
    assert again.phase == "closed" and again.observation(0) == table.observation(0)


def test_fast_forward_once_the_person_is_out() -> None:
    for seed in range(40):
        table = Table.create(TableConfig.preset("guandan", seed, "easy", "easy"))
        while True:
            table.run_ai()
            if table.deal.over:
                break
            assert not table.fast_forward
            _act(table, choose(table.observation(0).to_json(), seed, pass_rate=0.0))
            if table.deal.size[0] == 0 and not table.deal.over:
                assert table.fast_forward and not table.person_to_act()
                table.run_ai()
                assert table.deal.over
                return
    raise AssertionError("in 40 seeded deals the person never finished before the deal ended")


def test_public_event_hides_hands_and_returns() -> None:
    start = {"event": "deal_started", "hands": [["3s"], ["4s"], ["5s"], ["6s"]], "seed": 5}
    assert public_event(start, 1)["hands"] == [None, ["4s"], None, None]
    assert public_event(start, 1)["seed"] is None
    assert public_event(start, 1)["hand_sizes"] == [1, 1, 1, 1]
    ret = {"event": "returned", "from": 0, "to": 3, "card": "5s"}
    assert public_event(ret, 0)["card"] == "5s" and public_event(ret, 3)["card"] == "5s"
    assert public_event(ret, 2)["card"] is None


def test_the_leak_check_catches_a_leak() -> None:
    table = Table.create(TableConfig.preset("runfast", 3, "easy"))
    events = [e.event for e in table.log]
    obs = table.observation(0).to_json()
    honest = {"type": "state", "seq": 1, "observation": obs, "event": None}
    assert check_no_leaks(table.config, events, [honest], 0) == 1
    other = str(table.deal.hand(1)[0])
    leaky = {**honest, "extra": {"peek": other}}
    with pytest.raises(AssertionError):
        check_no_leaks(table.config, events, [leaky], 0)


def test_a_won_match_starts_a_new_one_and_rebuilds() -> None:
    table = Table.create(TableConfig.preset("guandan", 0, "easy", "easy"))
    for _ in range(40):
        play_deals(table, 1, 0)
        if table.match_json()["match_winner"] is not None:
            break
        table.apply_action(0, NextDeal())
    else:
        raise AssertionError("no match was won in 40 seeded deals")
    won = table.match_json()
    assert won["last_settlement"]["match_winner"] == won["match_winner"]
    table.apply_action(0, NextDeal())
    fresh = table.match_json()
    assert fresh["levels"] == ["2", "2"] and fresh["match_winner"] is None
    assert fresh["last_settlement"] is None
    assert table.deal.phase == "play"  # the first deal of a match has no tribute
    again = Table.rebuild(table.config, [e.event for e in table.log])
    assert again.match_json() == fresh and again.observation(0) == table.observation(0)
    _, problem = replay_records(table.records())
    assert problem is None


@pytest.mark.parametrize("game", ["guandan", "runfast"])
def test_a_compact_table_plays_alike_and_keeps_only_the_current_deal(game: str) -> None:
    config = TableConfig.preset(game, 12, "easy", "easy")
    full = Table.create(config)
    compact = Table.create(config, keep_finished=False)
    for table in (full, compact):
        play_deals(table, 4, 12)
        table.apply_action(0, Restart())
        play_deals(table, 1, 12)
        table.apply_action(0, NextDeal())
    assert compact.seq == full.seq
    assert compact.observation(0) == full.observation(0)
    assert compact.match_json() == full.match_json()
    # only the current deal's entries and the table's own ("restarted") are in memory
    kept = [e.kind for e in compact.log]
    assert kept[0] == "restarted" and kept.count("deal_started") == 1
    assert compact.log[1:] == full.log[-(len(compact.log) - 1) :]
    assert compact.entry(compact.seq) == full.log[-1]
    with pytest.raises(KeyError):
        compact.entry(2)  # an entry of the first deal: only in the database
    with pytest.raises(RuntimeError):
        compact.records()
    # rebuilt compact from the whole stored log, it is the same table again
    again = Table.rebuild(config, [e.event for e in full.log], keep_finished=False)
    assert again.log == compact.log and again.observation(0) == compact.observation(0)


def test_a_compact_table_does_not_grow_with_the_deals_played() -> None:
    import gc
    import tracemalloc

    table = Table.create(TableConfig.preset("guandan", 21, "random", "random"), keep_finished=False)
    play_deals(table, 2, 21)
    table.apply_action(0, NextDeal())
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        play_deals(table, 8, 21)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # a full table grows by ~100 KiB per Guandan deal (log + deal objects); this one by
    # about one deal's worth in all
    assert grown < 200 * 1024, f"grew by {grown // 1024} KiB over 8 deals"
