"""The tables that keep every match and account, and the engine that reaches them.

A match is stored as its settings (who sits where, how the dice are rolled) and the game's
own record (:meth:`backgammon.game.match.Match.to_dict`): the events of each game. Replaying
the record rebuilds the match exactly, so a reload of the page or a restart of the server
resumes where play stopped. The schema is created and upgraded by Alembic (the revisions in
``migrations/versions``); :func:`migrate` brings a database to the newest one at start-up.
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from pydantic_core import to_json
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    create_engine,
    event,
    false,
    text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).with_name("migrations")
#: What a match of backgammon plays, in any layout (:attr:`.Match.plays`).
BACKGAMMON = "backgammon"


class Base(DeclarativeBase):
    """The declarative base of the server's tables."""


class MatchRow(Base):
    """One match or money session: its settings and its record."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: The seats (human or computer, with the computer's level) and the dice source.
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: ``Match.to_dict()``: the rules, the players and every game's events.
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: The number of events in the record, which every accepted action raises.
    version: Mapped[int] = mapped_column(Integer)
    #: What the lobby and the invites look up, kept beside the settings' seating (:meth:`.seats.
    #: Seating.columns`): the invite's digest (kept once spent, so that its reuse is told
    #: apart from a guess), whether it is still open, and whether the lobby lists the match.
    invite_digest: Mapped[str | None] = mapped_column(
        String(64), nullable=True, index=True, unique=True
    )
    waiting: Mapped[bool] = mapped_column(Boolean, server_default=false())
    listed: Mapped[bool] = mapped_column(Boolean, server_default=false(), index=True)
    #: What the match plays (:attr:`.Match.plays`): the game its ratings are kept in.
    game: Mapped[str] = mapped_column(String(16), server_default=BACKGAMMON)


class ActionKeyRow(Base):
    """A seat's last action sent with an ``Idempotency-Key``: the key, the digest of what was
    asked, and the version the action made, written in the same transaction as the action,
    so that a resend of it, here or to another process, is answered with the state of that
    version and applies nothing."""

    __tablename__ = "action_keys"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(64))
    #: SHA-256 of the action and the side the answer was drawn from (hex).
    digest: Mapped[str] = mapped_column(String(64))
    #: The match's version after the action.
    version: Mapped[int] = mapped_column(Integer)


class AnalysisRow(Base):
    """The analysis of a match (its id is the match's) or of an uploaded ``.mat`` file: how
    far it has got, and once done the report (:func:`backgammon.analysis.report.to_json`)."""

    __tablename__ = "analyses"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: An uploaded file's match (``Match.to_dict()``), so that an analysis cut short by a
    #: restart can start again; None for a match of the server's own, read from its row.
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: The match's version analysed: a match that has changed since has a stale analysis.
    version: Mapped[int] = mapped_column(Integer)
    plies: Mapped[int] = mapped_column(Integer)
    #: "running", "done" or "failed".
    status: Mapped[str] = mapped_column(String(16))
    #: The report once done; the reason (a sentence) once failed.
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(String(500), nullable=True)


class UserRow(Base):
    """An account: its name, its password's Argon2 hash, and its FIBS rating and experience
    (:mod:`backgammon.ratings`)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: As chosen; ``name_key`` (its lower case) is what makes a name taken.
    name: Mapped[str] = mapped_column(String(20))
    name_key: Mapped[str] = mapped_column(String(20), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    rating: Mapped[float] = mapped_column(Float)
    #: The points of the rated matches finished.
    experience: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: Whether the player hid their page: only they may see it, and other pages do not link it.
    hidden: Mapped[bool] = mapped_column(Boolean, server_default=false())


class GameRatingRow(Base):
    """An account's rating and experience in one of the other games (:attr:`.BoardMatch.
    plays`), from its first rated match of that game on; backgammon's are the account's own
    (:class:`UserRow`)."""

    __tablename__ = "game_ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    experience: Mapped[int] = mapped_column(Integer)


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its cookie's secret (the secret itself is never
    stored), whose account it is, and until when."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MatchAccountRow(Base):
    """The accounts that sit at a match (a guest's seat has none), and whether it is rated;
    written when a signed-in player creates or joins a match."""

    __tablename__ = "match_accounts"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    user0: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    user1: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)


class RatedResultRow(Base):
    """The result of a rated match, written once (the match id is unique) in the same
    transaction that changes the two ratings: the ratings before and their changes."""

    __tablename__ = "rated_results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), unique=True)
    user0: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    user1: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    length: Mapped[int] = mapped_column(Integer)
    #: The seat that won, 0 or 1.
    winner: Mapped[int] = mapped_column(Integer)
    rating0: Mapped[float] = mapped_column(Float)
    rating1: Mapped[float] = mapped_column(Float)
    change0: Mapped[float] = mapped_column(Float)
    change1: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: The game the ratings changed in (:attr:`MatchRow.game`).
    game: Mapped[str] = mapped_column(String(16), server_default=BACKGAMMON)


class ChatMessageRow(Base):
    """A message of a match's chat (:mod:`.chat`): who wrote it, in which channel, and its
    text or the key of its quick phrase (each reader sees the phrase in their language)."""

    __tablename__ = "chat_messages"

    #: Rising with each message written, whichever process wrote it: the order they are shown.
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    #: "players" or "spectators".
    channel: Mapped[str] = mapped_column(String(16))
    #: The player's seat (0 or 1); None for a spectator.
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The writer's account, if signed in (a spectator always is).
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    #: The writer's name as the match or the account gave it then.
    name: Mapped[str] = mapped_column(String(40))
    #: The text as written (checked: :func:`.chat.texts.clean`), empty for a quick phrase.
    text: Mapped[str] = mapped_column(String(300))
    #: A quick phrase's key (:data:`.chat.texts.PHRASES`), or None.
    phrase: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatMuteRow(Base):
    """A player's mute of the other side's chat in a match, kept until they lift it: the seat
    that muted."""

    __tablename__ = "chat_mutes"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)


class ChatReportRow(Base):
    """A message a player reported, for whoever runs the site (``backgammon reports``): a copy
    of what it said, who wrote it and when, kept even if the message itself went."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("chat_messages.id"))
    #: The seat of the player who reported it.
    reporter: Mapped[int] = mapped_column(Integer)
    channel: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(300))
    phrase: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: When the message was written, and when reported.
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (UniqueConstraint("message_id", "reporter"),)


class TournamentRow(Base):
    """A tournament (:mod:`.tournaments`): its settings, where it stands, and the version
    that each change raises, which a change names so that of two processes making the same
    one, only one writes it."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    #: "elimination" or "round_robin".
    kind: Mapped[str] = mapped_column(String(16))
    #: What each of its matches plays, as :attr:`MatchRow.game` names it.
    game: Mapped[str] = mapped_column(String(16), server_default=BACKGAMMON)
    creator_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    length: Mapped[int] = mapped_column(Integer)
    #: "none", "fast", "normal" or "casual": the clock each of its matches is to have.
    time_control: Mapped[str] = mapped_column(String(16))
    rated: Mapped[bool] = mapped_column(Boolean)
    max_players: Mapped[int] = mapped_column(Integer)
    #: When it starts with the players it has; None: once it is full.
    starts_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: "open", "running", "finished" or "cancelled".
    status: Mapped[str] = mapped_column(String(16), index=True)
    version: Mapped[int] = mapped_column(Integer)
    #: The key its matches' seat tokens are made with (:func:`.tournaments.service.
    #: seat_token`), never shown.
    secret: Mapped[str] = mapped_column(String(64))
    winner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentPlayerRow(Base):
    """A player's entry in a tournament: one each (the key), and once it starts their seed
    (from 0, the top seed)."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)


class TournamentMatchRow(Base):
    """A place of a tournament's draw (:class:`.tournaments.draw.Pairing`), made once (its
    round and slot are the key): its players, its match (None for a bye), and once decided
    its winner and the points each seat won."""

    __tablename__ = "tournament_matches"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    slot: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str | None] = mapped_column(
        ForeignKey("matches.id"), nullable=True, unique=True
    )
    user0: Mapped[int] = mapped_column(ForeignKey("users.id"))
    user1: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    winner: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    points0: Mapped[int] = mapped_column(Integer)
    points1: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TrainerCardRow(Base):
    """A decision a signed-in player got wrong, kept in their deck to practise
    (:mod:`.trainer`): where it was, what they chose and what was best, the choices weighed,
    the reasons, and when it comes back (its spaced-repetition schedule). One a decision:
    the match's analysis asked for again adds none twice."""

    __tablename__ = "trainer_cards"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    game: Mapped[int] = mapped_column(Integer)
    move_number: Mapped[int] = mapped_column(Integer)
    #: "checker", "cube" (double or not) or "take" (take or drop).
    kind: Mapped[str] = mapped_column(String(16))
    #: gnubg's Position ID and Match ID of the moment, from the decider's side.
    position_id: Mapped[str] = mapped_column(String(20))
    gnubg_match_id: Mapped[str] = mapped_column(String(20))
    dice: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    played: Mapped[str] = mapped_column(String(60))
    best: Mapped[str] = mapped_column(String(60))
    #: What the played choice lost (EMG), and its mark.
    equity_loss: Mapped[float] = mapped_column(Float)
    mark: Mapped[str] = mapped_column(String(16))
    #: The choices weighed (``text``, ``equity``), best first, as the analysis gave them.
    choices: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    #: Why the best is best: each reason's code and figures (said in the reader's language).
    reasons: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: When it is next due, and the scheduler's state (FSRS's card, as ``fsrs`` writes it).
    due: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    schedule: Mapped[dict[str, Any]] = mapped_column(JSON)

    __table_args__ = (UniqueConstraint("user_id", "match_id", "game", "move_number", "kind"),)


class TrainerReviewRow(Base):
    """An answer to a card of the trainer: when, whether it was right, the rating the
    schedule took from it (FSRS's: 1 again, 2 hard, 3 good, 4 easy), and the card's schedule
    before it, so that the player may say afterwards how a right answer felt."""

    __tablename__ = "trainer_reviews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("trainer_cards.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    answer: Mapped[str] = mapped_column(String(60))
    right: Mapped[bool] = mapped_column(Boolean)
    rating: Mapped[int] = mapped_column(Integer)
    reviewed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    before: Mapped[dict[str, Any]] = mapped_column(JSON)


def now() -> datetime:
    """The time to stamp a row with."""
    return datetime.now(UTC)


def utc(stamp: datetime) -> datetime:
    """A time read from a row, in UTC: SQLite gives it back without its zone.

    >>> utc(datetime(2026, 12, 2, 8, 0)).isoformat()
    '2026-12-02T08:00:00+00:00'
    """
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; an SQLite file's folder is created when missing, and a plain
    ``postgresql://`` URL is served by psycopg 3 (SQLAlchemy's default is psycopg2)."""
    parsed = make_url(url)
    is_sqlite = parsed.get_backend_name() == "sqlite"
    if is_sqlite and parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    # A connection for each of the threads that may write at once (Starlette's pool has 40),
    # kept open once made: connections beyond the pool's size are closed when given back and
    # made again at the next busy moment, which cost the server and PostgreSQL about a tenth
    # more CPU an action under load (bench/server/server.py). The database must allow 50 a process,
    # with the actions' saves' own (:class:`.saves.AsyncDriverSaves`).
    options: dict[str, Any] = {} if is_sqlite else {"pool_size": 40, "max_overflow": 0}
    engine = create_engine(parsed, json_serializer=json_text, **options)
    if is_sqlite:
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


#: The connections of a process's saves of actions on PostgreSQL (:class:`.saves.
#: AsyncDriverSaves`): its saves under way at once.
SAVING_CONNECTIONS = 10


class JSONText(str):
    """JSON text made already, written to a JSON column as it is (:func:`json_text`): a
    match's record at each action, which :meth:`backgammon.game.match.Match.to_json` makes
    mostly from its events' texts, made once."""


def json_text(value: Any) -> str:
    """``value`` as JSON text for a JSON column: :class:`JSONText` as it is, anything else by
    pydantic's serialiser, twice as fast as the standard library's.

    >>> json_text({"games": [[{"action": "roll", "dice": (6, 1)}]], "ratio": 0.5})
    '{"games":[[{"action":"roll","dice":[6,1]}]],"ratio":0.5}'
    >>> json_text(JSONText('{"games":[]}'))
    '{"games":[]}'
    """
    if isinstance(value, JSONText):
        return str(value)  # a plain str for the driver
    return to_json(value).decode()


def autocommitting(engine: Engine) -> Engine:
    """``engine`` for statements that are each their own transaction: no BEGIN sent before
    one, nor a ROLLBACK when its connection goes back to the pool (on PostgreSQL, two round
    trips of three for a read, made by the other processes at each action of a match they
    show; and of four for an action's save, a statement of its own there)."""
    return engine.execution_options(isolation_level="AUTOCOMMIT")


def is_shared(engine: Engine) -> bool:
    """Whether other processes may write to the engine's database (anything but SQLite,
    which this project serves from one process)."""
    return engine.dialect.name != "sqlite"


#: The pages of SQLite's log after which a commit copies it into the database itself (SQLite's
#: default is 1,000): far more than :class:`Checkpoints` lets it hold, so that a commit does
#: it only where nothing else does (a command-line tool's engine, say).
AUTOCHECKPOINT_PAGES = 20_000


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # Write-ahead logging lets readers go on while an action is written; a commit writes to
    # the log without waiting for the disk, which a checkpoint flushes.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_PAGES}")
    cursor.close()


class Checkpoints:
    """A thread that copies SQLite's write-ahead log into the database every ``every``
    seconds (a passive checkpoint, which waits for no reader or writer), where the server
    would otherwise have a commit do it, at every thousandth page: the checkpoint flushes
    the file to disk, which may take milliseconds, and the server commits its actions in
    its event loop (:meth:`.store.MatchStore._written`), where that would hold up every
    answer. Nothing is done for another database.

    A table made goes to the log; the database file has it once a checkpoint is made:

    >>> import tempfile, time
    >>> path = Path(tempfile.mkdtemp()) / "games.sqlite"
    >>> engine = make_engine(f"sqlite:///{path}")
    >>> with engine.begin() as connection:
    ...     _ = connection.exec_driver_sql("CREATE TABLE played (game INTEGER)")
    >>> path.stat().st_size  # the header alone
    4096
    >>> checkpoints = Checkpoints(engine, every=0.01)
    >>> checkpoints.start()
    >>> while checkpoints.done == 0:
    ...     time.sleep(0.01)
    >>> checkpoints.stop()
    >>> path.stat().st_size  # and the table's page
    8192
    """

    def __init__(self, engine: Engine, every: float = 1.0) -> None:
        self.engine = engine
        self.every = every
        #: The checkpoints made.
        self.done = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start checkpointing, for SQLite."""
        if self.engine.dialect.name == "sqlite":
            self._thread = threading.Thread(target=self._run, name="checkpoints", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop, after the checkpoint under way if any."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                with self.engine.connect() as connection:
                    connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
                self.done += 1
            except SQLAlchemyError:
                log.warning("SQLite's log could not be checkpointed", exc_info=True)


def alembic_config() -> Config:
    """Alembic's configuration for the server's migrations, without an ini file."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


#: The key of the PostgreSQL advisory lock that migrations take (any fixed number will do).
MIGRATION_LOCK = 0x6267_6D69


def migrate(engine: Engine) -> None:
    """Create the tables, or upgrade them, to the newest revision.

    Several server processes starting at once on one PostgreSQL database (``uvicorn
    --workers 4``) would each create the tables; the first to take the advisory lock
    migrates, and the others wait for it, then find the database at the newest revision."""
    config = alembic_config()
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
