"""The kernel's Python face: positions in, arrays out, the compiled functions underneath.

>>> from backgammon import Position
>>> len(legal_results(Position.initial(), (6, 5)))      # as Position.legal_plays: 7 plays
7
>>> kernel = Kernel.shipped()
>>> kernel.evaluate(boards_of([Position.initial()])).shape
(1, 5)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from ...cube import CubeContext, CubeOwner
from ...dice import check_dice
from ...errors import BackgammonError
from ...position import Position
from ..bearoff import BearoffEvaluator, BearoffTable
from ..contact_inputs import Encoder, contact_encoder
from ..encoding import RACE_INPUTS, Board, Inputs
from ..evaluator import Evaluator, NetworkEvaluator
from ..network import Network
from . import cubemodel as _cubemodel
from . import deep as _deep
from . import evaluate as _evaluate
from . import games as _games
from . import movegen as _movegen
from . import rollouts as _rollouts

#: The deepest search of :meth:`Kernel.values`.
MAX_PLIES = 3
#: The deepest play of :meth:`Kernel.best_results` and :meth:`Kernel.rollout_trials`.
MAX_PLAY_PLIES = 2

#: Boards: ``(n, 2, 26)`` int8, each the two sides of a Position (player on roll first).
Boards = NDArray[np.int8]


def board_of(position: Position) -> Boards:
    """The ``(2, 26)`` int8 board of a position."""
    board: Boards = boards_of([position])[0]
    return board


def boards_of(positions: Sequence[Position]) -> Boards:
    """The ``(n, 2, 26)`` boards of positions."""
    counts = b"".join([p.mine_bytes + p.theirs_bytes for p in positions])
    return np.frombuffer(counts, dtype=np.int8).reshape(-1, 2, 26).copy()


def position_of(board: NDArray[np.integer]) -> Position:
    """The Position of a ``(2, 26)`` board (checked as any Position is)."""
    return Position([int(c) for c in board[0]], [int(c) for c in board[1]])


@functools.cache
def _workspace() -> _movegen.Workspace:
    return _movegen.workspace()


def legal_results(position: Position, dice: Iterable[int]) -> Boards:
    """The distinct results of ``dice`` from ``position``, as the results of
    ``position.legal_plays(dice)`` (the opponent on roll): ``(n, 2, 26)``, n = 0 when no
    checker can move."""
    high, low = check_dice(dice)
    workspace = _workspace()
    count = _movegen.generate(workspace, board_of(position), high, low)
    results: Boards = workspace[0][:count].copy()
    return results


def legal_results_batch(
    boards: Boards, dice: NDArray[np.integer]
) -> tuple[Boards, NDArray[np.int64]]:
    """The results of each board with its roll ``(n, 2)``: all of them ``(total, 2, 26)``
    and the offsets ``(n + 1,)`` of each board's results."""
    return _movegen.generate_batch(
        np.ascontiguousarray(boards, dtype=np.int8), np.ascontiguousarray(dice, dtype=np.int64)
    )


class MoveWindow(Protocol):
    """A filter of the plays that go on to the next ply (as
    :class:`~backgammon.bot.search.MoveFilter`): at most ``keep`` within ``threshold`` of the
    best."""

    @property
    def keep(self) -> int: ...

    @property
    def threshold(self) -> float: ...


class KernelError(BackgammonError):
    """What the kernel cannot do: an evaluator other than the networks, a seed out of range."""


@dataclass(frozen=True)
class SelfPlayResult:
    """Games of :meth:`Kernel.selfplay`: the points each won for the side that moved first,
    and the turns each lasted."""

    points: NDArray[np.int64]
    turns: NDArray[np.int64]


class Kernel:
    """A contact and a race network (a crashed network and a bearoff table where given)
    compiled together for batches, 0-ply choices, self-play and rollout trials."""

    def __init__(self, contact: Network, race: Network, table: BearoffTable | None = None,
                 crashed: Network | None = None) -> None:
        if table is None:
            off = off_tail = first_tail = np.zeros((0, 1), dtype=np.float32)
        else:
            off, off_tail, first_tail = table.off, table.off_tail, table.first_tail
        self.nets: _evaluate.Nets = (
            contact.w1, contact.b1, contact.w2, contact.b2,
            race.w1, race.b1, race.w2, race.b2,
            off, off_tail, first_tail,
            *_crashed_arrays(crashed),
        )

    @classmethod
    def shipped(cls) -> Kernel:
        """The shipped networks and bearoff table (as :func:`shipped_evaluator`)."""
        return _shipped_kernel()

    @classmethod
    def from_evaluator(cls, evaluator: Evaluator) -> Kernel:
        """The kernel of an evaluator made of the networks (with or without the bearoff
        table); :class:`KernelError` for any other."""
        table = None
        base = evaluator
        if isinstance(evaluator, BearoffEvaluator):
            table, base = evaluator.table, evaluator.base
        if not isinstance(base, NetworkEvaluator):
            raise KernelError(
                "The compiled kernel runs a NetworkEvaluator's networks (contact, race and "
                f"crashed) only; this evaluator is a {type(base).__name__}."
            )
        return base.kernel(table)

    def evaluate(self, boards: Boards) -> NDArray[np.float32]:
        """The 0-ply outputs ``(n, 5)`` of boards, as the shipped evaluator gives them."""
        return _evaluate.evaluate_batch(
            np.ascontiguousarray(boards, dtype=np.int8), self.nets
        )

    def values(self, boards: Boards, plies: int) -> NDArray[np.float32]:
        """The outputs ``(n, 5)`` of boards at ``plies`` (0 to :data:`MAX_PLIES`), as
        :meth:`~backgammon.bot.search.Search.values` defines them (see :mod:`.deep`).

        >>> Kernel.shipped().values(boards_of([Position.initial()]), 1).shape
        (1, 5)
        """
        if not 0 <= plies <= MAX_PLIES:
            raise KernelError(f"The kernel searches 0 to {MAX_PLIES} plies; got {plies}.")
        return _deep.values_batch(np.ascontiguousarray(boards, dtype=np.int8), plies, self.nets)

    def best_results(
        self, boards: Boards, dice: NDArray[np.integer], plies: int = 0,
        filters: Sequence[MoveWindow] = (),
    ) -> Boards:
        """The result of the play at ``plies`` (0 to :data:`MAX_PLAY_PLIES`) of each board with
        its roll ``(n, 2)`` (the board turned round when the roll cannot be played): the
        cubeless choice of a Bot of that depth with ``filters`` (see :mod:`.deep`).

        >>> from backgammon.bot.search import DEFAULT_FILTERS
        >>> board = boards_of([Position.initial()])
        >>> after = Kernel.shipped().best_results(board, np.array([[3, 1]]), 1, DEFAULT_FILTERS)
        >>> position_of(after[0]) == Position.initial().parse_play("8/5 6/5", (3, 1)).result
        True
        """
        boards = np.ascontiguousarray(boards, dtype=np.int8)
        dice = np.ascontiguousarray(dice, dtype=np.int64)
        if plies == 0:
            return _games.best_batch(boards, dice, self.nets)
        keep, threshold = _windows(plies, filters)
        return _deep.best_batch_deep(boards, dice, plies, keep, threshold, self.nets)

    def selfplay(
        self, games: int, seed: int, start: Position | None = None, first: int = 0
    ) -> SelfPlayResult:
        """Games ``first ..`` of a cubeless 0-ply self-play run seeded by ``seed`` (from the
        standard start unless ``start`` is given)."""
        _check_seed(seed)
        board = board_of(start or Position.initial())
        points, turns = _games.selfplay(board, games, seed, first, self.nets)
        return SelfPlayResult(points, turns)

    def rollout_trials(
        self, position: Position, first: int, trials: int, seed: int, truncate: int = 0,
        luck: bool = True, stratify: bool = True, plies: int = 0,
        filters: Sequence[MoveWindow] = (),
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Trials ``first .. first + trials - 1`` of a rollout of ``position``: each trial's
        outputs for its player on roll, and the sum of each trial's lucks (zeros without
        ``luck``); ``stratify``: quasi-random first two rolls; ``plies`` and ``filters``: the
        play of both sides, as :meth:`best_results`'. See :mod:`.rollouts`."""
        results, lucks, _ = self._trials(
            position, first, trials, seed, truncate, luck, stratify, plies, filters,
            np.zeros(0, dtype=np.int64),
        )
        return results, lucks

    def cubeful_trials(
        self, position: Position, cube: CubeContext, first: int, trials: int, seed: int,
        truncate: int = 0, luck: bool = True, stratify: bool = True, plies: int = 0,
        filters: Sequence[MoveWindow] = (),
    ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        """:meth:`rollout_trials` with the cube played in the trials (``cube``: as the player
        on roll sees it), and each trial's cubeful figures beside: ``(trials, 4)``, its value
        (money: points per unit of the cube; match: the chance of winning the match), its
        cubeful luck (zero without ``luck``), the doubles made, 1 if a drop ended it. The
        cubeless outputs are those of :meth:`rollout_trials` (the plays are cubeless). See
        :mod:`.rollouts`."""
        return self._trials(
            position, first, trials, seed, truncate, luck, stratify, plies, filters,
            cube_array(cube),
        )

    def _trials(
        self, position: Position, first: int, trials: int, seed: int, truncate: int,
        luck: bool, stratify: bool, plies: int, filters: Sequence[MoveWindow],
        cube: NDArray[np.int64],
    ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        _check_seed(seed)
        keep, threshold = _windows(plies, filters)
        pre, post = _met()
        return _rollouts.rollout_trials(
            board_of(position), first, trials, seed, truncate, luck, stratify, plies, keep,
            threshold, self.nets, cube, pre, post,
        )


def cube_array(cube: CubeContext) -> NDArray[np.int64]:
    """The cube as the kernel's trials take it (:data:`.rollouts.CUBE_FIELDS`).

    >>> from backgammon.cube import MatchScore
    >>> cube_array(CubeContext(value=2, match=MatchScore(5, (3, 1)))).tolist()
    [2, 0, 0, 0, 1, 2, 4, 0]
    """
    owner = {CubeOwner.CENTRE: _cubemodel.CENTRE, CubeOwner.ON_ROLL: _cubemodel.ON_ROLL,
             CubeOwner.OPPONENT: _cubemodel.OPPONENT}[cube.owner]
    match = cube.match
    return np.array([
        cube.value, owner, int(cube.jacoby), cube.max_cube or 0, int(match is not None),
        0 if match is None else match.away, 0 if match is None else match.opponent_away,
        int(match is not None and match.crawford),
    ], dtype=np.int64)


@functools.cache
def _met() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    return _cubemodel.met_arrays()


def encoder(inputs: int) -> Encoder:
    """The compiled encoding of a network taking ``inputs`` inputs: the race network's, or a
    contact encoding's. It takes count arrays as the numpy encoders do (the readable reference,
    :func:`~backgammon.bot.contact_inputs.contact_encoder` and
    :func:`~backgammon.bot.encoding.encode_race`) and gives the same numbers bit for bit.

    >>> from backgammon.bot.encoding import RACE_INPUTS, boards
    >>> encoder(RACE_INPUTS)(*boards([Position.initial()])).shape
    (1, 226)
    """
    race = inputs == RACE_INPUTS
    if not race:
        contact_encoder(inputs)  # an EncodingError, with a sentence, for a width none has

    def encode(mine: Board, theirs: Board) -> Inputs:
        boards = np.ascontiguousarray(np.stack((mine, theirs), axis=1), dtype=np.int8)
        encoded: Inputs = _evaluate.encode_batch(boards, race, inputs)
        return encoded

    return encode


def _windows(
    plies: int, filters: Sequence[MoveWindow]
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """The filters as the kernel takes them (one that keeps a single play at 0-ply, where
    none is used)."""
    if not 0 <= plies <= MAX_PLAY_PLIES:
        raise KernelError(f"The kernel plays at 0 to {MAX_PLAY_PLIES} plies; got {plies}.")
    if plies > 0 and not filters:
        raise KernelError(
            f"A play at {plies} plies needs the filters of the plays that go on to each ply "
            "(the bot's are search.DEFAULT_FILTERS)."
        )
    windows = [(max(w.keep, 1), w.threshold) for w in filters] or [(1, 0.0)]
    keep = np.array([k for k, _ in windows], dtype=np.int64)
    return keep, np.array([t for _, t in windows], dtype=np.float64)


def _crashed_arrays(
    crashed: Network | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The crashed network's weights for the kernel; empty ones (of the same types, so that
    numba compiles one version) where there is none."""
    if crashed is None:
        empty = np.zeros((0, 0), dtype=np.float32)
        return empty, np.zeros(0, dtype=np.float32), empty, np.zeros(0, dtype=np.float32)
    return crashed.w1, crashed.b1, crashed.w2, crashed.b2


def _check_seed(seed: int) -> None:
    if not 0 <= seed < 2**63:
        raise KernelError(f"A seed is a whole number from 0 to 2**63 - 1; got {seed}.")


@functools.cache
def _shipped_kernel() -> Kernel:
    from ..bearoff import shipped_table
    from ..shipped import load_shipped_networks

    networks = load_shipped_networks()
    return Kernel(networks.contact, networks.race, shipped_table(), networks.crashed)
