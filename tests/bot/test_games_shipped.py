"""The shipped networks of the other games (``bot/weights/games-*.npz``) load and play at
every level, through ``games_player``, as the game machine will call it."""

from __future__ import annotations

import random

import pytest
from test_games_kernel import OTHER_GAMES, random_boards

from backgammon.bot import Level
from backgammon.bot.games.shipped import SHIPPED, games_player, shipped_network
from backgammon.bot.kernel import players as kp
from backgammon.errors import BackgammonError
from backgammon.games import rules_for


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_the_shipped_networks_play_every_level(game: str) -> None:
    assert SHIPPED[game] == f"games-{game}.npz"
    rules = rules_for(game)
    board = random_boards(game, 50)[40]
    plays = rules.legal_plays(board, (4, 2)) or rules.legal_plays(board, (6, 6))
    for level in Level:
        player = games_player(game, level)
        assert player.choose(rules, plays, random.Random(1)) in plays
        assert 1 <= player.name_double(rules, board, random.Random(1)) <= 6
    assert shipped_network(game).w1.shape[0] == kp.INPUTS


def test_a_game_without_a_shipped_network_is_refused() -> None:
    with pytest.raises(BackgammonError, match="No network is shipped"):
        shipped_network("standard")
    with pytest.raises(ValueError):
        games_player("fevga", "grandmaster")
