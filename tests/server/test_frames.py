"""The server's fast paths against their plain definitions: state frames byte for byte as
the StateMessage model writes them, the batched SQLite appends, people before the AI, new
tables kept for their player. (Everything end to end is in the other test files.)"""

from __future__ import annotations

import asyncio
import gc
import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from cardavia.server import registry as registry_module
from cardavia.server.app import GC_THRESHOLDS, warm_up_and_freeze
from cardavia.server.messages import SeatInfo, StateMessage
from cardavia.server.registry import Registry
from cardavia.server.rooms import PersonFirst, Room, token_hash
from cardavia.server.store import Store, events_table, tables_table
from cardavia.server.why import latest_reasons
from cardavia.server.ws import parse_frame, to_action
from cardavia.table import Table, TableConfig

from .ws_client import choose, must_act


class CheckingClient:
    """A connection that checks every state frame against ``StateMessage`` built from the
    table as it is when the frame is sent (the frame shows the state after its batch)."""

    def __init__(self, room: Room, seat: int) -> None:
        self.room = room
        self.seat = seat
        self.frames: list[dict[str, Any]] = []
        self.errors: list[tuple[str, str, Any]] = []

    def send(self, text: str) -> None:
        frame = json.loads(text)
        table = self.room.table
        seq = frame["seq"]
        event = None if frame["event"] is None else table.public_event(table.entry(seq), self.seat)
        # a connect frame also carries the AI seats' reasons (server/why.py)
        reasons = {"reasons": latest_reasons(table.log)} if event is None else {}
        expected = StateMessage(
            type="state",
            table_id=self.room.table_id,
            seq=seq,
            observation=table.observation_json(self.seat),
            event=event,
            match=table.match_json(),
            seats=[SeatInfo(**s) for s in table.seats_json()],
            phase=table.phase,
            **reasons,
        ).model_dump_json(exclude_unset=True)
        assert text == expected
        assert StateMessage.model_validate_json(text).seq == seq
        self.frames.append(frame)

    def send_error(self, code: str, message: str, options: Any = None) -> None:
        self.errors.append((code, message, options))

    def close(self, code: int = 1000) -> None:
        raise AssertionError(f"the room closed the connection ({code})")


async def _settle(room: Room) -> None:
    """Wait until the room's AI driver has nothing more to do."""
    for _ in range(20_000):
        driver = room._driver
        if (driver is None or driver.done()) and not room.lock.locked():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the AI did not settle")


async def _act(room: Room, client: CheckingClient, message: dict[str, Any]) -> None:
    if not await room.act(client, to_action(parse_frame(json.dumps(message)))):  # type: ignore[arg-type]
        code, _, options = client.errors.pop()
        assert code == "ambiguous", (code, message)
        retry = {**message, "interpretation": {"type": options[0]["type"], "rank": options[0]["rank"]}}
        assert await room.act(client, to_action(parse_frame(json.dumps(retry))))  # type: ignore[arg-type]
    await _settle(room)


async def _play(game: str, seed: int, deals: int) -> tuple[CheckingClient, list[int]]:
    table = Table.create(TableConfig.preset(game, seed, "random", "random"))
    committed: list[int] = []

    async def commit(table_id: str, entries: list[tuple[int, dict[str, Any]]], closed: bool) -> None:
        committed.extend(seq for seq, _ in entries)

    room = Room("frames-test-table", table, {0: token_hash("t")}, commit, 0, lambda _: None)
    client = CheckingClient(room, 0)
    await room.join(client)  # type: ignore[arg-type]
    await _settle(room)
    for deal in range(deals):
        while not table.deal.over:
            obs = table.observation_json(0)
            assert must_act(obs)
            await _act(room, client, choose(obs, seed))
        if deal == 0:
            await _act(room, client, {"type": "restart"})  # a restart mid-match
            continue
        if deal < deals - 1:
            await _act(room, client, {"type": "next_deal"})
    await _act(room, client, {"type": "resign"})
    return client, committed


@pytest.mark.parametrize(("game", "seed"), [("guandan", 5), ("runfast", 8)])
def test_state_frames_are_the_state_message_byte_for_byte(game: str, seed: int) -> None:
    client, committed = asyncio.run(_play(game, seed, deals=3))
    seqs = [f["seq"] for f in client.frames]
    assert seqs[1:] == committed  # after the first (connect) frame: one frame per entry, in order
    assert client.frames[-1]["phase"] == "closed"
    assert any(f["match"]["last_settlement"] is not None for f in client.frames)
    assert not client.errors


def test_join_frame_after_the_table_moved_on() -> None:
    """The connect frame (no event) of a table whose history, match and phase changed."""

    async def scenario() -> None:
        client, _ = await _play("guandan", 11, deals=2)
        late = CheckingClient(client.room, 0)
        await client.room.join(late)  # type: ignore[arg-type]
        assert late.frames[0]["event"] is None and late.frames[0]["seq"] == client.room.table.seq

    asyncio.run(scenario())


def test_person_first_holds_the_ai_back() -> None:
    async def scenario() -> None:
        priority = PersonFirst()
        order: list[str] = []

        async def ai_step(name: str) -> None:
            await priority.ai_turn()
            order.append(name)

        await ai_step("free")  # nobody acting: no wait
        with priority.person():
            first = asyncio.create_task(ai_step("ai-1"))
            with priority.person():
                second = asyncio.create_task(ai_step("ai-2"))
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.01)
            assert order == ["free"]  # one person still acting
            order.append("person")
        await asyncio.gather(first, second)
        assert order == ["free", "person", "ai-1", "ai-2"]

    asyncio.run(scenario())


def test_a_new_table_waits_for_its_player(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        registry = Registry(Store("sqlite://"), pacing=0)
        config = TableConfig.preset("guandan", 4, "random", "random")
        table_id, _, room = await registry.create(config)
        await _settle(room)
        assert registry.rooms.get(table_id) is room  # idle, but held for its player
        assert await registry.get(table_id) is room  # not reloaded
        room.release_hold()
        assert table_id not in registry.rooms  # nobody came: dropped (the database has it)
        reloaded = await registry.get(table_id)
        assert reloaded is not None and reloaded is not room
        assert reloaded.table.log == room.table.log

        monkeypatch.setattr(registry_module, "NEW_TABLE_HOLD_SECONDS", 0.05)
        other_id, _, other = await registry.create(config)
        await _settle(other)
        await asyncio.sleep(0.2)
        assert other_id not in registry.rooms  # the hold ran out
        await registry.shutdown()

    asyncio.run(scenario())


def _events(store: Store, table_id: str) -> list[tuple[int, str, dict[str, Any]]]:
    with store.engine.connect() as conn:
        rows = conn.execute(
            sa.select(events_table.c.seq, events_table.c.kind, events_table.c.body)
            .where(events_table.c.table_id == table_id)
            .order_by(events_table.c.seq)
        ).all()
    return [(r[0], r[1], json.loads(r[2])) for r in rows]


@pytest.mark.parametrize("driver_sql", [True, False], ids=["sqlite-driver", "core"])
def test_batched_appends(tmp_path: Path, driver_sql: bool) -> None:
    store = Store(f"sqlite:///{tmp_path / 'appends.sqlite3'}")
    store._sqlite = driver_sql  # False: the SQLAlchemy Core path other databases take
    config = {"game": "runfast", "seed": 1, "seats": []}
    for table_id in ("table-aaaa", "table-bbbb"):
        store.create_table(table_id, config, {0: "hash"}, [(1, {"event": "deal_started"})])
    store.append_many(
        [
            ("table-aaaa", [(2, {"event": "played", "seat": 1}), (3, {"event": "passed"})], False),
            ("table-bbbb", [(2, {"event": "resigned", "seat": 0, "name": "é"})], True),
            ("table-aaaa", [], False),
        ]
    )
    with pytest.raises(sa.exc.IntegrityError if not driver_sql else Exception):
        # seq 3 exists: the whole batch fails and nothing of it is stored
        store.append_many(
            [
                ("table-bbbb", [(3, {"event": "played"})], True),
                ("table-aaaa", [(3, {"event": "played"})], False),
            ]
        )
    store.append_events("table-aaaa", [(4, {"event": "deal_ended"})], False)
    assert [(s, k) for s, k, _ in _events(store, "table-aaaa")] == [
        (1, "deal_started"), (2, "played"), (3, "passed"), (4, "deal_ended"),
    ]
    assert _events(store, "table-bbbb")[-1] == (2, "resigned", {"event": "resigned", "seat": 0, "name": "é"})
    with store.engine.connect() as conn:
        rows = {
            r.id: r
            for r in conn.execute(
                sa.select(tables_table.c.id, tables_table.c.last_seq, tables_table.c.closed,
                          tables_table.c.created_at, tables_table.c.updated_at)
            )
        }
    assert (rows["table-aaaa"].last_seq, rows["table-aaaa"].closed) == (4, False)
    assert (rows["table-bbbb"].last_seq, rows["table-bbbb"].closed) == (2, True)
    assert rows["table-aaaa"].updated_at >= rows["table-aaaa"].created_at  # read back as datetimes
    assert store.unfinished_table_ids() == ["table-aaaa"]
    loaded = store.load_table("table-aaaa")
    assert loaded is not None and [e["event"] for e in loaded.events][-1] == "deal_ended"
    store.close()


def test_warm_up_and_freeze() -> None:
    before = gc.get_threshold()
    try:
        warm_up_and_freeze()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == GC_THRESHOLDS
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
