"""Limits that keep one client from taking the server down: sizes, rates and time.

- Request bodies are capped (``MAX_CONTENT_LENGTH``, answered with a 413 that says so),
  and so are the form fields in one request (``MAX_FORM_PARTS``).
- Boards played by id are at most ``MAX_BOARD_CELLS`` cells (``puzzles.load``); the
  generator only takes each shape's own size range (``puzzles.parse_options``).
- The expensive endpoints (generate, solve, booklet) are rate limited per client, the
  counts kept in the database so every server process sees the same ones
  (``RATE_LIMITS``: hits per window; a 429 with ``Retry-After`` and a message past it).
- Generation runs in a child process under a time budget (``run_with_budget``): when
  the budget runs out the child is killed and the player is told, so no request and no
  thread is ever stuck behind a runaway search.  Solving has its own budget inside the
  engine (``max_seconds``).
"""

from __future__ import annotations

import math
import multiprocessing
import threading
import time
from multiprocessing.connection import Connection
from typing import Any, Callable, TypeVar

from flask import Flask, current_app, render_template, request
from werkzeug.exceptions import RequestEntityTooLarge, TooManyRequests

T = TypeVar("T")

MAX_BODY_BYTES = 256 * 1024
# Form fields in one request: the board form has two per open cell, the solver page
# one per cell of its 30 x 30 drawing grid.
MAX_FORM_PARTS = 2500
# Boards the site plays when they arrive by id (the engine itself reads up to 2,500).
MAX_BOARD_CELLS = 900
# Seconds a generation may run before it is stopped.
GENERATE_SECONDS = 60.0
# (hits, seconds): how often one client may use each expensive kind of endpoint.
RATE_LIMITS: dict[str, tuple[int, int]] = {
    "generate": (30, 60),
    "solve": (60, 60),
    "booklet": (5, 60),
}
# What each rate-limited endpoint spends: a kind, or a function of the posted action.
_EDITOR_KINDS = {"solve": "solve", "check": "solve", "grade": "solve", "play": "solve", "generate": "generate"}
RATED_ENDPOINTS: dict[str, Callable[[], str | None]] = {
    "pages.new_puzzle": lambda: "generate",
    "printing.booklet": lambda: "booklet",
    "editor.act": lambda: _EDITOR_KINDS.get(request.form.get("action") or "solve"),
}
_WHAT = {
    "generate": "new puzzles",
    "solve": "puzzles solved",
    "booklet": "booklets",
}


class OutOfTime(ValueError):
    """Work stopped because its time budget ran out."""

    def __init__(self, seconds: float):
        super().__init__(f"gave up after {seconds:g} seconds")
        self.seconds = seconds


def init_app(app: Flask) -> None:
    """Size limits, the 413 message and the rate limit of the expensive endpoints."""
    app.config["MAX_CONTENT_LENGTH"] = min(app.config.get("MAX_CONTENT_LENGTH") or MAX_BODY_BYTES,
                                           MAX_BODY_BYTES)
    app.config.setdefault("MAX_FORM_PARTS", MAX_FORM_PARTS)
    app.config.setdefault("RATE_LIMITS", dict(RATE_LIMITS))
    app.config.setdefault("GENERATE_SECONDS", GENERATE_SECONDS)
    app.before_request(_rate_limit)
    app.register_error_handler(RequestEntityTooLarge, _too_large)
    app.register_error_handler(TooManyRequests, _too_many)


def client_id() -> str:
    """Who is asking: the client's address (the proxy's view of it when HIDATO_PROXIES is set)."""
    return (request.remote_addr or "unknown")[:64]


def charge(kind: str) -> None:
    """Count one use of ``kind`` by this client; a 429 when it is over the limit."""
    limits = current_app.config["RATE_LIMITS"]
    if kind not in limits:
        return
    allowed, seconds = limits[kind]
    now = time.time()
    window = int(now // seconds) * seconds
    from . import services  # here: webapp/__init__ imports this module

    hits = services().store.count_hit(client_id(), kind, window)
    if hits > allowed:
        wait = max(1, math.ceil(window + seconds - now))
        error = TooManyRequests(
            f"Too many {_WHAT.get(kind, kind)} from your address: at most {allowed} in "
            f"{_period(seconds)}. Please wait {wait} seconds and try again.",
            retry_after=wait,
        )
        raise error


def _period(seconds: int) -> str:
    return "a minute" if seconds == 60 else f"{seconds} seconds"


def _rate_limit() -> None:
    if request.method != "POST" or request.endpoint not in RATED_ENDPOINTS:
        return
    kind = RATED_ENDPOINTS[request.endpoint]()
    if kind is not None:
        charge(kind)


def _too_large(error: RequestEntityTooLarge) -> tuple[str, int]:
    limit = current_app.config.get("MAX_CONTENT_LENGTH") or MAX_BODY_BYTES
    message = (f"What was sent is too large: this site takes at most {limit // 1024} KiB in one request "
               f"(and {current_app.config.get('MAX_FORM_PARTS', MAX_FORM_PARTS)} form fields).")
    return render_template("error.html", code=413, title="Too large", message=message), 413


def _too_many(error: TooManyRequests) -> Any:
    html = render_template("error.html", code=429, title="Too many requests", message=error.description)
    headers = {"Retry-After": str(error.retry_after)} if error.retry_after else {}
    return html, 429, headers


# --- time budgets ------------------------------------------------------------------------

_context_lock = threading.Lock()
_context: Any = None


def _processes() -> Any:
    """Children forked from a small server process that has the engine loaded (fast to start,
    and never a copy of a server process with its threads and database connections)."""
    global _context
    with _context_lock:
        if _context is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["engine", "webapp.puzzles"])
            _context = context
        return _context


def start_processes() -> None:
    """Start the server process that children are forked from, so the first budgeted
    work does not wait for it (gunicorn calls this as each worker starts)."""
    from multiprocessing import forkserver

    _processes()
    forkserver.ensure_running()


def run_with_budget(seconds: float, work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` in a child process, stopped after ``seconds`` (raises OutOfTime).

    ``work`` and its arguments and result must pickle.  A ValueError in the child (the
    engine refusing the options) is raised here as a ValueError with the same message.
    """
    context = _processes()
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(send, work, args), daemon=True, name="hidato-budget")
    child.start()
    send.close()
    try:
        if not receive.poll(seconds):
            raise OutOfTime(seconds)
        try:
            outcome, value = receive.recv()
        except EOFError:
            raise RuntimeError("the worker process stopped without an answer") from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
    if outcome == "ok":
        return value  # type: ignore[no-any-return]
    if outcome == "refused":
        raise ValueError(value)
    raise RuntimeError(value)


def _child(send: Connection, work: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        result: tuple[str, Any] = ("ok", work(*args))
    except ValueError as err:
        result = ("refused", str(err))
    except BaseException as err:  # noqa: BLE001 - reported to the parent, which raises it
        result = ("failed", f"{type(err).__name__}: {err}")
    send.send(result)
    send.close()
