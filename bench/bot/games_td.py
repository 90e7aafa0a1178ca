"""Train a TD(λ) network for one of the other games by self-play in the kernel, measuring it
against the heuristic as it goes, then against both baselines (docs/lab/game-baselines.md).

    .venv/bin/python bench/bot/games_td.py --game long-nardy [--minutes 8] [--games N]
        [--hidden 40] [--alpha 0.1] [--lam 0.7] [--chunk 2000] [--check-games 400]
        [--eval-games 4000] [--save net.npz] [--load net.npz --trained N]

Training stops after ``--games`` games or ``--minutes``, whichever comes first, in chunks of
``--chunk`` games (the same seed and the same chunks give the same network); after each
chunk the network plays ``--check-games`` duplicate-dice games against the heuristic in the
kernel, and is saved to ``--save`` (as the package ships it: float32, compressed; the games
it was trained on beside it, in ``<save>.trained``), so that a run cut short goes on from its
last chunk (``--load`` it with ``--trained`` that count). Then it is loaded back as saved and
plays ``--eval-games`` against the heuristic, the random player and ``--against`` (a
network, such as the shipped one) in the kernel; the points a game with their standard
errors are printed.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from backgammon.bot.games import HeuristicPlayer, Player, RandomPlayer
from backgammon.bot.games.compiled import compiled_match
from backgammon.bot.games.td import Network, TDPlayer, train
from backgammon.games import rules_for


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="long-nardy")
    parser.add_argument("--games", type=int, default=10**7)
    parser.add_argument("--minutes", type=float, default=8)
    parser.add_argument("--hidden", type=int, default=40)
    parser.add_argument("--alpha", type=float, default=0.1)
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--chunk", type=int, default=2000)
    parser.add_argument("--check-games", type=int, default=400)
    parser.add_argument("--eval-games", type=int, default=4000)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--load", type=Path, help="go on training this network")
    parser.add_argument("--trained", type=int, default=0,
                        help="the games --load was trained on (for the seeds and the lines)")
    parser.add_argument("--against", type=Path, help="a network to measure the result against")
    args = parser.parse_args()
    rules = rules_for(args.game)
    network = Network.load(args.load) if args.load else Network.fresh(args.hidden, args.seed)
    heuristic, random_player = HeuristicPlayer(), RandomPlayer()
    train(rules, network.__class__.fresh(2, 0), 1)  # compiled (or loaded) before the clock
    began = time.perf_counter()
    trained, throws, training_s = args.trained, 0, 0.0
    while trained < args.games and time.perf_counter() - began < 60 * args.minutes:
        games = min(args.chunk, args.games - trained)
        started = time.perf_counter()
        throws += train(rules, network, games, alpha=args.alpha, lam=args.lam,
                        seed=args.seed, first=trained)
        training_s += time.perf_counter() - started
        trained += games
        done = trained - args.trained
        check = compiled_match(rules, TDPlayer(network), heuristic, args.check_games,
                               seed=args.seed + trained)
        print(f"{trained} games, {time.perf_counter() - began:.0f} s, "
              f"{done / training_s:.0f} games a second, {throws / done:.0f} throws a game; "
              f"against the heuristic {check.points_per_game:+.3f} ± "
              f"{check.standard_error:.3f}", flush=True)
        if args.save:
            checkpoint(network, args.save, trained)
    if args.save:
        network = Network.load(args.save)  # measure what is shipped: float32 weights
    player = TDPlayer(network)
    opponents: list[Player] = [heuristic, random_player]
    if args.against:
        opponents.append(TDPlayer(Network.load(args.against), name=args.against.stem))
    for opponent in opponents:
        started = time.perf_counter()
        match = compiled_match(rules, player, opponent, args.eval_games, seed=1)
        print(f"{args.game}: td ({trained} games) against {opponent.name}: "
              f"{match.points_per_game:+.3f} ± {match.standard_error:.3f} points a game, "
              f"{100 * match.wins:.1f}% wins, {match.games} games, {dict(match.endings)}, "
              f"{match.games / (time.perf_counter() - started):.0f} games a second",
              flush=True)


def checkpoint(network: Network, path: Path, trained: int) -> None:
    """Save ``network`` to ``path`` and the games it was trained on beside it, each written
    whole before it replaces the last (a run killed mid-save leaves the previous chunk's)."""
    partial = path.with_name(path.name + ".partial.npz")
    network.save(partial)
    partial.replace(path)
    count = path.with_name(path.name + ".trained")
    partial_count = count.with_name(count.name + ".partial")
    partial_count.write_text(f"{trained}\n")
    partial_count.replace(count)


if __name__ == "__main__":
    main()
