"""Who sits at a match with an account, rated matches, and the results that move ratings.

A signed-in player's new match notes their account at their seat (``match_accounts``); one
who joins it later (an invite, the lobby) is noted at theirs. A match created ``rated`` is
rated once two different accounts sit at it: when it ends, :meth:`Ratings.finish` applies
the FIBS formula (:mod:`backgammon.ratings`) to both ratings and writes the result, at most
once (``rated_results`` holds one row a match). Both the joiner's account and the result are
written in the transaction that saves the join or the last action (the ``connection`` the
store passes), so that neither can be kept without the other: a crash between the two, or a
join that loses a race to another process, leaves no account or rating apart from its match.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from sqlalchemy import Connection, Engine, Select, SQLColumnExpression, case, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased
from starlette.concurrency import run_in_threadpool

from ...game.match import BoardMatch, Match
from ...ratings import START_EXPERIENCE, START_RATING, rating_change
from ..db import (
    BACKGAMMON,
    AnalysisRow,
    GameRatingRow,
    MatchAccountRow,
    MatchRow,
    RatedResultRow,
    UserRow,
    now,
)
from ..play.live import LiveMatch
from .users import Account, AccountError


class RatedMatchError(AccountError):
    """A rated match asked for where none can be: a guest, money play, no opponent online,
    or one account at both seats."""


@dataclass(frozen=True)
class Standing:
    """A player's name and rating as a list of matches shows them (the lobby, the live
    matches)."""

    name: str
    rating: float
    experience: int
    #: Whether the match is rated.
    rated: bool


@dataclass(frozen=True)
class Result:
    """One rated match from one player's side."""

    match_id: str
    opponent: str
    length: int
    won: bool
    rating_before: float
    change: float
    finished_at: datetime
    #: Whether the opponent hid their page (their name is shown, not linked).
    opponent_hidden: bool = False
    #: The game the ratings changed in (:attr:`.Match.plays`).
    game: str = BACKGAMMON

    @property
    def rating_after(self) -> float:
        """The player's rating once this match was counted."""
        return self.rating_before + self.change


@dataclass(frozen=True)
class Analysed:
    """How one player played one rated match, as its analysis says (their side only): the
    error rates in mEMG a decision, the equity lost in EMG, and the PR (500 times the error
    a decision, eXtreme Gammon's), each as :func:`backgammon.analysis.report.to_json` gives
    them."""

    match_id: str
    opponent: str
    opponent_hidden: bool
    length: int
    won: bool
    finished_at: datetime
    checker: float
    cube: float
    overall: float
    equity_lost: float
    pr: float | None


@dataclass(frozen=True)
class Seated:
    """The accounts at a match's two seats (None at a guest's), and whether it is rated."""

    seats: tuple[Standing | None, Standing | None]
    rated: bool


#: The users at a match's two seats, and their ratings in the other games, joined by
#: :func:`with_accounts`.
_SEAT0, _SEAT1 = aliased(UserRow, name="seat0"), aliased(UserRow, name="seat1")
_GAME0, _GAME1 = aliased(GameRatingRow, name="game0"), aliased(GameRatingRow, name="game1")


def with_accounts(query: Select[*tuple[Any, ...]]) -> Select[*tuple[Any, ...]]:
    """``query`` (of the matches table) with seven more columns, which :func:`seated` reads:
    whether each match is rated, and the name, rating and experience in its game of the
    account at each of its seats, each None where there is none. They are left joins on
    keys, so that each row of ``query`` stays one row (a ``LIMIT`` still counts matches)."""
    # Columns, not the rows: a list anyone may read has no use for the password hashes.
    return (
        query.add_columns(
            MatchAccountRow.rated,
            _SEAT0.name, *_in_game(_SEAT0, _GAME0), _SEAT1.name, *_in_game(_SEAT1, _GAME1),
        )
        .outerjoin(MatchAccountRow, MatchAccountRow.match_id == MatchRow.id)
        .outerjoin(_SEAT0, _SEAT0.id == MatchAccountRow.user0)
        .outerjoin(_SEAT1, _SEAT1.id == MatchAccountRow.user1)
        .outerjoin(_GAME0, (_GAME0.user_id == _SEAT0.id) & (_GAME0.game == MatchRow.game))
        .outerjoin(_GAME1, (_GAME1.user_id == _SEAT1.id) & (_GAME1.game == MatchRow.game))
    )


def _in_game(user: type[UserRow], game: type[GameRatingRow]) -> tuple[Any, Any]:
    """The rating and experience of the ``user`` at a seat in the game of the match:
    backgammon's are the account's own; another game's start where a player's first rated
    match of it starts them. None where no account sits there."""
    backgammon = MatchRow.game == BACKGAMMON
    return (
        case((user.id.is_(None), None), (backgammon, user.rating),
             else_=func.coalesce(game.rating, START_RATING)),
        case((user.id.is_(None), None), (backgammon, user.experience),
             else_=func.coalesce(game.experience, START_EXPERIENCE)),
    )


def seated(
    rated: bool | None,
    name0: str | None, rating0: float | None, experience0: int | None,
    name1: str | None, rating1: float | None, experience1: int | None,
) -> Seated | None:
    """The columns :func:`with_accounts` adds to a row, as the accounts at the match's seats;
    None for a match no signed-in player has created or joined."""
    if rated is None:
        return None
    return Seated(
        (_standing(name0, rating0, experience0, rated),
         _standing(name1, rating1, experience1, rated)),
        rated,
    )


def _standing(
    name: str | None, rating: float | None, experience: int | None, rated: bool
) -> Standing | None:
    if name is None or rating is None or experience is None:  # a guest's seat
        return None
    return Standing(name, rating, experience, rated)


def check_rated(
    creator: Account | None, length: int, online: bool, from_position: bool = False
) -> None:
    """Refuse (RatedMatchError) a rated match that could not be rated: one created by a
    guest, a money session, one set up from a position, or one not against another person
    online.

    >>> try:
    ...     check_rated(None, 5, online=True)
    ... except RatedMatchError as error:  # doctest: +ELLIPSIS
    ...     print(error)
    Only a signed-in player can create a rated match; ...
    """
    if creator is None:
        raise RatedMatchError(
            "Only a signed-in player can create a rated match; sign in first."
        )
    if length < 1:
        raise RatedMatchError("Money sessions are not rated: give the match a length.")
    if from_position:
        raise RatedMatchError("A rated match starts from the opening, not from a position.")
    if not online:
        raise RatedMatchError(
            "Only a match against another signed-in player online can be rated, not one "
            "against the computer or at one screen."
        )


def _check_joiner(row: MatchAccountRow | None, seat: int, player: Account | None) -> None:
    """RatedMatchError unless ``player`` may take ``seat`` of the match whose accounts are
    ``row``: a rated match is between two accounts."""
    if row is None or not row.rated:
        return
    if player is None:
        raise RatedMatchError("This match is rated: sign in to join it.")
    if player.id == (row.user1 if seat == 0 else row.user0):
        raise RatedMatchError("A rated match is between two accounts, not one.")


class Ratings:
    """The accounts at the matches of one database, and their ratings' history. The plain
    methods read or write the database (call them in a worker thread); the ``async`` ones
    are what a route calls."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def created(self, match_id: str, creator: Account | None, seat: int, rated: bool) -> None:
        """Note the creator's account at ``seat`` of a new match (nothing for a guest)."""
        if creator is None:
            return
        users = (creator.id, None) if seat == 0 else (None, creator.id)
        with Session(self.engine) as session, session.begin():
            session.add(
                MatchAccountRow(match_id=match_id, user0=users[0], user1=users[1], rated=rated)
            )

    async def note_creator(self, live: LiveMatch, creator: Account | None, rated: bool) -> None:
        """:meth:`created` for the creator of ``live`` at seat 0, in a worker thread."""
        await run_in_threadpool(self.created, live.id, creator, 0, rated)

    async def check_joiner(self, match_id: str, seat: int, player: Account | None) -> None:
        """Refuse (403, with the sentence) a player who may not take ``seat`` (see
        :meth:`may_join`); call before the join changes anything. The store then calls
        :meth:`joined`, which checks again, in the join's own transaction."""
        try:
            await run_in_threadpool(self.may_join, match_id, seat, player)
        except RatedMatchError as exc:
            raise HTTPException(403, str(exc)) from None

    def may_join(self, match_id: str, seat: int, player: Account | None) -> None:
        """RatedMatchError (with the sentence) if ``player`` may not take ``seat``: the match
        is rated and the player a guest or already at the other seat. Writes nothing."""
        with self._transaction(None) as session:
            _check_joiner(session.get(MatchAccountRow, match_id), seat, player)

    def joined(
        self,
        match_id: str,
        seat: int,
        player: Account | None,
        connection: Connection | None = None,
    ) -> None:
        """Note the account of the player who takes ``seat``, in ``connection``'s transaction
        (the join's) if given, after the check of :meth:`may_join` (RatedMatchError)."""
        with self._transaction(connection) as session:
            row = session.get(MatchAccountRow, match_id)
            _check_joiner(row, seat, player)
            if player is None:
                return
            if row is None:
                row = MatchAccountRow(match_id=match_id, rated=False)
                session.add(row)
            if seat == 0:
                row.user0 = player.id
            else:
                row.user1 = player.id

    async def check_rematch(self, match_id: str, seat: int, player: Account | None) -> None:
        """Refuse (403, with the sentence) ``player`` at ``seat`` of a rematch of the rated
        match ``match_id``: a rated rematch is between the same two accounts, each signed in
        (:meth:`may_rematch`)."""
        try:
            await run_in_threadpool(self.may_rematch, match_id, seat, player)
        except RatedMatchError as exc:
            raise HTTPException(403, str(exc)) from None

    def may_rematch(self, match_id: str, seat: int, player: Account | None) -> None:
        """RatedMatchError (with the sentence) unless ``player`` is the account at ``seat``
        of match ``match_id``, where it is rated. Writes nothing."""
        with self._transaction(None) as session:
            row = session.get(MatchAccountRow, match_id)
            if row is None or not row.rated:
                return
            if player is None or player.id != (row.user0 if seat == 0 else row.user1):
                raise RatedMatchError(
                    "This match was rated, and so is its rematch: sign in as the player of "
                    "this seat first."
                )

    def rematched(
        self, match_id: str, rematch_id: str, swapped: bool, connection: Connection
    ) -> None:
        """Note the accounts of match ``match_id`` at the seats of its rematch
        ``rematch_id`` (changed over where ``swapped``), rated if the first was, in
        ``connection``'s transaction (the rematch's start); nothing where no account sat."""
        with self._transaction(connection) as session:
            row = session.get(MatchAccountRow, match_id)
            if row is None:
                return
            users = (row.user1, row.user0) if swapped else (row.user0, row.user1)
            session.add(MatchAccountRow(
                match_id=rematch_id, user0=users[0], user1=users[1], rated=row.rated
            ))

    def finish(
        self, match_id: str, match: Match | BoardMatch, connection: Connection | None = None
    ) -> RatedResultRow | None:
        """Count a rated match that is over, in ``connection``'s transaction (the last
        action's) if given: both ratings and experiences change, and the result is written.
        None, and nothing changes, if the match goes on, is not rated, lacks an account, or
        was counted already."""
        winner = match.winner
        if winner is None:
            return None
        try:
            with self._transaction(connection) as session:
                seats = session.get(MatchAccountRow, match_id)
                if seats is None or not seats.rated or seats.user0 is None or seats.user1 is None:
                    return None
                if session.scalar(
                    select(RatedResultRow.id).where(RatedResultRow.match_id == match_id)
                ) is not None:
                    return None
                # Locked (on databases that lock rows) so that two matches ending at once
                # cannot both start from one player's old rating.
                users = {
                    user.id: user
                    for user in session.scalars(
                        select(UserRow)
                        .where(UserRow.id.in_((seats.user0, seats.user1)))
                        .with_for_update()
                    )
                }
                players = (users[seats.user0], users[seats.user1])
                standings = _standings(session, match.plays, players)
                won, lost = standings[winner], standings[1 - winner]
                change = rating_change(
                    won.rating, lost.rating, match.length, won.experience, lost.experience
                )
                changes = (change.winner, change.loser) if winner == 0 else (
                    change.loser, change.winner
                )
                result = RatedResultRow(
                    match_id=match_id,
                    user0=players[0].id,
                    user1=players[1].id,
                    length=match.length,
                    winner=winner,
                    rating0=standings[0].rating,
                    rating1=standings[1].rating,
                    change0=changes[0],
                    change1=changes[1],
                    finished_at=now(),
                    game=match.plays,
                )
                session.add(result)
                for standing, delta in zip(standings, changes, strict=True):
                    standing.rating += delta
                    standing.experience += match.length
        except IntegrityError:  # counted meanwhile by another request or process
            return None
        return result

    def counting(self, live: LiveMatch) -> Callable[[Connection], None] | None:
        """What the save of ``live``'s last action writes beside it: the result of a match
        that has just ended (:meth:`finish`), so that the action and the ratings it moves
        are kept together or not at all. None while the match goes on."""
        if not live.match.is_over:
            return None
        match_id, match = live.id, live.match

        def count(connection: Connection) -> None:
            self.finish(match_id, match, connection)

        return count

    @contextmanager
    def _transaction(self, connection: Connection | None) -> Iterator[Session]:
        """A session in a transaction of its own, or in ``connection``'s: what it writes is
        then committed, or rolled back, with the rest of that transaction."""
        if connection is None:
            with Session(self.engine, expire_on_commit=False) as session, session.begin():
                yield session
        else:
            with Session(bind=connection, expire_on_commit=False) as session:
                yield session
                session.commit()  # the outer transaction's to commit: this only flushes

    def results(self, account: Account, most: int = 200) -> list[Result]:
        """``account``'s rated matches, the latest first (at most ``most``)."""
        opponent = aliased(UserRow)
        rated = RatedResultRow
        with Session(self.engine) as session:
            rows = session.execute(
                select(rated, opponent.name, opponent.hidden)
                .join(opponent, _against(account, opponent))
                .order_by(RatedResultRow.id.desc())
                .limit(most)
            ).all()
        results = []
        for row, opponent_name, opponent_hidden in rows:
            seat = 0 if row.user0 == account.id else 1
            results.append(
                Result(
                    match_id=row.match_id,
                    opponent=opponent_name,
                    length=row.length,
                    won=row.winner == seat,
                    rating_before=row.rating0 if seat == 0 else row.rating1,
                    change=row.change0 if seat == 0 else row.change1,
                    finished_at=row.finished_at,
                    opponent_hidden=opponent_hidden,
                    game=row.game,
                )
            )
        return results

    def in_games(self, account: Account) -> list[tuple[str, float, int]]:
        """``account``'s rating and experience in each of the other games it has played
        rated, by the games' names (backgammon's are the account's own)."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(GameRatingRow.game, GameRatingRow.rating, GameRatingRow.experience)
                .where(GameRatingRow.user_id == account.id)
                .order_by(GameRatingRow.game)
            ).all()
        return [(game, rating, experience) for game, rating, experience in rows]

    def analysed(self, account: Account, most: int = 50) -> list[Analysed]:
        """How ``account`` played their rated matches of backgammon that have a finished
        analysis of the whole match, the latest first (at most ``most``): one query, which
        reads only the reports' statistics of the players, not their decisions."""
        opponent = aliased(UserRow)
        rated = RatedResultRow
        with Session(self.engine) as session:
            rows = session.execute(
                select(rated, opponent.name, opponent.hidden, AnalysisRow.result["players"])
                .join(opponent, _against(account, opponent))
                .join(AnalysisRow, AnalysisRow.id == rated.match_id)
                .join(MatchRow, MatchRow.id == rated.match_id)
                # An analysis made while the match was played is of part of it only; the
                # other games' are in points a game, not backgammon's mEMG: left out.
                .where(AnalysisRow.status == "done", AnalysisRow.version == MatchRow.version,
                       rated.game == BACKGAMMON)
                .order_by(rated.id.desc())
                .limit(most)
            ).all()
        return [_analysed(account, *row) for row in rows]


def _standings(
    session: Session, game: str, players: tuple[UserRow, UserRow]
) -> tuple[UserRow | GameRatingRow, UserRow | GameRatingRow]:
    """What holds each of ``players``' rating and experience in ``game``: their account for
    backgammon; for another game their row of it, locked, made at the start rating where this
    is their first rated match of it (their accounts are locked already, so that two matches
    ending at once cannot both make it)."""
    if game == BACKGAMMON:
        return players
    rows = {
        row.user_id: row
        for row in session.scalars(
            select(GameRatingRow)
            .where(GameRatingRow.game == game,
                   GameRatingRow.user_id.in_([player.id for player in players]))
            .with_for_update()
        )
    }
    for player in players:
        if player.id not in rows:
            rows[player.id] = GameRatingRow(user_id=player.id, game=game,
                                            rating=START_RATING, experience=START_EXPERIENCE)
            session.add(rows[player.id])
    return rows[players[0].id], rows[players[1].id]


def _against(account: Account, opponent: type[UserRow]) -> SQLColumnExpression[bool]:
    """The join of a rated result to the account that played ``account`` in it."""
    rated = RatedResultRow
    return ((rated.user0 == account.id) & (opponent.id == rated.user1)) | (
        (rated.user1 == account.id) & (opponent.id == rated.user0)
    )


def _analysed(
    account: Account, row: RatedResultRow, opponent: str, opponent_hidden: bool,
    players: list[dict[str, Any]],
) -> Analysed:
    """``account``'s side of a rated match, from the report's statistics of its players
    (seat 0 first)."""
    seat = 0 if row.user0 == account.id else 1
    side = players[seat]
    overall = side["overall"]
    return Analysed(
        match_id=row.match_id,
        opponent=opponent,
        opponent_hidden=opponent_hidden,
        length=row.length,
        won=row.winner == seat,
        finished_at=row.finished_at,
        checker=side["checker"]["error_rate_memg"],
        cube=side["cube"]["error_rate_memg"],
        overall=overall["error_rate_memg"],
        equity_lost=overall["error_total_emg"],
        pr=overall.get("pr"),
    )


async def get_ratings(request: Request) -> Ratings:
    """The app's rated matches and ratings (a dependency; ``async``, so that FastAPI does not
    hand it to a worker thread)."""
    ratings: Ratings = request.app.state.ratings
    return ratings


def refuse_unratable(
    rated: bool, creator: Account | None, length: int, online: bool, from_position: bool
) -> None:
    """422 with the reason when a new match asks to be rated but cannot be."""
    if rated:
        try:
            check_rated(creator, length, online, from_position)
        except RatedMatchError as exc:
            raise HTTPException(422, str(exc)) from None


RatingsDep = Annotated[Ratings, Depends(get_ratings)]
