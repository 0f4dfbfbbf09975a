"""Invite links (tables with friends) and cached deal reviews.

Before this revision the server made these two tables itself when they were missing, so a
database at ``0002`` may already hold them (with rows): they are created only where absent.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _exists(name: str) -> bool:
    return name in sa.inspect(op.get_bind()).get_table_names()


def upgrade() -> None:
    if not _exists("invites"):
        op.create_table(
            "invites",
            sa.Column("code_hash", sa.String(64), primary_key=True),
            sa.Column("table_id", sa.String(64), nullable=False),
            sa.Column("seat", sa.Integer, nullable=True),  # NULL: the spectator link
            sa.Column("state", sa.String(8), nullable=False),
            sa.Column("created_at", sa.DateTime, nullable=False),
        )
        op.create_index("ix_invites_table_id", "invites", ["table_id"])
    if not _exists("reviews"):
        op.create_table(
            "reviews",
            sa.Column("table_id", sa.String(64), primary_key=True),
            sa.Column("deal", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("body", sa.Text, nullable=False),
            sa.Column("created_at", sa.DateTime, nullable=False),
        )


def downgrade() -> None:
    op.drop_table("reviews")
    op.drop_index("ix_invites_table_id", table_name="invites")
    op.drop_table("invites")
