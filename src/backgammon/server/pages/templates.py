"""The server's pages as Jinja2 templates (``html/``): one page shell (``shell.html``)
that every page extends, and each page's own body. Autoescaping is on: a value is written as
text unless it is :class:`~markupsafe.Markup` (the help's fragments, the catalogues' sentences
that carry links), made so where it is put together, never from what a request sent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

_ENVIRONMENT = Environment(
    loader=FileSystemLoader(Path(__file__).with_name("html")),
    autoescape=True,
    undefined=StrictUndefined,
    keep_trailing_newline=True,
)


def render(name: str, **values: Any) -> str:
    """The template ``name`` filled with ``values``; the shell's ``stylesheets`` and
    ``scripts`` default to none.

    >>> page = render("players.html", lang="en", dir="ltr", title="A & B",
    ...               say={"account.back": "Back"}, heading="<b>")
    >>> '<html lang="en" dir="ltr">' in page, "<title>A &amp; B</title>" in page
    (True, True)
    >>> "<h1>&lt;b&gt;</h1>" in page
    True
    """
    values.setdefault("stylesheets", ())
    values.setdefault("scripts", ())
    return _ENVIRONMENT.get_template(name).render(**values)
