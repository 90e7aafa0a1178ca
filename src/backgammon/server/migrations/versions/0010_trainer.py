"""The trainer: each player's deck of their own mistakes, and their answers to its cards.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the trainer_cards and trainer_reviews tables."""
    op.create_table(
        "trainer_cards",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("match_id", sa.String(length=32), sa.ForeignKey("matches.id"),
                  nullable=False),
        sa.Column("game", sa.Integer(), nullable=False),
        sa.Column("move_number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("position_id", sa.String(length=20), nullable=False),
        sa.Column("gnubg_match_id", sa.String(length=20), nullable=False),
        sa.Column("dice", sa.JSON(), nullable=True),
        sa.Column("played", sa.String(length=60), nullable=False),
        sa.Column("best", sa.String(length=60), nullable=False),
        sa.Column("equity_loss", sa.Float(), nullable=False),
        sa.Column("mark", sa.String(length=16), nullable=False),
        sa.Column("choices", sa.JSON(), nullable=False),
        sa.Column("reasons", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due", sa.DateTime(timezone=True), nullable=False),
        sa.Column("schedule", sa.JSON(), nullable=False),
        sa.UniqueConstraint("user_id", "match_id", "game", "move_number", "kind"),
    )
    op.create_index("ix_trainer_cards_match_id", "trainer_cards", ["match_id"])
    op.create_index("ix_trainer_cards_due", "trainer_cards", ["due"])
    op.create_table(
        "trainer_reviews",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("card_id", sa.Integer(), sa.ForeignKey("trainer_cards.id"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("answer", sa.String(length=60), nullable=False),
        sa.Column("right", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("reviewed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("before", sa.JSON(), nullable=False),
    )
    op.create_index("ix_trainer_reviews_card_id", "trainer_reviews", ["card_id"])
    op.create_index("ix_trainer_reviews_user_id", "trainer_reviews", ["user_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_table("trainer_reviews")
    op.drop_table("trainer_cards")
