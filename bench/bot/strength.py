"""Strength of the shipped bot (0-ply, or ``--plies N``): cubeless money play against reference
opponents.

Points per game with the standard error, over pairs of games with the same dice (each side
takes each seat once):

- against pubeval (Tesauro's public linear evaluator), ``--pubeval-games`` games;
- against GNU Backgammon's own 0-ply network (PyPI ``gnubg-nn``, a measuring reference only),
  ``--gnubg-games`` games, when gnubg-nn is installed.

(The error rate judged by gnubg-nn on a fixed set of decisions is ``bench/bot/decisions.py``'s.)

With ``--against FILE``, also head to head against the networks of FILE (with the bearoff
table), ``--against-games`` games: ``BACKGAMMON_WEIGHTS=new.npz python bench/bot/strength.py
--against src/backgammon/bot/weights/td.npz`` compares a new checkpoint with the shipped one.

Run: ``python bench/bot/strength.py`` (``BACKGAMMON_WEIGHTS=FILE`` measures another checkpoint).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: small matrices, shared cores

from gnubg_judge import GnubgJudge

from backgammon.bot import Bot
from backgammon.bot.bearoff import BearoffEvaluator, shipped_table
from backgammon.bot.evaluator import NetworkEvaluator
from backgammon.bot.pubeval import PubEval
from backgammon.bot.shipped import shipped_evaluator
from backgammon.training.duel import Chooser, DuelResult, GreedyPlayer, duel


def measure(name: str, opponent: object, games: int, seed: int, plies: int = 0) -> DuelResult:
    """The shipped bot at ``plies`` against ``opponent`` over ``games`` games, printed."""
    player: Chooser = GreedyPlayer(shipped_evaluator()) if plies == 0 else Bot(plies=plies)
    start = time.perf_counter()
    result = duel(player, opponent, games, seed)  # type: ignore[arg-type]
    elapsed = time.perf_counter() - start
    print(f"bot {plies}-ply vs {name}: {result} ({result.games / elapsed:.2f} games/s)",
          flush=True)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pubeval-games", type=int, default=10_000)
    parser.add_argument("--gnubg-games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--plies", type=int, default=0,
                        help="the shipped bot's depth against pubeval and gnubg-nn")
    parser.add_argument("--against", type=Path, default=None,
                        help="a file of networks to play head to head (0-ply, bearoff table)")
    parser.add_argument("--against-games", type=int, default=2_000)
    args = parser.parse_args(argv)
    if args.against:
        other = NetworkEvaluator.load(args.against)
        measure(str(args.against), GreedyPlayer(BearoffEvaluator(other, shipped_table())),
                args.against_games, args.seed)
    if args.pubeval_games:
        measure("pubeval", PubEval(), args.pubeval_games, args.seed, args.plies)
    try:
        gnubg = GnubgJudge(0)
    except ImportError:
        print("gnubg-nn is not installed: no comparison with GNU Backgammon", file=sys.stderr)
        return 0
    if args.gnubg_games:
        measure("gnubg-nn 0-ply", gnubg, args.gnubg_games, args.seed, args.plies)
    return 0


if __name__ == "__main__":
    sys.exit(main())
