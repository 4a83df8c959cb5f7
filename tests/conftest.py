"""Shared fixtures: the web app on a temporary SQLite database, its test client, and for
the browser tests (tests/e2e/) a live server and Debian's Chromium.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from webapp import create_app

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent


def _app(instance: Path, **config: Any) -> Flask:
    return create_app({
        "INSTANCE_PATH": str(instance),
        "TESTING": True,
        "SECRET_KEY": "test",
        "POOL_FILL_ON_START": False,
        # Tests never set DATABASE_URL: they always run on their own SQLite file.
        "DATABASE_URL": None,
        **config,
    })


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """A fresh app with its own instance folder and SQLite database."""
    application = _app(tmp_path / "instance")
    yield application
    _close(application)


def _close(application: Flask) -> None:
    found = application.extensions["hidato"]
    found.refiller.stop()
    found.generator.shutdown()
    found.store.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def make_app() -> Iterator[Callable[..., Flask]]:
    """Make apps on given instance folders (e.g. two on one folder, as after a restart)."""
    made: list[Flask] = []

    def factory(instance: Path, **config: Any) -> Flask:
        made.append(_app(instance, **config))
        return made[-1]

    yield factory
    for application in made:
        _close(application)


# --- browser tests ---------------------------------------------------------------------


@pytest.fixture(scope="session")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    application = _app(tmp_path_factory.mktemp("live") / "instance")
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
