"""The bot's speed: milliseconds per decision at 0 to 3 ply, as a ratio to gnubg-nn's own
search on the same decisions in the same run, and self-play games a second.

    .venv/bin/python bench/bot/bot.py [--positions 200] [--seed 1] [--games 20]

The decisions are a fixed set of (position, roll) pairs from seeded games of the shipped bot
against itself at 0-ply, each with at least two legal plays. Every decision starts from an
empty cache (the figure for a fresh question, not for a game in which the caches are warm);
the median and the 95th percentile are printed for each depth, on fewer decisions the deeper
the search. Where gnubg-nn is installed (a measuring reference only), its ``bestmove`` is timed
on the same decisions at 0 to 2 plies (its count and ours agree: 1-ply looks one roll ahead),
and each depth's median is printed as a ratio to gnubg-nn's, the figure that carries from
one machine to another. Self-play is money games with the cube at 0-ply through the game engine, as
``backgammon selfplay`` plays them. The last line is for machines:
``bot ply0_median_ms=... ...``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from backgammon import Position
from backgammon.bot import Bot
from backgammon.training.selfplay import selfplay

Decision = tuple[Position, tuple[int, int]]


def decisions(count: int, seed: int, bot: Bot) -> list[Decision]:
    """``count`` decisions with a choice, from seeded games of ``bot`` against itself."""
    rng = random.Random(seed)
    found: list[Decision] = []
    position = Position.initial()
    while len(found) < count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = position.legal_plays(dice)
        if len(plays) > 1:
            found.append((position, dice))
        play = bot.best_play(position, dice)
        position = play.result if play is not None else position.flip()
        if position.is_game_over():
            position = Position.initial()
    return found


def time_decisions(bot: Bot, chosen: list[Decision]) -> list[float]:
    """Milliseconds of each decision, each from an empty cache."""
    times = []
    for position, dice in chosen:
        bot.search.clear()
        start = time.perf_counter()
        bot.best_play(position, dice)
        times.append((time.perf_counter() - start) * 1000)
    return times


def time_gnubg(plies: int, chosen: list[Decision]) -> list[float] | None:
    """Milliseconds of gnubg-nn's choice of each decision at ``plies``; None without it."""
    try:
        import gnubg_nn
        from gnubg_judge import gnubg_board
    except ImportError:
        return None
    gnubg_nn.bestmove(gnubg_board(chosen[0][0]), *chosen[0][1], n=plies)  # loaded before
    times = []
    for position, (first, second) in chosen:
        board = gnubg_board(position)
        start = time.perf_counter()
        gnubg_nn.bestmove(board, first, second, n=plies)
        times.append((time.perf_counter() - start) * 1000)
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200, help="0-ply decisions (200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=20, help="self-play games (20)")
    args = parser.parse_args()

    chosen = decisions(args.positions, args.seed, Bot())
    figures: dict[str, float] = {}
    for plies, share in ((0, 1), (1, 4), (2, 5), (3, 20)):
        bot = Bot(plies=plies)
        sample = chosen[::share]
        bot.best_play(*sample[0])  # load the weights and the table before timing
        times = time_decisions(bot, sample)
        median, p95 = statistics.median(times), percentile(times, 0.95)
        figures[f"ply{plies}_median_ms"] = median
        figures[f"ply{plies}_p95_ms"] = p95
        print(f"{plies}-ply: median {median:7.2f} ms, 95th percentile {p95:7.2f} ms "
              f"per decision over {len(sample)} decisions")
        theirs = time_gnubg(plies, sample) if plies <= 2 else None
        if theirs:
            figures[f"ply{plies}_to_gnubg"] = median / statistics.median(theirs)
            print(f"       gnubg-nn {statistics.median(theirs):7.2f} ms: ours "
                  f"{figures[f'ply{plies}_to_gnubg']:.2f} times its median")

    start = time.perf_counter()
    match = selfplay(games=args.games, seed=args.seed)
    seconds = time.perf_counter() - start
    plies = sum(len(game.plays) for game in match.games)
    figures["selfplay_games_per_s"] = args.games / seconds
    print(f"self-play at 0-ply with the cube: {args.games / seconds:.2f} games/s "
          f"({plies / seconds:.0f} turns/s)")
    print("bot " + " ".join(f"{name}={value:.3f}" for name, value in figures.items()))


if __name__ == "__main__":
    main()
