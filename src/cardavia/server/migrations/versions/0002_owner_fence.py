"""Table ownership: the fencing token of the process that last took a table.

Several server processes (``--redis``) take a table with a lease whose token only grows;
every write of the table's log checks, in its own transaction, that no newer token took it
since (docs/deploy.md). NULL: never owned that way (one process, or a table of before).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("fence", sa.BigInteger, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("fence")
