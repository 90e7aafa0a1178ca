"""Play in the browser: a FastAPI app over the game engine, with its database and its page.

``create_app()`` builds the app (:mod:`.app`) from :class:`Settings` (:mod:`.settings`, read
from the environment); ``backgammon serve`` runs it with uvicorn. Matches are kept as the
engine's event records in SQLAlchemy tables (:mod:`.db`, migrated by Alembic); the routers in
:mod:`.routes` are one per resource; the state a page sees is built in :mod:`.views`.
"""

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
