"""Strength of the shipped bot at 0-ply: cubeless money play against reference opponents.

Points per game with the standard error, over pairs of games with the same dice (each side
takes each seat once):

- against pubeval (Tesauro's public linear evaluator), ``--pubeval-games`` games;
- against GNU Backgammon's own 0-ply network (PyPI ``gnubg-nn``, a measuring reference only),
  ``--gnubg-games`` games, when gnubg-nn is installed.

Run: ``python bench/strength.py`` (``BACKGAMMON_WEIGHTS=FILE`` measures another checkpoint).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: small matrices, shared cores

from backgammon.bot.duel import DuelResult, GreedyPlayer, duel
from backgammon.bot.pubeval import PubEval
from backgammon.bot.shipped import shipped_evaluator
from backgammon.moves import Play
from backgammon.position import Position


class GnubgZeroPly:
    """GNU Backgammon's 0-ply choice: the play whose result is worst for the opponent by
    gnubg's own network (gnubg_nn.probabilities at 0 plies)."""

    def __init__(self) -> None:
        import gnubg_nn

        self._probabilities = gnubg_nn.probabilities

    def choose(self, position: Position, plays: Sequence[Play]) -> Play:
        def opponent_equity(play: Play) -> float:
            result = play.result  # the opponent on roll
            board = [list(result.theirs[1:26]), list(result.mine[1:26])]
            win, win_g, win_bg, lose_g, lose_bg = self._probabilities(board, 0)
            return 2 * win - 1 + win_g - lose_g + win_bg - lose_bg

        return min(plays, key=opponent_equity)


def measure(name: str, opponent: object, games: int, seed: int) -> DuelResult:
    start = time.perf_counter()
    result = duel(GreedyPlayer(shipped_evaluator()), opponent, games, seed)  # type: ignore[arg-type]
    elapsed = time.perf_counter() - start
    print(f"bot 0-ply vs {name}: {result} ({result.games / elapsed:.1f} games/s)", flush=True)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pubeval-games", type=int, default=10_000)
    parser.add_argument("--gnubg-games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    if args.pubeval_games:
        measure("pubeval", PubEval(), args.pubeval_games, args.seed)
    if args.gnubg_games:
        try:
            gnubg = GnubgZeroPly()
        except ImportError:
            print("gnubg-nn is not installed: no comparison with GNU Backgammon", file=sys.stderr)
            return 0
        measure("gnubg-nn 0-ply", gnubg, args.gnubg_games, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
