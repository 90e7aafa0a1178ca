"""Why a play, in the other games (Portes, Tavla, Plakoto, Fevga, Long Nardy,
Acey-deucey): what it does to the board (:func:`what_board_play_does`) and what sets it
apart from another play of the same dice (:func:`board_play_reasons`), from the counts the
games' heuristic makes (:func:`backgammon.bot.games.features`) before and after it, and
the equities the engine judged (:mod:`backgammon.bot.games.judge`). The reasons are
backgammon's hints' (:mod:`.reason`), with the codes these games add: pins, lone checkers
left in direct reach (hit or pinned, as the game has it), Plakoto's mother left in reach,
the points expected.

>>> from backgammon.games import rules_for
>>> from backgammon.bot.games import judge_plays
>>> rules = rules_for("portes")
>>> ranked = judge_plays(rules, rules.legal_plays(rules.initial(), (3, 1)))
>>> [str(judged.play) for judged in ranked[:2]]
['8/5 6/5', '13/10 24/23']
>>> board_hints_reasons(rules, ranked[:2])[0]
[Reason('makes_point', point=5), Reason('fewer_blots', blots=0, other=2, than='13/10 24/23')]
"""

from __future__ import annotations

from collections.abc import Sequence

from ...bot.games import JudgedPlay, features, held_points
from ...games import GamePlay, GameRules, LoneChecker
from .reason import Code, Reason

#: The most reasons a play is given: the ones that set it apart first.
MOST = 5
#: The most made points named a play (in Fevga and Long Nardy one checker makes a point).
MOST_POINTS = 2
#: The least difference in equity worth a reason, in points (shown to three decimals).
NOTICEABLE = 0.001


def what_board_play_does(rules: GameRules, play: GamePlay) -> list[Reason]:
    """The reasons of ``play`` against the board it starts from: the checkers it hits or
    pins, the points it makes that block the opponent (nearest home first), a longer prime
    (four points or more), the checkers borne off, the lone checkers it leaves where an
    opposing checker can hit or pin them with one die, and a Plakoto mother so left."""
    before_board, after_board = play.board, play.result.flip()
    before, after = features(rules, before_board), features(rules, after_board)
    reasons = []
    hits = after.hit - before.hit
    if hits > 0:
        reasons.append(Reason(Code.HITS, checkers=hits))
    pins = bin(after_board.theirs_pinned).count("1") - bin(before_board.theirs_pinned).count("1")
    if rules.lone_checker is LoneChecker.PIN and pins > 0:
        reasons.append(Reason(Code.PINS, checkers=pins))
    made = held_points(rules, after_board) - held_points(rules, before_board)
    reasons.extend(Reason(Code.MAKES_POINT, point=point) for point in sorted(made)[:MOST_POINTS])
    if after.prime >= 4 and after.prime > before.prime:
        reasons.append(Reason(Code.BUILDS_PRIME, length=after.prime))
    borne = after.off - before.off
    if borne > 0:
        reasons.append(Reason(Code.BEARS_OFF, checkers=borne))
    if after.mother:
        reasons.append(Reason(Code.MOTHER_EXPOSED))
    if after.blots:
        reasons.append(Reason(Code.LEAVES_BLOTS, blots=after.blots))
    return reasons


def board_play_reasons(rules: GameRules, judged: JudgedPlay,
                       other: JudgedPlay | None) -> list[Reason]:
    """The reasons of ``judged`` against ``other`` (for the best play, the next best; for
    another, the best): what it does that ``other`` does not, then what both do, then the
    lone checkers left in reach by each where they differ, and where nothing else tells
    them apart, the points each expects; at most :data:`MOST`."""
    own = what_board_play_does(rules, judged.play)
    if other is None:
        return own[:MOST]
    theirs = what_board_play_does(rules, other.play)
    apart = [r for r in own if r not in theirs and r.code is not Code.LEAVES_BLOTS]
    shared = [r for r in own if r in theirs and r.code is not Code.LEAVES_BLOTS]
    than = str(other.play)
    mine_left = features(rules, judged.play.result.flip()).blots
    theirs_left = features(rules, other.play.result.flip()).blots
    measured = []
    if mine_left != theirs_left:
        code = Code.FEWER_BLOTS if mine_left < theirs_left else Code.MORE_BLOTS
        measured.append(Reason(code, blots=mine_left, other=theirs_left, than=than))
    elif mine_left:
        shared.append(Reason(Code.LEAVES_BLOTS, blots=mine_left))
    if not apart and not measured and abs(judged.equity - other.equity) >= NOTICEABLE:
        code = Code.EXPECTS_MORE if judged.equity > other.equity else Code.EXPECTS_LESS
        measured.append(Reason(code, points=round(judged.equity, 3),
                               other=round(other.equity, 3), than=than))
    return [*apart, *measured, *shared][:MOST]


def board_hints_reasons(rules: GameRules, ranked: Sequence[JudgedPlay]) -> list[list[Reason]]:
    """The reasons of each of the ``ranked`` plays (best first): the best against the next
    best, each other against the best."""
    if len(ranked) == 1:
        return [board_play_reasons(rules, ranked[0], None)]
    return [board_play_reasons(rules, judged, ranked[1] if index == 0 else ranked[0])
            for index, judged in enumerate(ranked)]
