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
from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from babel import Locale
from flask import Flask, current_app, has_request_context, request, session
from flask_babel import Babel, format_date, format_decimal, get_locale
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..core.messages import N_, Language
from . import names
from .catalogue import template_gettext, template_ngettext, translations

LANGUAGES = {"en": "English", "es": "Español"}  # code: the language's own name, for the switch
DEFAULT = "en"
TRANSLATIONS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "translations")
_SESSION_KEY = "lang"
_LOCALES = {code: Locale.parse(code) for code in LANGUAGES}


def select_locale() -> Locale:
    """The language of this request (see the module's docstring).

    As a ``Locale`` made once per language: Flask-Babel parses a code into a new one at
    every request, which looks for the language's data file on disk each time."""
    return _LOCALES[_selected_code()]


def _selected_code() -> str:
    if not has_request_context():
        return DEFAULT
    # No query string (every entry, most pages): no ``request.args`` made to find no lang.
    asked = (request.args.get("lang") or "").strip().lower() if request.environ.get("QUERY_STRING") else ""
    if asked in LANGUAGES:
        if session.get(_SESSION_KEY) != asked:
            session[_SESSION_KEY] = asked
            session.permanent = True
        return asked
    chosen = session.get(_SESSION_KEY)
    if isinstance(chosen, str) and chosen in LANGUAGES:
        return chosen
    return _best_language(request.environ.get("HTTP_ACCEPT_LANGUAGE", ""))


@lru_cache(maxsize=256)
def _best_language(header: str) -> str:
    """``request.accept_languages.best_match`` of our languages, worked out once per
    Accept-Language header (browsers send a few kinds, the same on every request)."""
    return parse_accept_header(header, LanguageAccept).best_match(list(LANGUAGES)) or DEFAULT


def language() -> str:
    """The current language's code ("en", "es")."""
    found = get_locale()
    return found.language if found is not None else DEFAULT


def words() -> Language:
    """This request's catalogue with its locale: what core and paper functions take to say
    a message in the reader's language, numbers included ("2,5" in Spanish)."""
    return Language(translations(), language())


def switch_url(code: str) -> str:
    """This page's address in another language (the other query arguments kept)."""
    arguments: dict[str, Any] = {k: v for k, v in request.args.items() if k != "lang"}
    arguments["lang"] = code
    return f"{request.path}?{urlencode(arguments)}"


# Dates written out: English as the site always wrote them ("4 May 2025"), any other
# language in its CLDR form (Spanish "4 de mayo de 2025").
_DAY = {"en": "d MMMM y"}
_WEEKDAY = {"en": "EEEE d MMMM y"}


def long_date(day: date) -> str:
    """A date written out: "4 May 2025", "4 de mayo de 2025"."""
    return format_date(day, _DAY.get(language(), "long"))


def weekday_date(day: date) -> str:
    """A date with its weekday: "Sunday 4 May 2025", "Domingo, 4 de mayo de 2025"."""
    text = format_date(day, _WEEKDAY.get(language(), "full"))
    return text[:1].upper() + text[1:]


def short_datetime(moment: datetime) -> str:
    """A stored time (UTC) in the site's zone (HIDATO_TIMEZONE, whose midnight brings the
    puzzle of the day), its date as the other pages write dates: "4 May 2025, 13:05"."""
    local = moment.replace(tzinfo=UTC).astimezone(ZoneInfo(current_app.config["TIMEZONE"]))
    return f"{long_date(local.date())}, {local:%H:%M}"


def one_decimal(value: float) -> str:
    """A rating as the reader's locale writes it: "2.1", "2,1"."""
    return str(format_decimal(value, "0.0"))


def js_messages() -> dict[str, str]:
    """What the scripts say (static/hidato.js, play.js), by English text: base.html puts it
    in a JSON block that the scripts read once; %(name)s is filled in by the script."""
    lookup = translations().gettext
    return {message: lookup(message) for message in _JS_MESSAGES}


# The scripts look each text up by its English, and fall back to it. A %(name)s is theirs
# to fill in.
_JS_MESSAGES = (
    # static/play.js: notes, the chain, the number pad, sharing
    N_("Notes on. %(help)s"),
    N_("Notes off: digits enter numbers."),
    N_("Notes: %(help)s"),
    N_("Tap a digit to add or remove it as a note; or type a number and press Enter to add or remove "
       "it as a note."),
    N_("Tap a number's digits, then OK; or type a number and press Enter to add or remove it as a note."),
    N_("Type a number and press Enter to add or remove it as a note."),
    N_("The chain counts down."),
    N_("The chain counts up."),
    N_("Tap the digits of a number first, then OK."),
    N_("Note cleared."),
    N_("Notes on this board are 1 to %(size)s."),
    N_("Note %(number)s…: tap OK to add it, or another digit."),
    N_("Select an empty cell first."),
    # static/play.js: typing, the chain (the input model, README "Input: ...")
    N_("row %(row)d, column %(col)d"),
    N_("No number starts with 0: numbers on this board go from 1 to %(size)s."),
    N_("%(number)s is more than %(size)s: numbers on this board go from 1 to %(size)s."),
    N_("Only numbers go in the cells: type a number from 1 to %(size)s."),
    N_("That cell's number is given: select an empty cell to type in it."),
    N_("%(number)s is already at %(cell)s: the chain does not write it twice."),
    N_("Chain on: tap an empty cell next to the selected number to write the next one, or drag from a "
       "number. Two fingers move the board."),
    N_("Chain off: a tap selects a cell, one finger moves the board."),
    N_("Paused. Press Resume to go on."),
    N_("Link copied: %(link)s"),
    N_("Copy this link: %(link)s"),
    # static/hidato.js: the levels a board can take, failed requests
    N_("%(level)s: not on this shape"),
    N_("%(level)s: size %(size)s or more"),
    N_("Needs a bigger board: %(why)s."),
    N_("That didn't work (error %(code)s). Reload the page to see what was saved."),
    N_("The server can't be reached: your last entry was not saved. Check the connection and try again."),
)


def init_app(app: Flask) -> None:
    """Flask-Babel with our locale selector, and what templates need for the switch."""
    Babel(app, locale_selector=select_locale, default_translation_directories=TRANSLATIONS,
          default_locale=DEFAULT)
    # The templates' _(), gettext() and ngettext() look the catalogue up once per request.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]  # jinja2.ext.i18n adds it
        gettext=lambda message: translations().ugettext(message),
        ngettext=lambda singular, plural, num: translations().ungettext(singular, plural, num),
        newstyle=True,
        pgettext=lambda context, message: translations().upgettext(context, message),
        npgettext=lambda context, singular, plural, num: translations().unpgettext(context, singular, plural, num),
    )
    # Every template is HTML (autoescaped): _(), gettext() and ngettext() say their message
    # straight away, as the i18n extension's wrappers would (catalogue.template_gettext).
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext, ngettext=template_ngettext)
    app.jinja_env.globals.update(languages=LANGUAGES, language=language, switch_url=switch_url,
                                 js_messages=js_messages, long_date=long_date, weekday_date=weekday_date,
                                 short_datetime=short_datetime, **names.TEMPLATE_GLOBALS)
    app.add_template_filter(one_decimal)
    # The same URL answers in the browser's language: caches keep them apart by
    # ``Vary: Accept-Language, Cookie`` on HTML (response_headers.py).
