"""The server's pages as Jinja2 templates: one page shell (``shell.html``) that every page
extends, and each page's own body. Autoescaping is on: a value is written as text unless it is
:class:`~markupsafe.Markup` (the help's fragments, the catalogues' sentences that carry links),
made so where it is put together, never from what a request sent.

The templates are kept here, as text, rather than as files beside the module: the package's
data files are listed in ``pyproject.toml``, and these are short.
"""

from __future__ import annotations

from typing import Any

from jinja2 import DictLoader, Environment, StrictUndefined

#: The shell of every page: its language and direction, its title, its stylesheets and
#: scripts, then the page's body (``{% block body %}``).
SHELL = """\
<!doctype html>
<html lang="{{ lang }}" dir="{{ dir }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }}</title>
{% block head %}{% endblock %}
{%- for sheet in stylesheets %}
<link rel="stylesheet" href="{{ sheet }}">
{%- endfor %}
{%- for module in scripts %}
<script type="module" src="{{ module }}"></script>
{%- endfor %}
</head>
<body>
{% block body %}{% endblock %}
</body>
</html>
"""

#: The links to a page in each language (the help's and the tutorial's), ``links`` each with
#: its ``href``, ``lang``, ``dir``, ``name`` and whether it is the page's own (``current``).
MACROS = """\
{% macro languages(label, links) -%}
<nav class="languages" aria-label="{{ label }}"><ul>
{%- for link in links -%}
<li><a href="{{ link.href }}" lang="{{ link.lang }}" hreflang="{{ link.lang }}" \
dir="{{ link.dir }}"{% if link.current %} aria-current="true"{% endif %}>{{ link.name }}</a></li>
{%- endfor -%}
</ul></nav>
{%- endmacro %}
"""

HELP = """\
{% extends "shell.html" %}
{% from "macros.html" import languages %}
{% block body %}
<header class="help-top">
<a class="skip" href="#content">{{ say.skip }}</a>
<p class="site"><a href="/">{{ say.back }}</a> ·
<a href="/tutorial/{{ lang }}">{{ say.tutorial }}</a></p>
<nav class="topics" aria-label="{{ say.nav_topics }}"><ul>
{%- for topic in topics -%}
<li><a href="{{ topic.href }}"{% if topic.current %} aria-current="page"{% endif %}>\
{{ topic.name }}</a></li>
{%- endfor -%}
</ul></nav>{{ languages(say.nav_languages, links) }}
</header>
<main id="content">
{{ content }}
</main>
<footer>{% if note %}<p class="translation-note">{{ note }}</p>{% endif %}\
<p><a href="/">{{ say.back }}</a></p></footer>
{% endblock %}
"""

HELP_NOT_FOUND = """\
<h1>{{ say.not_found_title }}</h1><p>{{ sentence }}</p>"""

TUTORIAL = """\
{% extends "shell.html" %}
{% from "macros.html" import languages %}
{% block head %}<link rel="icon" href="data:,">{% endblock %}
{% block body %}
<header class="top">
<p class="site"><a href="/">{{ say["link.game"] }}</a> ·
<a href="/help/{{ lang }}/">{{ say["link.help"] }}</a></p>
{{ languages(say["nav.languages"], links) }}
</header>
<main id="tutorial" data-lang="{{ lang }}">
<h1>{{ say.title }}</h1>
<p>{{ intro }}</p>
<nav class="tutorial-steps" aria-label="{{ say["nav.steps"] }}">
<ol>{% for step in steps %}<li><a href="#{{ step.name }}">{{ step.title }}</a></li>{% endfor %}\
</ol></nav>
{% for step in steps -%}
<section class="tutorial-step" id="{{ step.name }}" data-step="{{ step.name }}" \
data-kind="{{ step.kind }}" aria-labelledby="{{ step.name }}-heading">\
<h2 id="{{ step.name }}-heading" tabindex="-1"><span class="step-count">{{ step.counted }}</span> \
{{ step.title }}</h2><p>{{ step.text }}</p></section>
{%- endfor %}
<div class="tutorial-play" hidden>
<svg id="board" class="board" xmlns="http://www.w3.org/2000/svg"></svg>
<p id="feedback" class="status" role="status" aria-live="polite"></p>
<div class="controls">
{%- for button in buttons -%}
<button type="button" id="{{ button.name }}-button" data-action="{{ button.name }}"\
{% if button.primary %} class="primary"{% endif %} hidden>{{ button.label }}</button>
{%- endfor -%}
</div>
<div class="tutorial-nav">
<button type="button" id="back-button">{{ say["button.back"] }}</button>
<button type="button" id="next-button" class="primary">{{ say["button.next"] }}</button>
</div>
</div>
<section class="tutorial-step" id="end" data-step="end" aria-labelledby="end-heading">
<h2 id="end-heading" tabindex="-1">{{ say["end.title"] }}</h2>
<p>{{ end }}</p>
<p class="tutorial-links"><a href="/">{{ say["end.play"] }}</a>
<a href="/help/{{ lang }}/rules">{{ say["end.rules"] }}</a></p>
</section>
</main>
<script type="application/json" id="tutorial-words">{{ feedback }}</script>
{% endblock %}
"""

TUTORIAL_NOT_FOUND = """\
{% extends "shell.html" %}
{% block body %}
<main><h1>{{ title }}</h1><p>{{ sentence }} \
{% for other in others %}<a href="/tutorial/{{ other }}">{{ other }}</a>\
{% if not loop.last %} {% endif %}{% endfor %}</p></main>
{% endblock %}
"""

#: The account page and each player's page: the link back to the game, the page's heading.
PLAYERS = """\
{% extends "shell.html" %}
{% block body %}
<header class="help-top"><p class="site"><a href="/">{{ back }}</a></p>
</header>
<main id="content">
<h1>{{ heading }}</h1>
{{ content }}
</main>
{% endblock %}
"""

_ENVIRONMENT = Environment(
    loader=DictLoader(
        {
            "shell.html": SHELL,
            "macros.html": MACROS,
            "help.html": HELP,
            "help_not_found.html": HELP_NOT_FOUND,
            "tutorial.html": TUTORIAL,
            "tutorial_not_found.html": TUTORIAL_NOT_FOUND,
            "players.html": PLAYERS,
        }
    ),
    autoescape=True,
    undefined=StrictUndefined,
    keep_trailing_newline=True,
)


def render(name: str, **values: Any) -> str:
    """The template ``name`` filled with ``values``; the shell's ``stylesheets`` and
    ``scripts`` default to none.

    >>> page = render("players.html", lang="en", dir="ltr", title="A & B", back="Back",
    ...               heading="<b>", content="")
    >>> '<html lang="en" dir="ltr">' in page, "<title>A &amp; B</title>" in page
    (True, True)
    >>> "<h1>&lt;b&gt;</h1>" in page
    True
    """
    values.setdefault("stylesheets", ())
    values.setdefault("scripts", ())
    return _ENVIRONMENT.get_template(name).render(**values)
