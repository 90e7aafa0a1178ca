"""The reports of chat messages, read for whoever runs the site (``backgammon reports``):
each with its copy of the message, kept even if the message went."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import make_url, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from ...errors import BackgammonError
from ..db import ChatReportRow, make_engine, utc


class NoReportsError(BackgammonError):
    """The database cannot be read for reports (no such table: never brought up to date)."""


def read_reports(url: str, match_id: str | None = None) -> list[dict[str, Any]]:
    """The reports on the database at ``url`` (of one match, if given), the oldest first, as
    plain JSON values (times in ISO 8601, UTC); NoReportsError, with the sentence, where the
    database holds no reports' table, or is an SQLite file that is not there."""
    query = select(ChatReportRow).order_by(ChatReportRow.id)
    if match_id is not None:
        query = query.where(ChatReportRow.match_id == match_id)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and not Path(parsed.database or "").is_file():
        # Read, never made: connecting would leave an empty database file behind.
        raise NoReportsError(
            "There is no SQLite database at the path given: name the server's database with "
            "--database-url."
        )
    engine = make_engine(url)
    try:
        with Session(engine) as session:
            return _rows(session, query)
    except SQLAlchemyError:
        raise NoReportsError(
            "The database holds no reports' table: start the server on it once (it brings "
            "the database up to date), or name the server's database with --database-url."
        ) from None
    finally:
        engine.dispose()


def _rows(session: Session, query: Any) -> list[dict[str, Any]]:
    """The reports ``query`` reads, as plain JSON values."""
    return [
        {
            "id": row.id, "reported_at": utc(row.created_at).isoformat(),
            "match": row.match_id, "message": row.message_id, "reporter": row.reporter,
            "channel": row.channel, "seat": row.seat, "account": row.user_id,
            "name": row.name, "text": row.text, "phrase": row.phrase,
            "sent_at": utc(row.sent_at).isoformat(),
        }
        for row in session.scalars(query)
    ]


def report_text(report: dict[str, Any]) -> str:
    """A report as lines for a person to read (the message's text as written, indented).

    >>> print(report_text({"id": 1, "reported_at": "2026-12-07T10:00:05+00:00", "match": "m1",
    ...     "message": 7, "reporter": 0, "channel": "players", "seat": 1, "account": None,
    ...     "name": "Bob", "text": "<b>rude</b>", "phrase": None,
    ...     "sent_at": "2026-12-07T10:00:00+00:00"}))
    Report 1, 2026-12-07T10:00:05+00:00, by seat 0 of match m1:
      message 7 in the players' channel, 2026-12-07T10:00:00+00:00, from Bob (seat 1)
      <b>rude</b>
    """
    writer = (f"{report['name']} (seat {report['seat']})" if report["seat"] is not None
              else f"{report['name']} (a spectator, account {report['account']})")
    said = report["text"] if report["phrase"] is None else f"[quick phrase: {report['phrase']}]"
    return (
        f"Report {report['id']}, {report['reported_at']}, by seat {report['reporter']} of "
        f"match {report['match']}:\n"
        f"  message {report['message']} in the {report['channel']}' channel, "
        f"{report['sent_at']}, from {writer}\n"
        f"  {said}"
    )
