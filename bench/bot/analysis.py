"""The analysis's speed and its agreement with GNU Backgammon's, per player.

    .venv/bin/python bench/bot/analysis.py [FILE.mat ...] [--plies 0 2] [--workers 1 2] [--no-gnubg]

For each file (by default the 7-point matches GNU Backgammon played in tests/data) and each
depth and each number of worker processes (default: one per core), the time of our analysis
(a fresh bot each time) and per player: the
moves, unforced moves and cube decisions, and the checker, cube and overall error rates and
the luck rate (mEMG), ours and, where Debian's gnubg is installed, gnubg's at the same depth
(``analyse match`` after ``set analysis chequerplay|cubedecision evaluation plies N``). The
last line is for machines: ``analysis file=... plies=... workers=... seconds=... decisions=...``
per run.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import subprocess
import time
from pathlib import Path

from backgammon.analysis import Analyser
from backgammon.analysis.statistics import PlayerStatistics
from backgammon.formats.mat import read_mat

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"
GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"

#: The rows compared: gnubg's section and label, and our figure (counts, or rates in mEMG;
#: errors as positive magnitudes, gnubg's too, where gnubg prints them negative).
ROWS = (
    ("Chequerplay", "Total moves", lambda s: s.total_moves),
    ("Chequerplay", "Unforced moves", lambda s: s.unforced_moves),
    ("Cube", "Total cube decisions", lambda s: s.total_cube),
    ("Cube", "Close or actual cube decisions", lambda s: s.close_cube),
    ("Chequerplay", "Error rate mEMG", lambda s: 1000 * s.checker_rate),
    ("Cube", "Error rate mEMG", lambda s: 1000 * s.cube_rate),
    ("Overall", "Error rate mEMG", lambda s: 1000 * s.error_rate),
    ("Luck", "Luck rate mEMG", lambda s: 1000 * s.luck_rate),
)


def gnubg(path: Path, plies: int) -> dict[tuple[str, str], tuple[float, float]]:
    """gnubg's statistics of the file, analysed at ``plies``: each row's two figures."""
    commands = (f"set analysis chequerplay evaluation plies {plies}\n"
                f"set analysis cubedecision evaluation plies {plies}\n"
                f"import mat {path}\nanalyse match\nshow statistics match\n")
    out = subprocess.run([GNUBG, "-t", "-q"], input=commands, capture_output=True, text=True,
                         check=True).stdout
    rows = {}
    section = ""
    for line in out.splitlines():
        if line.endswith(" statistics"):
            section = line.split()[0]
        elif line[:40].strip() and len(line) > 41:
            label = line[:40].split(" (")[0].strip()  # "Error rate mEMG (MWC)" -> "Error rate mEMG"
            try:
                rows[(section, label)] = (float(line[41:65].split()[0]),
                                          float(line[65:].split()[0]))
            except (ValueError, IndexError):
                continue
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--plies", type=int, nargs="+", default=[0, 2])
    parser.add_argument("--workers", type=int, nargs="+", default=[None])
    parser.add_argument("--no-gnubg", action="store_true", help="time ours alone")
    args = parser.parse_args()
    files = args.files or sorted(DATA.glob("gnubg_7pt_*.mat"))
    machine = []
    for path in files:
        match = read_mat(path)
        for plies, workers in itertools.product(args.plies, args.workers):
            analyser = Analyser(plies=plies, workers=workers)
            started = time.perf_counter()
            analysis = analyser.analyse(match)
            seconds = time.perf_counter() - started
            stats: tuple[PlayerStatistics, PlayerStatistics] = analysis.statistics
            have = Path(GNUBG).exists() and not args.no_gnubg
            theirs = gnubg(path, plies) if have else {}
            count = len(analysis.decisions)
            print(f"{path.name} at {plies}-ply, {analyser.workers} workers: {seconds:.1f} s "
                  f"for {count} decisions ({1000 * seconds / count:.0f} ms each)")
            print(f"  {'':44}{'ours':>18}{'gnubg':>18}")
            for section, label, figure in ROWS:
                ours = " ".join(f"{figure(s):7.1f}" for s in stats)
                signed = theirs.get((section, label), ())
                gnu = " ".join(f"{abs(v) if 'Error' in label else v:7.1f}" for v in signed)
                print(f"  {section + ' ' + label:44}{ours:>18}{gnu:>18}")
            machine.append(f"file={path.name} plies={plies} workers={analyser.workers} "
                           f"seconds={seconds:.1f} decisions={count}")
    print("analysis " + " ".join(machine))


if __name__ == "__main__":
    main()
