"""The trainer: a signed-in player's finished, analysed matches deal their mistakes to their
deck once, above a mark; an answer is judged and reschedules its card (FSRS); a player sees
and answers only their own cards; bad input gets a sentence. On SQLite and on PostgreSQL."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from support import next_action

from backgammon import Position
from backgammon.analysis.decisions import Mark
from backgammon.formats.matchid import MatchIdState, encode_match_id
from backgammon.moves import Play
from backgammon.server import Settings, create_app
from backgammon.server.db import utc
from backgammon.server.trainer.cards import mistake
from backgammon.server.trainer.dealing import equities
from backgammon.server.trainer.deck import Deck

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

SEED = 11
PASSWORD = "correct horse battery"
Json = dict[str, Any]


def app_for(database: Settings) -> FastAPI:
    unlimited = {"create_rate": None, "hint_rate": None, "action_rate": None,
                 "upload_rate": None, "signin_rate": None}
    return create_app(replace(database, computer_pause=0, allow_seed=True, **unlimited))


def signed_up(client: TestClient, name: str) -> None:
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    client.headers["X-CSRF-Token"] = client.cookies["bg_csrf"]




def play_out(client: TestClient, over: bool = True) -> Json:
    """A 1-point match at one screen made by the signed-in client, played to its end (or a
    few actions in); the client holds its token from then on."""
    answer = client.post("/api/matches", json={"opponent": "human", "length": 1, "seed": SEED})
    assert answer.status_code == 201, answer.text
    state: Json = answer.json()
    client.headers["Authorization"] = f"Bearer {state['token']}"
    for _ in range(3000 if over else 3):
        if state["match_over"]:
            break
        answer = client.post(f"/api/matches/{state['id']}/actions", json=next_action(state))
        assert answer.status_code == 200, answer.text
        state = answer.json()
    assert state["match_over"] is over
    return state


def analysed(client: TestClient, match_id: str) -> Json:
    """The match's analysis once done (its reading deals the mistakes)."""
    deadline = time.monotonic() + 120
    while True:
        answer = client.get(f"/api/matches/{match_id}/analysis")
        if answer.status_code == 200:
            report: Json = answer.json()
            return report
        assert answer.status_code == 202, answer.text
        assert time.monotonic() < deadline, "the analysis did not end"
        time.sleep(0.05)


def refusal(response: Any, status: int, phrase: str) -> None:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail.endswith(".") and phrase in detail, detail


@pytest.fixture
def app(database: Settings) -> FastAPI:
    return app_for(database)


@pytest.fixture
def alice(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        signed_up(client, "Alice")
        yield client


def test_an_analysed_match_deals_its_players_mistakes_once(
    app: FastAPI, alice: TestClient
) -> None:
    state = play_out(alice)
    report = analysed(alice, state["id"])
    wanted = [d for d in report["decisions"] if mistake(d, 0, Mark.DOUBTFUL)]
    assert wanted, "the poor player made no mistake"
    cards = alice.get("/api/trainer/cards").json()["cards"]
    assert [(c["game"], c["move_number"], c["kind"]) for c in cards] == [
        (d["game"], d["move_number"], d["kind"]) for d in wanted
    ]
    card, decision = cards[0], wanted[0]
    assert card["position_id"] == decision["position_id"]
    assert card["dice"] == decision["dice"]
    assert sorted(card["choices"]) == sorted(a["text"] for a in decision["alternatives"])
    assert "best" not in card and "played" not in card  # the question gives nothing away
    # Asked again (the analysis read again, the trainer's button), nothing is added twice.
    analysed(alice, state["id"])
    again = alice.post(f"/api/trainer/matches/{state['id']}")
    assert again.status_code == 200, again.text
    assert again.json()["added"] == 0
    assert [c["id"] for c in again.json()["cards"]] == [c["id"] for c in cards]
    assert alice.get("/api/trainer/progress").json() == {
        "cards": len(wanted), "due": len(wanted), "learned": 0, "days": []}


def test_an_answer_is_judged_and_reschedules_its_card(app: FastAPI, alice: TestClient) -> None:
    state = play_out(alice)
    analysed(alice, state["id"])
    cards = alice.get("/api/trainer/cards").json()["cards"]
    first, second = cards[0], cards[1]
    deck: Deck = app.state.trainer
    before = deck.card(1, first["id"]).due
    wrong = next(c for c in first["choices"] if c != deck.card(1, first["id"]).best)
    answer = alice.post(f"/api/trainer/cards/{first['id']}/answer?lang=en",
                        json={"answer": wrong})
    assert answer.status_code == 200, answer.text
    judged = answer.json()
    assert judged["right"] is False and judged["loss"] > 0 and judged["reasons"]
    assert judged["best"] == deck.card(1, first["id"]).best
    assert datetime.fromisoformat(judged["due"]) > utc(before)
    right = alice.post(f"/api/trainer/cards/{second['id']}/answer?lang=vi",
                       json={"answer": deck.card(1, second["id"]).best, "rating": "easy"})
    assert right.json()["right"] is True and right.json()["loss"] == 0
    # Neither is due now; an easy answer puts its card further off than a wrong one.
    due_now = [c["id"] for c in alice.get("/api/trainer/cards").json()["cards"]]
    assert first["id"] not in due_now and second["id"] not in due_now
    assert right.json()["due"] > judged["due"]
    progress = alice.get("/api/trainer/progress").json()
    assert progress["due"] == len(cards) - 2 and progress["learned"] == 1
    assert [(d["answered"], d["right"]) for d in progress["days"]] == [(2, 1)]


def test_a_deck_is_its_players_alone(app: FastAPI, alice: TestClient) -> None:
    state = play_out(alice)
    analysed(alice, state["id"])
    card = alice.get("/api/trainer/cards").json()["cards"][0]
    # Another player in the same client (one app's client a test, for PostgreSQL's sake).
    kept = dict(alice.cookies)
    alice.cookies.clear()
    del alice.headers["X-CSRF-Token"], alice.headers["Authorization"]
    refusal(alice.get("/api/trainer/cards"), 401, "Sign in first")
    signed_up(alice, "Bobby")
    assert alice.get("/api/trainer/cards").json()["cards"] == []
    answer = alice.post(f"/api/trainer/cards/{card['id']}/answer",
                        json={"answer": card["choices"][0]})
    refusal(answer, 404, "There is no card with that id in your deck")
    refusal(alice.post(f"/api/trainer/matches/{state['id']}"), 403, "You did not play this")
    assert alice.get("/api/trainer/progress").json()["cards"] == 0
    alice.cookies.clear()
    alice.cookies.update(kept)
    alice.headers["X-CSRF-Token"] = kept["bg_csrf"]
    assert alice.get("/api/trainer/cards").json()["cards"][0]["due"] == card["due"]


def test_bad_input_is_refused_with_a_sentence(app: FastAPI, alice: TestClient) -> None:
    refusal(alice.post("/api/trainer/matches/nosuchmatch"), 404, "There is no match")
    playing = play_out(alice, over=False)
    refusal(alice.post(f"/api/trainer/matches/{playing['id']}"), 409, "The match is not over")
    state = play_out(alice)
    refusal(alice.post(f"/api/trainer/matches/{state['id']}"), 409, "no finished analysis")
    analysed(alice, state["id"])
    card = alice.get("/api/trainer/cards").json()["cards"][0]
    path = f"/api/trainer/cards/{card['id']}/answer"
    refusal(alice.post(path, json={"answer": "24/1 bogus"}), 422, "none of the card's choices")
    for body in ({}, {"answer": ""}, {"answer": card["choices"][0], "rating": "great"},
                 {"answer": card["choices"][0], "extra": 1}):
        assert alice.post(path, json=body).status_code == 422
    assert alice.post("/api/trainer/cards/0/answer", json={"answer": "x"}).status_code == 422
    bad_least = alice.post(f"/api/trainer/matches/{state['id']}?least=awful")
    assert bad_least.status_code == 422
    assert alice.post(f"{path}?lang=xx", json={"answer": card["choices"][0]}).status_code == 422


def _decision(move: int, kind: str, loss: float, seat: int = 0) -> Json:
    cube = [{"text": "no double", "equity": 0.2}, {"text": "double, take", "equity": 0.2 - loss},
            {"text": "double, drop", "equity": 1.0}]
    return {"game": 1, "move_number": move, "player": seat, "kind": kind, "dice": None,
            "played": "double", "best": "no double", "equity_loss": loss,
            "mark": "doubtful" if loss > 0.04 else None, "position_id": "4HPwATDgc/ABMA",
            "match_id": "cAkAAAAAAAAA", "alternatives": cube}


def test_the_threshold_decides_which_mistakes_join(app: FastAPI, alice: TestClient) -> None:
    state = play_out(alice)
    report = {"decisions": [_decision(1, "cube", 0.05), _decision(2, "cube", 0.2),
                            _decision(3, "cube", 0.01), _decision(4, "cube", 0.3, seat=1),
                            {**_decision(5, "resign", 0.5)}]}
    deck: Deck = app.state.trainer
    said: list[int] = []

    def reasons(decision: Json) -> list[Json]:
        said.append(decision["move_number"])
        return []

    assert deck.add(1, state["id"], 0, report, Mark.VERY_BAD, reasons) == 1
    assert deck.add(1, state["id"], 0, report, Mark.DOUBTFUL, reasons) == 1
    assert deck.add(1, state["id"], 0, report, Mark.DOUBTFUL, reasons) == 0
    assert said == [2, 1]  # the reasons worked out for the new cards alone
    cards = deck.cards(1, state["id"])
    assert sorted(c.move_number for c in cards) == [1, 2]
    later = utc(cards[0].due) + timedelta(hours=1)
    reviewed = deck.answer(1, cards[0].id, "no double", equities, at=later)
    assert reviewed.judged.right and utc(reviewed.card.due) > later


# The deck kept in a browser, without an account

def test_a_guests_cards_are_judged_and_rescheduled_but_not_kept(app: FastAPI) -> None:
    with TestClient(app) as guest:
        playing = play_out(guest, over=False)
        refusal(guest.get(f"/api/matches/{playing['id']}/mistakes"), 409, "not over")
        state = play_out(guest)
        refusal(guest.get(f"/api/matches/{state['id']}/mistakes"), 409, "no finished analysis")
        report = analysed(guest, state["id"])
        cards = guest.get(f"/api/matches/{state['id']}/mistakes").json()["cards"]
        # At one screen the token holds both seats: both players' mistakes.
        assert [(c["game"], c["move_number"], c["kind"]) for c in cards] == [
            (d["game"], d["move_number"], d["kind"]) for d in report["decisions"]
            if mistake(d, 0, Mark.DOUBTFUL) or mistake(d, 1, Mark.DOUBTFUL)]
        card = cards[0]
        wrong = next(c for c in card["choices"] if c != card["best"])
        answer = guest.post("/api/trainer/review?lang=fa", json={"card": card, "answer": wrong})
        assert answer.status_code == 200, answer.text
        judged = answer.json()
        assert judged["right"] is False and judged["loss"] > 0 and judged["reasons"]
        assert judged["due"] > card["due"] and judged["schedule"] != card["schedule"]
        again = {**card, "schedule": judged["schedule"], "due": judged["due"]}
        right = guest.post("/api/trainer/review", json={"card": again, "answer": card["best"]})
        assert right.json()["right"] is True and right.json()["due"] > judged["due"]
        assert app.state.trainer.cards(1) == []  # nothing kept
        for bad, phrase in (
            ({"card": {**card, "schedule": {"due": "soon"}}, "answer": wrong}, "schedule"),
            ({"card": card, "answer": "13/1"}, "none of the card's choices"),
            ({"card": {**card, "kind": "cube", "choices": []}, "answer": "double"}, "choices"),
            ({"card": {**card, "position_id": "AAAAAAAAAAAAAA"}, "answer": wrong}, "cannot be"),
        ):
            refusal(guest.post("/api/trainer/review", json=bad), 422, phrase)
        del guest.headers["Authorization"]
        refusal(guest.get(f"/api/matches/{state['id']}/mistakes"), 401, "")


def test_a_guests_deck_joins_the_account_once_signed_in(app: FastAPI) -> None:
    with TestClient(app) as guest:
        playing = play_out(guest, over=False)
        state = play_out(guest)
        analysed(guest, state["id"])
        cards = guest.get(f"/api/matches/{state['id']}/mistakes").json()["cards"]
        card = cards[0]
        wrong = next(c for c in card["choices"] if c != card["best"])
        judged = guest.post("/api/trainer/review", json={"card": card, "answer": wrong}).json()
        # The browser keeps the answered card's schedule, and each card's match.
        kept = [{**c, "match": state["id"]} for c in cards]
        kept[0] = {**kept[0], "schedule": judged["schedule"], "due": judged["due"]}
        others = [
            {**kept[1], "match": playing["id"]},  # a match not over: no card of it joins
            {**kept[1], "match": "no-such-match"},
            {**kept[1], "game": 2, "position_id": "AAAAAAAAAAAAAA"},  # a position that is none
        ]
        refusal(guest.post("/api/trainer/browser-cards", json={"cards": kept}), 401, "")
        signed_up(guest, "Keeper")
        merged = guest.post("/api/trainer/browser-cards", json={"cards": kept + others})
        assert merged.status_code == 200, merged.text
        assert merged.json() == {"added": len(cards)}
        deck: Deck = app.state.trainer
        rows = deck.cards(1, due_only=False)
        assert sorted((r.match_id, r.game, r.move_number, r.kind) for r in rows) == sorted(
            (state["id"], c["game"], c["move_number"], c["kind"]) for c in cards)
        answered = next(r for r in rows if (r.game, r.move_number, r.kind) == (
            card["game"], card["move_number"], card["kind"]))
        assert answered.schedule == judged["schedule"] and answered.reasons
        assert utc(answered.due) == datetime.fromisoformat(judged["due"])
        progress = guest.get("/api/trainer/progress").json()
        assert progress["cards"] == len(cards) and progress["due"] == len(cards) - 1
        # Sent again (a second tab), none joins twice; a card the deck holds keeps its own.
        again = guest.post("/api/trainer/browser-cards", json={"cards": kept})
        assert again.json() == {"added": 0}
        assert len(deck.cards(1, due_only=False)) == len(cards)
        too_many = {"cards": [kept[0]] * 201}
        assert guest.post("/api/trainer/browser-cards", json=too_many).status_code == 422


# A checker card's play made on the board

def test_a_play_made_on_the_board_is_judged_as_any_legal_play(
    app: FastAPI, alice: TestClient
) -> None:
    state = play_out(alice)
    analysed(alice, state["id"])
    deck: Deck = app.state.trainer
    cards = [c for c in alice.get("/api/trainer/cards").json()["cards"] if c["kind"] == "checker"]

    def outside(card: Json) -> list[Play]:
        position = Position.from_id(card["position_id"])
        weighed = {position.parse_play(text, tuple(card["dice"])).result
                   for text in card["choices"]}
        return [p for p in position.legal_plays(tuple(card["dice"])) if p.result not in weighed]

    card = next(c for c in cards if outside(c))
    row = deck.card(1, card["id"])
    # The best play, made step by step on the board: the turn gives each next step.
    best = Position.from_id(card["position_id"]).parse_play(row.best, tuple(card["dice"]))
    made: list[list[int]] = []
    for step in best.steps:
        turn = alice.post("/api/trainer/turn", json={
            "position_id": card["position_id"], "match_id": card["match_id"], "made": made})
        assert turn.status_code == 200, turn.text
        assert turn.json()["play"] is None
        assert {"from": step.from_point, "to": step.to_point} in [
            {"from": s["from"], "to": s["to"]} for s in turn.json()["steps"]]
        made.append([step.from_point, step.to_point])
    done = alice.post("/api/trainer/turn", json={
        "position_id": card["position_id"], "match_id": card["match_id"], "made": made}).json()
    assert done["steps"] == [] and done["play"] is not None
    assert len([d for d in done["dice"] if d["used"]]) == len(made)
    # A play the analysis did not weigh: wrong, its loss judged by the bot at once.
    other = outside(card)[0]
    answer = alice.post(f"/api/trainer/cards/{card['id']}/answer", json={"answer": str(other)})
    assert answer.status_code == 200, answer.text
    assert answer.json()["right"] is False and answer.json()["loss"] >= 0
    assert answer.json()["answer"] == str(other)
    # The best play in the board's own notation is the weighed best.
    second = next(c for c in cards if c["id"] != card["id"])
    row = deck.card(1, second["id"])
    position = Position.from_id(second["position_id"])
    steps = position.parse_play(row.best, tuple(second["dice"])).steps
    own = " ".join(f"{s.from_point}/{s.to_point}".replace("25/", "bar/").replace("/0", "/off")
                   for s in steps)
    right = alice.post(f"/api/trainer/cards/{second['id']}/answer", json={"answer": own})
    assert right.status_code == 200, right.text
    assert right.json()["right"] is True and right.json()["answer"] == row.best
    refusal(alice.post(f"/api/trainer/cards/{second['id']}/answer", json={"answer": "24/1"}),
            422, "nor a legal play")


def test_a_turn_that_cannot_be_is_refused_with_a_sentence(alice: TestClient) -> None:
    start = "4HPwATDgc/ABMA"
    rolled = encode_match_id(MatchIdState(dice=(3, 1)))
    asked = {"position_id": start, "match_id": rolled, "made": [[8, 5]]}
    after = alice.post("/api/trainer/turn", json=asked).json()
    assert {(s["from"], s["to"]) for s in after["steps"]} == {(24, 23), (8, 7), (6, 5), (5, 4)}
    done = alice.post("/api/trainer/turn", json={**asked, "made": [[8, 5], [6, 5]]}).json()
    assert done["play"] == "8/5 6/5" and done["steps"] == []
    refusal(alice.post("/api/trainer/turn", json={**asked, "made": [[8, 4]]}), 422, "not allowed")
    refusal(alice.post("/api/trainer/turn", json={**asked, "match_id": "cAkAAAAAAAAA"}), 422,
            "no dice")
    for bad in ({**asked, "position_id": "nonsense"}, {**asked, "made": [[30, 1]]},
                {**asked, "made": [[8, 5]] * 5}, {**asked, "extra": 1}):
        assert alice.post("/api/trainer/turn", json=bad).status_code == 422


def test_a_match_in_play_deals_nothing(app: FastAPI, alice: TestClient) -> None:
    # Fair play: no card of a match before it is over, though its analysis may be read (at
    # one screen, as here; online between people the analysis itself is refused till then).
    playing = play_out(alice, over=False)
    analysed(alice, playing["id"])
    assert alice.get("/api/trainer/cards").json()["cards"] == []
    assert alice.get("/api/trainer/progress").json()["cards"] == 0


def test_a_right_answer_is_rated_as_it_felt(app: FastAPI, alice: TestClient) -> None:
    state = play_out(alice)
    analysed(alice, state["id"])
    deck: Deck = app.state.trainer
    first, second = alice.get("/api/trainer/cards").json()["cards"][:2]
    path = f"/api/trainer/cards/{first['id']}/rating"
    refusal(alice.post(path, json={"rating": "easy"}), 409, "no answer to rate yet")
    best = deck.card(1, first["id"]).best
    good = alice.post(f"/api/trainer/cards/{first['id']}/answer", json={"answer": best}).json()
    easy = alice.post(path, json={"rating": "easy"})
    assert easy.status_code == 200, easy.text
    hard = alice.post(path, json={"rating": "hard"}).json()
    assert hard["due"] < good["due"] < easy.json()["due"]
    again = alice.post(path, json={"rating": "good"}).json()
    assert again["due"] == good["due"]  # rated from the schedule before the answer
    wrong = next(c for c in second["choices"] if c != deck.card(1, second["id"]).best)
    alice.post(f"/api/trainer/cards/{second['id']}/answer", json={"answer": wrong})
    refusal(alice.post(f"/api/trainer/cards/{second['id']}/rating", json={"rating": "easy"}),
            409, "last answer was wrong")
    for body in ({"rating": "again"}, {}, {"rating": "easy", "extra": 1}):
        assert alice.post(path, json=body).status_code == 422
    kept = dict(alice.cookies)
    alice.cookies.clear()
    del alice.headers["X-CSRF-Token"]
    signed_up(alice, "Bobby")
    refusal(alice.post(path, json={"rating": "easy"}), 404, "no card with that id in your deck")
    alice.cookies.clear()
    alice.cookies.update(kept)
