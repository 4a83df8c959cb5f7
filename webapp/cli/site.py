"""The site's database, for the commands that print or read its short links.

``hidato print --url`` registers its puzzles there, so its QR codes carry the short
links the site resolves (``/s/2f``), and ``hidato solve`` reads a short link from it.
The database is the one ``hidato serve`` uses: ``DATABASE_URL`` (or
``HIDATO_DATABASE_URL``), else the SQLite file in the instance folder
(``HIDATO_INSTANCE``, else Flask's default), and that file only when it exists already
(a site that never ran here has no puzzles to link to).  SQLAlchemy and Flask are
loaded when a command asks for the database, never before: ``hidato solve`` on plain
puzzles stays light.
"""

from __future__ import annotations

import os
from contextlib import suppress
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..store.store import Store

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class NoDatabase(Exception):
    """The site's database cannot be used; the message says why, in one line that reads
    after "but" ("DATABASE_URL is not set and … does not exist")."""


def database_url() -> tuple[str, str]:
    """The SQLAlchemy URL of the site's database and how to name it to a person (the URL
    without its password, or the SQLite file's path); NoDatabase when there is none here."""
    from ..store.store import database_url as full_url

    named = os.environ.get("DATABASE_URL") or os.environ.get("HIDATO_DATABASE_URL")
    if named:
        url = full_url(named, "")
        return url, _shown(url)
    instance = _instance_path()
    path = os.path.join(instance, "hidato.sqlite3")
    if not os.path.exists(path):
        raise NoDatabase(f"DATABASE_URL is not set and {path} does not exist")
    return full_url(None, instance), path


def _instance_path() -> str:
    """The instance folder ``hidato serve`` uses (Flask finds the default as for the app)."""
    named = os.environ.get("HIDATO_INSTANCE")
    if named:
        return named
    from flask import Flask  # how Flask finds an app's instance folder, exactly

    return Flask("webapp", root_path=os.path.join(ROOT, "webapp")).instance_path


def _shown(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def open_store() -> tuple[Store, str]:
    """The site's store (brought to the latest schema, as ``hidato serve`` would) and its
    name for a person; NoDatabase, with the reason, when it cannot be opened."""
    url, shown = database_url()
    from ..store.store import Store

    try:
        return Store(url), shown
    except Exception as err:  # noqa: BLE001 - any driver's error: said in one line, then done without
        reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise NoDatabase(f"the site database {shown} cannot be opened: {reason}") from None


def close(store: Store | None) -> None:
    if store is not None:
        with suppress(Exception):
            store.close()
