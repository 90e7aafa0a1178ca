"""Tournaments: each one's settings and standing, its players, and the places of its draw.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the tournaments, tournament_players and tournament_matches tables."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=32), primary_key=True),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("creator_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("length", sa.Integer(), nullable=False),
        sa.Column("time_control", sa.String(length=16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("secret", sa.String(length=64), nullable=False),
        sa.Column("winner_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(length=32), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=True),
    )
    op.create_index("ix_tournament_players_user_id", "tournament_players", ["user_id"])
    op.create_table(
        "tournament_matches",
        sa.Column("tournament_id", sa.String(length=32), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("slot", sa.Integer(), primary_key=True),
        sa.Column("match_id", sa.String(length=32), sa.ForeignKey("matches.id"),
                  nullable=True, unique=True),
        sa.Column("user0", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("user1", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("winner", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("points0", sa.Integer(), nullable=False),
        sa.Column("points1", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    """Drop the tournament tables (their matches stay, as any match does)."""
    op.drop_table("tournament_matches")
    op.drop_table("tournament_players")
    op.drop_table("tournaments")
