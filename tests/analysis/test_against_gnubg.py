"""The analysis counts what GNU Backgammon counts: on our own .mat exports of the bot playing
itself and on files gnubg wrote, each player's moves, unforced moves, cube decisions, doubles,
takes and passes equal those of Debian gnubg's ``analyse match`` and ``show statistics
match``. (The errors and the luck differ by the evaluators; bench/analysis_gnubg.py prints
both.) Skipped where gnubg is not installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from backgammon.analysis import Analyser
from backgammon.analysis.statistics import PlayerStatistics
from backgammon.bot import Bot
from backgammon.formats.mat import export_mat, read_mat
from backgammon.training.selfplay import selfplay

DATA = Path(__file__).parents[1] / "data"
GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"

pytestmark = pytest.mark.skipif(not Path(GNUBG).exists(), reason="GNU Backgammon is not here")

#: gnubg's rows, by section, and the figure of ours each must equal.
COUNTS = {
    ("Chequerplay", "Total moves"): lambda s: s.total_moves,
    ("Chequerplay", "Unforced moves"): lambda s: s.unforced_moves,
    ("Cube", "Total cube decisions"): lambda s: s.total_cube,
    ("Cube", "Doubles"): lambda s: s.doubles,
    ("Cube", "Takes"): lambda s: s.takes,
    ("Cube", "Passes"): lambda s: s.passes,
}


def gnubg_statistics(path: Path) -> dict[tuple[str, str], tuple[str, str]]:
    """gnubg's ``show statistics match`` of the file after a 0-ply ``analyse match``: each
    row's two columns, by section and label."""
    commands = "\n".join([
        "set analysis chequerplay evaluation plies 0",
        "set analysis cubedecision evaluation plies 0",
        f"import mat {path}",
        "analyse match",
        "show statistics match",
    ]) + "\n"
    out = subprocess.run([GNUBG, "-t", "-q"], input=commands, capture_output=True, text=True,
                         timeout=300, check=True).stdout
    rows: dict[tuple[str, str], tuple[str, str]] = {}
    section = None
    for line in out.splitlines():
        if line.endswith(" statistics"):
            section = line.split()[0]
        # gnubg's columns: "%-40s %-23s %-23s".
        elif section and line[:40].strip() and len(line) > 41:
            rows[(section, line[:40].strip())] = (line[41:65].strip(), line[65:].strip())
    return rows


def selfplay_file(tmp_path: Path, length: int, seed: int) -> Path:
    bot = Bot(plies=0, seed=seed)
    path = tmp_path / f"selfplay_{length}_{seed}.mat"
    path.write_text(export_mat(selfplay(1, length, seed, (bot, bot))))
    return path


@pytest.mark.parametrize(
    "source",
    ["selfplay 3 5", "selfplay 5 11", "gnubg_5pt_seed42.mat", "gnubg_money.mat"],
)
def test_the_counts_are_gnubgs(tmp_path: Path, source: str) -> None:
    if source.startswith("selfplay"):
        _, length, seed = source.split()
        path = selfplay_file(tmp_path, int(length), int(seed))
    else:
        path = DATA / source
    theirs = gnubg_statistics(path)
    ours: tuple[PlayerStatistics, PlayerStatistics] = (
        Analyser(plies=0).analyse(read_mat(path)).statistics)
    for key, figure in COUNTS.items():
        assert [int(v) for v in theirs[key]] == [figure(s) for s in ours], key
