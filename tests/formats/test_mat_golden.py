"""The .mat writer's output is byte for byte what it was: tools/mat_snapshot.py plays seeded
matches (every kind of action, every option) and kept what ``export_mat`` wrote for each in
tests/data/mat_golden/; here the same seeds are played and written again and compared.

A failure means the written text changed. If the change is intended (a fix of the dialect),
regenerate the files with the tool and read the diff; a refactoring must leave them alone.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from backgammon.game import Game
from backgammon.game.match import Match

TOOL = Path(__file__).resolve().parents[2] / "tools" / "mat_snapshot.py"


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mat_snapshot", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


snapshot = _load_tool()
CASES = {case.name: case for case in snapshot.CASES}


@functools.cache
def played(name: str) -> Match | Game:
    record: Match | Game = snapshot.play(CASES[name])
    return record


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_written_text_is_the_golden_files(name: str) -> None:
    file_name, text = snapshot.written(CASES[name], played(name))
    golden = snapshot.GOLDEN / file_name
    assert golden.exists(), f"{file_name} is missing: run tools/mat_snapshot.py"
    assert text == golden.read_text()


def test_every_golden_file_has_its_case() -> None:
    names = {path.stem for path in snapshot.GOLDEN.iterdir()}
    assert names == set(CASES)


def test_the_cases_cover_what_the_format_writes() -> None:
    """The seeds hold every action and every kind of entry, so that a change to any of them
    shows in some file."""
    seen = snapshot.coverage((case, played(name)) for name, case in CASES.items())
    needed = [
        "files", "refused by the writer", "Crawford game", "opening reroll game",
        "tied opening roll", "gammon counted single (Jacoby)",
        "roll", "auto roll", "play", "auto play", "auto pass", "step", "undo", "confirm",
        "double", "take", "drop", "beaver", "resign", "accept", "reject",
        "won by bear off, single", "won by bear off, gammon", "won by bear off, backgammon",
        "won by drop, single", "won by resign, gammon", "won by resign, backgammon",
        "game left at roll or double", "game left at move", "game left at confirm",
        "game left at take or drop", "game left at answer resignation",
        "text '???'", "text 'Beavers =>'", "text 'Doubles => 4'", "text 'Takes'",
        "text 'Drops'", "text 'Wins 1 point'",
    ]
    assert [feature for feature in needed if not seen[feature]] == []
