"""What the migration tests share: a database brought to an old revision, given rows of that
revision's shape, then migrated to the newest; and the way back to a revision."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from alembic import command
from sqlalchemy import Connection, Engine, inspect

from backgammon.server.db import alembic_config, make_engine, migrate


@contextmanager
def migrated_from(
    url: str, revision: str, fill: Callable[[Connection], Any] = lambda _: None, *,
    down: bool = False,
) -> Iterator[Engine]:
    """The database at ``url`` brought to ``revision`` (up from empty, or ``down`` from the
    newest), ``fill`` run on it there, then migrated to the newest: its engine."""
    engine = make_engine(url)
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)
        fill(connection)
    migrate(engine)
    try:
        yield engine
    finally:
        engine.dispose()


def back_to(engine: Engine, revision: str) -> tuple[set[str], dict[str, set[str]]]:
    """Migrate ``engine``'s database down to ``revision``: the tables it has then, and each
    one's columns."""
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
        found = inspect(connection)
        tables = set(found.get_table_names())
        return tables, {table: {column["name"] for column in found.get_columns(table)}
                        for table in tables}
