"""Alembic's entry point: runs the migrations on the connection ``schema.upgrade`` hands it.

The site never runs Alembic with a URL of its own: ``schema.upgrade`` opens the
transaction, takes the lock, and passes the connection in ``config.attributes``.
"""

from __future__ import annotations

from alembic import context

from webapp.store.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
