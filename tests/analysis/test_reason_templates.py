"""Every reason has a template in every language, each fills in with the reason's figures,
and each says the game's terms in the words of its language's glossary (the help pages' and
the game's catalogue's)."""

from __future__ import annotations

import json
import string
from pathlib import Path
from typing import Any

import pytest

from backgammon.analysis.reasons import FIGURES, LANGUAGES, Code, Reason, say
from backgammon.analysis.reasons.render import TEMPLATES, plural_category

GLOSSARY = Path(__file__).resolve().parents[2] / "src" / "backgammon" / "web" / "help" / "glossary"

#: The glossary's terms that each reason names.
TERMS: dict[Code, tuple[str, ...]] = {
    Code.HITS: ("hit", "checker"),
    Code.MAKES_POINT: ("point",),
    Code.MAKES_ANCHOR: ("anchor", "point"),
    Code.BUILDS_PRIME: ("prime",),
    Code.ESCAPES_BACK_CHECKER: ("back checker",),
    Code.BEARS_OFF: ("bear off",),
    Code.BREAKS_POINT: ("point",),
    Code.BREAKS_ANCHOR: ("anchor", "point"),
    Code.SAFE: ("blot", "hit"),
    Code.LEAVES_SHOTS: ("blot", "hit"),
    Code.MORE_GAMMONS: ("gammon",),
    Code.FEWER_GAMMONS: ("gammon",),
    Code.LOSES_FEWER_GAMMONS: ("gammon",),
    Code.LOSES_MORE_GAMMONS: ("gammon",),
    Code.DOUBLE: ("double",),
    Code.NOT_STRONG_ENOUGH: ("double",),
    Code.NO_DOUBLE: ("double",),
    Code.TOO_GOOD_TO_DOUBLE: ("double", "gammon"),
    Code.THEY_TAKE: ("take",),
    Code.THEY_DROP: ("drop", "take"),
    Code.THEY_BEAVER: ("beaver",),
    Code.TAKE: ("take",),
    Code.DROP: ("drop", "take"),
    Code.BEAVER: ("beaver", "take"),
    Code.TAKE_BEAVER: ("take", "beaver"),
    Code.DROP_BEAVER: ("drop", "beaver"),
    Code.GAMMON_CHANCES: ("gammon",),
    Code.GAMMON_RISK: ("gammon",),
    Code.RACE_LEAD: ("race", "pip"),
    Code.RACE_TRAIL: ("race", "pip"),
    Code.RACE_EVEN: ("race",),
    Code.ACCEPT_MATCH: ("match",),
    Code.REJECT_MATCH: ("match",),
    Code.WIN_CHANCES: ("gammon", "backgammon"),
    Code.PINS: ("pin", "checker"),
    Code.LEAVES_BLOTS: ("blot",),
    Code.MOTHER_EXPOSED: ("mother", "pin"),
    Code.FEWER_BLOTS: ("blot",),
    Code.MORE_BLOTS: ("blot",),
}

#: A figure of each name, to fill the templates with.
SAMPLES: dict[str, Any] = {
    "checkers": 2, "point": 5, "length": 4, "shots": 11, "other": 0.2, "than": "13/8 6/5",
    "gammons": 0.15, "wins": 0.31, "needed": 0.25, "margin": 0.12, "pips": 12, "gets": 0.6,
    "worth": 0.55, "backgammons": 0.01, "blots": 2, "points": 0.153,
}


def templates(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((TEMPLATES / f"{lang}.json").read_text(encoding="utf-8"))
    return data["reasons"]


def forms(template: Any) -> list[str]:
    """A template's texts: itself, or each of its counted forms."""
    if isinstance(template, str):
        return [template]
    return [text for key, text in template.items() if key != "count"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_reason_has_a_template_with_its_figures(lang: str) -> None:
    found = templates(lang)
    assert set(found) == {code.value for code in Code}
    for code in Code:
        template = found[code.value]
        if isinstance(template, dict):
            assert template["count"] in FIGURES[code] and "other" in template
        for text in forms(template):
            names = {name for _, name, _, _ in string.Formatter().parse(text) if name}
            assert names <= set(FIGURES[code]), (code, text)
        reason = Reason(code, **{name: SAMPLES[name] for name in FIGURES[code]})
        said = say(reason, lang)
        assert said and "{" not in said and said == said.strip()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_reasons_use_the_glossarys_words(lang: str) -> None:
    glossary = json.loads((GLOSSARY / f"{lang}.json").read_text(encoding="utf-8"))["terms"]
    avoided = json.loads((GLOSSARY / f"{lang}.json").read_text(encoding="utf-8"))["avoid"]
    found = templates(lang)
    missing = {}
    for code, terms in TERMS.items():
        for text in forms(found[code.value]):
            lacking = [term for term in terms
                       if not any(form.casefold() in text.casefold() for form in glossary[term])]
            if lacking:
                missing[f"{code.value}: {text}"] = lacking
            assert not [word for word in avoided if word in text]
    assert missing == {}


def test_numbers_as_each_language_writes_them() -> None:
    reason = Reason(Code.TAKE, wins=0.2541, needed=0.2512)
    assert [say(reason, lang).split(":")[1] for lang in ("en", "vi")] == [
        " you win 25.4%, you need 25.1%", " bạn thắng 25,4%, bạn cần 25,1%"
    ]
    assert "۲۵٫۴٪" in say(reason, "fa") and "25.4%" in say(reason, "km")
    # A play's notation keeps its order inside Persian's right to left.
    compared = Reason(Code.WINS_MORE, wins=0.5, other=0.4, than="24/14")
    assert "\u206624/14\u2069" in say(compared, "fa")


def test_equities_as_the_hints_write_them() -> None:
    reason = Reason(Code.EXPECTS_MORE, points=0.1534, other=-0.2, than="13/7")
    assert say(reason, "en") == "expects more points than 13/7: +0.153 against -0.200"
    assert "+0,153" in say(reason, "vi") and "\u206613/7\u2069" in say(reason, "fa")


def test_counted_forms() -> None:
    assert say(Reason(Code.BEARS_OFF, checkers=1), "en") == "bears off a checker"
    assert say(Reason(Code.BEARS_OFF, checkers=3), "en") == "bears off 3 checkers"
    assert say(Reason(Code.BEARS_OFF, checkers=1), "mt") == "tneħħi pedina mill-bord"
    assert [plural_category(n, "en") for n in (0, 1, 2)] == ["other", "one", "other"]
    assert plural_category(1, "fa") == "other"
