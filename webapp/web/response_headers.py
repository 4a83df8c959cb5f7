"""The headers every response gets, written by one after-request hook.

What four hooks wrote before (2026-11-26), in the order they ran, and so in the same
header order and with the same values:

1. ``Vary: HX-Request`` (pages and their htmx partials share URLs) and, on the pages that
   show a browser's progress or its CSRF token, ``Cache-Control: private, no-cache``;
2. flask-compress: ``Accept-Encoding`` added to ``Vary`` (its own test: the words
   anywhere in the header), then the body compressed when the browser takes Brotli or
   gzip and the answer is worth it;
3. ``Vary: Accept-Language, Cookie`` on HTML (the same URL answers in the browser's
   language);
4. the security headers (``security.HEADERS``) a response does not set itself, and
   ``Strict-Transport-Security`` over HTTPS.

One hook reads the response's headers once and writes ``Vary`` once, where four read
them ten times (each missing header found by raising and catching an exception) and
wrote ``Vary`` up to three times: about a twentieth of a cell entry's time in the web
layer.  flask-compress's own hook is not registered; this one calls it when the request
says which encodings it takes (without ``Accept-Encoding`` it chooses none and changes
nothing but ``Vary``, written here).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask, request
from flask_compress import Compress

from .headers import vary_with

# The paths whose pages show this browser's progress or its CSRF token (play pages, My
# puzzles, home): for no shared cache, checked with the server on every load.
PROGRESS_PREFIX = "/p/"
PROGRESS_PATHS = frozenset({"/mine", "/"})
CACHE_CONTROL = "private, no-cache"
HSTS = "max-age=31536000"


def shows_progress(path: str) -> bool:
    """Whether the page at ``path`` shows this browser's progress (a puzzle, My puzzles, home)."""
    return path.startswith(PROGRESS_PREFIX) or path in PROGRESS_PATHS


def hook(app: Flask, compress: Compress, security: Mapping[str, str]) -> Callable[[Any], Any]:
    """The after-request hook (see the module's docstring): a plain function, whose
    ``ensure_sync`` the app keeps (``HidatoFlask``), where an object's would be worked out
    again at every request."""
    config = app.config
    defaults = tuple(security.items())

    def write_headers(response: Any) -> Any:
        headers = response.headers
        present = set()
        vary = None
        for name, value in headers:
            lowered = name.lower()
            if vary is None and lowered == "vary":
                vary = value
            present.add(lowered)
        was = vary
        vary = vary_with(vary or "", ("HX-Request",))
        if "accept-encoding" not in vary.lower():  # flask-compress's own test
            vary = f"{vary}, Accept-Encoding"
        if response.mimetype == "text/html":
            vary = vary_with(vary, ("Accept-Language", "Cookie"))
        if vary != was:
            headers["Vary"] = vary
        asked = request._get_current_object()  # type: ignore[attr-defined]  # one look through the proxy
        if "cache-control" not in present and shows_progress(asked.path):
            # This browser's progress, or its CSRF token: for no shared cache (private, and per
            # cookie: Vary: Cookie), checked with the server on every load (no-cache), yet allowed
            # in the back/forward cache, unlike no-store: hidato.js fetches again what a page with
            # progress shows when the back button brings it back (base.html: data-back).
            headers.add("Cache-Control", CACHE_CONTROL)
        if asked.environ.get("HTTP_ACCEPT_ENCODING"):
            # Its Vary part finds Accept-Encoding there already and leaves it.
            response = compress.after_request(response)
            headers = response.headers
        missing = [(name, value) for name, value in defaults if name.lower() not in present]
        if missing:
            headers.extend(missing)
        if config.get("HTTPS") and "strict-transport-security" not in present:
            headers.add("Strict-Transport-Security", HSTS)
        return response

    return write_headers


def init_app(app: Flask, security: Mapping[str, str]) -> None:
    """flask-compress set up without its hook, and the one hook registered."""
    app.config["COMPRESS_REGISTER"] = False
    compress = Compress(app)
    app.after_request(hook(app, compress, security))
