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

import hashlib
import hmac
import logging
import os
import secrets

from flask import Flask

from ..store.shared import Shared
from ..store.store import Store

SESSION = "session"
PREVIOUS = "session-previous"
CHECK = "session-check"  # a fingerprint of the key hosts sign with (check_agreement)
log = logging.getLogger(__name__)


def init_app(app: Flask, store: Store) -> None:
    """SECRET_KEY and SECRET_KEY_FALLBACKS: the environment's, else the database's."""
    fallbacks = list(app.config["SECRET_KEY_FALLBACKS"])
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = Shared(store).site_key(SESSION, first=instance_key(app.instance_path))
        previous = find_key(store, PREVIOUS)
        if previous:
            fallbacks.append(previous)
    app.config["SECRET_KEY_FALLBACKS"] = fallbacks
    check_agreement(store, str(app.config["SECRET_KEY"]), fallbacks)


def instance_key(instance_path: str) -> str | None:
    """The key an older release kept in the instance folder, if there is one (never made now)."""
    try:
        with open(os.path.join(instance_path, "secret_key"), encoding="ascii") as handle:
            return handle.read().strip() or None
    except FileNotFoundError:
        return None


def find_key(store: Store, name: str) -> str | None:
    """A site key if it was made, else None (``Shared.site_key`` makes it)."""
    return Shared(store).find_site_key(name)


def check_agreement(store: Store, key: str, fallbacks: list[str]) -> bool:
    """Whether this host signs with the key the other hosts of this database sign with.

    The database keeps a fingerprint of the key in use (``session-check``, an HMAC: it
    tells nothing of the key); a host whose key is new but lists the fingerprinted one
    among its fallbacks is a rotation and moves the fingerprint on.  Any other
    difference is logged loudly: players whose requests reach this host and another
    would keep losing their session.
    """
    shared = Shared(store)
    mine = _fingerprint(key)
    found = shared.site_key(CHECK, first=mine)
    if hmac.compare_digest(found, mine):
        return True
    if any(hmac.compare_digest(found, _fingerprint(old)) for old in fallbacks):
        shared.set_site_key(CHECK, mine)  # the key was rotated: this host has the new one
        return True
    log.error("SECRET_KEY differs from the key other hosts of this database sign session cookies with: "
              "players whose requests reach this host and another will lose their session. Set the same "
              "SECRET_KEY on every host (or none, to use the key kept in the database); to change it, list "
              "the old one in HIDATO_SECRET_KEY_FALLBACKS.")
    return False


def _fingerprint(key: str) -> str:
    return hmac.new(key.encode(), b"hidato session key check", hashlib.sha256).hexdigest()


def rotate(store: Store) -> None:
    """A new random session key; the one it replaces still verifies cookies until the next rotation."""
    shared = Shared(store)
    old = shared.site_key(SESSION)
    # The old key is kept first: a host starting in between gets it as key and fallback.
    shared.set_site_key(PREVIOUS, old)
    shared.set_site_key(SESSION, secrets.token_hex(32))
