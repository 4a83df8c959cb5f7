"""A puzzle's board as a PNG picture, for the preview a shared link shows (Open Graph).

Social sites take PNG or JPEG, not SVG, so the one drawing of a board (``drawing.py``)
is painted here with Pillow: 1200x630 pixels (the size Facebook, LinkedIn and X show
large), the board centred and as large as it fits above a line of words, the givens in
bold, the empty cells blank.  Drawn at twice the size and scaled down, which smooths
the edges; a 21x21 board takes a few tens of milliseconds.

Pure Python, no Flask.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any

from engine import Puzzle

from .drawing import THICK, Drawing, draw_board

WIDTH, HEIGHT = 1200, 630
PAD = 36  # pixels around the board
CAPTION = 64  # the band under the board for the words
SUPERSAMPLE = 2
INK = (0, 0, 0)
GRID = (122, 122, 122)
GIVEN_FILL = (232, 232, 232)
PAPER = (255, 255, 255)
MUTED = (68, 68, 68)


@lru_cache(maxsize=32)
def _font(size: int, bold: bool) -> Any:
    """DejaVu Sans (Debian's fonts-dejavu-core, which WeasyPrint uses too), else Pillow's own."""
    from PIL import ImageFont

    try:
        return ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default(size)


def board_box(drawing: Drawing, caption: bool = True) -> tuple[float, float, float, float]:
    """Where the board's outline goes in the final picture: (left, top, right, bottom) in pixels."""
    room_w = WIDTH - 2 * PAD
    room_h = HEIGHT - 2 * PAD - (CAPTION if caption else 0)
    outer_w, outer_h = drawing.width + 2 * THICK, drawing.height + 2 * THICK
    scale = min(room_w / outer_w, room_h / outer_h)
    left = (WIDTH - drawing.width * scale) / 2
    top = PAD + (room_h - drawing.height * scale) / 2
    return left, top, left + drawing.width * scale, top + drawing.height * scale


def preview_png(puzzle: Puzzle, caption: str = "") -> bytes:
    """The board of ``puzzle`` (givens only) as a WIDTHxHEIGHT PNG, ``caption`` under it."""
    from PIL import Image, ImageDraw  # on first use, like WeasyPrint

    drawing = draw_board(puzzle)
    k = SUPERSAMPLE
    left, top, right, _bottom = board_box(drawing, bool(caption))
    scale = (right - left) / drawing.width * k

    def at(point: tuple[float, float]) -> tuple[float, float]:
        return left * k + point[0] * scale, top * k + point[1] * scale

    image = Image.new("RGB", (WIDTH * k, HEIGHT * k), PAPER)
    draw = ImageDraw.Draw(image)
    thin = max(1, round(drawing.thin * scale))
    for shape in drawing.cells:
        draw.polygon([at(p) for p in shape.corners], fill=GIVEN_FILL if shape.given else PAPER,
                     outline=GRID, width=thin)
    thick = max(2, round(drawing.thick * scale))
    for a, b in drawing.edges:
        (x0, y0), (x1, y1) = at(a), at(b)
        draw.line((x0, y0, x1, y1), fill=INK, width=thick)
        for x, y in ((x0, y0), (x1, y1)):  # round caps, as the SVG's stroke-linecap
            draw.ellipse((x - thick / 2, y - thick / 2, x + thick / 2, y + thick / 2), fill=INK)
    font = _font(max(6, round(drawing.font_size * scale)), True)
    for shape in drawing.cells:
        if shape.given:
            xs, ys = zip(*(at(p) for p in shape.corners), strict=True)
            draw.text((sum(xs) / len(xs), sum(ys) / len(ys)), shape.text, fill=INK, font=font, anchor="mm")
    if caption:
        draw.text((WIDTH * k / 2, (HEIGHT - PAD - CAPTION / 2 + 8) * k), caption, fill=MUTED,
                  font=_font(26 * k, False), anchor="mm")
    out = io.BytesIO()
    image.reduce(k).save(out, "PNG")
    return out.getvalue()
