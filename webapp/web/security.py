"""What makes the app safe to put on the internet: CSRF tokens, cookies, headers, proxies.

- CSRF: every POST (and PUT, PATCH, DELETE) must carry this session's token, as the
  form field ``csrf_token`` (``{{ csrf_field() }}`` in each form, for pages without
  JavaScript) or the header ``X-CSRF-Token`` (htmx sends it: ``hx-headers`` on
  ``<body>``).  The token lives in the signed session cookie.
- The session cookie is HttpOnly and SameSite=Lax, and Secure when ``HIDATO_HTTPS=1``
  says the site is served over HTTPS (which also sends Strict-Transport-Security).
- The secret key that signs it is random, made on first run and kept in the database
  so every host shares it (``keys.py``); ``SECRET_KEY`` in the environment overrides it.
- Every response has a Content-Security-Policy without inline scripts or styles,
  ``X-Content-Type-Options: nosniff``, a Referrer-Policy and frame protection
  (``HEADERS``, written by ``response_headers.py``'s one after-request hook).
- Behind a reverse proxy, ``HIDATO_PROXIES=N`` (the number of proxies in front) makes
  Werkzeug's ProxyFix trust their X-Forwarded-For/-Proto/-Host/-Prefix headers, so the
  rate limit sees the real client and redirects keep the public scheme and host.
- Requests must name a host the site serves (Flask's ``TRUSTED_HOSTS``): localhost and
  127.0.0.1, the host of ``HIDATO_PUBLIC_URL``, and any listed in ``HIDATO_HOSTS``;
  others get a 400.  Absolute links (printed sheets) are built from
  ``HIDATO_PUBLIC_URL``, never from what a request says its host is.
"""

from __future__ import annotations

import hmac
import re
import secrets
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, has_request_context, make_response, render_template, request, session
from flask_babel import gettext as _
from markupsafe import Markup, escape
from werkzeug.exceptions import BadRequest, SecurityError
from werkzeug.middleware.proxy_fix import ProxyFix

from ..core.messages import N_

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}
# Hosts every site answers to: the machine itself.
LOCAL_HOSTS = ("localhost", "127.0.0.1")
_HOST_NAME = re.compile(r"\.?[A-Za-z0-9.-]+")
# In English (a msgid, marked for pybabel); said in the reader's language where it is shown.
CSRF_MESSAGE = N_("This form could not be accepted: its security token is missing or out of date "
                "(the page may be old, or your cookies were cleared). Reload the page and try again.")


class CSRFError(BadRequest):
    """A state-changing request without this session's token."""

    description = CSRF_MESSAGE


def init_app(app: Flask) -> None:
    """Cookies, CSRF checks, security headers and (when configured) the proxy fix."""
    app.config["PUBLIC_URL"] = check_public_url(app.config["PUBLIC_URL"])
    if app.config.get("TRUSTED_HOSTS") is None:
        app.config["TRUSTED_HOSTS"] = trusted_hosts(app.config["PUBLIC_URL"], app.config["HOSTS"])
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax")
    if app.config["HTTPS"]:
        app.config.update(SESSION_COOKIE_SECURE=True, PREFERRED_URL_SCHEME="https")
    proxies = int(app.config["PROXIES"])
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies,  # type: ignore[method-assign]
                                x_port=proxies, x_prefix=proxies)
    app.before_request(_check_csrf)
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(SecurityError, _bad_host)
    app.add_template_global(csrf_token)
    app.add_template_global(csrf_field)


def check_public_url(url: str) -> str:
    """``HIDATO_PUBLIC_URL`` checked and without a trailing slash ("" when not set)."""
    url = (url or "").strip().rstrip("/")
    if not url:
        return ""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(f"HIDATO_PUBLIC_URL must be the site's address, such as https://hidato.example.org "
                         f"(http or https, a host, maybe a path), not {url!r}")
    return url


def trusted_hosts(public_url: str, extra: str) -> list[str]:
    """The host names requests may name: the machine, the public address's host, ``extra``."""
    hosts = list(LOCAL_HOSTS)
    if public_url:
        hosts.append(urlsplit(public_url).hostname or "")
    for name in re.split(r"[\s,]+", extra.strip()):
        if not name:
            continue
        if not _HOST_NAME.fullmatch(name):
            raise ValueError(f"HIDATO_HOSTS lists host names (a leading dot takes every subdomain), "
                             f"not {name!r}")
        hosts.append(name.lower())
    return list(dict.fromkeys(h for h in hosts if h))


def public_link(path: str) -> str | None:
    """The absolute address of a path of the site, from HIDATO_PUBLIC_URL; None without one.

    ``path`` is what ``url_for`` gives: any prefix the request came in under is dropped,
    since the public address already says where the site lives.
    """
    base = current_app.config.get("PUBLIC_URL") or ""
    if not base:
        return None
    root = request.script_root if has_request_context() else ""
    if root and path.startswith(root + "/"):
        path = path[len(root):]
    return base + path


def csrf_token() -> str:
    """This session's CSRF token (made on first need)."""
    token = session.get(CSRF_FIELD)
    if not isinstance(token, str) or not token:
        token = secrets.token_urlsafe(32)
        session[CSRF_FIELD] = token
        session.permanent = True
    return token


def csrf_field() -> Markup:
    """The hidden field every POST form carries."""
    return Markup(f'<input type="hidden" name="{CSRF_FIELD}" value="{escape(csrf_token())}">')


def _check_csrf() -> None:
    if request.method in _SAFE_METHODS:
        return
    expected = session.get(CSRF_FIELD)
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD) or ""
    if not isinstance(expected, str) or not expected or not hmac.compare_digest(
            sent.encode("utf-8", "replace"), expected.encode("utf-8")):
        raise CSRFError()


def _csrf_error(error: CSRFError) -> Any:
    if request.headers.get("HX-Request") == "true":
        # A 403 (so a balancer's error counts see it) that htmx still swaps into the status
        # line, where the player looks: base.html's htmx-config swaps 403s, no other 4xx.
        saved, why = escape(_("Not saved:")), escape(_(CSRF_MESSAGE))
        html = f'<p class="notice error"><strong>{saved}</strong> {why}</p>'
        response = make_response(html, 403)
        response.headers["HX-Retarget"] = "#status"
        response.headers["HX-Reswap"] = "innerHTML"
        return response
    return render_template("error.html", code=400, title=_("Bad Request"), message=_(CSRF_MESSAGE)), 400


def _bad_host(error: SecurityError) -> Any:
    """A Host the site does not serve (TRUSTED_HOSTS): a 400 page that needs no URL of ours."""
    host = (request.environ.get("HTTP_HOST") or "")[:100]
    return render_template("bad_host.html", host=host), 400
