"""The engine kernel's speed: move generation, 0-ply evaluations, self-play and rollouts,
against gnubg-nn's move generator and the pure-Python path.

    .venv/bin/python bench/bot/kernel.py [--positions 1000] [--seed 1] [--games 1000]
                                     [--trials 1296] [--check 0] [--fresh]

Single-process figures are in processor seconds (``time.process_time``), so that other work
on a shared machine slows them less; the rollout over every core is in wall seconds.
``--fresh`` compiles the kernel into an empty numba cache first and prints the seconds each
part took (a fresh checkout's first call); otherwise the first calls load the cache. The
positions are bench/rules/movegen.py's (seeded random games). ``--check N`` also compares the
kernel's results with ``Position.legal_plays`` on N such positions and all 21 rolls. The last
line is for machines: ``engine movegen_calls_per_s=... ...``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# The cache directory must be chosen before numba is imported.
if "--fresh" in sys.argv:
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-cache-")

import numpy as np

# The positions and the timers of bench/rules/movegen.py, the same for both benches.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))
from movegen import random_positions, time_gnubg, time_ours

from backgammon import ALL_ROLLS, Position
from backgammon.bot import Bot
from backgammon.bot.kernel import Kernel, boards_of, legal_results_batch, position_of
from backgammon.bot.kernel.movegen import generate, workspace
from backgammon.bot.rollout import rollout
from backgammon.bot.shipped import shipped_evaluator

#: Today's pure-Python self-play (bench/bot/bot.py: 0-ply money games with the cube, through the
#: game engine), the issue's baseline.
BASELINE_GAMES_PER_S = 25.0


def best_of(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The fewest processor seconds of ``repeat`` runs, and what the last returned."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        result = run()
        best = min(best, time.process_time() - start)
    return best, result


def compile_all(kernel: Kernel) -> dict[str, float]:
    """Seconds of the first call of each compiled part (compiling, or loading the cache)."""
    start = Position.initial()
    board = boards_of([start])
    dice = np.array([[3, 1]])
    parts: dict[str, Callable[[], Any]] = {
        "movegen": lambda: legal_results_batch(board, dice),
        "evaluate": lambda: kernel.evaluate(board),
        "best play": lambda: kernel.best_results(board, dice),
        "self-play": lambda: kernel.selfplay(1, 1),
        "rollout": lambda: kernel.rollout_trials(start, 0, 1, 1, 1),
    }
    seconds = {}
    for name, run in parts.items():
        began = time.perf_counter()
        run()
        seconds[name] = time.perf_counter() - began
    return seconds


def python_games(games: int, seed: int) -> float:
    """Games/s of cubeless 0-ply self-play in pure Python (Bot.best_play on Positions)."""
    bot = Bot(plies=0)
    rng = random.Random(seed)
    bot.best_play(Position.initial(), (3, 1))
    began = time.process_time()
    for _ in range(games):
        position = Position.initial()
        while not position.is_game_over():
            play = bot.best_play(position, (rng.randint(1, 6), rng.randint(1, 6)))
            position = play.result if play is not None else position.flip()
    return games / (time.process_time() - began)


def check(count: int, seed: int) -> None:
    """Compare the kernel's results with the core's on ``count`` positions x 21 rolls."""
    ws = workspace()
    wrong = calls = 0
    for position in random_positions(count, seed):
        board = boards_of([position])[0]
        for high, low in ALL_ROLLS:
            expected = {p.result.mine + p.result.theirs for p in position.legal_plays((high, low))}
            n = generate(ws, board, high, low)
            found = {tuple(row.ravel().tolist()) for row in ws[0][:n]}
            calls += 1
            wrong += found != expected or len(found) != n
    print(f"check: {calls} calls on {count} positions (seed {seed}), "
          f"{wrong} disagree with the core")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1000, help="kernel self-play games")
    parser.add_argument("--trials", type=int, default=1296, help="rollout trials")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", type=int, default=0, metavar="N")
    parser.add_argument("--fresh", action="store_true", help="compile into an empty cache")
    args = parser.parse_args()
    figures: dict[str, float] = {}
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")

    kernel = Kernel.shipped()
    seconds = compile_all(kernel)
    what = "compile" if args.fresh else "first call (cache load)"
    print(f"{what}: " + ", ".join(f"{k} {v:.1f} s" for k, v in seconds.items())
          + f"; total {sum(seconds.values()):.1f} s")
    figures["first_call_s"] = sum(seconds.values())

    # Move generation.
    positions = random_positions(args.positions, args.seed)
    boards = boards_of(positions)
    calls = len(positions) * len(ALL_ROLLS)
    all_boards = np.repeat(boards, len(ALL_ROLLS), axis=0)
    all_dice = np.tile(np.array(ALL_ROLLS), (len(positions), 1))
    batch_s, (results, _) = best_of(lambda: legal_results_batch(all_boards, all_dice), args.repeat)
    ws = workspace()

    def one_by_one() -> int:
        total = 0
        for i in range(calls):
            total += generate(ws, all_boards[i], all_dice[i, 0], all_dice[i, 1])
        return total

    loop_s, loop_plays = best_of(one_by_one, args.repeat)
    began = time.process_time()
    _, ours_plays = time_ours(positions, 1)
    ours_s = time.process_time() - began
    print(f"move generation, {len(positions)} positions x 21 rolls = {calls} calls "
          f"({len(results)} results):")
    print(f"  kernel, one batch:          {calls / batch_s:12,.0f} calls/s")
    print(f"  kernel, a Python call each: {calls / loop_s:12,.0f} calls/s")
    print(f"  core Position.legal_plays:  {calls / ours_s:12,.0f} calls/s")
    began = time.process_time()
    gnubg = time_gnubg(positions, args.repeat)
    if gnubg is not None:
        gnubg = ((time.process_time() - began) / args.repeat, gnubg[1])
    figures["movegen_calls_per_s"] = calls / batch_s
    figures["movegen_loop_calls_per_s"] = calls / loop_s
    if gnubg is not None:
        gnubg_s, gnubg_plays = gnubg
        print(f"  gnubg_nn.moves:             {calls / gnubg_s:12,.0f} calls/s"
              f"  (kernel batch / gnubg = {gnubg_s / batch_s:.2f})")
        figures["gnubg_calls_per_s"] = calls / gnubg_s
        assert gnubg_plays == len(results) == loop_plays == ours_plays, "play counts differ"

    # 0-ply evaluation.
    sample = results[: min(len(results), 100_000)]
    eval_s, _ = best_of(lambda: kernel.evaluate(sample), args.repeat)
    subset = [position_of(b) for b in sample[:20_000]]
    evaluator = shipped_evaluator()
    numpy_s, _ = best_of(lambda: evaluator.evaluate_batch(subset), args.repeat)
    small_s, _ = best_of(
        lambda: [evaluator.evaluate_batch(subset[i : i + 20]) for i in range(0, 2000, 20)], 1
    )
    print(f"0-ply evaluation of {len(sample)} results (the shipped networks and bearoff table):")
    print(f"  kernel:                     {len(sample) / eval_s:12,.0f} evaluations/s")
    print(f"  numpy, one batch of 20,000: {len(subset) / numpy_s:12,.0f} evaluations/s")
    print(f"  numpy, batches of 20:       {2000 / small_s:12,.0f} evaluations/s")
    figures["evaluations_per_s"] = len(sample) / eval_s

    # Self-play.
    began = time.process_time()
    games = kernel.selfplay(args.games, args.seed)
    selfplay_s = time.process_time() - began
    python_rate = python_games(5, args.seed)
    rate = args.games / selfplay_s
    print(f"self-play, cubeless 0-ply, one process: {rate:,.0f} games/s over {args.games} games "
          f"({games.turns.mean():.1f} turns a game; {rate / BASELINE_GAMES_PER_S:.0f}x the "
          f"baseline {BASELINE_GAMES_PER_S:.0f} games/s; pure Python here now "
          f"{python_rate:.1f} games/s)")
    figures["selfplay_games_per_s"] = rate
    figures["python_games_per_s"] = python_rate

    # Rollouts of the starting position.
    start = Position.initial()
    for name, luck, trials in (("plain", False, args.trials), ("luck", True, args.trials // 6)):
        trials -= trials % 36
        began = time.process_time()
        results_, lucks = kernel.rollout_trials(start, 0, trials, args.seed, 0, luck)
        spent = time.process_time() - began
        equity = (results_ - lucks) @ np.array([2.0, 1, 1, -1, -1]) - 1
        print(f"rollout trials, {name}, one process: {trials / spent:,.0f} games/s "
              f"({trials / spent / BASELINE_GAMES_PER_S:.1f}x the baseline); "
              f"sd of a trial's equity {equity.std():.3f}")
        figures[f"rollout_{name}_games_per_s"] = trials / spent
        figures[f"rollout_{name}_sd"] = float(equity.std())
    began = time.perf_counter()
    result = rollout(start, trials=args.trials, seed=args.seed, luck=False)
    spent = time.perf_counter() - began
    print(f"rollout(), plain, all {os.cpu_count()} cores: {args.trials / spent:,.0f} games/s; "
          f"equity {result.equity:+.3f} ± {1.96 * result.equity_se:.3f}")
    figures["rollout_all_cores_games_per_s"] = args.trials / spent
    plain, reduced = figures["rollout_plain_sd"], figures["rollout_luck_sd"]
    effective = figures["rollout_luck_games_per_s"] * (plain / reduced) ** 2
    print(f"luck adjustment: sd {plain:.3f} -> {reduced:.3f}, worth {(plain / reduced) ** 2:.0f}x "
          f"the trials; {effective:,.0f} plain-game equivalents/s in one process")

    if args.check:
        check(args.check, args.seed + 1)
    print("engine " + " ".join(f"{k}={v:.4g}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
