"""Shared fixtures: the web app on a temporary database, its test client, and for the
browser tests (tests/e2e/) a live server and Debian's Chromium.

The web and storage tests run on SQLite, and also on PostgreSQL when
HIDATO_TEST_POSTGRES_URL names a server (``make test`` starts a throw-away one with
tools/with_postgres.sh): each test gets a schema of its own there, dropped afterwards.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from werkzeug.serving import make_server

from webapp.store.store import database_url
from webapp.web import limits
from webapp.web.app import create_app
from webapp.web.security import CSRF_FIELD, CSRF_HEADER

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
# Never DATABASE_URL: that may name a real database, and tests drop what they make.
POSTGRES_URL = os.environ.get("HIDATO_TEST_POSTGRES_URL") or ""
BACKENDS = ["sqlite", "postgresql"] if POSTGRES_URL else ["sqlite"]


def pytest_report_header() -> str:
    if POSTGRES_URL:
        return f"database backends: sqlite, postgresql ({make_url(database_url(POSTGRES_URL, '')).render_as_string()})"
    return "database backends: sqlite (make test adds PostgreSQL: HIDATO_TEST_POSTGRES_URL)"


class CsrfClient(FlaskClient):
    """Flask's test client, sending the session's CSRF token with each POST as the pages do."""

    send_csrf = True

    def open(self, *args: Any, **kwargs: Any) -> Any:
        method = str(kwargs.get("method") or "GET").upper()
        if self.send_csrf and method not in ("GET", "HEAD", "OPTIONS", "TRACE"):
            with self.session_transaction() as session:
                token = session.setdefault(CSRF_FIELD, secrets.token_urlsafe(32))
            headers = dict(kwargs.get("headers") or {})
            headers.setdefault(CSRF_HEADER, token)
            kwargs["headers"] = headers
        return super().open(*args, **kwargs)


class Databases:
    """Empty databases for one test on one backend; None means the instance folder's SQLite file."""

    def __init__(self, backend: str):
        self.backend = backend
        self._schemas: dict[str, str] = {}

    def url(self, name: str) -> str | None:
        """The database called ``name`` in this test (the same name gives the same database)."""
        if self.backend == "sqlite":
            return None
        if name not in self._schemas:
            schema = "t_" + secrets.token_hex(8)
            self._execute(f'CREATE SCHEMA "{schema}"')
            self._schemas[name] = schema
        base = make_url(database_url(POSTGRES_URL, ""))
        return base.update_query_dict({"options": f"-csearch_path={self._schemas[name]}"}).render_as_string(
            hide_password=False)

    def drop(self) -> None:
        for schema in self._schemas.values():
            self._execute(f'DROP SCHEMA "{schema}" CASCADE')
        self._schemas.clear()

    @staticmethod
    def _execute(statement: str) -> None:
        engine = create_engine(database_url(POSTGRES_URL, ""))
        try:
            with engine.begin() as connection:
                connection.execute(text(statement))
        except OperationalError as err:
            pytest.fail(f"The test PostgreSQL server ({POSTGRES_URL}) cannot be reached: {err}. "
                        "Run the tests with `make test`, which starts one (tools/with_postgres.sh).",
                        pytrace=False)
        finally:
            engine.dispose()


@pytest.fixture(params=BACKENDS)
def databases(request: pytest.FixtureRequest) -> Iterator[Databases]:
    """This test's databases, on each backend in turn."""
    found = Databases(request.param)
    yield found
    found.drop()


def _app(instance: Path, **config: Any) -> Flask:
    application = create_app({
        "INSTANCE_PATH": str(instance),
        "TESTING": True,
        "SECRET_KEY": "test",
        "POOL_FILL": False,
        # Tests that want the waiting page ask for it (a wait of 0); the others get their
        # PDF directly however loaded the machine is (both cores busy with xdist).
        "BOOKLET_WAIT_SECONDS": 120,
        "GENERATE_WAIT_SECONDS": 60,
        # Never the environment's DATABASE_URL: the instance folder's SQLite file, or a
        # PostgreSQL schema of the test's own (the databases fixture).
        "DATABASE_URL": None,
        **config,
    })
    application.test_client_class = CsrfClient
    return application


@pytest.fixture
def app(tmp_path: Path, databases: Databases) -> Iterator[Flask]:
    """A fresh app with its own instance folder and an empty database."""
    instance = tmp_path / "instance"
    application = _app(instance, DATABASE_URL=databases.url(str(instance)))
    yield application
    _close(application)


def _close(application: Flask) -> None:
    application.extensions["hidato"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def steady_rate_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rate limits count hits in windows that start every minute on the clock: a test that
    counts on its hits landing in one window holds the limits' clock still (not waiting
    out the end of a window)."""
    still = time.time()
    monkeypatch.setattr(limits, "clock", lambda: still)


@pytest.fixture
def make_app(databases: Databases) -> Iterator[Callable[..., Flask]]:
    """Make apps on given instance folders (e.g. two on one folder, as after a restart)."""
    made: list[Flask] = []

    def factory(instance: Path, **config: Any) -> Flask:
        config.setdefault("DATABASE_URL", databases.url(str(instance)))
        made.append(_app(instance, **config))
        return made[-1]

    yield factory
    for application in made:
        _close(application)


# --- browser tests ---------------------------------------------------------------------


@pytest.fixture(scope="session")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    # Every browser test comes from 127.0.0.1: the rate limits are tested in test_web_security.
    application = _app(tmp_path_factory.mktemp("live") / "instance",
                       RATE_LIMITS={"generate": (1000, 60), "solve": (1000, 60), "booklet": (1000, 60)})
    yield application
    _close(application)


@pytest.fixture(scope="session")
def base_url(live_app: Flask) -> Iterator[str]:
    """The real app served by Werkzeug in a thread on a free port (overrides pytest-playwright's)."""
    server = make_server("127.0.0.1", 0, live_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=10)
    server.server_close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium: Playwright cannot download its own browsers here."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install it with 'apt-get install -y chromium' "
                    "(make test does this)", pytrace=False)
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """Where browser tests keep screenshots (git-ignored; kept after the run)."""
    path = ROOT / "test-results" / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
