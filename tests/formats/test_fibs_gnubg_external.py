"""Our board lines read by GNU Backgammon's own ``external`` server (bench/bot/vs_gnubg.py): gnubg
1.07 answers them with plays and cube actions our rules accept, in whole games and matches
against our bot. Skipped where Debian's gnubg is not installed."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from backgammon import Position
from backgammon.cube import CubeContext
from backgammon.formats.fibs import BoardState, FibsSide, ScoreOrder, write_board

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bot" / "vs_gnubg.py"

pytestmark = pytest.mark.skipif(
    shutil.which("/usr/games/gnubg") is None, reason="Debian's gnubg is not installed"
)


@pytest.fixture(scope="module")
def vs_gnubg() -> ModuleType:
    spec = importlib.util.spec_from_file_location("vs_gnubg", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["vs_gnubg"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_gnubg_answers_the_opening_board_with_a_legal_play(vs_gnubg: ModuleType) -> None:
    state = BoardState(Position.initial(), FibsSide.PLAYER, (6, 3), CubeContext())
    with vs_gnubg.Gnubg(plies=0) as gnubg:
        answer = gnubg.ask(write_board(state, ScoreOrder.GNUBG_EXTERNAL))
    legal = {str(play) for play in Position.initial().legal_plays((6, 3))}
    assert str(Position.initial().parse_play(answer, (6, 3))) in legal


def test_two_games_against_gnubg_with_no_refused_answer(vs_gnubg: ModuleType) -> None:
    tally = vs_gnubg.run(games=2, plies=0, gnubg_plies=0, seed=1)
    assert len(tally.points) == 2
    assert all(abs(points) in (1, 2, 3) for points in tally.points)
    assert tally.asked > 10  # gnubg made its own decisions in both games
    assert tally.refused == []


def test_a_pair_of_matches_with_the_cube_against_gnubg(vs_gnubg: ModuleType) -> None:
    tally = vs_gnubg.run(games=2, plies=0, gnubg_plies=0, seed=5, length=3)
    assert len(tally.points) == 2 and set(tally.points) <= {-1, 1}
    assert tally.refused == []
