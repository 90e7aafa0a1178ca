"""Alembic's migrations of the server's database (see ``README.md`` beside this file)."""
