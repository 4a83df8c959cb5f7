"""The WSGI entry point for production servers: ``gunicorn webapp.web.wsgi:app`` (``make serve``).

Each gunicorn worker imports this and builds its own app (no ``--preload``: database
connections and threads are never shared across a fork); they meet in the database.
"""

from __future__ import annotations

from .app import create_app

app = create_app()
