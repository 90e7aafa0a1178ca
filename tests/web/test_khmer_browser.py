"""Every language in its own words and letters: the catalogues leave no English
but a few names and signs, and the Khmer page draws its letters with the Noto Sans Khmer face
the page ships (fonts/, SIL OFL 1.1), loaded from the server."""

from __future__ import annotations

import json
import re
from typing import Any

from browser_support import WEB, post

#: Messages that stay as English has them: each language's own name, the variants' names,
#: the notation's words and separators, messages made of placeholders only, a dash, an
#: acronym, and the game's name where the language takes it as it is.
SAME_AS_ENGLISH = {
    "meta.dir", "language.en", "language.vi", "language.mt", "language.fa", "language.km",
    "variant.nackgammon", "variant.hypergammon", "notation.bar", "notation.off",
    "say.separator", "lobby.separator", "chat.separator", "record.play", "analysis.entry.checker",
    "analysis.entry.action", "lobby.entry", "hint.cube.none", "ids.xgid", "rollout.withSe",
    "button.nameDouble",
}
TITLE_AS_IT_IS = {"vi", "mt"}  # "Backgammon" is the game's name in Vietnamese and Maltese
#: The other games' names, which the languages in Latin letters write as they are.
GAME_NAMES = {f"game.{name}" for name in ("backgammon", "portes", "tavla", "plakoto", "fevga",
                                          "acey-deucey", "tavli")}
#: Terms a language takes from English as they are, as its glossary (web/help/glossary) says.
LOANWORDS = {"mt": {"button.beaver", "pips"}}


def messages(language: str) -> dict[str, str]:
    loaded: dict[str, str] = json.loads((WEB / "messages" / f"{language}.json").read_text())
    return loaded


def test_the_catalogues_leave_no_english() -> None:
    english = messages("en")
    for language in ("vi", "mt", "fa", "km"):
        allowed = SAME_AS_ENGLISH | LOANWORDS.get(language, set())
        allowed |= {"app.title", *GAME_NAMES} if language in TITLE_AS_IT_IS else set()
        same = {key for key, text in messages(language).items()
                if english.get(key) == text and key not in allowed}
        assert same == set(), (language, sorted(same))


def test_khmer_names_the_game_its_wins_and_the_beaver_in_khmer() -> None:
    khmer = messages("km")
    assert not re.search(r"[A-Za-z]", khmer["app.title"])
    for key, text in khmer.items():
        words = re.sub(r"\{\w+\}|GNU Backgammon|eXtreme Gammon", "", text)  # names
        assert not re.search(r"\b(gammon|backgammon|beaver|G|BG)\b", words, re.I), (key, text)


def test_the_khmer_page_uses_the_khmer_face_it_ships(server: str, page: Any) -> None:
    fonts: list[tuple[str, int, str]] = []
    page.on("response", lambda response: fonts.append(
        (response.url, response.status, response.headers.get("content-type", "")))
        if "/fonts/" in response.url else None)
    page.goto(server + "/")
    page.evaluate("localStorage.setItem('backgammon.language', 'km')")
    page.reload()
    page.wait_for_function("() => document.documentElement.lang === 'km'")
    assert page.inner_text("h1") == messages("km")["app.title"]
    # The face is declared for Khmer first, and loaded from the server.
    family = page.evaluate("getComputedStyle(document.querySelector('h1')).fontFamily")
    assert family.startswith('"Noto Sans Khmer"'), family
    loaded = page.evaluate(
        """async () => {
          const faces = await document.fonts.load('16px "Noto Sans Khmer"', 'ក');
          await document.fonts.ready;
          return {
            faces: faces.map(face => face.status),
            check: document.fonts.check('16px "Noto Sans Khmer"', 'ក'),
            all: [...document.fonts].filter(f => f.family.includes('Noto Sans Khmer'))
              .map(f => [f.weight, f.status]),
          };
        }"""
    )
    assert loaded["faces"] and set(loaded["faces"]) == {"loaded"}, loaded
    assert loaded["check"], loaded
    assert any(url.endswith("/fonts/noto-sans-khmer-khmer-400-normal.woff2") and status == 200
               for url, status, _ in fonts), fonts
    # The heading's letters are drawn with it: the page's own face, not one of the system's.
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument")["root"]["nodeId"]
    heading = session.send("DOM.querySelector", {"nodeId": root, "selector": "h1"})["nodeId"]
    drawn = session.send("CSS.getPlatformFontsForNode", {"nodeId": heading})["fonts"]
    assert any(font["familyName"] == "Noto Sans Khmer" and font["isCustomFont"]
               for font in drawn), drawn


def test_a_khmer_name_on_any_page_is_drawn_with_the_face_shipped(
    server: str, page: Any
) -> None:
    """Players write Khmer on pages in every language (a name, a message): the whole Khmer
    block ships (fonts/README.md says why), and every page's faces end with it."""
    fonts: list[str] = []
    page.on("response", lambda response: fonts.append(response.url)
            if "/fonts/" in response.url else None)
    match = post(server, "/api/matches", {"opponent": "online", "names": ["សុខា", "Player"]})
    post(server, "/api/matches/join", {"invite": match["invite"], "name": "Dara"})
    page.goto(f"{server}/?match={match['id']}")  # a spectator's page, in English
    name = page.locator(".player .name", has_text="សុខា")
    name.wait_for()
    # The face is fetched once a text to draw needs it (the name), then drawn with.
    page.wait_for_function(
        "() => [...document.fonts].some(face => face.family.includes('Noto Sans Khmer')"
        " && face.weight === '700' && face.status === 'loaded')")  # the names are bold
    assert page.evaluate("document.documentElement.lang") == "en"
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument")["root"]["nodeId"]
    names = session.send("DOM.querySelectorAll", {"nodeId": root, "selector": ".player .name"})
    drawn = [font for node in names["nodeIds"]
             for font in session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]]
    assert any(font["familyName"] == "Noto Sans Khmer" and font["isCustomFont"]
               for font in drawn), drawn
    assert any(url.endswith("/fonts/noto-sans-khmer-khmer-400-normal.woff2") for url in fonts)
