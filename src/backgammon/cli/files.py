"""The table's files: a match (or a game, of backgammon or of the other games) saved as JSON
and loaded again, and a match exported as a ``.mat`` file for GNU Backgammon and the other
programs. Each refusal is a :class:`TableFileError` with the sentence the table says.

>>> import tempfile, pathlib
>>> from backgammon.game.match import Match
>>> with tempfile.TemporaryDirectory() as folder:
...     path = str(pathlib.Path(folder) / "m.json")
...     save(Match(3), path)
...     load(path).length
3
>>> load("/no/such/file.json")
Traceback (most recent call last):
...
backgammon.cli.files.TableFileError: Cannot read /no/such/file.json: No such file or directory.
"""

from __future__ import annotations

from pathlib import Path

from ..dice import DiceSource
from ..errors import BackgammonError
from ..game import BoardGame, Game, load_json
from ..game.match import BoardMatch, Match


class TableFileError(BackgammonError):
    """A file the table cannot read or write, or that holds no saved match."""


def save(record: Match | Game | BoardMatch | BoardGame, name: str) -> None:
    """Write ``record`` to the file ``name`` as JSON."""
    _write(name, record.to_json() + "\n")


def load(
    name: str, dice: DiceSource | None = None
) -> Match | Game | BoardMatch | BoardGame:
    """The match (or lone game), of backgammon or of the other games, saved in the file
    ``name``, rolling on with ``dice``."""
    try:
        text = Path(name).expanduser().read_text(encoding="utf-8")
    except OSError as exc:
        raise TableFileError(f"Cannot read {name}: {exc.strerror or exc}.") from exc
    except UnicodeDecodeError as exc:
        raise TableFileError(f"Cannot read {name}: it is not a text file.") from exc
    data = load_json(text, "match")
    if not isinstance(data, dict):
        raise TableFileError(f"{name} holds no saved match or game.")
    rules = data.get("rules")
    other = isinstance(rules, dict) and rules.get("game") is not None  # not backgammon
    if "games" in data:
        return BoardMatch.from_dict(data, dice) if other else Match.from_dict(data, dice)
    if "events" in data:
        return BoardGame.from_dict(data, dice) if other else Game.from_dict(data, dice)
    raise TableFileError(f"{name} holds no saved match or game.")


def export(record: Match | Game, name: str) -> None:
    """Write ``record`` to the file ``name`` as a ``.mat`` file; nothing is written where
    the format cannot hold the match."""
    # Imported here: the .mat writer is the one part of the table it can do without.
    from ..formats.mat import export_mat

    _write(name, export_mat(record))


def _write(name: str, text: str) -> None:
    try:
        Path(name).expanduser().write_text(text, encoding="utf-8")
    except OSError as exc:
        raise TableFileError(f"Cannot write {name}: {exc.strerror or exc}.") from exc
