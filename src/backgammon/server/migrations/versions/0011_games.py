"""The other games online: what each match plays, and ratings kept per game.

``matches.game`` names what a match plays as the lobby and the ratings name it
("backgammon" in any layout, one of the other games, or "tavli"); the matches made before
are read once to fill it in. ``game_ratings`` holds each account's rating and experience in
each of the other games it has played rated (backgammon's stay on ``users``), and
``rated_results.game`` says which game a result counted in.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None

_BACKGAMMON = "backgammon"


def upgrade() -> None:
    """Add the columns and the table; fill ``matches.game`` in from each record's rules."""
    for table in ("matches", "rated_results"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column(
                "game", sa.String(length=16), nullable=False, server_default=_BACKGAMMON
            ))
    op.create_table(
        "game_ratings",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(length=16), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("experience", sa.Integer(), nullable=False),
    )
    matches = sa.table(
        "matches", sa.column("id", sa.String()), sa.column("record", sa.JSON()),
        sa.column("game", sa.String()),
    )
    connection = op.get_bind()
    games = {
        match_id: "tavli" if record.get("rotation") else record["rules"]["game"]
        for match_id, record in connection.execute(sa.select(matches.c.id, matches.c.record))
        if record["rules"].get("game")
    }
    for match_id, game in games.items():
        connection.execute(
            matches.update().where(matches.c.id == match_id).values(game=game)
        )


def downgrade() -> None:
    """Drop the table and the columns: every rating is backgammon's again."""
    op.drop_table("game_ratings")
    for table in ("rated_results", "matches"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("game")
