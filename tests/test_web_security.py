"""Security and limits of the web app (webapp/security.py, webapp/limits.py): CSRF, cookies,
the secret key, headers, escaping, SQL, request sizes, rate limits and time budgets."""

from __future__ import annotations

import ast
import logging
import re
from pathlib import Path

import pytest
from flask import Config, Flask
from flask.testing import FlaskClient
from waiting import wait_until

from engine import parse_puzzle, puzzle_to_id
from webapp.cli import main
from webapp.core.options import Options
from webapp.store.pool import Refiller
from webapp.web import keys, limits, settings
from webapp.web.security import CONTENT_SECURITY_POLICY, CSRF_MESSAGE

from puzzle_files import DATA, load

ROOT = Path(__file__).resolve().parent.parent
PUZZLE, SOLUTION = load(DATA / "seed000-5x5.txt")
CODE = puzzle_to_id(PUZZLE)
PAGE = f"/p/{CODE}"
OPEN = [cell for cell in PUZZLE.board.cells if cell not in PUZZLE.givens]
HTMX = {"HX-Request": "true"}
NEW_FORM = {"shape": "diamond", "size": "3", "difficulty": "easy", "variant": "hidato"}
# A puzzle that takes a good part of a second to make (a tiny one can be made in 1 ms).
SLOW_FORM = {**NEW_FORM, "shape": "rectangle", "size": "10", "difficulty": "medium"}


def field(cell: tuple[int, int]) -> str:
    return f"c-{cell[0] + 1}-{cell[1] + 1}"


def token_of(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, "no CSRF field in the page"
    return found.group(1)


def entries(app: Flask, client: FlaskClient) -> dict[tuple[int, int], int]:
    with client.session_transaction() as session:
        player = session.get("player")
    if player is None:
        return {}
    state = app.extensions["hidato"].store.load_progress(player, CODE)
    return dict(state.entries) if state else {}


# --- CSRF ------------------------------------------------------------------------------

STATE_CHANGING = [
    ("/new", NEW_FORM),
    (PAGE, {"action": "check"}),
    (f"{PAGE}/cell/{OPEN[0][0] + 1}/{OPEN[0][1] + 1}", {field(OPEN[0]): "3"}),
    (f"{PAGE}/clock", {"event": "away"}),
    ("/booklet", {"count": "1"}),
    ("/solve", {"puzzle": "1 . 3", "action": "solve"}),
]


@pytest.mark.parametrize(("url", "form"), STATE_CHANGING)
def test_posts_without_the_token_are_refused(client: FlaskClient, url: str, form: dict[str, str]) -> None:
    client.get(PAGE)
    client.send_csrf = False  # type: ignore[attr-defined]
    for headers in ({}, {"X-CSRF-Token": "forged"}, HTMX):
        response = client.post(url, data={**form, "csrf_token": "forged"} if headers == {} else form,
                                headers=headers)
        html = response.get_data(as_text=True)
        if headers is HTMX:  # a 403 that htmx swaps (base.html): the message goes to the status line
            assert response.status_code == 403 and response.headers["HX-Retarget"] == "#status"
            assert "Not saved" in html
        else:
            assert response.status_code == 400
        assert "security token is missing or out of date" in html


def test_entries_need_the_token_and_take_it_as_a_field_or_a_header(app: Flask, client: FlaskClient) -> None:
    html = client.get(PAGE).get_data(as_text=True)
    token = token_of(html)
    assert f'hx-headers=\'{{"X-CSRF-Token": "{token}"}}\'' in html  # htmx sends it on every request
    client.send_csrf = False  # type: ignore[attr-defined]
    a, b, c = OPEN[:3]
    assert client.post(f"{PAGE}/cell/{a[0] + 1}/{a[1] + 1}", data={field(a): "5"}).status_code == 400
    assert entries(app, client) == {}
    # Without JavaScript: the form's hidden field.
    response = client.post(PAGE, data={"csrf_token": token, field(b): str(SOLUTION[b]), "action": "save"})
    assert response.status_code == 303
    # htmx: the header.
    response = client.post(f"{PAGE}/cell/{c[0] + 1}/{c[1] + 1}", data={field(c): str(SOLUTION[c])},
                           headers={**HTMX, "X-CSRF-Token": token})
    assert response.status_code == 200 and 'class="cell right"' in response.get_data(as_text=True)
    assert entries(app, client) == {b: SOLUTION[b], c: SOLUTION[c]}


def test_a_token_from_another_session_is_refused(app: Flask) -> None:
    mine, theirs = app.test_client(), app.test_client()
    token = token_of(theirs.get(PAGE).get_data(as_text=True))
    mine.get(PAGE)
    mine.send_csrf = False  # type: ignore[attr-defined]
    response = mine.post(PAGE, data={"csrf_token": token, "action": "restart"})
    assert response.status_code == 400 and CSRF_MESSAGE.split(":")[0] in response.get_data(as_text=True)


@pytest.mark.parametrize("url", ["/", PAGE, "/booklet", "/solve"])
def test_every_post_form_carries_the_token(client: FlaskClient, url: str) -> None:
    html = client.get(url).get_data(as_text=True)
    forms = re.findall(r"<form\b[^>]*>.*?</form>", html, re.S)
    posting = [form for form in forms if re.search(r'method="post"', form[:400], re.I)]
    assert posting, f"no POST form on {url}"
    for form in posting:
        assert 'name="csrf_token"' in form, form[:200]


# --- cookies and the secret key --------------------------------------------------------


def _session_cookie(response) -> str:
    cookies = [v for k, v in response.headers.items() if k == "Set-Cookie" and v.startswith("session=")]
    assert cookies, "no session cookie was set"
    return cookies[0]


def test_session_cookie_is_httponly_and_samesite_lax(client: FlaskClient) -> None:
    cookie = _session_cookie(client.get(PAGE))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie


def test_https_makes_cookies_secure_and_sends_hsts(tmp_path: Path, make_app) -> None:
    app = make_app(tmp_path / "instance", HTTPS=True)
    response = app.test_client().get(PAGE)
    assert "Secure" in _session_cookie(response)
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")


def _one_database(tmp_path: Path, databases) -> str:
    """A database two apps with different instance folders share (two hosts)."""
    return databases.url("shared") or f"sqlite:///{tmp_path / 'shared.sqlite3'}"


def _playing(app: Flask) -> tuple[FlaskClient, str]:
    """A player who opened the puzzle on ``app``: their client and the page's CSRF token."""
    player = app.test_client()
    token = token_of(player.get(PAGE).get_data(as_text=True))
    player.send_csrf = False  # type: ignore[attr-defined]
    return player, token


def _moved(player: FlaskClient, app: Flask) -> FlaskClient:
    """The same browser, its next request reaching ``app`` (another host, or after a restart)."""
    client = app.test_client()
    cookie = player.get_cookie("session")
    assert cookie is not None
    client.set_cookie("session", cookie.value)
    client.send_csrf = False  # type: ignore[attr-defined]
    return client


def _enters(app: Flask, player: FlaskClient, token: str, cell: tuple[int, int]) -> int:
    """The status of the player's next entry on ``app``, sent with their cookie and token."""
    response = _moved(player, app).post(f"{PAGE}/cell/{cell[0] + 1}/{cell[1] + 1}",
                                        data={field(cell): str(SOLUTION[cell])},
                                        headers={**HTMX, "X-CSRF-Token": token})
    return response.status_code


def test_hosts_on_one_database_sign_cookies_with_one_key(tmp_path: Path, make_app, databases) -> None:
    url = _one_database(tmp_path, databases)
    host_a = make_app(tmp_path / "a", DATABASE_URL=url, SECRET_KEY=None)
    host_b = make_app(tmp_path / "b", DATABASE_URL=url, SECRET_KEY=None)
    elsewhere = make_app(tmp_path / "c", SECRET_KEY=None)  # another site, on its own database
    key = host_a.config["SECRET_KEY"]
    assert len(key) == 64 and key == host_b.config["SECRET_KEY"] != elsewhere.config["SECRET_KEY"]
    assert not (tmp_path / "a" / "secret_key").exists()  # kept in the database, not on the host
    # The player opened the page on host A; the balancer sends their entry to host B.
    player, token = _playing(host_a)
    on_b = _moved(player, host_b)
    response = on_b.post(f"{PAGE}/cell/{OPEN[0][0] + 1}/{OPEN[0][1] + 1}",
                         data={field(OPEN[0]): str(SOLUTION[OPEN[0]])}, headers={**HTMX, "X-CSRF-Token": token})
    assert response.status_code == 200
    back_on_a = _moved(on_b, host_a)  # host A knows the player B's answer named, and reads the entry
    assert entries(host_a, back_on_a) == {OPEN[0]: SOLUTION[OPEN[0]]}
    assert _enters(elsewhere, player, token, OPEN[1]) == 403  # a cookie of another key is refused


def test_a_key_kept_in_the_instance_folder_seeds_the_shared_key(tmp_path: Path, make_app, databases) -> None:
    url = _one_database(tmp_path, databases)
    for name, key in (("a", "kept-by-the-first-host"), ("b", "kept-by-another-host")):
        (tmp_path / name).mkdir(mode=0o700)
        (tmp_path / name / "secret_key").write_text(key + "\n")
    # A one-machine site upgrading keeps its key, so its players keep their sessions...
    host_a = make_app(tmp_path / "a", DATABASE_URL=url, SECRET_KEY=None)
    assert host_a.config["SECRET_KEY"] == "kept-by-the-first-host"
    # ...and the shared key, once made, is every host's whatever its folder holds.
    host_b = make_app(tmp_path / "b", DATABASE_URL=url, SECRET_KEY=None)
    assert host_b.config["SECRET_KEY"] == "kept-by-the-first-host"


def test_the_environments_secret_key_wins(tmp_path: Path, make_app, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path / "a", SECRET_KEY="given")
    assert app.config["SECRET_KEY"] == "given" and app.config["SECRET_KEY_FALLBACKS"] == []
    assert keys.find_key(app.extensions["hidato"].store, keys.SESSION) is None  # none made in the database
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    monkeypatch.setenv("HIDATO_SECRET_KEY_FALLBACKS", "old-1, old-2\n12345")
    config = Config(str(tmp_path))
    settings.load(config, {})
    assert config["SECRET_KEY"] == "from-the-environment"
    assert config["SECRET_KEY_FALLBACKS"] == ["old-1", "old-2", "12345"]  # a key of digits stays text


def test_cookies_signed_with_a_fallback_key_still_verify(tmp_path: Path, make_app) -> None:
    before = make_app(tmp_path / "a", SECRET_KEY="old-key")
    player, token = _playing(before)
    changed = make_app(tmp_path / "a", SECRET_KEY="new-key", SECRET_KEY_FALLBACKS="old-key")
    assert _enters(changed, player, token, OPEN[0]) == 200
    forgotten = make_app(tmp_path / "a", SECRET_KEY="new-key")
    assert _enters(forgotten, player, token, OPEN[1]) == 403


def test_rotating_the_shared_key_keeps_old_cookies_valid(tmp_path: Path, make_app, databases,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    instance = tmp_path / "a"
    before = make_app(instance, SECRET_KEY=None)
    player, token = _playing(before)
    monkeypatch.setenv("HIDATO_INSTANCE", str(instance))
    monkeypatch.setenv("HIDATO_POOL_FILL", "0")
    monkeypatch.delenv("SECRET_KEY", raising=False)
    url = databases.url(str(instance))
    if url:
        monkeypatch.setenv("DATABASE_URL", url)
    else:
        monkeypatch.delenv("DATABASE_URL", raising=False)

    assert main(["secret", "rotate"]) == 0
    assert "restart" in capsys.readouterr().out
    after = make_app(instance, SECRET_KEY=None)  # the host restarted
    assert after.config["SECRET_KEY"] != before.config["SECRET_KEY"]
    assert after.config["SECRET_KEY_FALLBACKS"] == [before.config["SECRET_KEY"]]
    assert _enters(after, player, token, OPEN[0]) == 200
    assert _enters(before, player, token, OPEN[1]) == 200  # a host not yet restarted is fine too

    assert main(["secret", "rotate"]) == 0  # the next rotation retires the first key
    assert _enters(make_app(instance, SECRET_KEY=None), player, token, OPEN[2]) == 403


def test_secret_key_is_never_in_the_source() -> None:
    for path in (ROOT / "webapp").glob("*.py"):
        assert not re.search(r"SECRET_KEY\s*=\s*['\"]", path.read_text()), path


# --- headers ---------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/", PAGE, f"{PAGE}.txt", "/mine", "/nowhere", "/static/hidato.css",
                                 "/booklet", "/solve", f"/p/{CODE}/print"])
def test_security_headers_on_every_response(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code in (200, 404)
    headers = response.headers
    assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    assert "Strict-Transport-Security" not in headers  # only when HTTPS is configured
    response.close()  # a static file is streamed from an open file


def test_content_security_policy_allows_no_inline_code() -> None:
    policy = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'" and policy["object-src"] == "'none'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY


@pytest.mark.parametrize("url", ["/", PAGE, "/mine", "/booklet", "/solve", f"/p/{CODE}/print",
                                 "/p/2x3:f", "/nowhere"])
def test_pages_have_no_inline_scripts_styles_or_handlers(client: FlaskClient, url: str) -> None:
    html = client.get(url).get_data(as_text=True)
    # A JSON data block (the scripts' texts in the page's language) is never run: no script.
    html = re.sub(r'<script type="application/json"[^>]*>[^<]*</script>', "", html)
    for script in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in script, script
    assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html), "inline script"
    assert "<style" not in html
    assert not re.search(r"\sstyle\s*=", html), "inline style attribute"
    assert not re.search(r"\son[a-z]+\s*=", html, re.I), "inline event handler"
    assert "javascript:" not in html.lower()


def test_behind_a_proxy_the_forwarded_client_and_scheme_count(tmp_path: Path, make_app, steady_rate_window) -> None:
    app = make_app(tmp_path / "instance", PROXIES=1, RATE_LIMITS={"generate": (1, 60)}, HOSTS="hidato.example")
    client = app.test_client()
    one = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "hidato.example"}
    response = client.post("/new", data={"shape": "blob"}, headers=one)
    assert response.status_code == 400  # counted (one allowed), then refused as a bad form
    assert client.post("/new", data={"shape": "blob"}, headers=one).status_code == 429
    other = {**one, "X-Forwarded-For": "203.0.113.8"}
    response = client.post("/new", data=NEW_FORM, headers=other)
    assert response.status_code == 303  # another client behind the same proxy has its own budget
    assert response.headers["Location"].startswith("https://hidato.example/p/") or \
        response.headers["Location"].startswith("/p/")


# --- hosts and absolute links ----------------------------------------------------------


@pytest.mark.parametrize(("host", "status"), [("localhost", 200), ("localhost:5000", 200), ("127.0.0.1:8000", 200),
                                              ("evil.example", 400), ("hidato.example.org", 400)])
def test_only_the_hosts_the_site_serves_are_answered(client: FlaskClient, host: str, status: int) -> None:
    assert client.get("/mine", headers={"Host": host}).status_code == status


def test_the_public_address_and_listed_hosts_are_served(tmp_path: Path, make_app) -> None:
    app = make_app(tmp_path / "instance", PUBLIC_URL="https://hidato.example.org/", HOSTS="lan.box, .example.net")
    client = app.test_client()
    for host in ("hidato.example.org", "lan.box:5000", "play.example.net", "localhost"):
        assert client.get("/mine", headers={"Host": host}).status_code == 200, host
    for host in ("evil.example", "example.org", "lan.box.evil"):
        response = client.get("/mine", headers={"Host": host})
        assert response.status_code == 400 and "Traceback" not in response.get_data(as_text=True), host


@pytest.mark.parametrize("url", ["ftp://x.example", "hidato.example.org", "https://", "https://x.example/?a=1"])
def test_a_bad_public_address_is_refused_at_start(tmp_path: Path, make_app, url: str) -> None:
    with pytest.raises(ValueError, match="HIDATO_PUBLIC_URL"):
        make_app(tmp_path / "instance", PUBLIC_URL=url)


SHORT = puzzle_to_id(parse_puzzle("1 . 3\n. 5 .\n7 . 9"))


def test_printed_links_come_from_the_public_address_never_the_host_header(tmp_path: Path, make_app) -> None:
    plain = make_app(tmp_path / "plain").test_client()
    sheet = plain.get(f"/p/{SHORT}/print", headers={"Host": "127.0.0.1:5000"}).get_data(as_text=True)
    assert f"/p/{SHORT}" in sheet  # the page has its links (relative) ...
    assert not re.search(r"https?://(127\.0\.0\.1|localhost)", sheet)  # ... and no absolute one
    public = make_app(tmp_path / "public", PUBLIC_URL="https://hidato.example.org").test_client()
    sheet = public.get(f"/p/{SHORT}/print", headers={"Host": "localhost"}).get_data(as_text=True)
    # The worksheet's QR code and short link name the public address.
    assert re.search(r'class="segno"', sheet) and re.search(r"hidato\.example\.org/s/[0-9a-z]+", sheet)
    assert "localhost" not in sheet


# --- files and processes -----------------------------------------------------------------


def test_the_instance_folder_and_database_are_the_owners_only(tmp_path: Path, make_app, databases) -> None:
    instance = tmp_path / "new" / "instance"
    app = make_app(instance, SECRET_KEY=None)
    app.test_client().get("/mine")
    assert instance.stat().st_mode & 0o777 == 0o700
    if databases.backend == "sqlite":
        assert (instance / "hidato.sqlite3").stat().st_mode & 0o777 == 0o600


def test_the_pool_filler_is_given_the_database_url_by_its_environment(tmp_path: Path) -> None:
    secret_url = f"sqlite:///{tmp_path}/pool-secret-password.sqlite3"
    refiller = Refiller(secret_url, str(tmp_path / "instance"))
    refiller.request(Options("diamond", 3, "easy", "hidato"))
    process = refiller._running
    assert process is not None
    try:
        proc = Path(f"/proc/{process.pid}")

        def running_python(seen: tuple[list[bytes], list[bytes]]) -> bool:
            # Before, the child is a copy of us, then ``nice`` (whose command line already
            # names webapp.cli, and whose environment reads empty while it runs exec again).
            arguments, environ = seen
            return b"webapp.cli" in arguments and not arguments[0].endswith(b"nice") and environ != [b""]

        def read(name: str) -> list[bytes]:
            return proc.joinpath(name).read_bytes().split(b"\0")

        arguments, environ = wait_until(
            lambda: (read("cmdline"), read("environ")), running_python, seconds=10, every=0.005,
            what="the pool filler running Python")
        assert b"pool" in arguments and not any(b"secret-password" in argument for argument in arguments)
        assert f"DATABASE_URL={secret_url}".encode() in environ
    finally:
        refiller.stop()


# --- escaping and SQL ------------------------------------------------------------------

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def test_user_text_is_always_escaped(client: FlaskClient) -> None:
    for response in (
        client.post("/new", data={"shape": HOSTILE}),
        client.post("/new", data={"shape": "diamond", "size": HOSTILE}),
        client.post("/booklet", data={"shape": HOSTILE}),
        client.post("/solve", data={"puzzle": HOSTILE, "action": "solve"}),
        client.get("/p/" + HOSTILE.replace("/", "%2F")),
        client.post(PAGE, data={"action": HOSTILE}),
        client.post(f"{PAGE}/cell/{OPEN[0][0] + 1}/{OPEN[0][1] + 1}", data={field(OPEN[0]): HOSTILE},
                    headers=HTMX),
    ):
        html = response.get_data(as_text=True)
        assert response.status_code < 500
        assert "<script>alert" not in html and "<img src=x" not in html, html[:300]


def test_templates_turn_escaping_off_nowhere(app: Flask) -> None:
    for path in (ROOT / "templates").glob("*"):
        source = path.read_text()
        assert path.suffix == ".html", path  # autoescaped by suffix
        assert not re.search(r"\|\s*safe\b|autoescape\s+false|Markup\(", source), path
    autoescape = app.jinja_env.autoescape
    assert callable(autoescape) and autoescape("x.html") is True


SQL_CALLS = {"text", "exec_driver_sql", "execute", "executescript"}


def test_sql_is_never_built_from_strings() -> None:
    """Every SQL string in the app is a literal constant: values only travel as parameters."""
    for path in (ROOT / "webapp").glob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name not in SQL_CALLS:
                continue
            first = node.args[0]
            built = isinstance(first, (ast.JoinedStr, ast.BinOp)) or (
                isinstance(first, ast.Call) and getattr(first.func, "attr", "") == "format")
            assert not built, f"{path.name}:{node.lineno}: SQL built from a string"
            if name in ("text", "exec_driver_sql", "executescript"):
                assert isinstance(first, ast.Constant), f"{path.name}:{node.lineno}: SQL not a literal"


# --- sizes -----------------------------------------------------------------------------


def test_too_large_a_body_is_a_413_that_says_so(client: FlaskClient) -> None:
    response = client.post(PAGE, data={"action": "save", "junk": "x" * (limits.MAX_BODY_BYTES + 1)})
    assert response.status_code == 413
    assert "too large" in response.get_data(as_text=True)


@pytest.mark.parametrize("encoding", ["multipart/form-data", "application/x-www-form-urlencoded"])
def test_too_many_form_fields_is_a_413_whatever_the_encoding(client: FlaskClient, encoding: str) -> None:
    data = {f"f{i}": "1" for i in range(limits.MAX_FORM_FIELDS + 1)}
    response = client.post(PAGE, data=data, content_type=encoding)
    assert response.status_code == 413
    assert f"{limits.MAX_FORM_FIELDS:,} form fields" in response.get_data(as_text=True)


@pytest.mark.parametrize("encoding", ["multipart/form-data", "application/x-www-form-urlencoded"])
def test_the_largest_real_forms_fit_the_field_limit(client: FlaskClient, encoding: str) -> None:
    """The editor's 30 x 30 drawing grid with every control, as the page posts it."""
    form = {f"g-{r}-{c}": "" for r in range(1, 31) for c in range(1, 31)}
    form.update(grid_rows="30", grid_cols="30", rows="30", cols="30", mode="type", puzzle="", drawn="",
                adjacency="king", difficulty="medium", action="draw", csrf_token="x")
    form["g-1-1"], form["g-30-30"] = "1", "900"
    response = client.post("/solve", data=form, content_type=encoding)
    assert response.status_code == 200
    assert "30 rows by 30 columns" in response.get_data(as_text=True)


def test_the_readme_states_the_true_field_limit() -> None:
    assert f"{limits.MAX_FORM_FIELDS:,} form fields" in (ROOT / "README.md").read_text()


def test_boards_over_the_size_limit_are_not_played(client: FlaskClient) -> None:
    side = 31
    rows = [["."] * side for _ in range(side)]
    rows[0][0], rows[-1][-1] = "1", str(side * side)
    code = puzzle_to_id(parse_puzzle("\n".join(" ".join(row) for row in rows)))
    response = client.get(f"/p/{code}")
    assert response.status_code == 200  # the unplayable page, with the board
    assert f"up to {limits.MAX_BOARD_CELLS:,} cells" in response.get_data(as_text=True)
    assert client.post(f"/p/{code}", data={"action": "check"}).status_code == 400


def test_generator_options_out_of_range_are_refused(client: FlaskClient) -> None:
    response = client.post("/new", data={**NEW_FORM, "size": "999"})
    assert response.status_code == 400 and "must be from" in response.get_data(as_text=True)


# --- rate limits -----------------------------------------------------------------------


def test_generating_is_rate_limited_per_client(tmp_path: Path, make_app, steady_rate_window) -> None:
    app = make_app(tmp_path / "instance", RATE_LIMITS={"generate": (2, 60)})
    stranger = app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "192.0.2.10"
    assert stranger.get(PAGE).status_code == 200  # the puzzle is stored: opening it is free from now on
    client = app.test_client()
    for _ in range(2):
        assert client.post("/new", data=NEW_FORM).status_code == 303
    response = client.post("/new", data=NEW_FORM)
    assert response.status_code == 429
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    assert "Too many new puzzles from your address: at most 2 in a minute" in response.get_data(as_text=True)
    neighbour = app.test_client()
    neighbour.environ_base["REMOTE_ADDR"] = "192.0.2.9"
    assert neighbour.post("/new", data=NEW_FORM).status_code == 303
    assert client.get(PAGE).status_code == 200  # playing is never limited


def test_rate_limits_are_shared_by_server_processes(tmp_path: Path, make_app, steady_rate_window) -> None:
    first = make_app(tmp_path / "instance", RATE_LIMITS={"booklet": (1, 60)})
    second = make_app(tmp_path / "instance", RATE_LIMITS={"booklet": (1, 60)})  # same database
    assert first.test_client().post("/booklet", data={"count": "0"}).status_code == 400
    response = second.test_client().post("/booklet", data={"count": "0"})
    assert response.status_code == 429 and "Too many booklets" in response.get_data(as_text=True)


def test_the_solver_page_is_rate_limited(tmp_path: Path, make_app, steady_rate_window) -> None:
    app = make_app(tmp_path / "instance", RATE_LIMITS={"solve": (2, 60), "generate": (1, 60)})
    client = app.test_client()
    assert client.post("/solve", data={"puzzle": "1 . 3", "action": "draw"}).status_code == 200  # free
    assert client.post("/solve", data={"puzzle": "1 . 3", "action": "solve"}).status_code == 200  # (1)
    assert client.post("/solve", data={"puzzle": "1 . 3", "action": "check"}).status_code == 200  # (2)
    response = client.post("/solve", data={"puzzle": "1 . 3", "action": "grade"})
    assert response.status_code == 429 and "Too many puzzles solved" in response.get_data(as_text=True)
    # A puzzle new to the site counts against the limit of new puzzles, not of solves.
    assert client.get(PAGE).status_code == 200
    assert client.get("/p/1x3:1a3").status_code == 429


# --- time budgets ----------------------------------------------------------------------


def test_generation_that_runs_out_of_time_says_so(tmp_path: Path, make_app) -> None:
    app = make_app(tmp_path / "instance", GENERATE_SECONDS=0.001, GENERATE_WAIT_SECONDS=60)
    # The pool refiller, asked on a miss, could otherwise serve the puzzle first.
    app.extensions["hidato"].refiller.request = lambda options=None: None
    client = app.test_client()
    response = client.post("/new", data=SLOW_FORM)
    assert response.status_code == 303  # not a bare give-up: the page for a board not ready yet
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Your puzzle is not ready yet" in page and "takes longer than 0.001 seconds" in page
    assert "keeps being made in the background" in page


def test_generation_out_of_time_on_the_waiting_page(tmp_path: Path, make_app) -> None:
    app = make_app(tmp_path / "instance", GENERATE_SECONDS=0.001, GENERATE_WAIT_SECONDS=0)
    app.extensions["hidato"].refiller.request = lambda options=None: None
    client = app.test_client()
    waiting = client.post("/new", data=SLOW_FORM).headers["Location"]
    assert waiting.startswith("/new/")
    page = wait_until(lambda: client.get(waiting), lambda page: page.status_code != 200, 30,
                      what="the waiting page ended")
    assert page.status_code == 303
    offer = client.get(page.headers["Location"]).get_data(as_text=True)
    assert "Your puzzle is not ready yet" in offer and "takes longer than 0.001 seconds" in offer


def test_the_puzzle_of_the_day_has_a_time_budget_too(tmp_path: Path, make_app) -> None:
    app = make_app(tmp_path / "instance", SOLVE_SECONDS=0.001)
    response = app.test_client().get("/")
    assert response.status_code == 200
    assert "not ready yet" in response.get_data(as_text=True)


def test_a_host_signing_with_another_key_than_the_others_is_told_at_start(tmp_path: Path, make_app,
                                                                          caplog: pytest.LogCaptureFixture) -> None:
    first = make_app(tmp_path / "instance", SECRET_KEY="the-key-of-every-host")
    store = first.extensions["hidato"].store
    assert keys.check_agreement(store, "the-key-of-every-host", [])
    with caplog.at_level(logging.ERROR, logger="webapp.web.keys"):
        make_app(tmp_path / "instance", SECRET_KEY="a-key-set-on-one-host-only")
    assert "SECRET_KEY differs from the key other hosts" in caplog.text
    # A rotation: the new key lists the old one among its fallbacks, and becomes the one to agree with.
    assert keys.check_agreement(store, "the-new-key", ["the-key-of-every-host"])
    assert keys.check_agreement(store, "the-new-key", [])
    assert not keys.check_agreement(store, "the-key-of-every-host", [])  # a host left on the old key
