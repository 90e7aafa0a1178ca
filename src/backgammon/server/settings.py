"""The server's settings, read once from the environment.

============================= ============================================ ===========
variable                      meaning                                      default
============================= ============================================ ===========
``BACKGAMMON_DATABASE_URL``   where games are kept: any SQLAlchemy URL     SQLite file
                              (``postgresql://`` is served by psycopg 3)
``BACKGAMMON_REDIS_URL``      Redis, which carries live updates between    none
                              processes sharing a PostgreSQL database
``BACKGAMMON_DATA_DIR``       the folder of the default SQLite database    ``./data``
``BACKGAMMON_HOST``           the address ``backgammon serve`` listens on  127.0.0.1
``BACKGAMMON_PORT``           its port                                     8000
``BACKGAMMON_COMPUTER_PAUSE`` seconds between the computer's checker steps 0.35
``BACKGAMMON_ALLOW_SEED``     ``1``: a new match may name its dice's seed  off
                              (for tests and reproductions only)
``BACKGAMMON_CREATE_RATE``    matches a client may start, as ``limits``    20/minute
                              writes it (``none``: no limit)
``BACKGAMMON_HINT_RATE``      hints a client may ask for                   30/minute
``BACKGAMMON_ACTION_RATE``    actions a client may make                    600/minute
``BACKGAMMON_UPLOAD_RATE``    .mat files a client may send to analyse      10/minute
``BACKGAMMON_SIGNIN_RATE``    sign-ins and sign-ups a client may try       10/minute
``BACKGAMMON_ACCOUNT_RATE``   wrong passwords an account takes, from any   10/5minutes
                              address, before it refuses sign-ins for the
                              rest of the window
``BACKGAMMON_CHAT_RATE``      chat messages a writer (a seat, a            5/10seconds
                              spectator's account) may send
``BACKGAMMON_SESSION_DAYS``   the days a sign-in lasts                     30
``BACKGAMMON_ANALYSIS_PLIES`` the depth of the analyses (0 to 3)           0
``BACKGAMMON_CLAIM_SECONDS``  how long an online game waits for a player     180
                              before the other may claim it
``BACKGAMMON_SWEEP_SECONDS``  seconds between the checks that start     10
                              tournaments at their time and advance them
``BACKGAMMON_TELEMETRY``      ``1``: FastAPI's OpenTelemetry traces, metrics off
                              and logs, for the providers the process sets
                              up (each request pays for the check)
============================= ============================================ ===========

>>> settings = Settings.from_env({"BACKGAMMON_DATA_DIR": "/tmp/bg"})
>>> settings.database_url, settings.port, settings.allow_seed, settings.action_rate
('sqlite:////tmp/bg/backgammon.sqlite', 8000, False, '600/minute')
>>> settings.redis_url is None
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from limits import parse

from ..errors import BackgammonError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_DATA_DIR = "data"
DATABASE_FILE = "backgammon.sqlite"
DEFAULT_COMPUTER_PAUSE = 0.35
DEFAULT_CLAIM_SECONDS = 180.0
DEFAULT_TOURNAMENT_SWEEP = 10.0
_RATES = {
    "create_rate": "20/minute",
    "hint_rate": "30/minute",
    "action_rate": "600/minute",
    "upload_rate": "10/minute",
    "signin_rate": "10/minute",
    "account_rate": "10/5minutes",
    "chat_rate": "5/10seconds",
}
DEFAULT_SESSION_DAYS = 30


@dataclass(frozen=True)
class Settings:
    """Everything the app is configured with; tests build one directly."""

    database_url: str
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    #: Seconds between the checker steps of the computer's plays, so a person sees each.
    computer_pause: float = DEFAULT_COMPUTER_PAUSE
    #: Whether a new match may name its dice's seed, which makes them known in advance.
    allow_seed: bool = False
    #: Per client (address), in the ``limits`` library's notation; None: no limit.
    create_rate: str | None = _RATES["create_rate"]
    hint_rate: str | None = _RATES["hint_rate"]
    action_rate: str | None = _RATES["action_rate"]
    upload_rate: str | None = _RATES["upload_rate"]
    signin_rate: str | None = _RATES["signin_rate"]
    #: Wrong passwords an account takes (from any address) before it refuses sign-ins for the
    #: rest of the window: a guesser spread over many addresses is slowed, and the owner is
    #: kept out at most one window after the guessing stops.
    account_rate: str | None = _RATES["account_rate"]
    #: Chat messages a writer (a seat of a match, or a spectator's account) may send.
    chat_rate: str | None = _RATES["chat_rate"]
    #: Passwords that may wait for a hashing thread (two of them) before sign-ins answer 503.
    hashing_queue: int = 8
    #: How long a sign-in lasts, in days, before its session expires.
    session_days: int = DEFAULT_SESSION_DAYS
    #: The largest request body, in bytes (an action is about a hundred).
    max_body: int = 16_384
    #: The threads that think out hints, and the hints that may wait for one.
    hint_workers: int = 2
    hint_queue: int = 8
    #: The states a watching page may have waiting before it is dropped.
    watcher_queue: int = 32
    #: The live-update sockets a client (an address) may hold open in one process, and the
    #: watchers a match may have there.
    sockets_per_client: int = 32
    sockets_per_match: int = 500
    #: Matches kept in memory, and the seconds an unused one stays there.
    live_matches: int = 1000
    idle_seconds: float = 600.0
    #: The depth the analyses think at (0 plies: a match in seconds on a small machine), the
    #: threads that analyse, the analyses that may wait for one, and the largest upload.
    analysis_plies: int = 0
    analysis_workers: int = 1
    analysis_queue: int = 4
    #: The analyses one client (an address) may have under way or waiting.
    analysis_per_client: int = 2
    #: The rollouts one client may have running at once, the process's in all, and the
    #: seconds an ended one is kept for its result.
    rollouts_per_client: int = 2
    rollouts_most: int = 8
    rollout_keep: float = 600.0
    max_upload: int = 1_100_000
    #: Redis, where several processes serve the matches (None: this process alone).
    redis_url: str | None = None
    #: Seconds an online game waits for a player's action before the other may claim it
    #: (each match keeps the value it was created with).
    claim_seconds: float = DEFAULT_CLAIM_SECONDS
    #: Seconds between the checks that start the tournaments due and advance those whose
    #: matches ended where no process advanced them (:mod:`.tournaments.service`).
    tournament_sweep: float = DEFAULT_TOURNAMENT_SWEEP
    #: Whether FastAPI's OpenTelemetry is on: off, a request is spared asking whether a
    #: provider has been set up (a fiftieth of an action's CPU).
    telemetry: bool = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from environment variables (``os.environ`` by default)."""
        env = os.environ if environ is None else environ
        url = env.get("BACKGAMMON_DATABASE_URL")
        if not url:
            folder = Path(env.get("BACKGAMMON_DATA_DIR") or DEFAULT_DATA_DIR)
            url = sqlite_url(folder / DATABASE_FILE)
        port_text = env.get("BACKGAMMON_PORT") or str(DEFAULT_PORT)
        if not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise BackgammonError(
                f"BACKGAMMON_PORT is a port number from 1 to 65535; got {port_text!r}."
            )
        pause = _seconds(env, "BACKGAMMON_COMPUTER_PAUSE", DEFAULT_COMPUTER_PAUSE, 10)
        claim = _seconds(env, "BACKGAMMON_CLAIM_SECONDS", DEFAULT_CLAIM_SECONDS, 86_400)
        sweep = _seconds(env, "BACKGAMMON_SWEEP_SECONDS", DEFAULT_TOURNAMENT_SWEEP, 3600)
        plies_text = env.get("BACKGAMMON_ANALYSIS_PLIES") or "0"
        if plies_text not in ("0", "1", "2", "3"):
            raise BackgammonError(
                f"BACKGAMMON_ANALYSIS_PLIES is 0, 1, 2 or 3; got {plies_text!r}."
            )
        days_text = env.get("BACKGAMMON_SESSION_DAYS") or str(DEFAULT_SESSION_DAYS)
        if not days_text.isdigit() or not 0 < int(days_text) <= 3650:
            raise BackgammonError(
                f"BACKGAMMON_SESSION_DAYS is a number of days from 1 to 3650; got {days_text!r}."
            )
        return cls(
            database_url=url,
            redis_url=env.get("BACKGAMMON_REDIS_URL") or None,
            analysis_plies=int(plies_text),
            host=env.get("BACKGAMMON_HOST") or DEFAULT_HOST,
            port=int(port_text),
            computer_pause=pause,
            claim_seconds=claim,
            tournament_sweep=sweep,
            allow_seed=_switch(env, "BACKGAMMON_ALLOW_SEED"),
            telemetry=_switch(env, "BACKGAMMON_TELEMETRY"),
            create_rate=_rate(env, "create_rate"),
            hint_rate=_rate(env, "hint_rate"),
            action_rate=_rate(env, "action_rate"),
            upload_rate=_rate(env, "upload_rate"),
            signin_rate=_rate(env, "signin_rate"),
            account_rate=_rate(env, "account_rate"),
            chat_rate=_rate(env, "chat_rate"),
            session_days=int(days_text),
        )


def _rate(env: Mapping[str, str], name: str) -> str | None:
    """A rate limit's setting: the default when unset, None for ``none``."""
    variable = f"BACKGAMMON_{name.upper()}"
    text = env.get(variable) or _RATES[name]
    if text == "none":
        return None
    try:
        parse(text)
    except ValueError:
        raise BackgammonError(
            f"{variable} is a rate such as 20/minute, or none; got {text!r}."
        ) from None
    return text


def _switch(env: Mapping[str, str], name: str) -> bool:
    """Whether ``env[name]`` turns a switch on (``1``; ``0`` or unset: off).

    >>> _switch({"X": "1"}, "X"), _switch({}, "X")
    (True, False)
    """
    text = env.get(name, "0")
    if text not in ("0", "1"):
        raise BackgammonError(f"{name} is 0 or 1; got {text!r}.")
    return text == "1"


def sqlite_url(path: Path) -> str:
    """The SQLAlchemy URL of an SQLite database file (relative paths stay relative)."""
    return f"sqlite:///{path.as_posix()}"


def _seconds(env: Mapping[str, str], name: str, default: float, most: int) -> float:
    """The number of seconds in ``env[name]`` (``default`` where unset), from 0 to ``most``.

    >>> _seconds({"X": "2.5"}, "X", 1.0, 10), _seconds({}, "X", 1.0, 10)
    (2.5, 1.0)
    """
    text = env.get(name) or str(default)
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= most:
        raise BackgammonError(f"{name} is a number of seconds from 0 to {most}; got {text!r}.")
    return seconds
