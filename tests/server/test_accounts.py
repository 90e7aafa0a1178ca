"""Accounts, sessions, CSRF, sign-in limits, rated matches and players' pages, through the API.

Each refusal is checked for its status and its sentence, and for changing nothing.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import warnings
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi import FastAPI, HTTPException
from sqlalchemy import insert, inspect, select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from backgammon.game.match import Match
from backgammon.server import Settings, create_app
from backgammon.server.accounts.ratings import RatedMatchError, Ratings
from backgammon.server.accounts.users import Account
from backgammon.server.db import (
    Base,
    MatchAccountRow,
    MatchRow,
    RatedResultRow,
    SessionRow,
    UserRow,
    alembic_config,
    make_engine,
    migrate,
    now,
)
from backgammon.server.play.saves import MatchChangedError
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

SEED = 11
PASSWORD = "correct horse battery"


def app_for(database: Path, **settings: Any) -> FastAPI:
    unlimited = {"create_rate": None, "hint_rate": None, "action_rate": None,
                 "upload_rate": None, "signin_rate": None}
    options = {"computer_pause": 0, "allow_seed": True, **unlimited, **settings}
    return create_app(Settings(database_url=sqlite_url(database), **options))


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return app_for(tmp_path / "games.sqlite")


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


def sign_up(client: TestClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    response = client.post("/api/accounts", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def post_json(client: TestClient, path: str, body: dict[str, str]) -> Any:
    """Post ``body`` as JSON text with escapes (a lone surrogate, which httpx cannot send)."""
    return client.post(path, content=json.dumps(body).encode(),
                       headers={"Content-Type": "application/json"})


def token(client: TestClient) -> dict[str, str]:
    """The header a signed-in page sends with a state-changing request."""
    return {"X-CSRF-Token": client.cookies["bg_csrf"]}


def who(client: TestClient) -> str | None:
    account = client.get("/api/session").json()["account"]
    return None if account is None else str(account["name"])


def refusal(response: Any, status: int, phrase: str) -> None:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail.endswith(".") and phrase in detail, detail


def account(app: FastAPI, name: str) -> Account:
    found: Account | None = app.state.accounts.named(name)
    assert found is not None
    return found


# Signing up and in


def test_sign_up_signs_in_with_a_cookie_the_page_cannot_read(
    app: FastAPI, client: TestClient
) -> None:
    response = client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
    assert response.status_code == 201
    assert response.json()["account"] == {"name": "Alice", "rating": 1500.0, "experience": 0}
    cookies = {c.split("=", 1)[0]: c.lower() for c in response.headers.get_list("set-cookie")}
    assert "httponly" in cookies["bg_session"] and "samesite=lax" in cookies["bg_session"]
    assert "httponly" not in cookies["bg_csrf"] and "samesite=lax" in cookies["bg_csrf"]
    assert "secure" not in cookies["bg_session"]  # served over http here
    assert response.json()["csrf"] == client.cookies["bg_csrf"]
    assert who(client) == "Alice"
    with Session(app.state.accounts.engine) as session:
        stored = session.scalars(select(UserRow.password_hash)).one()
        assert stored.startswith("$argon2id$") and PASSWORD not in stored
        session_ids = session.scalars(select(SessionRow.id)).all()
        assert client.cookies["bg_session"] not in session_ids  # only its hash is kept


def test_cookies_are_secure_over_https(app: FastAPI) -> None:
    with TestClient(app, base_url="https://testserver") as client:
        response = client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
        for cookie in response.headers.get_list("set-cookie"):
            assert "; secure" in cookie.lower()


@pytest.mark.parametrize(
    ("name", "password", "phrase"),
    [
        ("al", PASSWORD, "3 to 20 characters long; this one has 2"),
        ("a" * 21, PASSWORD, "3 to 20 characters long"),
        ("al ice", PASSWORD, "only the letters a to z"),
        ("zoë", PASSWORD, "only the letters a to z"),
        ("_alice", PASSWORD, "starts with a letter"),
        ("Guest-1", PASSWORD, "kept for guests"),
        ("alice", "short", "8 to 128 characters long; this one has 5"),
        ("alice", "ALICE", "8 to 128 characters"),
        ("alice123", "Alice123", "must not be the name"),
        ("alice", "pass\ud800word", "Input should be a valid string"),
    ],
)
def test_names_and_passwords_that_break_a_rule_are_refused(
    client: TestClient, name: str, password: str, phrase: str
) -> None:
    response = post_json(client, "/api/accounts", {"name": name, "password": password})
    refusal(response, 422, phrase)
    assert "bg_session" not in client.cookies
    assert client.get(f"/api/players/{name}").status_code in (404, 422)


def test_a_name_taken_in_any_case_is_refused(client: TestClient) -> None:
    sign_up(client, "Alice")
    client.cookies.clear()
    response = client.post("/api/accounts", json={"name": "aLICE", "password": "other pass"})
    refusal(response, 409, "is taken")
    assert "bg_session" not in client.cookies
    assert client.post("/api/session", json={"name": "alice", "password": PASSWORD}).is_success


def test_a_wrong_password_and_an_unknown_name_get_one_answer(client: TestClient) -> None:
    sign_up(client, "Alice")
    client.cookies.clear()
    wrong = client.post("/api/session", json={"name": "Alice", "password": "not it at all"})
    unknown = client.post("/api/session", json={"name": "Bobby", "password": PASSWORD})
    refusal(wrong, 401, "The name or the password is wrong")
    assert wrong.json() == unknown.json() and unknown.status_code == 401
    assert "bg_session" not in client.cookies and who(client) is None
    for name, password in (("Alice", ""), ("A" * 99, PASSWORD), ("", "")):
        odd = post_json(client, "/api/session", {"name": name, "password": password})
        assert odd.status_code == 401 and odd.json() == wrong.json()
    right = client.post("/api/session", json={"name": "ALICE", "password": PASSWORD})
    assert right.status_code == 200 and right.json()["account"]["name"] == "Alice"
    assert who(client) == "Alice"


def test_sign_out_ends_the_session_for_good(client: TestClient) -> None:
    sign_up(client, "Alice")
    secret = client.cookies["bg_session"]
    response = client.delete("/api/session", headers=token(client))
    assert response.status_code == 204
    assert "bg_session" not in client.cookies and who(client) is None
    client.cookies.set("bg_session", secret)  # the old cookie, kept by someone
    assert who(client) is None


def test_each_sign_in_is_its_own_session(app: FastAPI) -> None:
    with TestClient(app) as first, TestClient(app) as second:
        sign_up(first, "Alice")
        second.post("/api/session", json={"name": "Alice", "password": PASSWORD})
        assert first.cookies["bg_session"] != second.cookies["bg_session"]
        assert first.delete("/api/session", headers=token(first)).status_code == 204
        assert who(first) is None and who(second) == "Alice"


def test_an_expired_session_signs_nobody_in(app: FastAPI, client: TestClient) -> None:
    sign_up(client, "Alice")
    engine = app.state.accounts.engine
    with Session(engine) as session, session.begin():
        session.execute(update(SessionRow).values(expires_at=now() - timedelta(seconds=1)))
    response = client.get("/api/session")
    assert response.json()["account"] is None and response.json()["csrf"] is None
    assert "bg_session" not in client.cookies  # taken back
    created = client.post("/api/matches", json={"opponent": "human"})
    assert created.status_code == 201  # a guest now


def test_the_session_lasts_the_days_set(tmp_path: Path) -> None:
    with TestClient(app_for(tmp_path / "games.sqlite", session_days=3)) as client:
        response = client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
        cookie = next(c for c in response.headers.get_list("set-cookie")
                      if c.startswith("bg_session="))
        assert f"Max-Age={3 * 86400}" in cookie


def test_a_guest_keeps_one_name(client: TestClient) -> None:
    first = client.get("/api/session").json()
    assert first["account"] is None and first["guest"].startswith("guest-")
    assert client.get("/api/session").json()["guest"] == first["guest"]
    assert client.cookies["bg_guest"] == first["guest"]
    client.cookies.set("bg_guest", "<script>")  # not one of ours: a new name is given
    assert client.get("/api/session").json()["guest"] not in ("<script>", first["guest"])
    sign_up(client, "Alice")
    assert client.get("/api/session").json()["guest"] is None


# CSRF


def test_a_signed_in_request_without_its_token_is_refused(app: FastAPI, client: TestClient) -> None:
    sign_up(client, "Alice")
    for headers in ({}, {"X-CSRF-Token": "forged"}, {"X-CSRF-Token": ""}):
        response = client.post("/api/matches", json={"opponent": "human"}, headers=headers)
        refusal(response, 403, "CSRF token")
        refusal(client.delete("/api/session", headers=headers), 403, "CSRF token")
    assert who(client) == "Alice"
    with Session(app.state.accounts.engine) as session:
        assert session.scalars(select(MatchRow.id)).all() == []
    created = client.post("/api/matches", json={"opponent": "human"}, headers=token(client))
    assert created.status_code == 201


def test_a_token_of_another_session_is_refused(app: FastAPI) -> None:
    with TestClient(app) as alice, TestClient(app) as bob:
        sign_up(alice, "Alice")
        sign_up(bob, "Bobby")
        response = alice.post("/api/matches", json={"opponent": "human"}, headers=token(bob))
        refusal(response, 403, "CSRF token")


def test_a_guest_needs_no_token(client: TestClient) -> None:
    match = client.post("/api/matches", json={"opponent": "human", "length": 1})
    assert match.status_code == 201
    action = {"seat": 0, "action": "roll", "version": match.json()["version"]}
    seat = {"Authorization": f"Bearer {match.json()['token']}"}  # the seat's, not a CSRF one
    path = f"/api/matches/{match.json()['id']}/actions"
    assert client.post(path, json=action, headers=seat).is_success


# Rate limits


def test_sign_in_tries_are_limited(tmp_path: Path) -> None:
    with TestClient(app_for(tmp_path / "games.sqlite", signin_rate="3/minute")) as client:
        sign_up(client, "Alice")
        client.cookies.clear()
        for _ in range(2):
            wrong = client.post("/api/session", json={"name": "Alice", "password": "guess 1234"})
            assert wrong.status_code == 401
        response = client.post("/api/session", json={"name": "Alice", "password": PASSWORD})
        refusal(response, 429, "Too many tries to sign in or up from this address")
        assert int(response.headers["Retry-After"]) >= 1
        assert "bg_session" not in client.cookies


def test_wrong_passwords_from_anywhere_hold_a_name_for_a_window_only(database: Settings) -> None:
    # On SQLite alone (counted in memory) and on PostgreSQL with Redis (counted in Redis, so
    # that the count holds across processes).
    settings = replace(database, computer_pause=0, signin_rate=None, account_rate="3/minute")
    with TestClient(create_app(settings)) as client:
        for name in ("Alice", "Bob"):
            sign_up(client, name)
            client.cookies.clear()
        for name in ("Alice", "Nobody"):  # an account's name and no account's: one answer
            for _ in range(3):
                wrong = client.post("/api/session", json={"name": name, "password": "guess 12"})
                assert wrong.status_code == 401
            refused = client.post("/api/session", json={"name": name.upper(), "password": PASSWORD})
            refusal(refused, 429, "Too many wrong passwords for this account lately")
            assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert client.post("/api/session", json={"name": "Bob", "password": PASSWORD}
                           ).status_code == 200


def test_a_crowd_of_sign_ins_is_refused_beyond_the_hashing_queue(app: FastAPI) -> None:
    from backgammon.server.accounts.users import Accounts

    class SlowHasher:
        def hash(self, password: str) -> str:
            return password

        def verify(self, hashed: str, password: str) -> bool:
            release.wait(30)
            return False

    release = threading.Event()
    hasher: Any = SlowHasher()
    accounts = Accounts(app.state.accounts.engine, hasher, workers=1, queue=1)

    async def crowd() -> None:
        tries = [asyncio.ensure_future(accounts.sign_in("alice", PASSWORD)) for _ in range(2)]
        await asyncio.sleep(0)
        with pytest.raises(HTTPException) as refused:
            await accounts.sign_in("alice", PASSWORD)
        assert refused.value.status_code == 503 and refused.value.headers == {"Retry-After": "1"}
        release.set()
        await asyncio.gather(*tries, return_exceptions=True)

    try:
        asyncio.run(crowd())
    finally:
        release.set()
        accounts.close()


# Rated matches


def test_a_rated_match_needs_a_signed_in_creator_a_length_and_an_opponent_online(
    app: FastAPI, client: TestClient
) -> None:
    guest = client.post("/api/matches", json={"opponent": "human", "length": 5, "rated": True})
    refusal(guest, 422, "Only a signed-in player can create a rated match")
    sign_up(client, "Alice")
    cases = [
        ({"opponent": "human", "length": 0}, "Money sessions are not rated"),
        ({"opponent": "computer", "length": 5}, "Only a match against another signed-in"),
        ({"opponent": "human", "length": 5}, "not one against the computer or at one screen"),
        ({"opponent": "human", "length": 5, "position": "4HPwATDgc/ABMA"}, "from the opening"),
        # Ratable but for the hints and analyses a practice match gives both players.
        ({"opponent": "online", "length": 5, "practice": True}, "cannot be a practice match"),
    ]
    for body, phrase in cases:
        response = client.post("/api/matches", json={**body, "rated": True}, headers=token(client))
        refusal(response, 422, phrase)
    with Session(app.state.accounts.engine) as session:
        assert session.scalars(select(MatchRow.id)).all() == []


def test_the_lobby_sees_the_creators_name_and_rating(client: TestClient) -> None:
    sign_up(client, "Alice")
    listed = {"opponent": "online", "lobby": True, "names": ["Ann", "Player"]}
    mine = client.post("/api/matches", json=listed, headers=token(client))
    client.cookies.clear()
    guests = client.post("/api/matches", json=listed)
    lobby = {entry["id"]: entry for entry in client.get("/api/lobby").json()}
    alice, guest = lobby[mine.json()["id"]], lobby[guests.json()["id"]]
    assert (alice["creator"], alice["rating"], alice["rated"]) == ("Alice", 1500.0, False)
    assert (guest["creator"], guest["rating"], guest["rated"]) == ("Ann", None, False)


def rated_match(app: FastAPI, client: TestClient, length: int = 1) -> tuple[str, Account, Account]:
    """A rated match between Alice (seat 0) and Bobby (seat 1), as creating it online and an
    invite's join note them; the client is left a guest, holding the match's seats."""
    sign_up(client, "Alice")
    client.cookies.clear()
    sign_up(client, "Bobby")
    client.cookies.clear()
    created = client.post("/api/matches",
                          json={"opponent": "human", "length": length, "seed": SEED})
    match_id: str = created.json()["id"]
    client.headers["Authorization"] = f"Bearer {created.json()['token']}"
    ratings: Ratings = app.state.ratings
    alice, bobby = account(app, "Alice"), account(app, "Bobby")
    ratings.created(match_id, alice, 0, rated=True)
    with pytest.raises(RatedMatchError, match="sign in to join it"):
        ratings.joined(match_id, 1, None)
    with pytest.raises(HTTPException, match="two accounts, not one") as refused:
        asyncio.run(ratings.check_joiner(match_id, 1, alice))
    assert refused.value.status_code == 403
    asyncio.run(ratings.check_joiner(match_id, 1, bobby))
    with Session(app.state.accounts.engine) as session:
        row = session.get(MatchAccountRow, match_id)
        assert row is not None and row.rated and row.user1 is None  # the check wrote nothing
    ratings.joined(match_id, 1, bobby)
    return match_id, alice, bobby


def act(
    client: TestClient, match_id: str, headers: dict[str, str], **action: Any
) -> dict[str, Any]:
    version = client.get(f"/api/matches/{match_id}").json()["version"]
    response = client.post(
        f"/api/matches/{match_id}/actions", json={"version": version, **action}, headers=headers
    )
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()
    return state


def resign_match(client: TestClient, match_id: str, headers: dict[str, str] | None = None) -> int:
    """End the match: after the opening roll, the player not to move resigns a single game
    (one point), and the mover accepts. The winner's seat."""
    headers = headers or {}
    state = act(client, match_id, headers, seat=0, action="roll")
    while state["phase"] == "opening":
        state = act(client, match_id, headers, seat=0, action="roll")
    mover: int = state["to_act"]
    act(client, match_id, headers, seat=1 - mover, action="resign", level=1)
    state = act(client, match_id, headers, seat=mover, action="accept")
    assert state["match_over"] and state["winner"] == mover
    return mover


def test_a_rated_match_that_ends_moves_both_ratings_once(app: FastAPI, client: TestClient) -> None:
    match_id, alice, bobby = rated_match(app, client)
    winner = resign_match(client, match_id)
    # Equal ratings, one point, no experience yet: 4 * K(0)=5 * sqrt(1) * P_upset=1/2 = 10.
    names = ("Alice", "Bobby")
    won, lost = (client.get(f"/api/players/{names[seat]}").json() for seat in (winner, 1 - winner))
    assert (won["rating"], won["experience"]) == (1510.0, 1)
    assert (lost["rating"], lost["experience"]) == (1490.0, 1)
    assert won["results"] == [
        {"match": match_id, "opponent": names[1 - winner], "length": 1, "won": True,
         "rating_before": 1500.0, "change": 10.0, "rating_after": 1510.0,
         "finished": won["results"][0]["finished"], "opponent_hidden": False,
         "game": "backgammon"}
    ]
    assert lost["results"][0]["change"] == -10.0 and not lost["results"][0]["won"]
    assert won["results"][0]["finished"].endswith("+00:00")
    # Seen again (another request, another process): counted once.
    assert app.state.ratings.finish(match_id, Match.from_dict(
        client.get(f"/api/matches/{match_id}/record").json())) is None
    assert client.get("/api/players/alice").json()["rating"] in (1510.0, 1490.0)
    with Session(app.state.accounts.engine) as session:
        results = session.scalars(select(RatedResultRow)).all()
        assert [(r.user0, r.user1, r.winner) for r in results] == [(alice.id, bobby.id, winner)]


def test_the_last_action_and_the_ratings_it_moves_are_kept_together(
    app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id, _alice, _bobby = rated_match(app, client)
    state = act(client, match_id, {}, seat=0, action="roll")
    while state["phase"] == "opening":
        state = act(client, match_id, {}, seat=0, action="roll")
    mover = state["to_act"]
    state = act(client, match_id, {}, seat=1 - mover, action="resign", level=1)
    ratings: Ratings = app.state.ratings
    counting = ratings.finish

    def broken(*args: Any) -> None:
        raise OperationalError("UPDATE users", {}, Exception("disk I/O error"))

    # The result cannot be written: the last action is not kept either.
    monkeypatch.setattr(ratings, "finish", broken)
    accept = {"version": state["version"], "seat": mover, "action": "accept"}
    refused = client.post(f"/api/matches/{match_id}/actions", json=accept)
    assert refused.status_code == 503, refused.text
    again = client.get(f"/api/matches/{match_id}").json()
    assert (again["version"], again["match_over"]) == (state["version"], False)
    assert client.get("/api/players/Alice").json()["experience"] == 0
    # Once it can, the same action ends the match and moves both ratings, in one go.
    monkeypatch.setattr(ratings, "finish", counting)
    assert client.post(f"/api/matches/{match_id}/actions", json=accept).json()["match_over"]
    assert client.get("/api/players/Alice").json()["experience"] == 1
    assert client.get("/api/players/Bobby").json()["experience"] == 1


def test_a_join_that_is_not_kept_notes_no_account(app: FastAPI, client: TestClient) -> None:
    sign_up(client, "Alice")
    created = client.post("/api/matches", json={"opponent": "online", "length": 1},
                          headers=token(client)).json()
    ratings: Ratings = app.state.ratings
    store = app.state.store
    live = asyncio.run(store.get(created["id"]))
    # The invite was spent meanwhile (elsewhere): the seat is not saved, nor the account.
    with pytest.raises(MatchChangedError):
        asyncio.run(store.save_seating(
            live, "not-its-digest", live.version,
            partial(ratings.joined, live.id, 1, account(app, "Alice")),
        ))
    with Session(app.state.accounts.engine) as session:
        seats = session.get(MatchAccountRow, created["id"])
        assert seats is not None and seats.user1 is None


def test_a_second_rated_match_starts_from_the_new_ratings(
    app: FastAPI, client: TestClient
) -> None:
    match_id, _alice, _bobby = rated_match(app, client)
    first = resign_match(client, match_id)
    second = client.post("/api/matches", json={"opponent": "human", "length": 1, "seed": SEED})
    second_id = second.json()["id"]
    client.headers["Authorization"] = f"Bearer {second.json()['token']}"
    ratings: Ratings = app.state.ratings
    ratings.created(second_id, account(app, "Alice"), 0, rated=True)
    ratings.joined(second_id, 1, account(app, "Bobby"))
    assert resign_match(client, second_id) == first  # the same seed, the same winner
    # 1510 against 1490, one point, experience 1 each: K = 4.99 for both.
    upset = 1 / (10 ** (20 / 2000) + 1)
    gain = 4 * 4.99 * upset
    winner = client.get(f"/api/players/{('Alice', 'Bobby')[first]}").json()
    assert winner["rating"] == pytest.approx(1510 + gain)
    assert [r["rating_after"] for r in winner["results"]] == [
        pytest.approx(1510 + gain), 1510.0
    ]


def test_an_unrated_match_moves_no_rating(client: TestClient) -> None:
    sign_up(client, "Alice")
    created = client.post("/api/matches", json={"opponent": "human", "length": 1, "seed": SEED},
                          headers=token(client))
    client.headers["Authorization"] = f"Bearer {created.json()['token']}"
    resign_match(client, created.json()["id"], token(client))
    alice = client.get("/api/players/Alice").json()
    assert (alice["rating"], alice["experience"], alice["results"]) == (1500.0, 0, [])


# Players' pages


def test_a_players_page_in_the_pages_language(app: FastAPI, client: TestClient) -> None:
    match_id, _alice, _bobby = rated_match(app, client)
    winner = resign_match(client, match_id)
    name = ("Alice", "Bobby")[winner]
    page = client.get(f"/players/{name}", headers={"Accept-Language": "en-GB,en;q=0.9"})
    assert page.status_code == 200 and '<html lang="en" dir="ltr">' in page.text
    assert "Rating history" in page.text and "1510.00" in page.text and "+10.00" in page.text
    loser = ("Alice", "Bobby")[1 - winner]
    assert "-10.00" in client.get(f"/players/{loser}").text
    assert 'role="img"' in page.text and "from 1500.00 to 1510.00" in page.text
    persian = client.get(f"/players/{name}?lang=fa")
    assert '<html lang="fa" dir="rtl">' in persian.text and "۱۵۱۰٫۰۰" in persian.text
    assert "تاریخچهٔ رتبه" in persian.text
    missing = client.get("/players/nobody-here")
    assert missing.status_code == 404 and "There is no player by that name." in missing.text
    refusal(client.get("/api/players/nobody-here"), 404, "no player by that name")
    refusal(client.get("/api/players/%ED%A0%80bc"), 404, "no player by that name")


def test_the_account_page_offers_the_forms_or_the_account(client: TestClient) -> None:
    guest = client.get("/account")
    assert guest.status_code == 200
    assert 'id="sign-in"' in guest.text and 'id="sign-up"' in guest.text
    assert 'autocomplete="new-password"' in guest.text
    # Its script: account.js, or its bundle while that is current (test_bundles.py).
    assert re.search(r'src="/(?:js/account|dist/account-\w+)\.js"', guest.text)
    sign_up(client, "Alice")
    client.cookies.delete("bg_csrf")
    signed_in = client.get("/account?lang=vi")
    assert client.delete("/api/session", headers=token(client)).status_code == 204
    sign_up(client, "Bobby")
    signed_in = client.get("/account?lang=vi")
    assert "Bobby" in signed_in.text and 'id="sign-out"' in signed_in.text
    assert '<html lang="vi"' in signed_in.text and 'href="/players/Bobby?lang=vi"' in signed_in.text


# The schema


def test_a_database_of_revision_0002_is_upgraded_with_its_matches(tmp_path: Path) -> None:
    engine = make_engine(sqlite_url(tmp_path / "old.sqlite"))
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
        assert "users" not in inspect(connection).get_table_names()
        stamp = now()
        connection.execute(insert(MatchRow).values(
            id="old-match", created_at=stamp, updated_at=stamp,
            settings={"seats": [{"kind": "human", "level": None}] * 2, "seed": 3},
            record=Match(1).to_dict(), version=0,
        ))
    migrate(engine)
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        assert {"users", "sessions", "match_accounts", "rated_results"} <= set(
            inspect(connection).get_table_names()
        )
    engine.dispose()
    with TestClient(app_for(tmp_path / "old.sqlite")) as client:
        assert client.get("/api/matches/old-match").json()["id"] == "old-match"
        sign_up(client, "Alice")
