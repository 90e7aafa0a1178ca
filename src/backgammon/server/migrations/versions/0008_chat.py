"""Chat in online matches: the messages, each player's mute, and the reports of messages.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the chat_messages, chat_mutes and chat_reports tables."""
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("match_id", sa.String(length=32), sa.ForeignKey("matches.id"),
                  nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("text", sa.String(length=300), nullable=False),
        sa.Column("phrase", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_match_id", "chat_messages", ["match_id"])
    op.create_table(
        "chat_mutes",
        sa.Column("match_id", sa.String(length=32), sa.ForeignKey("matches.id"),
                  primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
    )
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("match_id", sa.String(length=32), sa.ForeignKey("matches.id"),
                  nullable=False),
        sa.Column("message_id", sa.Integer(), sa.ForeignKey("chat_messages.id"),
                  nullable=False),
        sa.Column("reporter", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("text", sa.String(length=300), nullable=False),
        sa.Column("phrase", sa.String(length=32), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("message_id", "reporter"),
    )
    op.create_index("ix_chat_reports_match_id", "chat_reports", ["match_id"])


def downgrade() -> None:
    """Drop the chat's tables, its reports first (they name its messages)."""
    op.drop_index("ix_chat_reports_match_id", table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_messages_match_id", table_name="chat_messages")
    op.drop_table("chat_messages")
