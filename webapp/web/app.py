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
from .budget import Runner, Slots, default_slot_count
from .game import format_seconds
from .pool import Refiller
from .puzzles import QUEUE_SECONDS, Generator
from .storage import Store, database_url

__all__ = ["create_app", "services"]


@dataclass
class Services:
    """What the views need besides Flask: the store, heavy work, the generator, the pool refiller."""

    store: Store
    runner: Runner
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
        # Heavy work (solving, grading, generating) running at once on this machine.
        WORK_SLOTS=int(os.environ.get("HIDATO_WORK_SLOTS") or default_slot_count()),
        SOLVE_SECONDS=float(os.environ.get("HIDATO_SOLVE_SECONDS") or limits.SOLVE_SECONDS),
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=400),
        MAX_CONTENT_LENGTH=1024 * 1024,
    )
    app.config.update(config)
    # The instance folder holds the secret key and the SQLite database: the owner's only.
    os.makedirs(app.instance_path, mode=0o700, exist_ok=True)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = security.instance_secret(app.instance_path)
    security.init_app(app)  # CSRF, cookies, hosts, security headers, proxies: before any view
    limits.init_app(app)  # body size, rate limits of the expensive endpoints

    url = database_url(app.config["DATABASE_URL"], app.instance_path)
    store = Store(url)
    slots = Slots(os.path.join(app.instance_path, "slots"), int(app.config["WORK_SLOTS"]))
    runner = Runner(slots, float(app.config["SLOT_WAIT_SECONDS"]), QUEUE_SECONDS)
    app.extensions["hidato"] = Services(
        store=store,
        runner=runner,
        generator=Generator(store, runner, float(app.config["GENERATE_WAIT_SECONDS"]),
                            float(app.config["GENERATE_SECONDS"])),
        refiller=Refiller(url, app.instance_path),
    )

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
