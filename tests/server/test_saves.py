"""An action's save sent on the driver's own connection (SQLite's, ``saves.DriverSaves``;
psycopg's on PostgreSQL, ``saves.AsyncDriverSaves``) writes exactly what SQLAlchemy's way
writes, all or nothing: the row and the key, or, on a stale version or a failure, neither;
and psycopg's reads a copy's row as SQLAlchemy's way does."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, bindparam, select, text, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from backgammon.dice import SeededDice
from backgammon.game import Act, Action
from backgammon.game.match import Match
from backgammon.server.db import MatchRow, make_engine, migrate, now
from backgammon.server.play.idempotency import KeptKey
from backgammon.server.play.saves import (
    SAVE,
    AsyncDriverSaves,
    DriverSaves,
    MatchChangedError,
    keeping,
    save_values,
)


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    return with_rows(make_engine(f"sqlite:///{tmp_path / 'games.sqlite'}"))


@pytest.fixture
def postgres_engine(postgres: Any) -> Engine:
    return with_rows(make_engine(postgres.new_database()))


def with_rows(engine: Engine) -> Engine:
    """``engine``'s database with its tables and a match's row for each way to save."""
    migrate(engine)
    stamp = now()
    with Session(engine) as session, session.begin():
        for match_id in ("by-sqlalchemy", "by-driver"):
            session.add(MatchRow(id=match_id, created_at=stamp, updated_at=stamp,
                                 settings={}, record={}, version=0))
    return engine


def played() -> Match:
    match = Match(3, dice=SeededDice(11))
    match.game.act(0, Act(Action.ROLL))
    return match


def rows(engine: Engine, table: str, match_id: str) -> list[tuple[Any, ...]]:
    """The rows of ``table`` for ``match_id``, as the database holds them, without the id."""
    column = "id" if table == "matches" else "match_id"
    with engine.connect() as connection:
        found = connection.execute(
            text(f"SELECT * FROM {table} WHERE {column} = :id"), {"id": match_id}
        )
        return [tuple(value for value in row if value != match_id) for row in found]


def version_of(engine: Engine, match_id: str) -> int:
    """The version of match ``match_id`` as its row holds it."""
    with engine.connect() as connection:
        version: int = connection.execute(
            text("SELECT version FROM matches WHERE id = :id"), {"id": match_id}).scalar_one()
    return version


def test_the_driver_writes_what_sqlalchemy_writes(engine: Engine) -> None:
    match, key = played(), KeptKey(1, "a-key", "a-digest")
    values = save_values("by-sqlalchemy", match, 1, 0, key)
    with engine.begin() as connection:
        assert connection.execute(SAVE, values).rowcount == 1
        connection.execute(keeping("sqlite")[0], values)
    driver = DriverSaves(engine, keeping("sqlite")[0])
    driver.save({**values, "match_id": "by-driver"}, keep=True)
    driver.close()
    for table in ("matches", "action_keys"):
        assert rows(engine, table, "by-driver") == rows(engine, table, "by-sqlalchemy") != []


def test_a_save_on_a_stale_version_writes_nothing(engine: Engine) -> None:
    driver = DriverSaves(engine, keeping("sqlite")[0])
    values = save_values("by-driver", played(), 1, 0, KeptKey(0, "k", "d"))
    driver.save(values, keep=True)
    def written() -> tuple[object, ...]:
        return rows(engine, "matches", "by-driver"), rows(engine, "action_keys", "by-driver")

    before = written()
    with pytest.raises(MatchChangedError):
        driver.save({**values, "the_key": "another"}, keep=True)  # on version 0 again
    assert written() == before
    driver.save({**values, "before": 1, "new_version": 2}, keep=False)  # the connection goes on
    assert version_of(engine, "by-driver") == 2


def test_a_failed_save_is_sqlalchemys_error_and_writes_nothing(engine: Engine) -> None:
    driver = DriverSaves(engine, keeping("sqlite")[0])
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE action_keys"))
    before = rows(engine, "matches", "by-driver")
    values = save_values("by-driver", played(), 1, 0, KeptKey(0, "k", "d"))
    with pytest.raises(DBAPIError, match="action_keys"):
        driver.save(values, keep=True)  # the row's write is taken back with the key's
    assert rows(engine, "matches", "by-driver") == before
    driver.save(values, keep=False)
    assert rows(engine, "matches", "by-driver") != before


def test_psycopgs_own_save_writes_what_sqlalchemy_writes(postgres_engine: Engine) -> None:
    engine = postgres_engine
    match, key = played(), KeptKey(1, "a-key", "a-digest")
    values = save_values("by-sqlalchemy", match, 1, 0, key)
    save_and_keep = keeping("postgresql")[1]
    assert save_and_keep is not None
    with engine.begin() as connection:
        assert len(connection.execute(save_and_keep, values).all()) == 1

    async def saved() -> list[Any]:
        saves = AsyncDriverSaves(engine, save_and_keep, 2)
        await saves.open()
        try:
            await saves.save({**values, "match_id": "by-driver"}, keep=True)
            with pytest.raises(MatchChangedError):  # on version 0 again: nothing written
                await saves.save({**values, "match_id": "by-driver", "the_key": "b"}, True)
            # A copy's question to its row: the record where the row is at another version.
            past = [await saves.record_past("by-driver", version) for version in (0, 1)]
            # A match over's question: its version and settings (none for no such match).
            asked = [await saves.settings(each) for each in ("by-driver", "no-such-match")]
            return past + asked
        finally:
            await saves.close()

    answers = asyncio.run(saved())
    with engine.connect() as connection:
        settings = connection.execute(
            select(MatchRow.settings).where(MatchRow.id == "by-driver")
        ).scalar()
    assert answers == [match.to_dict(secrets=True), None, (1, settings), None]
    for table in ("matches", "action_keys"):
        assert rows(engine, table, "by-driver") == rows(engine, table, "by-sqlalchemy") != []
    with engine.connect() as connection:  # the record as JSON, not a JSON string of it
        record = connection.execute(
            select(MatchRow.record).where(MatchRow.id == "by-driver")
        ).scalar()
    assert record == match.to_dict(secrets=True)


def test_a_failed_save_on_postgresql_is_sqlalchemys_error_and_writes_nothing(
    postgres_engine: Engine,
) -> None:
    engine = postgres_engine
    save_and_keep = keeping("postgresql")[1]
    assert save_and_keep is not None
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE action_keys"))
    before = rows(engine, "matches", "by-driver")
    values = save_values("by-driver", played(), 1, 0, KeptKey(0, "k", "d"))

    async def saved() -> None:
        saves = AsyncDriverSaves(engine, save_and_keep, 2)
        await saves.open()
        try:
            with pytest.raises(DBAPIError, match="action_keys"):
                await saves.save(values, keep=True)  # the row's write is taken back too
            assert rows(engine, "matches", "by-driver") == before
            await saves.save(values, keep=False)  # the pool goes on
        finally:
            await saves.close()

    asyncio.run(saved())
    assert rows(engine, "matches", "by-driver") != before


def test_psycopgs_saves_make_every_connection_at_the_start(postgres_engine: Engine) -> None:
    """The saves' pool is made whole before the first save: one that grew on demand made
    the saves of its first busy moment wait for new connections (a backend started, its
    catalogs read), and again after each quiet spell."""
    engine = postgres_engine
    others = text(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = :name"
        " AND pid <> pg_backend_pid()"
    )

    async def made() -> int:
        with engine.connect() as connection:
            count = {"name": engine.url.database}
            before = connection.execute(others, count).scalar_one()
            connection.commit()  # a transaction sees one snapshot of the statistics
            saves = AsyncDriverSaves(engine, keeping("postgresql")[1], 4)
            await saves.open()
            try:
                return connection.execute(others, count).scalar_one() - before
            finally:
                await saves.close()

    assert asyncio.run(made()) == 4


#: A statement with values of its own (the limit's) beside the ones given by name.
_LISTED = (
    select(MatchRow.id, MatchRow.version)
    .where(MatchRow.version >= bindparam("least"))
    .order_by(MatchRow.id)
    .limit(1)
)
#: A write that returns what it wrote.
_BUMPED = (
    update(MatchRow)
    .where(MatchRow.id == bindparam("match_id"))
    .values(version=MatchRow.version + 5)
    .returning(MatchRow.version)
)


def test_the_driver_sends_any_statement_and_answers_its_rows(engine: Engine) -> None:
    driver = DriverSaves(engine, keeping("sqlite")[0])
    assert driver.rows(_LISTED, {"least": 0}) == [("by-driver", 0)]  # the limit its own
    assert driver.rows(_BUMPED, {"match_id": "by-driver"}) == [(5,)]
    driver.close()
    assert version_of(engine, "by-driver") == 5  # committed


def test_psycopgs_driver_sends_any_statement_and_answers_its_rows(
    postgres_engine: Engine,
) -> None:
    async def sent() -> list[Any]:
        saves = AsyncDriverSaves(postgres_engine, keeping("postgresql")[1], 2)
        await saves.open()
        try:
            return [await saves.rows(_LISTED, {"least": 0}),
                    await saves.rows(_BUMPED, {"match_id": "by-driver"})]
        finally:
            await saves.close()

    assert asyncio.run(sent()) == [[("by-driver", 0)], [(5,)]]
    assert version_of(postgres_engine, "by-driver") == 5
