"""One picture of the set from its ``Spec``: the puzzle made, drawn, laid on its sheet,
photographed or saved flat, and its ground truth.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image

from engine import Cell, Puzzle
from webapp.paper.drawing import extent

from . import our_style, sheet
from .camera import develop, jpeg
from .own_style import draw
from .plan import Booklet, Spec
from .puzzles import entries_of, make

Box = tuple[float, float, float, float]


@dataclass
class Picture:
    """A finished picture and what it shows."""

    data: bytes
    ext: str
    puzzle: Puzzle
    entries: dict[Cell, int]
    width: int  # as shown (EXIF orientation applied)
    height: int


def render(spec: Spec, seed: int, shots: object = None) -> Picture:
    """The picture of ``spec``; ``shots`` is the open site session for play, solver and
    print pictures (``site_shots.Site``)."""
    rng = random.Random(f"{seed}/{spec.name}/draw")
    if spec.kind == "booklet":
        assert spec.booklet is not None
        puzzle = _booklet(spec.booklet)[1][spec.page - 1]
        image = our_style.rasterise(_booklet(spec.booklet)[0], spec.dpi, spec.page, spec.page)[0]
        w, h = image.size
        box: Box = (0.1 * w, 0.15 * h, 0.9 * w, 0.8 * h)  # the worksheet's board area
        return _finish(spec, seed, image, box, puzzle, {})
    assert spec.board is not None
    made = make(spec.board)
    entries = entries_of(made, spec.entries, spec.name) if spec.entries else {}
    if spec.kind == "own":
        assert spec.theme is not None
        margin = {"plain": 1.0, "page": 6.0}.get(spec.layout, 0.6)
        drawn = draw(made.puzzle, spec.theme, _cell(spec, made.puzzle), entries, margin=margin, rng=rng)
        if spec.layout == "book":
            image, box = sheet.book(drawn, made, rng, spec.theme)
        elif spec.layout.startswith("news"):
            image, box = sheet.news(drawn, made, rng, spec.theme, solution_beside=spec.layout.endswith("solution"))
        elif spec.layout.startswith("app"):
            image, box = sheet.app(drawn, made, rng, spec.theme, pad=spec.layout.endswith("pad"))
        else:
            image, box = sheet.plain(drawn)
        return _finish(spec, seed, image, box, made.puzzle, entries)
    if spec.kind == "ours":
        margin = 18.0 if spec.shot else 6.0
        pdf, _width = our_style.board_pdf(made.puzzle, entries or None, margin_mm=margin)
        image = our_style.rasterise(pdf, spec.dpi)[0]
        pad = margin / 25.4 * spec.dpi
        w, h = image.size
        return _finish(spec, seed, image, (pad, pad, w - pad, h - pad), made.puzzle, entries)
    from .site_shots import Site

    assert isinstance(shots, Site), "play, solver and print pictures need the site (site_shots.Site)"
    image, box = shots.picture(spec, made, entries)
    return _finish(spec, seed, image, box, made.puzzle, entries)


def _cell(spec: Spec, puzzle: Puzzle) -> float:
    """A cell's width on the flat sheet: the spec's; on an app's screen, what fills its width;
    for a photo, a little more than it will have in the photo, so thin lines survive the shot."""
    wide, high = (v / 40 + 1.2 for v in extent(puzzle.board))
    if spec.theme is not None and spec.theme.hex_turn:
        wide = high = max(wide, high)
    if spec.layout.startswith("app"):
        return min((1080 - 60) / wide, (2340 - 1000) / high)
    if spec.shot is not None:
        in_photo = spec.shot.fill * min(spec.shot.width, spec.shot.height) / max(wide, high)
        return float(min(220, max(spec.cell, round(in_photo * 1.5))))
    return float(spec.cell)


@lru_cache(maxsize=8)
def _booklet(booklet: Booklet) -> tuple[bytes, list[Puzzle]]:
    url = "https://hidato.example.org" if booklet.qr else None
    pdf = our_style.booklet_pdf(booklet.shape, booklet.size, booklet.adjacency, booklet.difficulty, booklet.count,
                                booklet.seed, url=url)
    puzzles = our_style.booklet_puzzles(booklet.shape, booklet.size, booklet.adjacency, booklet.difficulty,
                                        booklet.count, booklet.seed)
    return pdf, puzzles


def _finish(spec: Spec, seed: int, image: Image.Image, box: Box, puzzle: Puzzle, entries: dict[Cell, int]) -> Picture:
    """Photographed (JPEG with EXIF) or saved flat in the spec's format."""
    if spec.shot is not None:
        bgr = cv2.cvtColor(np.asarray(image.convert("RGB")), cv2.COLOR_RGB2BGR)
        photo = develop(bgr, box, spec.shot, np.random.default_rng(_number(f"{seed}/{spec.name}/camera")))
        data = jpeg(photo, spec.shot.quality, spec.shot.orientation)
        return Picture(data, "jpg", puzzle, entries, spec.shot.width, spec.shot.height)
    out = io.BytesIO()
    flat = image.convert("RGB")
    if spec.fmt == "jpg":
        flat.save(out, "JPEG", quality=spec.quality, optimize=True)
    elif spec.fmt == "webp":
        flat.save(out, "WEBP", quality=spec.quality, method=4)
    else:
        flat.save(out, "PNG", optimize=True)
    return Picture(out.getvalue(), spec.fmt, puzzle, entries, flat.size[0], flat.size[1])


def _number(text: str) -> int:
    """A seed for NumPy from a name (random.Random hashes strings with SHA-512: the same everywhere)."""
    return random.Random(text).getrandbits(64)
