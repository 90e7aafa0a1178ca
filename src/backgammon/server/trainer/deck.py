"""Each signed-in player's deck: the cards made from their analysed matches, kept in the
database, and the schedule that brings each back (FSRS, the Free Spaced Repetition
Scheduler, from the ``fsrs`` package: MIT, the scheduler Anki ships).

A card is made new and due at once. An answer is rated for the schedule: a wrong one
*Again* (it comes back within minutes, then is learned anew), a right one *Good*, or as the
player found it, *Hard* or *Easy*; the scheduler moves its due time from that and from the
card's past answers. Each answer is kept (``trainer_reviews``) for the progress by day.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from fsrs import Card, Rating, Scheduler, State
from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ...analysis.decisions import Mark
from ..db import TrainerCardRow, TrainerReviewRow, now, utc
from .cards import Evaluate, Judged, judge_play, mistake

#: How an answer is rated: wrong is always Again; right is Good unless the player says.
RATINGS = {"hard": Rating.Hard, "good": Rating.Good, "easy": Rating.Easy}
#: The days of answers the progress shows.
PROGRESS_DAYS = 30

# No fuzz: the same answers give the same schedule (the tests and a player's expectations).
_SCHEDULER = Scheduler(enable_fuzzing=False)


class NoCardError(LookupError):
    """No card of that id is in the player's deck (another player's is not theirs to see)."""


class NotRatableError(Exception):
    """No answer to rate: none yet, or a wrong one (rated *Again*, however it felt)."""


@dataclass(frozen=True)
class Reviewed:
    """An answer judged (as the card names it) and the card rescheduled: the row as it now
    is."""

    card: TrainerCardRow
    answer: str
    judged: Judged


class Deck:
    """The decks of every player, in the app's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def _known(self, user_id: int, match_id: str) -> set[tuple[int, int, str]]:
        """The decisions of ``match_id`` already in ``user_id``'s deck (game, move, kind)."""
        card = TrainerCardRow
        with Session(self.engine) as session:
            rows = session.execute(
                select(card.game, card.move_number, card.kind)
                .where(card.user_id == user_id, card.match_id == match_id)
            ).all()
        return {(game, move, kind) for game, move, kind in rows}

    def add(
        self,
        user_id: int,
        match_id: str,
        seat: int,
        report: dict[str, Any],
        least: Mark,
        reasons: Callable[[dict[str, Any]], list[dict[str, Any]]],
    ) -> int:
        """Add to ``user_id``'s deck the decisions of ``seat`` in ``match_id``'s analysis
        ``report`` marked ``least`` or worse that it does not hold yet, each with its
        ``reasons`` (worked out only for the new ones); the number added. A decision added
        meanwhile by another request is skipped, not added twice."""
        known = self._known(user_id, match_id)
        new = [
            d for d in report["decisions"]
            if mistake(d, seat, least) and (d["game"], d["move_number"], d["kind"]) not in known
        ]
        return sum(self._added(_card(user_id, match_id, d, reasons(d))) for d in new)

    def _added(self, row: TrainerCardRow) -> bool:
        """Add the new card ``row``; False where another request added its decision at the
        same moment (the table's unique key refuses a second)."""
        try:
            with Session(self.engine) as session, session.begin():
                session.add(row)
        except IntegrityError:
            return False
        return True

    def merge(
        self,
        user_id: int,
        cards: Sequence[tuple[str, dict[str, Any]]],
        reasons: Callable[[dict[str, Any]], list[dict[str, Any]] | None],
    ) -> int:
        """Add to ``user_id``'s deck the cards a browser kept (:mod:`.browser_deck`), each a
        decision of a match (its id, and the decision as :meth:`add` reads one, with the
        browser's ``schedule``) that the deck does not hold yet, by the same key as a
        match's cards (the match, game, move and kind), each with its ``reasons`` and the
        browser's schedule where ``fsrs`` can read it (else new); the number added. One
        held already keeps its own schedule; one whose ``reasons`` are None (its position
        cannot be) is left out."""
        known: dict[str, set[tuple[int, int, str]]] = {}
        added = 0
        for match_id, decision in cards:
            if match_id not in known:
                known[match_id] = self._known(user_id, match_id)
            key = (decision["game"], decision["move_number"], decision["kind"])
            if key in known[match_id]:
                continue
            why = reasons(decision)
            if why is None:
                continue
            known[match_id].add(key)
            schedule = kept_schedule(decision.get("schedule"), now())
            added += self._added(_card(user_id, match_id, decision, why, schedule))
        return added

    def cards(
        self, user_id: int, match_id: str | None = None, due_only: bool = True, most: int = 100
    ) -> list[TrainerCardRow]:
        """``user_id``'s cards (of ``match_id`` alone, if given), the due ones only by
        default, the longest due first (at most ``most``)."""
        card = TrainerCardRow
        query = select(card).where(card.user_id == user_id)
        if match_id is not None:
            query = query.where(card.match_id == match_id)
        if due_only:
            query = query.where(card.due <= now())
        with Session(self.engine) as session:
            return list(session.scalars(query.order_by(card.due, card.id).limit(most)))

    def card(self, user_id: int, card_id: int) -> TrainerCardRow:
        """``user_id``'s card ``card_id``; NoCardError when it is not theirs."""
        with Session(self.engine) as session:
            row = session.get(TrainerCardRow, card_id)
        if row is None or row.user_id != user_id:
            raise NoCardError(card_id)
        return row

    def answer(
        self, user_id: int, card_id: int, answer: str, evaluate: Evaluate,
        rating: str | None = None, at: datetime | None = None,
    ) -> Reviewed:
        r"""Judge ``answer`` to ``user_id``'s card (a choice, or a checker card's legal play,
        ``evaluate``\ d where the analysis did not weigh it), rate it (``rating``: how a
        right answer felt, "hard", "good" or "easy") and reschedule the card, at ``at`` (now
        by default). NoCardError when it is not theirs; NotAChoiceError when the answer is
        none of the card's choices nor a legal play."""
        stamp = now() if at is None else utc(at).astimezone(UTC)
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            row = session.get(TrainerCardRow, card_id, with_for_update=True)
            if row is None or row.user_id != user_id:
                raise NoCardError(card_id)
            answer, judged = judge_play(_as_card(row), answer, evaluate)
            before = row.schedule
            grade, row.schedule, row.due = reschedule(before, judged.right, rating, stamp)
            session.add(TrainerReviewRow(
                card_id=row.id, user_id=user_id, answer=answer[:60], right=judged.right,
                rating=int(grade), reviewed_at=stamp, before=before,
            ))
        return Reviewed(row, answer, judged)

    def rate(self, user_id: int, card_id: int, rating: str) -> TrainerCardRow:
        """Rate again the last answer to ``user_id``'s card, a right one, as the player found
        it (``rating``: "hard", "good" or "easy"): the card rescheduled from its schedule
        before that answer, at that answer's time. NoCardError when it is not theirs;
        NotRatableError when it has no answer, or its last was wrong (rated *Again*)."""
        review = TrainerReviewRow
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            row = session.get(TrainerCardRow, card_id, with_for_update=True)
            if row is None or row.user_id != user_id:
                raise NoCardError(card_id)
            last = session.scalars(
                select(review).where(review.card_id == card_id)
                .order_by(review.id.desc()).limit(1)
            ).first()
            if last is None:
                raise NotRatableError("The card has no answer to rate yet.")
            if not last.right:
                raise NotRatableError(
                    "The card's last answer was wrong: it comes back soon, whatever it felt."
                )
            stamp = utc(last.reviewed_at).astimezone(UTC)
            grade, row.schedule, row.due = reschedule(last.before, True, rating, stamp)
            last.rating = int(grade)
        return row

    def progress(self, user_id: int, days: int = PROGRESS_DAYS) -> dict[str, Any]:
        """Where ``user_id``'s deck stands: its cards, those due now, those learned (in
        FSRS's review state: past their first steps), and for each of the last ``days``
        days with answers (UTC), the answers and the right ones."""
        card, review = TrainerCardRow, TrainerReviewRow
        stamp = now()
        with Session(self.engine) as session:
            schedules = session.execute(
                select(card.due, card.schedule).where(card.user_id == user_id)
            ).all()
            # Counted here rather than grouped by the database: SQLite keeps times as text,
            # and a day is UTC's whatever the database's own time zone.
            answers = session.execute(
                select(review.reviewed_at, review.right)
                .where(review.user_id == user_id,
                       review.reviewed_at >= stamp - timedelta(days=days))
            ).all()
        by_day: dict[str, list[int]] = {}
        for reviewed_at, right in answers:
            counts = by_day.setdefault(utc(reviewed_at).date().isoformat(), [0, 0])
            counts[0] += 1
            counts[1] += bool(right)
        return {
            "cards": len(schedules),
            "due": sum(utc(due) <= stamp for due, _ in schedules),
            "learned": sum(s["state"] == State.Review for _, s in schedules),
            "days": [{"day": day, "answered": n, "right": r}
                     for day, (n, r) in sorted(by_day.items())],
        }


def new_schedule(at: datetime) -> dict[str, Any]:
    """A new card's schedule: due at ``at``."""
    # The card's id in the scheduler is its own business: the row's id is the card's.
    return dict(Card(card_id=0, due=at).to_dict())


def kept_schedule(schedule: Any, at: datetime) -> tuple[dict[str, Any], datetime]:
    """A schedule kept elsewhere (a browser's), as ``fsrs`` writes it again, and its due
    time; a new one, due at ``at``, where it is not one ``fsrs`` can read.

    >>> from datetime import datetime, UTC
    >>> at = datetime(2026, 12, 7, tzinfo=UTC)
    >>> kept_schedule({"nonsense": 1}, at) == (new_schedule(at), at)
    True
    >>> _, schedule, due = reschedule(new_schedule(at), True, None, at)
    >>> kept_schedule(schedule, at) == (schedule, due)
    True
    """
    try:
        card = Card.from_dict(schedule)
        return dict(card.to_dict()), card.due
    except (KeyError, ValueError, TypeError, AttributeError):
        return new_schedule(at), at


def reschedule(
    schedule: dict[str, Any], right: bool, rating: str | None, at: datetime
) -> tuple[Rating, dict[str, Any], datetime]:
    """The rating of an answer (wrong: Again; right: ``rating``, Good by default) and the
    schedule it makes of ``schedule`` answered at ``at``, with its new due time. ValueError
    (or KeyError, TypeError) when ``schedule`` is not a schedule ``fsrs`` wrote."""
    grade = RATINGS[rating or "good"] if right else Rating.Again
    kept = Card.from_dict(schedule)  # type: ignore[arg-type]
    scheduled, _ = _SCHEDULER.review_card(kept, grade, at)
    return grade, dict(scheduled.to_dict()), scheduled.due


def _as_card(row: TrainerCardRow) -> dict[str, Any]:
    """The card's row as :func:`.cards.judge_play` reads a card."""
    return {"kind": row.kind, "weighed": row.choices, "best": row.best, "dice": row.dice,
            "position_id": row.position_id, "match_id": row.gnubg_match_id}


def _card(
    user_id: int, match_id: str, decision: dict[str, Any], reasons: list[dict[str, Any]],
    scheduled: tuple[dict[str, Any], datetime] | None = None,
) -> TrainerCardRow:
    """The row of a new card: new and due now, unless ``scheduled`` (its schedule and due
    time) says otherwise."""
    stamp = now()
    schedule, due = scheduled or (new_schedule(stamp), stamp)
    return TrainerCardRow(
        user_id=user_id, match_id=match_id, game=decision["game"],
        move_number=decision["move_number"], kind=decision["kind"],
        position_id=decision["position_id"], gnubg_match_id=decision["match_id"],
        dice=decision["dice"], played=decision["played"], best=decision["best"],
        equity_loss=decision["equity_loss"], mark=decision["mark"],
        choices=[{"text": a["text"], "equity": a["equity"]} for a in decision["alternatives"]],
        reasons=reasons, created_at=stamp, due=due, schedule=schedule,
    )
