"""Strength of the shipped bot at 0-ply: cubeless money play against reference opponents.

Points per game with the standard error, over pairs of games with the same dice (each side
takes each seat once):

- against pubeval (Tesauro's public linear evaluator), ``--pubeval-games`` games;
- against GNU Backgammon's own 0-ply network (PyPI ``gnubg-nn``, a measuring reference only),
  ``--gnubg-games`` games, when gnubg-nn is installed;

and an error rate: on ``--decisions`` checker-play decisions (two or more legal plays) taken
from seeded games between the bot and pubeval, the mean equity the bot's 0-ply choice loses
against the best play, both judged by gnubg-nn at ``--judge-plies`` (x 1000: millipoints).

With ``--against FILE``, also head to head against the networks of FILE (with the bearoff
table), ``--against-games`` games: ``BACKGAMMON_WEIGHTS=new.npz python bench/strength.py
--against src/backgammon/bot/weights/td.npz`` compares a new checkpoint with the shipped one.

Run: ``python bench/strength.py`` (``BACKGAMMON_WEIGHTS=FILE`` measures another checkpoint).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: small matrices, shared cores

from backgammon.bot.bearoff import BearoffEvaluator, shipped_table
from backgammon.bot.duel import DuelResult, GreedyPlayer, duel, opening_roll
from backgammon.bot.evaluator import NetworkEvaluator
from backgammon.bot.network import load_networks
from backgammon.bot.pubeval import PubEval
from backgammon.bot.shipped import shipped_evaluator
from backgammon.moves import Play
from backgammon.position import Position


class GnubgZeroPly:
    """GNU Backgammon's choice at ``plies``: the play whose result is worst for the opponent
    by gnubg's own network (gnubg_nn.probabilities)."""

    def __init__(self, plies: int = 0) -> None:
        import gnubg_nn

        self._probabilities = gnubg_nn.probabilities
        self.plies = plies

    def opponent_equity(self, play: Play) -> float:
        """The cubeless equity of the opponent, on roll after ``play``."""
        result = play.result
        board = [list(result.theirs[1:26]), list(result.mine[1:26])]
        win, win_g, win_bg, lose_g, lose_bg = self._probabilities(board, self.plies)
        return float(2 * win - 1 + win_g - lose_g + win_bg - lose_bg)

    def choose(self, position: Position, plays: Sequence[Play]) -> Play:
        return min(plays, key=self.opponent_equity)


def decisions(count: int, seed: int) -> list[tuple[Position, list[Play]]]:
    """Checker-play decisions with two or more legal plays, from seeded bot-pubeval games."""
    rng = random.Random(seed)
    players = (GreedyPlayer(shipped_evaluator()), PubEval())
    found: list[tuple[Position, list[Play]]] = []
    while len(found) < count:
        position, turn = Position.initial(), rng.randint(0, 1)
        dice = opening_roll(rng)
        while position.outcome() is None and len(found) < count:
            plays = position.legal_plays(dice)
            if len(plays) > 1 and rng.random() < 0.25:  # spread the sample over many games
                found.append((position, plays))
            if len(plays) > 1:
                position = players[turn].choose(position, plays).result
            else:
                position = plays[0].result if plays else position.flip()
            turn = 1 - turn
            dice = (rng.randint(1, 6), rng.randint(1, 6))
    return found


def error_rate(count: int, plies: int, seed: int) -> None:
    judge = GnubgZeroPly(plies)
    bot = GreedyPlayer(shipped_evaluator())
    start = time.perf_counter()
    losses = []
    for position, plays in decisions(count, seed):
        chosen = bot.choose(position, plays)
        by_judge = {id(play): -judge.opponent_equity(play) for play in plays}
        losses.append(max(by_judge.values()) - by_judge[id(chosen)])
    mean = sum(losses) / len(losses)
    worse = sum(loss > 1e-9 for loss in losses)
    print(
        f"bot 0-ply error rate: {1000 * mean:.1f} millipoints a decision over {len(losses)} "
        f"decisions ({worse} not gnubg's choice), judged by gnubg-nn {plies}-ply "
        f"({time.perf_counter() - start:.0f} s)",
        flush=True,
    )


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
    parser.add_argument("--decisions", type=int, default=1_000)
    parser.add_argument("--judge-plies", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--against", type=Path, default=None,
                        help="a file of networks to play head to head (0-ply, bearoff table)")
    parser.add_argument("--against-games", type=int, default=2_000)
    args = parser.parse_args(argv)
    if args.against:
        networks, _ = load_networks(args.against, ("contact", "race"))
        other = NetworkEvaluator(networks["contact"], networks["race"])
        measure(str(args.against), GreedyPlayer(BearoffEvaluator(other, shipped_table())),
                args.against_games, args.seed)
    if args.pubeval_games:
        measure("pubeval", PubEval(), args.pubeval_games, args.seed)
    try:
        gnubg = GnubgZeroPly()
    except ImportError:
        print("gnubg-nn is not installed: no comparison with GNU Backgammon", file=sys.stderr)
        return 0
    if args.gnubg_games:
        measure("gnubg-nn 0-ply", gnubg, args.gnubg_games, args.seed)
    if args.decisions:
        error_rate(args.decisions, args.judge_plies, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
