"""The compiled move generator of the other games against the core's rules objects: the
same boards of seeded random games, all 21 rolls, timed in the same process, and checked
result for result (docs/lab/game-baselines.md#the-kernel).

    .venv/bin/python bench/bot/games_kernel.py [--boards 300] [--only GAME ...]
"""

from __future__ import annotations

import argparse
import random
import time

from backgammon.bot.games.match import DiceStream
from backgammon.bot.kernel import boards as kb
from backgammon.games import Board, rules_for

GAMES = tuple(kb.GAME_CODES)
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def sample(game: str, count: int, seed: int) -> list[Board]:
    """Every third board of seeded random games, through the core."""
    rules = rules_for(game)
    rng = random.Random(seed)
    boards: list[Board] = []
    games = 0
    while len(boards) < count:
        board, dice = rules.initial(), DiceStream(f"bench-{game}-{seed}-{games}")
        games += 1
        for turn in range(2_000):
            if turn % 3 == 0:
                boards.append(board)
            plays = rules.legal_plays(board, dice.throw())
            board = rng.choice(plays).result if plays else board.flip()
            if rules.outcome(board) is not None:
                break
    return boards[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", nargs="*", default=GAMES, choices=GAMES)
    args = parser.parse_args()
    ws = kb.workspace()
    print("| game | boards x 21 rolls | results a roll | core µs a roll | kernel µs a roll "
          "| ratio |")
    print("|---|---|---|---|---|---|")
    for game in args.only:
        rules, code = rules_for(game), kb.game_code(game)
        boards = sample(game, args.boards, args.seed)
        arrays = kb.boards_array(boards)
        kb.generate(ws, code, arrays[0], 6, 5)  # compiled (or loaded) before the clock
        began = time.perf_counter()
        core = [[p.result for p in rules.legal_plays(b, roll)] for b in boards for roll in ROLLS]
        core_s = time.perf_counter() - began
        began = time.perf_counter()
        counts = [kb.generate(ws, code, a, d1, d2) for a in arrays for d1, d2 in ROLLS]
        kernel_s = time.perf_counter() - began
        # The check, outside the clock.
        index = 0
        for array in arrays:
            for d1, d2 in ROLLS:
                count = kb.generate(ws, code, array, d1, d2)
                found = {kb.board_of_array(r) for r in ws[7][:count]}
                if found != set(core[index]) or count != len(core[index]):
                    raise SystemExit(f"{game}: the kernel differs from the core on "
                                     f"{boards[index // 21]!r}, {d1}-{d2}")
                index += 1
        calls = len(counts)
        print(f"| {game} | {len(boards)} x 21 | {sum(counts) / calls:.1f} | "
              f"{1e6 * core_s / calls:.0f} | {1e6 * kernel_s / calls:.1f} | "
              f"{core_s / kernel_s:.0f} |", flush=True)


if __name__ == "__main__":
    main()
