"""A puzzle's page and everything it posts: entries, Check, Hint, Reveal, Undo/Redo, Restart, the clock.

Every route works as a plain form post (answered with a redirect back to the page, the
Post/Redirect/Get pattern) and as an htmx request (answered with the partial to swap:
one cell, or the whole game, plus the status line out of band).  Validation feedback
for htmx is a 200 with the message in the markup, since htmx does not swap 4xx.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

import engine
from engine import Cell, format_puzzle, puzzle_to_id

from ..core.game import MAX_NOTES, CellView, EntryError, Game, format_seconds, parse_entry
from ..core.hint_words import hint_text
from ..core.messages import said
from ..core.messages import seconds as seconds_words
from ..core.stored import StoredPuzzle
from ..store.catalog import MalformedId, NotPlayable, parse_id
from . import page_clock
from .catalogue import gettext as _
from .catalogue import lazy_gettext, ngettext, translations
from .cell_html import cell_html
from .i18n import LANGUAGES, words
from .names import cell_title, cell_words, variant_label
from .notice import Notice
from .pages import player_id
from .panel_html import counts_html, duplicates_html, status_html, timer_html, tools_html
from .puzzles import not_a_puzzle, puzzle_for_request
from .services import services

bp = Blueprint("play", __name__)

_FIELD = re.compile(r"c-(\d{1,4})-(\d{1,4})")
# Beside the cells' fields the board form carries what the page showed in them (the
# field "shown": the open cells' numbers in reading order, comma-separated): a field
# still showing that was not touched in this tab, and must not undo what another tab
# (or device) entered since.  One field for all, so a 900-cell board stays well inside
# the limit on form fields.
SHOWN_FIELD = "shown"
# Runs of missing numbers listed beside the board at most (the rest are counted).
MISSING_SHOWN = 40
# Other cells an entry redraws at most (those whose duplicate note it changes, nearest
# first), so an answer stays small whatever the board holds.
MAX_REDRAWN = 8


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def _stored_or_404(code: str) -> StoredPuzzle:
    try:
        return puzzle_for_request(code)
    except MalformedId as err:
        abort(404, not_a_puzzle(code, err))
    except NotPlayable as err:
        abort(_not_playable(code, err))


def _not_playable(code: str, err: NotPlayable) -> Response:
    """The page for a well-formed id without one solution: the board, and why it can't be played."""
    html = render_template("unplayable.html", code=code, puzzle=err.puzzle, message=said(err, words()))
    return make_response(html, 200 if request.method == "GET" else 400)


def _game(stored: StoredPuzzle, player: str | None) -> Game:
    state = services().store.load_progress(player, stored.code) if player else None
    return Game(stored.puzzle, stored.solution, state)


def _change(stored: StoredPuzzle, change: Any) -> tuple[Game, Any]:
    """Apply ``change(game)`` to this browser's game atomically; returns the game and its result.

    The seconds the page's clock showed come first: the clock runs in the page from the
    moment it opens, and the server takes over with the first entry or action."""
    player = player_id(create=True)
    assert player is not None
    shown = page_clock.shown(stored.code)

    def run(state: Any) -> tuple[Game, Any]:
        game = Game(stored.puzzle, stored.solution, state)
        if shown is not None:
            game.sync_clock(*shown)
        return game, change(game)

    # The game built in the transaction holds the state it saved: the answer is drawn from it.
    _state, (game, result) = services().store.update_progress(player, stored.code, run, puzzle_id=stored.row_id)
    return game, result


def _context(stored: StoredPuzzle, game: Game, notice: Notice | None = None,
             errors: dict[Cell, tuple[str, str]] | None = None, confirm: str = "") -> dict[str, Any]:
    """Everything the page and the whole game's partial need."""
    hinted = frozenset(notice.cells) if notice else frozenset()
    checked = notice is not None and notice.kind == "check"  # Check shows right and wrong
    marked = show_mistakes() or checked
    errors = errors or {}
    board = stored.puzzle.board
    rows: list[list[CellView | None]] = []
    for r in range(board.rows):
        row: list[CellView | None] = []
        for c in range(board.cols):
            cell = (r, c)
            if cell in board.cell_set:
                raw, message = errors.get(cell, (None, None))
                row.append(game.cell_view(cell, hinted, raw=raw, error=message, marked=marked))
            else:
                row.append(None)
        rows.append(row)
    return {**_small_context(stored, game, notice), "rows": rows, "confirm": confirm, "shown": shown_field(game),
            "variant_label": variant_label(stored.puzzle.board.adjacency)}


def _small_context(stored: StoredPuzzle, game: Game, notice: Notice | None = None) -> dict[str, Any]:
    """What the status line and the counts need: nothing that grows with the board."""
    if notice is None:
        notice = _standing_notice(game)
    seconds = game.seconds()
    return {
        "stored": stored,
        "code": stored.code,
        "game": game,
        "notice": notice,
        "hex": stored.puzzle.board.adjacency == "hex",
        "seconds": seconds,
        "clock_stamp": page_clock.stamp(stored.code, seconds),
        "show_mistakes": show_mistakes(),
        "missing_shown": MISSING_SHOWN,
        "cell_words": cell_words,
        "entry_url": _entry_urls(stored.code),
    }


def _entry_urls(code: str) -> Callable[[int, int], str]:
    """The entry URL of each cell of a puzzle (rows and columns from 1), from one ``url_for``
    per puzzle and prefix the app is served under: a board draws one per open cell, and
    ``url_for`` costs more than the rest of a cell (or of an entry's cell)."""
    known = current_app.extensions.setdefault("hidato_entry_urls", {})
    key = (request.script_root, code)
    base = known.get(key)
    if base is None:
        base = url_for("play.entry", code=code, row=1, col=1)
        assert base.endswith("/1/1"), base  # the route ends in the row and the column
        base = base[: -len("1/1")]
        if len(known) >= _ENTRY_URLS_KEPT:  # a bound, not a policy: the next ones are found anew
            known.clear()
        known[key] = base
    return lambda row, col: f"{base}{row}/{col}"


_ENTRY_URLS_KEPT = 4096


def _standing_notice(game: Game) -> Notice | None:
    if game.solved:
        return Notice(_("Solved! Time taken: %(time)s.", time=format_seconds(game.seconds())), "solved")
    if game.state.revealed:
        return Notice(_("Solution revealed. Restart to play this puzzle again."), "revealed")
    if game.state.paused:
        return Notice(_("Paused. Press Resume to go on."), "info")
    return None


def show_mistakes() -> bool:
    """The player's setting "Show mistakes as I type" (on unless turned off)."""
    return session.get("show_mistakes", True) is not False


def _render_game(stored: StoredPuzzle, game: Game, notice: Notice | None = None, status: int = 200,
                 errors: dict[Cell, tuple[str, str]] | None = None, confirm: str = "") -> Response:
    """The answer to an htmx action: the whole game, and the status line out of band."""
    ctx = _context(stored, game, notice, errors, confirm)
    html = render_template("_game.html", **ctx) + str(status_html(ctx["notice"], oob=True))
    return make_response(html, status)


def _back_to_page(code: str, notice: Notice | None = None, confirm: str = "") -> Any:
    """Post/Redirect/Get for plain form posts; the notice rides along in the session."""
    if notice is not None:
        session["notice"] = {"code": code, "text": notice.text, "kind": notice.kind,
                             "cells": [list(c) for c in notice.cells]}
    target = url_for("play.page", code=code, confirm=confirm or None, _anchor="confirm" if confirm else "game")
    return redirect(target, 303)


def _pop_notice(code: str) -> Notice | None:
    saved = session.pop("notice", None)
    if not isinstance(saved, dict) or saved.get("code") != code:
        return None
    cells = [(int(r), int(c)) for r, c in saved.get("cells", [])]
    return Notice(str(saved.get("text", "")), str(saved.get("kind", "info")), cells)


# --- the page -----------------------------------------------------------------------


@bp.get("/p/<code>")
def page(code: str) -> Any:
    """The puzzle's page: the board in its shape, givens fixed, an input per empty cell."""
    stored = _stored_or_404(code)
    if stored.code != code:
        return redirect(url_for("play.page", code=stored.code), 301)
    notice = _pop_notice(code)
    # Reading the page writes nothing (crawlers too): a game is saved from the first entry
    # or action on, and the page's script tells the clock when it is opened.
    game = _game(stored, player_id())
    asked = request.args.get("confirm", "")
    confirm = _question(asked, game) if asked in ACTIONS else ""
    return render_template("play.html", **_context(stored, game, notice, confirm=confirm))


@bp.get("/s/<short>")
def short(short: str) -> Any:
    """A printed short link (``/s/2f``): the puzzle's own page, in the sheet's language
    when the link says it (``/s/2f?lang=es``, printed on Spanish sheets)."""
    stored = services().store.find_short(short)
    if stored is None:
        abort(404, _("There is no puzzle with the short code %(code)s: check the link on the sheet.",
                     code=repr(short[:20])))
    asked = request.args.get("lang", "")
    # select_locale has kept it in the session; it goes on to the page too, so a browser
    # without cookies still reads the sheet's language.
    return redirect(url_for("play.page", code=stored.code, lang=asked if asked in LANGUAGES else None), 301)


@bp.get("/p/<code>.txt")
def text(code: str) -> Any:
    """The puzzle in the text notation, for download (any well-formed id: nothing is solved)."""
    try:
        puzzle = parse_id(code)
    except MalformedId as err:
        abort(404, not_a_puzzle(code, err))
    body = f"# Hidato puzzle {puzzle_to_id(puzzle)}\n" + format_puzzle(puzzle)
    response = make_response(body)
    response.mimetype = "text/plain"
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", puzzle_to_id(puzzle))[:60].strip("-")
    response.headers["Content-Disposition"] = f'attachment; filename="hidato-{name}.txt"'
    return response


# --- entries --------------------------------------------------------------------------


def _cell_from_url(stored: StoredPuzzle, row: int, col: int) -> Cell:
    cell = (row - 1, col - 1)
    board = stored.puzzle.board
    if cell not in board.cell_set:
        abort(400, _("%(cell)s is not a cell of this board.", cell=cell_title(cell)))
    if cell in stored.puzzle.givens:
        abort(400, _("%(cell)s holds a given number and cannot be changed.", cell=cell_title(cell)))
    return cell


@bp.post("/p/<code>/cell/<int:row>/<int:col>")
def entry(code: str, row: int, col: int) -> Any:
    """One cell's entry: answered with the cell marked right or wrong, and the status line."""
    stored = _stored_or_404(code)
    cell = _cell_from_url(stored, row, col)
    form = request.form
    raw = form.get(f"c-{row}-{col}")
    if raw is None:  # a plain form's field, or a script's
        raw = form.get("value")
    if raw is None:
        abort(400, _("No number was sent for %(cell)s.", cell=cell_words(cell)))
    try:
        value = parse_entry(raw, stored.puzzle.size)
    except EntryError as err:
        game = _game(stored, player_id())
        message = f"{cell_title(cell)}: {err.say(translations())}"
        if not is_htmx():
            return _render_page_with_errors(stored, game, {cell: (raw[:12], message)})
        # The cell goes back to what it held (nothing refused stays in it); the status
        # line says why, naming the cell.
        return _render_cell(stored, game, cell, [], notice=Notice(f"{message}.", "error"))
    if form.get("mode") == "notes" and value:
        return _note(stored, cell, value)

    def change(game: Game) -> tuple[list[Cell], str | None, bool, bool]:
        old = game.state.entries.get(cell, 0)
        undoable = (game.can_undo(), game.can_redo())
        try:
            changed = game.enter(cell, value)
        except EntryError as err:
            return [], err.say(translations()), False, False
        # The copies nearest the cell are the ones whose note names it, or now should.
        near = game.copies_near(cell, old, MAX_REDRAWN // 2) + game.copies_near(cell, value, MAX_REDRAWN // 2)
        return (list(dict.fromkeys(near)), None, undoable != (game.can_undo(), game.can_redo()),
                changed and game.duplicates_changed_by(old, value))

    game, (touched, problem, tools_changed, twice_changed) = _change(stored, change)
    if not is_htmx():
        return _back_to_page(code, Notice(problem, "error") if problem else None)
    if game.finished or problem:
        response = _render_game(stored, game, Notice(problem, "error") if problem else None)
        response.headers["HX-Retarget"] = "#game"
        response.headers["HX-Reswap"] = "outerHTML"
        return response
    view = game.cell_view(cell)
    # Taken, but against the rules: said as a problem, not as a refusal.
    notice = (Notice(f"{cell_title(cell)}: {view.say_duplicate(translations())}.", "problem")
              if view.duplicate else None)
    return _render_cell(stored, game, cell, [c for c in touched if c != cell], notice=notice, tools=tools_changed,
                        duplicates=twice_changed)


def _note(stored: StoredPuzzle, cell: Cell, value: int) -> Any:
    """Notes mode: the number typed goes in or out of the cell's notes."""

    def change(game: Game) -> Notice:
        try:
            there = game.toggle_note(cell, value)
        except EntryError as err:
            return Notice(f"{err.say(translations())}.", "error")
        if there:
            return Notice(_("Note %(number)s added to %(cell)s.", number=value, cell=cell_words(cell)))
        return Notice(_("Note %(number)s taken from %(cell)s.", number=value, cell=cell_words(cell)))

    game, notice = _change(stored, change)
    if not is_htmx():
        return _back_to_page(stored.code, notice)
    return _render_cell(stored, game, cell, [], notice=notice)


def _render_cell(stored: StoredPuzzle, game: Game, cell: Cell, others: list[Cell],
                 notice: Notice | None = None, tools: bool = True, duplicates: bool = False) -> Response:
    """The cell, the other cells whose duplicate marks changed, and out of band the counts,
    the clock, the status line, the numbers entered twice when ``duplicates`` (the entry
    changed that list) and the buttons when ``tools`` (Undo or Redo may have changed):
    nothing that grows with the board, nothing the page already shows as it is.

    Drawn by the functions the page draws these parts with (``cell_html``, ``panel_html``),
    joined here, not in a template: a template's render (its context, Flask's context
    processors and signals) cost more than joining the few parts.  Nothing between the
    cells: what is not out of band takes the cell's place in its row."""
    if notice is None:
        notice = _standing_notice(game)
    marked = show_mistakes()
    locked = game.finished or game.state.paused
    digits = len(str(stored.puzzle.size))
    entry_url = _entry_urls(stored.code)
    seconds = game.seconds()
    parts = [cell_html(game.cell_view(c, marked=marked), c != cell, locked, digits, entry_url) for c in (cell, *others)]
    parts.append(counts_html(game, MISSING_SHOWN, oob=True))
    parts.append(timer_html(game, seconds, page_clock.stamp(stored.code, seconds), oob=True))
    if duplicates:
        parts.append(duplicates_html(game, oob=True))
    parts.append(status_html(notice, oob=True))
    if tools:
        parts.append(tools_html(game, oob=True))
    # The app's response class straight away: what ``make_response`` makes of a string,
    # without its two functions' checks of what it was given.
    answer: Response = current_app.response_class("".join(parts))
    return answer


def _render_page_with_errors(stored: StoredPuzzle, game: Game, errors: dict[Cell, tuple[str, str]],
                             notice: Notice | None = None) -> Response:
    """A plain form post with bad entries: the page again, with the messages inline (400)."""
    if notice is None:
        notice = Notice(_refused(errors), "error")
    html = render_template("play.html", **_context(stored, game, notice, errors))
    return make_response(html, 400)


def _read_entries(stored: StoredPuzzle) -> tuple[dict[Cell, int], dict[Cell, tuple[str, str]]]:
    """The cell fields of the board form: good numbers, and bad ones with their message."""
    board = stored.puzzle.board
    values: dict[Cell, int] = {}
    errors: dict[Cell, tuple[str, str]] = {}
    shown = _shown(stored)
    for name, raw in request.form.items():
        match = _FIELD.fullmatch(name or "")  # a multipart part with a bad name arrives as None
        if not match:
            continue
        cell = (int(match.group(1)) - 1, int(match.group(2)) - 1)
        if cell not in board.cell_set or cell in stored.puzzle.givens:
            abort(400, _("The form names %(cell)s, which is not an open cell of this board.", cell=cell_words(cell)))
        if cell in shown and shown[cell] == raw.strip():
            continue  # unchanged in this tab
        try:
            values[cell] = parse_entry(raw, stored.puzzle.size)
        except EntryError as err:
            errors[cell] = (raw[:12], err.say(translations()))
    return values, errors


def shown_field(game: Game) -> str:
    """The value of the board form's "shown" field for what the page shows now."""
    entries = game.state.entries
    return ",".join(str(entries.get(cell, "")) for cell in game.open_cells)


def _shown(stored: StoredPuzzle) -> dict[Cell, str]:
    """What the posted page showed in each open cell; nothing if the field is missing or odd."""
    raw = request.form.get(SHOWN_FIELD)
    if raw is None:
        return {}
    givens = stored.puzzle.givens
    cells = [cell for cell in stored.puzzle.board.cells if cell not in givens]
    parts = raw.split(",")
    if len(parts) != len(cells):
        return {}
    return {cell: part.strip() for cell, part in zip(cells, parts, strict=True)}


@bp.post("/p/<code>")
def update(code: str) -> Any:
    """The board form: take its entries, then do the button's action (Check, Hint, Undo, ...)."""
    stored = _stored_or_404(code)
    action = request.form.get("action") or "save"
    if action not in ACTIONS:
        abort(400, _("Unknown action %(action)s.", action=repr(action[:30])))
    values, errors = _read_entries(stored)
    if action == "mistakes":
        session["show_mistakes"] = request.form.get("mistakes") == "on"
    found = _candidates(stored, values) if action == "candidates" else None

    def change(game: Game) -> Notice | None:
        if not game.finished:
            for cell, value in values.items():
                if game.state.entries.get(cell, 0) != value and not game.finished:
                    game.enter(cell, value)
        if errors and action == "save":
            return None
        return _act(game, action, found)

    game, notice = _change(stored, change)
    if action == "hint" and not game.finished:
        notice = _hint(stored, game)  # after the save: the database is not held while it thinks
    return _answer(stored, game, action, notice, errors)


def _answer(stored: StoredPuzzle, game: Game, action: str, notice: Notice | None,
            errors: dict[Cell, tuple[str, str]]) -> Any:
    """The game again (htmx) or a redirect to the page, with what the action said."""
    code = stored.code
    if errors and action == "save":
        if not is_htmx():
            return _render_page_with_errors(stored, game, errors)
        first = next(iter(errors.values()))[1]
        return _render_game(stored, game, Notice(f"{first}.", "error"), errors=errors)
    if errors:  # the other buttons go ahead; the entries they could not take are named
        notice = _with_refused(notice, errors)
    confirm = _question(action, game)
    if is_htmx():
        return _render_game(stored, game, notice, confirm=confirm)
    return _back_to_page(code, notice, confirm=confirm)


def _refused(errors: dict[Cell, tuple[str, str]]) -> str:
    """The first refused entry's message, and how many more there are."""
    first = next(iter(errors.values()))[1]
    if len(errors) == 1:
        return f"{first}."
    return ngettext("%(first)s (and %(num)s more).", "%(first)s (and %(num)s more).", len(errors) - 1, first=first)


def _with_refused(notice: Notice | None, errors: dict[Cell, tuple[str, str]]) -> Notice:
    if notice is None:  # the status line says "Not taken:" before an error
        return Notice(_refused(errors), "error")
    return Notice(_("%(said)s Not taken: %(refused)s", said=notice.text, refused=_refused(errors)),
                  notice.kind, notice.cells)


def _candidates(stored: StoredPuzzle, values: dict[Cell, int]) -> Candidates:
    """The engine's candidates for this browser's board, within the solving budget (None if
    they took longer): worked out before the game is locked for the change."""
    game = _game(stored, player_id())
    entries = {**game.state.entries, **values}
    seconds = float(current_app.config["SOLVE_SECONDS"])
    try:
        return engine.candidates(stored.puzzle, entries, max_seconds=seconds)
    except engine.SolverGaveUp:
        return None


Candidates = dict[Cell, tuple[int, ...]] | None  # the engine's, for "Fill candidates"; None: not in time


@dataclass(frozen=True)
class Action:
    """One button of the game: what it does to the game and what it tells the player."""

    run: Callable[[Game, Candidates], Notice | None]
    finished_too: bool = False  # allowed on a finished game (else the game's standing notice)
    asks: bool = False  # the page asks first (the question's dialog), then "<name>-confirm" does it


def _said(message: Any) -> Callable[[Game, Candidates], Notice]:
    return lambda _game, _candidates: Notice(str(message))


def _reveal(game: Game, _candidates: Candidates) -> Notice:
    game.reveal()
    return Notice(_("Solution revealed. Restart to play this puzzle again."), "revealed")


def _restart(game: Game, _candidates: Candidates) -> Notice:
    game.restart()
    if game.can_undo():
        return Notice(_("Restarted: the board is empty and the clock is back at zero. "
                        "Undo brings your entries back."))
    return Notice(_("Restarted: the board is empty and the clock is back at zero."))


def _pause(game: Game, _candidates: Candidates) -> Notice:
    game.pause()
    return Notice(_("Paused. Press Resume to go on."))


def _resume(game: Game, _candidates: Candidates) -> Notice:
    game.resume()
    return Notice(_("Resumed: the clock is running."))


def _mistakes_shown(_game: Game, _candidates: Candidates) -> Notice:
    if show_mistakes():
        return Notice(_("Mistakes are shown as you type."))
    return Notice(_("Mistakes are hidden until you press Check."))


def _check(game: Game, _candidates: Candidates) -> Notice:
    wrong = game.wrong_cells
    if wrong:
        names = ", ".join(cell_words(c) for c in wrong[:5])
        if len(wrong) > 5:
            names = ngettext("%(cells)s and %(num)s more", "%(cells)s and %(num)s more", len(wrong) - 5, cells=names)
        return Notice(ngettext("%(num)s entry is wrong: %(cells)s.", "%(num)s entries are wrong: %(cells)s.",
                               len(wrong), cells=names), "check", wrong)
    if not game.state.entries:
        return Notice(_("Nothing to check yet: type numbers into the empty cells."), "check")
    return Notice(ngettext("The %(num)s entry so far is right.", "All %(num)s entries so far are right.",
                           game.filled), "check")


def _undo(game: Game, _candidates: Candidates) -> Notice:
    if game.undoes_restart():
        game.undo()
        return Notice(_("Restart undone: your entries and notes are back."))
    cell = game.undo()
    return Notice(_("Undid %(cell)s.", cell=cell_words(cell)) if cell else _("Nothing to undo."))


def _redo(game: Game, _candidates: Candidates) -> Notice:
    cell = game.redo()
    return Notice(_("Redid %(cell)s.", cell=cell_words(cell)) if cell else _("Nothing to redo."))


def _fill(game: Game, candidates: Candidates) -> Notice:
    if candidates is None:
        return Notice(_("The candidates could not be worked out in time: try again after a few more entries."),
                      "error")
    filled = game.fill_notes(candidates)
    crowded = sum(1 for cell, numbers in candidates.items()
                  if len(numbers) > MAX_NOTES and cell not in game.state.entries)
    said = ngettext("Candidates filled in as notes in %(num)s cell.", "Candidates filled in as notes in %(num)s cells.",
                    filled)
    if crowded:
        said += " " + ngettext("%(num)s cell with more than %(max)s possible numbers is left blank.",
                               "%(num)s cells with more than %(max)s possible numbers are left blank.",
                               crowded, max=MAX_NOTES)
    return Notice(said)


def _nothing(_game: Game, _candidates: Candidates) -> None:
    return None


# Every action the game's form can post, in one place.
ACTIONS: dict[str, Action] = {
    "save": Action(_said(lazy_gettext("Saved.")), finished_too=True),
    "cancel": Action(_said(lazy_gettext("Cancelled: nothing was changed.")), finished_too=True),
    "reveal": Action(_said(lazy_gettext("Reveal the whole solution? Confirm or cancel.")), asks=True),
    "reveal-confirm": Action(_reveal),
    "restart": Action(_said(lazy_gettext("Restart the puzzle? Confirm or cancel.")), finished_too=True, asks=True),
    "restart-confirm": Action(_restart, finished_too=True),
    "pause": Action(_pause, finished_too=True),
    "resume": Action(_resume, finished_too=True),
    "mistakes": Action(_mistakes_shown, finished_too=True),
    "check": Action(_check),
    "undo": Action(_undo),
    "redo": Action(_redo),
    "candidates": Action(_fill),
    "hint": Action(_nothing),  # worked out after the save (update), not while the game is locked
}


def _act(game: Game, name: str, candidates: Candidates) -> Notice | None:
    """Do one button's action on the game; returns what to tell the player."""
    action = ACTIONS[name]
    if game.finished and not action.finished_too:
        return _standing_notice(game)
    return action.run(game, candidates)


def _question(name: str, game: Game) -> str:
    """The question the page asks before this action ("" if none, or none on a finished game)."""
    action = ACTIONS[name]
    return name if action.asks and (action.finished_too or not game.finished) else ""


def _hint(stored: StoredPuzzle, game: Game) -> Notice:
    """The next step, found within the solving budget."""
    seconds = float(current_app.config["SOLVE_SECONDS"])
    try:
        found = engine.hint(stored.puzzle, game.state.entries, stored.solution, max_seconds=seconds)
    except engine.SolverGaveUp:
        return Notice(_("No hint could be worked out within %(time)s: try Check to see whether every entry so far "
                        "is right.", time=seconds_words(seconds, words())), "hint")
    return Notice(hint_text(found, words()), "hint", list(found.cells))


@bp.post("/p/<code>/clock")
def clock(code: str) -> Any:
    """The page was hidden (away), shown again (back) or is still open (tick): keeps the clock honest."""
    stored = _stored_or_404(code)
    event = request.form.get("event", "")
    if event not in ("away", "back", "tick"):
        abort(400, _("Unknown clock event %(event)s.", event=repr(event[:30])))
    player = player_id()
    if player is not None:  # only a game already started: opening a page writes nothing
        shown = page_clock.shown(stored.code)
        services().store.update_existing_progress(
            player, stored.code,
            lambda state: _clock_event(Game(stored.puzzle, stored.solution, state), event, shown))
    return ("", 204)


def _clock_event(game: Game, event: str, shown: tuple[int, int] | None) -> None:
    if shown is not None:  # what the page counted by itself (after a Resume in another tab, say)
        game.sync_clock(*shown)
    if event == "away":
        game.away()
    else:
        game.touch()


# A board's cells, the clock, the counts, the numbers entered twice, the status line and
# the buttons, in the page and in an entry's answer: drawn by functions, not templates
# (cell_html.py, panel_html.py).
bp.add_app_template_global(cell_html, "cell_html")
bp.add_app_template_global(timer_html, "timer_html")
bp.add_app_template_global(counts_html, "counts_html")
bp.add_app_template_global(duplicates_html, "duplicates_html")
bp.add_app_template_global(status_html, "status_html")
bp.add_app_template_global(tools_html, "tools_html")


@bp.app_template_global()
def board_balance(board: engine.Board) -> tuple[int, int]:
    """Half cells of room to add on the left and on the right of a drawn board so that its
    cells, not the box of rows and columns around them, are centred (for _game.html).

    On a hex board odd rows are drawn half a cell to the right, so a hexagon leaves more
    empty room on one side of its box than on the other; a shape may also leave a column
    empty. Counted in half cells: cell (r, c) spans 2c to 2c + 2, plus 1 on a shifted row."""
    hex_rows = board.adjacency == "hex"
    spans = [(2 * c + (r % 2 if hex_rows else 0)) for r, c in board.cells]
    left = min(spans)
    right = 2 * board.cols + (1 if hex_rows else 0) - (max(spans) + 2)
    return max(0, right - left), max(0, left - right)
