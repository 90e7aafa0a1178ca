"""The baselines of the games other than backgammon: the heuristic player against the random
one in every game, and the heuristic's tuning (docs/lab/game-baselines.md).

    .venv/bin/python bench/bot/games_baselines.py [--games 2000] [--seed 2026] [--jobs 2]
        [--only plakoto fevga] [--tune --tune-games 100]

Each match plays ``--games`` games with seeded dice, each dice sequence twice (each player
starting once), scored by the game's rules. Printed per game: the heuristic's points a game
against the random player with its standard error (over the pairs of games sharing dice), its
share of wins, the endings, the turns a game and the games a second of the run (all jobs
together).

``--tune`` instead plays, per game, the heuristic with one weight halved, or doubled (each
weight but the pips', the unit, in turn), against the heuristic as it stands, ``--tune-games``
games each, and prints each change's points a game with its standard error: the weights in
``backgammon.bot.games.WEIGHTS`` take a change only where it won by two standard errors.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

from backgammon.bot.games import (
    DEFAULT_WEIGHTS,
    WEIGHTS,
    HeuristicPlayer,
    MatchResult,
    RandomPlayer,
    play_match,
)
from backgammon.games import rules_for

GAMES = ("portes", "tavla", "plakoto", "fevga", "long-nardy", "acey-deucey")
#: Games a piece of work plays, so that two jobs share a long match.
PIECE = 50


def _piece(task: tuple[str, str, dict[str, float] | None, int, int]) -> MatchResult:
    game, kind, weights, games, seed = task
    rules = rules_for(game)
    if kind == "random":
        return play_match(rules, HeuristicPlayer(), RandomPlayer(), games, seed)
    return play_match(rules, HeuristicPlayer(weights, "changed"), HeuristicPlayer(), games,
                      seed)


def _merge(parts: list[MatchResult]) -> MatchResult:
    first = parts[0]
    endings = first.endings.copy()
    for part in parts[1:]:
        endings.update(part.endings)
    return MatchResult(first.game, first.first, first.second,
                       tuple(s for part in parts for s in part.scores), endings,
                       sum(part.turns for part in parts))


def _tasks(game: str, kind: str, weights: dict[str, float] | None, games: int,
           seed: int) -> Iterator[tuple[str, str, dict[str, float] | None, int, int]]:
    # Each piece its own seed range: pieces of one match never share dice.
    for start in range(0, games, PIECE):
        yield game, kind, weights, min(PIECE, games - start), seed * 100_000 + start


def _row(label: str, result: MatchResult, seconds: float) -> str:
    endings = ", ".join(f"{k} {v}" for k, v in sorted(result.endings.items()))
    return (f"| {label} | {result.games} | {result.points_per_game:+.3f} ± "
            f"{result.standard_error:.3f} | {100 * result.wins:.1f}% | {endings} | "
            f"{result.turns / result.games:.0f} | {result.games / seconds:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=list(GAMES))
    parser.add_argument("--tune", action="store_true")
    parser.add_argument("--tune-games", type=int, default=100)
    args = parser.parse_args()
    header = ("| game | games | points a game ± s.e. | wins | endings | turns a game "
              "| games a second |\n|---|---|---|---|---|---|---|")
    with ProcessPoolExecutor(args.jobs) as pool:
        if not args.tune:
            print("heuristic against random, duplicate dice\n\n" + header)
            for game in args.only:
                began = time.perf_counter()
                parts = list(pool.map(_piece, _tasks(game, "random", None, args.games,
                                                     args.seed)))
                print(_row(game, _merge(parts), time.perf_counter() - began), flush=True)
            return
        for game in args.only:
            print(f"\n{game}: each change against the heuristic as it stands\n\n{header}")
            base = dict(WEIGHTS.get(game, DEFAULT_WEIGHTS))
            for name, weight in base.items():
                if name == "pips":
                    continue  # the unit
                for factor in (0.5, 2.0):
                    changed = base | {name: weight * factor}
                    began = time.perf_counter()
                    parts = list(pool.map(_piece, _tasks(game, "tune", changed,
                                                         args.tune_games, args.seed)))
                    print(_row(f"{name} × {factor:g}", _merge(parts),
                               time.perf_counter() - began), flush=True)

if __name__ == "__main__":
    main()
