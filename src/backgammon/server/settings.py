"""The server's settings, read once from the environment.

============================= ============================================ ===========
variable                      meaning                                      default
============================= ============================================ ===========
``BACKGAMMON_DATABASE_URL``   where games are kept: any SQLAlchemy URL     SQLite file
``BACKGAMMON_DATA_DIR``       the folder of the default SQLite database    ``./data``
``BACKGAMMON_HOST``           the address ``backgammon serve`` listens on  127.0.0.1
``BACKGAMMON_PORT``           its port                                     8000
``BACKGAMMON_COMPUTER_PAUSE`` seconds between the computer's checker steps 0.35
============================= ============================================ ===========

>>> settings = Settings.from_env({"BACKGAMMON_DATA_DIR": "/tmp/bg"})
>>> settings.database_url, settings.port
('sqlite:////tmp/bg/backgammon.sqlite', 8000)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..errors import BackgammonError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_DATA_DIR = "data"
DATABASE_FILE = "backgammon.sqlite"
DEFAULT_COMPUTER_PAUSE = 0.35


@dataclass(frozen=True)
class Settings:
    """Everything the app is configured with; tests build one directly."""

    database_url: str
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    #: Seconds between the checker steps of the computer's plays, so a person sees each.
    computer_pause: float = DEFAULT_COMPUTER_PAUSE

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
        pause_text = env.get("BACKGAMMON_COMPUTER_PAUSE") or str(DEFAULT_COMPUTER_PAUSE)
        try:
            pause = float(pause_text)
        except ValueError:
            pause = -1.0
        if not 0 <= pause <= 10:
            raise BackgammonError(
                "BACKGAMMON_COMPUTER_PAUSE is a number of seconds from 0 to 10; "
                f"got {pause_text!r}."
            )
        return cls(
            database_url=url,
            host=env.get("BACKGAMMON_HOST") or DEFAULT_HOST,
            port=int(port_text),
            computer_pause=pause,
        )


def sqlite_url(path: Path) -> str:
    """The SQLAlchemy URL of an SQLite database file (relative paths stay relative)."""
    return f"sqlite:///{path.as_posix()}"
