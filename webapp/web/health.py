"""``GET /healthz`` for load balancers: 200 ``ok`` when the database answers, else 503.

Answered in front of the Flask app, so it needs no trusted ``Host`` (health checkers
often name the backend's address), no session and no CSRF token; the reason for a 503
is one line of plain text, never a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from ..store.store import Store

PATH = "/healthz"
log = logging.getLogger(__name__)

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class Health:
    """WSGI middleware answering ``/healthz`` itself and passing everything else on."""

    def __init__(self, app: WSGIApp, store: Store):
        self.app, self.store = app, store

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") != PATH:
            return self.app(environ, start_response)
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            return _answer(start_response, "405 Method Not Allowed", "GET only\n", environ,
                           [("Allow", "GET, HEAD")])
        try:
            self.store.ping()
        except Exception as err:  # noqa: BLE001 - whatever the driver raises, the answer is 503
            log.warning("health check: the database cannot be reached: %s", err)
            return _answer(start_response, "503 Service Unavailable",
                           "database unreachable: " + type(err).__name__ + "\n", environ)
        return _answer(start_response, "200 OK", "ok\n", environ)


def _answer(start_response: Callable[..., Any], status: str, body: str, environ: dict[str, Any],
            extra: list[tuple[str, str]] | None = None) -> list[bytes]:
    data = body.encode("ascii")
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(data))),
                            ("Cache-Control", "no-store"), *(extra or [])])
    return [] if environ.get("REQUEST_METHOD") == "HEAD" else [data]
