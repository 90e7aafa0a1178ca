"""Move generation speed: ``Position.legal_plays`` against gnubg_nn's generator.

    .venv/bin/python bench/rules/movegen.py [--positions 1000] [--seed 1] [--repeat 5]

Builds a fixed set of positions from seeded random games (a random legal play each turn, the
plays put in a fixed order first, so the set is the same on every run and for every version
of the generator), then times ``legal_plays`` over every position and all 21 rolls, best of
several repetitions, and the same for ``gnubg_nn.moves`` on the same boards (converted before
the clock starts). The last line is for machines: ``movegen ours_calls_per_s=... ...``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from backgammon import ALL_ROLLS, Position, Variant


def random_positions(count: int, seed: int) -> list[Position]:
    """``count`` positions from seeded random games, a random legal play each turn.

    Every fifth game is Nackgammon, for its heavier back games; a finished game is followed by
    a new one.
    """
    rng = random.Random(seed)
    positions: list[Position] = []
    games = 0
    position = Position.initial()
    while len(positions) < count:
        positions.append(position)
        plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        if plays:
            plays.sort(key=lambda play: (play.result.mine, play.result.theirs))
            position = rng.choice(plays).result
        else:
            position = position.flip()
        if position.is_game_over():
            games += 1
            variant = Variant.NACKGAMMON if games % 5 == 4 else Variant.STANDARD
            position = Position.initial(variant)
    return positions


def best_time(run: Callable[[], int], repeat: int) -> tuple[float, int]:
    """The fastest of ``repeat`` runs of ``run`` in seconds, and what it returned."""
    best = float("inf")
    result = 0
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def time_ours(positions: list[Position], repeat: int) -> tuple[float, int]:
    """Best time of legal_plays over every position and roll, and the number of plays."""

    def run() -> int:
        plays = 0
        for position in positions:
            legal_plays = position.legal_plays
            for dice in ALL_ROLLS:
                plays += len(legal_plays(dice))
        return plays

    return best_time(run, repeat)


def time_gnubg(positions: list[Position], repeat: int) -> tuple[float, int] | None:
    """The same for gnubg_nn.moves on the same boards, or None without gnubg_nn."""
    try:
        import gnubg_nn
    except ImportError:
        return None
    # gnubg_nn's board: [opponent's 25 counts, the mover's], points 1..24 then the bar.
    boards = [[list(p.theirs[1:26]), list(p.mine[1:26])] for p in positions]
    moves = gnubg_nn.moves

    def run() -> int:
        plays = 0
        for board in boards:
            for high, low in ALL_ROLLS:
                plays += len(moves(board, high, low))
        return plays

    return best_time(run, repeat)


def main() -> None:
    """Build the positions, time both generators and print the figures."""
    parser = argparse.ArgumentParser(description="Time move generation (ours and gnubg_nn's).")
    parser.add_argument("--positions", type=int, default=1000, help="positions (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions; the best counts")
    args = parser.parse_args()

    positions = random_positions(args.positions, args.seed)
    calls = len(positions) * len(ALL_ROLLS)
    on_bar = sum(1 for p in positions if p.bar[0])
    races = sum(1 for p in positions if p.is_race())
    print(
        f"{len(positions)} positions (seed {args.seed}; {on_bar} with the mover on the bar, "
        f"{races} races) x {len(ALL_ROLLS)} rolls = {calls} calls, best of {args.repeat}"
    )

    seconds, ours_count = time_ours(positions, args.repeat)
    ours_calls, ours_plays = calls / seconds, ours_count / seconds
    print(
        f"ours   legal_plays: {seconds:.3f} s, {ours_calls:,.0f} calls/s, "
        f"{ours_plays:,.0f} plays/s ({ours_count} plays)"
    )
    line = f"movegen positions={len(positions)} seed={args.seed} ours_calls_per_s={ours_calls:.0f}"
    line += f" ours_plays_per_s={ours_plays:.0f}"

    gnubg = time_gnubg(positions, args.repeat)
    if gnubg is None:
        print("gnubg_nn is not importable (pip install gnubg-nn): only our figures are shown.")
    else:
        seconds, plays = gnubg
        gnubg_calls, gnubg_plays = calls / seconds, plays / seconds
        print(
            f"gnubg  moves:       {seconds:.3f} s, {gnubg_calls:,.0f} calls/s, "
            f"{gnubg_plays:,.0f} plays/s ({plays} plays)"
        )
        if plays != ours_count:
            print(f"warning: gnubg_nn finds {plays} plays and we find {ours_count}")
        ratio = ours_calls / gnubg_calls
        print(f"ours/gnubg (calls/s): {ratio:.3f} (gnubg is {1 / ratio:.1f}x as fast)")
        line += f" gnubg_calls_per_s={gnubg_calls:.0f} gnubg_plays_per_s={gnubg_plays:.0f}"
        line += f" ratio={ratio:.4f}"
    print(line)


if __name__ == "__main__":
    main()
