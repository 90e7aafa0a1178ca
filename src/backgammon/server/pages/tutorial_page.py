"""The tutorial's page, ``/tutorial/<lang>``: every step's heading and instruction, so that it
reads in order without a script, in the language's catalogue ``web/tutorial/<lang>.json`` (the
glossary's terms, as the help pages use them); ``js/tutorial.js`` then shows one step at a time
on the game's own board (:mod:`.tutorial_views`). Drawn with the pages' one shell
(:mod:`.templates`).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from markupsafe import Markup

from .languages import LANGUAGES
from .templates import render as render_template
from .tutorial_script import TUTORIAL, script

#: The buttons under the board, and whether each is the primary one.
BUTTONS = (("roll", True), ("double", False), ("take", True), ("drop", False),
           ("undo", False), ("again", True))


@cache
def words(lang: str) -> dict[str, str]:
    """A language's tutorial catalogue."""
    data: dict[str, str] = json.loads((TUTORIAL / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def number(lang: str, value: int) -> str:
    """``value`` in the language's digits (Persian and Khmer have their own).

    >>> number("fa", 12), number("en", 7)
    ('۱۲', '7')
    """
    digits = words(lang)["digits"]
    return "".join(digits[int(figure)] for figure in str(value))


@cache
def render(lang: str) -> str:
    """The whole tutorial page in ``lang``."""
    say = words(lang)
    return render_template(
        "tutorial.html",
        lang=lang,
        dir=say["meta.dir"],
        title=say["title"],
        stylesheets=("/css/style.css", "/css/tutorial.css"),
        scripts=("/js/tutorial.js",),
        say=say,
        links=_languages(lang),
        # The catalogue's sentences carry their own markup (links, emphasis).
        intro=Markup(say["intro"]),
        end=Markup(say["end.text"]),
        steps=_steps(lang),
        buttons=[{"name": name, "primary": primary, "label": say[f"button.{name}"]}
                 for name, primary in BUTTONS],
        feedback=Markup(_feedback(say)),
    )


def _steps(lang: str) -> list[dict[str, Any]]:
    """Each step's name, kind, heading, count (``Step 2 of 9``) and instruction."""
    say = words(lang)
    steps = script()
    total = number(lang, len(steps))
    return [
        {
            "name": step.name,
            "kind": step.kind,
            "title": say[f"{step.name}.title"],
            "counted": say["stepOf"].format(n=number(lang, index), total=total),
            "text": Markup(say[f"{step.name}.text"]),
        }
        for index, step in enumerate(steps, start=1)
    ]


def _languages(lang: str) -> list[dict[str, Any]]:
    """The links to the tutorial in each language."""
    return [
        {"href": f"/tutorial/{other}", "lang": other, "dir": words(other)["meta.dir"],
         "name": words(other)["language"], "current": other == lang}
        for other in LANGUAGES
    ]


def _feedback(say: dict[str, str]) -> str:
    """The feedback the script says (a step's "done", "wrong" and "help"), for
    js/tutorial.js, as JSON that cannot close the script element it is in."""
    feedback = {key: value for key, value in say.items() if key.rsplit(".", 1)[-1] in
                ("done", "wrong", "help", "error")}
    return json.dumps(feedback, ensure_ascii=False).replace("<", "\\u003c")


def not_found() -> str:
    """The page for a language the tutorial is not in: the ones it is in."""
    say = words("en")
    return render_template(
        "tutorial_not_found.html", lang="en", dir="ltr", title=say["title"],
        sentence=say["notFound"], others=LANGUAGES,
    )
