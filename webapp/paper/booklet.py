"""Printable sheets and PDF booklets: puzzles first, solutions at the back.

A booklet is made from its seed: ``with_seed`` gives options asked for without one a
new seed (so booklets made without one differ), ``plan`` turns the options into its
puzzles before they are made (puzzle ``i`` from the seed, the options and ``i`` alone),
and ``make_puzzles`` makes them one after the other (``hidato print``) or ``make_share``
some of them in a child process (the web app spreads them over its work slots).  The
seed is printed at the foot of the solution pages, so the booklet can be made again.
``render_pdf`` lays the puzzles out with ``templates/booklet_pdf.html`` and
``static/booklet.css`` and has WeasyPrint turn that into a PDF, saying how far it has
got page by page.  Where each board goes, and how many to a page, is ``layout.py``'s:
``layout`` here adds the words (the note of a booklet printed fewer to a page than
asked), ``sheets`` the captions.  The boards are the same SVG drawing as on screen
(``drawing.py``, ``templates/_board_svg.html``), in fewer elements.  No Flask here:
``hidato print`` uses it without an app.

Words are in the reader's language: the functions that write any take ``words`` (a
gettext translations object; English by default), and ``render_pdf`` takes the language's
code, because it runs in a child process of a worker, outside any request: it loads that
language's catalogue (``words_for``) and installs it in its own Jinja environment.  The
names of shapes, levels and variants share their msgids with ``webapp/web/names.py``.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import random
import re
import secrets
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine import SHAPES, unreachable

from ..core.messages import ENGLISH, N_, Name, Refusal, Words, decimal
from ..core.options import (
    Options,
    check_adjacency,
    check_difficulty,
    check_shape,
    check_size,
    check_takes,
    unreachable_refusal,
    variant_of,
)
from ..core.stored import StoredPuzzle, generate
from .drawing import Drawing, draw_board, extent
from .layout import (
    MARGIN_BOTTOM_MM,
    MARGIN_SIDE_MM,
    MARGIN_TOP_MM,
    MIN_CELL_MM,
    PAPERS,
    PER_PAGE,
    PUZZLE_GRIDS,
    SOLUTION_GRIDS,
    SOLUTION_HEAD_MM,
    WORKSHEET_HEAD_MM,
    Extent,
    Grid,
    Page,
    board_box,
    cell_mm,
    content,
    puzzle_pages,
    qr_mm,
    solution_pages,
)

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
TRANSLATIONS = ROOT / "webapp" / "translations"  # the web app's catalogues (make translations)
STYLESHEET = ROOT / "static" / "booklet.css"

MIXED = "mixed"
MAX_COUNT = 50
PAPER_NAMES = {"a4": N_("A4"), "letter": N_("US Letter")}  # said in the reader's language where shown
# A long link (/p/<id>) makes a dense code: its modules are printed at least this wide, two
# pixels of a 100-dpi scan, so the code grows with the link (a 10x10 board's: about 27 mm).
QR_MODULE_MM = 0.5


@dataclass(frozen=True)
class BookletOptions:
    """What a booklet holds: the kind of puzzles, how many, and how many to a page."""

    shape: str  # a shape name, or "mixed" for a different shape each time (default sizes)
    size: int | None
    difficulty: str
    adjacency: str
    count: int
    per_page: int
    seed: int | None = None  # None: not chosen yet (with_seed chooses one; the booklet says it)
    paper: str = "a4"
    name_line: bool = True  # "Name ____ Date ____" on each page of puzzles


@dataclass(frozen=True)
class Sheet:
    """One board as printed: the drawing, its size on paper and the words under it."""

    number: int
    stored: StoredPuzzle
    drawing: Drawing
    title: str  # what the puzzle is, in one line ("Hidato · Heart 12 · Medium (rating 2.4) · 80 cells")
    code: str
    url: str | None
    width: str = ""
    height: str = ""
    of: int = 0  # how many puzzles the booklet has
    rule: str = ""  # the rules in one sentence
    qr: str = ""  # an SVG QR code of ``url`` (empty without a public address)
    qr_mm: float = 0.0  # the side of the QR code on paper
    link_text: str = ""  # a short link to print under the QR code ("hidato.example.org/s/2f")
    parts: tuple[str, ...] = ()  # the caption's pieces after its number, each kept on one line


@dataclass(frozen=True)
class Layout:
    """A booklet's pages: its paper, its pages of puzzles (and why they hold fewer than
    asked, if they do), and its answer key."""

    paper: str
    per_page: int  # the most puzzles any page holds
    note: str = ""
    worksheets: tuple[Page, ...] = ()  # the pages of puzzles: each one's grid and its puzzles
    solutions: tuple[Page, ...] = ()  # the answer key's pages, the same way

    @property
    def content(self) -> tuple[float, float]:
        return content(self.paper)

    @property
    def page_count(self) -> int:
        """The booklet's pages: its puzzles, then the solutions."""
        return len(self.worksheets) + len(self.solutions)


def words_for(lang: str) -> Words:
    """The catalogue of a language (English, the msgids, for "en" or one not translated)."""
    if not lang or lang == "en":
        return ENGLISH
    from babel.support import Translations  # on first use: the CLI starts light

    return Translations.load(str(TRANSLATIONS), [lang])


def _touching(adjacency: str, words: Words) -> str:
    return words.gettext(variant_of(adjacency).touching)  # msgids in web/names.py (TOUCHING)


def rule_of(stored: StoredPuzzle, words: Words = ENGLISH) -> str:
    """The rules in one sentence, for this puzzle's adjacency and size."""
    return words.gettext("Write the numbers 1 to %(size)s in the empty cells so that each number touches "
                         "the next %(touching)s.") % {"size": stored.puzzle.size,
                                                      "touching": _touching(stored.adjacency, words)}


def _general_rule(stored: StoredPuzzle, words: Words = ENGLISH) -> str:
    """The rules for a page of boards of different sizes (each caption says its number of cells)."""
    return words.gettext("Fill the empty cells of each board with the numbers from 1 to its number of cells, "
                         "written under it, so that each number touches the next %(touching)s.") % {
        "touching": _touching(stored.adjacency, words)}


def check_paper(paper: str) -> str:
    """``a4`` or ``letter`` (ValueError with a message otherwise)."""
    key = (paper or "").strip().lower()
    if key not in PAPERS:
        raise Refusal(N_("Unknown paper %(paper)s: choose A4 or Letter"), paper=repr(paper[:20]))
    return key


def caption_parts(stored: StoredPuzzle, words: Words = ENGLISH, variant: bool = True, shape: bool = True,
                  rating: bool = True, cells: bool = True) -> list[str]:
    """What a printed puzzle is, in pieces: ``Hidato``, ``Diamond 5``, ``Medium (rating 2.3)``,
    ``41 cells`` (the rating only when asked for and stored: puzzles made before ratings
    have none).  Pupils' sheets leave the rating off: the level says what they need, and a
    bare "2.3" beside it meant nothing to them; the solutions keep it, for the teacher."""
    parts = [words.gettext(variant_of(stored.adjacency).label)] if variant else []  # msgids in web/names.py
    if shape and stored.shape and stored.shape != "custom":
        parts.append(f"{words.gettext(stored.shape).capitalize()}{f' {stored.size}' if stored.size else ''}")
    if stored.difficulty:
        level = words.gettext(stored.difficulty).capitalize()
        if rating and stored.rating is not None:
            level = words.gettext("%(level)s (rating %(rating)s)") % {
                "level": level, "rating": decimal(stored.rating, words, "0.0")}
        parts.append(level)
    if cells:
        size = stored.puzzle.size
        parts.append(words.ngettext("%(count)s cell", "%(count)s cells", size) % {"count": size})
    return parts


def describe(stored: StoredPuzzle, words: Words = ENGLISH, rating: bool = True) -> str:
    """``Hidato · Diamond 5 · Medium (rating 2.3) · 41 cells``: what a printed puzzle is."""
    return " · ".join(caption_parts(stored, words, rating=rating))


def check_options(options: BookletOptions) -> None:
    """Refuse at once what can be seen to be wrong (ValueError with a message for the person)."""
    if options.shape != MIXED:
        check_shape(options.shape)
    check_difficulty(options.difficulty)
    check_adjacency(options.adjacency)
    if not 1 <= options.count <= MAX_COUNT:
        raise Refusal(N_("The number of puzzles must be from 1 to %(high)s, not %(count)s"), high=MAX_COUNT,
                      count=options.count)
    if options.per_page not in PER_PAGE:
        raise Refusal(N_("Puzzles per page must be 1, 2 or 4, not %(count)s"), count=options.per_page)
    check_paper(options.paper)
    variant = variant_of(options.adjacency)
    if options.shape == MIXED:
        if not mixed_shapes(options.adjacency, options.difficulty):
            raise Refusal(N_("No shape makes %(variant)s puzzles at the %(level)s level"),
                          level=Name(options.difficulty), variant=Name(variant.label))
        return
    spec = SHAPES[options.shape]
    size = check_size(spec, options.size)
    check_takes(spec, size, variant)  # the shape in this variant and at this size, or why not in words
    refusal = unreachable_refusal(options.shape, size, options.adjacency, options.difficulty)
    if refusal is not None:
        raise refusal


def mixed_shapes(adjacency: str, difficulty: str | None = None) -> list[str]:
    """The shapes a mixed booklet draws from: those that take this adjacency at their default
    size (and make puzzles of ``difficulty`` there, when it is given)."""
    found = []
    for name, spec in SHAPES.items():
        if name == "square" or spec.default_size not in spec.sizes(adjacency):
            continue  # the square is the rectangle again; the others must take the variant
        if difficulty is not None and unreachable(name, spec.default_size, adjacency, difficulty):
            continue
        found.append(name)
    return found


Make = Callable[[Options, int], StoredPuzzle]


def new_seed() -> int:
    """A seed for a booklet asked for without one: nine digits, few enough to copy from a
    page, and a billion of them, so two booklets made without a seed differ."""
    return 10**8 + secrets.randbelow(9 * 10**8)


def with_seed(options: BookletOptions) -> BookletOptions:
    """The options with a new seed when they have none (the seed then said with the booklet)."""
    return options if options.seed is not None else replace(options, seed=new_seed())


@dataclass(frozen=True)
class Planned:
    """One puzzle of a booklet before it is made: its place, the options to try in turn (a
    mixed booklet passes over a shape the generator refuses) and the generator's seed."""

    index: int
    choices: tuple[Options, ...]
    seed: int


def plan(options: BookletOptions) -> list[Planned]:
    """The booklet's puzzles before they are made.  Puzzle ``i`` follows from the booklet's
    seed, its options and ``i`` alone, so the same seed makes the same booklet on any
    machine, whatever order or process its puzzles are made in (the order of the shapes
    of a mixed booklet, then each puzzle's seed, are drawn from the booklet's seed as
    before there was a plan: old seeds still make their old booklets)."""
    check_options(options)
    if options.seed is None:
        raise TypeError("a booklet is planned from its seed: with_seed(options) gives it one")
    rng = random.Random(f"hidato-booklet/{options.seed}")
    variant = variant_of(options.adjacency).key
    if options.shape == MIXED:
        order = mixed_shapes(options.adjacency, options.difficulty)
        rng.shuffle(order)
    else:
        order = [options.shape]
    planned = []
    for index in range(options.count):
        seed = rng.getrandbits(48)
        choices = []
        for step in range(len(order)):  # mixed booklets go round the shapes
            shape = order[(index + step) % len(order)]
            spec = SHAPES[shape]
            size = options.size if options.shape != MIXED and options.size is not None else spec.default_size
            choices.append(Options(shape, size, options.difficulty, variant))
        planned.append(Planned(index, tuple(choices), seed))
    return planned


def make_one(planned: Planned, make: Make = generate) -> StoredPuzzle:
    """Make a planned puzzle: its first choice the generator takes.  Running out of time is
    not a refusal: passing to another shape then would make a booklet its seed does not
    make again, so the error is raised."""
    problem: ValueError | None = None
    for wanted in planned.choices:
        try:
            return make(wanted, planned.seed)
        except ValueError as err:  # GenerationError, ShapeError: this shape can't, try the next
            if "time" in getattr(err, "params", {}):
                raise
            problem = err
    assert problem is not None
    raise problem


def make_puzzles(options: BookletOptions, progress: Callable[[int, int], None] | None = None,
                 make: Make = generate) -> list[StoredPuzzle]:
    """Generate the booklet's puzzles, one after the other; the same options and seed give
    the same puzzles.  ``make(options, seed)`` generates one; ``progress(done, count)``
    hears of each puzzle made."""
    made = []
    for planned in plan(options):
        made.append(make_one(planned, make))
        if progress:
            progress(len(made), options.count)
    return made


def make_share(planned: list[Planned], seconds: float | None, slice_seconds: float,
               progress: Callable[[int], None] | None = None) -> list[StoredPuzzle]:
    """Some of a booklet's puzzles, made here (the web app runs this in a child process,
    ``Runner.run_split``): the first of ``planned`` in turn, each within ``seconds``,
    until ``slice_seconds`` have passed (at least one), so the slot goes back to other
    work now and then; ``progress(index)`` hears of each."""
    started = time.monotonic()
    made: list[StoredPuzzle] = []
    for one in planned:
        made.append(make_one(one, lambda wanted, seed: generate(wanted, seed, max_seconds=seconds)))
        if progress:
            progress(one.index)
        if time.monotonic() - started >= slice_seconds:
            break
    return made


# --- laying out and rendering ---------------------------------------------------------


def layout(puzzles: list[StoredPuzzle], per_page: int, paper: str = "a4", qr: bool = False,
           words: Words = ENGLISH, links: Links | None = None) -> Layout:
    """How the booklet is laid out: its pages of puzzles, as many to a page as asked or
    fewer where a board's cells would print under MIN_CELL_MM (with a note that says so),
    and its answer key, as many solutions to a page as stay legible.  ``qr``: the pages
    have QR codes; ``links``: their links, whose length sizes them (``qr_side``)."""
    paper = check_paper(paper)
    least = qr_side(links) if links else float(qr)
    extents = [extent(stored.puzzle.board) for stored in puzzles]
    worksheets = puzzle_pages(extents, per_page, paper, least)
    most = max((grid.per_page for grid, _places in worksheets), default=per_page)
    return Layout(paper, most, layout_note(extents, worksheets, per_page, paper, least, words),
                  tuple(worksheets), tuple(solution_pages(extents, paper)))


def layout_note(extents: list[Extent], worksheets: list[Page], asked: int, paper: str, qr: float,
                words: Words = ENGLISH) -> str:
    """What the PDF's first page says when the pages are not as asked: fewer to a page
    (all of them, or some), or even one to a page leaves cells under MIN_CELL_MM."""
    boxes = {grid.per_page: board_box(paper, grid, True, qr) for grid, _places in worksheets}
    if any(cell_mm(extents[i], boxes[grid.per_page]) < MIN_CELL_MM for grid, places in worksheets for i in places):
        return size_note(TOO_BIG, words)
    used = {grid.per_page for grid, _places in worksheets}
    if len(used) == 1 and min(used) < asked:
        return size_note(FEWER, words, count=min(used), asked=asked)
    if used and min(used) < asked:
        return size_note(SOME_FEWER, words, asked=asked)
    return ""


def size_note(message: str, words: Words = ENGLISH, **values: object) -> str:
    """One of the notes below in the reader's words, its millimetres said and kept on one
    line with their number ("9 mm"); without ``values`` its other placeholders are left in."""
    text = words.gettext(message).replace("%(mm)s mm", f"{MIN_CELL_MM:g}\u00a0mm")
    text = text.replace("%(mm)s", f"{MIN_CELL_MM:g}")
    return text % values if values else text


# What the booklet form and the PDF's first page say when the pages differ from what was asked.
FEWER = N_("Printed %(count)s to a page (not %(asked)s) so that every cell is at least %(mm)s mm wide.")
SOME_FEWER = N_("Some pages hold fewer than %(asked)s puzzles so that every cell is at least %(mm)s mm wide.")
# The form, before a mixed booklet's shapes are drawn: some of them would go fewer to a page.
SOME_SHAPES = N_("Some shapes go fewer than %(asked)s to a page so that every cell is at least %(mm)s mm wide.")
TOO_BIG = N_("Even one to a page, some cells of these boards print under %(mm)s mm wide: "
             "a smaller size leaves more room to write.")


Links = Mapping[str, str]  # a puzzle's id -> the link its QR code carries


def qr_side(links: Links | None) -> float:
    """What the layout is told of the QR codes: 0 without them; else the least side in mm
    they need (1, the usual sizes, for short links; a long link's dense code is printed
    with modules QR_MODULE_MM wide, so it grows with the link)."""
    if not links:
        return 0.0
    long_links = [url for url in links.values() if "/s/" not in url]
    return max((qr_modules(url) * QR_MODULE_MM for url in long_links), default=1.0)


def qr_modules(url: str) -> int:
    """How many modules wide the QR code of ``url`` is, its quiet zone included."""
    import segno  # on first use, like WeasyPrint

    width, _height = segno.make(url, error="m").symbol_size(scale=1, border=2)
    return int(width)


def links_for(puzzles: Iterable[StoredPuzzle], link_root: str | None) -> dict[str, str]:
    """Each puzzle's page on the site, ``{link_root}/p/{id}`` (none without an address)."""
    return {stored.code: f"{link_root}/p/{stored.code}" for stored in puzzles} if link_root else {}


def sheets(puzzles: Iterable[StoredPuzzle], per_page: int, solutions: bool,
           links: Links | None = None, paper: str = "a4", count: int | None = None,
           words: Words = ENGLISH, first: int = 1, variants: bool = False) -> list[Sheet]:
    """The printed boards, each as large as its share of the page allows: ``per_page``
    puzzles to a page, or solutions on the answer key's grid of that many.  ``variants``:
    each caption names its puzzle's variant (a booklet of several, whose title cannot).

    ``links`` gives each puzzle a QR code of its page on the site; a short link (``/s/``)
    is printed under it too, a long one never.  A solution carries only its number, level
    and rating: its puzzle's link is on the worksheet, and an id, long and unreadable on
    paper, is printed nowhere.
    """
    paper = check_paper(paper)
    puzzles = list(puzzles)
    links = links or {}
    total = count or len(puzzles)
    grid = _grid(per_page, solutions)
    least = qr_side(links)
    box_w, box_h = board_box(paper, grid, not solutions, least)
    side = qr_mm(grid.per_page, least) if links and not solutions else 0.0
    out = []
    for number, stored in enumerate(puzzles, start=first):
        drawing = draw_board(stored.puzzle, stored.solution if solutions else None)
        url = None if solutions else links.get(stored.code)
        width, height = drawing.fit(box_w, box_h)
        # A pupil's caption: the shape and level (the booklet's title names the variant,
        # unless it holds several), and the number of cells the general rule points at; a
        # solution's, the level and its rating, for the teacher.
        parts = caption_parts(stored, words, variant=variants, shape=not solutions, rating=solutions,
                              cells=not solutions)
        out.append(Sheet(number, stored, drawing, describe(stored, words), stored.code, url,
                         f"{width}mm", f"{height}mm", of=total, rule=rule_of(stored, words),
                         qr=qr_svg(url) if url else "", qr_mm=side, link_text=_short_text(url),
                         parts=tuple(parts)))
    return out


def _grid(per_page: int, solutions: bool) -> Grid:
    """The page's grid: a worksheet's (1, 2 or 4 to a page) or the answer key's."""
    if solutions:
        return next(grid for grid in SOLUTION_GRIDS if grid.per_page == per_page)
    return PUZZLE_GRIDS[per_page]


def _short_text(url: str | None) -> str:
    """The link as printed: only a short one, without its scheme."""
    if not url or "/s/" not in url:
        return ""
    return url.split("://", 1)[-1]


@functools.lru_cache(maxsize=512)  # the play page prints one at every load when the site has a public address
def qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG (segno), QR_MM square."""
    import segno  # on first use, like WeasyPrint
    from markupsafe import Markup

    code = segno.make(url, error="m")
    # Markup: segno's own SVG markup, with the link inside it escaped by segno.
    return Markup(code.svg_inline(scale=1, border=2, dark="#000000", omitsize=True))


def pages(items: list[Sheet], per_page: int) -> list[list[Sheet]]:
    return [items[i:i + per_page] for i in range(0, len(items), per_page)]


def _environment(words: Words) -> Any:
    """Jinja with the templates' ``_()`` and ``ngettext()`` (newstyle, as Flask-Babel's) in ``words``."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape  # on first use: the CLI starts light

    environment = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html"]),
                              extensions=["jinja2.ext.i18n"])
    environment.install_gettext_translations(words, newstyle=True)  # type: ignore[attr-defined]
    environment.globals["compact_boards"] = True  # _board_svg.html: boards in a few paths, for WeasyPrint's speed
    return environment


def booklet_html(puzzles: list[StoredPuzzle], per_page: int, title: str,
                 links: Links | None = None, paper: str = "a4", name_line: bool = True,
                 lang: str = "en") -> str:
    """The booklet as HTML for WeasyPrint, its words in the language ``lang``."""
    words = words_for(lang)
    page = layout(puzzles, per_page, paper, qr=bool(links), words=words, links=links)
    template = _environment(words).get_template("booklet_pdf.html")
    _width, height = page.content

    several = len({stored.adjacency for stored in puzzles}) > 1  # Hidato and Numbrix in one booklet

    def laid_out(pages: tuple[Page, ...], solutions: bool) -> list[tuple[Grid, list[Sheet]]]:
        return [(grid, sheets([puzzles[i] for i in places], grid.per_page, solutions, None if solutions else links,
                              page.paper, len(puzzles), words, first=places[0] + 1, variants=several))
                for grid, places in pages]

    return template.render(
        lang=lang or "en",
        title=title,
        note=page.note,
        general_rule=_general_rule(puzzles[0], words) if puzzles else "",
        name_line=name_line,
        page_height=f"{height:g}mm",
        # WeasyPrint lays out grids of a fixed height best: the boards' area, in mm.
        sheets_height={"puzzles": f"{height - WORKSHEET_HEAD_MM:g}mm",
                       "solutions": f"{height - SOLUTION_HEAD_MM:g}mm"},
        puzzle_pages=laid_out(page.worksheets, False),
        solution_pages=laid_out(page.solutions, True),
    )


SEED_NOTE = N_("Seed %(seed)s: the same options with this seed make this booklet again.")
SEED_NOTE_MM = 70.0  # its width at the foot of the solution pages: two lines


def page_css(paper: str, words: Words = ENGLISH, seed: int | None = None) -> str:
    """The page box for the paper: its size and margins, and the page headers and footer in
    the booklet's language (booklet.css has the rest, and the English words).  With
    ``seed``, the solution pages (the teacher's, not the pupils') say it at the foot."""
    paper = check_paper(paper)
    size = "A4" if paper == "a4" else "letter"
    box = f"@page {{ size: {size}; margin: {MARGIN_TOP_MM:g}mm {MARGIN_SIDE_MM:g}mm {MARGIN_BOTTOM_MM:g}mm; }}"
    if seed is not None:
        note = _css_string(words.gettext(SEED_NOTE) % {"seed": seed})
        # A width of its own, so the page number in the middle keeps its room (an auto width
        # shares the foot out by the words in each box, and "Page 3 of 4" broke in two).
        box += (f"\n@page solutions {{ @bottom-left {{ content: {note}; width: {SEED_NOTE_MM:g}mm; "
                f"font: 7pt \"DejaVu Sans\", sans-serif; color: #444; text-align: left; }} }}")
    if words is ENGLISH:
        return box
    # "Page 3 of 8": the words around the two counters, each a CSS string.
    footer = words.gettext("Page %(page)s of %(pages)s").replace("%(pages)s", "\0").replace("%(page)s", "\1")
    content = " ".join(_css_string(part) if part not in ("\0", "\1") else
                       ("counter(pages)" if part == "\0" else "counter(page)")
                       for part in re.split(r"(\x00|\x01)", footer) if part)
    puzzles, solutions = _css_string(words.gettext("Puzzles")), _css_string(words.gettext("Solutions"))
    return (f"{box}\n@page {{ @bottom-center {{ content: {content}; }} }}"
            f"\n@page puzzles {{ @top-right {{ content: {puzzles}; }} }}"
            f"\n@page solutions {{ @top-right {{ content: {solutions}; }} }}")


def _css_string(text: str) -> str:
    """Text as a CSS string: quotes and backslashes escaped, nothing else can end it."""
    return '"' + "".join(ch if ch.isalnum() or ch in " .,:;-()" else f"\\{ord(ch):x} " for ch in text) + '"'


def _no_fetch(url: str, *args: Any, **kwargs: Any) -> Any:
    # The booklet is self-contained: nothing is ever loaded from a URL or a file.
    raise ValueError(f"the booklet loads nothing from outside ({url[:60]})")


Stage = tuple[str, int, int]  # ("prepare", "layout" or "write", step or page, of how many): render_pdf's progress
PREPARE_STEPS = 3  # WeasyPrint's own steps before it lays out the first page, as render_pdf reports them


def render_pdf(puzzles: list[StoredPuzzle], per_page: int, title: str = "Hidato puzzles",
               links: Links | None = None, paper: str = "a4", name_line: bool = True,
               lang: str = "en", seed: int | None = None,
               progress: Callable[[Stage], None] | None = None) -> bytes:
    """The PDF: worksheets ``per_page`` to a page, then the solutions, pages numbered.

    ``links``: the link each puzzle's QR code carries (``links_for`` makes them from the
    site's address); none, no QR codes.  ``lang``: the language of its words (a code, not
    a catalogue: this runs in a child process, which loads the catalogue itself).
    ``seed``: the booklet's seed, printed at the foot of the solution pages.
    ``progress`` hears how far it has got: WeasyPrint's steps before the first page,
    ``("prepare", 2, 3)``, each page as WeasyPrint lays it out, ``("layout", 7, 30)``,
    then as it writes it into the PDF, ``("write", 7, 30)``."""
    from weasyprint import CSS, HTML  # imported on first use: it loads Pango

    tell = progress or (lambda stage: None)
    tell(("prepare", 1, PREPARE_STEPS))
    words = words_for(lang)
    html = booklet_html(puzzles, per_page, title, links, paper, name_line, lang)
    expected = layout(puzzles, per_page, paper, qr=bool(links), links=links).page_count
    with _hearing_weasyprint(progress, expected):
        css = CSS(string=STYLESHEET.read_text(encoding="utf-8") + "\n" + page_css(paper, words, seed),
                  url_fetcher=_no_fetch)
        document = HTML(string=html, url_fetcher=_no_fetch).render(stylesheets=[css])
    if progress is not None:
        _hear_writing(document, progress)
    pdf: bytes = document.write_pdf()
    return pdf


class _WeasyPrintProgress(logging.Handler):
    """WeasyPrint's own progress log as stages: "Step 3 - Applying CSS" as ("prepare", 2, 3),
    "Step 5 - Creating layout - Page 7" as ("layout", 7, pages)."""

    STEPS = {"Step 3 - Applying CSS": 2, "Step 4 - Creating formatting structure": 3}

    def __init__(self, progress: Callable[[Stage], None], pages: int):
        super().__init__(logging.INFO)
        self.progress = progress
        self.pages = pages

    def emit(self, record: logging.LogRecord) -> None:
        message, args = str(record.msg), record.args
        if message in self.STEPS:
            self.progress(("prepare", self.STEPS[message], PREPARE_STEPS))
        elif message.startswith("Step 5 - Creating layout - Page %d") and isinstance(args, tuple) and args:
            page = args[0]
            if isinstance(page, int):
                self.progress(("layout", page, max(page, self.pages)))


@contextlib.contextmanager
def _hearing_weasyprint(progress: Callable[[Stage], None] | None, pages: int) -> Iterator[None]:
    """While WeasyPrint reads and lays out the pages, its progress log goes to ``progress``
    (and nowhere else)."""
    if progress is None:
        yield
        return
    logger = logging.getLogger("weasyprint.progress")
    handler = _WeasyPrintProgress(progress, pages)
    saved = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False  # WeasyPrint's steps are ours to show, not the log's
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(saved[0])
        logger.propagate = saved[1]


def _hear_writing(document: Any, progress: Callable[[Stage], None]) -> None:
    """Have each page say when WeasyPrint starts writing it into the PDF (it paints every
    page once, in order, in ``Document.write_pdf``), as ("write", 7, pages)."""
    pages = len(document.pages)
    for number, page in enumerate(document.pages, start=1):
        def paint(*args: Any, _paint: Callable[..., None] = page.paint, _number: int = number, **kwargs: Any) -> None:
            progress(("write", _number, pages))
            _paint(*args, **kwargs)

        page.paint = paint


def title_of(options: BookletOptions, words: Words = ENGLISH) -> str:
    """``12 medium Hidato puzzles, diamond shape`` for the PDF's title and file name (the
    shape after the puzzles: "Hexagon Hex puzzles" said one word twice)."""
    names = {"count": options.count, "level": words.gettext(options.difficulty),
             "variant": words.gettext(variant_of(options.adjacency).label)}
    if options.shape == MIXED:
        return words.ngettext("%(count)s %(level)s %(variant)s puzzle, mixed shapes",
                              "%(count)s %(level)s %(variant)s puzzles, mixed shapes", options.count) % names
    return words.ngettext("%(count)s %(level)s %(variant)s puzzle, %(shape)s shape",
                          "%(count)s %(level)s %(variant)s puzzles, %(shape)s shape", options.count) % {
        **names, "shape": words.gettext(options.shape)}
