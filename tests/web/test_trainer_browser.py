"""The trainer (/trainer) in a real browser: from a finished match, two clicks ("Analyse",
then "Practise its mistakes") open the trainer on that match's mistakes; a card answered is
judged (the best choice, the loss, the reasons) and rescheduled, so that it is no longer due;
a guest's deck is kept in the browser (from the matches analysed there) and rescheduled the
same way; the markup names only known messages."""

from __future__ import annotations

import json
import urllib.request
from datetime import UTC, datetime
from typing import Any

from browser_support import MarkupTexts, catalogue, place, sign_up
from support import next_action
from test_a11y_browser import a_kept_card

from backgammon import Position
from backgammon.formats.matchid import MatchIdState, decode_match_id, encode_match_id
from backgammon.server.pages.templates import own_page
from backgammon.server.trainer.deck import reschedule

SEED = 11




def finished_match(page: Any, server: str) -> tuple[str, str]:
    """A 1-point match at one screen made by the page (signed in, or not), played to its end
    through the API with its token: its id and token."""
    made = page.evaluate(
        """async seed => {
          const csrf = document.cookie.split('; ').find(p => p.startsWith('bg_csrf='));
          const headers = {'Content-Type': 'application/json'};
          if (csrf) headers['X-CSRF-Token'] = decodeURIComponent(csrf.slice(8));
          const answer = await fetch('/api/matches', {method: 'POST', headers,
            body: JSON.stringify({opponent: 'human', length: 1, seed})});
          return answer.json();
        }""",
        SEED,
    )
    state, token = made, made["token"]
    while not state["match_over"]:
        request = urllib.request.Request(
            f"{server}/api/matches/{made['id']}/actions",
            data=json.dumps(next_action(state)).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            state = json.load(response)
    return made["id"], token


def practise_in_two_clicks(page: Any, server: str, match_id: str, token: str) -> None:
    """From the finished match's page: "Analyse", then "Practise its mistakes"."""
    page.goto(f"{server}/?match={match_id}#token={token}&seats=0,1")
    page.click("#game-end-analyse")
    page.click("#analysis-practise")
    page.wait_for_url(f"**/trainer?match={match_id}")
    page.wait_for_selector("body[data-ready=true]")


def make_on_the_board(page: Any, card: dict[str, Any], tap: bool = False) -> str:
    """Make a legal play of the card's roll on the board by clicks (or taps: the checker,
    then where it goes where it may go to several places), as the core's turn allows: its
    notation."""
    press = page.tap if tap else page.click
    position, dice = Position.from_id(card["position_id"]), tuple(card["dice"])
    mover = decode_match_id(card["match_id"]).player_on_roll
    play = position.legal_plays(dice)[-1]
    turn = position.turn(dice)
    for count, step in enumerate(play.steps, start=1):
        source, target = step.from_point, step.to_point
        press(f'#trainer-board [data-place="{place(source, mover)}"]')
        if len({b for a, b in turn.legal_steps() if a == source}) > 1:
            picked = f'#trainer-board [data-place="{place(source, mover)}"].is-selected'
            page.wait_for_selector(picked)
            press(f'#trainer-board [data-place="{place(target, mover)}"]')
        turn = turn.step(source, target)
        page.wait_for_selector(f"body[data-made='{count}']")
    return str(play)


def due_ids(page: Any) -> list[int]:
    cards = page.evaluate("fetch('/api/trainer/cards').then(r => r.json())")["cards"]
    return [card["id"] for card in cards]


def test_the_markup_holds_no_text_and_names_only_known_messages() -> None:
    parser = MarkupTexts()
    parser.feed(own_page("trainer.html"))
    assert parser.texts == []
    assert parser.keys and set(parser.keys) <= set(catalogue())


def test_a_finished_match_is_practised_in_two_clicks_and_a_card_rescheduled(
    server: str, page: Any
) -> None:
    sign_up(page, server, "Trainee")
    match_id, token = finished_match(page, server)
    practise_in_two_clicks(page, server, match_id, token)
    page.wait_for_selector("#trainer-card:not([hidden])")
    card = int(page.get_attribute("body", "data-card"))
    assert card in due_ids(page)
    assert page.inner_text("#trainer-status").strip()  # the cards the match added
    page.wait_for_selector('#trainer-board [data-place="p1"]')
    shown = page.evaluate("fetch('/api/trainer/cards').then(r => r.json())")["cards"][0]
    assert shown["id"] == card and shown["kind"] == "checker"
    assert page.is_disabled("#trainer-confirm")
    made = make_on_the_board(page, shown)
    page.click("#trainer-confirm")
    page.wait_for_selector("body[data-answered]")
    assert page.inner_text("#trainer-verdict").strip()
    assert page.locator("#trainer-reasons li").count() > 0
    assert page.locator(".trainer-choice.is-best").count() == 1  # among the plays weighed
    assert made  # the answer was the play made on the board
    # Rescheduled: no longer due now, and the answer counted in today's progress.
    assert card not in due_ids(page)
    page.wait_for_selector("body[data-progress='1']")
    page.click("#trainer-next")
    page.wait_for_function(f"document.body.dataset.card !== '{card}'")
    # Come back: the card answered is not among those due.
    page.goto(f"{server}/trainer")
    page.wait_for_selector("body[data-ready=true]")
    assert page.get_attribute("body", "data-card") != str(card)


def test_a_guests_deck_is_kept_in_the_browser_and_rescheduled(server: str, page: Any) -> None:
    page.goto(server + "/")
    match_id, token = finished_match(page, server)
    # The analysis alone gives the match's mistakes to the browser's deck.
    page.goto(f"{server}/?match={match_id}#token={token}&seats=0,1")
    page.click("#game-end-analyse")
    page.wait_for_function(
        "id => Object.keys(JSON.parse(localStorage.getItem('backgammon.trainer') || '{}')"
        ".cards || {}).some(key => key.startsWith(id + ':'))",
        arg=match_id,
    )
    page.click("#analysis-practise")
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#trainer-card:not([hidden])")
    card = page.get_attribute("body", "data-card")
    assert card and card.startswith(f"{match_id}:")
    page.click("#trainer-list summary")  # picked from the plays the analysis weighed
    page.click(".trainer-choice >> nth=0")
    page.wait_for_selector("body[data-answered]")
    assert page.locator("#trainer-reasons li").count() > 0
    kept = page.evaluate("JSON.parse(localStorage.getItem('backgammon.trainer'))")
    assert kept["answers"][0]["right"] in (True, False)
    schedule = kept["cards"][card]["schedule"]
    assert schedule["last_review"] is not None
    assert datetime.fromisoformat(kept["cards"][card]["due"]) > datetime.fromisoformat(
        schedule["last_review"])
    # Not due again now: the trainer, opened afresh, does not show it.
    page.goto(f"{server}/trainer")
    page.wait_for_selector("body[data-ready=true]")
    assert page.get_attribute("body", "data-card") != card
    assert page.inner_text("#trainer-total-cards") == str(len(kept["cards"]))


def test_the_trainer_fits_a_phone(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=3,
                                  is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.set_default_timeout(10_000)
    phone.goto(server + "/")
    match_id, token = finished_match(phone, server)
    practise_in_two_clicks(phone, server, match_id, token)
    phone.wait_for_selector("#trainer-card:not([hidden])")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    card = phone.evaluate("Object.values(JSON.parse(localStorage.getItem('backgammon.trainer'))"
                          ".cards).find(c => c.key === document.body.dataset.card)")
    make_on_the_board(phone, card, tap=True)
    phone.tap("#trainer-confirm")
    phone.wait_for_selector("body[data-answered]")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_a_right_answer_is_rated_as_it_felt(server: str, page: Any) -> None:
    # A guest's card kept in the browser (the opening 31): 8/5 6/5, made on the board.
    page.goto(f"{server}/trainer")
    page.evaluate(
        "card => localStorage.setItem('backgammon.trainer',"
        " JSON.stringify({cards: {[card.key]: card}, answers: []}))",
        a_kept_card(),
    )
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.click('#trainer-board [data-place="p8"]')  # to 7 or 5: picked up
    page.wait_for_selector('#trainer-board [data-place="p8"].is-selected')
    page.click('#trainer-board [data-place="p5"]')
    page.wait_for_selector("body[data-made='1']")
    page.click('#trainer-board [data-place="p6"]')  # the 1 left: to 5 at once
    page.wait_for_selector("body[data-made='2']")
    page.click("#trainer-confirm")
    page.wait_for_selector("body[data-answered=right]")
    assert page.get_attribute('[data-rating="good"]', "aria-pressed") == "true"

    def due() -> datetime:
        kept = page.evaluate("JSON.parse(localStorage.getItem('backgammon.trainer'))")
        return datetime.fromisoformat(kept["cards"]["m:1:1:checker"]["due"])

    good = due()
    page.click('[data-rating="easy"]')
    page.wait_for_selector("body[data-rated=easy]")
    assert page.get_attribute('[data-rating="easy"]', "aria-pressed") == "true"
    assert due() > good
    answers = page.evaluate("JSON.parse(localStorage.getItem('backgammon.trainer')).answers")
    assert len(answers) == 1 and answers[0]["right"] is True  # rated, not answered again


def test_a_cube_card_asks_double_or_not(server: str, page: Any) -> None:
    card = {
        **a_kept_card(), "kind": "cube", "dice": None, "key": "m:1:2:cube", "move_number": 2,
        "match_id": encode_match_id(MatchIdState(match_length=7, score=(2, 4))),
        "played": "double", "best": "no double", "equity_loss": 0.1, "mark": "bad",
        "weighed": [{"text": "no double", "equity": 0.2}, {"text": "double, take", "equity": 0.1},
                    {"text": "double, drop", "equity": 1.0}],
        "choices": ["no double", "double"],
    }
    page.goto(f"{server}/trainer")
    page.evaluate(
        "card => localStorage.setItem('backgammon.trainer',"
        " JSON.stringify({cards: {[card.key]: card}, answers: []}))",
        card,
    )
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector('#trainer-board [data-place="p1"]')
    assert page.is_hidden("#trainer-on-board") and page.is_hidden("#trainer-list")
    assert page.locator("#trainer-choices .trainer-choice").all_inner_texts() == [
        catalogue()["analysis.choice.noDouble"], catalogue()["analysis.choice.double"]]
    page.click('.trainer-choice[data-choice="double"]')
    page.wait_for_selector("body[data-answered=wrong]")
    assert "0.100" in page.inner_text("#trainer-detail")
    assert page.locator("#trainer-reasons li").count() > 0


def test_a_guests_deck_joins_the_account_once_signed_in(server: str, page: Any) -> None:
    # A guest's finished match, and a card of it kept in the browser, answered once: due in
    # ten minutes.
    page.goto(server + "/")
    match_id, _ = finished_match(page, server)
    card = {**a_kept_card(), "match": match_id, "key": f"{match_id}:1:1:checker"}
    answered = datetime.now(UTC)
    _, schedule, due = reschedule(card["schedule"], False, None, answered)
    card.update(schedule=schedule, due=due.isoformat())
    page.evaluate(
        "card => localStorage.setItem('backgammon.trainer',"
        " JSON.stringify({cards: {[card.key]: card}, answers: []}))",
        card,
    )
    sign_up(page, server, "Keeper")
    page.goto(f"{server}/trainer")
    page.wait_for_selector("body[data-ready=true]")
    # The card joined the account's deck, with its schedule, and the browser forgot it.
    assert page.evaluate("localStorage.getItem('backgammon.trainer')") is None
    assert page.inner_text("#trainer-total-cards") == "1"
    progress = page.evaluate("fetch('/api/trainer/progress').then(r => r.json())")
    assert (progress["cards"], progress["due"]) == (1, 0)
    assert page.inner_text("#trainer-where") == catalogue()["trainer.whereAccount"]
