"""Printable sheets and PDF booklets: puzzles first, solutions at the back.

``make_puzzles`` generates the puzzles a ``BookletOptions`` asks for (deterministic by
seed; the web app may hand it puzzles from the pool first), ``render_pdf`` lays them out
with ``templates/booklet_pdf.html`` and ``static/booklet.css`` and has WeasyPrint turn
that into a PDF.  The boards are the same SVG drawing as on screen (``drawing.py``,
``templates/_board_svg.html``).  No Flask here: ``hidato print`` uses it without an app.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import SHAPES, shape_board

from ..core.options import Options, check_adjacency, check_difficulty, check_shape, check_size, variant_of
from ..core.stored import StoredPuzzle, generate
from .drawing import Drawing, draw_board

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
STYLESHEET = ROOT / "static" / "booklet.css"

MIXED = "mixed"
MAX_COUNT = 50
PER_PAGE = (1, 2, 4)
# The page (A4) less its margins, in mm; booklet.css says the same.
PAGE_WIDTH, PAGE_HEIGHT = 180.0, 257.0
HEADING_MM = 14.0  # "Puzzles 1-4" at the top of each page
GAP_MM = 6.0
MAX_CELL_MM = 16.0  # small boards are not blown up to fill a page
ID_CHAR_MM = 1.4  # one character of the id, monospaced at 6.5pt
ID_LINE_MM = 3.0
CAPTION_MM = 9.0  # the caption's title line and spacing


@dataclass(frozen=True)
class BookletOptions:
    """What a booklet holds: the kind of puzzles, how many, and how many to a page."""

    shape: str  # a shape name, or "mixed" for a different shape each time (default sizes)
    size: int | None
    difficulty: str
    adjacency: str
    count: int
    per_page: int
    seed: int | None = None  # None: any puzzles (the web app may use its pool)


@dataclass(frozen=True)
class Sheet:
    """One board as printed: the drawing, its size on paper and the words under it."""

    number: int
    stored: StoredPuzzle
    drawing: Drawing
    title: str
    code: str
    url: str | None
    width: str = ""
    height: str = ""


def describe(stored: StoredPuzzle) -> str:
    """``Hidato · Diamond 5 · Medium · 41 cells``: what a printed puzzle is."""
    parts = [variant_of(stored.adjacency).label]
    if stored.shape and stored.shape != "custom":
        parts.append(f"{stored.shape.capitalize()}{f' {stored.size}' if stored.size else ''}")
    if stored.difficulty:
        parts.append(stored.difficulty.capitalize())
    parts.append(f"{stored.puzzle.size} cells")
    return " · ".join(parts)


def check_options(options: BookletOptions) -> None:
    """Refuse at once what can be seen to be wrong (ValueError with a message for the person)."""
    if options.shape != MIXED:
        check_shape(options.shape)
    check_difficulty(options.difficulty)
    check_adjacency(options.adjacency)
    if not 1 <= options.count <= MAX_COUNT:
        raise ValueError(f"The number of puzzles must be from 1 to {MAX_COUNT}, not {options.count}")
    if options.per_page not in PER_PAGE:
        raise ValueError(f"Puzzles per page must be 1, 2 or 4, not {options.per_page}")
    if options.shape == MIXED:
        if not mixed_shapes(options.adjacency):
            raise ValueError(f"No shape can be played with {options.adjacency} moves")
        return
    size = check_size(SHAPES[options.shape], options.size)
    shape_board(options.shape, size, options.adjacency)  # type: ignore[arg-type]  # ShapeError says why not


def mixed_shapes(adjacency: str) -> list[str]:
    """The shapes a mixed booklet draws from: those that take this adjacency at their default size."""
    found = []
    for name, spec in SHAPES.items():
        if name == "square" or adjacency not in spec.adjacencies:
            continue  # the square is the rectangle again
        try:
            shape_board(name, spec.default_size, adjacency)
        except ValueError:
            continue
        found.append(name)
    return found


Take = Callable[[Options], "StoredPuzzle | None"]
Make = Callable[[Options, int], StoredPuzzle]


def make_puzzles(options: BookletOptions, take: Take | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 make: Make = generate) -> list[StoredPuzzle]:
    """Generate the booklet's puzzles; the same options and seed give the same puzzles.

    ``take`` may hand out a ready puzzle for a set of options (the pool) before the
    generator is asked; ``make(options, seed)`` generates one (the web app runs it under a
    time budget); ``progress(done, count)`` hears of each puzzle made.
    """
    check_options(options)
    rng = random.Random(f"hidato-booklet/{options.seed}")
    variant = variant_of(options.adjacency).key
    if options.shape == MIXED:
        order = mixed_shapes(options.adjacency)
        rng.shuffle(order)
    else:
        order = [options.shape]
    made: list[StoredPuzzle] = []
    for index in range(options.count):
        seed = rng.getrandbits(48)
        made.append(_one(options, order, index, seed, variant, take, make))
        if progress:
            progress(index + 1, options.count)
    return made


def _one(options: BookletOptions, order: list[str], index: int, seed: int, variant: str,
         take: Take | None, make: Make) -> StoredPuzzle:
    """Puzzle ``index``: mixed booklets go round the shapes, passing over any the generator refuses."""
    problem: ValueError | None = None
    for step in range(len(order)):
        shape = order[(index + step) % len(order)]
        spec = SHAPES[shape]
        size = options.size if options.shape != MIXED and options.size is not None else spec.default_size
        wanted = Options(shape, size, options.difficulty, variant)
        found = take(wanted) if take else None
        if found is not None:
            return found
        try:
            return make(wanted, seed)
        except ValueError as err:  # GenerationError, ShapeError: this shape can't, try the next
            problem = err
    assert problem is not None
    raise problem


# --- laying out and rendering ---------------------------------------------------------


def sheets(puzzles: Iterable[StoredPuzzle], per_page: int, solutions: bool,
           link_root: str | None = None) -> list[Sheet]:
    """The printed boards with their sizes on paper for ``per_page`` to a page.

    ``link_root`` (``https://example.org``) labels each with its page on the site,
    ``{link_root}/p/{id}``; without it, with its id.
    """
    columns = 2 if per_page == 4 else 1
    rows = 1 if per_page == 1 else 2
    slot_w = (PAGE_WIDTH - GAP_MM * (columns - 1)) / columns
    slot_h = (PAGE_HEIGHT - HEADING_MM - GAP_MM * (rows - 1)) / rows
    out = []
    for number, stored in enumerate(puzzles, start=1):
        drawing = draw_board(stored.puzzle, stored.solution if solutions else None)
        url = f"{link_root}/p/{stored.code}" if link_root else None
        label = url or f"id {stored.code}"  # what the caption's last line shows
        caption = CAPTION_MM + ID_LINE_MM * math.ceil(len(label) * ID_CHAR_MM / slot_w)
        cell_limit = MAX_CELL_MM * max(drawing.width, 1.0) / 40.0  # 40: SVG units per cell
        width, height = drawing.fit(min(slot_w, cell_limit), slot_h - caption)
        out.append(Sheet(number, stored, drawing, describe(stored), stored.code, url,
                         f"{width}mm", f"{height}mm"))
    return out


def pages(items: list[Sheet], per_page: int) -> list[list[Sheet]]:
    return [items[i:i + per_page] for i in range(0, len(items), per_page)]


def page_count(count: int, per_page: int) -> int:
    """Pages of a booklet: the puzzles, then the solutions laid out the same way."""
    return 2 * math.ceil(count / per_page)


def _environment() -> Any:
    from jinja2 import Environment, FileSystemLoader, select_autoescape  # on first use: the CLI starts light

    return Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html"]))


def booklet_html(puzzles: list[StoredPuzzle], per_page: int, title: str,
                 link_root: str | None = None) -> str:
    """The booklet as HTML for WeasyPrint."""
    template = _environment().get_template("booklet_pdf.html")
    return template.render(
        title=title,
        per_page=per_page,
        puzzle_pages=pages(sheets(puzzles, per_page, False, link_root), per_page),
        solution_pages=pages(sheets(puzzles, per_page, True, link_root), per_page),
    )


def _no_fetch(url: str, *args: Any, **kwargs: Any) -> Any:
    # The booklet is self-contained: nothing is ever loaded from a URL or a file.
    raise ValueError(f"the booklet loads nothing from outside ({url[:60]})")


def render_pdf(puzzles: list[StoredPuzzle], per_page: int, title: str = "Hidato puzzles",
               link_root: str | None = None) -> bytes:
    """The PDF: puzzles ``per_page`` to a page, then the solutions, pages numbered."""
    from weasyprint import CSS, HTML  # imported on first use: it loads Pango

    html = booklet_html(puzzles, per_page, title, link_root)
    css = CSS(string=STYLESHEET.read_text(encoding="utf-8"), url_fetcher=_no_fetch)
    document = HTML(string=html, url_fetcher=_no_fetch)
    return document.write_pdf(stylesheets=[css])


def title_of(options: BookletOptions) -> str:
    """``12 medium Diamond puzzles`` for the PDF's title and file name."""
    shape = "mixed" if options.shape == MIXED else options.shape.capitalize()
    noun = "puzzle" if options.count == 1 else "puzzles"
    return f"{options.count} {options.difficulty} {shape} {variant_of(options.adjacency).label} {noun}"
