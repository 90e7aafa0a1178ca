"""The reasons of hints on hand-built positions: a hit, a made point, a blot left with its
exact shots, a safe play, a take just above the take point, a pass, a position too good to
double, a resignation; and the cube's points against the decisions they divide."""

from __future__ import annotations

import re

import pytest

from backgammon import Position
from backgammon.analysis.reasons import (
    Code,
    Reason,
    cube_reasons,
    hints_reasons,
    resignation_reasons,
    say,
    say_all,
    shots,
    what_it_does,
)
from backgammon.bot.bot import Hint, ResignationAnswer
from backgammon.bot.cube import (
    CONTACT_EFFICIENCY,
    CubeAction,
    CubeResponse,
    match_decision,
    money_decision,
)
from backgammon.bot.cube_points import cube_points
from backgammon.bot.player import CubeMoment, CubeQuestion, ResignationQuestion
from backgammon.bot.probabilities import Probabilities
from backgammon.cube import CubeContext, CubeOwner, MatchScore
from backgammon.position import WinKind

# Checker play


def codes(reasons: list[Reason]) -> list[Code]:
    return [reason.code for reason in reasons]


def test_a_hit() -> None:
    # White's checker on its 8-point, Black's blot on White's 5-point (Black's 20): 3-1 hits
    # and makes the point.
    position = Position.from_points({8: 1, 6: 2}, {20: 1, 24: 2}, checkers=3)
    play = position.parse_play("8/5* 6/5", (3, 1))
    assert any(step.hit for step in play.steps)
    reasons = what_it_does(play)
    assert reasons[:2] == [Reason(Code.HITS, checkers=1), Reason(Code.MAKES_POINT, point=5)]
    assert say(Reason(Code.HITS, checkers=1), "en") == "hits a checker"
    assert say(Reason(Code.HITS, checkers=2), "en") == "hits 2 checkers"


def test_a_made_point_and_a_safe_play() -> None:
    play = Position.initial().parse_play("8/5 6/5", (3, 1))
    assert what_it_does(play) == [Reason(Code.MAKES_POINT, point=5), Reason(Code.SAFE)]
    assert say_all(what_it_does(play), "en") == ["makes your 5-point", "safe: no blot can be hit"]


def test_a_blot_left_with_the_exact_shots() -> None:
    """A blot six pips in front of two checkers is hit by 17 rolls: the eleven with a 6,
    5-1, 4-2 (each twice), 3-3 and 2-2; the point held in between blocks nothing here, as
    5-1 goes round it by the 1. Holding the 4-point as well takes 3-3 away (it stops on it)
    and 4-2 keeps its other way: 16."""
    mover = Position.from_points({10: 1, 6: 2}, {24: 2, 1: 1}, checkers=3)
    play = mover.parse_play("10/7", (2, 1))
    assert shots(play.result) == 17
    assert Reason(Code.LEAVES_SHOTS, shots=17) in what_it_does(play)
    blocked = Position.from_points({10: 1, 6: 2, 4: 2}, {24: 2, 1: 3}, checkers=5)
    assert shots(blocked.parse_play("10/7", (2, 1)).result) == 16
    assert say(Reason(Code.LEAVES_SHOTS, shots=17), "en") == (
        "leaves a blot that can be hit: 17 rolls in 36"
    )
    assert say(Reason(Code.LEAVES_SHOTS, shots=1), "en") == (
        "leaves a blot that can be hit: 1 roll in 36"
    )


@pytest.mark.parametrize(
    ("mine", "theirs", "checkers", "dice", "play", "expected"),
    [
        # The second checker joins one in the opponent's home board: an anchor.
        ({23: 1, 21: 1, 6: 3}, {6: 5}, 5, (2, 1), "23/21 6/5",
         [Reason(Code.MAKES_ANCHOR, point=21), Reason(Code.SAFE)]),
        # The bar point joins the 8-point to the 6, 5 and 4: five points in a row.
        ({10: 1, 9: 1, 8: 2, 6: 2, 5: 2, 4: 2}, {24: 10}, 10, (3, 2), "10/7 9/7",
         [Reason(Code.MAKES_POINT, point=7), Reason(Code.BUILDS_PRIME, length=5),
          Reason(Code.SAFE)]),
        # A back checker past the opponent's bar point; the one left behind is 5 pips from
        # the opponent's 6-point: any 5, 4-1 and 3-2 hit it (15 rolls).
        ({24: 2, 13: 2}, {6: 4}, 4, (6, 4), "24/14",
         [Reason(Code.ESCAPES_BACK_CHECKER, checkers=1), Reason(Code.LEAVES_SHOTS, shots=15)]),
        # In a race, no shots to count.
        ({1: 2}, {6: 2}, 2, (2, 1), "1/off(2)", [Reason(Code.BEARS_OFF, checkers=2)]),
        ({5: 2, 13: 2}, {19: 2}, 4, (4, 1), "5/1 5/4",
         [Reason(Code.BREAKS_POINT, point=5), Reason(Code.SAFE)]),
    ],
)
def test_what_a_play_does(
    mine: dict[int, int], theirs: dict[int, int], checkers: int, dice: tuple[int, int],
    play: str, expected: list[Reason],
) -> None:
    position = Position.from_points(mine, theirs, checkers=checkers)
    assert what_it_does(position.parse_play(play, dice)) == expected


def test_the_shots_count_entering_from_the_bar() -> None:
    """On the bar, a player must enter before hitting: of the rolls that would hit a blot
    8 pips away, only 4-4 both enters (the 5 is blocked) and hits."""
    position = Position.from_points({"bar": 1, 13: 1}, {20: 1, 5: 2}, checkers=3)
    assert shots(position) == 1


def test_the_best_play_against_the_next_and_the_others_against_the_best() -> None:
    start = Position.initial()
    chances = Probabilities(0.52, 0.15, 0.01, 0.12, 0.01)
    best = Hint(start.parse_play("8/5 6/5", (3, 1)), chances, 0.17)
    worse = Probabilities(0.5, 0.12, 0.01, 0.12, 0.01)
    other = Hint(start.parse_play("13/10 6/5", (3, 1)), worse, 0.1)
    first, second = hints_reasons([best, other])
    # What the best does that the other does not, then what was measured.
    assert first[:2] == [Reason(Code.MAKES_POINT, point=5), Reason(Code.SAFE)]
    left = shots(other.play.result)
    assert Reason(Code.FEWER_SHOTS, shots=0, other=left, than="13/10 6/5") in first
    assert Reason(Code.MORE_GAMMONS, gammons=0.15, other=0.12, than="13/10 6/5") in first
    assert Reason(Code.MORE_SHOTS, shots=left, other=0, than="8/5 6/5") in second
    assert all(reason.code is not Code.LEAVES_SHOTS for reason in second)  # said once


def test_plays_alike_but_for_their_chances() -> None:
    start = Position.initial()
    play = start.parse_play("8/5 6/5", (3, 1))
    better = Hint(play, Probabilities(0.53, 0.1, 0.0, 0.1, 0.0), 0.1)
    worse = Hint(play, Probabilities(0.52, 0.1, 0.0, 0.1, 0.0), 0.0)
    assert hints_reasons([better, worse])[0][-1] == Reason(
        Code.WINS_MORE, wins=0.53, other=0.52, than="8/5 6/5"
    )


# The cube

#: No gammons: the take point is the model's pure one.
NO_GAMMONS = Probabilities(0.75, 0.0, 0.0, 0.0, 0.0)


def money(p: Probabilities, moment: CubeMoment) -> tuple[CubeQuestion, list[Reason]]:
    question = CubeQuestion(Position.initial(), CubeContext(), 0, moment)
    decision = money_decision(p, CONTACT_EFFICIENCY, question.cube)
    return question, cube_reasons(question, decision)


def with_chance(p: Probabilities, win: float) -> Probabilities:
    """``p`` with the winning chance ``win``, the gammons the same shares of the wins and of
    the losses (as the cube's points are found)."""
    won, lost = win / p.win, (1 - win) / (1 - p.win)
    return Probabilities(
        win, p.win_gammon * won, p.win_backgammon * won, p.lose_gammon * lost,
        p.lose_backgammon * lost,
    )


def test_the_take_point_divides_takes_from_drops() -> None:
    cube = CubeContext()
    for context, decide in ((cube, money_decision), (CubeContext(1, CubeOwner.CENTRE,
                            MatchScore(7, (2, 4))), match_decision)):
        decision = decide(NO_GAMMONS, CONTACT_EFFICIENCY, context)
        take = cube_points(decision, context).take
        assert take is not None
        below = decide(with_chance(NO_GAMMONS, take - 1e-4), CONTACT_EFFICIENCY, context)
        above = decide(with_chance(NO_GAMMONS, take + 1e-4), CONTACT_EFFICIENCY, context)
        assert (below.response, above.response) == (CubeResponse.TAKE, CubeResponse.DROP)


def test_a_take_just_above_the_take_point() -> None:
    decision = money_decision(NO_GAMMONS, CONTACT_EFFICIENCY, CubeContext())
    take = cube_points(decision, CubeContext()).take
    assert take is not None
    needed = 1 - take
    doubler = with_chance(NO_GAMMONS, take - 0.003)  # the taker wins 0.3% more than needed
    _, reasons = money(doubler, CubeMoment.ANSWER)
    assert reasons[0].code is Code.TAKE
    assert reasons[0]["wins"] == pytest.approx(needed + 0.003)
    assert reasons[0]["needed"] == pytest.approx(needed)
    # Close chances are written with the decimals that tell them apart, and no more.
    for margin in (0.003, 0.0003):
        _, reasons = money(with_chance(NO_GAMMONS, take - margin), CubeMoment.ANSWER)
        text = say(reasons[0], "en")
        found = re.fullmatch(r"a take: you win ([\d.]+)%, you need ([\d.]+)%", text)
        assert found, text
        shown = [found[1], found[2]]
        assert float(shown[0]) > float(shown[1]), text
        for figure, truth in zip(shown, (needed + margin, needed), strict=True):
            places = len(figure.partition(".")[2])
            assert figure == f"{100 * truth:.{places}f}"
        if places:
            assert f"{100 * (needed + margin):.{places - 1}f}" == f"{100 * needed:.{places - 1}f}"


def test_a_pass() -> None:
    _, reasons = money(Probabilities(0.85, 0.0, 0.0, 0.0, 0.0), CubeMoment.ANSWER)
    assert reasons[0].code is Code.DROP and reasons[0]["wins"] == pytest.approx(0.15)
    assert reasons[0]["needed"] > 0.15
    # The doubler is told the same: they should drop.
    _, reasons = money(Probabilities(0.85, 0.0, 0.0, 0.0, 0.0), CubeMoment.ROLL)
    assert codes(reasons) == [Code.DOUBLE, Code.THEY_DROP]


def test_too_good_to_double() -> None:
    strong = Probabilities(0.88, 0.6, 0.02, 0.01, 0.0)
    question = CubeQuestion(Position.initial(), CubeContext(), 0, CubeMoment.ROLL)
    decision = money_decision(strong, CONTACT_EFFICIENCY, question.cube)
    assert decision.action is CubeAction.TOO_GOOD
    reasons = cube_reasons(question, decision)
    assert codes(reasons) == [Code.TOO_GOOD_TO_DOUBLE, Code.GAMMON_CHANCES]
    points = cube_points(decision, question.cube)
    assert points.too_good is not None
    assert reasons[0]["margin"] == pytest.approx(0.88 - points.too_good)
    assert 0 < float(reasons[0]["margin"]) < 0.88
    # Just under the too-good point, the same position is a double.
    below = money_decision(with_chance(strong, points.too_good - 1e-4), CONTACT_EFFICIENCY)
    assert below.action is CubeAction.DOUBLE


def test_not_strong_enough_and_the_race() -> None:
    race = Position.from_points({6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 3: 5})
    question = CubeQuestion(race, CubeContext(), 0, CubeMoment.ROLL)
    decision = money_decision(Probabilities(0.6, 0.0, 0.0, 0.0, 0.0), 0.6)
    reasons = cube_reasons(question, decision)
    assert reasons[0].code is Code.NOT_STRONG_ENOUGH and reasons[0]["wins"] == 0.6
    assert reasons[-1] == Reason(Code.RACE_TRAIL, pips=5)
    assert say(reasons[-1], "vi") == "trong cuộc đua bạn kém 5 pip"


# Resignations


def test_a_resignation_accepted_and_one_rejected() -> None:
    offer = ResignationQuestion(Position.initial(), CubeContext(), WinKind.SINGLE, True)
    chances = Probabilities(0.95, 0.05, 0.0, 0.0, 0.0)
    accepted = resignation_reasons(offer, ResignationAnswer(True, 1.0, 0.95), chances)
    assert accepted[0] == Reason(Code.ACCEPT_POINTS, gets=1.0, worth=0.95)
    assert say(accepted[0], "en") == (
        "accept: the offer gives you 1 point, playing on is worth 0.95"
    )
    assert say(accepted[1], "en") == "you win 95%: a gammon 5%, a backgammon 0%"
    in_match = ResignationQuestion(
        Position.initial(), CubeContext(1, CubeOwner.CENTRE, MatchScore(5, (0, 0))),
        WinKind.SINGLE, True,
    )
    rejected = resignation_reasons(in_match, ResignationAnswer(False, 0.6, 0.7), chances)
    assert rejected[0] == Reason(Code.REJECT_MATCH, gets=0.6, worth=0.7)
    assert say(rejected[0], "fa") == (
        "نپذیرید: با پیشنهاد تسلیم شانس بردن مسابقه ۶۰٪ است ولی با ادامهٔ بازی ۷۰٪"
    )
