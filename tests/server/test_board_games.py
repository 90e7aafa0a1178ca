"""The other games played on the board (Portes, Tavla, Plakoto, Fevga, Long Nardy, Acey-deucey,
and a Tavli match of three in turn) through the API, on SQLite: against the computer to the
end, at one screen, refused with a sentence where they have no meaning, and reloaded after a
restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_api import act as act_on
from test_api import client_for, create, opening, refused, settled, state_of

from backgammon.games import Board, Travel
from backgammon.server.play.board_views import game_board_view, game_step_view

State = dict[str, Any]
GAMES = ("portes", "tavla", "plakoto", "fevga", "long-nardy", "acey-deucey")
#: Seeded dice under which seat 0 wins Acey-deucey's opening and then rolls a 1-2.
ACEY_DEUCEY_SEED = 62


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with client_for(tmp_path / "games.sqlite") as test_client:
        yield test_client


def act(client: Any, match_id: str, **action: Any) -> State:
    return act_on(client, match_id, **action)


def next_action(state: State, seat: int | None = None) -> dict[str, Any]:
    """A simple player: roll, name a six after a 1-2, confirm, or else make the first step
    offered."""
    if seat is None:
        seat = state["to_act"] if state["to_act"] is not None else 0
    actions = state["actions"][seat]
    if "roll" in actions:
        return {"seat": seat, "action": "roll"}
    if "name" in actions:
        return {"seat": seat, "action": "name", "die": 6}
    if "confirm" in actions:
        return {"seat": seat, "action": "confirm"}
    step = state["steps"][0]
    return {"seat": seat, "action": "step", "from": step["from"], "to": step["to"]}


@pytest.mark.parametrize("game", GAMES)
def test_a_game_is_played_to_its_end_against_the_computer(client: Any, game: str) -> None:
    state = create(client, opponent="computer", game=game, length=1, seed=3)
    match_id = state["id"]
    assert state["game"] == game and state["rotation"] is None
    assert state["gnubg_id"] is None and state["xgid"] is None
    assert state["cube"]["used"] is False
    opening(client, match_id)
    for _ in range(3000):
        state = settled(client, match_id)
        if state["match_over"]:
            break
        state = act(client, match_id, **next_action(state, 0))
    assert state["match_over"]
    result = state["record"][0]["result"]
    assert state["score"][result["winner"]] == result["points"] >= 1
    kinds = {entry["kind"] for entry in state["record"][0]["entries"]}
    assert {"opening", "play"} <= kinds
    players = {entry["seat"] for entry in state["record"][0]["entries"] if entry["kind"] == "play"}
    assert players == {0, 1}
    record = client.get(f"/api/matches/{match_id}/record").json()
    assert record["rules"]["game"] == game
    if game in ("plakoto", "fevga", "long-nardy"):  # no checker is ever hit: pinned or held
        steps = [step for entry in state["record"][0]["entries"] for step in entry["steps"] or ()]
        assert steps and not any(step["hit"] for step in steps)


@pytest.mark.parametrize("game", (*GAMES, "tavli"))
def test_a_game_is_played_to_its_end_at_one_screen(client: Any, game: str) -> None:
    """Both seats at this screen, one token: each acts in turn to the game's end."""
    state = create(client, game=game, length=1, seed=11)
    match_id = state["id"]
    assert state["actions"] == [["roll"], ["roll"]]
    state = opening(client, match_id)
    for _ in range(3000):
        if state["match_over"]:
            break
        state = act(client, match_id, **next_action(state))
    assert state["match_over"] and state["seats"][1]["kind"] == "human"
    result = state["record"][0]["result"]
    assert state["score"][result["winner"]] == result["points"] >= 1
    assert state["game"] == ("portes" if game == "tavli" else game)


def test_the_board_of_a_game_travelling_the_same_way() -> None:
    """Fevga's start: each side on its own 24 point, which is the other's 12."""
    from backgammon.games import rules_for

    view = game_board_view(rules_for("fevga").initial(), 1, Travel.SAME)
    assert view.points[23].model_dump() == {"seat": 1, "count": 15}
    assert view.points[11].model_dump() == {"seat": 0, "count": 15}
    assert view.travel == "same" and view.pinned == [] and view.waiting == [0, 0]
    # Seat 1's 24 -> 20 is on seat 0's board 12 -> 8, where seat 0 sees it.
    step = game_step_view(24, 20, 1, 0, Travel.SAME)
    assert (step.board_from, step.board_to) == (12, 8)


def test_a_pinned_checker_lies_under_its_pinner() -> None:
    """Plakoto: seat 0's lone checker on its 24 point pinned under seat 1's on its 1 point,
    and seat 1's on its 13 (seat 0's 12) pinned under seat 0's two."""
    board = Board.from_points({24: 1, 12: 2}, {1: 1, 13: 1}, mine_pinned=[24],
                              theirs_pinned=[13], checkers=3)
    view = game_board_view(board, 0, Travel.OPPOSITE)
    assert view.points[23].model_dump() == {"seat": 1, "count": 1}
    assert view.points[11].model_dump() == {"seat": 0, "count": 2}
    assert sorted((pin.point, pin.seat) for pin in view.pinned) == [(12, 1), (24, 0)]
    # Seat 1 sees the same from its side: seat 0's 24 is its 1, seat 0's 12 its 13.
    other = game_board_view(board.flip(), 1, Travel.OPPOSITE)
    assert other.points[0] == view.points[23] and other.points[12] == view.points[11]
    assert sorted((pin.point, pin.seat) for pin in other.pinned) == [(1, 0), (13, 1)]


def test_acey_deucey_checkers_wait_to_enter(client: Any) -> None:
    state = create(client, opponent="human", game="acey-deucey")
    assert state["board"]["waiting"] == [15, 15] and state["board"]["bar"] == [15, 15]
    assert all(point["count"] == 0 for point in state["board"]["points"])


def test_acey_deucey_names_a_double_after_a_1_2(client: Any) -> None:
    state = create(client, opponent="computer", game="acey-deucey", seed=ACEY_DEUCEY_SEED)
    match_id = state["id"]
    opening(client, match_id)
    state = act(client, match_id, seat=0, action="roll")
    assert sorted(die["value"] for die in state["dice"]) == [1, 2]
    while state["phase"] == "move":
        state = act(client, match_id, **next_action(state, 0))
    state = act(client, match_id, seat=0, action="confirm")
    assert state["phase"] == "name" and state["to_act"] == 0
    assert state["actions"][0] == ["resign", "name"]
    refused(client, match_id, 409, "waits for a double to be named",
            {"seat": 0, "action": "roll"})
    refused(client, match_id, 422, "less than or equal to 6",
            {"seat": 0, "action": "name", "die": 7})
    state = act(client, match_id, seat=0, action="name", die=5)
    assert [die["value"] for die in state["dice"]] == [5, 5, 5, 5]
    assert state["record"][0]["entries"][-1] == {
        "seat": 0, "kind": "name", "dice": None, "play": None, "steps": None, "value": 5,
        "level": None, "auto": False}
    while state["phase"] in ("move", "confirm"):
        state = act(client, match_id, **next_action(state, 0))
    # The named double played, the same player rolls again.
    assert state["phase"] == "roll" and state["to_act"] == 0


def test_a_tavli_match_at_one_screen_plays_its_games_in_turn(client: Any) -> None:
    state = create(client, game="tavli", length=3, seed=5)
    match_id = state["id"]
    assert state["game"] == "portes" and state["rotation"] == ["portes", "plakoto", "fevga"]
    assert state["actions"] == [["roll"], ["roll"]]  # one screen: both seats are the token's
    state = opening(client, match_id)
    for game in ("plakoto", "fevga"):
        loser = state["to_act"]
        state = act(client, match_id, seat=loser, action="resign", level=1)
        state = act(client, match_id, seat=1 - loser, action="accept")
        assert state["game"] == game and state["phase"] == "opening"
        state = opening(client, match_id)
    assert state["board"]["travel"] == "same"
    assert sum(state["score"]) == 2 and not state["match_over"]


def test_what_the_other_games_refuse(client: Any) -> None:
    for options, phrase in (
        ({"position": "4HPwATDgc/ABMA"}, "GNU Backgammon's formats have no such games"),
        ({"variant": "nackgammon"}, "its own starting layout"),
        ({"jacoby": True}, "without the cube"),
        ({"auto_race_roll": True}, "no race roll"),
    ):
        response = client.post("/api/matches", json={"game": "plakoto", **options})
        assert response.status_code == 422, response.text
        assert phrase in response.json()["detail"]
    response = client.post("/api/matches", json={"game": "chess"})
    assert response.status_code == 422
    state = create(client, game="plakoto", seed=3)
    match_id = state["id"]
    state = opening(client, match_id)
    seat = state["to_act"]
    refused(client, match_id, 409, "cube is not used", {"seat": seat, "action": "double"})
    refused(client, match_id, 409, "no backgammon", {"seat": seat, "action": "resign",
                                                     "level": 3})
    response = client.get(f"/api/matches/{match_id}/mat")
    assert response.status_code == 409, response.text
    assert "GNU Backgammon's formats have no such games" in response.json()["detail"]
    response = client.get(f"/api/matches/{match_id}/hint")
    assert response.status_code == 409, response.text
    assert response.json()["detail"] == ("Plakoto has no decision before the roll; ask again "
                                         "after the roll for the play.")
    response = client.post(f"/api/matches/{match_id}/tutor", json={
        "action": "confirm", "threshold": "doubtful", "version": state["version"], "view": 0})
    assert response.status_code == 409, response.text
    assert "The tutor's warnings are for backgammon alone" in response.json()["detail"]


def test_a_restart_reloads_a_game_and_plays_on(tmp_path: Path) -> None:
    """A Fevga match at one screen and Plakoto against the computer, stopped in the middle
    of a turn: a new app on the same database shows them as they were and plays on, the
    seeded dice going on as they would have."""
    database = tmp_path / "restart.sqlite"
    with client_for(database) as first:
        one_screen = create(first, game="fevga", seed=7)["id"]
        state = opening(first, one_screen)
        while not state["made"]:
            state = act(first, one_screen, **next_action(state))
        token = first.headers["Authorization"]
        computer = create(first, opponent="computer", game="plakoto", seed=7)["id"]
        opening(first, computer)
        against = settled(first, computer)
        tokens = token, first.headers["Authorization"]
    with client_for(database) as second:
        second.headers["Authorization"] = tokens[0]
        assert state_of(second, one_screen) == state
        for _ in range(30):
            state = act(second, one_screen, **next_action(state))
        assert state["version"] > 30
        second.headers["Authorization"] = tokens[1]
        assert state_of(second, computer) == against
        state = act(second, computer, **next_action(against, 0))
        assert state["version"] == against["version"] + 1


def test_a_resignation_the_computer_accepts_and_the_rematch(client: Any) -> None:
    """The computer accepts a gammon resigned in Long Nardy (the most the game scores) and
    the rematch, started at once, is Long Nardy again."""
    state = create(client, opponent="computer", game="long-nardy", length=1, seed=3)
    match_id = state["id"]
    opening(client, match_id)
    state = settled(client, match_id)
    state = act(client, match_id, seat=0, action="resign", level=2)
    state = settled(client, match_id)
    assert state["match_over"] and state["score"] == [0, 2]
    assert state["record"][0]["result"]["reason"] == "resign"
    response = client.post(f"/api/matches/{match_id}/rematch", json={"seat": 0})
    assert response.status_code == 200, response.text
    rematch = state_of(client, response.json()["rematch"]["id"])
    assert rematch["game"] == "long-nardy" and rematch["board"]["travel"] == "same"
    assert rematch["rematch_of"] == match_id


def test_an_action_sent_again_with_its_key_is_answered_as_before(client: Any) -> None:
    match_id = create(client, game="fevga", seed=7)["id"]
    state = opening(client, match_id)
    step = next_action(state)  # the opening's winner rolls afresh in Fevga
    path, key = f"/api/matches/{match_id}/actions", {"Idempotency-Key": "fevga-roll"}
    first = client.post(path, json={**step, "version": state["version"]}, headers=key)
    again = client.post(path, json={**step, "version": state["version"]}, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert state_of(client, match_id)["version"] == state["version"] + 1
