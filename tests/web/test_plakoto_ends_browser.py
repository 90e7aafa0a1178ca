"""Plakoto's two endings other than bearing off, as the page tells them: a mother pinned (the
last checker on a player's starting point: the game is lost), and both mothers pinned (a
draw, no one scores).

A game at one screen takes no engine's choice, so it is found here by the rules alone: the
first seeded dice under which a game of random plays (seeded too) ends the wanted way, its
actions replayed through the API on a match made with the same dice seed, the page open."""

from __future__ import annotations

import random
from typing import Any

import pytest
from browser_support import TOKENS, act_with, match_url, post

from backgammon.dice import SeededDice
from backgammon.game import BoardGame, Phase, Rules


def game_ending(reason: str) -> tuple[int, list[dict[str, Any]]]:
    """The first dice seed under which a game of Plakoto, each play drawn at random with the
    same seed, ends for ``reason``; and that game's actions, as the API takes them."""
    for seed in range(200):
        game, rng = BoardGame(Rules.for_game("plakoto"), SeededDice(seed)), random.Random(seed)
        actions: list[dict[str, Any]] = []
        while game.phase is not Phase.OVER:
            seat = game.player_to_act if game.player_to_act is not None else 0
            if game.phase in (Phase.OPENING, Phase.ROLL):
                game.roll(seat)
                actions.append({"seat": seat, "action": "roll"})
            elif game.phase is Phase.MOVE:
                assert game.turn is not None
                play = str(rng.choice(game.turn.plays))
                game.play(seat, play)
                actions.append({"seat": seat, "action": "play", "play": play})
            else:
                game.confirm(seat)
                actions.append({"seat": seat, "action": "confirm"})
        assert game.result is not None
        if game.result.reason == reason:
            return seed, actions
    raise AssertionError(f"no game of the first 200 seeds ends by {reason}")


@pytest.mark.parametrize(("reason", "why"), [
    ("mother", "{loser}'s mother, the last checker on their starting point, was pinned."),
    ("draw", ""),
])
def test_the_page_tells_how_a_game_of_plakoto_ended(server: str, page: Any, reason: str,
                                                    why: str) -> None:
    seed, actions = game_ending(reason)
    match_id = post(server, "/api/matches", {"opponent": "human", "game": "plakoto",
                                             "length": 1, "seed": seed})["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('#board [data-place="p24"][data-count="15"]')
    for action in actions:
        state = act_with(server, match_id, TOKENS[match_id][0], action)
    assert state["result"]["reason"] == reason
    page.wait_for_selector("#game-end:not([hidden])")
    if reason == "draw":  # no one scores: the match of one point goes on to another game
        assert not state["match_over"] and state["score"] == [0, 0]
        assert page.inner_text("#game-end-heading") == "Game over"
        assert page.inner_text("#game-end-result") == (
            "The game is a draw: both mothers are pinned, and no one scores.")
        assert page.is_hidden("#game-end-why") and page.is_visible("#next-game")
    else:
        assert state["match_over"]
        assert page.inner_text("#game-end-heading") == "Match over"
        loser = ("White", "Black")[1 - state["result"]["winner"]]
        assert page.inner_text("#game-end-why") == why.format(loser=loser)
    # The record ends as the game did: its last line is the result.
    assert page.locator("#record li").count() == len(state["record"][0]["entries"]) + 1
