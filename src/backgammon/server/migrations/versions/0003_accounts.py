"""Accounts: users with their FIBS rating, signed-in sessions, the accounts at each match, and
the results of rated matches.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the users, sessions, match_accounts and rated_results tables."""
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(length=20), nullable=False),
        sa.Column("name_key", sa.String(length=20), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("experience", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(length=64), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    op.create_table(
        "match_accounts",
        sa.Column("match_id", sa.String(length=32), sa.ForeignKey("matches.id"),
                  primary_key=True),
        sa.Column("user0", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("user1", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "rated_results",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("match_id", sa.String(length=32), sa.ForeignKey("matches.id"),
                  nullable=False, unique=True),
        sa.Column("user0", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("user1", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("length", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=False),
        sa.Column("rating0", sa.Float(), nullable=False),
        sa.Column("rating1", sa.Float(), nullable=False),
        sa.Column("change0", sa.Float(), nullable=False),
        sa.Column("change1", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rated_results_user0", "rated_results", ["user0"])
    op.create_index("ix_rated_results_user1", "rated_results", ["user1"])


def downgrade() -> None:
    """Drop the account tables (the matches and analyses stay)."""
    op.drop_table("rated_results")
    op.drop_table("match_accounts")
    op.drop_table("sessions")
    op.drop_table("users")
