"""Where several processes share a database, the row is a match's only truth: a process's
copy is what it last read, brought up to its row before each use, taking from the row's
record the events it lacks, each shown to the watching pages, or read whole where the record
does not go on from it (:meth:`backgammon.server.play.store.MatchStore.current`). Other
processes' notices only say that a row moved on (:meth:`~backgammon.server.play.store.
MatchStore.heard`). Two stores on one database, each checking its row, play the two
processes."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any, Literal, cast

import pytest
from test_api import act, client_for, create, next_action, state_of

from backgammon.fairdice import FairMatchDice
from backgammon.game import Act, Action
from backgammon.game.match import Match
from backgammon.server import Settings
from backgammon.server.db import make_engine, migrate
from backgammon.server.play.live import LiveMatch, SeatSettings
from backgammon.server.play.rematches import offered
from backgammon.server.play.saves import MatchChangedError
from backgammon.server.play.seats import Seating
from backgammon.server.play.store import MatchStore
from backgammon.server.play.views import Shown
from backgammon.server.play.watchers import Hub
from backgammon.server.settings import sqlite_url

HUMANS = (SeatSettings("human"), SeatSettings("human"))


def two_stores(tmp_path: Path) -> tuple[MatchStore, MatchStore, list[int]]:
    """Two processes' stores on one database, and the versions the first tells of."""
    engine = make_engine(sqlite_url(tmp_path / "games.sqlite"))
    migrate(engine)
    told: list[int] = []
    one = MatchStore(engine, shared=True, saved=lambda _id, version: told.append(version))
    return one, MatchStore(engine, shared=True), told


async def act_and_save(store: MatchStore, live: LiveMatch, count: int) -> None:
    """``count`` actions (rolls, steps, confirms: the first on offer), each saved alone."""
    for _ in range(count):
        async with live.lock:
            game, before = live.match.game, live.version
            seat = 0 if game.player_to_act is None else game.player_to_act
            offered = game.legal_actions(seat)
            if Action.ROLL in offered:
                game.act(seat, Act(Action.ROLL))
            elif Action.CONFIRM in offered:
                game.act(seat, Act(Action.CONFIRM))
            else:
                assert game.turn is not None
                game.act(seat, Act(Action.STEP, step=game.turn.legal_steps()[0]))
            await store.save(live, before)


async def first_game_resigned(store: MatchStore, live: LiveMatch) -> None:
    """The opening roll, then a single game resigned by the player on roll, saved at once."""
    async with live.lock:
        game, before = live.match.game, live.version
        while game.dice is None:  # an opening roll may be a tie
            game.roll(0 if game.player_to_act is None else game.player_to_act)
        game.resign(game.on_roll)
        game.accept(1 - game.on_roll)
        await store.save(live, before)


async def begun(one: MatchStore, other: MatchStore) -> tuple[LiveMatch, LiveMatch]:
    """A new match with fair dice, added through ``one``, and ``other``'s copy of it."""
    live = await one.add(Match(3, dice=FairMatchDice()), HUMANS, None, Seating())
    return live, await other.get(live.id)


def counted_reads(store: MatchStore) -> list[str]:
    """The rows ``store`` reads from now on, in order: ``"whole"`` for a match read whole,
    ``"record"`` for its row asked whether it moved on (its record returned if so),
    ``"settings"`` for its version and settings asked for."""
    reads: list[str] = []
    table = store.table
    load, record, settings = table.load, table.record_past, table.settings

    def loaded(match_id: str) -> LiveMatch:
        reads.append("whole")
        return load(match_id)

    def recorded(match_id: str, version: int) -> dict[str, Any] | None:
        reads.append("record")
        return record(match_id, version)

    def asked(match_id: str) -> tuple[int, dict[str, Any]] | None:
        reads.append("settings")
        return settings(match_id)

    table.load, table.record_past = loaded, recorded  # type: ignore[method-assign]
    table.settings = asked  # type: ignore[method-assign]
    return reads


async def brought_up(store: MatchStore, copy: LiveMatch) -> None:
    async with copy.lock:
        await store.current(copy)


def same(copy: LiveMatch, live: LiveMatch) -> bool:
    return copy.match.to_dict(secrets=True) == live.match.to_dict(secrets=True)


def test_a_copy_behind_its_row_takes_each_event_it_lacks_from_one_read(tmp_path: Path) -> None:
    one, other, _ = two_stores(tmp_path)
    shown: list[tuple[int, bool]] = []
    other.shown = lambda live, again: shown.append((live.version, again))

    async def scenario() -> tuple[LiveMatch, LiveMatch, int]:
        live, copy = await begun(one, other)
        start = copy.version
        await act_and_save(one, live, 8)
        reads = counted_reads(other)
        await brought_up(other, copy)
        assert reads == ["record"]
        return live, copy, start

    live, copy, start = asyncio.run(scenario())
    assert shown == [(version, False) for version in range(start + 1, live.version + 1)]
    assert copy.version == live.version and same(copy, live)


def test_a_copy_at_its_rows_version_is_asked_once_and_takes_nothing(tmp_path: Path) -> None:
    one, other, _ = two_stores(tmp_path)
    shown: list[int] = []
    other.shown = lambda live, _again: shown.append(live.version)

    async def scenario() -> list[str]:
        live, copy = await begun(one, other)
        await act_and_save(one, live, 3)
        await brought_up(other, copy)
        reads = counted_reads(other)
        shown.clear()
        await brought_up(other, copy)
        return reads

    assert asyncio.run(scenario()) == ["record"] and shown == []


def test_a_copy_whose_row_began_a_new_game_is_read_whole(tmp_path: Path) -> None:
    """A new game's fair dice were drawn by the process that began it: only the row's are
    the match's, so the copy is read whole and shown once, as a state that may be new."""
    one, other, _ = two_stores(tmp_path)
    shown: list[bool] = []
    other.shown = lambda _live, again: shown.append(again)

    async def scenario() -> tuple[LiveMatch, LiveMatch, list[str]]:
        live, copy = await begun(one, other)
        await first_game_resigned(one, live)
        assert len(live.match.games) == 2
        reads = counted_reads(other)
        await brought_up(other, copy)
        return live, copy, reads

    live, copy, reads = asyncio.run(scenario())
    assert reads == ["record", "whole"] and shown == [True]
    assert copy.version == live.version and same(copy, live)


def test_a_match_over_is_read_whole_only_once_its_settings_change(tmp_path: Path) -> None:
    """A match over changes only its settings (a rematch offered or answered elsewhere):
    its copy asks the row for its version and settings, and is read whole, and shown, only
    when they differ from its own; one unchanged is not replayed at each use."""
    one, other, _ = two_stores(tmp_path)
    shown: list[bool] = []
    other.shown = lambda _live, again: shown.append(again)

    async def scenario() -> tuple[list[str], LiveMatch, LiveMatch]:
        live = await one.add(Match(1, dice=FairMatchDice()), HUMANS, None, Seating())
        await first_game_resigned(one, live)
        assert live.match.is_over
        copy = await other.get(live.id)
        reads = counted_reads(other)
        await brought_up(other, copy)
        await brought_up(other, copy)
        async with live.lock:
            step = live.rematch.step
            live.rematch = offered(live.rematch, 0, "d1g3st")
            await one.save_rematch(live, step, None)
        await brought_up(other, copy)
        await brought_up(other, copy)
        return reads, live, copy

    reads, live, copy = asyncio.run(scenario())
    assert reads == ["settings", "settings", "settings", "whole", "settings"]
    assert shown == [True] and copy.rematch == live.rematch


def test_a_copy_whose_save_failed_is_read_whole(tmp_path: Path) -> None:
    """A copy marked stale may hold an action its row never took: it is read whole, the
    action dropped."""
    one, other, _ = two_stores(tmp_path)

    async def scenario() -> tuple[LiveMatch, LiveMatch, list[str]]:
        live, copy = await begun(one, other)
        await act_and_save(one, live, 2)
        await brought_up(other, copy)
        await act_and_save(other, copy, 1)  # the row moves on elsewhere
        with pytest.raises(MatchChangedError):
            await act_and_save(one, live, 1)  # made on the version before: refused
        assert live.stale
        reads = counted_reads(one)
        await brought_up(one, live)
        return live, copy, reads

    live, copy, reads = asyncio.run(scenario())
    assert reads == ["whole"] and not live.stale
    assert live.version == copy.version and same(live, copy)


def test_a_notice_brings_a_watched_copy_up_to_its_row_in_the_background(
    tmp_path: Path,
) -> None:
    """The relay's notice of a newer version (:meth:`MatchStore.heard`) has the copy read
    from its row once its lock is free, its pages shown each event they missed, with the
    record's changes since the state each saw; a notice of a version the copy has is
    nothing to do."""
    one, other, told = two_stores(tmp_path)
    hub = Hub()
    other.shown = lambda live, again: hub.publish(live, again=again)

    async def scenario() -> tuple[LiveMatch, LiveMatch, list[str], list[str]]:
        live, copy = await begun(one, other)
        page = hub.watcher(cast(Any, None), 1, copy.version, changes=True)
        await hub.join(copy.id, page)
        reads = counted_reads(other)
        other.heard(copy.id, copy.version)  # nothing new
        await other.settle()
        assert reads == [] and page.queue.empty()
        start = copy.version
        expected = []
        for _ in range(5):
            before = live.version
            await act_and_save(one, live, 1)
            expected.append(Shown(live).text(1, before))
        other.heard(copy.id, told[-1])
        other.heard(copy.id, told[-1])  # heard twice: one refresh
        await other.settle()
        pushed = [page.queue.get_nowait() for _ in range(page.queue.qsize())]
        assert copy.version == start + 5
        return live, copy, reads, pushed == expected and pushed

    live, copy, reads, pushed = asyncio.run(scenario())
    assert reads == ["record"] and len(pushed) == 5
    assert same(copy, live)


class NotedLock(asyncio.Lock):
    """A match's lock that notes (``waited``) a wait for it while it is held."""

    def __init__(self, waited: threading.Event) -> None:
        super().__init__()
        self.waited = waited

    async def acquire(self) -> Literal[True]:
        if self.locked():
            self.waited.set()
        return await super().acquire()


def test_a_read_while_the_match_is_held_is_not_behind_another_process(postgres: Any) -> None:
    """Two apps on one PostgreSQL database: while an action holds the match's lock in the
    first (it acts on its copy as it is, and may be slow), the second commits an action;
    a read of the match from the first then answers with that action, never one behind
    (it waits for the lock and brings its copy up to the row)."""
    url = postgres.new_database()
    one, other = client_for(Settings(url)), client_for(Settings(url))
    with one, other:
        match_id = create(one, seed=1)["id"]
        other.headers["Authorization"] = one.headers["Authorization"]
        before = state_of(one, match_id)  # the first holds a copy, at the row's version
        live = one.app.state.store.cached(match_id)  # type: ignore[attr-defined]
        answered, holding, release = threading.Event(), threading.Event(), threading.Event()
        live.lock = NotedLock(answered)  # the read has decided once it waits for the lock

        async def hold() -> None:
            async with live.lock:
                holding.set()
                await asyncio.to_thread(release.wait, 30)

        one.portal.start_task_soon(hold)  # type: ignore[union-attr]
        assert holding.wait(30)
        made = act(other, match_id, **next_action(before))
        assert made["version"] == before["version"] + 1
        read: dict[str, Any] = {}

        def reading() -> None:
            read.update(state_of(one, match_id))
            answered.set()

        reader = threading.Thread(target=reading)
        reader.start()
        assert answered.wait(30)
        release.set()
        reader.join(30)
        assert read["version"] == made["version"]
        assert read == state_of(other, match_id)
