"""Ownership on real PostgreSQL and Redis: a stale owner's write is refused, whole."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis
import sqlalchemy as sa

from cardavia.server.cluster import Cluster, RemoteClient
from cardavia.server.registry import Registry
from cardavia.server.rooms import CommitFailed
from cardavia.server.store import StaleOwner, Store
from cardavia.table import Pass, Play, Table, TableConfig
from tests.server.ws_client import choose
from tests.table.test_table import _act


def _stored(url: str, table_id: str) -> tuple[int, int | None, int]:
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        last, fence = conn.execute(sa.text("SELECT last_seq, fence FROM tables WHERE id = :t"), {"t": table_id}).one()
        count = conn.execute(sa.text("SELECT count(*) FROM events WHERE table_id = :t"), {"t": table_id}).scalar_one()
    engine.dispose()
    return int(last), fence, int(count)


def test_the_store_refuses_a_write_with_an_older_token(pg_url: str) -> None:
    store = Store(pg_url)
    try:
        table = Table.create(TableConfig.preset("runfast", 3, "random", "random"))
        entries = [(e.seq, e.event) for e in table.log]
        store.create_table("stale-table-1", table.config.to_json(), {0: "h"}, entries, fence=1)
        new = table.run_ai()
        if not new:  # the person leads first
            _act(table, choose(table.observation(0).to_json(), 3))
            new = table.log[len(entries):]
        more = [(e.seq, e.event) for e in new]
        assert more
        assert store.claim("stale-table-1", 2) is None  # another process takes it
        assert store.claim("stale-table-1", 2) == 2  # a token not newer than the row's: refused
        with pytest.raises(StaleOwner):
            store.append_events("stale-table-1", more, False, fence=1)
        assert _stored(pg_url, "stale-table-1") == (len(entries), 2, len(entries))  # nothing written
        store.append_events("stale-table-1", more, False, fence=2)
        assert _stored(pg_url, "stale-table-1") == (more[-1][0], 2, more[-1][0])
        # the same seq again (a fork) fails on the key even with the current token
        with pytest.raises(sa.exc.IntegrityError):
            store.append_events("stale-table-1", more[-1:], False, fence=2)
    finally:
        store.close()


def test_a_process_whose_table_was_taken_writes_nothing_and_stops(pg_url: str, redis_url: str) -> None:
    async def scenario() -> None:
        store_a, store_b = Store(pg_url), Store(pg_url)
        a, b = Registry(store_a, 0.0), Registry(store_b, 0.0)
        a.cluster, b.cluster = Cluster(redis_url, a), Cluster(redis_url, b)
        await a.cluster.start()
        await b.cluster.start()
        try:
            config = TableConfig.preset("runfast", 5, "random", "random")
            table_id, _, room = await a.create(config)
            while room.table.pending_ai_seat() is not None or not room.table.person_to_act():
                await asyncio.sleep(0.01)
            assert await b.cluster.take(table_id) is None  # a holds the lease
            # a is cut off (its lease expires without it knowing); b takes the table
            redis.Redis.from_url(redis_url).delete(f"cardavia:lease:{table_id}")
            token = await b.cluster.take(table_id)
            assert token is not None and token > (a.cluster.fence(table_id) or 0)
            before = _stored(pg_url, table_id)
            # a's person acts on its stale copy: the write is refused, the room stops
            obs = room.table.observation(0).to_json()
            move: dict[str, Any] = choose(obs, 5)
            action = Pass() if move["type"] == "pass" else Play(tuple(move["cards"]))
            client = RemoteClient(0)
            # (either its write is refused, or its lease renewal noticed first and it stopped)
            try:
                accepted = await room.act(client, action)  # type: ignore[arg-type]
            except CommitFailed as err:
                assert "owned by another server" in str(err)
                accepted = False
            assert not accepted and room.broken  # its clients are told to reconnect (to b's copy, via any process)
            assert not a.cluster.owns(table_id)
            assert _stored(pg_url, table_id)[::2] == before[::2] and _stored(pg_url, table_id)[1] == token
        finally:
            await a.shutdown()
            await b.shutdown()

    asyncio.run(scenario())
