"""The matches' seating in indexed columns (the invite's digest, whether it is open, whether
the lobby lists the match), so that a join and the lobby no longer read the settings of every
match; and the matches saved before seats had tokens made open to their first taker.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None

_MATCHES = sa.table(
    "matches",
    sa.column("id", sa.String),
    sa.column("settings", sa.JSON),
    sa.column("invite_digest", sa.String),
    sa.column("waiting", sa.Boolean),
    sa.column("listed", sa.Boolean),
)


def upgrade() -> None:
    """Add the columns and their indexes, then fill them in from each match's settings."""
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("invite_digest", sa.String(length=64), nullable=True))
        batch.add_column(
            sa.Column("waiting", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(
            sa.Column("listed", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_index("ix_matches_invite_digest", "matches", ["invite_digest"], unique=True)
    op.create_index("ix_matches_listed", "matches", ["listed"])
    connection = op.get_bind()
    rows = connection.execute(sa.select(_MATCHES.c.id, _MATCHES.c.settings)).all()
    for match_id, settings in rows:
        changed = dict(settings)
        seating = changed.get("seating")
        if seating is None:
            # Saved before seats had tokens, when whoever had its id could act in it:
            # whoever opens it first now takes its seats (``unheld``; docs/guide/online.md says so).
            seating = changed["seating"] = {
                "keys": [], "online": False, "invite": None, "claim_seconds": 0.0,
                "spent": None, "unheld": True,
            }
        invite = seating.get("invite")
        connection.execute(
            sa.update(_MATCHES)
            .where(_MATCHES.c.id == match_id)
            .values(
                settings=changed,
                invite_digest=seating.get("spent") if invite is None else invite["digest"],
                waiting=invite is not None,
                listed=invite is not None and invite.get("public") is not None,
            )
        )


def downgrade() -> None:
    """Drop the columns (the settings keep the seating)."""
    op.drop_index("ix_matches_listed", "matches")
    op.drop_index("ix_matches_invite_digest", "matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("listed")
        batch.drop_column("waiting")
        batch.drop_column("invite_digest")
