"""The deal: a finished, analysed match's mistakes given to the decks of the accounts that
sat at it, with their reasons (worked out by the bot in the hints' pool of threads)."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ...analysis.decisions import Mark
from ...bot import Level
from ...position import Position
from ..db import MatchAccountRow
from ..http.guards import BoundedPool
from ..play import computer
from ..play.live import LiveMatch
from .cards import DEFAULT_LEAST
from .deck import Deck
from .why import cube_of, reasons_of

#: The strength the reasons are worked out at: 0-ply, no noise (a card's reasons take
#: milliseconds; the judgement itself is the analysis's).
REASONS_LEVEL = Level.ADVANCED


def seats_of(deck: Deck, match_id: str, user_id: int) -> list[int]:
    """The seats of ``match_id`` at which ``user_id``'s account sat."""
    with Session(deck.engine) as session:
        row = session.scalar(select(MatchAccountRow).where(MatchAccountRow.match_id == match_id))
    if row is None:
        return []
    return [seat for seat, user in enumerate((row.user0, row.user1)) if user == user_id]


def add_match(
    deck: Deck, live_id: str, user_id: int, seats: list[int], report: dict[str, Any],
    least: Mark,
) -> int:
    """Add the mistakes of ``seats`` in the analysed match to ``user_id``'s deck (in a
    worker thread: the reasons ask the bot)."""
    def reasons(decision: dict[str, Any]) -> list[dict[str, Any]]:
        return computer.consult(REASONS_LEVEL, lambda bot: reasons_of(decision, bot))

    return sum(deck.add(user_id, live_id, seat, report, least, reasons) for seat in seats)


async def deal(
    request: Request, live: LiveMatch, user_id: int, report: dict[str, Any],
    least: Mark = DEFAULT_LEAST,
) -> int:
    """Give the finished match's analysed mistakes to the deck of ``user_id`` if their
    account sat at it; the number of cards added. Nothing for a match not over."""
    if not live.match.is_over:
        return 0
    deck: Deck = request.app.state.trainer
    seats = await run_in_threadpool(seats_of, deck, live.id, user_id)
    if not seats:
        return 0
    pool: BoundedPool = request.app.state.hint_pool
    return await pool.run(add_match, deck, live.id, user_id, seats, report, least)


def equities(match_id: str, results: list[Position]) -> list[float]:
    """The equities (EMG, for the mover) of plays' ``results`` at the cube of gnubg's
    ``match_id``, by the bot at the reasons' level (0-ply): a play the analysis did not
    weigh, judged against the best (:func:`.cards.judge_play`)."""
    _, cube = cube_of(match_id)
    values = computer.consult(REASONS_LEVEL, lambda bot: bot.play_equities(results, 0, cube))
    return [float(value) for value in values]
