"""A process that saves an action tells the others what it added (its news, through Redis:
:func:`backgammon.server.play.news.news_of`); a copy that follows the match takes the events from
the news without reading its row, and one that missed a notice, or cannot apply what it was
told, reads the row instead. (Two stores on one database, each checking its row, play the
two processes.)"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, cast

import pytest

from backgammon.fairdice import FairMatchDice
from backgammon.game import Act, Action
from backgammon.game.match import Match
from backgammon.server.db import make_engine, migrate
from backgammon.server.play import store as store_module
from backgammon.server.play.live import LiveMatch, SeatSettings, events_in
from backgammon.server.play.news import News, news_of, read_news
from backgammon.server.play.seats import Seating
from backgammon.server.play.store import MatchStore
from backgammon.server.play.views import Shown
from backgammon.server.play.watchers import Hub
from backgammon.server.settings import sqlite_url

HUMANS = (SeatSettings("human"), SeatSettings("human"))


def two_stores(tmp_path: Path) -> tuple[MatchStore, MatchStore, list[tuple[int, str | None]]]:
    """Two processes' stores on one database, and what the first tells of its saves."""
    engine = make_engine(sqlite_url(tmp_path / "games.sqlite"))
    migrate(engine)
    one, other = MatchStore(engine, shared=True), MatchStore(engine, shared=True)
    told: list[tuple[int, str | None]] = []
    one.saved, one.telling = (lambda _id, version, news: told.append((version, news))), True
    return one, other, told


async def act_and_save(
    store: MatchStore, live: LiveMatch, count: int, *, telling_state: bool = False
) -> list[str]:
    """``count`` actions (rolls, steps, confirms: the first on offer), each saved alone (and
    with ``telling_state``, told with its state, as an action's route tells it); the text of
    each new state from seat 1's side, its record the changes since the version before."""
    texts = []
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
            shown = Shown(live)
            await store.save(live, before, state=shown.told(before) if telling_state else None)
            texts.append(shown.text(1, before))
    return texts


async def begun(one: MatchStore, other: MatchStore) -> tuple[LiveMatch, LiveMatch]:
    """A new match with fair dice, added through ``one``, and ``other``'s copy of it."""
    live = await one.add(Match(3, dice=FairMatchDice()), HUMANS, None, Seating())
    return live, await other.get(live.id)


def as_read(told: list[tuple[int, str | None]]) -> list[News]:
    """The news of the notices ``told``, as a process reads them (:func:`read_news`)."""
    news = [read_news(text) for _, text in told if text]
    assert all(one is not None for one in news)
    return cast(list[News], news)


async def take(store: MatchStore, copy: LiveMatch, newer: int, news: list[News]) -> None:
    """Bring ``copy`` up to date as a process told ``news``, and that the row holds version
    ``newer``, does: each held (:meth:`MatchStore.hold`), then taken under the copy's lock."""
    for each in news:
        store.hold(copy, newer, each)
    async with copy.lock:
        await store.current(copy, newer)


def unread(store: MatchStore) -> None:
    """Make ``store`` fail the test if it reads a row."""

    def read(*_args: Any) -> Any:
        raise AssertionError("the row was read")

    store._version = store._record = store._load = read  # type: ignore[method-assign]


def counted_reads(store: MatchStore) -> list[str]:
    """The rows ``store`` reads from now on, in order: ``"whole"`` for a match read whole,
    ``"record"`` for its record read to take the events its copy lacks."""
    reads: list[str] = []
    load, record = store._load, store._record

    def loaded(match_id: str) -> LiveMatch:
        reads.append("whole")
        return load(match_id)

    def recorded(match_id: str) -> dict[str, Any]:
        reads.append("record")
        return record(match_id)

    store._load, store._record = loaded, recorded  # type: ignore[method-assign]
    return reads


def test_a_copy_takes_the_news_of_each_save_without_reading_its_row(tmp_path: Path) -> None:
    one, other, told = two_stores(tmp_path)
    shown: list[int] = []
    other.shown = lambda live, _shared, _again: shown.append(live.version)

    async def scenario() -> tuple[LiveMatch, LiveMatch]:
        live, copy = await begun(one, other)
        start = copy.version
        await act_and_save(one, live, 8)
        assert all(news is not None for _, news in told)
        unread(other)
        await take(other, copy, told[-1][0], as_read(told))
        assert shown == list(range(start + 1, live.version + 1))  # each event shown
        return live, copy

    live, copy = asyncio.run(scenario())
    assert copy.version == live.version
    assert copy.match.to_dict(secrets=True) == live.match.to_dict(secrets=True)


def test_a_copy_shows_the_pages_the_state_told_with_the_news(tmp_path: Path) -> None:
    """The process that made an action tells, with its news, the part of the state every
    page shares (``Shown.shared``, since the version the pages saw): a copy that takes the
    news pushes it after the action's last event rather than making it again, and it is the
    state the copy would have made."""
    one, other, told = two_stores(tmp_path)
    carried: list[tuple[int, dict[int | None, str]]] = []
    other.shown = lambda live, shared, _again: carried.append((live.version, dict(shared)))

    async def scenario() -> tuple[LiveMatch, LiveMatch, int]:
        live, copy = await begun(one, other)
        await act_and_save(one, live, 3)
        before = live.version
        await act_and_save(one, live, 1, telling_state=True)
        unread(other)
        await take(other, copy, told[-1][0], as_read(told))
        return live, copy, before

    live, copy, before = asyncio.run(scenario())
    assert copy.version == live.version
    # The news without a state are shown with none; the last, after its last event, with it.
    assert all(not shared for _, shared in carried[:-1])
    version, shared = carried[-1]
    assert version == live.version and list(shared) == [before]
    assert shared[before] == Shown(copy).shared(before) == Shown(live).shared(before)
    assert Shown(copy, shared).text(1, before) == Shown(live).text(1, before)


def test_a_copy_holds_the_news_whose_state_its_pages_were_shown_until_next_used(
    tmp_path: Path,
) -> None:
    """A process whose pages have seen the version a notice goes on from shows them the
    state told (each page's side of it) without taking the events; its copy takes them
    when next brought up to date, without reading its row or showing the pages a state
    twice. A page that has not seen that version has the copy brought up to date first."""
    one, other, told = two_stores(tmp_path)
    hub = Hub()
    other.shown = lambda live, shared, again: hub.publish(
        live, again=again, shown=Shown(live, shared)
    )

    async def scenario() -> tuple[LiveMatch, LiveMatch]:
        live, copy = await begun(one, other)
        page = hub.watcher(cast(Any, None), 1, copy.version, changes=True)
        await hub.join(copy.id, page)
        start = copy.version
        told.clear()
        texts = await act_and_save(one, live, 6, telling_state=True)
        unread(other)
        for version, news in told:
            told_news = read_news(news or "")
            assert told_news is not None and other.may_hold(copy)
            assert told_news.shared is not None and told_news.sides is not None
            assert hub.told(copy.id, version, told_news.before, told_news.shared, told_news.sides)
            other.hold(copy, version, told_news)
        assert copy.version == start and len(copy.news) == 6  # not taken yet
        assert [page.queue.get_nowait() for _ in texts] == texts  # what that process made
        async with copy.lock:
            await other.current(copy, copy.heard)
        assert page.queue.empty() and copy.version == live.version
        # A page that saw an older version is sent nothing by a notice: the copy shows it.
        late = hub.watcher(cast(Any, None), 0, start, changes=True)
        await hub.join(copy.id, late)
        await act_and_save(one, live, 1, telling_state=True)
        last = read_news(told[-1][1] or "")
        assert last is not None and last.shared is not None and last.sides is not None
        assert not hub.told(copy.id, told[-1][0], last.before, last.shared, last.sides)
        assert page.queue.empty() and late.queue.empty()
        # As the refresh that follows does: the copy shows them.
        await take(other, copy, told[-1][0], [last])
        assert page.queue.qsize() == late.queue.qsize() == 1
        return live, copy

    live, copy = asyncio.run(scenario())
    assert copy.match.to_dict(secrets=True) == live.match.to_dict(secrets=True)


def test_a_copy_holds_a_bounded_number_of_notices_then_reads_its_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process whose pages only watch a match holds its news until the match is next
    used there; past ``HELD_NEWS`` notices it drops them, and its copy is brought up to its
    row when next used (from the row: the news left no longer goes on from the copy)."""
    monkeypatch.setattr(store_module, "HELD_NEWS", 3)
    one, other, told = two_stores(tmp_path)

    async def scenario() -> tuple[LiveMatch, LiveMatch]:
        live, copy = await begun(one, other)
        reads = counted_reads(other)
        told.clear()
        await act_and_save(one, live, 7, telling_state=True)
        for (version, _), news in zip(told, as_read(told), strict=True):
            other.hold(copy, version, news)
            assert len(copy.news) <= 3
        async with copy.lock:
            await other.current(copy, copy.heard)
        assert reads == ["record"] and not copy.news
        return live, copy

    live, copy = asyncio.run(scenario())
    assert copy.version == live.version
    assert copy.match.to_dict(secrets=True) == live.match.to_dict(secrets=True)


def test_a_copy_that_missed_a_notice_reads_its_row(tmp_path: Path) -> None:
    one, other, told = two_stores(tmp_path)

    async def scenario() -> tuple[LiveMatch, LiveMatch]:
        live, copy = await begun(one, other)
        await act_and_save(one, live, 4)
        # The first save's news never came.
        await take(other, copy, told[-1][0], as_read(told[1:]))
        return live, copy

    live, copy = asyncio.run(scenario())
    assert copy.match.to_dict(secrets=True) == live.match.to_dict(secrets=True)


def test_news_that_cannot_be_applied_has_the_copy_read_whole(tmp_path: Path) -> None:
    one, other, told = two_stores(tmp_path)

    async def scenario() -> tuple[LiveMatch, LiveMatch]:
        live, copy = await begun(one, other)
        await act_and_save(one, live, 3)
        # Told of a confirm that the game does not allow (a process with other rules, say).
        confirm = {"action": "confirm", "player": 1}
        wrong = json.dumps({"before": copy.version, "games": 1, "score": [0, 0],
                            "events": [confirm]})
        await take(other, copy, told[-1][0], [cast(News, read_news(wrong))])
        return live, copy

    live, copy = asyncio.run(scenario())
    assert not copy.stale
    assert copy.match.to_dict(secrets=True) == live.match.to_dict(secrets=True)


def test_a_save_that_ends_a_game_or_the_match_tells_no_events() -> None:
    """An ending changes more than the record's events (the score, the next game's fair
    dice, a match claimed whole): the other processes read the row."""
    for length in (3, 1):  # the next game begins; the match is over
        match = Match(length, dice=FairMatchDice())
        game = match.game
        while game.dice is None:
            game.roll(0 if game.player_to_act is None else game.player_to_act)
        before = events_in(match)
        game.resign(game.on_roll)
        assert news_of(match, before, events_in(match)) is not None  # still in play
        game.accept(1 - game.on_roll)
        assert len(match.games) == (2 if length == 3 else 1) and game.result is not None
        assert news_of(match, before, events_in(match)) is None


def test_news_not_understood_or_not_agreeing_has_the_row_read(tmp_path: Path) -> None:
    """News of another shape (a process of another version) is not taken, and news whose
    events make another score here than there marks the copy to be read whole."""
    one, other, told = two_stores(tmp_path)
    reads = counted_reads(other)

    async def scenario() -> tuple[LiveMatch, LiveMatch]:
        live, copy = await begun(one, other)
        reads.clear()
        await act_and_save(one, live, 1)
        first = json.loads(told[0][1] or "")
        odd = json.dumps({**first, "before": str(first["before"])})
        # Read as the relay's listener reads a notice: not understood, it is no news.
        assert read_news(odd) is None and read_news("not json") is None
        async with copy.lock:
            await other.current(copy, told[0][0])
        assert reads == ["record"] and copy.version == live.version  # from the row
        await act_and_save(one, live, 1)
        wrong = json.dumps({**json.loads(told[1][1] or ""), "score": [1, 0]})
        await take(other, copy, told[1][0], [cast(News, read_news(wrong))])
        assert reads == ["record", "whole"]
        return live, copy

    live, copy = asyncio.run(scenario())
    assert not copy.stale
    assert copy.match.score == (0, 0)
    assert copy.match.to_dict(secrets=True) == live.match.to_dict(secrets=True)
