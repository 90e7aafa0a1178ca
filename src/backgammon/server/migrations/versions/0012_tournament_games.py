"""Tournaments of the other games: ``tournaments.game`` names what every match of a
tournament plays, as ``matches.game`` names it ("backgammon", one of the other games, or
"tavli"); the tournaments made before are backgammon's.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the column, backgammon's for every tournament made before."""
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column(
            "game", sa.String(length=16), nullable=False, server_default="backgammon"
        ))


def downgrade() -> None:
    """Drop the column: every tournament is backgammon's again (their matches keep their
    own ``matches.game``)."""
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("game")
