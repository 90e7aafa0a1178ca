"""The database's answers about online matches: which match an invite opens and what it
offers, the matches listed in the lobby, waiting for an opponent, and the live matches
spectators may watch.

They read the columns the matches table keeps of each match's seating (:meth:`.seats.Seating.
columns`: the invite's digest, whether it is open, whether the lobby lists the match), which
are indexed, so none reads the settings of every match. A live match is an online match whose
invite is spent (both players have come), listed in the lobby by its creator (a match for a
friend stays private), acted in lately; whether it is over is for its copy in memory to say.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from ..accounts.ratings import Seated, seated, with_accounts
from ..db import MatchRow, now
from ..play.schemas import InviteView, LobbyEntry

#: A match nobody has acted in for this long is not offered as live: its players have most
#: likely left it (a game waits this long for nobody; a claim ends it sooner).
LIVE_IDLE = timedelta(hours=1)


def find_invite(engine: Engine, digest: str) -> tuple[str, bool] | None:
    """The id of the match whose invite has ``digest``, and whether that invite is spent;
    None when no match has it."""
    query = select(MatchRow.id, MatchRow.waiting).where(MatchRow.invite_digest == digest)
    with Session(engine) as session:
        row = session.execute(query).first()
    return None if row is None else (row[0], not row[1])


def open_matches(engine: Engine, most: int) -> list[LobbyEntry]:
    """The ``most`` newest matches listed in the lobby whose invite is still open, with a
    signed-in creator's name and rating (one query: the accounts are joined to the
    matches)."""
    matches = (
        select(MatchRow.id, MatchRow.created_at, MatchRow.settings, MatchRow.record,
               MatchRow.game)
        .where(MatchRow.listed)
        .order_by(MatchRow.created_at.desc())
        .limit(most)
    )
    with Session(engine) as session:
        rows = session.execute(with_accounts(matches)).all()
    return [_entry(match_id, created, settings, record, game, seated(*accounts))
            for match_id, created, settings, record, game, *accounts in rows]


def _entry(
    match_id: str, created: Any, settings: dict[str, Any], record: dict[str, Any], game: str,
    accounts: Seated | None,
) -> LobbyEntry:
    offer = _offer(settings, record, game, accounts)
    return LobbyEntry(
        **offer.model_dump(),
        id=match_id,
        invite=settings["seating"]["invite"]["public"],
        created_at=created,
    )


def invite_offer(engine: Engine, digest: str) -> InviteView | None:
    """What the open invite whose digest is ``digest`` offers, None where no open invite has
    it (one query: the accounts are joined to the match)."""
    query = with_accounts(
        select(MatchRow.settings, MatchRow.record, MatchRow.game).where(
            MatchRow.invite_digest == digest, MatchRow.waiting
        ),
    )
    with Session(engine) as session:
        row = session.execute(query).first()
    if row is None:
        return None
    settings, record, game, *accounts = row
    return _offer(settings, record, game, seated(*accounts))


def _offer(
    settings: dict[str, Any], record: dict[str, Any], game: str, accounts: Seated | None
) -> InviteView:
    """What a match's open invite offers, read from its row's settings and record."""
    seating = settings["seating"]
    seat = seating["invite"]["seat"]
    # The creator sits at the seat the invite does not give.
    creator = None if accounts is None else accounts.seats[1 - seat]
    return InviteView(
        creator=record["players"][1 - seat] if creator is None else creator.name,
        rating=None if creator is None else creator.rating,
        rated=accounts is not None and accounts.rated,
        practice=bool(seating.get("practice", False)),
        seat=seat,
        length=record["length"],
        crawford=record["crawford"],
        rules=record["rules"],
        clock=seating.get("clock"),
        game=game,
    )


def live_matches(
    engine: Engine, most: int, idle: timedelta = LIVE_IDLE
) -> list[tuple[str, datetime, int, Seated | None]]:
    """The ids, the times last acted in, the versions and the accounts at the seats (None
    where no signed-in player sits) of the ``most`` online matches both of whose players have
    come, listed in the lobby by their creator and acted in within ``idle``, the latest acted
    in first (some may be over). One query: the accounts are joined to the matches."""
    public = MatchRow.settings["seating"]["public"].as_boolean()
    matches = (
        select(MatchRow.id, MatchRow.updated_at, MatchRow.version)
        .where(
            # The online matches, through the invites' index: a range the index serves
            # (``IS NOT NULL`` had SQLite scan every match).
            MatchRow.invite_digest > "",
            MatchRow.waiting.is_(False),
            public,
            MatchRow.updated_at >= now() - idle,
        )
        .order_by(MatchRow.updated_at.desc())
        .limit(most)
    )
    query = with_accounts(matches)
    with Session(engine) as session:
        return [
            (match_id, updated_at, version, seated(*accounts))
            for match_id, updated_at, version, *accounts in session.execute(query)
        ]

