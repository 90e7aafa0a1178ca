"""Play in the browser: a FastAPI app over the game engine, with its database and its page.

``create_app()`` builds the app (:mod:`.app`) from :class:`Settings` (:mod:`.settings`, read
from the environment); ``backgammon serve`` runs it with uvicorn. Matches are kept as the
engine's event records in SQLAlchemy tables (:mod:`.db`, migrated by Alembic). The server is
split by domain: :mod:`.play` (a match in play: acting on it, saving it, its watchers, the
computer's turns, its routes), :mod:`.lobby`, :mod:`.accounts`, :mod:`.analysis`,
:mod:`.engine_api`, :mod:`.pages` (the HTML pages, from one Jinja2 shell) and :mod:`.http`
(what every request passes); docs/dev/server.md maps them.
"""

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
