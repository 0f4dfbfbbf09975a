"""Alembic's environment: run the migrations on the connection :mod:`cardavia.server.schema`
hands over (``config.attributes["connection"]``)."""

from __future__ import annotations

from alembic import context

from cardavia.server.store import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by copying
    transaction_per_migration=True,
)
with context.begin_transaction():
    context.run_migrations()
