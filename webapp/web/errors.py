"""Error pages in the reader's language: every HTTP error the site answers with.

A view that refuses says why with ``abort(code, message)``, and that message is kept.  An
error raised without one (a mistyped address, a form sent with the wrong method, a 500)
would show Werkzeug's English description: it gets our own sentence for its code
instead, and every error its title, in the reader's language.
"""

from __future__ import annotations

from typing import Any

from flask import render_template
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from werkzeug.exceptions import HTTPException

# The titles Werkzeug gives these codes, in the reader's language.
TITLES: dict[int, Any] = {
    400: lazy_gettext("Bad Request"),
    403: lazy_gettext("Forbidden"),
    404: lazy_gettext("Not Found"),
    405: lazy_gettext("Method Not Allowed"),
    410: lazy_gettext("Gone"),
    413: lazy_gettext("Request Entity Too Large"),
    429: lazy_gettext("Too Many Requests"),
    500: lazy_gettext("Internal Server Error"),
    503: lazy_gettext("Service Unavailable"),
}
# What went wrong, for an error raised without a message of ours.
DESCRIPTIONS: dict[int, Any] = {
    400: lazy_gettext("The request could not be understood. Please go back and try again."),
    403: lazy_gettext("This page can't be opened from here."),
    404: lazy_gettext("There is no page at this address. Check the link, or start again from the home page."),
    405: lazy_gettext("This address can't be used that way: open it as a link instead."),
    410: lazy_gettext("This page is gone."),
    413: lazy_gettext("What was sent is too large for this site."),
    429: lazy_gettext("Too many requests came from here in a short time. Please wait a moment and try again."),
    500: lazy_gettext("Something went wrong on our side. Please try again."),
    503: lazy_gettext("The site is busy right now. Please try again in a moment."),
}


def title(error: HTTPException) -> str:
    """The error's title in the reader's language ("Not Found", "No encontrado")."""
    code = error.code or 500
    return str(TITLES[code]) if code in TITLES else str(error.name)


def description(error: HTTPException) -> str:
    """The view's own message when it gave one (``abort(404, "…")``), else ours for the code."""
    if "description" in vars(error) and error.description:
        return str(error.description)
    code = error.code or 500
    if code in DESCRIPTIONS:
        return str(DESCRIPTIONS[code])
    return _("That request didn't work (error %(code)s). Please go back and try again.", code=code)


def error_page(error: HTTPException) -> Any:
    """Every 4xx/5xx as a page of ours that says what went wrong (a 405 with its Allow)."""
    code = error.code or 500
    html = render_template("error.html", code=code, title=title(error), message=description(error))
    headers = [(name, value) for name, value in error.get_headers() if name.lower() == "allow"]
    return html, code, headers
