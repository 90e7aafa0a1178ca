"""An action's save: the statements that write a match's row in place of the version the
action was made on (and keep its idempotency key), made once, and the values they take.
:class:`.store.MatchStore` sends them; a save that finds another version raises
:class:`MatchChangedError`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, cast
from weakref import WeakKeyDictionary

import psycopg
from psycopg.types.json import set_json_dumps
from psycopg_pool import AsyncConnectionPool
from sqlalchemy import (
    CursorResult,
    Dialect,
    Engine,
    Executable,
    Integer,
    Select,
    String,
    Table,
    bindparam,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.dml import UpdateBase

from ...game import Game
from ...game.board_game import BoardGame
from ...game.match import BoardMatch, Match
from ..db import ActionKeyRow, JSONText, MatchRow, json_text, now
from .idempotency import KeptKey

#: Seconds the saves' connections to PostgreSQL may take to be made, at the start.
CONNECTING = 30.0


class MatchChangedError(RuntimeError):
    """The database holds another version of the match than the one an action was made on
    (another copy of it wrote first): the action is not kept."""


_MATCHES = cast(Table, MatchRow.__table__)
_KEYS = cast(Table, ActionKeyRow.__table__)
#: An action's write, made once: a statement built for each save, with the record's values in
#: it, cost more than the write itself.
SAVE = (
    update(_MATCHES)
    .where(_MATCHES.c.id == bindparam("match_id"), _MATCHES.c.version == bindparam("before"))
    .values(
        record=bindparam("new_record", type_=_MATCHES.c.record.type),
        version=bindparam("new_version"),
        updated_at=bindparam("stamp", type_=_MATCHES.c.updated_at.type),
    )
)
#: A match's record where its row holds another version than the one named, else no row: a
#: copy's one question to its row (:meth:`.store.MatchStore.current`).
RECORD_PAST = select(_MATCHES.c.record).where(
    _MATCHES.c.id == bindparam("match_id"), _MATCHES.c.version != bindparam("version")
)
#: A match's version and settings: the question to the row of a match over or unheld, whose
#: settings (a seat taken, a rematch offered) may change elsewhere without its version.
SETTINGS = select(_MATCHES.c.version, _MATCHES.c.settings).where(
    _MATCHES.c.id == bindparam("match_id")
)


def keeping(dialect: str) -> tuple[UpdateBase, UpdateBase | None]:
    """The statements that keep an action's key (:class:`.idempotency.KeptKey`) on the ``dialect``'s
    database: the key's write, made after the save in its transaction (the seat's row added
    or replaced), and, on PostgreSQL, the save and the key's write as one statement, its own
    transaction: one round trip instead of four (BEGIN, the save, the key, COMMIT), which
    returns the key's row exactly when the save found its version. ValueError for a
    database other than these two."""
    if dialect not in ("postgresql", "sqlite"):
        raise ValueError(f"The server keeps its matches in SQLite or PostgreSQL, not {dialect}.")
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    names = ["match_id", "seat", "key", "digest", "version"]

    def upsert(source: Select[Any]) -> postgresql.Insert | sqlite.Insert:
        keep = insert(_KEYS).from_select(names, source)
        return keep.on_conflict_do_update(
            index_elements=[_KEYS.c.match_id, _KEYS.c.seat],
            set_={name: keep.excluded[name] for name in names[2:]},
        )

    def key_of(match: Any) -> Select[Any]:
        return select(
            match,
            bindparam("the_seat", type_=Integer()),
            bindparam("the_key", type_=String()),
            bindparam("the_digest", type_=String()),
            bindparam("new_version", type_=Integer()),
        )

    after = upsert(key_of(bindparam("match_id", type_=String())))
    if dialect != "postgresql":
        return after, None
    saved = SAVE.returning(_MATCHES.c.id).cte("saved")
    # The row kept is returned: the count of an insert's rows is not told on every driver.
    return after, upsert(key_of(saved.c.id).select_from(saved)).returning(_KEYS.c.seat)


def save_values(
    match_id: str, match: Match | BoardMatch, version: int, before: int, key: KeptKey | None
) -> dict[str, Any]:
    """The values of a save's statements (:data:`SAVE`, :func:`keeping`)."""
    # The record's text, made mostly of its events' texts, each made once.
    values = {"match_id": match_id, "before": before,
              "new_record": JSONText(match.to_json(secrets=True, events=events_json)),
              "new_version": version, "stamp": now()}
    if key is not None:
        values.update(the_seat=key.seat, the_key=key.key, the_digest=key.digest)
    return values


#: Each game's events as JSON text, as its last save wrote them, and how many events that text
#: holds, by game (the live match's and the computer's copy's alike; a game no longer used
#: leaves with it). A match's record is written whole at each action, and a game's events are
#: only ever added: only the events since are written out.
_EVENTS: WeakKeyDictionary[Game | BoardGame, tuple[int, str]] = WeakKeyDictionary()


def events_json(game: Game | BoardGame) -> str:
    """``game``'s events as a JSON array (:func:`backgammon.game.match.events_json`), extended from
    the one made at its last save with the events since.

    >>> from backgammon.dice import ManualDice
    >>> from backgammon.game.match import events_json as written_whole
    >>> game = Match(3, dice=ManualDice(["6 1"])).game
    >>> events_json(game)
    '[]'
    >>> game.roll(0)
    >>> events_json(game) == written_whole(game) != '[]'
    True
    """
    made, text = _EVENTS.get(game, (0, ""))
    events = game.events
    if made != len(events):
        new = ",".join(event.text for event in events[made:])
        text = f"{text},{new}" if made else new
        _EVENTS[game] = (len(events), text)
    return f"[{text}]"


def check_saved(result: CursorResult[Any], match_id: str, key: KeptKey | None) -> None:
    """MatchChangedError unless the save alone (:func:`keeping`) found its version: the
    match's row written, or with a key, the key's row returned."""
    if (result.rowcount if key is None else len(result.all())) != 1:
        raise MatchChangedError(match_id)


class _Prepared(NamedTuple):
    """A statement compiled once for a dialect, to be sent to its driver as it is: its SQL,
    for each placeholder, the name of its value and what makes that value the driver's (the
    column type's own conversion, None where there is none), whether the driver takes
    them by name (psycopg's ``%(name)s``) or in order (SQLite's ``?``), and the values the
    statement holds itself (a limit's), used where none is given."""

    sql: str
    binds: tuple[tuple[str, Callable[[Any], Any] | None], ...]
    named: bool
    own: dict[str, Any]

    @classmethod
    def of(cls, statement: UpdateBase | Select[Any], dialect: Dialect) -> _Prepared:
        compiled = statement.compile(dialect=dialect)
        converters = {
            name: bind.type.dialect_impl(dialect).bind_processor(dialect)
            for name, bind in compiled.binds.items()
        }
        names = compiled.positiontup
        binds = tuple((name, converters[name]) for name in names or converters)
        own = {name: bind.value for name, bind in compiled.binds.items()
               if name in converters and bind.value is not None}
        return cls(compiled.string, binds, names is None, own)

    def bound(self, values: dict[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        """The placeholders' values, from the values by name."""
        if self.own:
            values = {**self.own, **values}
        pairs = (
            (name, values[name] if convert is None else convert(values[name]))
            for name, convert in self.binds
        )
        return dict(pairs) if self.named else tuple(value for _, value in pairs)


class _Statements:
    """Statements compiled for one dialect as they are first sent (:class:`_Prepared`): the
    module-level statements of the parts that write from the event loop, each compiled once."""

    def __init__(self, dialect: Dialect) -> None:
        self._dialect = dialect
        self._compiled: dict[int, tuple[Executable, _Prepared]] = {}

    def of(self, statement: Executable) -> _Prepared:
        """``statement`` compiled (kept with it, so that its id names it alone)."""
        kept = self._compiled.get(id(statement))
        if kept is None:
            kept = (statement, _Prepared.of(cast(UpdateBase, statement), self._dialect))
            self._compiled[id(statement)] = kept
        return kept[1]


class DriverSaves:
    """Actions' saves on SQLite, each (the match's row, and the action's key) sent on one
    connection of the driver's own, kept open: SQLAlchemy's way to a statement (a
    connection from the pool, a transaction, an execution context, a result) cost more CPU
    than SQLite's write (``bench/server/server.py``). The statements are SQLAlchemy's
    (:data:`SAVE`, and ``keep``, the key's write :func:`keeping` made), compiled once,
    their values converted by their columns' types; a failure is SQLAlchemy's error
    (:class:`~sqlalchemy.exc.DBAPIError`) as for any other write. For one thread at a time
    (the event loop's: SQLite's saves are made there, :meth:`.store.MatchStore._written`)."""

    def __init__(self, engine: Engine, keep: UpdateBase) -> None:
        dialect = engine.dialect
        assert dialect.name == "sqlite"
        self._error: type[Exception] = dialect.loaded_dbapi.Error
        self._save = _Prepared.of(SAVE, dialect)
        self._keep = _Prepared.of(keep, dialect)
        self._prepared = _Statements(dialect)
        # From the pool, so made as every connection is (the pragmas: db._sqlite_pragmas).
        self._connection = engine.raw_connection()

    def save(self, values: dict[str, Any], keep: bool) -> None:
        """Write the save of :func:`save_values` (and its key where ``keep``), all or nothing:
        MatchChangedError if the row holds another version than the one the save names."""
        with self._transaction() as send:
            if send(self._save, values).rowcount != 1:
                raise MatchChangedError(values["match_id"])
            if keep:
                send(self._keep, values)

    def rows(self, statement: Executable, values: dict[str, Any]) -> list[tuple[Any, ...]]:
        """Send ``statement`` with ``values``, committed: the rows it returns, as the driver
        gives them (SQLite's times as text)."""
        with self._transaction() as send:
            return [tuple(row) for row in send(self._prepared.of(statement), values)]

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Callable[[_Prepared, dict[str, Any]], Any]]:
        """A transaction on the connection, committed at the end, rolled back on any error:
        what it gives sends a statement with its values and returns the cursor. A driver's
        error is raised as SQLAlchemy's (:class:`~sqlalchemy.exc.DBAPIError`), with the
        statement it came from."""
        connection = self._connection
        cursor = connection.cursor()
        sent = [""]

        def send(statement: _Prepared, values: dict[str, Any]) -> Any:
            sent[0] = statement.sql
            cursor.execute(statement.sql, statement.bound(values))
            return cursor

        try:
            yield send
            connection.commit()
        except self._error as exc:
            with contextlib.suppress(self._error):
                connection.rollback()
            raise DBAPIError.instance(sent[0], None, exc, self._error) from exc
        except BaseException:
            with contextlib.suppress(self._error):
                connection.rollback()
            raise
        finally:
            cursor.close()

    def close(self) -> None:
        """Give the connection back (closed, when the pool is full)."""
        self._connection.close()


class AsyncDriverSaves:
    """Actions' saves on PostgreSQL, each one statement, its own transaction (the save, or
    with a key, the save and the key's write as one: :func:`keeping`), sent from the event
    loop on psycopg's asyncio connections, at most ``size`` at once, kept open in psycopg's
    pool (``psycopg_pool``). SQLAlchemy's asynchronous engine, on the same connections, spent
    more than twice the client's CPU of the driver's own call on a save (about 390 against
    120 to 175 µs, a loop of saves), each of its steps (the pool, the transaction, the
    execution context, the result) run in a greenlet. The statements are SQLAlchemy's,
    compiled once, their values converted by their columns' types; a failure is SQLAlchemy's
    error (:class:`~sqlalchemy.exc.DBAPIError`) as for any other write. Open it, use it and
    close it in one event loop (the app's)."""

    def __init__(self, engine: Engine, keep: UpdateBase, size: int) -> None:
        dialect = engine.dialect
        assert dialect.name == "postgresql"
        self._save = _Prepared.of(SAVE, dialect)
        self._keep = _Prepared.of(keep, dialect)
        self._record_past = _Prepared.of(RECORD_PAST, dialect)
        self._settings = _Prepared.of(SETTINGS, dialect)
        self._prepared = _Statements(dialect)
        url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        # Every connection made at the start and kept: a pool that grew on demand made its
        # saves wait for a new connection (a backend started, its catalogs read) at the first
        # busy moment, and again after each quiet spell (its idle connections closed).
        self._pool = AsyncConnectionPool(
            url, min_size=size, max_size=size, open=False, kwargs={"autocommit": True},
            configure=_writes_json_text,
        )

    async def open(self) -> None:
        """Start the pool, once its connections are made (PoolTimeout where they cannot be
        within ``CONNECTING`` seconds)."""
        await self._pool.open(wait=True, timeout=CONNECTING)

    async def save(self, values: dict[str, Any], keep: bool) -> None:
        """Write the save of :func:`save_values` (with its key's where ``keep``), all or
        nothing: MatchChangedError if the row holds another version than the one it names."""
        statement = self._keep if keep else self._save
        try:
            async with self._pool.connection() as connection:
                cursor = await connection.execute(statement.sql, statement.bound(values))
                # With a key, the key's row is returned exactly when the save found its
                # version (the count of an insert's rows is not told).
                found = len(await cursor.fetchall()) if keep else cursor.rowcount
        except psycopg.Error as exc:  # the pool's timeout too
            raise DBAPIError.instance(statement.sql, None, exc, psycopg.Error) from exc
        if found != 1:
            raise MatchChangedError(values["match_id"])

    async def record_past(self, match_id: str, version: int) -> dict[str, Any] | None:
        """The match's record where its row holds another version than ``version``, else
        None (:data:`RECORD_PAST`), read on the same connections: from the event loop, a
        read costs less than in a worker thread through SQLAlchemy's engine."""
        row = await self._read(self._record_past, {"match_id": match_id, "version": version})
        return None if row is None else cast(dict[str, Any], row[0])

    async def settings(self, match_id: str) -> tuple[int, dict[str, Any]] | None:
        """The match's version and settings (:data:`SETTINGS`), None for no such match, read
        as :meth:`record_past` reads."""
        row = await self._read(self._settings, {"match_id": match_id})
        return None if row is None else (int(row[0]), cast(dict[str, Any], row[1]))

    async def _read(self, statement: _Prepared, values: dict[str, Any]) -> tuple[Any, ...] | None:
        """The first row ``statement`` reads with ``values``, if any."""
        try:
            async with self._pool.connection() as connection:
                cursor = await connection.execute(statement.sql, statement.bound(values))
                return await cursor.fetchone()
        except psycopg.Error as exc:  # the pool's timeout too
            raise DBAPIError.instance(statement.sql, None, exc, psycopg.Error) from exc

    async def rows(self, statement: Executable, values: dict[str, Any]) -> list[tuple[Any, ...]]:
        """Send ``statement`` with ``values``, its own transaction: the rows it returns."""
        prepared = self._prepared.of(statement)
        try:
            async with self._pool.connection() as connection:
                cursor = await connection.execute(prepared.sql, prepared.bound(values))
                return await cursor.fetchall() if cursor.description is not None else []
        except psycopg.Error as exc:  # the pool's timeout too
            raise DBAPIError.instance(prepared.sql, None, exc, psycopg.Error) from exc

    async def close(self) -> None:
        """Close the pool's connections."""
        await self._pool.close()


async def _writes_json_text(connection: psycopg.AsyncConnection[Any]) -> None:
    """Have ``connection`` write JSON values as SQLAlchemy's do (:func:`.db.json_text`: a
    record's text made already, as it is), which the JSON columns' conversion expects."""
    set_json_dumps(json_text, connection)
