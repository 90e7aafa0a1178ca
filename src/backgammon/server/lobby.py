"""The database's answers about online matches: which match an invite opens, the matches
listed in the lobby, waiting for an opponent, and the live matches spectators may watch.

They read the columns the matches table keeps of each match's seating (:meth:`.seats.Seating.
columns`: the invite's digest, whether it is open, whether the lobby lists the match), which
are indexed, so none reads the settings of every match. A live match is an online match whose
invite is spent (both players have come), listed in the lobby by its creator (a match for a
friend stays private), acted in lately; whether it is over is for its copy in memory to say.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session, aliased

from .db import MatchAccountRow, MatchRow, UserRow, now
from .schemas import LobbyEntry

#: A match nobody has acted in for this long is not offered as live: its players have most
#: likely left it (a game waits this long for nobody; a claim ends it sooner).
LIVE_IDLE = timedelta(hours=1)


@dataclass(frozen=True)
class Seated:
    """The accounts at a live match's seats, as their names and ratings (None: a guest), and
    whether it is rated."""

    names: tuple[str | None, str | None]
    ratings: tuple[float | None, float | None]
    rated: bool


def find_invite(engine: Engine, digest: str) -> tuple[str, bool] | None:
    """The id of the match whose invite has ``digest``, and whether that invite is spent;
    None when no match has it."""
    query = select(MatchRow.id, MatchRow.waiting).where(MatchRow.invite_digest == digest)
    with Session(engine) as session:
        row = session.execute(query).first()
    return None if row is None else (row[0], not row[1])


def open_matches(engine: Engine, most: int) -> list[LobbyEntry]:
    """The ``most`` newest matches listed in the lobby whose invite is still open."""
    query = (
        select(MatchRow.id, MatchRow.created_at, MatchRow.settings, MatchRow.record)
        .where(MatchRow.listed)
        .order_by(MatchRow.created_at.desc())
        .limit(most)
    )
    with Session(engine) as session:
        rows = session.execute(query).all()
    return [_entry(*row) for row in rows]


def _entry(
    match_id: str, created: Any, settings: dict[str, Any], record: dict[str, Any]
) -> LobbyEntry:
    invite = settings["seating"]["invite"]
    seat = invite["seat"]
    return LobbyEntry(
        id=match_id,
        invite=invite["public"],
        creator=record["players"][1 - seat],
        rating=None,
        rated=False,
        seat=seat,
        length=record["length"],
        crawford=record["crawford"],
        rules=record["rules"],
        created_at=created,
    )


def live_matches(
    engine: Engine, most: int, idle: timedelta = LIVE_IDLE
) -> list[tuple[str, datetime, int]]:
    """The ids, the times last acted in and the versions of the ``most`` online matches both
    of whose players have come, listed in the lobby by their creator and acted in within
    ``idle``, the latest acted in first (some may be over)."""
    public = MatchRow.settings["seating"]["public"].as_boolean()
    query = (
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
    with Session(engine) as session:
        return [(row[0], row[1], row[2]) for row in session.execute(query)]


def seated(engine: Engine, match_ids: list[str]) -> dict[str, Seated]:
    """The accounts at each of these matches that has a signed-in player."""
    if not match_ids:
        return {}
    first, second = aliased(UserRow), aliased(UserRow)
    query = (
        select(MatchAccountRow, first, second)
        .outerjoin(first, first.id == MatchAccountRow.user0)
        .outerjoin(second, second.id == MatchAccountRow.user1)
        .where(MatchAccountRow.match_id.in_(match_ids))
    )
    with Session(engine) as session:
        rows = session.execute(query).all()
    return {
        seats.match_id: Seated(
            (None if one is None else one.name, None if two is None else two.name),
            (None if one is None else one.rating, None if two is None else two.rating),
            seats.rated,
        )
        for seats, one, two in rows
    }
