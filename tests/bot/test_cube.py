"""Cube decisions (money and match), resignations, and bots handling
the cube and resignations through the game engine. Textbook positions are built from their
probabilities directly, by an evaluator that returns fixed figures."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pytest

from backgammon import Position, WinKind
from backgammon.bot import (
    Bot,
    CubeAction,
    CubeContext,
    CubeOwner,
    CubeResponse,
    Level,
    MatchScore,
    Probabilities,
    act,
)
from backgammon.bot.answers import cube_answer
from backgammon.bot.bot import CUBE_PLIES
from backgammon.bot.cube import (
    BEAROFF_EFFICIENCY,
    CONTACT_EFFICIENCY,
    cube_efficiency,
    match_decision,
    money_decision,
    money_equity,
)
from backgammon.bot.met import equity_after
from backgammon.bot.network import Array
from backgammon.dice import ManualDice
from backgammon.errors import BackgammonError
from backgammon.game import Action, Game, Phase, Rules
from backgammon.game.match import Match


class FixedEvaluator:
    """Every position has the same probabilities, for its player on roll."""

    def __init__(self, *values: float) -> None:
        self.values = np.array(values, dtype=np.float32)

    def evaluate(self, position: Position) -> Probabilities:
        return Probabilities.from_values(self.values)

    def evaluate_batch(self, positions: Sequence[Position]) -> Array:
        return np.tile(self.values, (len(positions), 1))


def bot_seeing(*values: float) -> Bot:
    return Bot(evaluator=FixedEvaluator(*values))


START = Position.initial()

DOUBLE_TAKE = Probabilities(0.70, 0.05, 0.0, 0.02, 0.0)
DOUBLE_PASS = Probabilities(0.85, 0.10, 0.0, 0.02, 0.0)
TOO_GOOD = Probabilities(0.80, 0.60, 0.05, 0.0, 0.0)
NO_DOUBLE = Probabilities(0.55, 0.10, 0.0, 0.08, 0.0)


# Money play


def test_clear_double_and_take() -> None:
    decision = money_decision(DOUBLE_TAKE, CONTACT_EFFICIENCY)
    assert (decision.action, decision.response) == ("double", "take")
    assert decision.double_take > decision.no_double
    assert decision.double_take < decision.double_drop == 1.0
    assert decision.best == pytest.approx(decision.double_take)


def test_clear_double_and_pass() -> None:
    decision = money_decision(DOUBLE_PASS, CONTACT_EFFICIENCY)
    assert (decision.action, decision.response) == ("double", "drop")
    assert decision.best == 1.0


def test_too_good_to_double() -> None:
    decision = money_decision(TOO_GOOD, CONTACT_EFFICIENCY)
    assert (decision.action, decision.response) == ("too good", "drop")
    assert decision.no_double > 1.0


def test_no_double_yet() -> None:
    decision = money_decision(NO_DOUBLE, CONTACT_EFFICIENCY)
    assert (decision.action, decision.response) == ("no double", "take")


def test_a_beaver_where_the_double_is_a_blunder() -> None:
    weak = Probabilities(0.35, 0.05, 0.0, 0.05, 0.0)
    assert money_decision(weak, CONTACT_EFFICIENCY, CubeContext(beavers=True)).response == "beaver"
    assert money_decision(weak, CONTACT_EFFICIENCY).response == "take"
    # Not where the cube may not reach four times its value.
    capped = CubeContext(beavers=True, max_cube=2)
    assert money_decision(weak, CONTACT_EFFICIENCY, capped).response == "take"


def test_no_double_when_the_opponent_owns_the_cube() -> None:
    decision = money_decision(
        DOUBLE_PASS, CONTACT_EFFICIENCY, CubeContext(owner=CubeOwner.OPPONENT)
    )
    assert decision.action is CubeAction.NO_DOUBLE
    assert math.isnan(decision.double_take) and math.isnan(decision.double_drop)
    # Nor where the cube has reached its highest value.
    capped = CubeContext(value=2, owner=CubeOwner.ON_ROLL, max_cube=2)
    assert money_decision(DOUBLE_PASS, CONTACT_EFFICIENCY, capped).action is CubeAction.NO_DOUBLE


def test_owning_the_cube_is_worth_more_than_a_centred_one() -> None:
    p = Probabilities(0.6, 0.1, 0.0, 0.05, 0.0)
    owned = money_equity(p, CONTACT_EFFICIENCY, CubeOwner.ON_ROLL)
    centred = money_equity(p, CONTACT_EFFICIENCY, CubeOwner.CENTRE)
    facing = money_equity(p, CONTACT_EFFICIENCY, CubeOwner.OPPONENT)
    assert owned > centred > facing


def test_a_dead_cube_is_the_cubeless_equity() -> None:
    assert money_equity(DOUBLE_TAKE, 0.0, CubeOwner.CENTRE) == pytest.approx(DOUBLE_TAKE.equity)


def test_gammonless_take_point_is_a_quarter_with_a_dead_cube() -> None:
    # Cubeless, no gammons: the opponent's equity after the take is 2 × (1 − 2p) against −1
    # for the drop: the double is a drop once p passes 75%.
    assert money_decision(Probabilities(0.74, 0, 0, 0, 0), 0.0).response == "take"
    assert money_decision(Probabilities(0.76, 0, 0, 0, 0), 0.0).response == "drop"


def test_jacoby_makes_too_good_a_double() -> None:
    # Gammons count only once the cube is turned: cash rather than play on for nothing.
    jacoby = CubeContext(jacoby=True)
    assert money_decision(TOO_GOOD, CONTACT_EFFICIENCY, jacoby).action == "double"


def test_cube_efficiency_by_kind_of_position() -> None:
    assert cube_efficiency(START) == CONTACT_EFFICIENCY
    bearoff = Position.from_points({1: 2, 2: 3}, {3: 4})
    assert cube_efficiency(bearoff) == BEAROFF_EFFICIENCY
    long_race = Position.from_points({12: 15}, {6: 15})
    assert cube_efficiency(long_race) == pytest.approx(0.7)  # 180 pips: the cap
    short_race = Position.from_points({7: 2}, {6: 15})  # 14 pips: the floor
    assert cube_efficiency(short_race) == pytest.approx(0.6)


def test_bot_cube_decision_uses_its_evaluation() -> None:
    decision = bot_seeing(0.85, 0.10, 0.0, 0.02, 0.0).cube_decision(START)
    assert decision.action == "double" and decision.response == "drop"
    assert decision.probabilities.win == pytest.approx(0.85)
    decision = bot_seeing(0.5, 0.1, 0.0, 0.1, 0.0).cube_decision(
        START, cube_value=2, cube_owner="on roll"
    )
    assert decision.action == "no double"
    context = CubeContext(value=2, owner=CubeOwner.ON_ROLL)
    assert bot_seeing(0.5, 0.1, 0.0, 0.1, 0.0).cube_decision(START, context) == decision


# Match play


def test_no_double_in_the_crawford_game() -> None:
    cube = CubeContext(match=MatchScore(5, (2, 4), crawford=True))
    decision = match_decision(DOUBLE_PASS, CONTACT_EFFICIENCY, cube)
    assert decision.action is CubeAction.NO_DOUBLE


def test_the_trailer_doubles_at_once_after_the_crawford_game() -> None:
    cube = CubeContext(match=MatchScore(5, (3, 4)))  # 2-away against the leader's 1-away
    decision = match_decision(Probabilities(0.45, 0.1, 0.0, 0.1, 0.0), CONTACT_EFFICIENCY, cube)
    assert decision.action is CubeAction.DOUBLE
    assert decision.response is CubeResponse.TAKE


def test_match_double_take_and_pass() -> None:
    cube = CubeContext(match=MatchScore(7))
    assert match_decision(DOUBLE_TAKE, CONTACT_EFFICIENCY, cube).action == "double"
    decision = match_decision(DOUBLE_PASS, CONTACT_EFFICIENCY, cube)
    assert (decision.action, decision.response) == ("double", "drop")
    assert decision.double_drop == pytest.approx(equity_after(MatchScore(7), won=1))
    assert match_decision(NO_DOUBLE, CONTACT_EFFICIENCY, cube).action == "no double"


def test_last_game_of_the_match_needs_no_cube() -> None:
    # Both 1 away: the game decides the match whatever the cube says.
    cube = CubeContext(match=MatchScore(5, (4, 4)))
    decision = match_decision(DOUBLE_TAKE, CONTACT_EFFICIENCY, cube)
    assert decision.no_double == pytest.approx(DOUBLE_TAKE.win)
    assert decision.action == "no double" and decision.response == "take"


def test_bot_match_cube_decision() -> None:
    bot = bot_seeing(0.85, 0.10, 0.0, 0.02, 0.0)
    decision = bot.cube_decision(START, match_length=7, score=(0, 0))
    assert decision.action == "double" and decision.response == "drop"
    assert bot.cube_decision(START, CubeContext(match=MatchScore(7))) == decision
    with pytest.raises(BackgammonError, match="do not apply in matches"):
        bot.cube_decision(START, CubeContext(match=MatchScore(7), beavers=True))
    with pytest.raises(BackgammonError, match="not both"):
        bot.cube_decision(START, CubeContext(), cube_value=2)
    with pytest.raises(BackgammonError, match="its decision is a match decision"):
        money_decision(DOUBLE_TAKE, CONTACT_EFFICIENCY, CubeContext(match=MatchScore(7)))
    with pytest.raises(BackgammonError, match="its decision is a money decision"):
        match_decision(DOUBLE_TAKE, CONTACT_EFFICIENCY, CubeContext())


# Resignations


def test_resigning_a_lost_game() -> None:
    assert bot_seeing(0.0, 0.0, 0.0, 0.0, 0.0).resignation_to_offer(START) is WinKind.SINGLE
    assert bot_seeing(0.0, 0.0, 0.0, 1.0, 0.0).resignation_to_offer(START) is WinKind.GAMMON
    assert bot_seeing(0.0, 0.0, 0.0, 1.0, 1.0).resignation_to_offer(START) is WinKind.BACKGAMMON
    assert bot_seeing(0.2, 0.0, 0.0, 0.0, 0.0).resignation_to_offer(START) is None
    # Half gammons: a single would be refused, a gammon gives too much.
    assert bot_seeing(0.0, 0.0, 0.0, 0.5, 0.0).resignation_to_offer(START) is None


def test_accepting_a_resignation() -> None:
    # The position is the resigner's, on roll: the bot sees the flipped figures.
    resigner_lost = bot_seeing(0.01, 0.0, 0.0, 0.0, 0.0)
    assert resigner_lost.should_accept_resignation(START, WinKind.SINGLE)
    resigner_gammoned = bot_seeing(0.0, 0.0, 0.0, 0.6, 0.0)
    assert not resigner_gammoned.should_accept_resignation(START, WinKind.SINGLE)
    assert resigner_gammoned.should_accept_resignation(START, WinKind.GAMMON)
    # The bot on roll, its own figures: a single is less than its gammons are worth.
    gammoning = bot_seeing(1.0, 0.6, 0.0, 0.0, 0.0)
    assert not gammoning.should_accept_resignation(START, 1, resigner_on_roll=False)
    assert gammoning.should_accept_resignation(START, 2, resigner_on_roll=False)


def test_resignations_in_a_match() -> None:
    lost = bot_seeing(0.0, 0.0, 0.0, 0.3, 0.0)
    # At 4-away 1-away a gammon costs no more than a single game: resign the single.
    four_away = CubeContext(match=MatchScore(5, (1, 4)))
    assert lost.resignation_to_offer(START, four_away) is WinKind.SINGLE
    assert lost.resignation_to_offer(START) is None  # money: the gammons matter
    # The answer is for the bot; the position and the cube are its player on roll's.
    # The bot on roll wins, 30% of games with a gammon: 1 away, a single game is enough.
    gammoning = bot_seeing(1.0, 0.3, 0.0, 0.0, 0.0)
    assert not gammoning.should_accept_resignation(START, 1, False)
    assert not gammoning.should_accept_resignation(START, 1, False, four_away)
    assert gammoning.should_accept_resignation(START, 1, False, four_away.flip())
    # The same game with the resigner on roll, the cube seen by the resigner.
    gammoned = bot_seeing(0.0, 0.0, 0.0, 0.3, 0.0)
    assert gammoned.should_accept_resignation(START, 1, True, four_away)
    assert not gammoned.should_accept_resignation(START, 1, True, four_away.flip())


def test_resignations_under_the_jacoby_rule() -> None:
    # Gammons count single while the cube is centred: a single game gives all there is.
    gammoned = bot_seeing(0.0, 0.0, 0.0, 0.6, 0.0)
    assert gammoned.resignation_to_offer(START) is None
    assert gammoned.resignation_to_offer(START, CubeContext(jacoby=True)) is WinKind.SINGLE
    assert gammoned.should_accept_resignation(START, 1, True, CubeContext(jacoby=True))


# Bots and the cube through the engine


def test_bots_double_and_drop_through_the_engine() -> None:
    game = Game(dice=ManualDice(["6 1", "5 2"]))
    bot = bot_seeing(0.85, 0.10, 0.0, 0.02, 0.0)
    game.roll(0)
    game.play(0, "13/7 8/7")
    assert act(bot, game, 1) is Action.DOUBLE
    assert act(bot, game, 0) is Action.DROP
    assert game.result is not None and game.result.reason == "drop" and game.result.winner == 1


def test_bot_takes_and_rolls() -> None:
    game = Game(dice=ManualDice(["6 1", "5 2"]))
    bot = bot_seeing(0.70, 0.05, 0.0, 0.02, 0.0)
    game.roll(0)
    game.play(0, "13/7 8/7")
    assert act(bot, game, 1) is Action.DOUBLE
    assert act(bot, game, 0) is Action.TAKE
    assert (game.cube_value, game.cube_owner) == (2, 0)
    assert act(bot, game, 1) is Action.ROLL  # the cube is the opponent's now
    assert game.phase is Phase.MOVE


def test_bot_beavers_and_the_doubler_takes_the_beaver() -> None:
    # The doubler then plays on at 4 facing the cube (about -1.6 a cube) rather than pay 2.
    game = Game(Rules(beavers=True), dice=ManualDice(["6 1"]))
    bot = bot_seeing(0.40, 0.05, 0.0, 0.05, 0.0)
    game.roll(0)
    game.play(0, "13/7 8/7")
    game.double(1)  # a blunder by seat 1, on roll with 40%
    assert act(bot, game, 0) is Action.BEAVER
    assert act(bot, game, 1) is Action.TAKE
    assert (game.cube_value, game.cube_owner) == (4, 0)


def test_bot_resigns_and_the_other_bot_accepts() -> None:
    game = Game(dice=ManualDice(["6 1"]))
    hopeless = bot_seeing(0.0, 0.0, 0.0, 0.0, 0.0)  # seat 1 on roll has no chance
    game.roll(0)
    game.play(0, "13/7 8/7")
    assert act(hopeless, game, 1) is Action.RESIGN
    assert act(hopeless, game, 0) is Action.ACCEPT
    assert game.result is not None and game.result.reason == "resign"


def test_a_refused_resignation_is_not_offered_again() -> None:
    game = Game(dice=ManualDice(["6 1", "5 2"]))
    game.roll(0)
    game.play(0, "13/7 8/7")
    assert act(bot_seeing(0.0, 0.0, 0.0, 0.0, 0.0), game, 1) is Action.RESIGN
    # A bot that expects a gammon refuses a single game.
    assert act(bot_seeing(0.0, 0.0, 0.0, 0.6, 0.0), game, 0) is Action.REJECT
    assert act(bot_seeing(0.0, 0.0, 0.0, 0.0, 0.0), game, 1) is Action.ROLL


def test_bots_use_the_match_score() -> None:
    match = Match(5, dice=ManualDice(["6 1"]))
    game = match.game
    game.roll(0)
    game.play(0, "13/7 8/7")
    # Seat 1 with 70%: at 0-0 in a 5-point match the bot doubles.
    assert act(bot_seeing(0.70, 0.05, 0.0, 0.02, 0.0), game, 1) is Action.DOUBLE


def test_two_away_two_away_take_point_is_the_crawford_score() -> None:
    # Taken, the cube on 2 decides the match; dropped, the taker is 2-away against 1-away in
    # the Crawford game (32.264%). So the taker needs 32.264% in the game.
    cube = CubeContext(match=MatchScore(5, (3, 3)))
    assert match_decision(Probabilities(0.67, 0, 0, 0, 0), 0.68, cube).response == "take"
    assert match_decision(Probabilities(0.68, 0, 0, 0, 0), 0.68, cube).response == "drop"


def test_fully_live_gammonless_take_point_is_a_fifth() -> None:
    # (L - 1/2) / (W + L + 1/2) with W = L = 1.
    assert money_decision(Probabilities(0.79, 0, 0, 0, 0), 1.0).response == "take"
    assert money_decision(Probabilities(0.81, 0, 0, 0, 0), 1.0).response == "drop"


def test_each_level_takes_its_cube_decisions_at_its_own_depth() -> None:
    assert [Bot(level=level).cube_plies for level in Level] == [CUBE_PLIES[lv] for lv in Level]
    # The computer at "advanced" plays at 0-ply and weighs the cube at 2-ply.
    advanced = Bot(level="advanced")
    assert (advanced.plies, advanced.cube_plies) == (0, 2)
    position = Position.from_id("4HPwATDgc/ABMA")  # the start: a position the plies judge apart
    assert advanced.cube_decision(position).probabilities == (
        Bot(plies=2).cube_decision(position).probabilities
    )
    assert advanced.cube_decision(position).probabilities != (
        Bot(plies=0).cube_decision(position).probabilities
    )
    # An answer at a stated depth (hints, the engine API) is at that depth.
    assert cube_answer(advanced, position) == cube_answer(Bot(plies=0), position)
    # A depth given sets the cube's too, unless the cube's is given as well.
    assert Bot(level="advanced", plies=1).cube_plies == 1
    assert Bot(plies=1, cube_plies=3).cube_plies == 3
    with pytest.raises(BackgammonError, match="0 to 3 plies; got 4"):
        Bot(cube_plies=4)
