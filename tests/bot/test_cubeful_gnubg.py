"""Our cubeful rollout of a clear pass against Debian's gnubg's (bench/bot/gnubg_cubeful.py
has the full comparison): both find the double and the pass, worth the cube."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from backgammon import Position
from backgammon.bot.rollout import rollout

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bot"

pytestmark = pytest.mark.skipif(
    shutil.which("/usr/games/gnubg") is None or shutil.which("script") is None,
    reason="Debian's gnubg (and script) is not installed",
)


def test_a_clear_pass_is_a_pass_for_gnubg_and_for_us() -> None:
    sys.path.insert(0, str(BENCH))
    try:
        from gnubg_cubeful import CASES, gnubg_value
    finally:
        sys.path.remove(str(BENCH))
    case = next(c for c in CASES if c.name == "clear pass")
    theirs = gnubg_value(case, trials=36, seed=1)
    # The pass comes before the first roll: one turn is enough for ours.
    ours = rollout(Position.from_id(case.position_id), case.cube, trials=36, truncate=1,
                   seed=1, workers=1, cubeful=True)
    assert theirs.action == "double, pass" and theirs.value == 1.0
    assert (ours.cubeful_equity, ours.cubeful_se, ours.dropped) == (1.0, 0.0, 1.0)
    # gnubg's no-double branch is worth less than the pass, as our cube model says.
    assert 0.5 < theirs.no_double.cubeful < 1.0
