"""webapp/web/assets.py's ``cookie_named`` and i18n.py's ``_best_language`` read a request's
Cookie and Accept-Language headers once per header text: they must say what Werkzeug's
``request.cookies`` and ``request.accept_languages`` say for any header (Hypothesis draws
them), so the session and the language are found exactly as before."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request

from webapp.web.assets import cookie_named
from webapp.web.i18n import LANGUAGES, _best_language

NAMES = ["session", "other", "Session", "sess"]
printable = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=30)
cookie_texts = st.lists(
    st.tuples(st.sampled_from(NAMES), printable),
    max_size=5,
).map(lambda pairs: "; ".join(f"{name}={value}" for name, value in pairs))
language_texts = st.one_of(
    st.lists(st.tuples(st.sampled_from(["en", "es", "es-ES", "en-GB", "fr", "de", "*", "ES", "pt-BR"]),
                       st.sampled_from(["", ";q=0.9", ";q=0.5", ";q=0", ";q=1"])), max_size=5)
    .map(lambda parts: ",".join(code + q for code, q in parts)),
    st.text(max_size=30),
)


def _request(header: str, value: str) -> Request:
    # Set in the environ as a server does (EnvironBuilder refuses some texts a client can send).
    environ = EnvironBuilder().get_environ()
    environ["HTTP_" + header.upper().replace("-", "_")] = value
    return Request(environ)


@settings(max_examples=300)
@given(cookie_texts, st.sampled_from(NAMES))
def test_the_session_cookie_is_read_as_werkzeug_reads_it(header: str, name: str) -> None:
    assert cookie_named(header, name) == _request("Cookie", header).cookies.get(name)


@settings(max_examples=300)
@given(language_texts)
def test_the_language_is_chosen_as_werkzeug_chooses_it(header: str) -> None:
    expected = _request("Accept-Language", header).accept_languages.best_match(list(LANGUAGES)) or "en"
    assert _best_language(header) == expected
