"""What a computer seat does when the game waits for it.

The computer acts in the background, after the person's request has had its answer: a task
per wake-up (:meth:`Computer.wake`) takes the match's lock and acts for as long as the game
waits for a computer seat. Each action is thought out in a worker thread on a shadow copy of
the match (:func:`think`), so the event loop and the pages reading the state never wait for
the bot and never see the match half-changed. The shadow's record, the whole action made, is
saved in one write; only then are its events applied to the real match one at a time and
pushed to the watching pages, with a pause after each checker step so that a play appears
one checker at a time. A crash at any moment thus leaves either the action whole in the
database or none of it, and the computer plans afresh from whatever was saved. Where several
processes serve the match, the computers of two may think out the same action: the version
check of the save lets one write it, and the other reads the match again.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool

from ...bot import Bot, Level, best_play
from ...bot import act as bot_act
from ...game import Action, Game, Phase
from ...game.board_game import BoardGame
from .board_games import act_for
from .live import AnyMatch, LiveMatch, events_in
from .match_rows import UnknownMatchError
from .saves import MatchChangedError
from .store import MatchStore
from .watchers import Hub

log = logging.getLogger(__name__)

_bots: dict[Level, Bot] = {}
# One bot a level, shared by every match, and a lock for each: a bot's search (its caches) is
# not known to be thread-safe, but bots of different levels share only read-only networks,
# so a hint at the strongest level does not wait for a beginner's move in another match.
_locks = {level: threading.Lock() for level in Level}

#: A bound on the computer's actions in a row, as a guard against a seam that never yields.
MAX_ACTIONS = 64

_T = TypeVar("_T")


def _bot(level: Level) -> Bot:
    bot = _bots.get(level)
    if bot is None:
        bot = _bots[level] = Bot(level=level)
    return bot


def consult(level: Level, question: Callable[[Bot], _T]) -> _T:
    """The answer of the shared bot of ``level`` to ``question``, asked under the lock that
    the computer's own thinking at that level takes (call it in a worker thread: it waits
    for the lock and thinks)."""
    with _locks[level]:
        return question(_bot(level))


def think(shadow: AnyMatch, seat: int, level: Level) -> list[dict[str, Any]]:
    """Let the computer make ``seat``'s action on ``shadow``; the events it added, as
    :meth:`backgammon.game.Event.to_dict` writes them. A play is made as its checker steps
    and the confirm, as a person makes it, so that it can be shown step by step. In the
    other games each game's network acts (:func:`.board_games.act_for`)."""
    game = shadow.game
    before = len(game.events)
    if isinstance(game, BoardGame):
        act_for(game, seat, level)
        return [event.to_dict() for event in game.events[before:]]
    with _locks[level]:
        if game.phase is Phase.MOVE and game.player_to_act == seat:
            _step_best_play(_bot(level), game, seat)
        else:
            bot_act(_bot(level), game, seat)
    return [event.to_dict() for event in game.events[before:]]


def _step_best_play(bot: Bot, game: Game, seat: int) -> None:
    # Steps of the computer's saved without their confirm (by a server that saved each step
    # on its own) are taken back: the play is planned from the turn's start.
    while game.turn is not None and game.turn.made:
        game.undo(seat)
    play = best_play(bot, game, seat)
    for step in play.steps:
        game.step(seat, step.from_point, step.to_point)
    if game.phase is Phase.CONFIRM:
        game.confirm(seat)


def to_act(live: LiveMatch) -> bool:
    """Whether the game waits for a computer seat."""
    seat = live.match.game.player_to_act
    return not live.match.is_over and seat is not None and live.seats[seat].kind == "computer"


class Computer:
    """The computer seats of every match: wakes them when their game waits for them."""

    def __init__(self, store: MatchStore, hub: Hub, step_pause: float) -> None:
        self.store = store
        self.hub = hub
        #: Seconds between the checker steps of the computer's plays, as the pages show them.
        self.step_pause = step_pause
        # The tasks under way, kept so that they are not collected before they end.
        self._tasks: set[asyncio.Task[None]] = set()

    def wake(self, live: LiveMatch) -> None:
        """Let the computer act in the background if ``live`` waits for it. Tasks queue on
        the match's lock; one that finds nothing left to do ends at once. One waiting for
        the lock is enough (it looks at the game once it has the lock), so a page reading
        the state again and again while the computer thinks queues no more."""
        if to_act(live) and not live.computer_queued:
            live.computer_queued = True
            task = asyncio.get_running_loop().create_task(self._act(live))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Wait until the computer's tasks under way have ended (a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _act(self, live: LiveMatch) -> None:
        async with live.lock:
            live.computer_queued = False
            for _ in range(MAX_ACTIONS):
                try:
                    # Another process may have acted (the computer's action, say) meanwhile.
                    await self.store.current(live)
                except (SQLAlchemyError, UnknownMatchError):
                    log.exception("match %s could not be read", live.id)
                    return
                if not to_act(live) or not await self._one_action(live):
                    return
            log.error("the computer went on acting in match %s; stopped", live.id)

    async def _one_action(self, live: LiveMatch) -> bool:
        """One action of the computer, applied event by event; whether it went well."""
        match = live.match
        seat = match.game.player_to_act
        assert seat is not None
        level = live.seats[seat].level or Level.INTERMEDIATE
        try:
            shadow = await run_in_threadpool(live.synced_shadow)
            events = await run_in_threadpool(think, shadow, seat, level)
        except Exception:
            # The person's action stands; the game waits for the computer, which tries again
            # when next woken (after a request about the match), its shadow rebuilt.
            live.shadow = None
            log.exception("the computer could not act in match %s", live.id)
            return False
        if not events:
            log.error("the computer made no action in match %s", live.id)
            return False
        try:
            await self.store.save(live, live.version, shadow)
        except MatchChangedError:
            # Another process saved first (its computer, woken there too, made this action):
            # the store reads the match again before its next use.
            log.info("match %s changed elsewhere while the computer thought", live.id)
            return False
        except SQLAlchemyError:
            # Marked stale by the store: the next read reloads the match and wakes it again.
            log.exception("the computer's action in match %s could not be saved", live.id)
            return False
        live.showing = events_in(shadow)  # a read meanwhile finds this version in the row
        try:
            for number, event in enumerate(events):
                match.game.apply_record([event], "the computer's action")
                self.hub.publish(live)
                if event["action"] == Action.STEP and number + 1 < len(events) and self.step_pause:
                    await asyncio.sleep(self.step_pause)
        finally:
            live.showing = None
        return True
