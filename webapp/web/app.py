"""The Flask app: ``create_app(config)`` builds it.

Settings come from ``settings.py`` (defaults, the environment, then ``config``); the
store, the runner of heavy work, the ticket runner and the pool refiller live in
``app.extensions["hidato"]`` (``services.py``); the pages are blueprints: ``pages``
(home, new puzzle, my puzzles), ``play`` (a puzzle's page and what it posts),
``printing`` (printable pages, PDF booklets), ``editor`` (the solver page), ``own``
(booklets of one's own puzzles) and ``photo`` (a puzzle read from a photo);
``/healthz`` is answered in front of them all (``health.py``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from types import FunctionType
from typing import Any

from flask import Flask, request
from werkzeug.exceptions import HTTPException

from engine import SMALLEST

from ..core.game import format_seconds
from ..core.options import VARIANTS, variant_of
from ..store.pool import Refiller
from ..store.shared import Shared
from ..store.store import Store, database_url
from ..work.budget import Runner, Slots
from . import assets, i18n, keys, limits, response_headers, security, settings
from .errors import error_page
from .health import Health
from .jobs import MAX_ATTEMPTS, QUEUE_SECONDS, Jobs
from .services import Services

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class HidatoFlask(Flask):
    """Flask, with ``ensure_sync``'s answer kept per function: Flask asks it of every hook
    and view at every request (nine times for a cell entry), and each time ``inspect``
    unwraps the function to look for a coroutine."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._synchronous: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        if type(func) is not FunctionType:  # a bound method, a partial: asked afresh
            return super().ensure_sync(func)
        found = self._synchronous.get(func)
        if found is None:
            found = self._synchronous[func] = super().ensure_sync(func)
        return found


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The Flask app; ``config`` overrides the settings (tests pass INSTANCE_PATH etc.)."""
    overrides = dict(config or {})
    app = HidatoFlask(
        "webapp",
        root_path=os.path.join(ROOT, "webapp"),
        template_folder=os.path.join(ROOT, "templates"),
        static_folder=os.path.join(ROOT, "static"),
        instance_path=settings.instance_path(overrides),
    )
    settings.load(app.config, overrides)
    # The instance folder holds the SQLite database: the owner's only.
    os.makedirs(app.instance_path, mode=0o700, exist_ok=True)
    security.init_app(app)  # CSRF, cookies, hosts, security headers, proxies: before any view
    i18n.init_app(app)  # English or Spanish: ?lang=, the session, Accept-Language
    limits.init_app(app)  # body size, rate limits of the expensive endpoints
    # Pages and partials compressed for browsers that say they take it (Brotli or gzip):
    # a board's cells repeat, so a 20x20 page goes from 280 KB to 18 KB.
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    # Not files sent as streams: flask-compress leaves them unclosed.
    app.config.setdefault("COMPRESS_STREAMS", False)
    # flask-compress, Vary, Cache-Control and the security headers: one after-request hook.
    response_headers.init_app(app, security.HEADERS)
    # The static files: versioned URLs, compressed once per process, cached for a year.
    assets.init_app(app)

    url = database_url(app.config["DATABASE_URL"], app.instance_path)
    store = Store(url)  # brings the database to the latest schema (store/schema.py)
    # The key that signs cookies: the environment's, else the one every host shares in the
    # database (read here, after the settings that can be refused, so no store is left open).
    keys.init_app(app, store)
    slots = Slots(os.path.join(app.instance_path, "slots"), int(app.config["WORK_SLOTS"]))
    app.extensions["hidato"] = Services(
        store=store,
        runner=Runner(slots, float(app.config["SLOT_WAIT_SECONDS"]), QUEUE_SECONDS),
        jobs=Jobs(Shared(store), int(app.config["JOB_THREADS"]), context=app.app_context),
        refiller=Refiller(url, app.instance_path, enabled=bool(app.config["POOL_FILL"])),
    )

    from .editor import bp as editor_bp
    from .job_handlers import register_jobs
    from .own_booklet import bp as own_booklet_bp
    from .pages import bp as pages_bp
    from .photo import bp as photo_bp
    from .play import bp as play_bp
    from .printing import bp as printing_bp

    for blueprint in (pages_bp, play_bp, printing_bp, editor_bp, own_booklet_bp, photo_bp):
        app.register_blueprint(blueprint)
    register_jobs(app.extensions["hidato"].jobs)
    app.register_error_handler(HTTPException, error_page)
    app.add_template_filter(format_seconds, "clock")
    app.add_template_global(variant_of)
    app.add_template_global(shows_progress)
    app.jinja_env.globals["variants"] = VARIANTS
    app.jinja_env.globals["max_attempts"] = MAX_ATTEMPTS
    # Which sizes of each shape reach each level, for the forms' script (engine.levels).
    app.jinja_env.globals["level_sizes_json"] = json.dumps(SMALLEST, separators=(",", ":"))

    if app.config["POOL_FILL"]:
        app.extensions["hidato"].refiller.request()
    app.wsgi_app = Health(app.wsgi_app, store)  # type: ignore[method-assign]  # outermost: any Host
    return app


def shows_progress() -> bool:
    """Whether this request's page shows this browser's progress (a puzzle, My puzzles, home)."""
    return response_headers.shows_progress(request.path)
