"""The other games online between people, on SQLite and then on PostgreSQL with Redis: the
lobby says which game a match plays, two signed-in players finish a rated match of Plakoto and
of Tavli, each rating kept in its own game (backgammon's untouched), a clock runs out in
Fevga, a rematch keeps the game, and no engine help reaches a player during play."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from backgammon.server import Settings, create_app
from backgammon.server.db import GameRatingRow, MatchRow, RatedResultRow
from backgammon.server.play.clocks import server_time
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette asks for httpx's successor
    from fastapi.testclient import TestClient

State = dict[str, Any]
PASSWORD = "correct horse battery"
GAMES = ("portes", "tavla", "plakoto", "fevga", "long-nardy", "acey-deucey")


@pytest.fixture
def app(database: Settings) -> Any:
    """The app on SQLite, then on PostgreSQL with Redis (conftest.py)."""
    settings = replace(database, computer_pause=0, allow_seed=True, create_rate=None,
                       hint_rate=None, action_rate=None, upload_rate=None, signin_rate=None)
    return create_app(settings)


class Page:
    """One player's browser on the app: the shared test client with this page's own cookies
    (one client, so that PostgreSQL's and Redis's connections stay on its event loop)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies: dict[str, str] = {}
        self.app = client.app

    def request(self, method: str, path: str, **options: Any) -> Any:
        self.client.cookies.clear()
        for name, value in self.cookies.items():
            self.client.cookies.set(name, value)
        if method != "GET" and "bg_csrf" in self.cookies:  # as a signed-in page sends it
            options["headers"] = {"X-CSRF-Token": self.cookies["bg_csrf"],
                                  **options.get("headers", {})}
        response = self.client.request(method, path, **options)
        self.cookies = dict(self.client.cookies.items())
        return response

    def get(self, path: str, **options: Any) -> Any:
        return self.request("GET", path, **options)

    def post(self, path: str, **options: Any) -> Any:
        return self.request("POST", path, **options)


@pytest.fixture
def pages(app: Any) -> Iterator[tuple[Page, Page]]:
    """Two players' pages on the app."""
    server_time.set(None)
    with TestClient(app) as client:
        yield Page(client), Page(client)
    server_time.set(None)


@pytest.fixture
def sqlite_pages(tmp_path: Path) -> Iterator[tuple[Page, Page]]:
    """Two players' pages on the app on SQLite alone (for the long games)."""
    settings = Settings(database_url=sqlite_url(tmp_path / "games.sqlite"), computer_pause=0,
                        allow_seed=True, create_rate=None, hint_rate=None, action_rate=None)
    with TestClient(create_app(settings)) as client:
        yield Page(client), Page(client)


def sign_up(page: Page, name: str) -> None:
    """A new account, signed in on ``page``."""
    response = page.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text


def online_match(
    pages: tuple[Page, Page], signed_in: bool = True, **options: Any
) -> tuple[State, dict[int, str]]:
    """An online match made by the first page (Alice, if ``signed_in``), listed in the lobby,
    and joined by the second (Bobby) through the lobby's entry: its creation's answer and
    each seat's token."""
    first, second = pages
    if signed_in:
        sign_up(first, "Alice")
        sign_up(second, "Bobby")
    response = first.post("/api/matches", json={
        "opponent": "online", "lobby": True, "length": 1, "seed": 11, **options})
    assert response.status_code == 201, response.text
    created: State = response.json()
    [entry] = [e for e in second.get("/api/lobby").json() if e["id"] == created["id"]]
    response = second.post("/api/matches/join", json={"invite": entry["invite"]})
    assert response.status_code == 200, response.text
    return created, {0: created["token"], 1: response.json()["token"]}


def act(pages: tuple[Page, Page], match_id: str, tokens: dict[int, str], seat: int,
        **action: Any) -> State:
    """``seat``'s action, sent from its player's page with its token."""
    page = pages[seat]
    version = page.get(f"/api/matches/{match_id}").json()["version"]
    response = page.post(f"/api/matches/{match_id}/actions",
                         json={**action, "seat": seat, "version": version},
                         headers={"Authorization": f"Bearer {tokens[seat]}"})
    assert response.status_code == 200, response.text
    state: State = response.json()
    return state


def to_move(pages: tuple[Page, Page], match_id: str, tokens: dict[int, str]) -> State:
    """The opening roll, each player throwing their own die (and in the games whose opening
    winner rolls afresh, that roll), until a player is to move."""
    state = pages[0].get(f"/api/matches/{match_id}").json()
    while state["phase"] in ("opening", "roll"):
        seat = next(seat for seat in (0, 1) if "roll" in state["actions"][seat])
        state = act(pages, match_id, tokens, seat, action="roll")
    assert state["phase"] in ("move", "name"), state["phase"]
    return state


def resign_game(pages: tuple[Page, Page], match_id: str, tokens: dict[int, str]) -> State:
    """The game's end: the player not to move resigns a single game and the mover accepts."""
    mover = to_move(pages, match_id, tokens)["to_act"]
    act(pages, match_id, tokens, 1 - mover, action="resign", level=1)
    return act(pages, match_id, tokens, mover, action="accept")


def player(client: Page, name: str) -> State:
    found: State = client.get(f"/api/players/{name}").json()
    return found


@pytest.mark.parametrize("game", GAMES)
def test_each_game_is_played_online_to_its_end(
    sqlite_pages: tuple[Page, Page], game: str,
) -> None:
    """Two guests, each with their own token, play every action of the game on their own
    page: the opening throws, each step and confirm, a named double after a 1-2."""
    pages = sqlite_pages
    created, tokens = online_match(pages, signed_in=False, game=game)
    match_id = created["id"]
    state = pages[0].get(f"/api/matches/{match_id}").json()
    for _ in range(5000):
        if state["match_over"]:
            break
        seat = state["to_act"]
        if seat is None:  # the opening roll: each throws their own die
            seat = next(s for s in (0, 1) if "roll" in state["actions"][s])
        seen = pages[seat].get(f"/api/matches/{match_id}", params={"view": seat}).json()
        actions = seen["actions"][seat]
        if "roll" in actions:
            action: dict[str, Any] = {"action": "roll"}
        elif "name" in actions:
            action = {"action": "name", "die": 6}
        elif "confirm" in actions:
            action = {"action": "confirm"}
        else:
            step = seen["steps"][0]
            action = {"action": "step", "from": step["from"], "to": step["to"]}
        state = act(pages, match_id, tokens, seat, **action)
    assert state["match_over"] and state["game"] == game
    result = state["record"][0]["result"]
    assert result["reason"] in ("bear off", "mother", "draw")
    players = {entry["seat"] for entry in state["record"][0]["entries"] if entry["kind"] == "play"}
    assert players == {0, 1}


def test_the_lobby_says_the_game_and_the_ratings_in_it(
    pages: tuple[Page, Page],
) -> None:
    first, second = pages
    sign_up(first, "Alice")
    made = {
        game: first.post("/api/matches", json={
            "opponent": "online", "lobby": True, "length": 3, "game": game, "rated": True,
        }).json()["id"]
        for game in ("plakoto", "tavli")
    }
    backgammon = first.post("/api/matches",
                            json={"opponent": "online", "lobby": True}).json()["id"]
    lobby = {entry["id"]: entry for entry in second.get("/api/lobby").json()}
    assert lobby[made["plakoto"]]["game"] == "plakoto"
    assert lobby[made["tavli"]]["game"] == "tavli"
    assert lobby[backgammon]["game"] == "backgammon"
    assert lobby[made["plakoto"]]["rules"]["cube"] is False
    assert (lobby[made["plakoto"]]["creator"], lobby[made["plakoto"]]["rating"],
            lobby[made["plakoto"]]["rated"]) == ("Alice", 1500.0, True)
    invite = lobby[made["tavli"]]["invite"]
    assert second.get(f"/api/invites/{invite}").json()["game"] == "tavli"
    with Session(first.app.state.ratings.engine) as session:
        games = {row.id: row.game for row in session.execute(select(MatchRow.id, MatchRow.game))}
    assert games == {made["plakoto"]: "plakoto", made["tavli"]: "tavli",
                     backgammon: "backgammon"}


@pytest.mark.parametrize(("game", "plays"), [("plakoto", "plakoto"), ("tavli", "portes")])
def test_a_rated_match_moves_the_ratings_of_its_game_alone(
    pages: tuple[Page, Page], game: str, plays: str,
) -> None:
    first, second = pages
    created, tokens = online_match(pages, game=game, rated=True)
    match_id = created["id"]
    state = first.get(f"/api/matches/{match_id}").json()
    assert state["game"] == plays and state["seats"][1]["kind"] == "human"
    over = resign_game(pages, match_id, tokens)
    assert over["match_over"]
    winner = over["winner"]
    names = ("Alice", "Bobby")
    won, lost = player(first, names[winner]), player(first, names[1 - winner])
    # Backgammon's rating is untouched: the match counted in its own game.
    assert (won["rating"], won["experience"], lost["rating"]) == (1500.0, 0, 1500.0)
    assert won["games"] == [{"game": game, "rating": 1510.0, "experience": 1}]
    assert lost["games"] == [{"game": game, "rating": 1490.0, "experience": 1}]
    assert won["results"][0]["game"] == game and won["results"][0]["change"] == 10.0
    with Session(first.app.state.ratings.engine) as session:
        assert session.scalars(select(RatedResultRow.game)).all() == [game]
        assert len(session.scalars(select(GameRatingRow)).all()) == 2
    # The players' pages show the game's rating and the game of each result.
    page = second.get(f"/players/{names[winner]}?lang=en").text
    assert "Ratings in the other games" in page and "1510.00" in page
    assert f"<td>{game.capitalize()}</td>" in page


def test_a_second_rated_match_starts_from_the_games_rating(
    pages: tuple[Page, Page],
) -> None:
    first, second = pages
    created, tokens = online_match(pages, game="fevga", rated=True)
    winner = resign_game(pages, created["id"], tokens)["winner"]
    names = ("Alice", "Bobby")
    again = first.post("/api/matches", json={
        "opponent": "online", "lobby": True, "length": 1, "game": "fevga", "rated": True,
    }).json()
    [entry] = [e for e in second.get("/api/lobby").json() if e["id"] == again["id"]]
    # Alice's Fevga rating, not her backgammon one, is shown beside her offer.
    assert entry["rating"] == (1510.0 if winner == 0 else 1490.0)
    joined = second.post("/api/matches/join", json={"invite": entry["invite"]}).json()
    tokens = {0: again["token"], 1: joined["token"]}
    resign_game(pages, again["id"], tokens)
    ratings = [player(first, name)["games"][0] for name in names]
    assert [r["experience"] for r in ratings] == [2, 2]
    assert sum(r["rating"] for r in ratings) == pytest.approx(3000.0)


def test_out_of_time_in_another_game_loses_the_match(
    pages: tuple[Page, Page],
) -> None:
    first, _ = pages
    created, tokens = online_match(pages, signed_in=False, game="fevga", length=3,
                                   clock="fast")
    match_id = created["id"]
    state = to_move(pages, match_id, tokens)
    mover = state["to_act"]
    assert state["clock"]["running"] == [mover]
    games = first.get(f"/api/matches/{match_id}/record").json()["games"]
    last = datetime.fromisoformat(games[-1][-1]["time"])
    server_time.set(last + timedelta(seconds=200))
    over = first.get(f"/api/matches/{match_id}").json()
    assert over["match_over"] and over["winner"] == 1 - mover
    assert over["record"][0]["result"]["reason"] == "time"


def test_a_rematch_plays_the_same_game(pages: tuple[Page, Page]) -> None:
    first, second = pages
    created, tokens = online_match(pages, signed_in=False, game="long-nardy")
    match_id = created["id"]
    resign_game(pages, match_id, tokens)
    offer = first.post(f"/api/matches/{match_id}/rematch", json={"seat": 0},
                       headers={"Authorization": f"Bearer {tokens[0]}"})
    assert offer.status_code == 200, offer.text
    answer = second.post(f"/api/matches/{match_id}/rematch/answer",
                         json={"seat": 1, "accept": True},
                         headers={"Authorization": f"Bearer {tokens[1]}"})
    assert answer.status_code == 200, answer.text
    rematch = answer.json()["rematch"]["id"]
    assert rematch and first.get(f"/api/matches/{rematch}").json()["game"] == "long-nardy"


def test_no_engine_help_reaches_a_player_during_play(
    pages: tuple[Page, Page],
) -> None:
    first, _ = pages
    created, tokens = online_match(pages, signed_in=False, game="plakoto")
    match_id = created["id"]
    state = to_move(pages, match_id, tokens)
    mover = state["to_act"]
    headers = {"Authorization": f"Bearer {tokens[mover]}"}
    response = first.get(f"/api/matches/{match_id}/hint", headers=headers,
                         params={"view": mover})
    assert response.status_code in (403, 409), response.text
    assert response.json()["detail"].endswith(".")


def test_an_analysis_waits_for_the_end_of_an_online_match(
    pages: tuple[Page, Page],
) -> None:
    """During play between people no analysis reaches a player (403); once the rated match
    is over each player may have it, and the players' pages, whose "how well they play" is
    in backgammon's mEMG, leave it out (the other games' losses are in points a game)."""
    first, second = pages
    created, tokens = online_match(pages, game="plakoto", rated=True)
    match_id = created["id"]
    to_move(pages, match_id, tokens)
    path = f"/api/matches/{match_id}/analysis"
    for seat in (0, 1):
        response = pages[seat].post(path, headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert response.status_code == 403, response.text
        assert response.json()["detail"].startswith("Analyses are off in an online match")
    assert resign_game(pages, match_id, tokens)["match_over"]
    headers = {"Authorization": f"Bearer {tokens[1]}"}
    deadline = time.monotonic() + 60
    while (answer := second.get(path, headers=headers)).status_code == 202:
        assert time.monotonic() < deadline, "the analysis did not end"
        time.sleep(0.05)
    assert answer.status_code == 200, answer.text
    report = answer.json()
    assert report["kind"] == "board" and report["game"] == "plakoto"
    for name in ("Alice", "Bobby"):
        assert player(first, name)["analysed"] == []
        page = first.get(f"/players/{name}?lang=en")
        assert page.status_code == 200 and "No analysed rated matches yet." in page.text


def test_a_practice_match_may_be_analysed_during_play(pages: tuple[Page, Page]) -> None:
    created, tokens = online_match(pages, signed_in=False, game="fevga", practice=True)
    match_id = created["id"]
    to_move(pages, match_id, tokens)
    response = pages[0].post(f"/api/matches/{match_id}/analysis",
                             headers={"Authorization": f"Bearer {tokens[0]}"})
    assert response.status_code in (200, 202), response.text
