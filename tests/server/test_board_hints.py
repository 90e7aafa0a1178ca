"""Hints in the other games through the API (``GET /api/matches/{id}/hint``): the plays of
the roll ranked by the game's engine with their equities in points and reasons in the
page's language, from the turn's start once steps are made; after an Acey-deucey 1-2 the
doubles to name; refused with a sentence where there is nothing to judge (tests/server/
test_board_games.py), and for a token that does not hold the seat."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_api import act, client_for, create, opening, settled
from test_board_games import ACEY_DEUCEY_SEED, GAMES, next_action

from backgammon.bot.games import games_player
from backgammon.game import Phase

State = dict[str, Any]


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with client_for(tmp_path / "hints.sqlite") as test_client:
        yield test_client


def hint(client: Any, match_id: str, **params: Any) -> Any:
    return client.get(f"/api/matches/{match_id}/hint", params=params)


def to_move(client: Any, game: str, seed: int = 5) -> tuple[str, State]:
    """A match of ``game`` at one screen, rolled to a move."""
    match_id = create(client, game=game, seed=seed)["id"]
    state = opening(client, match_id)
    while state["phase"] != "move":
        state = act(client, match_id, **next_action(state))
    return match_id, state


@pytest.mark.parametrize("game", GAMES)
def test_a_hint_ranks_the_plays_by_points(client: Any, game: str) -> None:
    match_id, state = to_move(client, game)
    response = hint(client, match_id)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["kind"] == "move" and answer["seat"] == state["to_act"]
    assert answer["version"] == state["version"] and answer["doubles"] == []
    plays = answer["plays"]
    assert 1 <= len(plays) <= 5 and plays[0]["difference"] == 0
    assert [p["equity"] for p in plays] == sorted((p["equity"] for p in plays), reverse=True)
    for play in plays:
        assert play["chances"] is None and play["difference"] <= 0
        assert -3 <= play["equity"] <= 3 and play["reasons"]
        assert play["steps"] and play["remaining"] == play["steps"]
    # The best is the play the computer makes at its strongest level.
    assert plays[0]["play"] == _computer_play(client, match_id)


def _computer_play(client: Any, match_id: str) -> str:
    """The play of the strongest computer for the game's board and dice now."""
    record = client.get(f"/api/matches/{match_id}/record").json()
    from backgammon.game.match import BoardMatch

    match = BoardMatch.from_dict(record)
    game = match.game
    assert game.phase is Phase.MOVE and game.turn is not None
    player = games_player(game.game.name, "strongest")
    return str(player.choose(game.game, game.turn.plays, random.Random(0)))


def test_the_reasons_are_said_in_the_language_asked(client: Any) -> None:
    match_id, _ = to_move(client, "portes")
    english = hint(client, match_id).json()["plays"]
    persian = hint(client, match_id, lang="fa").json()["plays"]
    assert [p["play"] for p in english] == [p["play"] for p in persian]
    assert english[0]["reasons"] != persian[0]["reasons"]
    assert hint(client, match_id, lang="xx").status_code == 422


def test_once_a_step_is_made_the_plays_start_from_the_turn(client: Any) -> None:
    match_id, state = to_move(client, "tavla")
    step = state["steps"][0]
    state = act(client, match_id, seat=state["to_act"], action="step", **{
        "from": step["from"], "to": step["to"]})
    answer = hint(client, match_id).json()
    assert answer["from_turn_start"] and [
        (s["from"], s["to"]) for s in answer["made"]] == [(step["from"], step["to"])]
    for play in answer["plays"]:
        moves = [(s["from"], s["to"]) for s in play["steps"]]
        if (step["from"], step["to"]) in moves:
            assert play["remaining"] is not None
            assert len(play["remaining"]) == len(play["steps"]) - 1
        else:
            assert play["remaining"] is None


def test_after_a_1_2_the_doubles_to_name_are_ranked(client: Any) -> None:
    state = create(client, game="acey-deucey", seed=ACEY_DEUCEY_SEED)
    match_id = state["id"]
    opening(client, match_id)
    state = act(client, match_id, seat=0, action="roll")
    while state["phase"] in ("move", "confirm"):
        state = act(client, match_id, **next_action(state, 0))
    assert state["phase"] == "name"
    answer = hint(client, match_id).json()
    assert answer["kind"] == "double" and answer["plays"] == [] and answer["dice"] is None
    doubles = answer["doubles"]
    assert sorted(d["die"] for d in doubles) == [1, 2, 3, 4, 5, 6]
    assert doubles[0]["difference"] == 0 and all(d["difference"] <= 0 for d in doubles)
    assert all(d["play"] is None or "/" in d["play"] for d in doubles)


def test_no_hint_without_the_seats_token(client: Any) -> None:
    state = create(client, opponent="computer", game="fevga", seed=4)
    match_id = state["id"]
    opening(client, match_id)
    state = settled(client, match_id)
    while state["phase"] != "move":
        act(client, match_id, **next_action(state, 0))
        state = settled(client, match_id)
    assert hint(client, match_id).status_code == 200
    token = client.headers.pop("Authorization")
    assert hint(client, match_id).status_code == 401
    create(client, game="fevga", seed=4)  # the token of another match
    response = hint(client, match_id)
    assert response.status_code == 403, response.text
    client.headers["Authorization"] = token
    assert hint(client, match_id).status_code == 200


def test_no_hint_in_an_online_match_between_people_until_it_is_over(client: Any) -> None:
    """Fair play: the refusal backgammon's online matches get holds for these games' (here
    a match at one screen is marked online, as a match between two people is)."""
    match_id, _ = to_move(client, "plakoto")
    live = client.app.state.store.cached(match_id)
    assert live is not None and live.board_game
    live.seating.online = True
    response = hint(client, match_id)
    assert response.status_code == 403, response.text
    assert response.json()["detail"].startswith(
        "Hints are off in an online match between people until the match is over")
    live.seating.practice = True  # both players agreed to a practice match
    assert hint(client, match_id).status_code == 200
