"""Limits that keep one client from taking the server down: sizes, rates and time.

- Request bodies are capped (``MAX_CONTENT_LENGTH``, answered with a 413 that says so),
  and so are the form fields in one request, url-encoded or multipart alike
  (``MAX_FORM_FIELDS``).  A route that takes a file has its own, larger cap
  (``BODY_LIMITS``: a photo of a puzzle), set before anything reads the body.
- Boards played, solved or graded are at most ``MAX_BOARD_CELLS`` cells
  (``store.catalog``); the generator only takes each shape's own size range
  (``core.options``).
- The expensive endpoints (generate, solve, booklet) are rate limited per client, the
  counts kept in the database so every server process sees the same ones
  (``RATE_LIMITS``: hits per window; a 429 with ``Retry-After`` and a message past it).
- Solving, grading and generating run in child processes under a time budget, a few
  at a time across the whole server (``work.budget``); a request that finds every slot
  taken is answered 503 with ``Retry-After`` and a message.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import IO, Any
from urllib.parse import parse_qsl

from flask import Flask, Request, current_app, render_template, request
from flask.globals import _cv_app
from flask_babel import format_decimal, lazy_gettext, ngettext
from flask_babel import gettext as _
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.exceptions import RequestEntityTooLarge, TooManyRequests
from werkzeug.formparser import FormDataParser
from werkzeug.wsgi import get_input_stream

from ..core.messages import busy
from ..core.messages import seconds as seconds_words
from ..scan import MAX_BYTES as PHOTO_MAX_BYTES
from ..store.catalog import MAX_BOARD_CELLS
from ..work.budget import Busy
from .i18n import words
from .services import services

MAX_BODY_BYTES = 256 * 1024
# Form fields in one request. The largest real forms are the solver page's 30 x 30
# drawing grid (900 cells and a dozen controls) and the board form of a 900-cell
# puzzle (one field per open cell and a few controls).
MAX_FORM_FIELDS = MAX_BOARD_CELLS + 100
# Routes that take a file, and the most their bodies may hold (a 12-MP phone photo is
# 3-6 MB; the photo reader refuses larger files itself, so the form's few fields fit in
# what is left over).  Everywhere else MAX_BODY_BYTES.
BODY_LIMITS: dict[str, int] = {
    "photo.upload": PHOTO_MAX_BYTES + 64 * 1024,
}

# (hits, seconds): how often one client may use each expensive kind of endpoint.
RATE_LIMITS: dict[str, tuple[int, int]] = {
    "generate": (30, 60),
    "solve": (60, 60),
    "booklet": (5, 60),
    "photo": (6, 60),
}
# The solver page charges its own buttons once it has read the board (editor.py): a board
# too large is refused first, and a busy server says so before anything is counted.
RATED_ENDPOINTS: dict[str, str] = {
    "pages.new_puzzle": "generate",
    "printing.booklet": "booklet",
}
_WHAT = {
    "generate": lazy_gettext("new puzzles"),
    "solve": lazy_gettext("puzzles solved"),
    "booklet": lazy_gettext("booklets"),
    "photo": lazy_gettext("photos read"),
}


class FieldLimitedParser(FormDataParser):
    """Werkzeug's form parser, with the field limit applied to url-encoded forms too
    (Werkzeug counts only the parts of multipart forms)."""

    def _parse_urlencoded(self, stream: IO[bytes], mimetype: str, content_length: int | None,
                          options: dict[str, str]) -> Any:
        return stream, _urlencoded(stream, self.max_form_parts, self.cls), self.cls()


def _urlencoded(stream: IO[bytes], max_fields: int | None, cls: Any) -> Any:
    """An url-encoded body's fields, at most ``max_fields`` of them (a 413 past that)."""
    text = stream.read().decode()
    try:
        items = parse_qsl(text, keep_blank_values=True, errors="werkzeug.url_quote", max_num_fields=max_fields)
    except ValueError:  # parse_qsl's word for "too many fields"
        raise RequestEntityTooLarge() from None
    return cls(items)


URLENCODED = "application/x-www-form-urlencoded"


class Fields(ImmutableMultiDict[str, Any]):
    """A request's query or form fields (Werkzeug's ``ImmutableMultiDict``), whose ``get``
    of a field that is not there returns the default straight away: Werkzeug's raises and
    catches a ``BadRequestKeyError`` for it (an HTTP exception made each time, about a
    microsecond), and a cell entry asks for three fields its form does not have."""

    def get(self, key: Any, default: Any = None, type: Any = None) -> Any:  # type: ignore[override]  # noqa: A002
        if not dict.__contains__(self, key):
            return default
        return super().get(key, default, type)


class LimitedRequest(Request):
    """Flask's request with ``FieldLimitedParser``, and an url-encoded form (every cell
    entry, htmx's posts) read straight away: what the parser does for one, without making
    the parser, finding its method, and asking the app for the same limits ten times
    through ``current_app`` (about half of reading a one-field form)."""

    form_data_parser_class = FieldLimitedParser
    parameter_storage_class = Fields

    def _load_form_data(self) -> None:
        if "form" in self.__dict__:
            return
        app = _cv_app.get(None)
        if (app is None or app.app.debug  # the debugger's helpers: Flask's own way
                or self.mimetype != URLENCODED or self.shallow or "stream" in self.__dict__
                or getattr(self, "_cached_data", None) is not None):
            super()._load_form_data()
            return
        # Flask's max_content_length and max_form_parts, the app's config asked once.
        config = app.app.config
        limit = self._max_content_length
        if limit is None:
            limit = config["MAX_CONTENT_LENGTH"]
        fields = self._max_form_parts
        if fields is None:
            fields = config["MAX_FORM_PARTS"]
        # ``self.stream``, as its property makes it: a 413 when the body's length is over the
        # limit, before anything is read (as the parser refuses it).
        stream = self.__dict__["stream"] = get_input_stream(self.environ, max_content_length=limit)
        try:
            form = _urlencoded(stream, fields, self.parameter_storage_class)
        except ValueError:  # not UTF-8: the parser is silent, the form empty
            form = self.parameter_storage_class()
        d = self.__dict__
        d["form"], d["files"] = form, self.parameter_storage_class()


def init_app(app: Flask) -> None:
    """Size limits, the 413 and 503 pages and the rate limit of the expensive endpoints."""
    app.request_class = LimitedRequest
    app.config["MAX_CONTENT_LENGTH"] = min(app.config.get("MAX_CONTENT_LENGTH") or MAX_BODY_BYTES,
                                           MAX_BODY_BYTES)
    app.config["MAX_FORM_PARTS"] = int(app.config.get("MAX_FORM_FIELDS") or MAX_FORM_FIELDS)
    app.config.setdefault("RATE_LIMITS", dict(RATE_LIMITS))
    # Before every before_request function: the CSRF check reads the form, so the body.
    app.url_value_preprocessor(_body_limit)
    app.before_request(_rate_limit)
    app.register_error_handler(RequestEntityTooLarge, _too_large)
    app.register_error_handler(TooManyRequests, _too_many)
    app.register_error_handler(Busy, busy_page)


def client_id() -> str:
    """Who is asking: the client's address (the proxy's view of it when HIDATO_PROXIES is set)."""
    return (request.remote_addr or "unknown")[:64]


# The clock rate windows are counted on (seconds since 1970): tests hold it still.
clock: Callable[[], float] = time.time


def charge(kind: str) -> None:
    """Count one use of ``kind`` by this client; a 429 when it is over the limit."""
    limits = current_app.config["RATE_LIMITS"]
    if kind not in limits:
        return
    allowed, seconds = limits[kind]
    now = clock()
    window = int(now // seconds) * seconds
    hits = services().store.count_hit(client_id(), kind, window)
    if hits > allowed:
        wait = max(1, math.ceil(window + seconds - now))
        error = TooManyRequests(
            _("Too many %(what)s from your address: at most %(allowed)s in %(period)s. Please wait %(time)s "
              "and try again.", what=str(_WHAT.get(kind, kind)), allowed=allowed, period=_period(seconds),
              time=seconds_words(wait, words())),
            retry_after=wait,
        )
        raise error


def _period(seconds: int) -> str:
    return _("a minute") if seconds == 60 else seconds_words(seconds, words())


def _body_limit(endpoint: str | None, _values: dict[str, Any] | None) -> None:
    """A route that takes a file reads a larger body than the others."""
    if endpoint in BODY_LIMITS:
        request.max_content_length = BODY_LIMITS[endpoint]


def _rate_limit() -> None:
    if request.method != "POST" or request.endpoint not in RATED_ENDPOINTS:
        return
    charge(RATED_ENDPOINTS[request.endpoint])


def _too_large(error: RequestEntityTooLarge) -> tuple[str, int]:
    if request.endpoint in BODY_LIMITS:
        return _file_too_large(request.endpoint)
    limit = current_app.config.get("MAX_CONTENT_LENGTH") or MAX_BODY_BYTES
    fields = current_app.config.get("MAX_FORM_PARTS") or MAX_FORM_FIELDS
    message = ngettext("What was sent is too large: this site takes at most %(kib)s KiB and %(fields)s form field "
                       "in one request.",
                       "What was sent is too large: this site takes at most %(kib)s KiB and %(fields)s form fields "
                       "in one request.", fields, kib=format_decimal(limit // 1024), fields=format_decimal(fields))
    return render_template("error.html", code=413, title=_("Too large"), message=message), 413


def _file_too_large(endpoint: str) -> tuple[str, int]:
    """A body too large for the route that takes a file: its form again, saying the limit."""
    return render_template("photo.html", message=photo_too_large(), asked={}), 413


def photo_too_large() -> str:
    """A photo over the photo reader's limit, in a sentence that says the limit."""
    return _("This photo is too large: the photo reader takes files of up to %(mb)s MB. A photo straight from a "
             "phone camera is well under that; a screenshot or a smaller copy of the picture also works.",
             mb=format_decimal(PHOTO_MAX_BYTES // (1024 * 1024)))


def _too_many(error: TooManyRequests) -> Any:
    html = render_template("error.html", code=429, title=_("Too many requests"), message=error.description)
    headers = {"Retry-After": str(error.retry_after)} if error.retry_after else {}
    return html, 429, headers


def busy_page(error: Busy) -> Any:
    """Every slot for heavy work is taken: a 503 that says to come back shortly."""
    html = render_template("error.html", code=503, title=_("Busy"), message=busy(error.retry_after, words()))
    return html, 503, {"Retry-After": str(error.retry_after)}
