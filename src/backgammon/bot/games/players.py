"""The baseline players of the games other than backgammon: a random player and a simple
heuristic one, each choosing a whole-turn play from the rules' legal plays.

Every computer player of these games is measured against them (docs/lab/game-baselines.md).
A player answers two questions: which of the legal plays it makes (``choose``), and, in
Acey-deucey after a 1-2, which double it names (``name_double``). Both take the game's
rules and a :class:`random.Random` that the match runner seeds, so that a match replays.

The heuristic scores the board each play leaves, seen from the player who made it, as one
weighted sum of the counts of :func:`features` (the weights per game are :data:`WEIGHTS`,
chosen as docs/lab/game-baselines.md says), and makes the play with the highest score; ties
go to the first play in the rules' order.

>>> from backgammon.games import rules_for
>>> rules = rules_for("portes")
>>> board = Board.from_points({8: 1, 6: 2}, {21: 1, 18: 2})
>>> str(HeuristicPlayer().choose(rules, rules.legal_plays(board, (2, 1)), random.Random(0)))
'8/6 6/5'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from ...games import Board, GamePlay, GameRules, LoneChecker
from ...position import BAR, OFF, Side

#: The score of a play that wins the game, a point: above any board's weighted counts.
WON = 1e6
#: The start of every game but backgammon's layouts and Acey-deucey (the mother, the head).
START = 24


class Player(Protocol):
    """A player of any game through its rules object."""

    #: A short name for tables ("random", "heuristic").
    name: str

    def choose(self, rules: GameRules, plays: Sequence[GamePlay],
               rng: random.Random) -> GamePlay:
        """One of ``plays`` (never empty), all from the same board and dice."""
        ...

    def name_double(self, rules: GameRules, board: Board, rng: random.Random) -> int:
        """The double (1..6) to play after an Acey-deucey 1-2, on ``board`` (the namer on
        roll)."""
        ...


class RandomPlayer:
    """Each legal play with the same chance, and any double after a 1-2."""

    name = "random"

    def choose(self, rules: GameRules, plays: Sequence[GamePlay],
               rng: random.Random) -> GamePlay:
        return plays[rng.randrange(len(plays))]

    def name_double(self, rules: GameRules, board: Board, rng: random.Random) -> int:
        return rng.randint(1, 6)


@dataclass(frozen=True)
class Features:
    """What the heuristic counts on a board, for the player who just moved ("mine") against
    the opponent. Every count is 0 where the game does not have the thing counted."""

    #: The opponent's pip count less mine (a checker on the bar, or waiting to enter, 25).
    pips: int
    #: My checkers borne off.
    off: int
    #: Points I hold on the opponent's way (before their rearmost checker): two checkers or
    #: more where lone checkers can be hit or pinned (and in Plakoto one pinning an opposing
    #: checker), one checker where one holds a point.
    points: int
    #: My longest run of held points (a prime, a block).
    prime: int
    #: Of those, the points in my home board (1..6): where a hit or pinned checker is shut in.
    home: int
    #: My lone checkers that an opposing checker could hit or pin with one die (a direct
    #: shot: 1 to 6 pips in front of it, or the bar).
    blots: int
    #: The opponent's checkers on the bar that I hit (not those still waiting to enter).
    hit: int
    #: The opponent's checkers I pin, less mine pinned (Plakoto).
    pinned: int
    #: Plakoto: my mother (my last checker on my 24-point, not yet pinned) under a direct shot.
    mother: int

    def score(self, weights: Mapping[str, float]) -> float:
        """The weighted sum of the counts."""
        return float(sum(weight * getattr(self, name) for name, weight in weights.items()))


def features(rules: GameRules, board: Board) -> Features:
    """The counts of ``board`` for the player whose side is ``board.mine`` (the heuristic
    passes the board a play leaves, flipped back to the player who made it).

    >>> from backgammon.games import rules_for
    >>> features(rules_for("portes"), Board.from_points({6: 2, 8: 1}, {21: 1, 18: 2}))
    Features(pips=37, off=12, points=1, prime=1, home=1, blots=1, hit=0, pinned=0, mother=0)
    """
    mine, theirs = board.mine, board.theirs
    my_pips, their_pips = board.pips()
    lone = rules.lone_checker
    holds = lone is LoneChecker.HOLDS
    pins = lone is LoneChecker.PIN
    their_pinned = board.theirs_pinned
    held = _held(rules, board)
    points = prime = run = 0
    for point in range(1, 25):
        if held[point]:
            points += 1
            run += 1
            prime = max(prime, run)
        else:
            run = 0
    home = sum(held[1:7])
    blots = mother = 0
    if not holds:
        for point in range(1, 25):
            if mine[point] != 1 or held[point] or board.mine_pinned >> point & 1:
                continue
            if _direct_shot(theirs, their_pinned, point):
                blots += 1
                if pins and point == START:
                    mother = 1
    hit = theirs[BAR] - board.theirs_waiting if lone is LoneChecker.HIT else 0
    pinned = bin(their_pinned).count("1") - bin(board.mine_pinned).count("1") if pins else 0
    return Features(their_pips - my_pips, mine[OFF], points, prime, home, blots, hit, pinned,
                    mother)


def held_points(rules: GameRules, board: Board) -> frozenset[int]:
    """The points that :func:`features` counts as held by the player whose side is
    ``board.mine``: their numbers.

    >>> from backgammon.games import rules_for
    >>> sorted(held_points(rules_for("portes"), Board.from_points({6: 2, 8: 1}, {21: 1})))
    [6]
    """
    return frozenset(point for point, held in enumerate(_held(rules, board)) if held)


def _held(rules: GameRules, board: Board) -> list[bool]:
    """Whether each of my points 0..24 is held: two checkers or more where lone checkers
    can be hit or pinned (in Plakoto, or one pinning an opposing checker), one where one
    holds a point; and still on the way of the opponent's rearmost checker."""
    mine, theirs = board.mine, board.theirs
    lone = rules.lone_checker
    pins = lone is LoneChecker.PIN
    need = 1 if lone is LoneChecker.HOLDS else 2
    their_pinned = board.theirs_pinned
    their_point = rules.travel.their_point
    # The opponent's rearmost checker (their number; the bar 25): a point of mine blocks
    # only where it still lies on that checker's way.
    rearmost = max((p for p in range(25, 0, -1) if theirs[p]), default=0)
    held = [False] * 25
    for point in range(1, 25):
        count = mine[point]
        held[point] = (count >= need or (
            pins and count == 1 and bool(their_pinned >> (25 - point) & 1))) and \
            their_point(point) < rearmost
    return held


def _direct_shot(theirs: bytes, their_pinned: int, point: int) -> bool:
    """True when an opposing checker that may move stands 1 to 6 pips before my ``point``
    (travelling against me: my point ``s`` is their ``25 - s``, the bar their 25)."""
    for source in range(max(0, point - 6), point):
        their_point = 25 - source  # source 0: the bar
        count = theirs[their_point]
        if count and not (count == 1 and their_pinned >> their_point & 1):
            return True
    return False


def _weights(**weights: float) -> Mapping[str, float]:
    return MappingProxyType(weights)


#: The heuristic's weights per game, in pips: what each count is worth against one pip of
#: the race. Set by hand, then tuned as docs/lab/game-baselines.md says
#: (bench/bot/games_baselines.py --tune): each weight halved and doubled in turn, a change to
#: be kept where it beat these weights by two standard errors and again on fresh dice (none
#: did). Acey-deucey has Portes' weights, untuned.
WEIGHTS: Mapping[str, Mapping[str, float]] = MappingProxyType({
    "portes": _weights(pips=1, off=1, points=3, prime=2, home=3, blots=-6, hit=4),
    "tavla": _weights(pips=1, off=1, points=3, prime=2, home=3, blots=-6, hit=4),
    "plakoto": _weights(pips=1, off=1, points=3, prime=2, home=3, blots=-8, pinned=12,
                        mother=-40),
    "fevga": _weights(pips=1, off=1, points=2, prime=3),
    "long-nardy": _weights(pips=1, off=1, points=2, prime=3),
    "acey-deucey": _weights(pips=1, off=1, points=3, prime=2, home=3, blots=-6, hit=4),
})
#: The weights of a game :data:`WEIGHTS` does not name (backgammon's layouts).
DEFAULT_WEIGHTS = WEIGHTS["portes"]


class HeuristicPlayer:
    """The play whose resulting board scores highest by :func:`features` and the game's
    weights (``weights`` replaces them, for tuning); after a 1-2, the double whose best play
    scores highest."""

    def __init__(self, weights: Mapping[str, float] | None = None,
                 name: str = "heuristic") -> None:
        self.weights = weights
        self.name = name

    def _weights_for(self, rules: GameRules) -> Mapping[str, float]:
        if self.weights is not None:
            return self.weights
        return WEIGHTS.get(rules.name, DEFAULT_WEIGHTS)

    def score(self, rules: GameRules, play: GamePlay) -> float:
        """The score of the board ``play`` leaves, for the player who made it: a play that
        ends the game scores its points (a loss, less), above or below any other."""
        result = rules.outcome(play.result)
        if result is not None:
            if result.winner is None:
                return 0.0
            # The board is the opponent's to play: the mover is its Side.OPPONENT.
            return (WON if result.winner is Side.OPPONENT else -WON) * result.points
        return features(rules, play.result.flip()).score(self._weights_for(rules))

    def choose(self, rules: GameRules, plays: Sequence[GamePlay],
               rng: random.Random) -> GamePlay:
        return max(plays, key=lambda play: self.score(rules, play))

    def name_double(self, rules: GameRules, board: Board, rng: random.Random) -> int:
        best, best_score = 6, float("-inf")
        for die in range(1, 7):
            plays = rules.legal_plays(board, (die, die))
            if plays:
                top = max(self.score(rules, play) for play in plays)
                if top > best_score:
                    best, best_score = die, top
        return best
