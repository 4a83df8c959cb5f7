"""The static files: versioned URLs, compressed once per process, cached for a year.

``url_for('static', filename=...)`` gets ``?v=<hash of the file's content>``, so a URL
changes when its file does; such a URL is sent with ``Cache-Control: public,
max-age=31536000, immutable``, any other (no version, or an old one) with a short
max-age. CSS, JavaScript and SVG go out as Brotli or gzip, whichever the browser takes
(Brotli first), made on the first request for each file and kept in memory; a file is
read again when its size or modification time changes (an edit while the app runs).
Static responses never carry the session cookie (nor ``Vary: Cookie``): a shared cache
may keep them, and must not hand one player's cookie to another.
"""

from __future__ import annotations

import copy
import gzip
import hashlib
import mimetypes
import os
import threading
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import brotli
from flask import Flask, Response, abort, current_app, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.http import parse_cookie
from werkzeug.security import safe_join

from .headers import add_vary

YEAR = 31536000
VERSIONED = f"public, max-age={YEAR}, immutable"
UNVERSIONED = "public, max-age=600"  # an old page's link, or one without a version
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")


@dataclass
class Asset:
    """One static file as read from disk, with its compressed forms once asked for."""

    stamp: tuple[int, int]  # (size, mtime_ns): read again when either changes
    data: bytes
    version: str
    mimetype: str
    encoded: dict[str, bytes] = field(default_factory=dict)

    def body(self, encoding: str) -> bytes:
        """The content in ``encoding`` ("br", "gzip" or "" for as is), made once."""
        if not encoding:
            return self.data
        if encoding not in self.encoded:
            if encoding == "br":
                self.encoded[encoding] = brotli.compress(self.data, mode=brotli.MODE_TEXT, quality=11)
            else:
                self.encoded[encoding] = gzip.compress(self.data, compresslevel=9, mtime=0)
        return self.encoded[encoding]


class Assets:
    """The static folder's files by name, read on first use."""

    def __init__(self, folder: str):
        self.folder = folder
        self._files: dict[str, Asset] = {}
        self._lock = threading.Lock()

    def find(self, filename: str) -> Asset | None:
        """The file called ``filename`` in the folder (None if there is none)."""
        path = safe_join(self.folder, filename)
        if path is None:
            return None
        try:
            info = os.stat(path)
        except OSError:
            return None
        if not os.path.isfile(path):
            return None
        stamp = (info.st_size, info.st_mtime_ns)
        with self._lock:
            asset = self._files.get(filename)
            if asset is None or asset.stamp != stamp:
                with open(path, "rb") as f:
                    data = f.read()
                mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
                asset = Asset(stamp, data, hashlib.sha256(data).hexdigest()[:12], mimetype)
                self._files[filename] = asset
            return asset

    def body(self, asset: Asset, encoding: str) -> bytes:
        with self._lock:  # two threads asking at once compress it once
            return asset.body(encoding)


RENEWED = "_renewed"  # the day (counted from 1970) a lasting session's cookie was last sent
# Cookies already checked, kept per app (each app has its own interface); emptied when full.
CHECKED_KEPT = 4096


def today_number() -> int:
    return int(time.time() // 86400)


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, sent when they change and, for a lasting one (a
    player's), once a day besides so its 400 days count from the last visit: not signed
    and sent again with every entry (never with the static files).

    A cookie is checked once per process: its signature and age are checked the first
    time it comes (a new serializer, the key derived again and two HMACs, about a tenth
    of a cell entry's time), and what it holds is kept with the moment it runs out, so
    the same cookie on the player's next requests is only looked up."""

    def __init__(self) -> None:
        self._checked: dict[tuple[str, Any], tuple[dict[str, Any], float]] = {}

    def open_session(self, app: Flask, request: Any) -> SecureCookieSession | None:
        value = cookie_named(request.environ.get("HTTP_COOKIE", ""), self.get_cookie_name(app))
        if not value:
            return super().open_session(app, request)
        key = (value, app.secret_key)
        known = self._checked.get(key)
        if known is not None and time.time() < known[1]:
            return self.session_class(_copied(known[0]))  # the kept one stays as it came
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        max_age = int(app.permanent_session_lifetime.total_seconds())
        try:
            data, signed = serializer.loads(value, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        if len(self._checked) >= CHECKED_KEPT:
            self._checked.clear()
        self._checked[key] = (_copied(data), signed.timestamp() + max_age)
        return self.session_class(data)

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        return session.modified

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if request.endpoint == "static":
            return
        if session.permanent and session.get(RENEWED) != today_number():
            session[RENEWED] = today_number()
        if not session.modified:
            # Nothing to send: all Flask's own would do is ask caches to vary on the cookie
            # once the session was read, after working out the cookie's seven attributes.
            if session.accessed:
                add_vary(response, ("Cookie",))
            return
        super().save_session(app, session, response)


@lru_cache(maxsize=CHECKED_KEPT)
def cookie_named(header: str, name: str) -> str | None:
    """The cookie ``name`` in a request's Cookie header, as ``request.cookies.get(name)``
    reads it (the same parser and the first of two alike), parsed once per header: a
    browser sends the same header until its session changes, and parsing it every request
    cost about as much as the rest of opening the session."""
    return parse_cookie(header, cls=ImmutableMultiDict).get(name)


_SCALARS = (str, int, float, bool, type(None))


def _copied(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of a session's data that shares nothing changeable with it: a plain copy when
    every value is a string, a number or None (a player's cookie, nearly always), else a
    deep one (a notice waiting for the next page is a dict)."""
    if all(type(value) in _SCALARS for value in data.values()):
        return dict(data)
    return copy.deepcopy(data)


def init_app(app: Flask) -> None:
    """Version the static URLs and serve the folder through ``Assets``."""
    assert app.static_folder is not None
    app.extensions["assets"] = Assets(app.static_folder)
    app.url_defaults(_add_version)
    app.view_functions["static"] = serve
    app.session_interface = SessionInterface()


def _assets() -> Assets:
    found: Assets = current_app.extensions["assets"]
    return found


def _add_version(endpoint: str, values: dict[str, Any]) -> None:
    if endpoint == "static" and "filename" in values and "v" not in values:
        asset = _assets().find(values["filename"])
        if asset is not None:
            values["v"] = asset.version


def _encoding(asset: Asset) -> str:
    if not asset.mimetype.startswith(COMPRESSIBLE):
        return ""
    accepted = request.accept_encodings
    for encoding in ("br", "gzip"):
        if accepted.quality(encoding) > 0:
            return encoding
    return ""


def serve(filename: str) -> Response:
    """A static file, compressed if the browser takes it, cached long if its URL has its version."""
    assets = _assets()
    asset = assets.find(filename)
    if asset is None:
        abort(404)
    encoding = _encoding(asset)
    response = Response(assets.body(asset, encoding), mimetype=asset.mimetype)
    if encoding:
        response.headers["Content-Encoding"] = encoding
    if asset.mimetype.startswith(COMPRESSIBLE):
        response.vary.add("Accept-Encoding")
    response.set_etag(f"{asset.version}-{encoding or 'identity'}")
    response.headers["Cache-Control"] = VERSIONED if request.args.get("v") == asset.version else UNVERSIONED
    response.make_conditional(request)  # a 304 when the browser's copy is this one
    return response
