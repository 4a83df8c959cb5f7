"""One board cell's HTML, written in Python: the play page draws one per cell (400 on a
20x20 board) and a cell entry's answer one to nine, and a Jinja macro costs more per cell
(its call, its frame, two dozen context look-ups) than the few strings it puts together.

Templates call it as ``cell(v, oob, locked, digits, entry_url)`` (a template global; it
was the ``_cell.html`` macro, and writes the same bytes): ``v`` the cell's ``CellView``;
``oob`` sent out of band (another cell whose duplicate mark changed); ``locked`` the game
takes no entries; ``digits`` how many digits the board's largest number has (no field
takes more); ``entry_url(row, col)`` the cell's entry URL.  hx-target, hx-swap and hx-sync
are inherited from the board, to keep the page small.
"""

from __future__ import annotations

from collections.abc import Callable

from markupsafe import Markup, escape

from ..core.game import CellView
from .catalogue import translations
from .names import cell_title


def cell_note(view: CellView) -> str:
    """What is wrong with a cell, in the page's language."""
    return view.say_note(translations())


def _classes(v: CellView) -> str:
    """The cell's classes after "cell": given, wrong or right, dup, hinted."""
    kind = " given" if v.given else " wrong" if v.invalid else " right" if v.right else ""
    if v.duplicate:
        kind += " dup"
    if v.hinted:
        kind += " hinted"
    return kind


def cell_html(v: CellView, oob: bool, locked: bool, digits: int, entry_url: Callable[[int, int], str]) -> Markup:
    """The cell's ``<div>``: a given's number, or the field of an open cell with its marks."""
    row, col = v.cell[0] + 1, v.cell[1] + 1
    parts = [f'<div id="cell-{row}-{col}" data-row="{row}" data-col="{col}"\n     class="cell{_classes(v)}"']
    if oob:
        parts.append(' hx-swap-oob="true"')
    name = f"c-{row}-{col}"
    if not v.given and not locked:
        parts.append(f' hx-post="{escape(entry_url(row, col))}" hx-trigger="change" hx-params="{name},mode"')
    if v.given:
        parts.append(f'>\n  <span class="num">{escape(v.value)}</span>\n</div>')
        return Markup("".join(parts))
    note = cell_note(v)
    shown = v.raw if v.raw is not None else (v.value or "")
    parts.append(f'>\n  <input id="{name}" name="{name}" inputmode="numeric" autocomplete="off" '
                 f'maxlength="{escape(digits)}" size="3"\n         aria-label="{escape(cell_title(v.cell))}" '
                 f'value="{escape(shown)}"')
    if v.invalid:
        parts.append(' aria-invalid="true"')
    if note:
        parts.append(f' aria-describedby="note-{row}-{col}"')
    if locked:
        parts.append(" readonly")
    parts.append(">")
    if v.notes and not v.value:
        parts.append(f'<span class="pencil">{escape(" ".join(str(n) for n in v.notes))}</span>')
    if note:
        parts.append(f'<span class="note" id="note-{row}-{col}">{escape(note)}</span>')
    parts.append("\n</div>")
    return Markup("".join(parts))
