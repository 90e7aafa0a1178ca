"""The engine's judgement of the other games' decisions (``bot/games/judge.py``) and its
one-ply lookahead: every play ranked with its equity in points and its loss, the best the
computer's own play at 0-ply and at 1-ply, a play that ends the game worth its points, the
kernel's lookahead the Python one's, the levels above ``advanced`` searching; and the
reasons said for these games' plays (``analysis/reasons/board_plays.py``)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_games_kernel import OTHER_GAMES, random_boards

from backgammon.analysis.reasons import (
    LANGUAGES,
    Code,
    Reason,
    board_hints_reasons,
    say_all,
    what_board_play_does,
)
from backgammon.bot.games import games_player, judge_doubles, judge_plays
from backgammon.bot.games.compiled import compiled_match
from backgammon.bot.games.shipped import shipped_network
from backgammon.bot.games.td import WIDTH, Network, TDPlayer, encode, rank, reply_values
from backgammon.games import Board, rules_for

#: Boards a game on which the lookaheads are compared.
BOARDS = 25


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_every_play_ranked_best_first_with_its_loss(game: str) -> None:
    rules = rules_for(game)
    computer = games_player(game)
    for board in random_boards(game)[:40]:
        plays = rules.legal_plays(board, (5, 2))
        if len(plays) < 2:
            continue
        ranked = judge_plays(rules, plays)
        assert sorted(map(str, (j.play for j in ranked))) == sorted(map(str, plays))
        assert ranked[0].loss == 0 and all(j.plies == 0 for j in ranked)
        assert [j.loss for j in ranked] == sorted(j.loss for j in ranked)
        for judged in ranked:
            assert judged.loss == pytest.approx(ranked[0].equity - judged.equity)
        assert ranked[0].play == computer.choose(rules, plays, random.Random(0))


def test_a_play_that_ends_the_game_scores_its_points() -> None:
    rules = rules_for("portes")
    # Two checkers left to bear off, the opponent with none off: a gammon.
    board = Board.from_points({1: 1, 2: 1}, {13: 15})
    ranked = judge_plays(rules, rules.legal_plays(board, (2, 1)))
    assert ranked[0].equity == 2.0 and ranked[0].plies == 0


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_one_ply_ranks_the_searched_plays_first_and_plays_the_best(game: str) -> None:
    rules = rules_for(game)
    deeper = games_player(game, "world-class")
    seen = 0
    for board in random_boards(game)[:BOARDS]:
        plays = rules.legal_plays(board, (6, 4))
        if len(plays) < 2:
            continue
        ranked = judge_plays(rules, plays, plies=1)
        searched = min(WIDTH, len(plays))
        assert [j.plies for j in ranked[:searched]] in ([1] * searched, [0] * searched) or \
            any(rules.outcome(j.play.result) for j in ranked[:searched])
        assert all(j.plies == 0 for j in ranked[searched:])
        assert ranked[0].play == deeper.choose(rules, plays, random.Random(0))
        seen += 1
    assert seen > 5


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_the_kernels_lookahead_is_the_python_one(game: str) -> None:
    """The compiled match's 1-ply player chooses as TDPlayer(plies=1) does: its reply values
    are the mean of the opponent's best replies by the network, checked here by hand."""
    rules = rules_for(game)
    net = Network.fresh(8, seed=3)
    for board in random_boards(game)[:6]:
        if rules.outcome(board) is not None:
            continue
        expected = 0.0
        for a in range(1, 7):
            for b in range(a, 7):
                replies = rules.legal_plays(board, (a, b))
                if replies:
                    best = rank(rules, net, replies)[0]
                    value = best.value
                else:
                    value = -float(net.values(encode(rules, [board.flip()]))[0])
                expected += value * (1 if a == b else 2) / 36
        got = reply_values(rules, net, [board])[0]
        assert got == pytest.approx(expected, abs=1e-9)
    # And the compiled duel's lookahead player plays every game to its end, replaying.
    one = TDPlayer(net, plies=1)
    first = compiled_match(rules, one, TDPlayer(net), 4, seed=5)
    assert first.scores == compiled_match(rules, one, TDPlayer(net), 4, seed=5).scores


def test_the_named_double_ranked_as_the_computer_names_it() -> None:
    rules = rules_for("acey-deucey")
    computer = games_player("acey-deucey")
    for board in random_boards("acey-deucey")[:15]:
        judged = judge_doubles(rules, board)
        assert sorted(j.die for j in judged) == [1, 2, 3, 4, 5, 6]
        assert judged[0].loss == 0 and all(j.loss >= 0 for j in judged)
        if any(j.play for j in judged):
            assert judged[0].die == computer.name_double(rules, board, random.Random(0))


def test_the_levels_above_advanced_look_one_ply_ahead() -> None:
    assert [games_player("fevga", level).plies for level in
            ("beginner", "advanced", "expert", "world-class")] == [0, 0, 1, 1]
    with pytest.raises(ValueError, match="1-ply"):
        TDPlayer(shipped_network("fevga"), noise=0.1, plies=1)


def test_reasons_for_a_hit_a_pin_a_mother_and_bearing_off() -> None:
    portes = rules_for("portes")
    hit = portes.legal_plays(Board.from_points({8: 2, 6: 5, 13: 8}, {20: 1, 1: 14}),
                             (3, 1))
    hitting = next(p for p in hit if str(p) == "8/5* 6/5")
    assert what_board_play_does(portes, hitting)[:2] == [
        Reason(Code.HITS, checkers=1), Reason(Code.MAKES_POINT, point=5)]
    plakoto = rules_for("plakoto")
    board = Board.from_points({24: 14, 13: 1}, {24: 14, 7: 1})
    pinning = next(p for p in plakoto.legal_plays(board, (6, 5)) if "*" in str(p))
    assert Reason(Code.PINS, checkers=1) in what_board_play_does(plakoto, pinning)
    # A checker 6 pips before the 24-point: the mother left alone there can be pinned.
    board = Board.from_points({24: 2, 13: 13}, {24: 14, 7: 1})
    for play in plakoto.legal_plays(board, (5, 4)):
        exposed = Reason(Code.MOTHER_EXPOSED) in what_board_play_does(plakoto, play)
        assert exposed == (play.result.flip().mine[24] == 1), play
    racing = Board.from_points({1: 2, 2: 1}, {13: 15})
    off = portes.legal_plays(racing, (2, 1))[0]
    assert Reason(Code.BEARS_OFF, checkers=2) in what_board_play_does(portes, off)


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_every_ranked_play_has_reasons_said_in_each_language(game: str) -> None:
    rules = rules_for(game)
    for board in random_boards(game)[:10]:
        plays = rules.legal_plays(board, (3, 3))
        if len(plays) < 2:
            continue
        ranked = judge_plays(rules, plays)[:5]
        reasons = board_hints_reasons(rules, ranked)
        assert len(reasons) == len(ranked) and all(reasons)
        for lang in LANGUAGES:
            assert all(say_all(why, lang) for why in reasons)


def test_a_fresh_network_ranks_as_the_zero_ply_player() -> None:
    rules = rules_for("tavla")
    net = Network.fresh(8, seed=1)
    plays = rules.legal_plays(rules.initial(), (6, 5))
    order = [r.index for r in rank(rules, net, plays)]
    values = -net.values(encode(rules, [p.result for p in plays]))
    assert order == sorted(range(len(plays)), key=lambda i: -values[i])
    assert np.argmax(values) == order[0]
