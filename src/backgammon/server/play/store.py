"""The matches being played: kept in memory while in use, written through to the database.

The database is the source of truth. Each accepted action is saved, in one write, before its
answer goes out, so the database always holds the record the players last saw. A save names
the version it was made on and is refused if the database holds another
(:class:`MatchChangedError`), so two copies of a match can never both write; the copy that
lost is marked stale and read again from its row before it is next used
(:meth:`MatchStore.current`). With a database that several processes share (``shared``:
anything but SQLite), the row is the only truth: a copy is what this process last read of
it, every read of a match first asks the row whether it has moved on, and every write names
its version; a copy behind it takes the events it lacks from the row's record, one at a
time, each shown to the watching pages (:mod:`.copies`). Other processes' notices
(:mod:`.relay`) only say that a row moved on. A match not in memory (after a restart) is
rebuilt by replaying its record; seeded dice then resume where the record left them, so they
go on exactly as they would have.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import Connection, Engine, Executable, insert
from starlette.concurrency import run_in_threadpool

from ..db import SAVING_CONNECTIONS, MatchRow, now
from .copies import catch_up
from .idempotency import KeptKey
from .live import AnyMatch, LiveMatch, Rematching, SeatSettings, events_in
from .match_rows import MatchRows, UnknownMatchError, new_match_id, row_values
from .saves import AsyncDriverSaves, save_values
from .seats import Seating

log = logging.getLogger(__name__)


class MatchStore:
    """Loads, caches and saves matches; one per app.

    At most ``most`` matches stay in memory, and none unused for ``idle`` seconds, except
    those in use: an action or the computer under way, or a page watching (``watched``).
    A match that left memory is loaded again from the database when next asked for.
    ``shared``: other processes write to the database too, so a copy is checked against its
    row before use. ``shown`` is called with the match after each event a copy takes from
    its row (the hub shows it to the pages), ``saved`` with a match's id and new version
    after each write (the relay tells the other processes), ``heard`` (:meth:`heard`) by
    the relay when another process has written a match.
    """

    def __init__(
        self,
        engine: Engine,
        most: int = 1000,
        idle: float = 600.0,
        watched: Callable[[str], bool] = lambda _id: False,
        *,
        shared: bool = False,
        shown: Callable[[LiveMatch, bool], None] | None = None,
        saved: Callable[[str, int], None] | None = None,
    ) -> None:
        self.engine = engine
        #: The statements on the matches' rows, sent as :meth:`_written` says.
        self.table = MatchRows(engine, shared=shared)
        # On PostgreSQL, the actions' saves from the event loop (:meth:`open`), and that loop.
        self._saves: AsyncDriverSaves | None = None
        self._saves_loop: asyncio.AbstractEventLoop | None = None
        self.most = most
        self.idle = idle
        self.watched = watched
        self.shared = shared
        #: Show the pages the state ``live`` has come to (one event taken from its row);
        #: ``again``: read from its row whole, it may be new at the version they were shown
        #: (a seat taken elsewhere).
        self.shown: Callable[[LiveMatch, bool], None] = shown or (lambda _live, _again: None)
        self.saved: Callable[[str, int], None] = saved or (lambda _id, _version: None)
        # The refreshing tasks under way, kept so that they are not collected before they end.
        self._tasks: set[asyncio.Task[None]] = set()
        # By last use, the least recent first, with the time of that use.
        self._live: OrderedDict[str, tuple[LiveMatch, float]] = OrderedDict()

    def __contains__(self, match_id: object) -> bool:
        """Whether the match is in memory."""
        return match_id in self._live

    async def add(
        self,
        match: AnyMatch,
        seats: tuple[SeatSettings, SeatSettings],
        seed: int | None,
        seating: Seating,
    ) -> LiveMatch:
        """Store a new match and keep it in memory."""
        live = LiveMatch(new_match_id(), match, seats, seed, now(), seating)
        await self._written(self.table.insert, live)
        self._keep(live)
        return live

    @staticmethod
    def add_on(connection: Connection, live: LiveMatch) -> None:
        """Write the row of the new match ``live`` in ``connection``'s transaction, committed
        or rolled back with what else it writes (a tournament's round and its matches, made
        exactly once). No copy is kept: the first use reads the row."""
        connection.execute(insert(MatchRow).values(**row_values(live)))

    async def get(self, match_id: str) -> LiveMatch:
        """The match with this id, from memory or rebuilt from the database."""
        kept = self._live.get(match_id)
        if kept is not None:
            return self._keep(kept[0])
        loaded = await run_in_threadpool(self.table.load, match_id)
        # Another request may have loaded it meanwhile: keep one copy, and one lock.
        kept = self._live.get(match_id)
        return self._keep(loaded if kept is None else kept[0])

    def _keep(self, live: LiveMatch) -> LiveMatch:
        """Note ``live``'s use now, and let the matches unused too long leave memory."""
        stamp = time.monotonic()
        self._live[live.id] = (live, stamp)
        self._live.move_to_end(live.id)
        # From the least recent on, and only as far as needed: the loop runs at every use.
        leaving = []
        kept = len(self._live)
        for match_id, (other, used) in self._live.items():
            if match_id == live.id or (kept <= self.most and stamp - used < self.idle):
                break  # the rest were used later
            if not self._in_use(other):
                leaving.append(match_id)
                kept -= 1
        for match_id in leaving:
            del self._live[match_id]
        return live

    def _in_use(self, live: LiveMatch) -> bool:
        return (
            live.lock.locked()
            or live.computer_queued
            or live.refresh_queued
            or self.watched(live.id)
        )

    def cached(self, match_id: str) -> LiveMatch | None:
        """The match's copy in this process's memory, if any (its use is not noted)."""
        kept = self._live.get(match_id)
        return None if kept is None else kept[0]

    async def fresh(self, live: LiveMatch) -> LiveMatch:
        """``live`` as committed: once a write under way is done (the copy may hold an
        action not yet committed), and brought up to its row where it may be behind (a
        failed save; on a shared database, another process's actions). While an action or
        the computer's turn holds its lock, the copy is answered as it is only where its
        row holds what it does (or the computer's action being shown, saved whole): the
        holder acts on the copy as it stands, and may take long (the computer shows its
        steps one at a time), so a read that did not ask the row could answer an action
        behind another process's, committed before it was asked. Where the row has moved
        on, the read waits for the lock and brings the copy up to it."""
        while True:
            await live.written.wait()
            if not (self.shared or live.stale):
                return live
            if live.stale or not live.lock.locked():
                async with live.lock:
                    await self.current(live)
                return live
            showing = live.version if live.showing is None else live.showing
            if not await self._holds_row(live, showing):
                async with live.lock:
                    await self.current(live)
                return live
            # The row was asked while the holder went on: it may have begun a write meanwhile
            # (the copy then holds an action not yet committed), or failed one.
            if live.written.is_set() and not live.stale:
                return live

    async def current(self, live: LiveMatch) -> None:
        """Bring ``live`` up to its row: call with its lock held, before acting on it. Alone
        on the database, only a copy whose save failed is read again; shared, the row is
        asked whether it holds another version than this copy (one statement, which returns
        the record only then), and a copy behind it takes the events it lacks from that
        record, one at a time, each shown (:attr:`shown`). A copy that cannot (its save
        failed, a seat taken elsewhere, a game begun there) is read whole. A match over or
        unheld is asked for its version and settings instead, and read whole only where
        they differ from the copy's."""
        if not (self.shared or live.stale):
            return
        if live.seating.unheld or live.match.is_over:
            # An unheld match's seats may have been taken elsewhere, and a match over may
            # have had its rematch offered or answered there: either changes its settings,
            # not its version, so the row's settings are asked for instead.
            if not live.stale and await self._holds_row(live, live.version):
                return
        elif not live.stale:
            record = await self._read_record_past(live.id, live.version)
            if record is None:
                return
            # Only the events this copy lacks are applied: replaying the whole record costs
            # tens of times more. A match that waited for its opponent is read whole: the
            # seat taken is in its settings too.
            if live.seating.invite is None and catch_up(live, record, self.shown):
                return
        live.adopt(await run_in_threadpool(self.table.load, live.id))
        self.shown(live, True)

    async def _holds_row(self, live: LiveMatch, version: int) -> bool:
        """Whether ``live``'s row holds ``version`` and the seats and rematch ``live`` does."""
        if self._saves is not None and self._saves_loop is asyncio.get_running_loop():
            row = await self._saves.settings(live.id)
        else:
            row = await run_in_threadpool(self.table.settings, live.id)
        if row is None:
            raise UnknownMatchError(live.id)
        row_version, settings = row
        return (
            row_version == version
            and Seating.from_dict(settings.get("seating", {})) == live.seating
            and Rematching.from_dict(settings.get("rematch", {})) == live.rematch
        )

    async def _read_record_past(self, match_id: str, version: int) -> dict[str, Any] | None:
        """:meth:`.MatchRows.record_past`: from the event loop on PostgreSQL's asyncio connections
        where the saves are made there (:meth:`open`), else in a worker thread."""
        if self._saves is not None and self._saves_loop is asyncio.get_running_loop():
            return await self._saves.record_past(match_id, version)
        return await run_in_threadpool(self.table.record_past, match_id, version)

    def heard(self, match_id: str, version: int) -> None:
        """Another process has written version ``version`` of the match (the relay's
        notice): a copy kept here that is behind it, that waits for its opponent (the
        seat taken elsewhere changes its settings too) or that is over (its rematch changes
        its settings, not its version), is brought up to its row in the background, so that
        the pages watching it here see the change."""
        live = self.cached(match_id)
        if live is not None and (
            live.version < version or live.seating.invite is not None or live.match.is_over
        ):
            self.refresh_soon(live)

    def refresh_soon(self, live: LiveMatch) -> None:
        """Bring ``live`` up to its row in the background, once its lock is free (unless a
        refresh waits for it already)."""
        if live.refresh_queued:
            return
        live.refresh_queued = True

        async def refresh() -> None:
            async with live.lock:
                live.refresh_queued = False
                try:
                    await self.current(live)
                except Exception:
                    # The next use of the match reads its row again.
                    log.exception("match %s could not be brought up to its row", live.id)

        task = asyncio.get_running_loop().create_task(refresh())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Wait until the refreshing tasks under way have ended (a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def open(self) -> None:
        """Save the actions from the running event loop (the app's, at its start) where the
        database is PostgreSQL (:class:`.saves.AsyncDriverSaves`); on SQLite, before this,
        and in another loop (its connections belong to this one), saves are made as every
        other write is (:meth:`_written`)."""
        if self.engine.dialect.name == "postgresql" and self._saves is None:
            keeping = self.table.save_keeping
            assert keeping is not None  # PostgreSQL's: the save and key as one
            saves = AsyncDriverSaves(self.engine, keeping, SAVING_CONNECTIONS)
            await saves.open()
            self._saves, self._saves_loop = saves, asyncio.get_running_loop()

    async def close(self) -> None:
        """Stop saving from the event loop (the app's end), its connections closed (and on
        SQLite, the saves' own)."""
        saves, self._saves = self._saves, None
        if saves is not None and self._saves_loop is asyncio.get_running_loop():
            await saves.close()
        self._saves_loop = None
        self.table.close()

    async def save(
        self,
        live: LiveMatch,
        before: int,
        match: AnyMatch | None = None,
        key: KeptKey | None = None,
        also: Callable[[Connection], None] | None = None,
    ) -> None:
        """Write the record of ``match`` (the live match by default) in place of version
        ``before``, with the action's ``key`` and what ``also`` writes (a match's result),
        all or nothing, and tell :attr:`saved`; on failure (MatchChangedError if
        the database no longer holds version ``before``, or the database's error), mark the
        match stale, so that it is read again from its row before it is next used."""
        match = match or live.match
        version = live.version if match is live.match else events_in(match)
        if also is None and self._saves_loop is asyncio.get_running_loop():
            await self._write(live, self._saved_alone, live.id, match, version, before, key)
        else:
            await self._write(live, self._written, self.table.update, live.id, match, version,
                              before, key, also)
        self.saved(live.id, version)

    async def save_seating(
        self,
        live: LiveMatch,
        invite: str,
        before: int,
        also: Callable[[Connection], None] | None = None,
    ) -> None:
        """Write ``live``'s seating and record (the seat taken, a player's name) in place of
        version ``before``, whose open invite has the digest ``invite``, in one transaction
        with what ``also`` writes (the joiner's account): MatchChangedError if the database
        no longer holds that invite (it was spent meanwhile, elsewhere). On failure the match
        is marked stale, read again from its row before it is next used."""
        await self._write(live, self._written, self.table.update_seating, live, invite, before,
                          also)
        self.saved(live.id, live.version)  # the other processes read the seat taken

    async def save_taken(self, live: LiveMatch) -> None:
        """Write ``live``'s seating, whose seats the first who asked has just taken (a match
        saved before seats had tokens): MatchChangedError if the row's were taken meanwhile,
        elsewhere. On failure the match is marked stale, read again before it is next used."""
        await self._write(live, self._written, self.table.update_taken, live)

    async def save_rematch(
        self,
        live: LiveMatch,
        step: int,
        started: LiveMatch | None,
        also: Callable[[Connection], None] | None = None,
    ) -> None:
        """Write ``live``'s rematch (offered, declined, or ``started``: the new match, stored
        and kept in memory) in place of its change number ``step``, in one transaction with
        what ``also`` writes (the new match's accounts): MatchChangedError if the row's
        rematch has changed meanwhile, elsewhere. On failure the match is marked stale, read
        again from its row before it is next used."""
        await self._write(live, self._written, self.table.update_rematch, live, step, started,
                          also)
        if started is not None:
            self._keep(started)
        self.saved(live.id, live.version)  # the other processes read the rematch

    async def add_tutor_note(self, live: LiveMatch, note: dict[str, Any]) -> None:
        """Keep a tutor's warning with ``live``: added to the notes its row holds (another
        process's copy may have added one since this copy was read), where the row still
        holds its version, and ``live``'s notes made the row's. MatchChangedError if the row
        has moved on (the match is then marked stale, read again before it is next used)."""
        await self._write(live, self._written, self.table.add_note, live, note)

    async def _write(
        self, live: LiveMatch, write: Callable[..., Awaitable[None]], *args: Any
    ) -> None:
        """``await write(*args)``; on failure ``live`` is marked stale (the database may hold
        another version than this copy), and the error goes on."""
        live.written.clear()
        try:
            await write(*args)
        except BaseException:  # cancelled too: the save may or may not have been made
            live.stale = True
            raise
        finally:
            live.written.set()

    async def _written(self, write: Callable[..., None], *args: Any) -> None:
        """``write(*args)``: in a worker thread where the database is a server's (its round
        trips and its commit's flush to disk would hold up every request); in this thread for
        SQLite, whose commit of an action writes to the log in the operating system's memory
        and returns in a tenth of a millisecond, less than the hand-over to a worker thread
        and back costs (half a millisecond of CPU an action under load). SQLite's writes
        then take turns by themselves, and the log's flushes to disk are a thread's of their
        own (:class:`.db.Checkpoints`). The cost: while another part of the app writes in a
        worker thread (a sign-in, an analysis's result, a rating), a save waits for its end
        in SQLite's busy handler, and every request with it; those writes are rare and
        short."""
        if self.shared:
            await run_in_threadpool(write, *args)
        else:
            write(*args)

    async def rows(self, statement: Executable, values: dict[str, Any]) -> list[tuple[Any, ...]]:
        """Send ``statement`` (a module-level one: it is compiled once) with ``values``, its own
        transaction, the way the actions' saves are sent: from the event loop on the saves'
        own connections (PostgreSQL once :meth:`open`, SQLite served from this process
        alone), else in a worker thread through the engine. The rows it returns, as the
        driver gives them on the saves' connections (SQLite's times as text). For the
        frequent small writes beside the actions' (a chat message): SQLAlchemy's way and the
        hand-over to a worker thread cost more CPU than the write itself."""
        if self._saves is not None and self._saves_loop is asyncio.get_running_loop():
            return await self._saves.rows(statement, values)
        if self.table.drives:
            return self.table.driver_saves().rows(statement, values)
        return await run_in_threadpool(self.table.rows, statement, values)

    async def _saved_alone(
        self, match_id: str, match: AnyMatch, version: int, before: int, key: KeptKey | None
    ) -> None:
        """:meth:`.MatchRows.update`, without ``also``, from the event loop (:meth:`open`)."""
        assert self._saves is not None  # opened: PostgreSQL's
        values = save_values(match_id, match, version, before, key)
        await self._saves.save(values, key is not None)
