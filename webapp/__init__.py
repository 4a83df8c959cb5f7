"""The Hidato command line and web application.

``create_app(config)`` builds the Flask app: the database (``storage``), the generator
and the pool refiller live in ``app.extensions["hidato"]``; the pages are blueprints:
``pages`` (home, new puzzle, my puzzles), ``play`` (a puzzle's page and what it posts),
``printing`` (printable pages, PDF booklets) and ``editor`` (the solver page).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from flask import Flask, current_app, render_template, request
from werkzeug.exceptions import HTTPException

from . import limits, security
from .game import format_seconds
from .pool import Refiller
from .puzzles import Generator
from .storage import Store, database_url

__all__ = ["create_app", "services"]


@dataclass
class Services:
    """What the views need besides Flask: the store, the generator, the pool refiller."""

    store: Store
    generator: Generator
    refiller: Refiller


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The Flask app; ``config`` overrides the defaults (tests pass INSTANCE_PATH etc.)."""
    config = dict(config or {})
    app = Flask(
        __name__,
        template_folder="../templates",
        static_folder="../static",
        instance_path=config.pop("INSTANCE_PATH", None) or os.environ.get("HIDATO_INSTANCE") or None,
    )
    app.config.from_mapping(
        DATABASE_URL=os.environ.get("DATABASE_URL") or None,
        SECRET_KEY=os.environ.get("SECRET_KEY") or None,
        # Start `hidato pool fill` in the background when the app starts (HIDATO_POOL_FILL=0: don't).
        POOL_FILL_ON_START=os.environ.get("HIDATO_POOL_FILL", "1") != "0",
        # How long "New puzzle" waits for the generator before showing a waiting page.
        GENERATE_WAIT_SECONDS=1.0,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=400),
        MAX_CONTENT_LENGTH=1024 * 1024,
    )
    app.config.update(config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = security.instance_secret(app.instance_path)

    url = database_url(app.config["DATABASE_URL"], app.instance_path)
    store = Store(url)
    app.extensions["hidato"] = Services(
        store=store,
        generator=Generator(store, float(app.config["GENERATE_WAIT_SECONDS"]),
                            float(app.config.get("GENERATE_SECONDS", limits.GENERATE_SECONDS))),
        refiller=Refiller(url),
    )
    security.init_app(app)  # CSRF, cookies, security headers, proxies: before any view
    limits.init_app(app)  # body size, rate limits of the expensive endpoints

    from .editor import bp as editor_bp
    from .pages import bp as pages_bp
    from .play import bp as play_bp
    from .printing import bp as printing_bp

    app.register_blueprint(pages_bp)
    app.register_blueprint(play_bp)
    app.register_blueprint(printing_bp)
    app.register_blueprint(editor_bp)
    app.register_error_handler(HTTPException, _http_error)
    app.after_request(_vary_on_htmx)
    app.add_template_filter(format_seconds, "clock")

    if app.config["POOL_FILL_ON_START"]:
        app.extensions["hidato"].refiller.request()
    return app


def services() -> Services:
    """The current app's store, generator and refiller."""
    return current_app.extensions["hidato"]


def _http_error(error: HTTPException) -> tuple[str, int]:
    """Every 4xx/5xx as a page of ours that says what went wrong."""
    code = error.code or 500
    return render_template("error.html", code=code, title=error.name, message=error.description), code


def _vary_on_htmx(response: Any) -> Any:
    # Pages and their htmx partials share URLs: caches must keep them apart.
    response.vary.add("HX-Request")
    if request.path.startswith("/p/") or request.path in ("/", "/mine"):
        response.headers.setdefault("Cache-Control", "no-store")
    return response
