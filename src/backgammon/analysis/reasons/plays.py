"""Why a play: what it does to the position (:func:`what_it_does`), and what sets it apart
from another play of the same roll (:func:`play_reasons`), from the features of both
positions (:mod:`.features`) and the chances the bot measured after each play.

>>> from backgammon import Position
>>> start = Position.initial()
>>> what_it_does(start.parse_play("8/5 6/5", (3, 1)))
[Reason('makes_point', point=5), Reason('safe')]
>>> what_it_does(start.parse_play("24/23 13/10", (3, 1)))
[Reason('leaves_shots', shots=34)]
>>> what_it_does(Position.initial().parse_play("24/14", (6, 4)))
[Reason('escapes_back_checker', checkers=1), Reason('leaves_shots', shots=29)]
"""

from __future__ import annotations

from collections.abc import Sequence

from ...bot import Hint
from ...moves import Play
from .features import Features
from .reason import Code, Reason

#: The most reasons a play is given: the ones that set it apart first.
MOST = 5
#: The least difference in a chance worth a reason (chances are shown to the percent).
NOTICEABLE = 0.02
#: Points whose making is a reason, best first (the 5-point and the bar point are worth the
#: most, the help's strategy page says); the rest by their number, the highest first.
_BEST_POINTS = (5, 7, 4, 6, 3, 8, 9)
#: Points whose breaking is a reason while there is contact: the home board's best points
#: and the bar point (the others are broken in the normal course of bearing in), and the
#: anchors but the 24-point, where the back checkers start (they leave it in the normal
#: course of the game).
_KEY_POINTS = frozenset({4, 5, 6, 7})
_KEY_ANCHORS = frozenset(range(19, 24))


def what_it_does(play: Play) -> list[Reason]:
    """The reasons of ``play`` against its start: the hits, the points and anchors made, a
    longer prime, the back checkers escaped, the checkers borne off, the key points and
    anchors given up, and whether it leaves a blot the opponent can hit (with their shots)
    or is safe, while there is contact."""
    before, after = Features.of(play.position), Features.after(play)
    reasons = []
    hits = after.their_bar - before.their_bar
    if hits > 0:
        reasons.append(Reason(Code.HITS, checkers=hits))
    for point in sorted(after.made - before.made, key=_importance):
        code = Code.MAKES_ANCHOR if point in after.anchors else Code.MAKES_POINT
        reasons.append(Reason(code, point=point))
    if after.prime >= 4 and after.prime > before.prime:
        reasons.append(Reason(Code.BUILDS_PRIME, length=after.prime))
    escaped = before.back - after.back
    if escaped > 0:
        reasons.append(Reason(Code.ESCAPES_BACK_CHECKER, checkers=escaped))
    borne = after.off - before.off
    if borne > 0:
        reasons.append(Reason(Code.BEARS_OFF, checkers=borne))
    if after.contact:
        for point in sorted(before.made - after.made, key=_importance):
            if point in before.anchors and point in _KEY_ANCHORS:
                reasons.append(Reason(Code.BREAKS_ANCHOR, point=point))
            elif point in _KEY_POINTS:
                reasons.append(Reason(Code.BREAKS_POINT, point=point))
        if after.shots:
            reasons.append(Reason(Code.LEAVES_SHOTS, shots=after.shots))
        else:
            reasons.append(Reason(Code.SAFE))
    return reasons


def play_reasons(hint: Hint, other: Hint | None) -> list[Reason]:
    """The reasons of the hinted play ``hint`` against ``other`` (for the best play, the
    next best; for another, the best): first what it does that ``other`` does not, then what
    both do, then the measured differences (the shots left, the gammons won and lost, and
    where nothing else tells them apart, the games won); at most :data:`MOST`."""
    own = what_it_does(hint.play)
    if other is None:
        return own[:MOST]
    theirs = what_it_does(other.play)
    apart = [reason for reason in own if reason not in theirs and reason.code != Code.LEAVES_SHOTS]
    shared = [reason for reason in own if reason in theirs or reason.code == Code.LEAVES_SHOTS]
    measured = _differences(hint, other, Features.after(hint.play), Features.after(other.play))
    if not apart and not measured:
        measured = _who_wins_more(hint, other)
    if any(reason.code in (Code.FEWER_SHOTS, Code.MORE_SHOTS) for reason in measured):
        shared = [reason for reason in shared if reason.code != Code.LEAVES_SHOTS]
    return [*apart, *shared, *measured][:MOST]


def hints_reasons(hints: Sequence[Hint]) -> list[list[Reason]]:
    """The reasons of each of the ranked ``hints`` (best first): the best against the next
    best, each other against the best."""
    return [
        play_reasons(hint, hints[1] if index == 0 else hints[0]) if len(hints) > 1
        else play_reasons(hint, None)
        for index, hint in enumerate(hints)
    ]


def _importance(point: int) -> tuple[int, int]:
    """The order in which made or broken points are named: the best points first."""
    if point in _BEST_POINTS:
        return (0, _BEST_POINTS.index(point))
    return (1, -point)


def _differences(hint: Hint, other: Hint, own: Features, theirs: Features) -> list[Reason]:
    """The measured differences of ``hint`` from ``other`` that are worth saying."""
    than = str(other.play)
    reasons = []
    if (
        own.contact
        and own.shots is not None
        and theirs.shots is not None
        and own.shots != theirs.shots
    ):
        code = Code.FEWER_SHOTS if own.shots < theirs.shots else Code.MORE_SHOTS
        reasons.append(Reason(code, shots=own.shots, other=theirs.shots, than=than))
    p, q = hint.probabilities, other.probabilities
    if abs(p.win_gammon - q.win_gammon) >= NOTICEABLE:
        code = Code.MORE_GAMMONS if p.win_gammon > q.win_gammon else Code.FEWER_GAMMONS
        reasons.append(Reason(code, gammons=p.win_gammon, other=q.win_gammon, than=than))
    if abs(p.lose_gammon - q.lose_gammon) >= NOTICEABLE:
        fewer = p.lose_gammon < q.lose_gammon
        code = Code.LOSES_FEWER_GAMMONS if fewer else Code.LOSES_MORE_GAMMONS
        reasons.append(Reason(code, gammons=p.lose_gammon, other=q.lose_gammon, than=than))
    return reasons


def _who_wins_more(hint: Hint, other: Hint) -> list[Reason]:
    """The games won by each, where nothing else sets the plays apart."""
    p, q = hint.probabilities, other.probabilities
    if p.win == q.win:
        return []
    code = Code.WINS_MORE if p.win > q.win else Code.WINS_LESS
    return [Reason(code, wins=p.win, other=q.win, than=str(other.play))]
