"""The key that signs session cookies, the same on every host.

``SECRET_KEY`` in the environment wins.  Otherwise the key is kept in the database
(site key ``session``, made once by whichever host starts first), so a player whose
requests reach different hosts behind a load balancer keeps one session.  A site whose
key was kept in the instance folder (``instance/secret_key``, before keys were shared)
seeds the database with it, so its players keep their sessions across the upgrade.

``hidato secret rotate`` (``rotate``) makes a new key and keeps the old one as
``session-previous``, which still verifies cookies (Flask's ``SECRET_KEY_FALLBACKS``,
with any listed in ``HIDATO_SECRET_KEY_FALLBACKS``) until the next rotation, so hosts
can be restarted one at a time.
"""

from __future__ import annotations

import os
import secrets

from flask import Flask
from sqlalchemy import select

from ..store.models import SiteKeyRow
from ..store.shared import Shared
from ..store.store import Store

SESSION = "session"
PREVIOUS = "session-previous"


def init_app(app: Flask, store: Store) -> None:
    """SECRET_KEY and SECRET_KEY_FALLBACKS: the environment's, else the database's."""
    fallbacks = list(app.config["SECRET_KEY_FALLBACKS"])
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = Shared(store).site_key(SESSION, first=instance_key(app.instance_path))
        previous = find_key(store, PREVIOUS)
        if previous:
            fallbacks.append(previous)
    app.config["SECRET_KEY_FALLBACKS"] = fallbacks


def instance_key(instance_path: str) -> str | None:
    """The key an older release kept in the instance folder, if there is one (never made now)."""
    try:
        with open(os.path.join(instance_path, "secret_key"), encoding="ascii") as handle:
            return handle.read().strip() or None
    except FileNotFoundError:
        return None


def find_key(store: Store, name: str) -> str | None:
    """A site key if it was made, else None (``Shared.site_key`` makes it)."""
    with store.engine.connect() as connection:
        value = connection.scalar(select(SiteKeyRow.value).where(SiteKeyRow.name == name))
    return str(value) if value else None


def rotate(store: Store) -> None:
    """A new random session key; the one it replaces still verifies cookies until the next rotation."""
    shared = Shared(store)
    old = shared.site_key(SESSION)
    # The old key is kept first: a host starting in between gets it as key and fallback.
    shared.set_site_key(PREVIOUS, old)
    shared.set_site_key(SESSION, secrets.token_hex(32))
