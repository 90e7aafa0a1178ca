"""Idempotency keys: each seat's last action sent with an ``Idempotency-Key``, and its answer.

Revision ID: 0005
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the action_keys table."""
    op.create_table(
        "action_keys",
        sa.Column("match_id", sa.String(length=32), sa.ForeignKey("matches.id"),
                  primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    """Drop the action_keys table."""
    op.drop_table("action_keys")
