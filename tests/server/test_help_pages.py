"""The help pages (/help/<lang>/<topic>): every page in every language, its language and
direction, its headings, its boards, its navigation, the 404s; and each language's glossary,
the words the pages and the game's catalogue share."""

from __future__ import annotations

import glob
import itertools
import json
import re
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backgammon.formats.svg import BoardLabels
from backgammon.server import Settings, create_app
from backgammon.server.pages.help import HELP, TOPICS, HelpContentError, boards, render
from backgammon.server.pages.languages import LANGUAGES
from backgammon.server.settings import sqlite_url

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = ROOT / "src" / "backgammon" / "web" / "messages"
PAGES = [(lang, topic) for lang in LANGUAGES for topic in TOPICS]


def address(lang: str, topic: str) -> str:
    return f"/help/{lang}/" if topic == "index" else f"/help/{lang}/{topic}"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("help") / "games.sqlite"
    with TestClient(create_app(Settings(database_url=sqlite_url(database)))) as running:
        yield running


class Page(HTMLParser):
    """What a test needs of a page: its root's attributes, headings, links, boards and the
    text of its main part."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.root: dict[str, str | None] = {}
        self.headings: list[tuple[int, str | None]] = []
        self.links: list[dict[str, str | None]] = []
        self.figures = 0
        self.main_text: list[str] = []
        self._in_main = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "html":
            self.root = named
        elif re.fullmatch(r"h[1-6]", tag):
            self.headings.append((int(tag[1]), named.get("id")))
        elif tag == "a":
            self.links.append(named)
        elif tag == "figure":
            self.figures += 1
        elif tag == "main":
            self._in_main = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self._in_main = False

    def handle_data(self, data: str) -> None:
        if self._in_main:
            self.main_text.append(data)

    @property
    def text(self) -> str:
        return " ".join(self.main_text)

    def hrefs(self) -> set[str]:
        return {href for link in self.links if (href := link.get("href"))}


def fetch(client: TestClient, path: str) -> tuple[int, str]:
    response = client.get(path)
    return response.status_code, response.text


@pytest.mark.parametrize(("lang", "topic"), PAGES)
def test_each_page_in_each_language(client: TestClient, lang: str, topic: str) -> None:
    status, text = fetch(client, address(lang, topic))
    assert status == 200
    page = Page(text)
    assert page.root["lang"] == lang
    assert page.root["dir"] == ("rtl" if lang == "fa" else "ltr")
    # One h1, first; no heading more than one level below the one before it.
    levels = [level for level, _ in page.headings]
    assert levels.count(1) == 1 and levels[0] == 1
    assert all(b - a <= 1 for a, b in itertools.pairwise(levels)), levels
    # Every board drawn: no placeholder left, each figure an SVG image that parses.
    assert "<board" not in text
    svgs = re.findall(r"<svg\b.*?</svg>", text, flags=re.S)
    assert svgs and len(svgs) == page.figures
    for svg in svgs:
        root = ET.fromstring(svg)
        assert root.get("role") == "img" and root.get("aria-label")
    # The navigation: every topic of this language, every language, the game, the stylesheet.
    hrefs = page.hrefs()
    assert {address(lang, other) for other in TOPICS} <= hrefs
    assert {address(other, topic) for other in LANGUAGES} <= hrefs
    assert "/" in hrefs
    # The one stylesheet: help.css, or its bundle while that is current (test_bundles.py).
    sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)">', text)
    assert len(sheets) == 1 and re.fullmatch(r"/help/help\.css|/dist/help-\w+\.css", sheets[0])
    assert "<script" not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_says_every_topic_with_the_same_sections_and_boards(lang: str) -> None:
    """A translation is complete: each topic has the English one's sections (by their ids)
    and draws the same boards, in the same order."""
    for topic in TOPICS:
        english = (HELP / "en" / f"{topic}.html").read_text(encoding="utf-8")
        ours = (HELP / lang / f"{topic}.html").read_text(encoding="utf-8")
        assert re.findall(r'<h[23] id="([^"]+)"', ours) == re.findall(
            r'<h[23] id="([^"]+)"', english
        ), topic
        assert placeholders(ours) == placeholders(english), topic
        assert len(re.findall(r'caption="[^"]+"', ours)) == english.count("<board"), topic


def placeholders(fragment: str) -> list[dict[str, str]]:
    """Each board placeholder's attributes but its caption: the position it draws."""
    return [
        {name: value for name, value in re.findall(r'([\w-]+)="([^"]*)"', found)
         if name != "caption"}
        for found in re.findall(r"<board\b([^>]*)>", fragment)
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_words_are_complete(lang: str) -> None:
    english = json.loads((HELP / "en" / "page.json").read_text(encoding="utf-8"))
    ours = json.loads((HELP / lang / "page.json").read_text(encoding="utf-8"))
    assert set(ours) - {"note"} == set(english)
    assert set(ours["topics"]) == set(TOPICS) and set(ours["board"]) == set(english["board"])


@pytest.mark.parametrize(
    ("path", "lang"),
    [("/help/xx/", "en"), ("/help/xx/rules", "en"), ("/help/xx", "en"), ("/help/fa/nope", "fa"),
     ("/help/km/index", "km"), ("/help/vi/rules.html", "vi"), ("/help/glossary/en.json", "en")],
)
def test_what_does_not_exist_is_a_404_that_says_what_does(
    client: TestClient, path: str, lang: str
) -> None:
    status, text = fetch(client, path)
    assert status == 404
    page = Page(text)
    assert page.root["lang"] == lang
    assert [level for level, _ in page.headings] == [1]
    assert path in page.text
    hrefs = page.hrefs()
    assert {address(lang, topic) for topic in TOPICS} <= hrefs
    assert {f"/help/{other}/" for other in LANGUAGES} <= hrefs


def test_the_help_root_and_a_language_without_its_slash_redirect(client: TestClient) -> None:
    redirects = [("/help", "/help/en/"), ("/help/", "/help/en/"), ("/help/mt", "/help/mt/")]
    for path, target in redirects:
        response = client.get(path, follow_redirects=False)
        assert response.status_code in (307, 308) and response.headers["location"] == target


def test_the_stylesheet(client: TestClient) -> None:
    response = client.get("/help/help.css")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/css")
    assert "figure.board" in response.text


def test_the_help_files_are_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["backgammon"]
    package = ROOT / "src" / "backgammon"
    shipped = {
        Path(found)
        for pattern in patterns
        for found in glob.glob(str(package / pattern), recursive=True)
    }
    files = {path for path in HELP.rglob("*") if path.is_file()}
    assert files and files <= shipped


#: The page's words the questions on online play name it by (the catalogue's): the front
#: page's choices for a friend and an opponent and their buttons, the invite, the lobby's
#: lists, buttons and rated mark, the rated match's choice, and where to sign in.
ONLINE_WORDS = ("setup.friend", "setup.where.online", "setup.invite", "setup.find", "setup.offer",
                "setup.more", "invite.heading", "setup.rated", "lobby.heading", "lobby.join",
                "lobby.rated", "lobby.refresh", "account.link", "lobby.live.heading", "lobby.watch")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_questions_say_how_to_play_online_in_the_pages_words(
    client: TestClient, lang: str
) -> None:
    """The questions and answers end with playing online: inviting a friend by link, what the
    lobby's entries say, why a rated game needs an account and how to create one, watching,
    and an opponent who leaves (the rules' claim); they name the page's controls as the page
    does, and the contents page links to them."""
    _, text = fetch(client, address(lang, "faq"))
    section = Page(text[text.index('<h2 id="online">'):text.index("</main>")].join(
        ("<main>", "</main>")))
    assert [name for _, name in section.headings] == [
        "online", "invite", "lobby", "rated", "watch", "opponent-leaves"]
    catalogue = json.loads((MESSAGES / f"{lang}.json").read_text(encoding="utf-8"))
    words = [catalogue[key] for key in ONLINE_WORDS]
    said = section.text.casefold()
    assert [word for word in words if word.casefold() not in said] == []
    assert "rules#leaving" in section.hrefs()
    assert "faq#online" in Page(fetch(client, address(lang, "index"))[1]).hrefs()


# The other games' rules (/help/<lang>/games)

SVG = "{http://www.w3.org/2000/svg}"
#: A game's section, and what its boards must show: (side, place, count, pinned) stacks.
GAME_BOARDS: dict[str, list[set[tuple[str, str, str, str | None]]]] = {
    "tavla": [{("on-roll", "24", "2", None), ("opponent", "1", "2", None)}],
    "plakoto": [{("on-roll", "24", "15", None), ("opponent", "1", "15", None)},
                {("opponent", "5", "1", "true"), ("on-roll", "5", "3", None)},
                {("on-roll", "24", "1", "true"), ("opponent", "24", "2", None)}],
    "fevga": [{("on-roll", "24", "15", None), ("opponent", "12", "15", None)}],
    "nardy": [{("on-roll", "24", "15", None), ("opponent", "12", "15", None)}],
    "acey-deucey": [{("on-roll", "bar", "15", None), ("opponent", "bar", "15", None)}],
}


def sections(text: str) -> dict[str, str]:
    """The page's main part cut at each h2 and h3, by the heading's id."""
    main = text[text.index("<main"):text.index("</main>")]
    cuts = list(re.finditer(r'<h[23] id="([^"]+)"', main))
    return {cut.group(1): main[cut.start():following.start() if following else len(main)]
            for cut, following in itertools.zip_longest(cuts, cuts[1:])}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_game_is_drawn_on_its_own_board(client: TestClient, lang: str) -> None:
    """Tavla from backgammon's start; Plakoto's pinned checkers at the foot of their point
    (its mother too); Fevga's and Nardy's opponent on the player's 12-point, both sides
    travelling the same way; Acey-deucey's fifteen waiting off the board."""
    status, text = fetch(client, address(lang, "games"))
    assert status == 200
    by_section = sections(text)
    for game, drawn in GAME_BOARDS.items():
        svgs = re.findall(r"<svg\b.*?</svg>", by_section[game], flags=re.S)
        assert len(svgs) == len(drawn), game
        for svg, shown in zip(svgs, drawn, strict=True):
            stacks = {(g.get("data-side"), g.get("data-place"), g.get("data-count"),
                       g.get("data-pinned"))
                      for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "stack"}
            assert shown <= stacks, game
    # The Tavli section names its three games and links to each.
    assert {"#portes", "#plakoto", "#fevga"} <= Page(text).hrefs()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_games_page_names_its_sources_and_offers_no_play(
    client: TestClient, lang: str
) -> None:
    """The sources by name and address, each a public page; no link into the game's play
    (the games are not yet played), and the contents and the variants link to the page."""
    _, text = fetch(client, address(lang, "games"))
    hrefs = Page(sections(text)["sources"]).hrefs()
    assert len(hrefs) >= 8 and all(href.startswith("https://") for href in hrefs)
    for href in hrefs:  # the address is said in the link's text
        assert f">{href.removeprefix('https://').removeprefix('www.')}</a>" in text
    assert not any(href == "/" or href.startswith(("/?", "/play", "/api"))
                   for href in Page(text[text.index("<main"):text.index("</main>")]).hrefs())
    for topic in ("index", "variants"):
        assert "games" in Page(fetch(client, address(lang, topic))[1]).hrefs(), topic


@pytest.mark.parametrize(
    "placeholder",
    ['<board game="chess" caption="x">',
     '<board game="plakoto" mine="24:14 5:1" theirs="24:14 20:1" caption="shared, no pin">',
     '<board game="fevga" mine="24:15 12:1" theirs="24:15" caption="sixteen">',
     '<board game="fevga" mine="24:x" caption="not a count">'],
)
def test_a_games_board_the_rules_forbid_is_refused(placeholder: str) -> None:
    """A help board of a game is checked by that game's rules: a page cannot show a position
    the game cannot reach (two sides on one point without a pin, sixteen checkers)."""
    with pytest.raises(HelpContentError, match="cannot be drawn"):
        boards(placeholder, BoardLabels())


#: Words an English sentence can hardly do without, and no translation uses.
ENGLISH_WORDS = re.compile(
    r"\b(the|and|of|with|when|which|checkers?|points?|players?|board|moves?|game)\b", re.I
)


class Translated(HTMLParser):
    """A translated page's main text, less what is marked as written in another language
    (``lang`` attributes: a source's English title) and the links' addresses."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text: list[str] = []
        self._main = False
        self._foreign: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "main":
            self._main = True
        elif self._main and (self._foreign or named.get("lang") or (
                tag == "a" and (named.get("href") or "").startswith("https://"))):
            self._foreign.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self._main = False
        elif self._foreign and self._foreign[-1] == tag:
            self._foreign.pop()

    def handle_data(self, data: str) -> None:
        if self._main and not self._foreign:
            self.text.append(data)


@pytest.mark.parametrize(
    ("lang", "topic"), [(lang, topic) for lang, topic in PAGES if lang != "en"]
)
def test_no_english_is_left_in_a_translated_page(
    client: TestClient, lang: str, topic: str
) -> None:
    """A translated page says nothing in English but what it marks as such (a source's
    title) and the addresses it links to; its boards are described in its language."""
    _, text = fetch(client, address(lang, topic))
    said = " ".join(Translated(text).text)
    assert ENGLISH_WORDS.findall(said) == []
    labels = " ".join(re.findall(r'aria-label="([^"]*)"', text))
    assert ENGLISH_WORDS.findall(labels) == []
    assert not re.search(r"\b(pinned|waiting|borne)\b", labels)


def test_the_english_words_are_found_where_they_are() -> None:
    """The check above finds English where there is some (the English page itself), and
    skips a title marked as English."""
    english = render("en", "games")
    assert len(ENGLISH_WORDS.findall(" ".join(Translated(english).text))) > 100
    marked = '<main><p>Hướng dẫn <cite lang="en">Rules of the Game</cite></p></main>'
    assert ENGLISH_WORDS.findall(" ".join(Translated(marked).text)) == []


# The glossaries

#: The game's message that names each glossary term (the catalogue and the help must agree).
CATALOGUE_TERMS = {
    "checker": "point.checkers.other",
    "point": "point.empty",
    "bar": "bar.empty",
    "home board": "setup.homeSide",
    "tray": "tray.empty",
    "bear off": "tray.checkers.other",
    "doubling cube": "setup.cube",
    "double": "button.double",
    "take": "button.take",
    "drop": "button.drop",
    "beaver": "button.beaver",
    "gammon": "resign.level.2",
    "backgammon": "resign.level.3",
    "Crawford": "setup.crawford",
    "Jacoby": "setup.jacoby",
    "pip": "pips",
    "resign": "button.resign",
    "match": "info.match",
    "dice": "dice.label",
}


def glossary(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (HELP / "glossary" / f"{lang}.json").read_text(encoding="utf-8")
    )
    return data


def help_text(client: TestClient, lang: str) -> str:
    return " ".join(Page(fetch(client, address(lang, topic))[1]).text for topic in TOPICS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_and_the_game_use_the_glossarys_words(client: TestClient, lang: str) -> None:
    terms: dict[str, list[str]] = glossary(lang)["terms"]
    assert set(terms) == set(glossary("en")["terms"]) >= set(CATALOGUE_TERMS)
    text = help_text(client, lang).casefold()
    missing = {term: forms for term, forms in terms.items()
               if not any(form.casefold() in text for form in forms)}
    assert missing == {}, "terms the help pages never use in the glossary's words"
    catalogue = json.loads((MESSAGES / f"{lang}.json").read_text(encoding="utf-8"))
    differ = {term: catalogue[key] for term, key in CATALOGUE_TERMS.items()
              if not any(form.casefold() in catalogue[key].casefold() for form in terms[term])}
    assert differ == {}, "catalogue messages that use other words than the glossary"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_avoids_the_machine_translations_words(client: TestClient, lang: str) -> None:
    """The seeds' mistranslations ("checker" as "inspector") appear only in the note that
    names them, never in the pages' text."""
    avoided: list[str] = glossary(lang)["avoid"]
    text = help_text(client, lang)
    assert [word for word in avoided if word in text] == []
    note = json.loads((HELP / lang / "page.json").read_text(encoding="utf-8")).get("note", "")
    assert all(word in note for word in avoided[:1])
    if avoided:
        _, page = fetch(client, f"/help/{lang}/rules")
        assert page.count('class="translation-note"') == 1
