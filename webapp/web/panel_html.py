"""The game panel's clock, counts and numbers entered twice, written in Python: a cell
entry's answer sends them again (out of band), and the page draws them once; as templates
they cost half of drawing the answer (an include's new context, a dozen context calls and
escapes each), for a few elements.  Templates call them as ``timer_html(...)``,
``counts_html(...)`` and ``duplicates_html(...)`` (template globals; they were
``_timer.html``, ``_counts.html`` and ``_duplicates.html``, and write the same bytes),
with the messages said as the templates' ``_()`` and ``ngettext()`` say them.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from engine import Cell

from ..core.game import Game, format_seconds
from .catalogue import template_gettext as _
from .catalogue import template_ngettext as ngettext
from .catalogue import translations
from .names import cell_words
from .notice import Notice

_OOB = ' hx-swap-oob="true"'


def timer_html(game: Game, seconds: int, stamp: str, oob: bool = False) -> Markup:
    """The clock: the seconds when drawn, whether the page counts on (hidato.js: from the
    moment the page opens, paused while hidden, stopped when paused or finished), which run
    of the game it belongs to (new after Restart) and the signed stamp the page sends back
    with its count (``page_clock``)."""
    return Markup(
        f'<span id="timer" role="timer" data-seconds="{escape(seconds)}" '
        f'data-running="{"true" if game.ticking else "false"}"\n'
        f'      data-epoch="{escape(game.epoch)}" data-stamp="{escape(stamp)}" aria-label="{_("Time taken")}"'
        f'{_OOB if oob else ""}><span class="clock">{escape(format_seconds(seconds))}</span></span>')


def counts_html(game: Game, missing_shown: int, oob: bool = False) -> Markup:
    """The status line: cells filled of total, the quiet count of mistakes, and the numbers
    still missing (as runs, at most ``missing_shown`` of them; the rest counted)."""
    filled = ngettext("<strong>%(filled)s</strong> of %(num)s cell filled",
                      "<strong>%(filled)s</strong> of %(num)s cells filled", game.total, filled=game.filled)
    mistakes = _("Mistakes: %(count)s", count=game.state.mistakes)
    parts = [f'<div id="counts" class="counts"{_OOB if oob else ""}>\n  <p>{filled}\n'
             f'    <span class="mistakes">· {mistakes}</span></p>']
    runs = game.missing()
    if runs and not game.finished:
        shown = ", ".join(f"{lo}–{hi}" if hi > lo else str(lo) for lo, hi in runs[:missing_shown])
        more = ""
        if len(runs) > missing_shown:
            more = f', … ({ngettext("%(num)s more run", "%(num)s more runs", len(runs) - missing_shown)})'
        parts.append(f'\n  <p class="missing"><span class="label">{_("Missing:")}</span>\n    {shown}{more}</p>')
    parts.append("\n</div>")
    return Markup("".join(parts))


_DUPLICATES_SHOWN = 5


def duplicates_html(game: Game, oob: bool = False) -> Markup:
    """Numbers entered twice, named beside the board. The box is always there (empty, and
    hidden, when there are none) and is sent again out of band with every entry that
    changes the list (``Game.duplicates_changed_by``), so the list comes and goes with the
    duplicates; at most 5 numbers and 3 cells of each."""
    found = game.duplicates(_DUPLICATES_SHOWN)
    # What the box shows of each number: its cells' count and first three.
    key = (translations(), oob, tuple([(value, len(cells), *cells[:3]) for value, cells in found]))
    html = _DUPLICATES_DRAWN.get(key)
    if html is None:
        if len(_DUPLICATES_DRAWN) >= _DUPLICATES_KEPT:
            _DUPLICATES_DRAWN.clear()
        html = _DUPLICATES_DRAWN[key] = _duplicates_drawn(found, oob)
    return html


# The boxes drawn last, by catalogue, ``oob`` and what they show: a player's entries change
# the five numbers named (the lowest entered twice) seldom, and drawing them (messages said,
# cells named, escaped) cost more than the rest of the list.
_DUPLICATES_DRAWN: dict[tuple[Any, bool, tuple[tuple[Any, ...], ...]], Markup] = {}
_DUPLICATES_KEPT = 4096  # a bound, not a policy: emptied when full


def _duplicates_drawn(found: list[tuple[int, list[Cell]]], oob: bool) -> Markup:
    parts = [f'<div id="duplicates" class="duplicates"{_OOB if oob else ""}>']
    if found:
        parts.append(f'\n  <ul class="problems" aria-label="{_("Numbers entered twice")}">')
        for value, cells in found:
            said = _("%(number)s is in %(count)s cells:", number=value, count=len(cells))
            named = "; ".join(str(escape(cell_words(cell))) for cell in cells[:3])
            parts.append(f'\n    <li>{said} {named}{"; …" if len(cells) > 3 else ""}</li>')
        parts.append("\n  </ul>")
    parts.append("</div>")
    return Markup("".join(parts))


def status_html(notice: Notice | None, oob: bool = False) -> Markup:
    """The status line (it was ``_status.html``): messages about the game (Solved!, hints,
    Check, errors). The region stays put: htmx answers replace what is inside it, out of
    band (``oob``); inside the game (its side panel, or the dock above the number pad on a
    phone) it is preserved when htmx swaps the game, so it stays one live region for the
    life of the page."""
    parts = ['<div id="status" class="status" role="status"',
             ' hx-swap-oob="innerHTML">' if oob else ' hx-preserve="true">']
    if notice:
        kind = notice.kind
        parts.append(f'\n  <p class="notice {escape(kind)}">')
        if kind == "solved":
            parts.append('<span class="badge" aria-hidden="true">★</span>')
        elif kind == "hint":
            parts.append(f'<strong>{_("Hint:")}</strong> ')
        elif kind == "error":
            parts.append(f'<strong>{_("Not taken:")}</strong> ')
        parts.append(f"{escape(notice.text)}</p>")
    parts.append("\n</div>")
    return Markup("".join(parts))


def tools_html(game: Game, oob: bool = False) -> Markup:
    """The game's buttons (they were ``_tools.html``). Sent again out of band with an entry
    that changes whether Undo or Redo can be used (and with every action), so they are
    enabled the moment there is something to undo. Their ids stay the same from one swap to
    the next, so htmx (and play.js) can give the focus back to the button pressed. A
    finished game has none: nothing on it edits (its panel offers Play again)."""
    parts = [f'<div id="tools" class="tools" role="group" aria-label="{_("Game")}"{_OOB if oob else ""}>']
    if not game.finished:
        undo = "" if game.can_undo() else " disabled"
        redo = "" if game.can_redo() else " disabled"
        parts.append(
            f'\n  <button id="tool-undo" name="action" value="undo"{undo}>{_("Undo")}</button>'
            f'\n  <button id="tool-redo" name="action" value="redo"{redo}>{_("Redo")}</button>'
            f'\n  <button id="tool-check" name="action" value="check">{_("Check")}</button>'
            f'\n  <button id="tool-hint" name="action" value="hint">{_("Hint")}</button>'
            f'\n  <button id="tool-candidates" name="action" value="candidates">{_("Fill candidates")}</button>'
            f'\n  <button id="tool-restart" name="action" value="restart">{_("Restart")}</button>'
            f'\n  <button id="tool-reveal" name="action" value="reveal">{_("Reveal solution")}</button>'
            f'\n  <button type="button" id="tool-print" class="js-only" data-print>{_("Print")}</button>')
    parts.append("</div>")
    return Markup("".join(parts))
