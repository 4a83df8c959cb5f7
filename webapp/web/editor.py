"""The solver page: paste or draw a puzzle, then Solve, Check, Grade, Play, Print or Generate.

The form posts the puzzle twice over: as text (the textarea) and as the drawing grid
(one field per cell, ``g-R-C``, holding a number, nothing, or ``x`` for a hole).  The
text wins when it was changed since the page was drawn (the hidden field ``drawn``
keeps the text as drawn), otherwise the grid does; so both work without JavaScript:
a page answering a changed text comes back with that text's grid and its Rows/Columns
(a text too big to draw keeps its own size), and ``static/editor.js`` only does the
same at once (the grid and Rows/Columns follow the text, the text follows the grid and
Rows/Columns) and adds click-to-toggle holes.  Solving has a time budget, so a request
never hangs; generating on a custom shape runs in the background (``jobs.py``) behind a
waiting page.

Solve, Check and Grade run in a child process under the solving budget, a few at a
time across the server (``budget.py``); boards larger than the site plays are refused
before anything runs.  A puzzle without exactly one solution under the adjacency chosen
is tried with the others in the same child and budget, and one that gives exactly one
is offered ("Solve as Numbrix": a Numbrix puzzle pasted as a Hidato).  A solution is
drawn no narrower than its numbers' 12 px need (``legible_width``); its box scrolls.

Every message is in the reader's language; the engine's reasons inside them (why a text
is malformed, why a shape can't hold a puzzle) are its own, in English, but the line and
column of a malformed text are said here.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, abort, current_app, g, redirect, render_template, request, url_for
from flask_babel import format_decimal, ngettext
from flask_babel import gettext as _

import engine
from engine import (
    ADJACENCIES,
    DIFFICULTIES,
    Cell,
    Puzzle,
    PuzzleFormatError,
    format_puzzle,
    parse_puzzle,
    puzzle_from_id,
    puzzle_to_id,
)

from ..core.draft import (
    DRAW_MAX,
    LINE_BREAKS,
    Draft,
    Grid,
    grid_of_text,
    normalised,
    resize,
    text_of_grid,
    text_rows,
    token,
)
from ..core.engine_words import parse_error_text, phrase_text
from ..core.messages import said, too_hard
from ..core.messages import seconds as seconds_words
from ..core.options import VARIANTS, check_adjacency, check_difficulty
from ..core.ratings import chain_words, needs_guessing, rating_number, technique_lines
from ..paper.drawing import Drawing, differing_cells, draw_board
from ..store.catalog import MAX_BOARD_CELLS, MalformedId, NotPlayable, too_large
from ..store.shared import Ticket
from ..work import tasks
from ..work.budget import Busy, OutOfTime
from . import heavy
from .i18n import words
from .job_answer import answer_job
from .limits import charge
from .names import cell_words, level_name
from .puzzles import puzzle_for_request
from .services import services

bp = Blueprint("editor", __name__)

ACTIONS = ("solve", "check", "grade", "play", "print", "generate", "draw")
DEFAULT_SIDE = 5
GENERATE_MAX_CELLS = 450  # about the largest named shape (21 x 21)
LEGIBLE_PX = 12  # the smallest number drawn in a solution on screen, in CSS pixels
_FIELD = re.compile(r"g-(\d{1,2})-(\d{1,2})")
_DECLARED = re.compile(r"^\s*#\s*adjacency\s*:\s*(\w*)", re.IGNORECASE | re.MULTILINE)


@dataclass
class Outcome:
    """The answer to a button: what to say, and the boards to show."""

    kind: str  # solved, unique, multiple, none, gave-up, malformed, grade, refused
    message: str
    boards: list[tuple[str, Drawing]] = field(default_factory=list)
    details: list[str] = field(default_factory=list)
    switch: str | None = None  # another adjacency that gives exactly one solution, offered

    @property
    def switch_words(self) -> str:
        """What the other adjacency gives, in a sentence."""
        return unique_with_words(self.switch) if self.switch else ""


class BadSide(ValueError):
    """Rows or Columns that are not a whole number from 1 to DRAW_MAX: the message says which."""


def _side(form: Any, name: str, default: int, label: str, high: int = DRAW_MAX) -> int:
    raw = (form.get(name) or "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 3) or not 1 <= int(raw) <= high:
        raise BadSide(_("%(field)s must be a whole number from 1 to %(high)s.", field=label, high=DRAW_MAX))
    return int(raw)


def _posted_grid(form: Any) -> Grid | None:
    """The drawing grid as posted, or None if the form has none."""
    if "grid_rows" not in form:
        return None
    try:
        rows, cols = _side(form, "grid_rows", 0, "grid_rows"), _side(form, "grid_cols", 0, "grid_cols")
    except BadSide as err:  # hidden fields: only a forged form gets them wrong
        abort(400, str(err))
    grid = [[""] * cols for _ in range(rows)]
    for name, raw in form.items():
        match = _FIELD.fullmatch(name or "")  # a multipart part with a bad name arrives as None
        if not match:
            continue
        r, c = int(match.group(1)) - 1, int(match.group(2)) - 1
        if not (0 <= r < rows and 0 <= c < cols):
            abort(400, _("The form names %(cell)s, outside the %(rows)s×%(cols)s grid.", cell=cell_words((r, c)),
                         rows=rows, cols=cols))
        grid[r][c] = token(raw)
    return grid


def read_draft(form: Any, switch: str | None = None) -> Draft:
    """The puzzle the form holds: the text if it was edited, else the drawing grid.

    ``switch``: the adjacency to use instead of the form's (and of a ``# adjacency:``
    line in the text), when the person took the result's offer of another one.
    """
    try:
        adjacency = check_adjacency(switch or form.get("adjacency"))
        difficulty = check_difficulty(form.get("difficulty"))
    except ValueError as err:
        abort(400, f"{said(err, words())}.")
    text = form.get("puzzle") or ""
    grid = _posted_grid(form)
    if grid is not None and normalised(text) == normalised(form.get("drawn") or ""):
        return Draft(text_of_grid(grid) if grid else "", grid, adjacency, difficulty)
    if switch:
        text = _DECLARED.sub(f"# adjacency: {adjacency}", text)
    return Draft(text, grid_of_text(text), adjacency, difficulty, from_text=True)


def redraw(draft: Draft, form: Any) -> Draft:
    """The draft at the size the Rows and Columns fields ask for (BadSide if they are wrong).

    A changed text keeps its own size unless the fields were changed too: they still
    show the size of the text as drawn (or, with the scripts, already the new text's).
    """
    # Read up to 999 first: a text too big to draw shows its own size, which is no resize.
    asked = (_side(form, "rows", draft.rows or DEFAULT_SIDE, _("Rows"), 999),
             _side(form, "cols", draft.cols or DEFAULT_SIDE, _("Columns"), 999))
    drawn = text_rows(form.get("drawn") or "")
    if asked == (draft.rows, draft.cols) or (
            draft.from_text and asked == (len(drawn), max((len(row) for row in drawn), default=0))):
        return draft
    rows = _side(form, "rows", DEFAULT_SIDE, _("Rows"))
    cols = _side(form, "cols", DEFAULT_SIDE, _("Columns"))
    draft.grid = resize(draft.grid or text_rows(draft.text), rows, cols)
    draft.text = text_of_grid(draft.grid)
    return draft


def parse_draft(draft: Draft) -> Puzzle:
    """The draft as a puzzle; PuzzleFormatError (noting the grid cell) if it is malformed."""
    found = _DECLARED.search(draft.text)
    declared = found is not None
    if found and found.group(1).lower() in ADJACENCIES:
        draft.adjacency = found.group(1).lower()  # drawn so even if the text is malformed
    try:
        puzzle = parse_puzzle(draft.text, adjacency=None if declared else draft.adjacency)
    except PuzzleFormatError as err:
        if err.line is not None and err.column is not None:
            draft.bad_cell = _cell_at(draft.text, err.line, err.column)
        raise
    draft.adjacency = puzzle.board.adjacency  # a "# adjacency:" line in the text wins
    return puzzle


def _cell_at(text: str, line: int, column: int) -> Cell | None:
    """The grid cell of the token at a line and column of the text."""
    row = -1
    for number, content in enumerate(LINE_BREAKS.split(text), start=1):
        stripped = content.strip()
        if stripped and not stripped.startswith("#"):
            row += 1
        if number == line:
            if not stripped or stripped.startswith("#"):
                return None
            for index, match in enumerate(re.finditer(r"\S+", content)):
                if match.start() < column <= match.end():
                    return (row, index)
            return None
    return None


def format_error(err: PuzzleFormatError) -> str:
    """A malformed text's error in the reader's language ("línea 3, columna 7: …"), from the
    engine's facts (``core/engine_words.py``)."""
    message = parse_error_text(err, words())
    if err.line is None:
        return message
    if err.column is None:
        return _("line %(line)s: %(message)s", line=err.line, message=message)
    return _("line %(line)s, column %(column)s: %(message)s", line=err.line, column=err.column, message=message)


# --- the page -------------------------------------------------------------------------


def page_with(draft: Draft, outcome: Outcome | None = None, status: int = 200) -> tuple[str, int]:
    """The solver page holding ``draft`` (and the answer to a button).

    The photo reader's result page is this page beside its photo: its view puts the photo
    in ``g.photo`` (``photo.py``), and the form then posts back to it."""
    return _render(draft, outcome, status)


def _render(draft: Draft, outcome: Outcome | None = None, status: int = 200) -> tuple[str, int]:
    return render_template(
        "solve.html",
        draft=draft,
        outcome=outcome,
        variants=VARIANTS,
        difficulties=DIFFICULTIES,
        draw_max=DRAW_MAX,
        solve_seconds=_solve_seconds(),
        max_cells=MAX_BOARD_CELLS,
        legible_width=legible_width,
        photo=g.get("photo"),
    ), status


def legible_width(drawing: Drawing) -> int:
    """The narrowest a drawing may be shown, in CSS pixels, for its numbers to be at least
    LEGIBLE_PX high (one SVG unit a pixel at its own width)."""
    return math.ceil(float(drawing.pixel_width) * LEGIBLE_PX / drawing.font_size)


def _solve_seconds() -> float:
    return float(current_app.config["SOLVE_SECONDS"])


def _blank() -> Draft:
    grid = resize(None, DEFAULT_SIDE, DEFAULT_SIDE)
    return Draft(text_of_grid(grid), grid)


@bp.get("/solve")
def page() -> Any:
    """The editor, empty, or holding the puzzle ``?id=`` names."""
    code = request.args.get("id")
    if not code:
        return _render(_blank())
    try:
        puzzle = puzzle_from_id(code)
    except PuzzleFormatError as err:
        draft = _blank()
        return _render(draft, Outcome("malformed", _("That puzzle id can't be read: %(why)s.",
                                                     why=format_error(err))), 400)
    text = format_puzzle(puzzle)
    return _render(Draft(text, grid_of_text(text), puzzle.board.adjacency))


@bp.post("/solve")
def act() -> Any:
    """Do one button's work on the posted puzzle."""
    switch = request.form.get("use_adjacency") or None  # "Solve as Numbrix" under a result
    action = "solve" if switch else request.form.get("action") or "solve"
    if action not in ACTIONS:
        abort(400, _("Unknown action %(action)s.", action=repr(action[:30])))
    draft = read_draft(request.form, switch)
    if action == "draw":
        try:
            return _render(redraw(draft, request.form))
        except BadSide as err:
            return _render(draft, Outcome("refused", str(err)), 400)
    try:
        puzzle = parse_draft(draft)
    except PuzzleFormatError as err:
        bad = draft.bad_cell
        message = _("The puzzle is malformed: %(why)s.", why=format_error(err))
        if bad:
            message += " " + _("That is %(cell)s of the grid.", cell=cell_words(bad))
        return _render(draft, Outcome("malformed", message), 400)
    if action == "generate":
        charge("generate")
        return _generate(draft, puzzle)
    if too_large(puzzle):
        message = _("This board has %(size)s cells: this site solves, checks and grades boards of up to "
                    "%(most)s cells.", size=format_decimal(puzzle.size), most=format_decimal(MAX_BOARD_CELLS))
        return _render(draft, Outcome("refused", message), 400)
    if action == "play":
        return _play(draft, puzzle)  # only an id new to the site costs, and is charged as it is solved
    if action == "print":  # the printable sheet solves an id new to the site itself (charged there)
        return redirect(url_for("printing.sheet", code=puzzle_to_id(puzzle)), 303)
    if services().runner.slots.crowded():
        raise Busy()  # said before anything is counted: refusing a flood must stay cheap
    charge("solve")
    return _render(draft, _examined(puzzle, action))


def _examined(puzzle: Puzzle, action: str) -> Outcome:
    """Solve, Check or Grade in a child under the solving budget (the other adjacencies
    tried in the same child and budget when the chosen one gives no unique solution)."""
    seconds = _solve_seconds()
    try:
        examined = services().runner.run(seconds, tasks.examine, puzzle, action == "grade",
                                         heavy.engine_seconds(seconds))
    except OutOfTime:
        return _too_hard(seconds)
    if action == "solve":
        outcome = _solved(puzzle, examined.result)
    elif action == "check":
        outcome = _checked(puzzle, examined.result)
    else:
        outcome = _graded(puzzle, examined)
    if outcome.kind in ("multiple", "none"):
        outcome.switch = examined.unique_with
    return outcome


def unique_with_words(adjacency: str) -> str:
    """The offer under a result: this puzzle has exactly one solution with other rules."""
    if adjacency == "rook":
        return _("With Numbrix rules (sides only) it has exactly one solution.")
    if adjacency == "hex":
        return _("With Hex rules (six sides) it has exactly one solution.")
    return _("With Hidato rules (sides and corners) it has exactly one solution.")


def _took(seconds: float) -> str:
    if seconds < 1:
        return f"{format_decimal(round(seconds * 1000), format='0')} ms"
    return f"{format_decimal(seconds, format='0.0')} s"


def _seconds(value: float) -> str:
    return seconds_words(value, words())


def _board(caption: str, puzzle: Puzzle, values: Any = None, highlight: Any = ()) -> tuple[str, Drawing]:
    return caption, draw_board(puzzle, values, highlight)


def _too_hard(seconds: float) -> Outcome:
    return Outcome("gave-up", too_hard(seconds, words()))


def _no_solution(result: engine.SolveResult) -> Outcome:
    if not result.complete:
        return _too_hard(_solve_seconds())
    # The engine's reason, said from its facts in the reader's language.
    why = phrase_text(result.reason, words()) if result.reason else _("the solver searched every possibility")
    return Outcome("none", _("No solution: %(why)s.", why=why))


def _solved(puzzle: Puzzle, result: engine.SolveResult) -> Outcome:
    if not result.solutions:
        return _no_solution(result)
    if result.count >= 2:
        note = _("This puzzle has more than one solution; here is one. Check shows where they differ.")
    elif result.complete:
        note = _("It is the only solution.")
    else:
        note = _("Whether it is the only one was not settled within %(time)s.", time=_seconds(_solve_seconds()))
    outcome = Outcome("multiple" if result.count >= 2 else "solved",
                      _("Solved in %(time)s.", time=_took(result.seconds)) + " " + note)
    outcome.boards.append(_board(_("Solution"), puzzle, result.solutions[0]))
    return outcome


def _checked(puzzle: Puzzle, result: engine.SolveResult) -> Outcome:
    if not result.solutions:
        return _no_solution(result)
    first = result.solutions[0]
    if result.count >= 2:
        second = result.solutions[1]
        differ = differing_cells(first, second)
        shown = "; ".join(cell_words(c) for c in differ[:8]) + ("; …" if len(differ) > 8 else "")
        outcome = Outcome("multiple", ngettext(
            "More than one solution. The two below differ in %(num)s cell (highlighted): %(cells)s. "
            "A given in one of them would rule one out.",
            "More than one solution. The two below differ in %(num)s cells (highlighted): %(cells)s. "
            "A given in one of them would rule one out.", len(differ), cells=shown))
        outcome.boards += [_board(_("Solution A"), puzzle, first, differ),
                           _board(_("Solution B"), puzzle, second, differ)]
        return outcome
    if not result.complete:
        outcome = Outcome("gave-up", _("One solution found, but the solver gave up after %(time)s before it "
                                       "could rule out a second.", time=_took(result.seconds)))
    else:
        outcome = Outcome("unique", _("Exactly one solution (checked in %(time)s): this is a proper puzzle.",
                                      time=_took(result.seconds)))
    outcome.boards.append(_board(_("The solution"), puzzle, first))
    return outcome


def _graded(puzzle: Puzzle, examined: tasks.Examined) -> Outcome:
    checked = _checked(puzzle, examined.result)
    if checked.kind != "unique":
        checked.message += " " + _("Only a puzzle with exactly one solution can be graded.")
        return checked
    graded = examined.grade
    if graded is None:
        return Outcome("gave-up", _("This puzzle has exactly one solution, but it is too hard to grade in "
                                    "%(time)s: the grader stopped before it finished.",
                                    time=_seconds(_solve_seconds())))
    rating = graded.rating
    level = level_name(graded.level).capitalize()
    if graded.solved_by_logic:
        message = _("Difficulty: %(level)s, rating %(rating)s (%(chains)s). The reasoning below finishes it "
                    "without guessing.", level=level, rating=rating_number(rating, words()),
                    chains=chain_words(rating, words()))
    else:
        message = _("Difficulty: harder than %(level)s (rating %(rating)s): %(why)s.", level=level,
                    rating=rating_number(rating, words()), why=needs_guessing(words()))
    details = technique_lines(rating, words())
    return Outcome("grade", message, details=details or [_("the givens alone settle every cell")])


def _play(draft: Draft, puzzle: Puzzle) -> Any:
    try:
        stored = puzzle_for_request(puzzle_to_id(puzzle))
    except (NotPlayable, MalformedId) as err:
        why = said(err, words())
        return _render(draft, Outcome("refused", _("This puzzle can't be played: %(why)s", why=why)), 400)
    return redirect(url_for("play.page", code=stored.code), 303)


# --- generating on a custom shape -----------------------------------------------------


def _generate(draft: Draft, puzzle: Puzzle) -> Any:
    board = puzzle.board
    if board.size > GENERATE_MAX_CELLS:
        message = _("This shape has %(size)s cells: the generator takes shapes of up to %(most)s.",
                    size=board.size, most=GENERATE_MAX_CELLS)
        return _render(draft, Outcome("refused", message), 400)
    top = min(r for r, _ in board.cells)
    left = min(c for _, c in board.cells)
    cells = [(r - top, c - left) for r, c in board.cells]
    found = services()
    asked = {"text": draft.text, "adjacency": draft.adjacency, "difficulty": draft.difficulty,
             "board_adjacency": board.adjacency, "cells": cells}
    ticket = found.jobs.submit("shape", asked)
    if found.jobs.wait(ticket, "shape", float(current_app.config["GENERATE_WAIT_SECONDS"])):
        return _generation(ticket)
    return redirect(url_for("editor.generating", ticket=ticket), 303)


def _generation(ticket: str) -> Any:
    """The waiting page while the puzzle is made, then the puzzle (or the editor saying why there is none)."""
    return answer_job(ticket, "shape", take=True, finished=_generated,
                      waiting=lambda job: render_template("job_waiting.html", title=_("Making your puzzle"),
                                                          kind="shape", job=job),
                      expired=_("This request has expired (the server restarted or it was already used). "
                                "Please press Generate again."))


def _generated(job: Ticket) -> Any:
    """The new puzzle's page, or the editor saying why there is none."""
    if job.status == "done":
        return redirect(url_for("play.page", code=job.result), 303)
    text = str(job.request.get("text", ""))
    draft = Draft(text, grid_of_text(text), str(job.request.get("adjacency", "king")),
                  str(job.request.get("difficulty", "medium")))
    if job.status == "refused":  # ShapeError, GenerationError, out of time: the shape can't hold one
        why = str(job.result)  # said in the job's language, as a sentence: here it follows a colon
        return _render(draft, Outcome("refused", _("No puzzle could be made on this shape: %(why)s",
                                                   why=why[:1].lower() + why[1:])), 400)
    return _render(draft, Outcome("refused", _("The generator failed, because of an error on our side "
                                               "(%(why)s). Please try again.", why=job.result)), 503)


@bp.get("/solve/generate/<ticket>")
def generating(ticket: str) -> Any:
    """The page shown while a puzzle is generated on a custom shape."""
    return _generation(ticket)
