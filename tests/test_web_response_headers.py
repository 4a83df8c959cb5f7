"""The one after-request hook (web/response_headers.py) writes what four hooks wrote before:
the same headers, values and order.  Checked two ways: the four hooks as they were (kept
here as the reference) against the one, on Hypothesis-drawn responses and requests; and
the app's answers to an entry, a page, a file and an error, header by header."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import brotli
from flask import Flask, Response, current_app, request
from flask.testing import FlaskClient
from flask_compress import Compress
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import puzzle_to_id
from webapp.web.headers import add_vary
from webapp.web.response_headers import hook
from webapp.web.security import HEADERS

from puzzle_files import DATA, load

PUZZLE, SOLUTION = load(DATA / "seed000-5x5.txt")
CODE = puzzle_to_id(PUZZLE)
PAGE = f"/p/{CODE}"
SECURITY = list(HEADERS)


# --- the four hooks as they were (2026-11-26), in the order Flask ran them ---------------

def _vary_on_htmx(response: Any) -> Any:
    add_vary(response, ("HX-Request",))
    if request.path.startswith("/p/") or request.path in ("/mine", "/"):
        response.headers.setdefault("Cache-Control", "private, no-cache")
    return response


def _vary_on_language(response: Any) -> Any:
    if response.mimetype == "text/html":
        add_vary(response, ("Accept-Language", "Cookie"))
    return response


def _add_headers(response: Any) -> Any:
    headers = response.headers
    present = {name.lower() for name, _value in headers}
    headers.extend([(name, value) for name, value in HEADERS.items() if name.lower() not in present])
    if current_app.config.get("HTTPS"):
        response.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    return response


def _apps(https: bool) -> tuple[Flask, Flask]:
    """An app with the four hooks and one with the one hook, configured alike."""
    before, after = Flask("before"), Flask("after")
    for app in (before, after):
        app.config.update(HTTPS=https, COMPRESS_ALGORITHM=["br", "gzip"], COMPRESS_STREAMS=False)
    before.after_request(_add_headers)
    before.after_request(_vary_on_language)
    Compress(before)
    before.after_request(_vary_on_htmx)
    after.config["COMPRESS_REGISTER"] = False
    after.after_request(hook(after, Compress(after), HEADERS))
    return before, after


def _answered(app: Flask, path: str, accept: str | None, body: str, mimetype: str,
              headers: list[tuple[str, str]], status: int) -> tuple[int, list[tuple[str, str]], bytes]:
    environ = {"HTTP_ACCEPT_ENCODING": accept} if accept is not None else {}
    with app.test_request_context(path, method="GET", environ_base=environ):
        response = Response(body, status=status, mimetype=mimetype, headers=headers)
        response = app.process_response(response)
        return response.status_code, [(k, v) for k, v in response.headers if k != "Date"], response.get_data()


_existing = st.lists(st.sampled_from([
    ("Vary", "Accept-Encoding"), ("Vary", "hx-request"), ("Vary", "Cookie, Origin"), ("Vary", "X-Accept-Encoding-Not"),
    ("Vary", ""), ("Cache-Control", "no-store"), ("cache-control", "public"), ("X-Frame-Options", "SAMEORIGIN"),
    ("content-security-policy", "default-src 'none'"), ("Strict-Transport-Security", "max-age=1"),
    ("Content-Encoding", "identity"), ("ETag", '"abc"'), ("Location", "/x"),
]), max_size=4)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["/", "/mine", "/p/abc", "/p/abc/cell/1/2", "/solve", "/static/site.css", "/pp/x", "//p/x"]),
       st.sampled_from([None, "", "br", "gzip", "gzip, br;q=0.5", "identity", "*", "deflate", "br;q=0"]),
       st.sampled_from(["", "short", "<p>a cell</p>" * 60]),
       st.sampled_from(["text/html", "text/plain", "application/json", "image/png", "text/css"]),
       _existing, st.sampled_from([200, 303, 404, 500]), st.booleans())
def test_one_hook_writes_what_the_four_wrote(path: str, accept: str | None, body: str, mimetype: str,
                                             headers: list[tuple[str, str]], status: int, https: bool) -> None:
    before, after = _apps(https)
    assert _answered(after, path, accept, body, mimetype, headers, status) == _answered(
        before, path, accept, body, mimetype, headers, status)


# --- the app's answers, header by header ---------------------------------------------------

def _names(response: Any) -> list[str]:
    return [name for name, _value in response.headers if name not in ("Set-Cookie", "Date")]


def _entry(client: FlaskClient, value: int, accept: str | None = None) -> Any:
    cell = next(cell for cell in PUZZLE.board.cells if cell not in PUZZLE.givens)
    headers = {"HX-Request": "true", **({"Accept-Encoding": accept} if accept else {})}
    return client.post(f"{PAGE}/cell/{cell[0] + 1}/{cell[1] + 1}", data={f"c-{cell[0] + 1}-{cell[1] + 1}": str(value)},
                       headers=headers)


def test_an_entry_s_answer_has_its_headers_in_order(client: FlaskClient) -> None:
    client.get(PAGE)
    plain = _entry(client, 1)
    assert plain.status_code == 200
    assert _names(plain) == ["Content-Type", "Content-Length", "Vary", "Cache-Control", *SECURITY]
    assert plain.headers["Vary"] == "HX-Request, Accept-Encoding, Accept-Language, Cookie"
    assert plain.headers["Cache-Control"] == "private, no-cache"
    assert [value for name, value in plain.headers if name in HEADERS] == list(HEADERS.values())
    for accept, decompress in (("br", brotli.decompress), ("gzip", gzip.decompress)):
        packed = _entry(client, 2, accept)
        assert len(decompress(packed.get_data())) >= 500  # flask-compress's COMPRESS_MIN_SIZE: compressed
        assert _names(packed) == ["Content-Type", "Content-Length", "Vary", "Cache-Control", "Content-Encoding",
                                  *SECURITY]
        assert packed.headers["Content-Encoding"] == accept
        assert packed.headers["Content-Length"] == str(len(packed.get_data()))
        assert packed.headers["Vary"] == "HX-Request, Accept-Encoding, Accept-Language, Cookie"


def test_files_errors_and_https_keep_their_headers(client: FlaskClient, tmp_path: Path, make_app: Any) -> None:
    robots = client.get("/robots.txt")
    assert _names(robots) == ["Content-Type", "Content-Length", "Cache-Control", "Vary", *SECURITY]
    assert robots.headers["Vary"] == "HX-Request, Accept-Encoding"
    text = client.get(f"{PAGE}.txt", headers={"Accept-Encoding": "gzip"})
    assert _names(text)[:4] == ["Content-Type", "Content-Length", "Content-Disposition", "Vary"]
    missing = client.get("/nope", headers={"Accept-Encoding": "br"})
    assert missing.status_code == 404
    assert missing.headers["Vary"] == "HX-Request, Accept-Encoding, Accept-Language, Cookie"
    assert "Cache-Control" not in missing.headers
    app = make_app(tmp_path / "https", HTTPS=True)
    secure = app.test_client()
    secure.get(PAGE)
    answer = _entry(secure, 1)
    assert _names(answer) == ["Content-Type", "Content-Length", "Vary", "Cache-Control", *SECURITY,
                              "Strict-Transport-Security"]
