"""Home (puzzle of the day, New puzzle form, examples), the waiting page, the page for a
board not ready yet (the nearest ready ones offered, the asked one made in the
background), My puzzles; robots.txt and what the pages' <head> says about them (descriptions, absolute links)."""

from __future__ import annotations

import secrets
from dataclasses import asdict
from typing import Any

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from engine import DIFFICULTIES, SHAPES, puzzle_from_id

from ..core import days
from ..core.game import Game
from ..core.messages import N_, said, seconds
from ..core.options import VARIANTS, Options, joined, parse_options, variants_taking
from ..core.stats import record, streak
from ..core.stored import StoredPuzzle
from ..store.catalog import daily
from ..store.shared import Ticket
from ..store.wishes import nearest_ready, record_wish
from ..work.budget import Busy, OutOfTime
from . import heavy
from .i18n import long_date, words
from .job_answer import answer_job, elapsed_seconds
from .job_handlers import NOT_MADE_YET, generate_options
from .names import a_board, a_puzzle, shape_name, touching, variant_name
from .security import public_link
from .services import services

bp = Blueprint("pages", __name__)

# A generate job's result when the board was not made within its budget (a puzzle's id
# never starts with "-"): the waiting page then sends the player to ``not_ready``.

# (title, note, compact id): small hand-checked puzzles with unique solutions; the page
# translates the title and note (N_ marks them for pybabel).
EXAMPLES: tuple[tuple[str, str, str], ...] = (
    (N_("First steps"), N_("5×5 with a few holes, 18 cells"), "5x5:a18A11a17aAa10_1AbBa5aB4a6a"),
    (N_("Classic"), N_("8×8 with holes, 40 cells"), "8x8:a33_35bCb24_22aCc21bBa26a13_40_11B27c9a1Cb18bEa7bF5a"),
    (N_("Irregular"), N_("a ragged 53-cell board"),
     "9x9:Bb29a26D33dD36_35aF38bBa2_44_43_41e1e18_10c48g50aEb52_53E13a"),
    (N_("Ring"), N_("a diamond with a hole in the middle, 48 cells"),
     "10x10:D30aG35_33bE38a34a27aC40bB25a22A43bD23a20a45aD17_18aA47_48aB13_15aC3a1_11bEa7_9aGbD"),
)
_EXAMPLE_PUZZLES = [(title, note, code, puzzle_from_id(code)) for title, note, code in EXAMPLES]


def player_id(create: bool = False) -> str | None:
    """This browser's player id, kept in the session cookie; made on first need."""
    player = session.get("player")
    if player is None and create:
        player = secrets.token_hex(16)
        session["player"] = player
        session.permanent = True
    return player


def form_context(values: Any = None, error: str | None = None) -> dict[str, Any]:
    """What the New puzzle form needs to draw itself."""
    first = next(iter(SHAPES.values()))
    values = values or {}
    return {
        "shapes": SHAPES,
        "difficulties": DIFFICULTIES,
        "variants": VARIANTS,
        "form": {
            "shape": values.get("shape") or first.name,
            "size": values.get("size") or first.default_size,
            "difficulty": values.get("difficulty") or "medium",
            "variant": values.get("variant") or "hidato",
        },
        "form_error": error,
    }


@bp.app_template_global()
def shape_choices() -> list[dict[str, Any]]:
    """The forms' shapes with what the engine says they take, in the reader's words: the
    variants (and why not the others: "Heart: Hidato and Hex only"), and the sizes of a
    variant that takes only some ("Hexagon with Numbrix: sizes 5, 6, 9 and 10 only")."""
    reader = words()
    choices = []
    for name, spec in SHAPES.items():
        label = shape_name(name).capitalize()
        takes = variants_taking(spec)
        why = "" if len(takes) == len(VARIANTS) else _(
            "%(shape)s: %(variants)s only", shape=label, variants=joined([variant_name(v.key) for v in takes], reader))
        only_sizes = {}
        for variant in takes:
            sizes = spec.sizes(variant.adjacency)
            if len(sizes) < spec.max_size - spec.min_size + 1:
                only_sizes[variant.key] = {"sizes": sizes, "note": _(
                    "%(shape)s with %(variant)s: sizes %(sizes)s only", shape=label, variant=variant_name(variant.key),
                    sizes=joined([str(size) for size in sizes], reader))}
        choices.append({"name": name, "spec": spec, "label": label, "variants": [v.key for v in takes],
                        "why": why, "only_sizes": only_sizes})
    return choices


def _home(values: Any = None, error: str | None = None, status: int = 200) -> tuple[str, int]:
    found = services()
    try:
        # Made ahead by the pool filler; if not, a request may spend only the solving budget on it.
        today = daily(found.store, days.today(current_app.config["TIMEZONE"]),
                      heavy.daily_maker(found.runner),
                      float(current_app.config["SOLVE_SECONDS"]))
    except (ValueError, OutOfTime, Busy):  # not made in time: the page shows without it
        today = None
        if current_app.config["POOL_FILL"]:
            found.refiller.request()  # the filler makes it in the background
    return render_template("home.html", today=today, examples=_EXAMPLE_PUZZLES, **_progress(today),
                           **form_context(values, error)), status


def _progress(today: StoredPuzzle | None) -> dict[str, Any]:
    """What the home page shows of this browser's games (two small queries; nothing for a
    visitor without a session): their game on today's puzzle (solved, with its time, or
    how far), the daily streak, and the game to continue (the last one unfinished)."""
    player = player_id()
    if player is None:
        return {"today_game": None, "streak": 0, "resume": None}
    store = services().store
    day = days.today(current_app.config["TIMEZONE"])
    daily_record = store.daily_record(player, day)
    today_game = None
    if today is not None and daily_record.today is not None:
        today_game = Game(today.puzzle, today.solution, daily_record.today)
    resume = store.last_unfinished(player, besides=today.code if today is not None else None)
    return {"today_game": today_game, "streak": streak(daily_record.solved, day),
            "resume": resume, "resume_seconds": Game(resume.puzzle.puzzle, resume.puzzle.solution,
                                                     resume.state).seconds() if resume else 0}


@bp.get("/")
def home() -> Any:
    """Puzzle of the day, the New puzzle form and a few examples."""
    return _home()


@bp.post("/new")
def new_puzzle() -> Any:
    """Make (or take from the pool) a puzzle for the form's options and go to it."""
    try:
        options = parse_options(request.form)
    except ValueError as err:
        return _home(request.form, said(err, words()), 400)
    found = services()
    stored = found.store.take_from_pool(options.shape, options.size, options.difficulty, options.adjacency)
    if stored is not None:
        found.refiller.request(options)  # put another in its place
        return redirect(url_for("play.page", code=stored.code), 303)
    ticket = found.jobs.submit("generate", asdict(options))
    if found.jobs.wait(ticket, "generate", float(current_app.config["GENERATE_WAIT_SECONDS"])):
        return _generation(ticket)
    found.refiller.request(options)  # slow options: keep some in the pool from now on
    return redirect(url_for("pages.waiting", ticket=ticket), 303)


def _generation(ticket: str) -> Any:
    """The waiting page while the puzzle is made, then the puzzle (or the form saying why there is none)."""
    return answer_job(ticket, "generate", take=True, waiting=_waiting_page, finished=_generated,
                      expired=_("This puzzle request has expired (the server restarted or it was already "
                                "used). Please ask for a new puzzle."))


def _generated(job: Ticket) -> Any:
    """The new puzzle's page, or the form saying why there is none."""
    if job.status == "done" and job.result == NOT_MADE_YET:
        return redirect(_not_ready_url(generate_options(job)), 303)
    if job.status == "done":
        return redirect(url_for("play.page", code=job.result), 303)
    if job.status == "refused":  # the engine refused the options, or ran out of time
        return _home(job.request, job.result, 400)
    return _home(job.request, _("The puzzle could not be made, because of an error on our side (%(error)s). "
                                "Please try again.", error=job.result), 503)


@bp.get("/new/<ticket>")
def waiting(ticket: str) -> Any:
    """The page shown while a puzzle is generated; it reloads itself until it is ready."""
    return _generation(ticket)


def _waiting_page(job: Ticket) -> Any:
    elapsed = elapsed_seconds(job)
    limit = float(current_app.config["GENERATE_SECONDS"])
    return render_template("waiting.html", options=generate_options(job), job=job, elapsed=elapsed,
                           limit=limit, share=min(0.95, elapsed / limit) if limit else 0)


def _not_ready_url(options: Options) -> str:
    return url_for("pages.not_ready", variant=options.variant, shape=options.shape, size=options.size,
                   difficulty=options.difficulty)


@bp.get("/new/<variant>/<shape>/<int:size>/<difficulty>")
def not_ready(variant: str, shape: str, size: int, difficulty: str) -> Any:
    """A board that was not in the pool and not made in time: opened at once if it is
    ready now (the player came back, or reloaded), else a page that says so, offers the
    nearest boards that are ready, and keeps the asked one wished for (``store.wishes``)."""
    try:
        options = parse_options({"shape": shape, "size": str(size), "difficulty": difficulty, "variant": variant})
    except ValueError as err:
        abort(404, said(err, words()))
    found = services()
    stored = found.store.take_from_pool(options.shape, options.size, options.difficulty, options.adjacency)
    if stored is not None:
        found.refiller.request(options)  # put another in its place
        return redirect(url_for("play.page", code=stored.code), 303)
    record_wish(found.store, options)  # still wanted: kept among the newest wishes
    # The pool's targets, wishes first (not these options as such: a flood of addresses
    # must not queue boards beyond the few wishes kept); one filler at a time per process,
    # and a board another host's filler holds is left to it.
    found.refiller.request()
    return render_template("not_ready.html", options=options, offers=nearest_ready(found.store, options),
                           budget=seconds(float(current_app.config["GENERATE_SECONDS"]), words()))


@bp.get("/mine")
def mine() -> Any:
    """The puzzles this browser has played: in progress and solved."""
    player = player_id()
    store = services().store
    games = store.list_progress(player) if player else []
    seconds = {g.puzzle.code: Game(g.puzzle.puzzle, g.puzzle.solution, g.state).seconds() for g in games}
    today = days.today(current_app.config["TIMEZONE"])  # as the home page dates the puzzle of the day
    return render_template("mine.html", games=games, seconds=seconds,
                           playing=[g for g in games if not g.state.solved_at and not g.state.revealed],
                           done=[g for g in games if g.state.solved_at or g.state.revealed],
                           record=record(((g.puzzle, g.state) for g in games), today),
                           archive=store.dailies(today), today=today)


# --- what search engines and link previews read ------------------------------------------

# Paths crawlers should leave alone: one player's pages (and photos), tickets of work in progress that
# expire (each costs a lookup, a booklet's PDF is large), and other forms of a puzzle's
# page (printable, text). Puzzles, the home page, the solver and the booklet form stay
# open, and so does each puzzle's preview image, which link previews fetch.
ROBOTS_DISALLOW = ("/mine", "/new", "/booklet/", "/solve/", "/photo/", "/p/*/print", "/p/*.txt$", "/healthz")


@bp.get("/robots.txt")
def robots() -> Response:
    """What crawlers may fetch: the public pages, not the per-player or expensive ones."""
    root = request.script_root
    lines = ["User-agent: *", *(f"Disallow: {root}{path}" for path in ROBOTS_DISALLOW), f"Allow: {root}/"]
    response = Response("\n".join(lines) + "\n", mimetype="text/plain")
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


@bp.app_template_global()
def absolute_url(path: str) -> str:
    """The absolute address of a path of the site (``url_for``'s): from HIDATO_PUBLIC_URL
    when it is set, else from the request's host (one of TRUSTED_HOSTS)."""
    return public_link(path) or request.host_url.rstrip("/") + path


@bp.app_template_global()
def puzzle_description(stored: StoredPuzzle) -> str:
    """A puzzle page in a sentence, for search results and link previews: "A hard Hidato
    puzzle on a square grid of 10×10 cells: fill 1 to 100 so each number touches the next
    across a side or a corner." """
    board = stored.puzzle.board
    size = stored.puzzle.size
    kind = a_puzzle(stored.difficulty, board.adjacency)
    where = a_board(stored.shape, board.rows, board.cols, cells=size)
    what = _("%(puzzle)s on %(where)s", puzzle=kind, where=where)
    if stored.daily:
        what = _("The puzzle of the day for %(date)s: %(puzzle)s", date=long_date(stored.daily), puzzle=what)
    else:
        what = what[0].upper() + what[1:]
    return _("%(puzzle)s: fill 1 to %(size)s so each number touches the next %(touching)s.",
             puzzle=what, size=size, touching=touching(board.adjacency))
