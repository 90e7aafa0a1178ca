"""The engine's judgement of a decision in the other games: every legal play of a board and
dice ranked by the game's network (:func:`judge_plays`), each with its equity in points for
the player on roll and its loss against the best; and after an Acey-deucey 1-2, the doubles
the player may name, each by its best play (:func:`judge_doubles`).

An equity is the network's value times the game's largest score (a play that ends the game:
its real points); at 1-ply the :data:`~.td.WIDTH` best plays are valued one ply ahead
(:func:`~.td.rank`) and ranked first. What sets the plays apart in words is
:mod:`backgammon.analysis.reasons`' (``board_hints_reasons``).

>>> from backgammon.games import rules_for
>>> rules = rules_for("portes")
>>> ranked = judge_plays(rules, rules.legal_plays(rules.initial(), (3, 1)))
>>> str(ranked[0].play), ranked[0].loss, all(j.loss >= 0 for j in ranked)
('8/5 6/5', 0.0, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...games import Board, GamePlay, GameRules
from .shipped import shipped_network
from .td import Network, encode, rank, reply_values


@dataclass(frozen=True)
class JudgedPlay:
    """A play with the engine's judgement of it."""

    play: GamePlay
    #: Points the player who makes it can expect (a play that ends the game: its points).
    equity: float
    #: The best play's equity less this one's: 0 for the best (never below).
    loss: float
    #: The depth it was valued at: 0 the network alone, 1 one ply ahead.
    plies: int


@dataclass(frozen=True)
class JudgedDouble:
    """A double that may be named after an Acey-deucey 1-2, judged by its best play."""

    die: int
    #: Its best play; None where no checker can move with it.
    play: GamePlay | None
    #: The points the namer can expect after that play (with no play: on the board as it
    #: is, throwing again).
    equity: float
    #: The best double's equity less this one's.
    loss: float


def judge_plays(rules: GameRules, plays: Sequence[GamePlay], network: Network | None = None,
                plies: int = 0) -> list[JudgedPlay]:
    """``plays`` (never empty; all of one board and dice) best first, each judged for the
    player who makes it, by ``network`` (the game's shipped one by default) at ``plies``.

    At 1-ply the plays not searched are ranked after the searched ones, by their own
    value; a loss is never below 0 (such a play's 0-ply equity may pass the best's 1-ply).
    """
    if not plays:
        raise ValueError("There is no play to judge.")
    net = shipped_network(rules.name) if network is None else network
    top = max(rules.points.values())
    ranked = rank(rules, net, plays, plies)
    best = ranked[0].value * top
    return [JudgedPlay(plays[r.index], r.value * top, max(0.0, best - r.value * top), r.plies)
            for r in ranked]


def equity_of(rules: GameRules, play: GamePlay, network: Network | None = None,
              plies: int = 0) -> float:
    """The equity of one ``play`` for the player who makes it, at ``plies`` (a play that
    ends the game: its points): what :func:`judge_plays` gives it where searched that deep
    (the analysis judges a play made as deep as the best).

    >>> from backgammon.games import rules_for
    >>> rules = rules_for("portes")
    >>> plays = rules.legal_plays(rules.initial(), (3, 1))
    >>> best = judge_plays(rules, plays, plies=1)[0]
    >>> equity_of(rules, best.play, plies=1) == best.equity
    True
    """
    net = shipped_network(rules.name) if network is None else network
    top = max(rules.points.values())
    if plies and rules.outcome(play.result) is None:
        return -float(reply_values(rules, net, [play.result])[0]) * top
    return rank(rules, net, [play])[0].value * top


def judge_doubles(rules: GameRules, board: Board, network: Network | None = None,
                  plies: int = 0) -> list[JudgedDouble]:
    """The six doubles that may be named on ``board`` (the namer on roll) best first, each
    by its best play at ``plies``, as the computer names one (a play that ends the game
    first, a double with no play last); equal ones keep the dice's order.

    >>> from backgammon.games import rules_for
    >>> rules = rules_for("acey-deucey")
    >>> judged = judge_doubles(rules, rules.initial())
    >>> sorted(j.die for j in judged), judged[0].loss
    ([1, 2, 3, 4, 5, 6], 0.0)
    >>> losses = [j.loss for j in judged]   # whichever network ships
    >>> losses == sorted(losses), str(judged[-1].play).startswith("bar/")  # all to enter
    (True, True)
    """
    net = shipped_network(rules.name) if network is None else network
    top = max(rules.points.values())
    judged: list[tuple[int, GamePlay | None, float]] = []
    for die in range(1, 7):
        plays = rules.legal_plays(board, (die, die))
        if plays:
            first = judge_plays(rules, plays, net, plies)[0]
            judged.append((die, first.play, first.equity))
        else:
            judged.append((die, None, float(net.values(encode(rules, [board]))[0]) * top))

    def order(item: tuple[int, GamePlay | None, float]) -> tuple[bool, float]:
        _, play, equity = item
        ends = play is not None and rules.outcome(play.result) is not None
        return play is None, -equity * (2 if ends else 1)

    judged.sort(key=order)
    best = judged[0][2]
    return [JudgedDouble(die, play, equity, max(0.0, best - equity))
            for die, play, equity in judged]
