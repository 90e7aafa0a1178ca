"""The other games as state machines (``BoardGame``): played start to finish through every
kind of action, their records replayed, and the rules that only a game machine has (the
named double after an Acey-deucey 1-2, the levels a game can score, the cube)."""

from __future__ import annotations

import random

import pytest
from support import play_board_game_at_random

from backgammon.dice import ManualDice, SeededDice
from backgammon.errors import BackgammonError, IllegalPlayError
from backgammon.game import BoardGame, Game, IllegalActionError, Phase, Rules
from backgammon.game.match import BoardMatch
from backgammon.games import GAMES, TAVLI, Board, rules_for
from backgammon.games.turn import GameTurn
from backgammon.position import WinKind

OTHER_GAMES = GAMES[3:]


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_each_game_plays_to_its_end_and_its_record_replays(name: str) -> None:
    rng = random.Random(name)
    endings = set()
    for seed in range(8):
        game = BoardGame(Rules.for_game(name), SeededDice(seed))
        play_board_game_at_random(game, rng, undo=0.2)
        result = game.result
        assert result is not None and result.points in rules_for(name).points.values()
        endings.add(result.reason)
        again = BoardGame.from_json(game.to_json())
        assert (again.position, again.result, again.events) == (game.position, result,
                                                                game.events)
        assert game.copy().result == result
    assert endings <= {"bear off", "mother", "draw"}


def completed(turn: GameTurn, made: dict[Board, Board]) -> dict[Board, Board]:
    """Every play ``turn``'s steps complete, by any order of them: its result, and the board
    the steps left (the mover's view)."""
    if turn.is_complete:
        made[turn.play().result] = turn.current()
    for step in turn.legal_steps():
        completed(turn.step(*step), made)
    return made


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_every_order_of_steps_makes_exactly_the_games_legal_plays(name: str) -> None:
    """GameTurn offers a step only when it can be completed, and every legal play can be made
    step by step and written in any order of its steps."""
    rules = rules_for(name)
    rng = random.Random(7)
    board = rules.initial()
    for _ in range(60):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        turn = GameTurn(rules, board, dice)  # type: ignore[arg-type]
        made = completed(turn, {})
        assert set(made) == {play.result for play in turn.plays} or not turn.plays
        for result, current in made.items():
            assert current.flip() == result
        for play in turn.plays:
            assert turn.parse(" ".join(reversed(str(play).split()))).result == play.result
        play = rng.choice(turn.plays) if turn.plays else None
        board = play.result if play is not None else board.flip()
        if rules.outcome(board) is not None:
            board = rules.initial()


def test_a_step_or_a_play_the_rules_forbid_is_refused_with_the_steps_allowed() -> None:
    game = BoardGame(Rules.for_game("fevga"), ManualDice(["6 5", "6 5"]))
    game.roll(0)
    game.roll(0)  # Fevga's winner throws afresh
    with pytest.raises(IllegalPlayError, match="allowed are: 24/19, 24/18"):
        game.step(0, 13, 8)
    with pytest.raises(IllegalPlayError, match="not a legal play of 6-5"):
        game.play(0, "24/18 24/19")  # one checker leaves the start until it passes theirs
    with pytest.raises(IllegalPlayError, match="written as its steps"):
        game.play(0, "<script>")
    assert game.phase is Phase.MOVE and len(game.events) == 2


def test_acey_deucey_after_a_1_2_names_a_double_plays_it_and_rolls_again() -> None:
    game = BoardGame(Rules.for_game("acey-deucey"), ManualDice(["4 3", "2 1", "5 5"]))
    game.roll(0)                      # the opening: seat 0 wins, and throws afresh
    game.roll(0)                      # a 1-2
    game.play(0, "bar/24 bar/23")
    assert (game.phase, game.on_roll, game.player_to_act) == (Phase.NAME, 0, 0)
    with pytest.raises(IllegalActionError, match="It is seat 0's turn"):
        game.name(1, 6)
    with pytest.raises(IllegalActionError):
        game.roll(0)
    game.name(0, 6)
    assert game.dice == (6, 6) and game.phase is Phase.MOVE
    game.play(0, "bar/19(4)")
    assert (game.phase, game.on_roll) == (Phase.ROLL, 0)  # all four played: throw again
    game.roll(0)
    game.play(0, "bar/20(2) 19/14(2)")
    assert (game.phase, game.on_roll) == (Phase.ROLL, 1)
    assert [event.action.value for event in game.events] == [
        "roll", "roll", "play", "name", "play", "roll", "play"]
    assert BoardGame.from_json(game.to_json()).position == game.position


def test_a_name_is_refused_outside_acey_deucey_and_a_die_is_one_to_six() -> None:
    game = BoardGame(Rules.for_game("acey-deucey"), ManualDice(["4 3", "2 1"]))
    with pytest.raises(IllegalActionError, match="after a 1-2 is played in Acey-deucey"):
        game.name(0, 3)
    backgammon = Game(dice=ManualDice(["6 1"]))
    backgammon.roll(0)
    with pytest.raises(IllegalActionError, match="after a 1-2"):
        backgammon.name(0, 3)
    game.roll(0)
    game.roll(0)
    game.play(0, "bar/24 bar/23")
    with pytest.raises(BackgammonError, match="die"):
        game.name(0, 7)
    assert game.phase is Phase.NAME


def test_a_resignation_offers_no_more_than_the_game_scores() -> None:
    game = BoardGame(Rules.for_game("tavla"), ManualDice(["6 5", "3 1"]))
    game.roll(0)
    game.roll(0)
    with pytest.raises(IllegalActionError, match="scores no backgammon: offer a single game"):
        game.resign(0, WinKind.BACKGAMMON)
    game.resign(0, WinKind.GAMMON)
    game.accept(1)
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (1, 2, "resign")


def test_the_cube_is_refused_where_the_game_has_none() -> None:
    with pytest.raises(BackgammonError, match="Long Nardy is played without the cube"):
        Rules(game="long-nardy")
    with pytest.raises(BackgammonError, match="No game is called"):
        Rules.for_game("chess")
    with pytest.raises(BackgammonError, match=r"Rules\.for_game"):
        BoardGame(Rules())
    game = BoardGame(Rules.for_game("portes"), ManualDice(["6 5"]))
    game.roll(0)
    with pytest.raises(IllegalActionError):
        game.double(0)


def test_plakoto_scores_a_pinned_mother_two_points() -> None:
    # Seat 0's last checker on its starting point (24), seat 1 two pips away with none left
    # on its own start: seat 1 pins the mother and wins two points at once.
    start = Board.from_points({24: 1, 6: 14}, {2: 1, 5: 14})
    game = BoardGame(Rules.for_game("plakoto"), ManualDice(["1 2", "1 1"]), start=start)
    game.roll(0)  # seat 1 wins the opening, and throws afresh
    game.roll(1)
    assert game.turn is not None
    pins = [play for play in game.turn.plays if any(step.hit for step in play.steps)]
    game.play(1, str(pins[0]))
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (1, 2, "mother")
    assert game.result.kind is WinKind.GAMMON


def test_a_saved_board_game_with_a_garbled_start_is_refused() -> None:
    game = BoardGame(Rules.for_game("plakoto"))
    data = game.to_dict()
    data["start"]["board"]["mine"] = [1, 2]
    with pytest.raises(BackgammonError, match="26 whole numbers"):
        BoardGame.from_dict(data)
    del data["start"]["board"]["pinned"]
    with pytest.raises(BackgammonError, match="A saved board"):
        BoardGame.from_dict(data)


def test_a_tavli_match_plays_portes_plakoto_and_fevga_in_turn_to_its_end() -> None:
    rng = random.Random(3)
    match = BoardMatch(5, rotation=TAVLI, dice=SeededDice(11))
    while not match.is_over:
        play_board_game_at_random(match.game, rng, undo=0.2)
    names = [game.game.name for game in match.games]
    assert names == [TAVLI[i % 3] for i in range(len(names))] and len(names) >= 3
    assert max(match.score) >= 5 and match.winner == match.score.index(max(match.score))
    assert sum(game.result.points for game in match.games if game.result) == sum(match.score)
    again = BoardMatch.from_json(match.to_json())
    assert (again.score, again.winner, [g.position for g in again.games]) == (
        match.score, match.winner, [g.position for g in match.games])


def test_a_board_match_refuses_what_it_cannot_play() -> None:
    with pytest.raises(BackgammonError, match="No game is called"):
        BoardMatch(5, rotation=["portes", "chess"])
    with pytest.raises(BackgammonError, match="list of their names"):
        BoardMatch(5, rotation="portes")
    with pytest.raises(BackgammonError, match="one of the other games"):
        BoardMatch(5)
    match = BoardMatch(3, Rules.for_game("long-nardy"))
    assert [match.rules_of(i).game for i in range(2)] == ["long-nardy", "long-nardy"]
