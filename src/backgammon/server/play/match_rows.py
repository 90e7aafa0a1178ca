"""The statements on the matches' rows: a new match's row written, a save, a seat taken, a
rematch, a tutor's note, and the reads of a row (its record past a version, its settings, the
match whole). Each is made in the calling thread, its own transaction;
:class:`.store.MatchStore` says which thread (a worker thread where the database is a
server's), keeps the copies and marks one stale when a write of it failed.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine, Executable, func, insert, select, update
from sqlalchemy.orm import Session

from ...dice import SeededDice
from ..db import MatchRow, autocommitting, now
from .idempotency import KeptKey
from .live import AnyMatch, LiveMatch, Rematching, SeatSettings, match_from_dict
from .saves import (
    RECORD_PAST,
    SAVE,
    SETTINGS,
    DriverSaves,
    MatchChangedError,
    check_saved,
    keeping,
    save_values,
)
from .seats import Seating


class UnknownMatchError(LookupError):
    """No match has this id."""


def new_match_id() -> str:
    """A new match's id: random, 16 characters."""
    return secrets.token_urlsafe(12)


class MatchRows:
    """The statements on the matches' rows of ``engine``'s database, one :class:`.store.
    MatchStore`'s. ``shared``: other processes write to the database too."""

    def __init__(self, engine: Engine, *, shared: bool = False) -> None:
        self.engine = engine
        # For the statements that are each their own transaction: the reads, and a save
        # made in one statement (:meth:`_alone_statement`).
        self._alone = autocommitting(engine)
        self.keep_key, self.save_keeping = keeping(engine.dialect.name)
        #: On SQLite served from this process alone (saves made in its event loop), the
        #: actions' saves are sent on a connection of their own (:meth:`driver_saves`).
        self.drives = engine.dialect.name == "sqlite" and not shared
        self._driver: DriverSaves | None = None

    def close(self) -> None:
        """Close the saves' own connection, if one was made."""
        driver, self._driver = self._driver, None
        if driver is not None:
            driver.close()

    def update_seating(
        self,
        live: LiveMatch,
        invite: str,
        before: int,
        also: Callable[[Connection], None] | None,
    ) -> None:
        with self.engine.begin() as connection:
            written = connection.execute(
                update(MatchRow)
                .where(
                    MatchRow.id == live.id,
                    MatchRow.version == before,
                    MatchRow.invite_digest == invite,
                    MatchRow.waiting,
                )
                .values(
                    **live.seating.columns(),
                    settings=live.settings(),
                    record=live.match.to_dict(secrets=True),
                    version=live.version,
                    updated_at=now(),
                )
            )
            if written.rowcount != 1:
                raise MatchChangedError(live.id)
            if also is not None:
                also(connection)

    def update_rematch(
        self,
        live: LiveMatch,
        step: int,
        started: LiveMatch | None,
        also: Callable[[Connection], None] | None,
    ) -> None:
        kept = func.coalesce(MatchRow.settings["rematch"]["step"].as_integer(), 0)
        with self.engine.begin() as connection:
            if started is not None:
                connection.execute(insert(MatchRow).values(row_values(started)))
            written = connection.execute(
                update(MatchRow)
                .where(MatchRow.id == live.id, MatchRow.version == live.version, kept == step)
                .values(settings=live.settings(), updated_at=now())
            )
            if written.rowcount != 1:
                raise MatchChangedError(live.id)
            if also is not None:
                also(connection)

    def add_note(self, live: LiveMatch, note: dict[str, Any]) -> None:
        with self.engine.begin() as connection:
            # Locked until the write (on SQLite, the write takes the database's lock and
            # fails rather than overwrite a note written meanwhile).
            settings = connection.execute(
                select(MatchRow.settings)
                .where(MatchRow.id == live.id, MatchRow.version == live.version)
                .with_for_update()
            ).scalar()
            if settings is None:
                raise MatchChangedError(live.id)
            notes = (*settings.get("tutor", ()), note)
            connection.execute(
                update(MatchRow)
                .where(MatchRow.id == live.id)
                .values(settings={**settings, "tutor": list(notes)}, updated_at=now())
            )
        live.tutor = notes

    def update_taken(self, live: LiveMatch) -> None:
        unheld = MatchRow.settings["seating"]["unheld"].as_boolean()
        with self.engine.begin() as connection:
            written = connection.execute(
                update(MatchRow)
                .where(MatchRow.id == live.id, unheld)
                .values(settings=live.settings(), updated_at=now())
            )
            if written.rowcount != 1:
                raise MatchChangedError(live.id)

    def insert(self, live: LiveMatch) -> None:
        with Session(self.engine) as session, session.begin():
            session.add(MatchRow(**row_values(live)))

    def update(
        self,
        match_id: str,
        match: AnyMatch,
        version: int,
        before: int,
        key: KeptKey | None,
        also: Callable[[Connection], None] | None,
    ) -> None:
        # The record is written out here (in a worker thread where the database is a server's
        # and the save is not made from the event loop): the match does not change meanwhile
        # (its lock is held, or it is the computer's shadow).
        values = save_values(match_id, match, version, before, key)
        if also is None and self.drives:
            self.driver_saves().save(values, key is not None)
            return
        alone = self._alone_statement(key)
        if also is None and alone is not None:
            with self._alone.connect() as connection:
                check_saved(connection.execute(alone, values), match_id, key)
            return
        with self.engine.begin() as connection:
            if connection.execute(SAVE, values).rowcount != 1:
                raise MatchChangedError(match_id)
            if key is not None:
                connection.execute(self.keep_key, values)
            if also is not None:
                also(connection)

    def driver_saves(self) -> DriverSaves:
        """The saves' own connection on SQLite (:attr:`drives`), made at the first use."""
        if self._driver is None:
            self._driver = DriverSaves(self.engine, self.keep_key)
        return self._driver

    def rows(self, statement: Executable, values: dict[str, Any]) -> list[tuple[Any, ...]]:
        with self.engine.begin() as connection:
            result = connection.execute(statement, values)
            return [tuple(row) for row in result] if result.returns_rows else []

    def _alone_statement(self, key: KeptKey | None) -> Executable | None:
        """The save (with the action's ``key``) as one statement, its own transaction (on
        PostgreSQL one round trip, where a transaction takes three or four); None on SQLite
        with a key (two statements)."""
        return SAVE if key is None else self.save_keeping

    def record_past(self, match_id: str, version: int) -> dict[str, Any] | None:
        """The row's record where the row holds another version than ``version``, else
        None (:data:`.saves.RECORD_PAST`): one round trip, which carries the record only
        when it is needed."""
        with self._alone.connect() as connection:
            record: dict[str, Any] | None = connection.execute(
                RECORD_PAST, {"match_id": match_id, "version": version}
            ).scalar()
        return record

    def settings(self, match_id: str) -> tuple[int, dict[str, Any]] | None:
        """The match's version and settings (:data:`.saves.SETTINGS`), None for no such
        match."""
        with self._alone.connect() as connection:
            row = connection.execute(SETTINGS, {"match_id": match_id}).one_or_none()
        return None if row is None else (row.version, row.settings)

    def load(self, match_id: str) -> LiveMatch:
        with Session(self.engine) as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                raise UnknownMatchError(match_id)
            settings, record, created = row.settings, row.record, row.created_at
        seed = settings.get("seed")
        # Seeded dice go on from the rolls the record has drawn, as they would have; fair
        # dice (and an old record's secure ones) come from the record.
        dice = None if seed is None else SeededDice(seed)
        match = match_from_dict(record, dice, resume=True)
        first, second = (SeatSettings.from_dict(seat) for seat in settings["seats"])
        seating = Seating.from_dict(settings.get("seating", {}))
        rematch = Rematching.from_dict(settings.get("rematch", {}))
        tutor = tuple(settings.get("tutor", ()))
        return LiveMatch(match_id, match, (first, second), seed, created, seating, rematch, tutor)


def row_values(live: LiveMatch) -> dict[str, Any]:
    """The columns of a new match's row."""
    stamp = now()
    return {
        "id": live.id,
        "created_at": stamp,
        "updated_at": stamp,
        "settings": live.settings(),
        **live.seating.columns(),
        "record": live.match.to_dict(secrets=True),
        "version": live.version,
        "game": live.match.plays,
    }
