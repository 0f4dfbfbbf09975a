"""The scale-out tests run against real PostgreSQL and Redis, never without them."""

from __future__ import annotations

import redis
import sqlalchemy as sa


def test_postgresql_and_redis_are_real(pg_url: str, redis_url: str) -> None:
    engine = sa.create_engine(pg_url)
    with engine.connect() as conn:
        assert "PostgreSQL" in conn.execute(sa.text("SELECT version()")).scalar_one()
    engine.dispose()
    client = redis.Redis.from_url(redis_url)
    assert client.ping() and client.info("server")["redis_version"]
    client.close()
