"""The database schema's versions: bringing any database to the latest (Alembic).

- a new, empty database: the tables are created from ``models.py`` and stamped with the
  latest revision (Alembic's cookbook, "Building an Up to Date Database from Scratch");
- a database made before migrations existed (tables, no ``alembic_version``): stamped
  with the revision matching the tables that release made (``_UNVERSIONED``), then
  upgraded;
- any other: upgraded from its revision to the latest.

All of it in one transaction under a lock (SQLite's write lock, taken at BEGIN; a
PostgreSQL advisory lock), so server processes starting together take turns and the
second finds nothing left to do.  ``hidato db upgrade`` runs it; so does every server
process as it starts.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, func, inspect, select

from .models import Base

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BASELINE = "0001"
# Releases before migrations made these schemas; the newest whose table is present wins.
_UNVERSIONED = (("0002", "unplayable"), (BASELINE, "puzzles"))
# The PostgreSQL advisory lock held while the schema changes (any fixed number).
_SCHEMA_LOCK = 0x48696461746F


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's settings for our migrations, running on ``connection``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


@lru_cache(maxsize=1)
def head() -> str:
    """The latest revision."""
    found = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert found is not None
    return found


def current(connection: Connection) -> str | None:
    """The revision a database is at (None: not versioned)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine) -> str:
    """Bring the database to the latest revision; says what was done."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(select(func.pg_advisory_xact_lock(_SCHEMA_LOCK)))
        revision = current(connection)
        if revision == head():
            return f"already at {revision}"
        config = alembic_config(connection)
        if revision is None and not inspect(connection).has_table("puzzles"):
            Base.metadata.create_all(connection)
            command.stamp(config, "head")
            return f"created at {head()}"
        if revision is None:
            found = _unversioned(connection)
            command.stamp(config, found)
            if found == head():
                return f"stamped {found} (made before migrations)"
        command.upgrade(config, "head")
        return f"upgraded from {revision or found + ' (made before migrations)'} to {head()}"


def _unversioned(connection: Connection) -> str:
    """The revision whose schema an unversioned database holds."""
    tables = inspect(connection)
    return next(revision for revision, table in _UNVERSIONED if tables.has_table(table))
