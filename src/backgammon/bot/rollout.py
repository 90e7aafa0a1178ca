"""Rollouts: a position's value measured by playing it out many times with the kernel.

Each trial plays the position to the end (or for ``truncate`` turns and takes the 0-ply value
of the position reached) with the bot's play at ``plies`` (0 to 2: a
:class:`~backgammon.bot.Bot` of that depth's cubeless choice, with its move filters) for both
sides, and reports the five outcomes for the player on roll; their means are the cubeless
probabilities. Trials are
independent and their dice come from their index and the seed alone, so a rollout gives the
same result however many processes share it (:func:`rollout`, ``workers``; :func:`rollouts`
rolls many positions out with one set of processes, as labelling training positions needs).

Two things make the trials count for more, as in GNU Backgammon's rollouts:

* quasi-random dice, when the trials are a multiple of 36 (as GNU Backgammon's rotation):
  every 36 trials have each first roll once and each second roll once, every 1,296 each pair
  of first two rolls once (:mod:`.kernel.games`); otherwise the first rolls would not weigh
  the same and the dice are all random;
* variance reduction (``luck``): each turn's luck is the 0-ply value of the 0-ply play of the
  roll less the average over the 21 rolls of the value of the 0-ply play of each, and a trial
  counts its result less the sum of its lucks. The expectation is the same, the variance much
  smaller; each turn costs the 0-ply choices of all 21 rolls (at 1 ply GNU Backgammon
  measures luck in the same way, one ply below the play; deeper plays keep the 0-ply measure,
  :mod:`.kernel.rollouts` says why).

The standard errors are the trials' standard deviation over the square root of their number
(which overstates them a little, as it ignores the stratification of the dice), the intervals
±1.96 standard errors.

The cubeful equity comes one of two ways:

* by default, the value of the right cube action by the bot's cube model applied to the
  rolled-out cubeless probabilities: Janowski's in money play
  (:func:`backgammon.bot.cube.money_decision`), Janowski's lines in match winning chances at
  the score in a match (:func:`backgammon.bot.cube.match_decision`, the match equity table of
  :mod:`.met`). The cube is not played in the trials, so this is the cube model's estimate on
  better chances; its standard error comes from the trials' covariance through the model's
  gradient;
* with ``cubeful``, a cubeful rollout, as GNU Backgammon's: the cube is played in every trial.
  Before each roll the player on roll doubles when the cube model (the same lines, on the 0-ply
  outputs of the position, :mod:`.kernel.cubemodel`) says so and the cube is theirs to turn
  (centred or owned, not the Crawford game, below ``max_cube``, and in a match not dead for
  them: GNU Backgammon's rule, a single game at the cube does not already win them the match);
  the opponent takes or drops by the same model (never beavers), a drop ends the trial's
  cubeful result at the cube's value, a take turns the cube (the Jacoby rule ends). A game
  played out counts single, gammon or backgammon times the cube (single under the Jacoby rule
  before the cube turned); a truncated trial takes the cube model's value of the position
  reached. The trial's value is money points per unit of the starting cube, or in a match the
  chance of winning the match after the game (the match equity table at the score). The plays
  stay cubeless, so the cubeless figures are exactly those of the cubeless rollout with the
  same seed (the trials play on after a drop for them). Luck is taken out cubefully as GNU
  Backgammon does: each turn's cubeful luck is the cube model's value of the 0-ply play of the
  roll less its average over the 21 rolls, with the cube as it is after that turn's cube
  action; its expectation is zero whatever the model, so the estimate stays unbiased. The
  result also says how often a trial doubled and how often a drop ended it.

In a match the cubeful equity is reported as the chance of winning the match and as gnubg's
normalised equity (EMG: winning a single game at the cube +1, losing one -1).

>>> from backgammon import Position
>>> result = rollout(Position.from_id("4HPwATDgc/ABMA"), trials=36, truncate=2, seed=1,
...                  workers=1)
>>> result.trials, -1.0 < result.equity < 1.0
(36, True)
"""

from __future__ import annotations

import math
import os
import secrets
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from tqdm import tqdm  # type: ignore[import-untyped]

from ..cube import CubeContext
from ..errors import BackgammonError
from ..position import Position
from .cube import cube_efficiency, match_decision, money_decision
from .kernel import Kernel
from .kernel.api import MAX_PLAY_PLIES
from .met import Scale
from .pools import cluster_cpus, worker_pool
from .probabilities import EQUITY_WEIGHTS, Probabilities
from .search import DEFAULT_FILTERS, MoveFilter

#: The plies a rollout's plays can be chosen at.
ROLLOUT_PLIES = tuple(range(MAX_PLAY_PLIES + 1))
_Z95 = 1.959963984540054
_EQUITY = np.array(EQUITY_WEIGHTS)


class RolloutError(BackgammonError):
    """A rollout that cannot be run as asked."""


@dataclass(frozen=True)
class RolloutResult:
    """What a rollout measured, for the player on roll before rolling.

    ``probabilities`` and ``equity`` are cubeless; ``cubeful_equity`` is the bot's cube
    model on the rolled-out chances, or with ``cubeful`` the rolled-out value of the trials
    with the cube played in them (see the module), per unit of the cube: money play's
    equity, or in a match the normalised equity (EMG) of ``match_winning_chance`` (None in
    money play); each has its standard error (``*_se``, the probabilities' in their order).
    ``doubled`` and ``dropped`` (cubeful rollouts only): the share of the trials with a
    double in them, and the share of the trials a drop ended.
    """

    position_id: str
    trials: int
    plies: int
    truncate: int
    seed: int
    luck: bool
    probabilities: Probabilities
    probabilities_se: tuple[float, float, float, float, float]
    equity: float
    equity_se: float
    cubeful_equity: float
    cubeful_se: float
    match_winning_chance: float | None = None
    match_winning_chance_se: float | None = None
    cubeful: bool = False
    doubled: float | None = None
    dropped: float | None = None

    def interval(self, value: float, se: float) -> tuple[float, float]:
        """The 95% confidence interval of ``value`` with standard error ``se``."""
        return (value - _Z95 * se, value + _Z95 * se)

    @property
    def equity_interval(self) -> tuple[float, float]:
        """The 95% confidence interval of the cubeless equity."""
        return self.interval(self.equity, self.equity_se)

    @property
    def cubeful_interval(self) -> tuple[float, float]:
        """The 95% confidence interval of the cubeful equity."""
        return self.interval(self.cubeful_equity, self.cubeful_se)

    @property
    def match_winning_interval(self) -> tuple[float, float] | None:
        """The 95% confidence interval of the chance of winning the match (None in money
        play)."""
        if self.match_winning_chance is None or self.match_winning_chance_se is None:
            return None
        return self.interval(self.match_winning_chance, self.match_winning_chance_se)

    def as_dict(self) -> dict[str, Any]:
        """Plain values, for JSON."""
        data = asdict(self)
        data["probabilities"] = dict(zip(_NAMES, self.probabilities.as_tuple(), strict=True))
        data["probabilities_se"] = dict(zip(_NAMES, self.probabilities_se, strict=True))
        data["equity_interval"] = self.equity_interval
        data["cubeful_interval"] = self.cubeful_interval
        data["match_winning_interval"] = self.match_winning_interval
        return data


_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


def rollout(
    position: Position,
    cube: CubeContext | None = None,
    trials: int = 1296,
    plies: int = 0,
    truncate: int = 0,
    seed: int | None = None,
    workers: int | None = None,
    luck: bool = True,
    progress: bool = False,
    kernel: Kernel | None = None,
    filters: Sequence[MoveFilter] = DEFAULT_FILTERS,
    ray: str | None = None,
    cubeful: bool = False,
) -> RolloutResult:
    """Roll ``position`` out (player on roll, before rolling) over ``trials`` trials.

    ``cube``: the cube (and the match score) for the cubeful equity (None: money play, cube
    centred at 1). ``cubeful``: play the cube in the trials (see the module). ``plies``: the
    depth of both sides' plays (0 to 2), with the move ``filters`` of the bot's search.
    ``truncate``: turns to play before the 0-ply value stands in (0: to the end). ``seed``: the
    dice (None: a random seed, reported in the result). ``workers``: processes (None: one a
    core; 1 runs in this process). ``luck``: variance reduction. ``progress``: a progress bar on
    standard error. ``kernel``: the networks (the shipped ones by default). ``ray``: run the
    workers on the Ray cluster at that address instead (:mod:`.pools`; ``workers`` None: one a
    CPU of the cluster); the result is the same as here with the same seed.
    """
    return rollouts(
        [position], cube, trials, plies, truncate, seed, workers, luck, progress, kernel,
        filters, ray, cubeful,
    )[0]


def rollouts(
    positions: Sequence[Position],
    cube: CubeContext | None = None,
    trials: int = 1296,
    plies: int = 0,
    truncate: int = 0,
    seed: int | None = None,
    workers: int | None = None,
    luck: bool = True,
    progress: bool = False,
    kernel: Kernel | None = None,
    filters: Sequence[MoveFilter] = DEFAULT_FILTERS,
    ray: str | None = None,
    cubeful: bool = False,
) -> list[RolloutResult]:
    """:func:`rollout` of each of ``positions`` (with the same cube), sharing one set of
    processes, as labelling many positions needs. Position ``i`` is rolled out with the
    seed ``seed + i * 0x9E3779B97F4A7C15`` (mod 2**63), reported in its result, so that
    :func:`rollout` with that seed gives the same result.
    """
    seed = _checked(positions, trials, plies, truncate, seed, filters)
    cube = cube or CubeContext()
    seeds = [(seed + index * _SEED_STEP) % 2**63 for index in range(len(positions))]
    kernel = kernel or Kernel.shipped()
    workers = workers or cluster_cpus(ray) or os.cpu_count() or 1
    play = _Play(plies, tuple(filters), truncate, luck, cube if cubeful else None)
    values = _run(kernel, positions, seeds, trials, play, workers, progress, ray)
    return [
        _summary(position, cube, rows, trials, plies, truncate, position_seed, luck, cubeful)
        for position, rows, position_seed in zip(positions, values, seeds, strict=True)
    ]


def _checked(
    positions: Sequence[Position], trials: int, plies: int, truncate: int, seed: int | None,
    filters: Sequence[MoveFilter],
) -> int:
    """The seed (a random one for None), once the arguments are found fit for a rollout;
    RolloutError with a sentence otherwise."""
    if plies not in ROLLOUT_PLIES:
        raise RolloutError(
            f"Rollouts choose their plays at 0 to {ROLLOUT_PLIES[-1]} plies; got {plies}."
        )
    if plies > 0 and not filters:
        raise RolloutError(
            "A rollout deeper than 0-ply needs move filters (the bot's search's, by default)."
        )
    if trials < 2:
        raise RolloutError(f"A rollout needs at least 2 trials for an error bar; got {trials}.")
    if truncate < 0:
        raise RolloutError(f"Truncation is a number of turns, 0 or more; got {truncate}.")
    for index, position in enumerate(positions):
        if position.is_game_over():
            raise RolloutError(
                f"The game is over in position {index} ({position.id()}): there is nothing "
                "to roll out."
            )
    seed = secrets.randbits(62) if seed is None else seed
    if not 0 <= seed < 2**63:
        raise RolloutError(f"A seed is a whole number from 0 to 2**63 - 1; got {seed}.")
    return seed


class RolloutRun:
    """A rollout of one position run piece by piece in the calling thread, for a caller that
    reports its progress, shows the result so far and may stop between pieces (the server's
    rollouts). The trials are those of :func:`rollout` with the same arguments and seed, so
    the finished result is the same whatever the pieces.

    >>> from backgammon import Position
    >>> run = RolloutRun(Position.from_id("4HPwATDgc/ABMA"), trials=72, truncate=2, seed=1)
    >>> run.result() is None, run.step(36), run.done, run.finished
    (True, 36, 36, False)
    >>> run.step(100), run.finished, run.result() == rollout(
    ...     Position.from_id("4HPwATDgc/ABMA"), trials=72, truncate=2, seed=1, workers=1)
    (36, True, True)
    """

    def __init__(
        self,
        position: Position,
        cube: CubeContext | None = None,
        trials: int = 1296,
        plies: int = 0,
        truncate: int = 0,
        seed: int | None = None,
        luck: bool = True,
        kernel: Kernel | None = None,
        filters: Sequence[MoveFilter] = DEFAULT_FILTERS,
        cubeful: bool = False,
    ) -> None:
        self.seed = _checked([position], trials, plies, truncate, seed, filters)
        self.position, self.cube, self.trials = position, cube or CubeContext(), trials
        self.plies, self.truncate = plies, truncate
        self._kernel = kernel or Kernel.shipped()
        self._play = _Play(plies, tuple(filters), truncate, luck,
                           self.cube if cubeful else None)
        #: Whether the cube is played in the trials.
        self.cubeful = cubeful
        self._values = np.zeros((trials, self._play.columns))
        #: The trials run so far.
        self.done = 0

    @property
    def finished(self) -> bool:
        """Whether every trial has been run."""
        return self.done >= self.trials

    def step(self, count: int) -> int:
        """Run the next ``count`` trials (fewer where fewer are left); how many were run."""
        count = max(0, min(count, self.trials - self.done))
        if count:
            self._values[self.done : self.done + count] = _trials(
                self._kernel, self.position, self.done, count, self.seed, self._play,
                self.trials % 36 == 0,
            )
            self.done += count
        return count

    def result(self) -> RolloutResult | None:
        """What the trials run so far measured (None before two: no error bar yet)."""
        if self.done < 2:
            return None
        play = self._play
        return _summary(
            self.position, self.cube, self._values[: self.done], self.done, play.plies,
            play.truncate, self.seed, play.luck, play.cube is not None,
        )


# The seeds of successive positions: splitmix64's step, so that neighbours are far apart.
_SEED_STEP = 0x9E3779B97F4A7C15


def _chunks(trials: int, positions: int, workers: int, plies: int) -> list[tuple[int, int]]:
    """(first, count) of the pieces of each position's trials: about eight pieces a worker in
    all (so that the progress bar moves and the workers finish together), in whole blocks of
    36 at 0-ply; deeper trials are slow enough to go one at a time when they must (a 2-ply
    trial takes seconds)."""
    block = 36 if plies == 0 else 1
    size = max(block, math.ceil(trials * positions / (8 * workers) / block) * block)
    return [(first, min(size, trials - first)) for first in range(0, trials, size)]


_KERNEL: Kernel | None = None


def _set_kernel(kernel: Kernel) -> None:
    global _KERNEL
    _KERNEL = kernel


@dataclass(frozen=True)
class _Play:
    """How every trial is played: the plies and filters of the plays, the truncation,
    whether luck is measured, and the cube played in the trials (None: cubeless trials)."""

    plies: int
    filters: tuple[MoveFilter, ...]
    truncate: int
    luck: bool
    cube: CubeContext | None = None

    @property
    def columns(self) -> int:
        """The figures kept of each trial (:func:`_trials`)."""
        return 5 if self.cube is None else 5 + _CUBE_COLUMNS


# A cubeful trial's figures beyond its five outputs: its luck-adjusted cubeful value, the
# doubles made in it, 1 if a drop ended it.
_CUBE_COLUMNS = 3


def _trials(
    kernel: Kernel, position: Position, first: int, count: int, seed: int, play: _Play,
    stratify: bool,
) -> NDArray[np.float64]:
    """Trials ``first ..`` of a rollout: each one's luck-adjusted outputs, then (cubeful) its
    luck-adjusted cubeful value, its doubles and whether a drop ended it."""
    if play.cube is None:
        results, lucks = kernel.rollout_trials(
            position, first, count, seed, play.truncate, play.luck, stratify, play.plies,
            play.filters,
        )
        return results - lucks
    results, lucks, cube = kernel.cubeful_trials(
        position, play.cube, first, count, seed, play.truncate, play.luck, stratify,
        play.plies, play.filters,
    )
    return np.column_stack((results - lucks, cube[:, 0] - cube[:, 1], cube[:, 2:]))


_Task = tuple[int, Position, int, int, int, _Play, bool]


def _piece(task: _Task) -> tuple[int, int, NDArray[np.float64]]:
    index, position, first, count, seed, play, stratify = task
    assert _KERNEL is not None
    return index, first, _trials(_KERNEL, position, first, count, seed, play, stratify)


def _run(
    kernel: Kernel, positions: Sequence[Position], seeds: list[int], trials: int,
    play: _Play, workers: int, progress: bool, ray: str | None,
) -> NDArray[np.float64]:
    """Every trial's figures (:func:`_trials`), in trial order: ``(positions, trials,
    columns)``."""
    chunks = _chunks(trials, len(positions), workers, play.plies)
    stratify = trials % 36 == 0
    tasks: list[_Task] = [
        (index, position, first, count, position_seed, play, stratify)
        for index, (position, position_seed) in enumerate(zip(positions, seeds, strict=True))
        for first, count in chunks
    ]
    values = np.zeros((len(positions), trials, play.columns))
    bar = tqdm(total=trials * len(positions), unit="trial", disable=not progress,
               desc="rollout")
    if ray is None and (workers == 1 or len(tasks) == 1):
        _set_kernel(kernel)
        for index, first, piece in map(_piece, tasks):
            values[index, first : first + len(piece)] = piece
            bar.update(len(piece))
    else:
        # Forked workers inherit the compiled kernel and the weights; elsewhere (no fork, a
        # cluster) the kernel travels to each worker, which loads the kernel from its cache.
        with worker_pool(min(workers, len(tasks)), _set_kernel, (kernel,), ray) as pool:
            for index, first, piece in pool.imap_unordered(_piece, tasks):
                values[index, first : first + len(piece)] = piece
                bar.update(len(piece))
    bar.close()
    return values


def _summary(
    position: Position, cube: CubeContext, values: NDArray[np.float64], trials: int,
    plies: int, truncate: int, seed: int, luck: bool, played: bool = False,
) -> RolloutResult:
    """The result of the trials' figures ``values`` (:func:`_trials`; ``played``: the cube was
    played in them)."""
    outputs = values[:, :5]
    mean = outputs.mean(axis=0)
    covariance = np.cov(outputs, rowvar=False) / trials
    se = np.sqrt(np.diag(covariance))
    equities = outputs @ _EQUITY - 1.0
    equity_se = float(equities.std(ddof=1) / math.sqrt(trials))
    doubled = dropped = None
    if played:
        cubeful = float(values[:, 5].mean())
        cubeful_se = float(values[:, 5].std(ddof=1) / math.sqrt(trials))
        doubled = float((values[:, 6] > 0).mean())
        dropped = float(values[:, 7].mean())
    else:
        cubeful, cubeful_se = _with_se(lambda m: _cubeful(m, position, cube), mean, covariance)
    chance = chance_se = None
    if cube.match is not None:
        # The normalised equity (EMG): a single game won at this cube is +1, one lost -1.
        scale = Scale.of(cube)
        chance, chance_se = cubeful, cubeful_se
        cubeful = scale.emg(chance)
        cubeful_se = chance_se / scale.unit
    return RolloutResult(
        position.id(),
        trials,
        plies,
        truncate,
        seed,
        luck,
        Probabilities.from_values(mean),
        (float(se[0]), float(se[1]), float(se[2]), float(se[3]), float(se[4])),
        float(mean @ _EQUITY - 1.0),
        equity_se,
        cubeful,
        cubeful_se,
        chance,
        chance_se,
        played,
        doubled,
        dropped,
    )


def _with_se(
    figure: Callable[[NDArray[np.float64]], float], mean: NDArray[np.float64],
    covariance: NDArray[np.float64],
) -> tuple[float, float]:
    """``figure`` of the mean outputs and its standard error, by the delta method (the
    gradient by central differences)."""
    gradient = np.zeros(5)
    step = 1e-5
    for k in range(5):
        shift = np.zeros(5)
        shift[k] = step
        gradient[k] = (figure(mean + shift) - figure(mean - shift)) / (2 * step)
    return figure(mean), math.sqrt(max(float(gradient @ covariance @ gradient), 0.0))


def _cubeful(mean: NDArray[np.float64], position: Position, cube: CubeContext) -> float:
    """The value of the right cube action for the rolled-out probabilities: money equity per
    unit of the cube, or the chance of winning the match."""
    p = Probabilities.from_values(np.clip(mean, 0.0, 1.0))
    if cube.money:
        return money_decision(p, cube_efficiency(position), cube).best
    return match_decision(p, cube_efficiency(position), cube).best
