"""The tutorial (/tutorial/<lang>): its script against the rules core (every play it teaches is
legal from its position with its dice, and the steps that follow one another do), the lessons
it draws against the bot, its words in every language against the English ones and the
glossary, its page, and the API its page plays through."""

from __future__ import annotations

import glob
import itertools
import json
import re
import tomllib
from collections.abc import Iterator
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backgammon import Position
from backgammon.bot import Bot
from backgammon.errors import IllegalPlayError
from backgammon.server import Settings, create_app
from backgammon.server.pages.help import HELP, LANGUAGES
from backgammon.server.pages.tutorial_script import (
    TUTORIAL,
    TutorialError,
    follow,
    script,
    step_named,
)
from backgammon.server.settings import sqlite_url

MESSAGES = HELP.parent / "messages"
RAW: list[dict[str, Any]] = json.loads((TUTORIAL / "script.json").read_text())["steps"]
NAMES = [step["name"] for step in RAW]


def glossary(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((HELP / "glossary" / f"{lang}.json").read_text("utf-8"))
    return data


def words(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((TUTORIAL / f"{lang}.json").read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("tutorial") / "games.sqlite"
    with TestClient(create_app(Settings(database_url=sqlite_url(database)))) as running:
        yield running


# The script, against the rules


def test_the_script_teaches_each_part_of_a_first_game() -> None:
    assert NAMES == ["opening", "first-move", "hit", "enter", "bear-off", "double", "take"]
    assert [step.name for step in script()] == NAMES


@pytest.mark.parametrize("step", [s for s in RAW if s["kind"] == "move"], ids=lambda s: s["name"])
def test_every_play_taught_is_legal_from_its_position_with_its_dice(step: dict[str, Any]) -> None:
    position = Position.from_id(step["position"])
    dice = tuple(step["dice"])
    legal = {play.result: str(play) for play in position.legal_plays(dice)}
    for taught in step["plays"]:
        play = position.parse_play(taught, dice)
        assert play.result in legal and legal[play.result] == taught


def end_of(step: dict[str, Any]) -> tuple[Position, str]:
    """Where a step leaves the game: the position and who is on roll."""
    position = Position.from_id(step["position"])
    if step["kind"] != "move":
        return position, step["on_roll"]  # a roll or a double moves no checker
    other = {"you": "computer", "computer": "you"}[step["on_roll"]]
    return position.parse_play(step["plays"][0], step["dice"]).result, other


@pytest.mark.parametrize("index", [i for i, s in enumerate(RAW) if "after" in s])
def test_the_steps_that_follow_one_another_do(index: int) -> None:
    previous, step = RAW[index - 1], RAW[index]
    position, on_roll = end_of(previous)
    for turn in step["after"]:
        # Each turn between the two steps is legal with its dice, played by the side on roll.
        position = position.parse_play(turn["play"], turn["dice"]).result
        on_roll = {"you": "computer", "computer": "you"}[on_roll]
    assert (position.id(), on_roll) == (step["position"], step["on_roll"])
    if previous["kind"] == "roll":
        # The first move plays the opening roll: your die and the computer's.
        assert sorted(step["dice"], reverse=True) == sorted(previous["dice"], reverse=True)


def test_the_server_refuses_a_script_whose_steps_do_not_follow() -> None:
    hit, enter = step_named("hit"), step_named("enter")
    assert follow(hit, enter).last is not None
    with pytest.raises(TutorialError, match="does not follow"):
        follow(hit, replace(enter, position=hit.position))
    with pytest.raises(IllegalPlayError):
        follow(step_named("first-move"), enter)  # the reply cannot be played from there


def test_the_opening_roll_is_won_by_you() -> None:
    opening = RAW[0]
    assert opening["kind"] == "roll" and opening["position"] == Position.initial().id()
    yours, theirs = opening["dice"]
    assert yours > theirs


def test_each_move_step_teaches_what_it_is_named_for() -> None:
    steps = {step["name"]: step for step in RAW}
    plays = {
        name: Position.from_id(step["position"]).parse_play(step["plays"][0], step["dice"])
        for name, step in steps.items() if step["kind"] == "move"
    }
    assert any(step.hit for step in plays["hit"].steps)
    entering = Position.from_id(steps["enter"]["position"])
    assert entering.mine[25] == 1 and plays["enter"].steps[0].from_point == 25
    bearing = Position.from_id(steps["bear-off"]["position"])
    assert all(step.to_point == 0 for step in plays["bear-off"].steps)
    assert sum(bearing.mine[1:7]) + bearing.mine[0] == 15  # every checker home


def test_the_cube_lessons_are_right_by_the_bot() -> None:
    """You should double and the computer take; the computer should redouble and you take,
    winning more than one game in four (the words say so), at the race counts they give."""
    bot = Bot()
    steps = {step["name"]: step for step in RAW}
    doubling = Position.from_id(steps["double"]["position"])
    decision = bot.cube_decision(doubling)
    assert (decision.action, decision.response) == ("double", "take")
    assert doubling.pips() == (52, 58)
    redoubling = Position.from_id(steps["take"]["position"])
    decision = bot.cube_decision(redoubling, cube_value=2, cube_owner="on roll")
    assert (decision.action, decision.response) == ("double", "take")
    assert 1 - bot.evaluate(redoubling).win > 0.25
    assert steps["double"]["answer"] == "double" and steps["take"]["answer"] == "take"
    assert steps["take"]["cube"] == {"value": 2, "owner": "computer"}


# The words


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_says_everything_the_english_does(lang: str) -> None:
    english, ours = words("en"), words(lang)
    assert set(ours) == set(english)
    for key, text in english.items():
        assert re.findall(r"\{\w+\}", ours[key]) == re.findall(r"\{\w+\}", text), key
        # The same markup: the strong words and the plays in notation.
        assert ours[key].count("<strong>") == ours[key].count("</strong>")
        notations = re.findall(r'<span class="notation">([^<]+)</span>', text)
        assert re.findall(r'<span class="notation">([^<]+)</span>', ours[key]) == notations, key
    assert ours["meta.lang"] == lang and ours["meta.dir"] == ("rtl" if lang == "fa" else "ltr")
    assert len(ours["digits"]) == 10


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_step_has_its_words_and_names_the_plays_it_teaches(lang: str) -> None:
    say = words(lang)
    for step in RAW:
        name = step["name"]
        # A roll step has one thing to do, and a click on the board does it.
        needed = ["title", "text", "done"] + (["help", "wrong"] if step["kind"] != "roll" else [])
        assert all(say[f"{name}.{part}"].strip() for part in needed), name
        for play in step.get("plays", []):
            assert play in say[f"{name}.text"]
            # The correction says the play again, in parts where it explains each.
            assert all(part in say[f"{name}.wrong"] for part in play.split()), name


#: The glossary's terms the tutorial teaches.
TERMS = ["checker", "point", "bar", "home board", "tray", "blot", "hit", "enter", "bear off",
         "doubling cube", "double", "take", "drop", "dice"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tutorial_uses_the_glossarys_words_and_the_games_buttons(lang: str) -> None:
    terms = glossary(lang)["terms"]
    text = " ".join(words(lang).values()).casefold()
    missing = [term for term in TERMS if not any(form.casefold() in text for form in terms[term])]
    assert missing == []
    assert [word for word in glossary(lang)["avoid"] if word in text] == []
    game = json.loads((MESSAGES / f"{lang}.json").read_text(encoding="utf-8"))
    for button in ("roll", "double", "take", "drop", "undo"):
        assert words(lang)[f"button.{button}"] == game[f"button.{button}"]
    assert game["tutorial.link"].strip()


# The page


class Page(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.root: dict[str, str | None] = {}
        self.headings: list[int] = []
        self.hrefs: set[str] = set()
        self.sections: list[str] = []
        self.buttons: list[dict[str, str | None]] = []
        self.button_texts: list[str] = []
        self._in_button = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "html":
            self.root = named
        elif re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        elif tag == "a" and named.get("href"):
            self.hrefs.add(str(named["href"]))
        elif tag == "section":
            self.sections.append(str(named.get("data-step")))
        elif tag == "button":
            self.buttons.append(named)
            self._in_button = True
            self.button_texts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "button":
            self._in_button = False

    def handle_data(self, data: str) -> None:
        if self._in_button:
            self.button_texts[-1] += data


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_in_each_language(client: TestClient, lang: str) -> None:
    response = client.get(f"/tutorial/{lang}")
    assert response.status_code == 200
    page = Page(response.text)
    assert page.root["lang"] == lang
    assert page.root["dir"] == ("rtl" if lang == "fa" else "ltr")
    assert page.headings[0] == 1 and page.headings.count(1) == 1
    assert all(b - a <= 1 for a, b in itertools.pairwise(page.headings))
    assert page.sections == [*NAMES, "end"]
    for name in NAMES:
        assert words(lang)[f"{name}.title"] in response.text
    # Every button is named by its text.
    assert page.buttons and all(text.strip() for text in page.button_texts)
    assert {"/", f"/help/{lang}/", f"/help/{lang}/rules"} <= page.hrefs
    assert {f"/tutorial/{other}" for other in LANGUAGES} <= page.hrefs
    assert {f"#{name}" for name in NAMES} <= page.hrefs
    # The step's feedback for the script, as JSON the page's script can read.
    found = re.search(r'<script type="application/json" id="tutorial-words">(.*?)</script>',
                      response.text, flags=re.S)
    assert found is not None
    feedback = json.loads(found.group(1))
    assert feedback["hit.wrong"] == words(lang)["hit.wrong"]


def test_the_help_pages_link_to_the_tutorial_in_their_language(client: TestClient) -> None:
    for lang in LANGUAGES:
        assert f'href="/tutorial/{lang}"' in client.get(f"/help/{lang}/rules").text
    assert 'id="tutorial-link"' in (HELP.parent / "index.html").read_text()


def test_the_tutorials_files_are_package_data() -> None:
    config = tomllib.loads((HELP.parents[3] / "pyproject.toml").read_text())
    package = HELP.parents[1]
    shipped = {
        Path(found)
        for pattern in config["tool"]["setuptools"]["package-data"]["backgammon"]
        for found in glob.glob(str(package / pattern), recursive=True)
    }
    needed = {*TUTORIAL.iterdir(), package / "web" / "js" / "tutorial.js",
              package / "web" / "css" / "tutorial.css"}
    assert needed <= shipped


def test_what_is_not_there(client: TestClient) -> None:
    missing = client.get("/tutorial/xx")
    assert missing.status_code == 404 and Page(missing.text).root["lang"] == "en"
    assert all(f'href="/tutorial/{lang}"' in missing.text for lang in LANGUAGES)
    redirect = client.get("/tutorial", follow_redirects=False)
    assert redirect.status_code == 307 and redirect.headers["location"] == "/tutorial/en"


# The API the page plays through


def ask(client: TestClient, name: str, **params: str) -> dict[str, Any]:
    response = client.get(f"/api/tutorial/{name}", params=params)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def made(steps: list[tuple[int, int]]) -> str:
    return ",".join(f"{a}/{b}" for a, b in steps)


@pytest.mark.parametrize("step", [s for s in RAW if s["kind"] == "move"], ids=lambda s: s["name"])
def test_a_move_step_played_step_by_step(client: TestClient, step: dict[str, Any]) -> None:
    position = Position.from_id(step["position"])
    turn = position.turn(step["dice"])
    play = position.parse_play(step["plays"][0], step["dice"])
    done: list[tuple[int, int]] = []
    for each in play.steps:
        view = ask(client, step["name"], made=made(done))
        assert view["verdict"] is None and view["play"] is None
        offered = {(s["from"], s["to"]) for s in view["steps"]}
        assert offered == set(turn.legal_steps())
        turn = turn.step(each.from_point, each.to_point)
        done.append((each.from_point, each.to_point))
    view = ask(client, step["name"], made=made(done))
    assert view["verdict"] == "right" and view["steps"] == []
    assert view["play"] == step["plays"][0]
    assert all(die["used"] for die in view["dice"])
    # Another legal play is legal, and not what the step teaches.
    other = next(p for p in position.legal_plays(step["dice"]) if p.result != play.result)
    view = ask(client, step["name"], made=made([(s.from_point, s.to_point) for s in other.steps]))
    assert view["verdict"] == "wrong" and view["play"] == str(other)


def test_a_step_opens_with_the_computers_reply_marked(client: TestClient) -> None:
    """The reply 24/18 13/9 that leaves the blot to hit, drawn on the board before it."""
    reply = ask(client, "hit")["reply"]
    assert [(s["board_from"], s["board_to"], s["hit"]) for s in reply["steps"]] == [
        (1, 7, False), (12, 16, False)]
    assert reply["board"]["points"][0] == {"seat": 1, "count": 2}
    enter = ask(client, "enter")["reply"]
    assert [(s["board_from"], s["board_to"], s["hit"]) for s in enter["steps"]] == [
        (25, 2, False), (2, 8, True)]
    assert ask(client, "first-move")["reply"] is None
    assert ask(client, "take")["reply"] is None  # your own turn came last


def test_the_board_is_drawn_from_the_players_side(client: TestClient) -> None:
    view = ask(client, "first-move")
    points = view["board"]["points"]
    assert points[5] == {"seat": 0, "count": 5} and points[23] == {"seat": 0, "count": 2}
    assert points[0] == {"seat": 1, "count": 2}
    # After the computer's reply its two checkers moved; it is your turn again.
    view = ask(client, "take")
    assert view["mover"] == 1 and view["cube"]["offer"] == {"by": 1, "value": 4, "beavered": False}
    assert sum(view["board"]["off"]) > 0


@pytest.mark.parametrize(
    ("name", "action", "verdict", "cube"),
    [("opening", "roll", "right", (1, None)), ("double", "roll", "wrong", (1, None)),
     ("double", "double", "right", (2, 1)), ("take", "drop", "wrong", (2, 1)),
     ("take", "take", "right", (4, 0))],
)
def test_the_buttons(
    client: TestClient, name: str, action: str, verdict: str, cube: tuple[int, int | None]
) -> None:
    view = ask(client, name, action=action)
    assert view["verdict"] == verdict
    assert (view["cube"]["value"], view["cube"]["owner"]) == cube
    if name == "opening":
        assert [die["value"] for die in view["dice"]] == RAW[0]["dice"]


@pytest.mark.parametrize(
    ("path", "status"),
    [("/api/tutorial/nope", 404), ("/api/tutorial/hit?made=13-7", 422),
     ("/api/tutorial/hit?made=1/0", 422), ("/api/tutorial/hit?action=roll", 422),
     ("/api/tutorial/take?action=double", 422), ("/api/tutorial/double?made=8/5", 422),
     ("/api/tutorial/hit?made=" + ",".join(["13/7"] * 5), 422)],
)
def test_what_the_api_refuses_it_says_in_a_sentence(
    client: TestClient, path: str, status: int
) -> None:
    response = client.get(path)
    assert response.status_code == status
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail.endswith(".")
