"""The analysis in worker processes: a game's decisions judged in one worker, the match's
games spread over several, and the result the same as one process's, bit for bit."""

from __future__ import annotations

from pathlib import Path

import pytest

from backgammon.analysis import Analyser, AnalysisError
from backgammon.cli.analyse import build_parser
from backgammon.formats.mat import read_mat

DATA = Path(__file__).parents[1] / "data"


def test_workers_give_the_one_process_analysis_exactly() -> None:
    match = read_mat(DATA / "gnubg_money.mat")  # six games and a new one: cubes, beavers
    alone = Analyser(plies=0, workers=1).analyse(match)
    heard: list[tuple[int, int]] = []
    shared = Analyser(plies=0, workers=3).analyse(match, lambda done, total: heard.append(
        (done, total)))
    assert len(alone.games) == 7 and len(alone.decisions) > 50
    assert shared == alone
    # Progress comes game by game, to the total.
    assert len(heard) == 7 and heard[-1][0] == heard[-1][1] > 50


def test_the_workers_are_checked_and_default_to_every_core() -> None:
    assert Analyser(plies=0).workers >= 1
    with pytest.raises(AnalysisError, match="1 worker or more"):
        Analyser(plies=0, workers=0)


def test_the_command_takes_workers() -> None:
    assert build_parser().parse_args(["m.mat", "--workers", "2"]).workers == 2
    assert build_parser().parse_args(["m.mat"]).workers is None
