"""The other games' top levels against ``advanced``: the shipped network one ply ahead
(:func:`backgammon.bot.games.td.rank`, ``plies=1``) against the same network at 0-ply, in
duplicate-dice matches in the compiled kernel (docs/lab/game-baselines.md).

    .venv/bin/python bench/bot/games_lookahead.py [--games 400] [--seed 2026]
        [--only plakoto fevga] [--decisions 200]

Printed per game: the 1-ply player's points a game with its standard error (over the pairs
of games sharing dice), its share of wins, the seconds of the match, and the cost of a
decision: the seconds a 0-ply and a 1-ply decision take in the Python player the game
machine calls (``games_player(name, level).choose``, over ``--decisions`` positions of
self-play), and their ratio.
"""

from __future__ import annotations

import argparse
import random
import time

from backgammon.bot.games import games_player
from backgammon.bot.games.compiled import compiled_match
from backgammon.games import GamePlay, rules_for

GAMES = ("portes", "tavla", "plakoto", "fevga", "long-nardy", "acey-deucey")


def _positions(name: str, count: int, seed: int) -> list[list[GamePlay]]:
    """The legal plays of ``count`` decisions met in games of the 0-ply player against
    itself (decisions with two plays or more), from ``seed``."""
    rules = rules_for(name)
    player = games_player(name)
    rng = random.Random(seed)
    found: list[list[GamePlay]] = []
    while len(found) < count:
        board = rules.initial()
        while rules.outcome(board) is None and len(found) < count:
            plays = rules.legal_plays(board, (rng.randint(1, 6), rng.randint(1, 6)))
            if not plays:
                board = board.flip()
                continue
            if len(plays) > 1:
                found.append(plays)
            board = player.choose(rules, plays, rng).result
    return found


def _seconds_a_decision(name: str, level: str, decisions: list[list[GamePlay]]) -> float:
    rules = rules_for(name)
    player = games_player(name, level)
    rng = random.Random(0)
    player.choose(rules, decisions[0], rng)  # compiled and loaded before the clock
    start = time.perf_counter()
    for plays in decisions:
        player.choose(rules, plays, rng)
    return (time.perf_counter() - start) / len(decisions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--only", nargs="*", default=GAMES)
    args = parser.parse_args()
    print("game         1-ply vs 0-ply (pts/game ± se)  wins   match s   "
          "0-ply ms  1-ply ms  ratio")
    for name in args.only:
        rules = rules_for(name)
        start = time.perf_counter()
        result = compiled_match(rules, games_player(name, "world-class"),
                                games_player(name, "advanced"), args.games, args.seed)
        match_seconds = time.perf_counter() - start
        decisions = _positions(name, args.decisions, args.seed)
        zero = _seconds_a_decision(name, "advanced", decisions)
        one = _seconds_a_decision(name, "world-class", decisions)
        print(f"{name:<12} {result.points_per_game:+.3f} ± {result.standard_error:.3f} "
              f"({result.games} games)   {result.wins:.3f}  {match_seconds:7.1f}   "
              f"{1000 * zero:7.2f}  {1000 * one:8.2f}  {one / zero:5.1f}", flush=True)


if __name__ == "__main__":
    main()
