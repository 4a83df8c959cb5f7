"""The game panel's clock, counts and numbers entered twice, written in Python: a cell
entry's answer sends them again (out of band), and the page draws them once; as templates
they cost half of drawing the answer (an include's new context, a dozen context calls and
escapes each), for a few elements.  Templates call them as ``timer_html(...)``,
``counts_html(...)`` and ``duplicates_html(...)`` (template globals; they were
``_timer.html``, ``_counts.html`` and ``_duplicates.html``, and write the same bytes),
with the messages said as the templates' ``_()`` and ``ngettext()`` say them.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from ..core.game import Game, format_seconds
from .catalogue import template_gettext as _
from .catalogue import template_ngettext as ngettext
from .names import cell_words

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


def duplicates_html(game: Game, oob: bool = False) -> Markup:
    """Numbers entered twice, named beside the board. The box is always there (empty, and
    hidden, when there are none) and is sent again out of band with every entry that
    changes the list (``Game.duplicates_changed_by``), so the list comes and goes with the
    duplicates; at most 5 numbers and 3 cells of each."""
    parts = [f'<div id="duplicates" class="duplicates"{_OOB if oob else ""}>']
    found = game.duplicates()
    if found:
        parts.append(f'\n  <ul class="problems" aria-label="{_("Numbers entered twice")}">')
        for value, cells in found[:5]:
            said = _("%(number)s is in %(count)s cells:", number=value, count=len(cells))
            named = "; ".join(str(escape(cell_words(cell))) for cell in cells[:3])
            parts.append(f'\n    <li>{said} {named}{"; …" if len(cells) > 3 else ""}</li>')
        parts.append("\n  </ul>")
    parts.append("</div>")
    return Markup("".join(parts))
