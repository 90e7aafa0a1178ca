"""Supervised training on the bot's own search (the second stage of training).

Each round generates positions from the bot's own self-play games, at 0-ply with some noise
in the play (with probability ``explore`` a random legal play instead of the best) so that the
positions are varied; labels each with the bot's own n-ply value (``plies``, 1 by default:
the average over the 21 rolls of the 0-ply value of the best reply; 2 goes one roll deeper),
by :class:`~backgammon.bot.search.Search` over the current networks and the bearoff table;
and trains the contact and race networks towards
those five-output targets by minibatch gradient steps on the cross-entropy
(:meth:`Network.fit`). The next round labels fresh positions with the improved networks.
Positions the bearoff table answers exactly train neither network. No reference program is
involved: the data are the bot's own play and search. (Labels from rollouts of the bot's own
positions, in generations, are :mod:`backgammon.training.generations`: ``--stage rollout``.)

After each round the networks (with the bearoff table, as in play) duel pubeval (logged to
``out/progress.jsonl``) and are written to ``out/checkpoint.npz``, with a copy
``out/checkpoint-round-NNN.npz``; a run resumed from the checkpoint goes on with the next
round. Round ``r`` takes its dice and noise from
generators seeded by the seed and ``r``, so a resumed run plays on as the whole run would have.

Run: ``backgammon train --stage search --from src/backgammon/bot/weights/td.npz
--plies 1 --positions 20000 --rounds 10 --out data/training-1ply``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from tqdm import tqdm  # type: ignore[import-untyped]

from ..bot.bearoff import BearoffEvaluator, is_bearoff
from ..bot.encoding import RACE_INPUTS, boards, is_race
from ..bot.evaluator import NetworkEvaluator
from ..bot.kernel import encoder
from ..bot.network import OUTPUTS, Array, save_networks
from ..bot.pubeval import PubEval
from ..bot.search import Search, best_plays
from ..position import Position
from .duel import DuelResult, GreedyPlayer, duel, opening_roll
from .train import CHECKPOINT, EVALUATION_SEED, settings_json

#: Positions labelled in one batch of the search (a batch's tree is evaluated at once).
LABEL_BATCH = 64


@dataclass(frozen=True)
class Settings:
    """Everything a supervised run depends on (the command line's options)."""

    start: Path = Path("src/backgammon/bot/weights/td.npz")
    plies: int = 1
    positions: int = 20_000
    rounds: int = 10
    seed: int = 1
    explore: float = 0.1
    epochs: int = 2
    batch: int = 128
    lr: float = 0.0005
    parallel: int = 32
    eval_games: int = 200
    out: Path = Path("data/training-1ply")
    resume: bool = False
    progress: bool = True


def generate(
    evaluator: NetworkEvaluator, count: int, seed: int, explore: float, parallel: int = 32
) -> list[Position]:
    """``count`` positions (game not over, player on roll before rolling) from self-play games
    at 0-ply, a random legal play instead of the best one with probability ``explore``."""
    rng = random.Random(seed)
    found: list[Position] = []
    games: list[tuple[Position, tuple[int, int]]] = []
    while len(found) < count:
        while len(games) < parallel:
            games.append((Position.initial(), opening_roll(rng)))
        waiting: list[tuple[int, list[Position]]] = []
        moved: dict[int, Position] = {}
        for slot, (position, dice) in enumerate(games):
            plays = position.legal_plays(dice)
            if len(plays) > 1 and rng.random() < explore:
                moved[slot] = rng.choice(plays).result
            elif len(plays) > 1:
                waiting.append((slot, [play.result for play in plays]))
            else:
                moved[slot] = plays[0].result if plays else position.flip()
        best = best_plays([results for _, results in waiting], evaluator.evaluate_batch)
        moved.update(
            (slot, results[index]) for (slot, results), index in zip(waiting, best, strict=True)
        )
        following = []
        for slot in range(len(games)):
            position = moved[slot]
            if position.is_game_over():
                continue
            found.append(position)
            following.append((position, (rng.randint(1, 6), rng.randint(1, 6))))
        games = following
    return found[:count]


def label(
    evaluator: NetworkEvaluator,
    positions: Sequence[Position],
    plies: int = 1,
    bar: Any = None,
) -> Array:
    """The ``plies``-ply values ``(n, 5)`` of ``positions`` by the networks (and the bearoff
    table)."""
    if plies < 1:
        raise ValueError(f"Targets come from a search of 1 ply or more; got {plies}.")
    exact = BearoffEvaluator(evaluator)
    search = Search(exact)
    values = np.empty((len(positions), OUTPUTS), dtype=np.float32)
    for start in range(0, len(positions), LABEL_BATCH):
        chunk = positions[start : start + LABEL_BATCH]
        values[start : start + len(chunk)] = search.values(chunk, plies)
        # The networks are fixed within a round, but the cache only helps within a batch's
        # tree: across batches it is memory with few hits.
        search.clear()
        if bar is not None:
            bar.update(len(chunk))
    return values


def fit(
    evaluator: NetworkEvaluator,
    positions: Sequence[Position],
    targets: Array,
    settings: Settings,
    rng: np.random.Generator,
) -> dict[str, float]:
    """Minibatch gradient steps of both networks towards ``targets``; returns each network's
    mean squared error over the last epoch (before each step)."""
    mine, theirs = boards(positions)
    exact = is_bearoff(mine, theirs)
    race = is_race(mine, theirs) & ~exact
    return fit_rows(
        evaluator, mine, theirs, targets, (~(race | exact), race),
        settings.epochs, settings.batch, settings.lr, rng,
    )


def fit_rows(
    evaluator: NetworkEvaluator,
    mine: NDArray[np.uint8],
    theirs: NDArray[np.uint8],
    targets: Array,
    rows: tuple[NDArray[np.bool_], NDArray[np.bool_]],
    epochs: int,
    batch_size: int,
    lr: float,
    rng: np.random.Generator,
) -> dict[str, float]:
    """``epochs`` passes of minibatch steps of the contact and race networks towards the
    ``targets`` of their ``rows`` (the counts ``mine``/``theirs`` of each position); returns
    each network's mean squared error over the last pass (before each step)."""
    errors: dict[str, float] = {}
    for name, network, chosen, encode in (
        ("contact", evaluator.contact, rows[0], encoder(evaluator.contact.inputs)),
        ("race", evaluator.race, rows[1], encoder(RACE_INPUTS)),
    ):
        if not chosen.any():
            continue
        inputs, wanted = encode(mine[chosen], theirs[chosen]), targets[chosen]
        for _ in range(epochs):
            order = rng.permutation(len(inputs))
            total = 0.0
            for start in range(0, len(order), batch_size):
                batch = order[start : start + batch_size]
                total += network.fit(inputs[batch], wanted[batch], lr) * len(batch)
            errors[name] = total / len(order)
    return errors


def measure(evaluator: NetworkEvaluator, games: int) -> DuelResult:
    """The networks with the bearoff table, at 0-ply, against pubeval: cubeless points per
    game. The table answers bear-offs, as in play: the race network does not train on them."""
    return duel(GreedyPlayer(BearoffEvaluator(evaluator)), PubEval(), games, EVALUATION_SEED)


def train(settings: Settings) -> int:
    """Run (or resume) a supervised run; returns the exit status."""
    settings.out.mkdir(parents=True, exist_ok=True)
    checkpoint = settings.out / CHECKPOINT
    source = _source(settings, checkpoint)
    # A crashed network in the start file plays its positions (in the games, the labels and
    # the measures) and is written out as it is: only the contact and race networks train.
    evaluator, meta = NetworkEvaluator.load_with_meta(source)
    resumed = source == checkpoint
    done = int(meta["rounds"]) if resumed else 0
    history: list[dict[str, Any]] = list(meta["history"]) if resumed else []
    previous_seconds = float(meta["seconds"]) if resumed else 0.0
    started = time.monotonic()
    if not history and settings.eval_games:
        result = measure(evaluator, settings.eval_games)
        history.append({"round": 0, "ppg": round(result.points_per_game, 4),
                        "se": round(result.standard_error, 4)})
        print(f"round 0 (start): against pubeval {result}", flush=True)
    bar = tqdm(
        total=settings.positions * settings.rounds,
        initial=settings.positions * done,
        unit="pos",
        disable=not settings.progress,
        mininterval=1.0 if sys.stderr.isatty() else 60.0,
        dynamic_ncols=True,
    )
    while done < settings.rounds:
        entry = _train_round(settings, evaluator, done, bar)
        done += 1
        entry["hours"] = round((previous_seconds + time.monotonic() - started) / 3600, 3)
        history.append(entry)
        with (settings.out / "progress.jsonl").open("a") as log:
            log.write(json.dumps(entry) + "\n")
        meta = {
            "rounds": done,
            "seconds": previous_seconds + time.monotonic() - started,
            "settings": settings_json(settings),
            "history": history,
        }
        networks = evaluator.networks()
        save_networks(checkpoint, networks, meta)
        save_networks(settings.out / f"checkpoint-round-{done:03d}.npz", networks, meta)
    bar.close()
    print(f"Trained {done} rounds; the networks are in {checkpoint}.")
    return 0


def _source(settings: Settings, checkpoint: Path) -> Path:
    """The networks to start from: the checkpoint with ``resume``, else ``settings.start``."""
    if settings.resume and checkpoint.exists():
        return checkpoint
    if settings.resume:
        print(f"No checkpoint in {settings.out}; starting from {settings.start}.",
              file=sys.stderr)
    return settings.start


def _train_round(settings: Settings, evaluator: NetworkEvaluator, done: int,
                 bar: tqdm) -> dict[str, Any]:
    """Round ``done + 1``: new positions from games, their labels, the fit, and (with
    ``eval_games``) the measure against pubeval; returns its entry of the history, less the
    hours."""
    round_seed = (settings.seed << 20) + done
    round_start = time.monotonic()
    positions = generate(
        evaluator, settings.positions, round_seed, settings.explore, settings.parallel
    )
    targets = label(evaluator, positions, settings.plies, bar)
    labelling = time.monotonic() - round_start
    errors = fit(evaluator, positions, targets, settings, np.random.default_rng(round_seed))
    entry: dict[str, Any] = {
        "round": done + 1,
        "mse": {name: round(error, 6) for name, error in errors.items()},
        "positions_per_second": round(len(positions) / max(labelling, 1e-9), 1),
    }
    if settings.eval_games:
        result = measure(evaluator, settings.eval_games)
        entry.update(ppg=round(result.points_per_game, 4), se=round(result.standard_error, 4))
        bar.write(f"round {done + 1}: against pubeval {result}, errors {entry['mse']}")
    return entry


def main(argv: list[str] | None = None) -> int:
    """The command line: ``python -m backgammon.training.supervised --from FILE ...``."""
    defaults = Settings()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="start", type=Path, default=defaults.start,
                        help="networks to start from (a checkpoint of `backgammon train`)")
    parser.add_argument("--plies", type=int, default=defaults.plies,
                        help="the depth of the search that labels the positions")
    parser.add_argument("--positions", type=int, default=defaults.positions,
                        help="positions labelled in each round")
    parser.add_argument("--rounds", type=int, default=defaults.rounds)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--explore", type=float, default=defaults.explore,
                        help="chance of a random play in the games that give the positions")
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--batch", type=int, default=defaults.batch)
    parser.add_argument("--lr", type=float, default=defaults.lr)
    parser.add_argument("--eval-games", type=int, default=defaults.eval_games)
    parser.add_argument("--out", type=Path, default=defaults.out)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    return train(
        Settings(
            start=args.start, plies=args.plies, positions=args.positions,
            rounds=args.rounds, seed=args.seed,
            explore=args.explore, epochs=args.epochs, batch=args.batch, lr=args.lr,
            eval_games=args.eval_games, out=args.out, resume=args.resume,
            progress=not args.no_progress,
        )
    )


if __name__ == "__main__":
    sys.exit(main())
