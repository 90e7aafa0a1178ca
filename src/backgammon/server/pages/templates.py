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

#: The account page and each player's page: the link back to the game, the page's heading,
#: then its content (``{% block content %}``).
PLAYERS = """\
{% extends "shell.html" %}
{% block body %}
<header class="help-top"><p class="site"><a href="/">{{ say["account.back"] }}</a></p>
</header>
<main id="content">
<h1>{{ heading }}</h1>
{% block content %}{% endblock %}
</main>
{% endblock %}
"""

#: The account page: signed in, who and the way out; else the forms to sign in and up (the
#: sentences the script shows on a refusal ride on each form as data attributes).
ACCOUNT = """\
{% extends "players.html" %}
{% block content -%}
{% if signed_in -%}
<p>{{ signed_in }}</p><p><a href="{{ own_page }}">{{ say["account.yourPage"] }}</a></p>\
<p><button type="button" id="sign-out">{{ say["account.signOut"] }}</button></p>
{%- else -%}
<p>{{ say["account.guest"] }}</p>
{%- for form in forms -%}
<section aria-labelledby="{{ form.id }}-heading"><h2 id="{{ form.id }}-heading">\
{{ form.label }}</h2><form id="{{ form.id }}" class="account-form"\
{% for kind in refusals %} data-{{ kind }}="{{ say["account." ~ kind] }}"{% endfor %}>\
<p><label>{{ say["account.name"] }}<br><input name="name" required autocomplete="username" \
minlength="{{ names[0] }}" maxlength="{{ names[1] }}"\
{% if form.rules %} pattern="[A-Za-z][A-Za-z0-9_\\-]*" \
aria-describedby="{{ form.id }}-name-rules"{% endif %}></label></p>\
{% if form.rules %}<p id="{{ form.id }}-name-rules" class="rules">\
{{ say["account.nameRules"] }}</p>{% endif %}\
<p><label>{{ say["account.password"] }}<br><input name="password" type="password" required \
autocomplete="{{ form.autocomplete }}" minlength="{{ passwords[0] }}" \
maxlength="{{ passwords[1] }}"\
{% if form.rules %} aria-describedby="{{ form.id }}-password-rules"{% endif %}></label></p>\
{% if form.rules %}<p id="{{ form.id }}-password-rules" class="rules">\
{{ say["account.passwordRules"] }}</p>{% endif %}\
<p class="refusal" role="alert"></p><p><button type="submit">{{ form.label }}</button></p>\
</form></section>
{%- endfor -%}
{%- endif %}
{%- endblock %}
"""

#: A player's page: the rating, the experience, and the rated matches (the latest first),
#: with the rating's history drawn as a line (oldest left), its values all in the table.
PLAYER = """\
{% extends "players.html" %}
{% block content -%}
{% if facts is none -%}
<p>{{ say["player.notFound"] }}</p>
{%- else -%}
<dl class="facts"><dt>{{ say["player.rating"] }}</dt><dd>{{ facts.rating }}</dd>\
<dt>{{ say["player.experience"] }}</dt><dd>{{ facts.experience }}</dd>\
<dt>{{ say["player.since"] }}</dt><dd>{{ facts.since }}</dd></dl>
{%- if not results -%}
<p>{{ say["player.none"] }}</p>
{%- else -%}
<h2>{{ say["player.history"] }}</h2><svg class="rating-chart" viewBox="{{ chart.box }}" \
role="img" aria-label="{{ chart.label }}"><polyline points="{{ chart.points }}" fill="none" \
stroke="currentColor" stroke-width="2"/></svg><h2>{{ say["player.results"] }}</h2>\
<table class="results"><thead><tr>\
{% for key in heads %}<th scope="col">{{ say[key] }}</th>{% endfor %}</tr></thead><tbody>\
{% for row in results %}<tr><td>{{ row.date }}</td>\
<td><a href="{{ row.opponent_page }}">{{ row.opponent }}</a></td><td>{{ row.length }}</td>\
<td>{{ row.outcome }}</td><td class="number">{{ row.change }}</td>\
<td class="number">{{ row.after }}</td></tr>{% endfor %}</tbody></table>
{%- endif -%}
{%- endif %}
{%- endblock %}
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
            "account.html": ACCOUNT,
            "player.html": PLAYER,
        }
    ),
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
