"""The other games' move generation speed: ``GameRules.legal_plays`` for each game.

    .venv/bin/python bench/rules/games.py [--positions 300] [--games 20] [--seed 1]

For each game, a fixed set of boards from seeded random games (a random legal play each turn,
the plays put in a fixed order first), then ``legal_plays`` over every board and all 21 rolls
(calls a second), and whole random games a second (a game's turns, its 1-2 stages included).
The last line is for machines: ``games <name>_calls_per_s=... <name>_games_per_s=... ...``.
"""

from __future__ import annotations

import argparse
import random
import time

from backgammon import ALL_ROLLS
from backgammon.games import GAMES, Board, GameRules, Stage, rules_for


def random_boards(rules: GameRules, count: int, seed: int) -> list[Board]:
    """``count`` boards of seeded random games of ``rules``; a finished game starts anew."""
    rng = random.Random(seed)
    boards: list[Board] = []
    board = rules.initial()
    while len(boards) < count:
        boards.append(board)
        plays = rules.legal_plays(board, (rng.randint(1, 6), rng.randint(1, 6)))
        if plays:
            plays.sort(key=lambda play: (play.result.mine, play.result.theirs))
            board = rng.choice(plays).result
        else:
            board = board.flip()
        if rules.outcome(board) is not None:
            board = rules.initial()
    return boards


def random_game(rules: GameRules, rng: random.Random) -> int:
    """Play one random game to its end; the number of plays made."""
    board, made = rules.initial(), 0
    while rules.outcome(board) is None:
        stage, dice = Stage.THROW, (rng.randint(1, 6), rng.randint(1, 6))
        while True:
            plays = rules.legal_plays(board, dice)
            if not plays:
                board = board.flip()
                break
            play = rng.choice(plays)
            made += 1
            board = play.result
            next_stage = None if rules.outcome(board) else rules.next_stage(play, dice, stage)
            if next_stage is None:
                break
            stage, board = next_stage, board.flip()
            die = rng.randint(1, 6)
            dice = (die, die) if stage is Stage.NAMED_DOUBLE else (die, rng.randint(1, 6))
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures = []
    print(f"{'game':<12} {'calls/s':>9} {'plays/call':>10} {'games/s':>8} {'plays/game':>10}")
    for name in GAMES:
        rules = rules_for(name)
        boards = random_boards(rules, args.positions, args.seed)
        start = time.perf_counter()
        found = sum(len(rules.legal_plays(board, dice)) for board in boards
                    for dice in ALL_ROLLS)
        calls_per_s = len(boards) * len(ALL_ROLLS) / (time.perf_counter() - start)
        rng = random.Random(args.seed)
        start = time.perf_counter()
        made = sum(random_game(rules, rng) for _ in range(args.games))
        games_per_s = args.games / (time.perf_counter() - start)
        print(f"{name:<12} {calls_per_s:>9.0f} {found / len(boards) / 21:>10.1f} "
              f"{games_per_s:>8.1f} {made / args.games:>10.1f}")
        figures.append(f"{name}_calls_per_s={calls_per_s:.0f} "
                       f"{name}_games_per_s={games_per_s:.1f}")
    print("games " + " ".join(figures))


if __name__ == "__main__":
    main()
