"""A first TD(λ) network for one of the other games, trained by self-play through the rules
objects, then measured against the heuristic and the random player (docs/lab/game-baselines.md).

    .venv/bin/python bench/bot/games_td.py --game long-nardy [--minutes 20] [--games 100000]
        [--hidden 40] [--alpha 0.1] [--lam 0.7] [--eval-games 200] [--save net.npz]
        [--load net.npz --trained 2600]

Training stops at ``--games`` games or after ``--minutes``, whichever comes first, printing
the games a second as it goes; then the network plays ``--eval-games`` duplicate-dice games
against each baseline, and the points a game with their standard errors are printed.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from backgammon.bot.games import HeuristicPlayer, RandomPlayer, play_match
from backgammon.bot.games.td import Network, TDPlayer, train
from backgammon.games import rules_for

#: Games trained between two progress lines.
CHUNK = 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="long-nardy")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--minutes", type=float, default=20)
    parser.add_argument("--hidden", type=int, default=40)
    parser.add_argument("--alpha", type=float, default=0.1)
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--load", type=Path, help="go on training this network")
    parser.add_argument("--trained", type=int, default=0,
                        help="the games --load was trained on (for the seeds and the lines)")
    args = parser.parse_args()
    rules = rules_for(args.game)
    network = Network.load(args.load) if args.load else Network.fresh(args.hidden, args.seed)
    began = time.perf_counter()
    trained, turns = args.trained, 0
    while trained < args.games and time.perf_counter() - began < 60 * args.minutes:
        turns += train(rules, network, CHUNK, alpha=args.alpha, lam=args.lam,
                       seed=args.seed * 1_000_000 + trained)
        trained += CHUNK
        seconds = time.perf_counter() - began
        done = trained - args.trained
        print(f"{trained} games, {seconds:.0f} s, {done / seconds:.2f} games a second, "
              f"{turns / done:.0f} turns a game", flush=True)
    if args.save:
        network.save(args.save)
    player = TDPlayer(network)
    for opponent in (HeuristicPlayer(), RandomPlayer()):
        began = time.perf_counter()
        match = play_match(rules, player, opponent, args.eval_games, f"eval{args.seed}")
        print(f"td ({trained} games) against {opponent.name}: "
              f"{match.points_per_game:+.3f} ± {match.standard_error:.3f} points a game, "
              f"{100 * match.wins:.1f}% wins, {match.games} games, "
              f"{match.games / (time.perf_counter() - began):.2f} games a second", flush=True)


if __name__ == "__main__":
    main()
