"""Idempotency keys keep the version an action made, not its whole answer (made again from
the record when an action is sent again).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Drop the answers kept with the keys."""
    with op.batch_alter_table("action_keys") as batch:
        batch.drop_column("answer")


def downgrade() -> None:
    """Keep an answer with each key again (the keys kept meanwhile lose theirs: a resend of
    one is refused as stale, 409, and applies nothing)."""
    op.execute(sa.text("DELETE FROM action_keys"))
    with op.batch_alter_table("action_keys") as batch:
        batch.add_column(sa.Column("answer", sa.Text(), nullable=False, server_default=""))
