"""The same migrations on PostgreSQL: a database of before migrations is upgraded."""

from __future__ import annotations

from tests.server.test_migrations import check_legacy_upgrade


def test_a_postgresql_database_of_before_migrations_is_refused_then_upgraded(pg_url: str) -> None:
    check_legacy_upgrade(pg_url)
