"""Alembic migrations of the site's database (``env.py``, ``versions/``); run by ``schema.upgrade``."""
