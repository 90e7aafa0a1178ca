"""A player may hide their page: a flag on each account, shown to all until they choose.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``users.hidden``, false for every account there is (their pages stay public)."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(
            sa.Column("hidden", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    """Drop the flag: every page is public again."""
    with op.batch_alter_table("users") as batch:
        batch.drop_column("hidden")
