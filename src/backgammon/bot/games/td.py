"""The learned player of the other games: a small network per game trained by TD(λ)
self-play in the compiled kernel (:mod:`backgammon.bot.kernel.players`).

The network reads a board from the player on roll (:func:`encode`: each side's checkers on
each point, counted in the mover's numbers, truncated unary as Tesauro's; the bar or those
waiting to enter, those borne off, the pinned checkers) and answers one number in (-1, 1):
the points the player on roll can expect, over the game's largest score. The player makes
the play whose resulting board is worst for the opponent (:class:`TDPlayer`).

Training (:func:`train`) is TD(λ) over self-play: every board is valued from one fixed
player's view, so that a turn's two sides and Acey-deucey's throws again need no sign
juggling; the last target is the game's real score. It runs in the kernel, whose encoding
and values are held equal to :func:`encode` and :meth:`Network.values` here
(tests/bot/test_games_kernel.py); this module's numpy forward pass is what a game's
computer plays with (:class:`TDPlayer`). Figures: docs/lab/game-baselines.md.

>>> from backgammon.games import rules_for
>>> rules = rules_for("fevga")
>>> net = Network.fresh(hidden=8, seed=1)
>>> train(rules, net, 1, seed=1) > 50
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np
from numpy.typing import NDArray

from ...games import Board, GamePlay, GameRules, Travel
from ...position import BAR, OFF

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

    def save(self, path: Path | IO[bytes]) -> None:
        """The weights as float32, compressed (about 35 kB for 40 hidden units): what the
        package ships (``bot/weights/games-*.npz``)."""
        np.savez_compressed(path, w1=self.w1.astype(np.float32),
                            b1=self.b1.astype(np.float32), w2=self.w2.astype(np.float32),
                            b2=np.array(self.b2, dtype=np.float32))

    @classmethod
    def load(cls, path: Path | IO[bytes]) -> Network:
        """A network :meth:`save` wrote (its weights as float64)."""
        with np.load(path) as data:
            return cls(data["w1"].astype(np.float64), data["b1"].astype(np.float64),
                       data["w2"].astype(np.float64), float(data["b2"]))


#: The most plays searched one ply ahead a decision: the best by the network alone (the
#: kernel's ``WIDTH``).
WIDTH = 8


def reply_values(rules: GameRules, network: Network, boards: Sequence[Board]) -> Array:
    """The value of each board for its player on roll one ply ahead, over the game's largest
    score: the mean over the 21 rolls of their best play's value by the network (the
    kernel's ``reply_value``; an Acey-deucey 1-2 valued by its own play).

    >>> from backgammon.games import rules_for
    >>> rules = rules_for("fevga")
    >>> value = reply_values(rules, Network.fresh(hidden=4), [rules.initial()])
    >>> value.shape, bool(-1 < value[0] < 1)
    ((1,), True)
    """
    from ..kernel import boards as kernel_boards
    from ..kernel import duels

    return np.asarray(duels.lookahead_values(
        kernel_boards.game_code(rules.name), kernel_boards.boards_array(boards), network.w1,
        network.b1, network.w2, np.array([network.b2])))


def _values(rules: GameRules, network: Network,
            plays: Sequence[GamePlay]) -> tuple[Array, Array]:
    """Each play's value for its maker by the network (the board it leaves valued for the
    opponent, negated; a play that ends the game: its points), over the game's largest
    score, and 1 where the play ends the game (else 0)."""
    top = max(rules.points.values())
    values = -network.values(encode(rules, [p.result for p in plays]))
    ends = np.zeros(len(plays))
    for index, play in enumerate(plays):
        result = rules.outcome(play.result)
        if result is not None:
            # The board is the opponent's to play: the mover won unless they lost.
            won = result.winner is not None and result.winner.value != "on roll"
            values[index] = (result.points if won else -result.points) / top
            ends[index] = 1
    return values, ends


@dataclass(frozen=True)
class Ranked:
    """One play of a ranking (:func:`rank`): its index in the plays, its value for the
    player who makes it over the game's largest score (a play that ends the game: its real
    points), and the depth it was valued at."""

    index: int
    value: float
    plies: int


def rank(rules: GameRules, network: Network, plays: Sequence[GamePlay],
         plies: int = 0) -> list[Ranked]:
    """``plays`` (all from one board and dice) best first for the player who makes them:
    by the network's value of the board each leaves (a play that ends the game first by its
    points); with ``plies`` 1, the :data:`WIDTH` best of those valued again one ply ahead
    (:func:`reply_values`) and ranked first, the others after them by their own value.
    Equal values keep the plays' order. (After an Acey-deucey 1-2 the same player goes on:
    every play of the 1-2 is valued alike, as the board left to the opponent.)

    >>> from backgammon.games import rules_for
    >>> rules = rules_for("portes")
    >>> plays = rules.legal_plays(rules.initial(), (3, 1))
    >>> [str(plays[r.index]) for r in rank(rules, Network.fresh(hidden=4), plays)][:1]
    ['24/21 24/23']
    """
    values, ends = _values(rules, network, plays)
    # A play that ends the game ranks by twice its value: above any the network gives.
    order = sorted(range(len(plays)), key=lambda i: -values[i] * (1 + ends[i]))
    if not plies or len(plays) < 2:
        return [Ranked(i, float(values[i]), 0) for i in order]
    searched = [i for i in order[:WIDTH] if not ends[i]]
    deeper = dict(zip(searched, -reply_values(rules, network, [plays[i].result for i in searched]),
                      strict=True))
    first = sorted(order[:WIDTH], key=lambda i: -(deeper[i] if i in deeper else 2 * values[i]))
    return [*(Ranked(i, float(deeper.get(i, values[i])), 1) for i in first),
            *(Ranked(i, float(values[i]), 0) for i in order[WIDTH:])]


class TDPlayer:
    """The play whose resulting board the network values lowest for the opponent (a play
    that ends the game scores its points); after a 1-2, the double with the best such play.
    With ``plies`` 1, the best plays so found are valued again one ply ahead (:func:`rank`).

    ``noise`` (points, 0 by default) is the standard deviation of a normal error added to
    each play's value before choosing, to play weaker, as the backgammon bot's levels do
    (at 0-ply only)."""

    def __init__(self, network: Network, name: str = "td", noise: float = 0.0,
                 plies: int = 0) -> None:
        if plies not in (0, 1) or (plies and noise):
            raise ValueError("The network plays at 0-ply, with or without noise, or 1-ply "
                             "without.")
        self.network = network
        self.name = name
        self.noise = noise
        self.plies = plies

    def _scores(self, rules: GameRules, plays: Sequence[GamePlay]) -> Array:
        """Each play's value, twice it for a play that ends the game (as :func:`rank`)."""
        values, ends = _values(rules, self.network, plays)
        return values * (1 + ends)

    def choose(self, rules: GameRules, plays: Sequence[GamePlay],
               rng: random.Random) -> GamePlay:
        if self.plies:
            return plays[rank(rules, self.network, plays, self.plies)[0].index]
        scores = self._scores(rules, plays)
        if self.noise:
            top = max(rules.points.values())
            scores = scores + [rng.gauss(0.0, self.noise / top) for _ in plays]
        return plays[int(np.argmax(scores))]

    def name_double(self, rules: GameRules, board: Board, rng: random.Random) -> int:
        best, best_score = 6, -np.inf
        for die in range(1, 7):
            plays = rules.legal_plays(board, (die, die))
            if plays:
                if self.plies:
                    ranked = rank(rules, self.network, plays, self.plies)[0]
                    ends = rules.outcome(plays[ranked.index].result) is not None
                    top = ranked.value * (2 if ends else 1)
                else:
                    top = float(self._scores(rules, plays).max())
                if top > best_score:
                    best, best_score = die, top
        return best


def train(rules: GameRules, network: Network, games: int, *, alpha: float = 0.1,
          lam: float = 0.7, seed: int = 0, first: int = 0) -> int:
    """Train ``network`` in place by TD(λ) over ``games`` games of self-play in the kernel
    (games ``first ..`` of a run seeded by ``seed``); the throws played.

    Every board is valued from player 0's view (``v`` negated when player 1 is on roll);
    each step moves the weights by ``alpha`` × the difference between the next board's
    value (the game's score at the end) and this one's, along the trace of gradients
    decayed by ``lam``. The player is :class:`TDPlayer`'s, without noise.
    """
    from ..kernel import boards, players

    code = boards.game_code(rules.name)
    b2 = np.array([network.b2])
    _, throws = players.train(code, boards.board_array(rules.initial()), network.w1,
                              network.b1, network.w2, b2, games, seed, first, alpha, lam)
    network.b2 = float(b2[0])
    return int(throws.sum())
