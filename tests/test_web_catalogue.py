"""The catalogue kept for a request (web/catalogue.py): the reader's language in Python
code and in templates, switched by ``force_locale`` and back, as Flask-Babel says it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask, g, render_template_string
from flask_babel import force_locale, get_locale, get_translations
from flask_babel import gettext as babel_gettext
from flask_babel import ngettext as babel_ngettext
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from webapp.web.catalogue import _formatted, gettext, lazy_gettext, ngettext, translations
from webapp.web.names import cell_title, cell_words


def test_messages_are_said_in_the_request_language_and_follow_force_locale(app: Flask) -> None:
    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        assert gettext("Undo") == babel_gettext("Undo") == "Deshacer"
        kept = translations()
        assert translations() is kept  # found once for the request
        with force_locale("en"):
            assert gettext("Undo") == babel_gettext("Undo") == "Undo"
            assert render_template_string("{{ _('Undo') }}") == "Undo"
        assert gettext("Undo") == "Deshacer"
        assert str(lazy_gettext("Undo")) == "Deshacer"
        assert render_template_string("{{ _('Undo') }}") == "Deshacer"
        plural = ("%(num)s entry is wrong: %(cells)s.", "%(num)s entries are wrong: %(cells)s.")
        for count in (1, 3):
            assert ngettext(*plural, count, cells="A1") == babel_ngettext(*plural, count, cells="A1")
            assert str(count) in ngettext(*plural, count, cells="A1")


@pytest.mark.parametrize("path, headers", [
    ("/", {}),
    ("/", {"Accept-Language": "es"}),
    ("/", {"Accept-Language": "fr, en;q=0.5"}),
    ("/?lang=es", {"Accept-Language": "en"}),
    ("/p/x/cell/1/1", {"Accept-Language": "es-ES,es;q=0.9"}),
])
def test_the_first_look_of_a_request_finds_what_flask_babel_finds(app: Flask, path: str,
                                                                   headers: dict[str, str]) -> None:
    """``translations()``' first look in a request (Flask-Babel's steps taken on the app
    context directly) gives the catalogue Flask-Babel's ``get_translations()`` gives in the
    same request, and leaves the same locale and domain on ``g`` for Flask-Babel's other
    functions; under ``force_locale`` and after it, the forced language and then the
    request's again."""
    with app.test_request_context(path, headers=headers):
        theirs = get_translations()
        their_state = g._flask_babel
        their_locale, their_domain = their_state.babel_locale, their_state.babel_domain
    with app.test_request_context(path, headers=headers):
        ours = translations()
        our_state = g._flask_babel
        assert ours is theirs
        assert our_state.babel_locale is their_locale and our_state.babel_domain is their_domain
        assert get_locale() is their_locale and get_translations() is ours
        other = "en" if str(their_locale) == "es" else "es"
        with force_locale(other):
            assert translations() is get_translations() is not ours
        assert translations() is ours


def test_a_catalogue_not_loaded_yet_is_loaded_by_the_first_look(app: Flask) -> None:
    """The first look of the app's first Spanish request loads the catalogue (Flask-Babel's
    own loading), which Flask-Babel then finds in its cache."""
    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        ours = translations()
        assert ours.ugettext("Undo") == "Deshacer"
    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        assert get_translations() is ours


def test_each_request_has_its_own_language(app: Flask) -> None:
    for header, said in (("es", "Deshacer"), ("en", "Undo"), ("es", "Deshacer")):
        with app.test_request_context("/", headers={"Accept-Language": header}):
            assert gettext("Undo") == said
            assert render_template_string("{{ ngettext('%(num)s more run', '%(num)s more runs', 2) }}") == (
                "2 more runs" if header == "en" else babel_ngettext("%(num)s more run", "%(num)s more runs", 2))


def test_outside_a_request_messages_stay_in_english(app: Flask) -> None:
    assert gettext("Undo") == "Undo"
    with app.app_context():
        assert gettext("Undo") == "Undo"


def test_templates_say_messages_as_jinjas_own_gettext_would(app: Flask) -> None:
    """The templates' _() and ngettext() (catalogue.template_gettext) against Jinja's own
    newstyle wrappers on the same catalogue: the message trusted, its variables escaped,
    ``%%`` formatted even without variables, any variable name (``message`` too) taken."""
    from jinja2 import Environment

    jinja = Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        jinja.install_gettext_translations(translations(), newstyle=True)  # type: ignore[attr-defined]
        for source in ("{{ _('Undo') }}", "{{ _('100%% done') }}",
                       "{{ _('Error %(code)s, %(title)s: %(message)s', code=4, title='<b>', message='a & b') }}",
                       "{{ ngettext('%(num)s more run', '%(num)s more runs', n) }}",
                       "{% trans count=n %}{{ count }} cell{% pluralize %}{{ count }} cells{% endtrans %}",
                       "{{ _('%(number)s is in %(count)s cells:', number='<i>', count=n) }}"):
            for n in (1, 2):
                ours = render_template_string(source, n=n)
                assert ours == jinja.from_string(source).render(n=n), source
        assert "&lt;b&gt;" in render_template_string("{{ _('Error %(code)s, %(title)s: %(message)s', "
                                                     "code=4, title='<b>', message='m') }}")
        assert render_template_string("{{ _('Undo') }}") == "Deshacer"


# Messages as the catalogues hold them: text with markup and entities, ``%%``, named places
# of several kinds (``_formatted`` puts ints in as plain text only where ``%s``/``%d`` are).
_pieces = st.sampled_from(["Row ", "<b>", "</b>", " & ", "&amp;", "%%", "%(a)s", "%(a)d", "%(b)s", "%(b)d",
                           "%(a)x", "%(b)5d", "%(a)r", "é", " of ", "%(num)s"])
_values = st.one_of(st.integers(-5, 10**6), st.booleans(), st.sampled_from(["<i>", "a & b", "x"]),
                    st.just(Markup("<em>")), st.floats(allow_nan=False, allow_infinity=False))


def _outcome(make: Callable[[], Any]) -> Any:
    try:
        return ("said", make())
    except Exception as error:  # noqa: BLE001 - the same failure is part of the contract
        return ("failed", type(error))


@settings(max_examples=500)
@given(st.lists(_pieces, max_size=6).map("".join),
       st.dictionaries(st.sampled_from(["a", "b", "num"]), _values, max_size=3))
def test_messages_with_numbers_are_formatted_as_markup_formats_them(said: str, variables: dict[str, Any]) -> None:
    ours = _outcome(lambda: _formatted(said, dict(variables)))
    theirs = _outcome(lambda: Markup(said) % dict(variables))
    assert ours == theirs
    if ours[0] == "said":
        assert type(ours[1]) is Markup


def test_cells_are_named_in_the_request_language_and_follow_force_locale(app: Flask) -> None:
    for header in ("es", "en", "es"):
        with app.test_request_context("/", headers={"Accept-Language": header}):
            for _round in range(2):  # the second time from what was kept
                for cell in ((0, 0), (1, 2), (29, 9)):
                    assert cell_words(cell) == gettext("row %(row)d, column %(col)d", row=cell[0] + 1, col=cell[1] + 1)
                    assert cell_title(cell) == gettext("Row %(row)d, column %(col)d", row=cell[0] + 1, col=cell[1] + 1)
            assert cell_title((1, 2)) == ("Fila 2, columna 3" if header == "es" else "Row 2, column 3")
            with force_locale("en"):
                assert cell_words((1, 2)) == "row 2, column 3"
