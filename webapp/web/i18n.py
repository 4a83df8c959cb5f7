"""The site's languages (Flask-Babel): which one a request is answered in, and the switch.

The language is, in order: ``?lang=es`` on any link (kept in the session, so a shared
link keeps its language and the choice sticks), the one chosen before (the session),
else the best match of the browser's ``Accept-Language``, else English.  Catalogues are
gettext files in ``webapp/translations/<lang>/LC_MESSAGES/messages.po``, extracted and
compiled with pybabel (``make translations``; ``make install`` compiles them).
Templates use ``_()``/``ngettext()`` and ``{% trans %}``; Python code ``gettext`` and
``lazy_gettext`` from ``flask_babel``.  Work done outside a request (a booklet made by
a worker) carries its language in the job and runs under ``force_locale``.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlencode

from flask import Flask, has_request_context, request, session
from flask_babel import Babel, get_locale

LANGUAGES = {"en": "English", "es": "Español"}  # code: the language's own name, for the switch
DEFAULT = "en"
TRANSLATIONS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "translations")
_SESSION_KEY = "lang"


def select_locale() -> str:
    """The language of this request (see the module's docstring)."""
    if not has_request_context():
        return DEFAULT
    asked = (request.args.get("lang") or "").strip().lower()
    if asked in LANGUAGES:
        if session.get(_SESSION_KEY) != asked:
            session[_SESSION_KEY] = asked
            session.permanent = True
        return asked
    chosen = session.get(_SESSION_KEY)
    if isinstance(chosen, str) and chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or DEFAULT


def language() -> str:
    """The current language's code ("en", "es")."""
    found = get_locale()
    return found.language if found is not None else DEFAULT


def switch_url(code: str) -> str:
    """This page's address in another language (the other query arguments kept)."""
    arguments: dict[str, Any] = {k: v for k, v in request.args.items() if k != "lang"}
    arguments["lang"] = code
    return f"{request.path}?{urlencode(arguments)}"


def init_app(app: Flask) -> None:
    """Flask-Babel with our locale selector, and what templates need for the switch."""
    Babel(app, locale_selector=select_locale, default_translation_directories=TRANSLATIONS,
          default_locale=DEFAULT)
    app.jinja_env.globals.update(languages=LANGUAGES, language=language, switch_url=switch_url)
    app.after_request(_vary_on_language)


def _vary_on_language(response: Any) -> Any:
    # The same URL answers in the browser's language: caches must keep them apart.
    if response.mimetype == "text/html":
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response
