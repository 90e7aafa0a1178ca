"""Migration 0010 on a database that already holds an account: the trainer's tables come,
empty, and a deck can be read at once; the way back drops them and keeps the rest."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from alembic import command
from sqlalchemy import Engine, insert, inspect, select

from backgammon.server import Settings
from backgammon.server.db import UserRow, alembic_config, make_engine, migrate, now
from backgammon.server.trainer.deck import Deck

TABLES = {"trainer_cards", "trainer_reviews"}


@pytest.fixture
def upgraded(database: Settings) -> Iterator[Engine]:
    """A database at revision 0009 holding an account, then migrated to the newest."""
    engine = make_engine(database.database_url)
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0009")
        assert not TABLES & set(inspect(connection).get_table_names())
        connection.execute(insert(UserRow.__table__).values(
            name="Oldtimer", name_key="oldtimer", password_hash="x", rating=1500.0,
            experience=0, created_at=now(), hidden=False,
        ))
    migrate(engine)
    yield engine
    engine.dispose()


def test_the_tables_come_and_a_deck_can_be_read(upgraded: Engine) -> None:
    with upgraded.connect() as connection:
        assert set(inspect(connection).get_table_names()) >= TABLES
        user = connection.execute(select(UserRow.id)).scalar_one()
    deck = Deck(upgraded)
    assert deck.cards(user) == []
    assert deck.progress(user) == {"cards": 0, "due": 0, "learned": 0, "days": []}


def test_the_way_back_drops_the_tables(upgraded: Engine) -> None:
    config = alembic_config()
    with upgraded.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0009")
    with upgraded.connect() as connection:
        names = set(inspect(connection).get_table_names())
        assert not TABLES & names and "users" in names
        assert connection.execute(select(UserRow.name)).scalars().all() == ["Oldtimer"]
