"""Self-play training: TD(lambda) for a contact and a race network (``backgammon train``).

Each game is played by the networks against themselves at 0-ply through the core's legal
plays: of each roll's plays the one whose result is worst for the opponent. After the game,
every position in it (each seen by its player on roll, before rolling) moves towards its
TD(lambda) target, by the network that evaluates it: race positions train the race network,
the others the contact one. The learning rate falls geometrically from ``lr`` to ``lr_end``
over the run.

Games are played many at once (``parallel``), so that the candidates of all of them are
encoded and evaluated in one batch: numpy's cost per call, not the arithmetic, is what limits
small batches. Every ``eval_every`` games a short duel against pubeval is logged (and appended
to ``out/progress.jsonl``) and the latest checkpoint written to ``out/checkpoint.npz``
(replaced whole); at the first of these after each ``checkpoint_minutes`` a copy is kept as
``out/checkpoint-GAMES.npz``.

The run is reproducible: game ``i`` takes its dice from a generator seeded by the seed and
``i``, and checkpoints fall between rounds of games, so a run resumed from one (with the same
settings) plays on exactly as the uninterrupted run would have.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm  # type: ignore[import-untyped]

from ..bot.encoding import CONTACT_INPUTS, RACE_INPUTS, boards, is_race
from ..bot.evaluator import NetworkEvaluator, terminal_values
from ..bot.kernel import encoder
from ..bot.network import OUTPUTS, Network, lambda_returns, save_networks
from ..bot.pubeval import PubEval
from ..bot.search import best_plays
from ..moves import Play
from ..position import Position
from .duel import DuelResult, GreedyPlayer, duel, opening_roll

CHECKPOINT = "checkpoint.npz"
NETWORKS = ("contact", "race")


@dataclass(frozen=True)
class Settings:
    """Everything a training run depends on (the command line's options)."""

    games: int = 400_000
    seed: int = 1
    hidden: int = 80
    race_hidden: int = 40
    lam: float = 0.7
    lr: float = 0.03
    lr_end: float = 0.006
    parallel: int = 32
    eval_every: int = 10_000
    eval_games: int = 200
    checkpoint_minutes: float = 10.0
    out: Path = Path("data/training")
    resume: bool = False
    progress: bool = True

    def learning_rate(self, game: int) -> float:
        """The learning rate of game ``game`` (geometric from ``lr`` to ``lr_end``)."""
        fraction = min(game / max(self.games, 1), 1.0)
        return float(self.lr * (self.lr_end / self.lr) ** fraction)


class _Game:
    """One game in progress in a slot of :class:`SelfPlay`."""

    __slots__ = ("dice", "index", "position", "positions", "rng")

    def __init__(self, index: int, seed: int) -> None:
        self.index = index
        self.rng = random.Random((seed << 32) + index)
        self.position = Position.initial()
        self.dice = opening_roll(self.rng)
        self.positions: list[Position] = []


class SelfPlay:
    """Self-play games, many at once, so that the candidate positions of all of them are
    encoded and evaluated in one batch (numpy's cost per call dominates small batches).

    Game ``i`` rolls the dice of a generator seeded by ``seed`` and ``i``; each game trains
    the networks as soon as it ends. Given the seed and the number of games at once, the run
    is the same whenever it is stopped and resumed at a multiple of the games played in one
    call of :meth:`play`.
    """

    def __init__(self, evaluator: NetworkEvaluator, seed: int, parallel: int = 32) -> None:
        self.evaluator = evaluator
        self.seed = seed
        self.parallel = parallel
        self.plies = 0

    def play(
        self,
        start: int,
        stop: int,
        lam: float,
        rate: Callable[[int], float],
        on_game_end: Callable[[], object] = lambda: None,
    ) -> None:
        """Play and train on games ``start`` up to ``stop`` (``rate(i)``: game i's learning
        rate), calling ``on_game_end`` after each."""
        evaluator, seed = self.evaluator, self.seed
        following = start
        games: list[_Game] = []
        while games or following < stop:
            while len(games) < self.parallel and following < stop:
                games.append(_Game(following, seed))
                following += 1
            waiting: list[tuple[_Game, list[Play]]] = []
            moved: list[tuple[_Game, Position]] = []
            for game in games:
                plays = game.position.legal_plays(game.dice)
                if len(plays) > 1:
                    waiting.append((game, plays))
                else:
                    moved.append((game, plays[0].result if plays else game.position.flip()))
            groups = [[play.result for play in plays] for _, plays in waiting]
            best = best_plays(groups, evaluator.evaluate_batch)
            moved.extend(
                (game, results[index])
                for (game, _), results, index in zip(waiting, groups, best, strict=True)
            )
            finished = []
            for game, position in moved:
                game.position = position
                game.positions.append(position)
                if position.is_game_over():
                    finished.append(game)
                else:
                    game.dice = (game.rng.randint(1, 6), game.rng.randint(1, 6))
            # Games train in the order they began, whatever order they were played in above.
            for game in sorted(finished, key=lambda game: game.index):
                train_on_game(evaluator, game.positions, lam, rate(game.index))
                self.plies += len(game.positions)
                games.remove(game)
                on_game_end()


def settings_json(settings: object) -> dict[str, object]:
    """A settings dataclass as JSON values for a checkpoint's metadata (paths as text)."""
    return {
        key: str(value) if isinstance(value, Path) else value
        for key, value in dataclasses.asdict(settings).items()  # type: ignore[call-overload]
    }


def train_on_game(evaluator: NetworkEvaluator, positions: list[Position], lam: float,
                  learning_rate: float) -> None:
    """The TD(lambda) update of both networks on one game's positions (the last finished)."""
    mine, theirs = boards(positions)
    _, final = terminal_values(mine[-1:], theirs[-1:])
    mine, theirs = mine[:-1], theirs[:-1]
    race = is_race(mine, theirs)
    values = np.empty((len(mine), OUTPUTS), dtype=np.float32)
    batches = []
    for network, rows, encode in (
        (evaluator.contact, ~race, encoder(evaluator.contact.inputs)),
        (evaluator.race, race, encoder(RACE_INPUTS)),
    ):
        if rows.any():
            inputs = encode(mine[rows], theirs[rows])
            values[rows] = network.forward(inputs)
            batches.append((network, rows, inputs))
    targets = lambda_returns(values, final[0], lam)
    for network, rows, inputs in batches:
        network.fit(inputs, targets[rows], learning_rate)


@dataclass
class _Run:
    """A training run's state, as its checkpoint holds it: the networks, the games played,
    the seed, the evaluations so far and the seconds of the sessions before this one."""

    evaluator: NetworkEvaluator
    done: int
    seed: int
    history: list[dict[str, Any]]
    previous_seconds: float


def train(settings: Settings) -> int:
    """Run (or resume) a training run; returns the exit status."""
    settings.out.mkdir(parents=True, exist_ok=True)
    checkpoint = settings.out / CHECKPOINT
    run = _start(settings, checkpoint)
    started = time.monotonic()
    last_checkpoint = started
    bar = tqdm(
        total=settings.games,
        initial=run.done,
        unit="game",
        disable=not settings.progress,
        mininterval=1.0 if sys.stderr.isatty() else 60.0,
        dynamic_ncols=True,
    )
    session_start_games = run.done
    self_play = SelfPlay(run.evaluator, run.seed, settings.parallel)
    # Games are played in rounds; each ends with the evaluation and the latest checkpoint, so
    # a resumed run plays on as the whole run would have (a stopped run loses its last round).
    round_games = settings.eval_every or 1_000
    playing_seconds = 0.0
    while run.done < settings.games:
        stop = min(settings.games, (run.done // round_games + 1) * round_games)
        round_start = time.monotonic()
        self_play.play(run.done, stop, settings.lam, settings.learning_rate, lambda: bar.update(1))
        playing_seconds += time.monotonic() - round_start
        run.done = stop
        if settings.eval_every and run.done % settings.eval_every == 0:
            session_games = run.done - session_start_games
            _evaluate(
                settings, run, bar,
                rate=session_games / max(playing_seconds, 1e-9),
                plies_per_game=self_play.plies / session_games,
                seconds=run.previous_seconds + time.monotonic() - started,
            )
        snapshot = time.monotonic() - last_checkpoint >= 60 * settings.checkpoint_minutes
        _save(settings, run, time.monotonic() - started, snapshot or run.done >= settings.games)
        if snapshot:
            last_checkpoint = time.monotonic()
    bar.close()
    print(f"Trained {run.done} games; the networks are in {checkpoint}.")
    return 0


def _start(settings: Settings, checkpoint: Path) -> _Run:
    """The run to go on with: the checkpoint's with ``resume``, else new networks."""
    if settings.resume and checkpoint.exists():
        # A crashed network in the checkpoint plays its positions and is written back as
        # it is: TD trains the contact and race networks only.
        evaluator, meta = NetworkEvaluator.load_with_meta(checkpoint)
        return _Run(evaluator, int(meta["games"]), int(meta["seed"]), list(meta["history"]),
                    float(meta["seconds"]))
    if settings.resume:
        print(f"No checkpoint in {settings.out}; starting a new run.", file=sys.stderr)
    seed = settings.seed
    evaluator = NetworkEvaluator(
        Network.create(CONTACT_INPUTS, settings.hidden, seed=seed),
        Network.create(RACE_INPUTS, settings.race_hidden, seed=seed + 1),
    )
    return _Run(evaluator, 0, seed, [], 0.0)


def _evaluate(settings: Settings, run: _Run, bar: tqdm, *, rate: float, plies_per_game: float,
              seconds: float) -> None:
    """Measure the networks against pubeval, and record it in the run's history, on the
    progress bar and in ``progress.jsonl``. ``rate``: this session's games a second of play;
    ``seconds``: the whole run's so far."""
    result = measure(run.evaluator, settings.eval_games)
    entry = {
        "games": run.done,
        "ppg": round(result.points_per_game, 4),
        "se": round(result.standard_error, 4),
        "games_per_second": round(rate, 2),
        "plies_per_game": round(plies_per_game, 1),
        "lr": settings.learning_rate(run.done),
        "hours": round(seconds / 3600, 3),
    }
    run.history.append(entry)
    bar.write(f"games {run.done}: against pubeval {result} (training {rate:.1f} games/s)")
    with (settings.out / "progress.jsonl").open("a") as log:
        log.write(json.dumps(entry) + "\n")


def _save(settings: Settings, run: _Run, session_seconds: float, snapshot: bool) -> None:
    """Write the checkpoint, and with ``snapshot`` a copy named by the games played."""
    meta = {
        "games": run.done,
        "seed": run.seed,
        "seconds": run.previous_seconds + session_seconds,
        "settings": settings_json(settings),
        "history": run.history,
    }
    networks = run.evaluator.networks()
    save_networks(settings.out / CHECKPOINT, networks, meta)
    if snapshot:
        save_networks(settings.out / f"checkpoint-{run.done:09d}.npz", networks, meta)


#: The dice of every evaluation are the same, so that successive figures compare like with like.
EVALUATION_SEED = 2026


def measure(evaluator: NetworkEvaluator, games: int) -> DuelResult:
    """The networks at 0-ply against pubeval: cubeless points per game."""
    return duel(GreedyPlayer(evaluator), PubEval(), games, EVALUATION_SEED)
