"""A process that saves an action tells the others what it added (its news, through Redis:
:func:`backgammon.server.store.news_of`); a copy that follows the match takes the events from
the news without reading its row, and one that missed a notice, or cannot apply what it was
told, reads the row instead. (Two stores on one database, each checking its row, play the
two processes.)"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from backgammon.fairdice import FairMatchDice
from backgammon.game import Act, Action
from backgammon.match import Match
from backgammon.server.db import make_engine, migrate
from backgammon.server.seats import Seating
from backgammon.server.settings import sqlite_url
from backgammon.server.store import LiveMatch, MatchStore, SeatSettings

HUMANS = (SeatSettings("human"), SeatSettings("human"))


def two_stores(tmp_path: Path) -> tuple[MatchStore, MatchStore, list[tuple[int, str | None]]]:
    """Two processes' stores on one database, and what the first tells of its saves."""
    engine = make_engine(sqlite_url(tmp_path / "games.sqlite"))
    migrate(engine)
    one, other = MatchStore(engine, shared=True), MatchStore(engine, shared=True)
    told: list[tuple[int, str | None]] = []
    one.saved = lambda _id, version, news: told.append((version, news))
    return one, other, told


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


def unread(store: MatchStore) -> None:
    """Make ``store`` fail the test if it reads a row."""

    def read(*_args: Any) -> Any:
        raise AssertionError("the row was read")

    store._version = store._record = store._load = read  # type: ignore[method-assign]


def test_a_copy_takes_the_news_of_each_save_without_reading_its_row(tmp_path: Path) -> None:
    one, other, told = two_stores(tmp_path)
    shown: list[int] = []
    other.shown = lambda live: shown.append(live.version)

    async def scenario() -> tuple[LiveMatch, LiveMatch]:
        live = await one.add(Match(3, dice=FairMatchDice()), HUMANS, None, Seating())
        copy = await other.get(live.id)
        start = copy.version
        await act_and_save(one, live, 8)
        assert all(news is not None for _, news in told)
        unread(other)
        async with copy.lock:
            await other.current(copy, told[-1][0], [news for _, news in told if news])
        assert shown == list(range(start + 1, live.version + 1))  # each event shown
        return live, copy

    live, copy = asyncio.run(scenario())
    assert copy.version == live.version
    assert copy.match.to_dict(secrets=True) == live.match.to_dict(secrets=True)


def test_a_copy_that_missed_a_notice_reads_its_row(tmp_path: Path) -> None:
    one, other, told = two_stores(tmp_path)

    async def scenario() -> tuple[LiveMatch, LiveMatch]:
        live = await one.add(Match(3, dice=FairMatchDice()), HUMANS, None, Seating())
        copy = await other.get(live.id)
        await act_and_save(one, live, 4)
        async with copy.lock:  # the first save's news never came
            await other.current(copy, told[-1][0], [news for _, news in told[1:] if news])
        return live, copy

    live, copy = asyncio.run(scenario())
    assert copy.match.to_dict(secrets=True) == live.match.to_dict(secrets=True)


def test_news_that_cannot_be_applied_has_the_copy_read_whole(tmp_path: Path) -> None:
    one, other, told = two_stores(tmp_path)

    async def scenario() -> tuple[LiveMatch, LiveMatch]:
        live = await one.add(Match(3, dice=FairMatchDice()), HUMANS, None, Seating())
        copy = await other.get(live.id)
        await act_and_save(one, live, 3)
        # Told of a confirm that the game does not allow (a process with other rules, say).
        confirm = {"action": "confirm", "player": 1}
        wrong = json.dumps({"before": copy.version, "games": 1, "events": [confirm]})
        async with copy.lock:
            await other.current(copy, told[-1][0], [wrong])
        return live, copy

    live, copy = asyncio.run(scenario())
    assert not copy.stale
    assert copy.match.to_dict(secrets=True) == live.match.to_dict(secrets=True)
