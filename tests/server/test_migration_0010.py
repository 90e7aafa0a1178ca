"""Migration 0010 on a database that already holds an account: the trainer's tables come,
empty, and a deck can be read at once; the way back drops them and keeps the rest."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from migrating import back_to, migrated_from
from sqlalchemy import Connection, Engine, insert, inspect, select

from backgammon.server import Settings
from backgammon.server.db import UserRow, now
from backgammon.server.trainer.deck import Deck

TABLES = {"trainer_cards", "trainer_reviews"}


@pytest.fixture
def upgraded(database: Settings) -> Iterator[Engine]:
    """A database at revision 0009 holding an account, then migrated to the newest."""

    def fill(connection: Connection) -> None:
        assert not TABLES & set(inspect(connection).get_table_names())
        connection.execute(insert(UserRow.__table__).values(
            name="Oldtimer", name_key="oldtimer", password_hash="x", rating=1500.0,
            experience=0, created_at=now(), hidden=False,
        ))

    with migrated_from(database.database_url, "0009", fill) as engine:
        yield engine


def test_the_tables_come_and_a_deck_can_be_read(upgraded: Engine) -> None:
    with upgraded.connect() as connection:
        assert set(inspect(connection).get_table_names()) >= TABLES
        user = connection.execute(select(UserRow.id)).scalar_one()
    deck = Deck(upgraded)
    assert deck.cards(user) == []
    assert deck.progress(user) == {"cards": 0, "due": 0, "learned": 0, "days": []}


def test_the_way_back_drops_the_tables(upgraded: Engine) -> None:
    tables, _ = back_to(upgraded, "0009")
    assert not TABLES & tables and "users" in tables
    with upgraded.connect() as connection:
        assert connection.execute(select(UserRow.name)).scalars().all() == ["Oldtimer"]
