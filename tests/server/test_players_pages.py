"""Players' pages: how well a player played their analysed rated matches (their side of each
match's analysis, a trend), and the privacy of a page its player hides."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import event
from test_accounts import PASSWORD, act, refusal, sign_up, token
from test_analysis_api import next_action
from test_api import client_for

from backgammon.server import Settings
from backgammon.server.accounts.ratings import Ratings
from backgammon.server.accounts.users import Account

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

SEED = 11
Json = dict[str, Any]
NOT_FOUND = "There is no player by that name."


@pytest.fixture
def client(database: Settings) -> Iterator[TestClient]:
    with client_for(database, signin_rate=None) as test_client:
        yield test_client


def app_of(client: TestClient) -> FastAPI:
    app: FastAPI = client.app  # type: ignore[assignment]
    return app


def account(client: TestClient, name: str) -> Account:
    """The account called ``name``, made (signed up, then signed out) if there is none."""
    found: Account | None = app_of(client).state.accounts.named(name)
    if found is None:
        sign_up(client, name)
        client.cookies.clear()
        return account(client, name)
    return found


def analysed_match(client: TestClient, moves: int = 30) -> tuple[str, int, Json]:
    """A rated 1-point match of Alice (seat 0) and Bobby (seat 1), played ``moves`` actions
    in, then resigned by the player not to move, and its analysis: the match's id, the
    winner's seat and the report. The client is left a guest."""
    alice, bobby = account(client, "Alice"), account(client, "Bobby")
    state: Json = client.post(
        "/api/matches", json={"opponent": "human", "length": 1, "seed": SEED}).json()
    match_id = state["id"]
    client.headers["Authorization"] = f"Bearer {state['token']}"
    ratings: Ratings = app_of(client).state.ratings
    ratings.created(match_id, alice, 0, rated=True)
    ratings.joined(match_id, 1, bobby)
    for _ in range(moves):
        state = client.post(f"/api/matches/{match_id}/actions", json=next_action(state)).json()
    mover: int = state["to_act"]
    act(client, match_id, {}, seat=1 - mover, action="resign", level=1)
    assert act(client, match_id, {}, seat=mover, action="accept")["winner"] == mover
    path = f"/api/matches/{match_id}/analysis"
    assert client.post(path).status_code == 202
    deadline = time.monotonic() + 60
    while (answer := client.get(path)).status_code == 202:
        assert time.monotonic() < deadline, "the analysis did not end"
        time.sleep(0.05)
    assert answer.status_code == 200, answer.text
    del client.headers["Authorization"]
    return match_id, mover, answer.json()


def test_a_players_page_says_how_well_they_played_each_analysed_match(
    client: TestClient,
) -> None:
    match_id, winner, analysis = analysed_match(client)
    for seat, name in enumerate(("Alice", "Bobby")):
        side = analysis["players"][seat]
        assert side["checker"]["moves"] > 0  # a real analysis, with decisions of each
        played = client.get(f"/api/players/{name}").json()["analysed"]
        assert played == [{
            "match": match_id, "opponent": ("Bobby", "Alice")[seat], "opponent_hidden": False,
            "length": 1, "won": seat == winner, "finished": played[0]["finished"],
            "checker": side["checker"]["error_rate_memg"],
            "cube": side["cube"]["error_rate_memg"],
            "overall": side["overall"]["error_rate_memg"],
            "equity_lost": side["overall"]["error_total_emg"],
            "pr": side["overall"]["pr"],
        }]
    page = client.get("/players/Alice?lang=en").text
    overall = analysis["players"][0]["overall"]["error_rate_memg"]
    assert "How well they play" in page and f"{overall:.1f}" in page
    assert (f"The latest 1 analysed matches: {overall:.1f} mEMG a decision overall; "
            f"all 1: {overall:.1f}.") in page


def test_a_match_without_a_finished_analysis_of_the_whole_match_is_left_out(
    client: TestClient,
) -> None:
    sign_up(client, "Carol")
    assert "No analysed rated matches yet." in client.get("/players/Carol?lang=en").text
    assert client.get("/api/players/Carol").json()["analysed"] == []


def test_the_figures_of_many_matches_are_read_in_one_query(client: TestClient) -> None:
    analysed_match(client, moves=12)
    analysed_match(client, moves=16)
    ratings: Ratings = app_of(client).state.ratings
    alice = account(client, "Alice")
    statements: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        statements.append(statement)

    event.listen(ratings.engine, "before_cursor_execute", seen)
    played = ratings.analysed(alice)
    event.remove(ratings.engine, "before_cursor_execute", seen)
    assert len(played) == 2 and len(statements) == 1
    assert played[0].finished_at >= played[1].finished_at  # the latest first
    page = client.get("/players/Alice?lang=en").text
    assert "The latest 2 analysed matches" in page and page.count("<polyline") == 2


def sign_in(client: TestClient, name: str) -> None:
    answer = client.post("/api/session", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text


def test_a_hidden_page_is_not_found_but_by_its_player(client: TestClient) -> None:
    analysed_match(client, moves=8)
    sign_in(client, "Alice")
    privacy = "/api/account/privacy"
    refusal(client.put(privacy, json={"hidden": True}), 403, "CSRF token")
    refusal(client.put(privacy, json={"hidden": "yes"}, headers=token(client)), 422, "")
    assert client.get("/api/players/Alice").json()["hidden"] is False  # nothing changed
    hidden = client.put(privacy, json={"hidden": True}, headers=token(client))
    assert hidden.status_code == 200 and hidden.json() == {"hidden": True}
    # Its player sees it, with the note; the account page shows the setting.
    own = client.get("/players/alice?lang=en")
    assert own.status_code == 200 and "Only you can see this page" in own.text
    assert client.get("/api/players/Alice").json()["hidden"] is True
    assert 'name="hidden" aria-describedby="privacy-rules" checked' in client.get(
        "/account").text
    # Anyone else, signed in or not, is told what an unknown name is told.
    for viewer in (None, "Bobby"):
        client.cookies.clear()
        if viewer:
            sign_in(client, viewer)
        page = client.get("/players/Alice?lang=en")
        assert page.status_code == 404 and NOT_FOUND in page.text and "Rating" not in page.text
        refusal(client.get("/api/players/Alice"), 404, NOT_FOUND)
        # Alice still shows in Bobby's matches, not linked to her page.
        bobby = client.get("/players/Bobby?lang=en").text
        assert "Alice" in bobby and "/players/Alice" not in bobby
        assert client.get("/api/players/Bobby").json()["results"][0]["opponent_hidden"]
    # A guest cannot set it; shown again, it is anyone's.
    client.cookies.clear()
    refusal(client.put(privacy, json={"hidden": False}), 401, "Sign in first")
    sign_in(client, "Alice")
    shown = client.put(privacy, json={"hidden": False}, headers=token(client))
    assert shown.json() == {"hidden": False}
    client.cookies.clear()
    page = client.get("/players/Alice?lang=en")
    assert page.status_code == 200 and "Only you can see this page" not in page.text
    assert "/players/Alice" in client.get("/players/Bobby?lang=en").text
