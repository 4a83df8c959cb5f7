"""Static files (webapp/web/assets.py): versioned URLs, Brotli or gzip made once, cached
for a year when the URL names the content; and the caching of the pages themselves."""

from __future__ import annotations

import gzip
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import brotli
import pytest
from flask import Flask, request, url_for
from flask.testing import FlaskClient

from engine import puzzle_to_id

from puzzle_files import DATA, load

ROOT = Path(__file__).resolve().parent.parent
CODE = puzzle_to_id(load(DATA / "seed000-5x5.txt")[0])
YEAR = "public, max-age=31536000, immutable"


def _versioned(app: Flask, filename: str) -> str:
    with app.test_request_context():
        return url_for("static", filename=filename)


@pytest.mark.parametrize("url", ["/", f"/p/{CODE}", "/solve", f"/p/{CODE}/print"])
def test_pages_link_every_static_file_with_its_version(client: FlaskClient, url: str) -> None:
    html = client.get(url).get_data(as_text=True)
    links = re.findall(r'(?:href|src)="(/static/[^"]*)"', html)
    assert links
    for link in links:
        assert re.fullmatch(r"/static/[\w./-]+\?v=[0-9a-f]{12}", link), link
        response = client.get(link.replace("&amp;", "&"))
        assert response.status_code == 200 and response.headers["Cache-Control"] == YEAR


@pytest.mark.parametrize("filename", ["hidato.css", "hidato.js", "play.js", "vendor/htmx.min.js", "favicon.svg"])
@pytest.mark.parametrize(("accept", "encoding"), [("gzip, deflate, br, zstd", "br"), ("gzip", "gzip"),
                                                  ("br;q=0, gzip", "gzip"), ("", None), ("identity", None)])
def test_text_files_go_compressed_as_the_browser_takes_them(app: Flask, client: FlaskClient, filename: str,
                                                            accept: str, encoding: str | None) -> None:
    original = (ROOT / "static" / filename).read_bytes()
    response = client.get(_versioned(app, filename), headers={"Accept-Encoding": accept})
    assert response.status_code == 200
    assert response.headers.get("Content-Encoding") == encoding
    assert "Accept-Encoding" in response.headers["Vary"]
    body = response.data
    if encoding == "br":
        body = brotli.decompress(body)
    elif encoding == "gzip":
        body = gzip.decompress(body)
    assert body == original
    if encoding and len(original) > 2000:
        assert len(response.data) < len(original) / 2


def test_only_the_current_version_is_cached_for_a_year(app: Flask, client: FlaskClient) -> None:
    url = _versioned(app, "hidato.css")
    assert client.get(url).headers["Cache-Control"] == YEAR
    for other in ("/static/hidato.css", "/static/hidato.css?v=000000000000"):
        response = client.get(other)
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "public, max-age=600"


def test_a_browser_with_the_file_gets_a_304(app: Flask, client: FlaskClient) -> None:
    url = _versioned(app, "play.js")
    first = client.get(url, headers={"Accept-Encoding": "br"})
    again = client.get(url, headers={"Accept-Encoding": "br", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and not again.data
    other = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["ETag"]})
    assert other.status_code == 200 and other.headers["Content-Encoding"] == "gzip"  # another encoding, another ETag


def test_images_go_as_they_are(app: Flask, client: FlaskClient) -> None:
    response = client.get(_versioned(app, "docs/worksheet-a4.png"), headers={"Accept-Encoding": "br, gzip"})
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert "Content-Encoding" not in response.headers
    assert response.data == (ROOT / "static" / "docs" / "worksheet-a4.png").read_bytes()


@pytest.mark.parametrize("url", ["/static/nothing.css", "/static/../webapp/web/app.py", "/static/%2e%2e/README.md",
                                 "/static/vendor", "/static/"])
def test_nothing_outside_the_folder_and_no_folders(client: FlaskClient, url: str) -> None:
    assert client.get(url).status_code == 404


def test_static_files_carry_no_cookie_even_for_a_player_with_a_session(app: Flask, client: FlaskClient) -> None:
    client.get(f"/p/{CODE}")  # a session with its CSRF token
    assert client.get_cookie("session") is not None
    response = client.get(_versioned(app, "hidato.css"))
    assert "Set-Cookie" not in response.headers
    assert "Cookie" not in response.headers.get("Vary", "")
    page = client.get(f"/p/{CODE}")
    assert "Cookie" in page.headers["Vary"]  # the pages still keep the session going


def test_an_edited_file_gets_a_new_version(tmp_path: Path, make_app: Callable[..., Flask]) -> None:
    app = make_app(tmp_path / "instance")
    folder = tmp_path / "static"
    shutil.copytree(ROOT / "static", folder)
    app.static_folder = str(folder)
    app.extensions["assets"].folder = str(folder)
    client = app.test_client()
    before = _versioned(app, "hidato.css")
    (folder / "hidato.css").write_text((folder / "hidato.css").read_text() + "\n.new { color: red; }\n")
    after = _versioned(app, "hidato.css")
    assert after != before
    response = client.get(after, headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(response.data).endswith(b".new { color: red; }\n")
    assert client.get(before).headers["Cache-Control"] == "public, max-age=600"  # no longer what it names


@pytest.mark.parametrize("url", ["/", f"/p/{CODE}", "/mine"])
def test_pages_with_a_players_data_are_private_and_revalidated_but_may_go_in_the_back_forward_cache(
        client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.headers["Cache-Control"] == "private, no-cache"  # not no-store: that bars the bfcache
    assert {"Cookie", "HX-Request"} <= {v.strip() for v in response.headers["Vary"].split(",")}
    # Each shows progress (home: the game to continue, today's solved): fetched again on Back.
    assert 'data-back="revalidate"' in response.get_data(as_text=True)


def test_a_session_cookie_checked_once_is_still_refused_once_out_of_date_or_altered(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cookies are checked once per process (assets.SessionInterface keeps what a checked
    cookie holds): the same cookie again is taken without a check, until its age runs out;
    an altered one is checked and refused; what a request changes is not kept."""
    import time

    page = client.get(f"/p/{CODE}").get_data(as_text=True)
    cookie = client.get_cookie("session")
    assert cookie is not None
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token
    interface = app.session_interface
    with app.test_request_context("/", headers={"Cookie": f"session={cookie.value}"}):
        first = interface.open_session(app, request)
        assert first is not None and first.get("csrf_token") == token.group(1)
        first["csrf_token"] = "changed"  # by this request only
        again = interface.open_session(app, request)
        assert again is not None and again.get("csrf_token") == token.group(1)
    altered = cookie.value[:-2] + ("A" if cookie.value[-2] != "A" else "B") + cookie.value[-1]
    with app.test_request_context("/", headers={"Cookie": f"session={altered}"}):
        refused = interface.open_session(app, request)
        assert refused is not None and "csrf_token" not in refused
    lifetime = app.permanent_session_lifetime.total_seconds()
    later = time.time() + lifetime + 60
    monkeypatch.setattr(time, "time", lambda: later)
    with app.test_request_context("/", headers={"Cookie": f"session={cookie.value}"}):
        refused = interface.open_session(app, request)
        assert refused is not None and "csrf_token" not in refused
