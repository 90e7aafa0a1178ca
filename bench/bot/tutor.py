"""The tutor's speed: how long its judgement of a play takes (the analysis's checker
judgement at the hints' level, then the hint shown with a warning), as a ratio to a 0-ply
hint of the same roll and to the Hint button's hint (the same level) in the same run, each
with the bot's caches cleared first.

    PYTHONPATH=src python bench/bot/tutor.py

The positions: the 15 non-double opening rolls, each judged on a play other than the best.
"""

from __future__ import annotations

import statistics
import time

from backgammon import Position
from backgammon.analysis import Analyser
from backgammon.bot import Bot, Level
from backgammon.cube import CubeContext
from backgammon.server.play.routes.hints import LEVEL, PLAYS


def main() -> None:
    tutor, quick = Bot(level=LEVEL), Bot(level=Level.ADVANCED)
    analyser = Analyser(bot=tutor, workers=1)
    start, cube = Position.initial(), CubeContext()
    quick.hints(start, (3, 1), PLAYS)  # compile and load before timing
    analyser.checker(start, (3, 1), start.legal_plays((3, 1))[0], cube)
    ratios, judged, alone, to_hint = [], [], [], []
    for high in range(2, 7):
        for low in range(1, high):
            dice = (high, low)
            plays = start.legal_plays(dice)
            tutor.forget()
            quick.forget()
            began = time.perf_counter()
            quick.hints(start, dice, PLAYS)
            zero = time.perf_counter() - began
            began = time.perf_counter()
            tutor.hints(start, dice, PLAYS)  # the Hint button's hint, for the second ratio
            hinted = time.perf_counter() - began
            tutor.forget()
            began = time.perf_counter()
            _, best_equity, played, _ = analyser.checker(start, dice, plays[-1], cube)
            checked = time.perf_counter()
            if best_equity - played > 0.04:
                tutor.hints(start, dice, PLAYS)  # the warning's hint
            took = time.perf_counter() - began
            alone.append(checked - began)
            judged.append(took)
            ratios.append(took / zero)
            to_hint.append(took / hinted)
    print(f"judgement: median {statistics.median(judged):.3f} s, max {max(judged):.3f} s "
          f"(the checker judgement alone: median {statistics.median(alone):.3f} s)")
    print(f"ratio to a 0-ply hint: median {statistics.median(ratios):.0f}, "
          f"max {max(ratios):.0f}")
    print(f"ratio to a hint at the same level: median {statistics.median(to_hint):.2f}, "
          f"max {max(to_hint):.2f}")


if __name__ == "__main__":
    main()
