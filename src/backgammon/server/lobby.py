"""The database's answers about online matches: which match an invite opens, and the matches
listed in the lobby, waiting for an opponent.

Both read the columns the matches table keeps of each match's seating (:meth:`.seats.Seating.
columns`: the invite's digest, whether it is open, whether the lobby lists the match), which
are indexed, so neither reads the settings of every match.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from .db import MatchRow
from .schemas import LobbyEntry


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
        rules=record["rules"],
        created_at=created,
    )
