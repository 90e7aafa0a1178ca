"""Alembic's entry point: run the migrations on the connection the server passes in.

The server passes its connection in ``config.attributes["connection"]``
(:func:`backgammon.server.db.migrate`); the ``alembic`` command line, given this folder's
``alembic.ini``, connects to ``BACKGAMMON_DATABASE_URL`` (or the default SQLite file) instead.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from backgammon.server.db import Base, make_engine
from backgammon.server.settings import Settings


def _run(connection: Connection) -> None:
    # Batch mode lets later revisions alter SQLite tables, which ALTER TABLE cannot.
    context.configure(
        connection=connection, target_metadata=Base.metadata, render_as_batch=True
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Migrate through the given connection, or one opened from the settings."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(Settings.from_env().database_url)
    with engine.begin() as opened:
        _run(opened)


# Alembic sets up ``context`` before it runs this file; a plain import (pytest collects every
# module for doctests) finds nothing to run.
if hasattr(context, "config"):
    if context.is_offline_mode():
        raise SystemExit("Offline (SQL script) migrations are not supported; use a database.")
    run_online()
