"""This request's catalogue of translations, looked up once per request.

Flask-Babel's ``get_translations`` (behind every ``_()``, in Python and in templates)
finds the catalogue again at each message through nine look-ups of request-local objects
(``g``, the app, the locale); a cell entry's answer says some twenty messages, and those
look-ups cost more than the rest of its rendering.  ``translations()`` keeps the one it
found beside Flask-Babel's own per-request state, with the locale and domain it was found
for, so ``force_locale`` (a job saying things in its player's language) still switches it.
``gettext``, ``ngettext`` and ``lazy_gettext`` here behave as Flask-Babel's; i18n.py gives them to templates.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from babel import Locale
from babel.support import NullTranslations
from flask.ctx import AppContext
from flask.globals import _cv_app
from flask_babel import get_translations
from flask_babel.speaklater import LazyString
from markupsafe import Markup


def translations() -> NullTranslations:
    """Flask-Babel's ``get_translations()``, found once per request and language."""
    # The app context straight from its context variable: ``flask.g`` is a proxy, and going
    # through it costs more than the rest of the look-up (some twenty per cell entry).
    context = _cv_app.get(None)
    if context is None:
        return get_translations()
    state = getattr(context.g, "_flask_babel", None)  # made by Flask-Babel's first look
    if state is not None:
        locale = getattr(state, "babel_locale", None)
        kept = getattr(state, "hidato_translations", None)
        if (kept is not None and locale is not None and kept[0] is locale
                and kept[1] is getattr(state, "babel_domain", None)):
            return kept[2]
    found, state = _first_look(context)
    # Kept from the first look on: one look-up per request, not two.
    state.hidato_translations = (getattr(state, "babel_locale", None), getattr(state, "babel_domain", None), found)
    return found


def _first_look(context: AppContext) -> tuple[NullTranslations, SimpleNamespace]:
    """What Flask-Babel 4.0's ``get_translations()`` does (its ``get_domain``, ``get_locale``
    and ``Domain.get_translations``: the same state left on ``g``, the locale selector asked
    once, the domain's own cache), on the app context found once rather than through
    ``g``'s and ``current_app``'s proxies nine times; a catalogue not loaded yet is loaded
    by Flask-Babel itself.  Tested against Flask-Babel's (tests/test_web_catalogue.py)."""
    g = context.g
    state = getattr(g, "_flask_babel", None)
    if state is None:
        state = g._flask_babel = SimpleNamespace()
    babel = context.app.extensions["babel"]
    domain = getattr(state, "babel_domain", None)
    if domain is None:
        domain = state.babel_domain = babel.instance.domain_instance
    locale = getattr(state, "babel_locale", None)
    if locale is None:
        chosen = babel.locale_selector() if babel.locale_selector is not None else None
        locale = state.babel_locale = babel.instance.default_locale if chosen is None else Locale.parse(chosen)
    try:
        found: NullTranslations = domain.get_translations_cache(state)[str(locale), domain.domain[0]]
    except KeyError:
        found = domain.get_translations()
    return found, state


def gettext(message: str, **variables: Any) -> str:
    """``flask_babel.gettext`` through ``translations()``: the message in this request's language."""
    said = translations().ugettext(message)
    return said % variables if variables else said


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """``flask_babel.ngettext`` through ``translations()`` (``num`` is a variable too)."""
    variables.setdefault("num", num)
    return translations().ungettext(singular, plural, num) % variables



def template_gettext(message: str, /, **variables: Any) -> Markup:
    """The templates' ``_()`` and ``gettext()``: what Jinja's own (newstyle, autoescaped)
    gives, the message trusted, its variables escaped and ``%%`` always formatted, without
    the three context calls around it that cost four times the look-up itself (about twenty
    messages a cell entry, some hundred a page)."""
    said = translations().ugettext(message)
    return _formatted(said, variables) if variables or "%" in said else Markup(said)


def template_ngettext(singular: str, plural: str, num: int, /, **variables: Any) -> Markup:
    """The templates' ``ngettext()``, as ``template_gettext`` (``num`` is a variable too)."""
    variables.setdefault("num", num)
    return _formatted(translations().ungettext(singular, plural, num), variables)


# What a message may hold for its numbers to be put in as plain text: named ``%s`` and
# ``%d`` places and ``%%``, nothing else (``Markup``'s helper has no ``__index__``, so a
# ``%x`` would fail there and work here).
_NUMBER_PLACES = re.compile(r"%(?:%|\([^)]*\)[sd])")
_PLAIN: dict[str, bool] = {}  # by message as said: whether only such places are in it
_PLAIN_KEPT = 4096  # a bound, not a policy: messages come from the code and the catalogues


def _formatted(said: str, variables: dict[str, Any]) -> Markup:
    """``Markup(said) % variables``: the message trusted, its variables escaped.  When every
    variable is an ``int`` (counts, numbers, rows; most of a cell entry's messages), their
    text is what escaping them gives, and plain ``%`` makes the same text without wrapping
    each in ``Markup``'s escaping helper."""
    if all(type(value) is int for value in variables.values()):
        plain = _PLAIN.get(said)
        if plain is None:
            if len(_PLAIN) >= _PLAIN_KEPT:
                _PLAIN.clear()
            plain = _PLAIN[said] = "%" not in _NUMBER_PLACES.sub("", said)
        if plain:
            return Markup(said % variables)
    return Markup(said) % variables


def lazy_gettext(message: str, **variables: Any) -> LazyString:
    """``flask_babel.lazy_gettext`` through ``gettext`` above: said when it is shown."""
    return LazyString(gettext, message, **variables)
