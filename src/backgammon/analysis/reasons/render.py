"""Reasons said in words: one template a reason code in each language
(``templates/<lang>.json``), written with the words of that language's glossary, the one the
help pages and the game's catalogue use (a test checks each template against it).

A template is a string with ``{figure}`` placeholders, or, where a count decides the form of
the words, an object ``{"count": figure, "one": ..., "other": ...}`` with the language's plural
categories (CLDR's, as the page's ``Intl.PluralRules`` chooses them). Numbers are written as
the page writes them (``Intl.NumberFormat``): Persian digits and separators in Persian, a
decimal comma in Vietnamese; a chance as a whole percentage, with as many decimals as tell
two different chances of one reason apart. A play's notation stays left to right inside a
right-to-left sentence.

>>> from backgammon.analysis.reasons.reason import Reason
>>> say(Reason("take", wins=0.31, needed=0.25), "en")
'a take: you win 31%, you need 25%'
>>> say(Reason("take", wins=0.2541, needed=0.2512), "en")
'a take: you win 25.4%, you need 25.1%'
>>> say(Reason("leaves_shots", shots=11), "fa")
'مهرهٔ تنها می\u200cگذارد که زده شود: ۱۱ تاس از ۳۶'
>>> say(Reason("take", wins=0.31, needed=0.25), "xx")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
backgammon...UnknownLanguageError: The reasons are said in en, vi, mt, fa, km; there is no ...
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from ...errors import BackgammonError
from .reason import Code, Figure, Reason

#: The languages, in the game's order.
LANGUAGES = ("en", "vi", "mt", "fa", "km")
TEMPLATES = Path(__file__).resolve().parent / "templates"

#: The codes whose float figures are points of a game (the rest are chances), and of those
#: the equities, written as the hints write them (a sign, three decimals).
_IN_POINTS = frozenset({Code.ACCEPT_POINTS, Code.REJECT_POINTS})
_EQUITIES = frozenset({Code.EXPECTS_MORE, Code.EXPECTS_LESS})
# Each language's digits, decimal separator and percentage, as Intl.NumberFormat writes them.
_PERSIAN_DIGITS = str.maketrans("0123456789-", "۰۱۲۳۴۵۶۷۸۹\u2212")
_DECIMAL = {"en": ".", "vi": ",", "mt": ".", "fa": "٫", "km": "."}
_PERCENT = {"fa": "{}٪"}


class UnknownLanguageError(BackgammonError):
    """A language the reasons are not said in."""


def say(reason: Reason, lang: str) -> str:
    """``reason`` in words, in ``lang``."""
    template = _templates(_checked(lang))[reason.code.value]
    figures = reason.figures
    if isinstance(template, dict):
        count = figures[template["count"]]
        assert isinstance(count, int | float)
        template = template.get(plural_category(count, lang), template["other"])
    return str(template).format_map(_written(reason.code, figures, lang))


def say_all(reasons: Iterable[Reason], lang: str) -> list[str]:
    """Each of ``reasons`` in words, in ``lang``."""
    return [say(reason, lang) for reason in reasons]


def plural_category(count: float, lang: str) -> str:
    """CLDR's plural category of ``count`` in ``lang`` (its cardinal rules): English "one"
    and "other"; Maltese also "two", "few" and "many"; Vietnamese, Persian (whose nouns after
    a number stay singular) and Khmer need only "other".

    >>> [plural_category(n, "mt") for n in (1, 2, 3, 11, 20)]
    ['one', 'two', 'few', 'many', 'other']
    """
    whole = count == int(count)
    n = int(count)
    if lang == "en":
        return "one" if whole and n == 1 else "other"
    if lang == "mt" and whole:
        if n == 1:
            return "one"
        if n == 2:
            return "two"
        if n == 0 or 3 <= n % 100 <= 10:
            return "few"
        if 11 <= n % 100 <= 19:
            return "many"
    return "other"


def _checked(lang: str) -> str:
    if lang not in LANGUAGES:
        raise UnknownLanguageError(
            f"The reasons are said in {', '.join(LANGUAGES)}; there is no language {lang!r}."
        )
    return lang


@cache
def _templates(lang: str) -> Mapping[str, Any]:
    data: dict[str, Any] = json.loads((TEMPLATES / f"{lang}.json").read_text(encoding="utf-8"))
    reasons: Mapping[str, Any] = data["reasons"]
    return reasons


def _written(code: Code, figures: Mapping[str, Figure], lang: str) -> dict[str, str]:
    """Each figure as ``lang`` writes it."""
    chances = [value for value in figures.values() if isinstance(value, float)]
    places = _places(chances)
    written = {}
    for name, value in figures.items():
        if isinstance(value, str):
            written[name] = f"\u2066{value}\u2069" if lang == "fa" else value
        elif isinstance(value, int):
            written[name] = _number(str(value), lang)
        elif code in _IN_POINTS:
            written[name] = _number(f"{value:.2f}".rstrip("0").rstrip("."), lang)
        elif code in _EQUITIES:
            written[name] = _number(f"{value:+.3f}", lang)
        else:
            percent = _number(f"{100 * value:.{places}f}", lang)
            written[name] = _PERCENT.get(lang, "{}%").format(percent)
    return written


def _places(chances: list[float]) -> int:
    """The fewest decimals of a percentage (0 to 2) that keep different chances apart."""
    for places in range(3):
        shown = {round(100 * chance, places) for chance in chances}
        if len(shown) == len(set(chances)):
            return places
    return 2


def _number(text: str, lang: str) -> str:
    text = text.replace(".", _DECIMAL[lang])
    if lang == "fa":
        # Persian: its digits, and a minus kept on the number's left.
        return text.translate(_PERSIAN_DIGITS).replace("\u2212", "\u200e\u2212")
    return text
