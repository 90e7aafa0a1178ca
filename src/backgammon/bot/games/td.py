"""A first learned player of the other games: a small network per game trained by TD(λ)
self-play through the rules objects (numpy only).

The network reads a board from the player on roll (:func:`encode`: each side's checkers on
each point, counted in the mover's numbers, truncated unary as Tesauro's; the bar or those
waiting to enter, those borne off, the pinned checkers) and answers one number in (-1, 1):
the points the player on roll can expect, over the game's largest score. The player makes
the play whose resulting board is worst for the opponent (:class:`TDPlayer`).

Training (:func:`train`) is TD(λ) over self-play: every board is valued from one fixed
player's view, so that a turn's two sides and Acey-deucey's throws again need no sign
juggling; the last target is the game's real score. This is where a game's computer starts
(issue 38, item 4); the kernel work that would make it fast is in docs/lab/game-baselines.md.

>>> from backgammon.games import rules_for
>>> rules = rules_for("fevga")
>>> net = Network.fresh(hidden=8, seed=1)
>>> train(rules, net, 1, seed=1) > 50
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ...games import Board, GamePlay, GameRules, Stage, Travel
from ...position import BAR, OFF
from .match import MOST_TURNS, DiceStream

Array = NDArray[np.float64]

#: Inputs per side: four a point (truncated unary), bar, off, 24 pinned bits.
PER_SIDE = 24 * 4 + 2 + 24
INPUTS = 2 * PER_SIDE
#: A point's four inputs by its count.
_UNARY = np.array([[n >= 1, n >= 2, n >= 3, max(n - 3, 0) / 2] for n in range(16)])
#: The opponent's numbers of the mover's points 1..24, by travel.
_ORDER = {travel.value: np.array([travel.their_point(p) for p in range(1, 25)])
          for travel in Travel}
_BITS = np.arange(1, 25)


def encode(rules: GameRules, boards: Sequence[Board]) -> Array:
    """The network's inputs for each board (rows), from the player on roll.

    >>> from backgammon.games import rules_for
    >>> encode(rules_for("plakoto"), [rules_for("plakoto").initial()]).shape
    (1, 244)
    """
    count = len(boards)
    mine = np.frombuffer(b"".join(b.mine for b in boards), dtype=np.uint8).reshape(count, 26)
    theirs = np.frombuffer(b"".join(b.theirs for b in boards),
                           dtype=np.uint8).reshape(count, 26)
    order = _ORDER[rules.travel.value]
    out = np.zeros((count, 2, PER_SIDE))
    # The opponent's checkers on the mover's points 1..24, so that a point is one column.
    for side, (counts, points) in enumerate(((mine, mine[:, 1:25]), (theirs, theirs[:, order]))):
        out[:, side, :96] = _UNARY[points].transpose(0, 2, 1).reshape(count, 96)
        out[:, side, 96] = counts[:, BAR] / 15
        out[:, side, 97] = counts[:, OFF] / 15
    if any(b.mine_pinned or b.theirs_pinned for b in boards):
        pins = np.array([[b.mine_pinned, b.theirs_pinned] for b in boards], dtype=np.int64)
        out[:, 0, 98:] = pins[:, :1] >> _BITS & 1
        out[:, 1, 98:] = pins[:, 1:] >> order & 1
    return out.reshape(count, INPUTS)


class Network:
    """One hidden sigmoid layer and a tanh output: the expected points of the player on
    roll over the game's largest score."""

    def __init__(self, hidden_weights: Array, hidden_bias: Array, output_weights: Array,
                 output_bias: float) -> None:
        self.w1, self.b1, self.w2, self.b2 = hidden_weights, hidden_bias, output_weights, \
            output_bias

    @classmethod
    def fresh(cls, hidden: int = 40, seed: int = 0) -> Network:
        """Small random weights."""
        rng = np.random.default_rng(seed)
        return cls(rng.normal(0, 0.1, (INPUTS, hidden)), np.zeros(hidden),
                   rng.normal(0, 0.1, hidden), 0.0)

    def values(self, inputs: Array) -> Array:
        """The value of each row of inputs."""
        hidden = 1 / (1 + np.exp(-(inputs @ self.w1 + self.b1)))
        return np.asarray(np.tanh(hidden @ self.w2 + self.b2))

    def value_and_gradient(self, x: Array) -> tuple[float, list[Array]]:
        """The value of one input row and its gradient, as (w1, b1, w2, b2) arrays."""
        hidden = 1 / (1 + np.exp(-(x @ self.w1 + self.b1)))
        value = float(np.tanh(hidden @ self.w2 + self.b2))
        d_out = 1 - value * value
        d_hidden = d_out * self.w2 * hidden * (1 - hidden)
        return value, [np.outer(x, d_hidden), d_hidden, d_out * hidden,
                       np.array(d_out)]

    def parameters(self) -> list[Array]:
        return [self.w1, self.b1, self.w2, np.array(self.b2)]

    def add(self, steps: list[Array]) -> None:
        """Move the weights by ``steps`` (arrays shaped as :meth:`parameters`)."""
        self.w1 += steps[0]
        self.b1 += steps[1]
        self.w2 += steps[2]
        self.b2 += float(steps[3])

    def save(self, path: Path) -> None:
        np.savez(path, w1=self.w1, b1=self.b1, w2=self.w2, b2=np.array(self.b2))

    @classmethod
    def load(cls, path: Path) -> Network:
        data = np.load(path)
        return cls(data["w1"], data["b1"], data["w2"], float(data["b2"]))


class TDPlayer:
    """The play whose resulting board the network values lowest for the opponent (a play
    that ends the game scores its points); after a 1-2, the double with the best such play."""

    def __init__(self, network: Network, name: str = "td") -> None:
        self.network = network
        self.name = name

    def _scores(self, rules: GameRules, plays: Sequence[GamePlay]) -> Array:
        top = max(rules.points.values())
        scores = -self.network.values(encode(rules, [p.result for p in plays]))
        for index, play in enumerate(plays):
            result = rules.outcome(play.result)
            if result is not None:
                # The board is the opponent's to play: the mover won unless they lost.
                won = result.winner is not None and result.winner.value != "on roll"
                scores[index] = (result.points if won else -result.points) / top * 2
        return scores

    def choose(self, rules: GameRules, plays: Sequence[GamePlay],
               rng: random.Random) -> GamePlay:
        return plays[int(np.argmax(self._scores(rules, plays)))]

    def name_double(self, rules: GameRules, board: Board, rng: random.Random) -> int:
        best, best_score = 6, -np.inf
        for die in range(1, 7):
            plays = rules.legal_plays(board, (die, die))
            if plays:
                top = float(self._scores(rules, plays).max())
                if top > best_score:
                    best, best_score = die, top
        return best


def train(rules: GameRules, network: Network, games: int, *, alpha: float = 0.1,
          lam: float = 0.7, seed: int = 0) -> int:
    """Train ``network`` by TD(λ) over ``games`` games of self-play; the turns played.

    Every board is valued from player 0's view (``v`` negated when player 1 is on roll);
    each step moves the weights by ``alpha`` × the difference between the next board's
    value (the game's score at the end) and this one's, along the trace of gradients.
    """
    player = TDPlayer(network)
    rng = random.Random(seed)
    turns = 0
    for game in range(games):
        traces = [np.zeros_like(p) for p in network.parameters()]
        boards = _self_play(rules, player, DiceStream(f"td:{rules.name}:{seed}:{game}"), rng)
        value, gradient = _viewed(network, rules, *next(boards))  # type: ignore[misc]
        for step in boards:
            turns += 1
            if isinstance(step, float):
                target = step
            else:
                target, next_gradient = _viewed(network, rules, *step)
            for trace, grad in zip(traces, gradient, strict=True):
                trace *= lam
                trace += grad
            delta = alpha * (target - value)
            network.add([delta * trace for trace in traces])
            if not isinstance(step, float):
                value, gradient = target, next_gradient
    return turns


def _self_play(rules: GameRules, player: TDPlayer, dice: DiceStream,
               rng: random.Random) -> Iterator[tuple[Board, int] | float]:
    """One game of ``player`` against itself: each board where a player is to throw, with
    who is on roll (0 or 1), then the game's score for player 0 over the largest score."""
    board, on_roll = rules.initial(), 0
    yield board, on_roll
    throw, stage = dice.opening(rules.opening_reroll), Stage.THROW
    for _ in range(MOST_TURNS * 4):
        plays = rules.legal_plays(board, throw)
        again = None
        if plays:
            play = player.choose(rules, plays, rng)
            board = play.result
            ended = rules.outcome(board)
            if ended is not None:
                if ended.winner is None:
                    yield 0.0
                    return
                mover_won = ended.winner.value != "on roll"  # the board is the opponent's
                mine = ended.points if mover_won == (on_roll == 0) else -ended.points
                yield mine / max(rules.points.values())
                return
            again = rules.next_stage(play, throw, stage)
        else:
            board = board.flip()
        if again is None:
            on_roll, stage, throw = 1 - on_roll, Stage.THROW, dice.throw()
        else:
            board, stage = board.flip(), again  # the same player goes on
            if again is Stage.NAMED_DOUBLE:
                die = player.name_double(rules, board, rng)
                throw = (die, die)
            else:
                throw = dice.throw()
        yield board, on_roll
    raise RuntimeError(f"{rules.name}: a training game did not end.")


def _viewed(network: Network, rules: GameRules, board: Board,
            on_roll: int) -> tuple[float, list[Array]]:
    """The value of ``board`` for player 0 and its gradient (``on_roll`` is on roll)."""
    value, gradient = network.value_and_gradient(encode(rules, [board])[0])
    if on_roll:
        return -value, [-g for g in gradient]
    return value, gradient
