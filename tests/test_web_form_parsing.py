"""webapp/web/limits.py's ``LimitedRequest`` reads an url-encoded form itself (every cell
entry is one), not through Werkzeug's form parser: for any body, content type and limits
(Hypothesis draws them) it must give the same fields, or refuse with the same error, as
Flask's own way with the same ``FieldLimitedParser``."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from flask import Flask
from flask import Request as FlaskRequest
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.exceptions import HTTPException

from webapp.web.limits import Fields, LimitedRequest


class ParsedByWerkzeug(LimitedRequest):
    """The same request class, its form read by Flask's and Werkzeug's own path."""

    _load_form_data = FlaskRequest._load_form_data


def _app(max_length: int | None, max_fields: int) -> Flask:
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=max_length, MAX_FORM_PARTS=max_fields)
    return app


def _read(cls: type[LimitedRequest], app: Flask, body: bytes, content_type: str,
          length: str | None, per_request_limit: int | None) -> tuple[str, Any]:
    environ = {"REQUEST_METHOD": "POST", "CONTENT_TYPE": content_type, "wsgi.input": _Input(body),
               "SERVER_NAME": "localhost", "SERVER_PORT": "80", "wsgi.url_scheme": "http", "PATH_INFO": "/"}
    if length is not None:
        environ["CONTENT_LENGTH"] = length
    with app.app_context():
        request = cls(environ)
        if per_request_limit is not None:
            request.max_content_length = per_request_limit
        try:
            form, files = request.form, request.files
        except HTTPException as error:
            return "refused", error.code
        try:  # what is left of the body, as the stream the request keeps gives it
            rest: bytes | int | None = request.stream.read()
        except HTTPException as error:
            rest = error.code
        return "read", (list(form.items(multi=True)), list(files.items(multi=True)), rest)


class _Input:
    """A server's input stream: bytes, read in parts."""

    def __init__(self, data: bytes):
        self.data, self.at = data, 0

    def read(self, size: int = -1) -> bytes:
        end = len(self.data) if size is None or size < 0 else self.at + size
        chunk = self.data[self.at:end]
        self.at += len(chunk)
        return chunk

    def readline(self, size: int = -1) -> bytes:
        return self.read(size)


words = st.text(alphabet=st.characters(min_codepoint=1, max_codepoint=0x2FF), max_size=12)
fields = st.lists(st.tuples(words, words), max_size=8).map(
    lambda pairs: "&".join(f"{quote(k)}={quote(v)}" for k, v in pairs).encode("ascii"))
bodies = st.one_of(fields, st.binary(max_size=40), fields.map(lambda b: b + b"&x=%ff%fe"),
                   fields.map(lambda b: b + "&é=ü".encode("latin-1")))
content_types = st.sampled_from(["application/x-www-form-urlencoded",
                                 "application/x-www-form-urlencoded; charset=UTF-8",
                                 "Application/X-WWW-Form-Urlencoded", "text/plain", "application/json"])


@settings(max_examples=400, deadline=None)
@given(bodies, content_types, st.sampled_from([None, 20, 1000]), st.sampled_from([1, 3, 100]),
       st.sampled_from(["exact", "none", "short", "long"]), st.sampled_from([None, 10]))
def test_an_urlencoded_form_is_read_as_werkzeug_reads_it(body: bytes, content_type: str, max_length: int | None,
                                                        max_fields: int, length_kind: str,
                                                        per_request_limit: int | None) -> None:
    length = {"exact": str(len(body)), "none": None, "short": str(max(0, len(body) - 3)),
              "long": str(len(body) + 5)}[length_kind]
    app = _app(max_length, max_fields)
    ours = _read(LimitedRequest, app, body, content_type, length, per_request_limit)
    theirs = _read(ParsedByWerkzeug, app, body, content_type, length, per_request_limit)
    assert ours == theirs


def test_an_entry_form_is_read_without_werkzeug_s_parser() -> None:
    # The fast way is the one taken for an entry's form (not Werkzeug's parser, silently).
    app = _app(1000, 10)
    made = []

    class Watched(LimitedRequest):
        def make_form_data_parser(self) -> Any:
            made.append(1)
            return super().make_form_data_parser()

    assert _read(Watched, app, b"c-1-2=5&mode=", "application/x-www-form-urlencoded", "13", None) == (
        "read", ([("c-1-2", "5"), ("mode", "")], [], b""))
    assert made == []
    _read(Watched, app, b"--x--", "multipart/form-data; boundary=x", "5", None)
    assert made == [1]


@settings(max_examples=300)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "mode", ""]), st.sampled_from(["", "1", "x", "12"])), max_size=5),
       st.sampled_from(["a", "b", "mode", "", "value"]), st.sampled_from([None, "d", 0]),
       st.sampled_from([None, int, str]))
def test_fields_say_what_werkzeug_s_say(items: list[tuple[str, str]], key: str, default: Any, kind: Any) -> None:
    ours, theirs = Fields(items), ImmutableMultiDict(items)
    assert ours.get(key) == theirs.get(key)
    assert ours.get(key, default) == theirs.get(key, default)
    assert ours.get(key, default, kind) == theirs.get(key, default, kind)
    assert ours.get(key, type=kind) == theirs.get(key, type=kind)
    assert list(ours.items(multi=True)) == list(theirs.items(multi=True))
    assert (key in ours) == (key in theirs)


def test_a_request_s_fields_are_fields(app: Any) -> None:
    with app.test_request_context("/?lang=es", method="POST", data={"c-1-2": "5"}):
        from flask import request

        assert isinstance(request.form, Fields) and isinstance(request.args, Fields)
        assert request.form.get("mode") is None and request.form.get("c-1-2") == "5"
