"""The server's pages as Jinja2 templates (``html/``), and the app's own pages (``web/*.html``,
:func:`own_page`): one page shell (``shell.html``) that every page extends, and each page's
own body. Autoescaping is on: a value is written as
text unless it is :class:`~markupsafe.Markup` (the help's fragments, the catalogues' sentences
that carry links), made so where it is put together, never from what a request sent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

#: The page's files: the app's own pages (the board's ``index.html``, the verifier's, the
#: editor's and the trainer's, each a template that extends the shell), their modules,
#: styles, catalogues and fonts, and the bundles.
WEB = Path(__file__).resolve().parents[2] / "web"

_ENVIRONMENT = Environment(
    loader=FileSystemLoader([Path(__file__).with_name("html"), WEB]),
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


def own_page(name: str) -> str:
    """The app's own page ``name`` (``index.html``, ``verify.html``, ``editor.html``,
    ``trainer.html``): its language, direction and title are its script's to set, from the
    reader's catalogue, once it has read it.

    >>> page = own_page("verify.html")
    >>> page.startswith("<!doctype html>"), '<script type="module" src="/js/verify.js">' in page
    (True, True)
    """
    return render(name, lang="en", dir="ltr", title="")
