"""Tournaments kept in the database: made, joined, left and cancelled by their players, and
started and advanced by the server, each change exactly once however many processes make it.

**The database is the only truth.** Every change of a tournament names the version it was
read at: its transaction begins with ``UPDATE tournaments SET version = version + 1 WHERE
id = ? AND version = ?`` (a join or a leave, which change the entries only, with ``AND status
= 'open'`` instead), which on PostgreSQL locks the row until the commit and on SQLite the
database. Of two processes making the same change (both saw a match end; both found the
start time passed), one writes it; the other's update finds another version, writes nothing,
reads the tournament again and finds nothing left to do. The draw's places (round, slot),
the entries (tournament, player) and the matches' ids are keys besides.

**What moves a tournament** (:meth:`Tournaments.settle`): its start (full, or its start time
passed) and its matches' ends. A match's last action wakes its tournament at once
(:meth:`Tournaments.ended`, from :class:`..play.service.MatchService`); a periodic task in
every process (:meth:`Tournaments.run`, every ``sweep_seconds``) settles every open
tournament whose start time has passed and every running one, so that a start time needs no
request, and a tournament whose match ended in a process that died before settling it goes
on (these every :data:`RUNNING_EVERY` rounds only). A tournament read lazily at each request
would not start at its time while no one looks.

A match of a tournament is an online match between its two players, made in the same
transaction that records its place in the draw (:meth:`..play.store.MatchStore.add_on`).
Each seat's token is made from the tournament's secret (:func:`seat_token`), so that the
signed-in player of a seat can be given it again, by any process; the secret never leaves
the server. Each match has the tournament's clock (``time_control``): a player who does not
come loses on time (:mod:`backgammon.game.clock`); with no clock, by the claim after absence
(``claim_seconds``, RULES.md, Leaving a game).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import secrets
from datetime import datetime
from typing import Any

from fastapi import HTTPException, status
from sqlalchemy import Connection, Engine, Row, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool

from ...game.clock import TimeControl
from ...game.match import Match
from ...game.rules import Rules
from ...ratings import START_RATING
from ..accounts.users import Account
from ..db import (
    BACKGAMMON,
    GameRatingRow,
    MatchAccountRow,
    TournamentMatchRow,
    TournamentPlayerRow,
    TournamentRow,
    UserRow,
    now,
    utc,
)
from ..play.board_games import board_match
from ..play.live import AnyMatch, LiveMatch, SeatSettings, dice_for
from ..play.match_rows import UnknownMatchError, new_match_id
from ..play.seats import SECRET_BYTES, Key, Seating, digest_of
from ..play.store import MatchStore
from .draw import Pairing
from .state import Entrant, NewTournament, Placed, Plan, Results, Tournament, plan

log = logging.getLogger(__name__)

#: How many times a change that lost to another process's is tried again on a fresh read.
TRIES = 8
#: The periodic task settles the running tournaments once in this many rounds.
RUNNING_EVERY = 6
#: The statuses, in the order the list shows them.
STATUSES = ("open", "running", "finished", "cancelled")


def seat_token(secret: str, match_id: str, seat: int) -> str:
    """The token of ``seat`` in the tournament's match ``match_id`` (HMAC-SHA-256 of the
    tournament's secret): any process can make it again for the seat's player.

    >>> seat_token("k", "m1", 0) == seat_token("k", "m1", 0) != seat_token("k", "m1", 1)
    True
    >>> len(seat_token("k", "m1", 0))
    32
    """
    made = hmac.new(secret.encode(), f"tournament seat {match_id} {seat}".encode(),
                    hashlib.sha256).digest()
    return base64.urlsafe_b64encode(made[:SECRET_BYTES]).decode("ascii")


class Tournaments:
    """The tournaments of one app."""

    def __init__(
        self, engine: Engine, store: MatchStore, claim_seconds: float, sweep_seconds: float
    ) -> None:
        self.engine = engine
        self.store = store
        self.claim_seconds = claim_seconds
        self.sweep_seconds = sweep_seconds
        self._tasks: set[asyncio.Task[None]] = set()
        self._woken: set[asyncio.Task[None]] = set()

    # The players' changes

    def create(self, creator: Account, new: NewTournament) -> str:
        """Make a tournament, its creator its first entrant; its id."""
        tournament_id = new_match_id()
        stamp = now()
        with self.engine.begin() as connection:
            connection.execute(insert(TournamentRow).values(
                id=tournament_id, name=new.name, kind=new.kind, game=new.game,
                creator_id=creator.id,
                length=new.length, time_control=new.time_control, rated=new.rated,
                max_players=new.max_players, starts_at=new.starts_at, status="open",
                version=0, secret=secrets.token_hex(32), winner_id=None, created_at=stamp,
            ))
            connection.execute(insert(TournamentPlayerRow).values(
                tournament_id=tournament_id, user_id=creator.id, joined_at=stamp))
        return tournament_id

    def join(self, tournament_id: str, account: Account) -> None:
        """Enter ``account``: 404, or 409 with the sentence where the tournament has started,
        is full, or has them already."""
        with self.engine.begin() as connection:
            row = self._open_for_entries(connection, tournament_id)
            count = connection.scalar(select(func.count()).where(
                TournamentPlayerRow.tournament_id == tournament_id))
            if _entered(connection, tournament_id, account.id):
                raise HTTPException(status.HTTP_409_CONFLICT,
                                    "You have joined this tournament already.")
            if count is not None and count >= row.max_players:
                raise HTTPException(status.HTTP_409_CONFLICT,
                                    "The tournament is full: it takes no more players.")
            try:
                connection.execute(insert(TournamentPlayerRow).values(
                    tournament_id=tournament_id, user_id=account.id, joined_at=now()))
            except IntegrityError:  # the same player's other request, first
                raise HTTPException(status.HTTP_409_CONFLICT,
                                    "You have joined this tournament already.") from None

    def leave(self, tournament_id: str, account: Account) -> None:
        """Take ``account``'s entry back: 404, or 409 with the sentence where it has started
        or they are not in it. The creator leaves by cancelling it."""
        with self.engine.begin() as connection:
            row = self._open_for_entries(connection, tournament_id)
            if row.creator_id == account.id:
                raise HTTPException(
                    status.HTTP_409_CONFLICT,
                    "The creator of a tournament does not leave it: cancel it instead.")
            if not _entered(connection, tournament_id, account.id):
                raise HTTPException(status.HTTP_409_CONFLICT,
                                    "You are not in this tournament.")
            connection.execute(delete(TournamentPlayerRow).where(
                TournamentPlayerRow.tournament_id == tournament_id,
                TournamentPlayerRow.user_id == account.id))

    def cancel(self, tournament_id: str, account: Account) -> None:
        """Call the tournament off before it starts: its creator only (403); 409 once it has
        started."""
        with self.engine.begin() as connection:
            row = self._open_for_entries(connection, tournament_id)
            if row.creator_id != account.id:
                raise HTTPException(status.HTTP_403_FORBIDDEN,
                                    "Only the tournament's creator may cancel it.")
            connection.execute(update(TournamentRow).where(TournamentRow.id == tournament_id)
                               .values(status="cancelled", finished_at=now()))

    def _open_for_entries(self, connection: Connection, tournament_id: str) -> Any:
        """The tournament's row, locked for a change of its entries (its version raised, on
        the condition that it is still open), or 404 or 409."""
        raised = connection.execute(
            update(TournamentRow)
            .where(TournamentRow.id == tournament_id, TournamentRow.status == "open")
            .values(version=TournamentRow.version + 1)
        )
        row = connection.execute(
            select(TournamentRow.creator_id, TournamentRow.max_players, TournamentRow.status)
            .where(TournamentRow.id == tournament_id)
        ).one_or_none()
        if row is None:
            raise HTTPException(status.HTTP_404_NOT_FOUND, "No tournament has this id.")
        if raised.rowcount != 1:
            raise HTTPException(
                status.HTTP_409_CONFLICT,
                "The tournament has started or is over: its players no longer change.")
        return row

    # Reading

    def read(self, tournament_id: str) -> Tournament:
        """The tournament as it stands (404 where there is none)."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(TournamentRow).where(TournamentRow.id == tournament_id)
            ).one_or_none()
            if row is None:
                raise HTTPException(status.HTTP_404_NOT_FOUND, "No tournament has this id.")
            # Each entrant's rating in the tournament's game: backgammon's is the account's
            # own; another game's, from its first rated match of it on (the start before).
            in_game = (
                UserRow.rating if row.game == BACKGAMMON
                else func.coalesce(GameRatingRow.rating, START_RATING)
            )
            entrants = [
                Entrant(user, name, hidden, rating, seed)
                for user, name, hidden, rating, seed in connection.execute(
                    select(UserRow.id, UserRow.name, UserRow.hidden, in_game,
                           TournamentPlayerRow.seed)
                    .join(UserRow, UserRow.id == TournamentPlayerRow.user_id)
                    .outerjoin(GameRatingRow, (GameRatingRow.user_id == UserRow.id)
                               & (GameRatingRow.game == row.game))
                    .where(TournamentPlayerRow.tournament_id == tournament_id)
                    .order_by(TournamentPlayerRow.seed, TournamentPlayerRow.joined_at,
                              UserRow.id)
                )
            ]
            draw = [
                Placed(Pairing(m.round, m.slot, (m.user0, m.user1), m.winner,
                               (m.points0, m.points1)), m.match_id)
                for m in connection.execute(
                    select(TournamentMatchRow)
                    .where(TournamentMatchRow.tournament_id == tournament_id)
                    .order_by(TournamentMatchRow.round, TournamentMatchRow.slot)
                )
            ]
        return Tournament(
            row.id, row.name, row.kind, row.game, row.creator_id, row.length, row.time_control,
            row.rated, row.max_players, None if row.starts_at is None else utc(row.starts_at),
            row.status, row.version, row.winner_id, utc(row.created_at), row.secret,
            entrants, draw,
        )

    def listing(self, most: int = 50) -> list[tuple[Any, int]]:
        """The latest tournaments of each status (rows with their number of players)."""
        players = (
            select(TournamentPlayerRow.tournament_id, func.count().label("players"))
            .group_by(TournamentPlayerRow.tournament_id).subquery()
        )
        found: list[Row[Any]] = []
        with self.engine.connect() as connection:
            for status_ in STATUSES[:3]:
                found.extend(connection.execute(
                    select(TournamentRow.id, TournamentRow.name, TournamentRow.kind,
                           TournamentRow.game, TournamentRow.status, TournamentRow.length,
                           TournamentRow.max_players, TournamentRow.starts_at,
                           TournamentRow.created_at, players.c.players)
                    .join(players, players.c.tournament_id == TournamentRow.id)
                    .where(TournamentRow.status == status_)
                    .order_by(TournamentRow.created_at.desc()).limit(most)
                ).all())
        return [(row, row.players) for row in found]

    def entered(self, user: int, most: int = 20) -> list[Tournament]:
        """The open and running tournaments ``user`` is in, the latest first."""
        with self.engine.connect() as connection:
            found = list(connection.scalars(
                select(TournamentRow.id)
                .join(TournamentPlayerRow, TournamentPlayerRow.tournament_id == TournamentRow.id)
                .where(TournamentPlayerRow.user_id == user,
                       TournamentRow.status.in_(("open", "running")))
                .order_by(TournamentRow.created_at.desc()).limit(most)
            ))
        return [self.read(tournament_id) for tournament_id in found]

    def seat(self, tournament_id: str, match_id: str, account: Account) -> tuple[int, str]:
        """The seat ``account`` has in the tournament's match ``match_id`` and its token; 404
        where the match is none of the tournament's, 403 where the seat is another's."""
        tournament = self.read(tournament_id)
        placed = next((p for p in tournament.draw if p.match_id == match_id), None)
        if placed is None:
            raise HTTPException(status.HTTP_404_NOT_FOUND,
                                "This tournament has no match with this id.")
        if account.id not in placed.pairing.players:
            raise HTTPException(status.HTTP_403_FORBIDDEN,
                                "You do not play in this match: you may watch it.")
        seat = placed.pairing.players.index(account.id)
        return seat, seat_token(tournament.secret, match_id, seat)

    def of_match(self, match_id: str) -> str | None:
        """The tournament whose match ``match_id`` is, if any."""
        with self.engine.connect() as connection:
            found: str | None = connection.scalar(
                select(TournamentMatchRow.tournament_id)
                .where(TournamentMatchRow.match_id == match_id))
        return found

    def due(self, moment: datetime, running: bool) -> list[str]:
        """The tournaments the periodic task settles: open past their start time, or full
        where they start once full (the join that filled one starts it, unless it failed
        after its commit), and where ``running``, those running."""
        entries = (select(func.count()).where(
            TournamentPlayerRow.tournament_id == TournamentRow.id).scalar_subquery())
        starting = (TournamentRow.status == "open") & (
            (TournamentRow.starts_at <= moment)
            | (TournamentRow.starts_at.is_(None) & (entries >= TournamentRow.max_players)))
        wanted = starting | (TournamentRow.status == "running") if running else starting
        with self.engine.connect() as connection:
            return list(connection.scalars(select(TournamentRow.id).where(wanted)))

    # The server's changes

    async def settle(self, tournament_id: str, ended: str | None = None) -> bool:
        """Start the tournament if it is due, record its matches that are over and make the
        next ones, or finish it: each exactly once. Whether this call changed it. ``ended``:
        only that match is read to see whether it is over (it has just ended), not every
        match of the tournament still in play."""
        for _ in range(TRIES):
            tournament = await run_in_threadpool(self.read, tournament_id)
            results = await self._results(tournament, ended)
            change = plan(tournament, results, now())
            if change is None:
                return False
            if await run_in_threadpool(self.write, tournament, change):
                return True
        log.warning("tournament %s was changed elsewhere %d times running", tournament_id,
                    TRIES)
        return False

    async def _results(self, tournament: Tournament, only: str | None) -> Results:
        """The results of the tournament's matches that are over and not yet recorded (of
        match ``only``, where given)."""
        results: Results = {}
        for placed in tournament.draw:
            if placed.match_id is None or placed.pairing.winner is not None:
                continue
            if only is not None and placed.match_id != only:
                continue
            try:
                live = await self.store.fresh(await self.store.get(placed.match_id))
            except UnknownMatchError:  # not possible: the match is made with its place
                log.error("tournament %s lacks its match %s", tournament.id, placed.match_id)
                continue
            won = live.match.winner
            if won is not None:
                score = live.match.score
                results[placed.match_id] = (won, (score[0], score[1]))
        return results

    def write(self, tournament: Tournament, change: Plan) -> bool:
        """Write ``change``, made on ``tournament`` as read; False, and nothing written,
        where it has changed since."""
        stamp = now()
        values: dict[str, Any] = {"version": tournament.version + 1, "status": change.status,
                                  "winner_id": change.winner}
        if change.seeds is not None or change.status == "cancelled":
            values["started_at" if change.seeds is not None else "finished_at"] = stamp
        if change.status == "finished":
            values["finished_at"] = stamp
        names = {entrant.user: entrant.name for entrant in tournament.entrants}
        with self.engine.begin() as connection:
            moved = connection.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tournament.id,
                       TournamentRow.version == tournament.version)
                .values(**values)
            )
            if moved.rowcount != 1:
                return False
            for seed, user in enumerate(change.seeds or ()):
                connection.execute(
                    update(TournamentPlayerRow)
                    .where(TournamentPlayerRow.tournament_id == tournament.id,
                           TournamentPlayerRow.user_id == user)
                    .values(seed=seed))
            for pairing in change.decided:
                connection.execute(
                    update(TournamentMatchRow)
                    .where(TournamentMatchRow.tournament_id == tournament.id,
                           TournamentMatchRow.round == pairing.round,
                           TournamentMatchRow.slot == pairing.slot,
                           TournamentMatchRow.winner.is_(None))
                    .values(winner=pairing.winner, points0=pairing.points[0],
                            points1=pairing.points[1], finished_at=stamp))
            for pairing in change.new:
                match_id = None
                if not pairing.bye:
                    match_id = self._add_match(connection, tournament, pairing, names)
                connection.execute(insert(TournamentMatchRow).values(
                    tournament_id=tournament.id, round=pairing.round, slot=pairing.slot,
                    match_id=match_id, user0=pairing.players[0], user1=pairing.players[1],
                    winner=pairing.winner, points0=0, points1=0,
                    finished_at=stamp if pairing.bye else None))
        log.info("tournament %s: %s, %d decided, %d new", tournament.id, change.status,
                 len(change.decided), len(change.new))
        return True

    def _add_match(self, connection: Connection, tournament: Tournament, pairing: Pairing,
                   names: dict[int, str]) -> str:
        """Make the online match of ``pairing`` in ``connection``'s transaction: of the
        tournament's game (:func:`tournament_match`), each seat held by its token
        (:func:`seat_token`), its accounts noted, rated if the tournament is; its id."""
        first, second = pairing.players
        assert second is not None
        match_id = new_match_id()
        keys = [Key(digest_of(seat_token(tournament.secret, match_id, seat)), frozenset({seat}))
                for seat in (0, 1)]
        match = tournament_match(tournament.game, tournament.length,
                                 (names[first], names[second]))
        clock = (
            None if tournament.time_control == "none"
            else TimeControl.named(tournament.time_control)
        )
        seating = Seating(keys, online=True, claim_seconds=self.claim_seconds, public=True,
                          clock=clock)
        live = LiveMatch(match_id, match, (SeatSettings("human"), SeatSettings("human")), None,
                         now(), seating)
        self.store.add_on(connection, live)
        connection.execute(insert(MatchAccountRow).values(
            match_id=match_id, user0=first, user1=second, rated=tournament.rated))
        return match_id

    # Waking

    def ended(self, live: LiveMatch) -> None:
        """Called after the save of a match's last action: its tournament, if it has one, is
        settled in the background (the periodic task does it otherwise)."""
        task = asyncio.get_running_loop().create_task(self._settle_match(live.id))
        self._woken.add(task)
        task.add_done_callback(self._woken.discard)

    async def _settle_match(self, match_id: str) -> None:
        try:
            tournament_id = await run_in_threadpool(self.of_match, match_id)
            if tournament_id is not None:
                await self.settle(tournament_id, ended=match_id)
        except Exception:  # the periodic task tries again
            log.exception("the tournament of match %s could not be settled", match_id)

    async def run(self) -> None:
        """Settle the tournaments due every ``sweep_seconds``, and the running ones every
        :data:`RUNNING_EVERY` rounds, until cancelled. A running tournament is settled at
        once by its match's end (:meth:`ended`): the task only makes up for a process that
        died before it settled one, and reads each of its matches to see whether it is over
        (a read that holds the match's lock a moment, as any read brought up to its row does;
        a page reading the match meanwhile asks its row, :meth:`..play.store.MatchStore.
        fresh`)."""
        rounds = 0
        while True:
            await asyncio.sleep(max(self.sweep_seconds, 0.01))
            rounds += 1
            try:
                due = await run_in_threadpool(self.due, now(), rounds % RUNNING_EVERY == 0)
                for tournament_id in due:
                    await self.settle(tournament_id)
            except Exception:  # the database may be away a while: the next round tries
                log.exception("the tournaments could not be settled")

    def start(self) -> None:
        """Start the periodic task (the app's start)."""
        self._tasks.add(asyncio.get_running_loop().create_task(self.run()))

    async def close(self) -> None:
        """Stop the periodic task and wait for the settles under way (the app's end): those
        of this event loop (a test may run the app's life in two at once)."""
        loop = asyncio.get_running_loop()
        running = [task for task in self._tasks if task.get_loop() is loop]
        for task in running:
            task.cancel()
            self._tasks.discard(task)
        woken = [task for task in self._woken if task.get_loop() is loop]
        await asyncio.gather(*running, *woken, return_exceptions=True)


def tournament_match(game: str, length: int, players: tuple[str, str]) -> AnyMatch:
    """A new match of a tournament of ``game`` (backgammon, one of the other games, or
    ``tavli``) to ``length`` points between ``players`` (seat 0 white), with provably fair
    dice, waiting for its opening roll, as an online match between people is made
    (``POST /api/matches``). BackgammonError where ``game``'s rules refuse it: the creation
    of a tournament makes one first (:mod:`.routes`), so that none is made whose matches
    cannot be.

    >>> tournament_match("plakoto", 3, ("Ann", "Bob")).plays
    'plakoto'
    >>> tournament_match("backgammon", 3, ("Ann", "Bob")).rules.own_opening_dice
    True
    """
    colours = ("white", "black")
    if game != BACKGAMMON:
        return board_match(game, length, dice_for(None), players=players, colours=colours)
    # RULES.md, Starting the game: players apart throw their own opening dice.
    return Match(length, Rules(own_opening_dice=True), dice_for(None), players=players,
                 colours=colours)


def _entered(connection: Connection, tournament_id: str, user: int) -> bool:
    return connection.scalar(select(TournamentPlayerRow.user_id).where(
        TournamentPlayerRow.tournament_id == tournament_id,
        TournamentPlayerRow.user_id == user)) is not None
