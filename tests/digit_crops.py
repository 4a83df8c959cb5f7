"""Cell crops drawn for the digit reader's tests and benchmark: what the photo reader cuts out.

A board's cells share a style, as on paper or in an app: the givens' font, ink and fill,
the player's numbers in another colour and a lighter stroke (typed in an app, or written
by hand, here drawn with OpenCV's stroke fonts, jittered), circles around 1 and N, pencil
notes in a corner.  Each cell is drawn with its neighbours' lines (and fills) around it,
then "photographed": a few degrees of rotation, shear, uneven light, blur, noise, low
resolution and JPEG; the crop is then cut as a reader does, a little inside the cell's
lines but never exactly, so a line may remain along an edge.

``board_crops(rng, ...)`` gives the crops of one board with the truth of each.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation"))
Colour = tuple[int, int, int]  # RGB

# Fills of given cells in apps and on paper (RGB), and of plain cells.
PLAIN_FILLS: tuple[Colour, ...] = ((255, 255, 255), (250, 250, 247), (232, 228, 218), (245, 240, 225))
GIVEN_FILLS: tuple[Colour, ...] = ((232, 235, 240), (210, 210, 210), (255, 236, 150), (200, 225, 255),
                                   (205, 240, 205), (255, 210, 170), (180, 180, 185))
PRINTED_INKS: tuple[Colour, ...] = ((0, 0, 0), (17, 24, 32), (40, 40, 40), (25, 25, 60))
WRITTEN_INKS: tuple[Colour, ...] = ((31, 79, 160), (31, 63, 122), (20, 90, 200), (200, 30, 30), (20, 130, 60),
                                    (95, 95, 100))
HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_PLAIN,
           cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX_SMALL)


@cache
def fonts() -> tuple[Path, ...]:
    """Every TrueType font of the DejaVu and Liberation families installed (not the maths one)."""
    found = [p for d in FONT_DIRS if d.is_dir() for p in sorted(d.glob("*.ttf")) if "Math" not in p.name]
    if not found:
        raise RuntimeError("no DejaVu or Liberation fonts under /usr/share/fonts/truetype")
    return tuple(found)


@dataclass(frozen=True)
class Truth:
    """What a crop shows: its number (None: empty) and how it was put there."""

    value: int | None
    kind: str  # "empty", "printed", "written"
    what: str  # finer: "blank", "note", "lines", "circle", "printed", "written", "hand"


@dataclass(frozen=True)
class BoardStyle:
    """What all cells of one board share."""

    font: Path
    bold: bool
    digit_height: float  # of the cell's side
    ink: Colour
    given_fill: Colour | None  # None: givens on the plain paper
    paper: Colour
    line: Colour
    line_width: float  # of the cell's side
    written_ink: Colour
    written_font: Path | None  # None: handwriting (OpenCV's stroke fonts)
    cell_px: int  # the cell's side in the photo
    circles: bool
    dark: bool  # an app's dark mode: light digits on dark cells


def random_style(rng: random.Random, *, dark: bool | None = None) -> BoardStyle:
    """A board's look, drawn at random."""
    all_fonts = fonts()
    font = rng.choice(all_fonts)
    dark = rng.random() < 0.08 if dark is None else dark
    paper = (44, 51, 62) if dark else rng.choice(PLAIN_FILLS)
    given_fill = None if rng.random() < 0.4 else rng.choice(GIVEN_FILLS)
    if dark:
        given_fill = rng.choice(((30, 34, 42), (60, 66, 80), None))
    ink = (244, 246, 248) if dark else rng.choice(PRINTED_INKS)
    written_ink = (140, 192, 255) if dark else rng.choice(WRITTEN_INKS)
    typed = [f for f in all_fonts if "Bold" not in f.name]
    return BoardStyle(
        font=font, bold="Bold" in font.name, digit_height=rng.uniform(0.34, 0.55), ink=ink, given_fill=given_fill,
        paper=paper, line=(120, 130, 140) if dark else rng.choice(((0, 0, 0), (60, 60, 60), (150, 150, 150))),
        line_width=rng.uniform(0.012, 0.06), written_ink=written_ink,
        written_font=rng.choice(typed) if rng.random() < 0.6 else None,
        cell_px=rng.choice((26, 32, 40, 48, 56, 64, 80, 100)), circles=rng.random() < 0.5, dark=dark)


def _text_layer(text: str, font: Path, px: float, scale: int) -> np.ndarray:
    """The text drawn white on black with a TrueType font, cut to its ink; digits ``px`` tall."""
    face = ImageFont.truetype(str(font), size=max(4, int(px * scale * 1.38)))
    left, top, right, bottom = face.getbbox(text)
    image = Image.new("L", (int(right - left) + 4, int(bottom - top) + 4), 0)
    ImageDraw.Draw(image).text((2 - left, 2 - top), text, font=face, fill=255)
    layer = np.asarray(image)
    ys, xs = np.nonzero(layer)
    layer = layer[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    height = px * scale
    return cv2.resize(layer, (max(1, round(layer.shape[1] * height / layer.shape[0])), max(1, round(height))),
                      interpolation=cv2.INTER_AREA)


def _hand_layer(rng: random.Random, text: str, px: float, scale: int) -> np.ndarray:
    """The text as if written with a pen: a stroke font, each digit jittered and slanted."""
    face = rng.choice(HERSHEY)
    pieces = []
    for ch in text:
        (w, h), _ = cv2.getTextSize(ch, face, 4.0, 1)
        thickness = rng.randint(5, 11)
        canvas: np.ndarray = np.zeros((h * 2 + 40, w * 2 + 40), np.uint8)
        cv2.putText(canvas, ch, (20, h + 20), face, 4.0, 255, thickness, cv2.LINE_AA)
        shear = rng.uniform(-0.25, 0.15)
        m = np.array([[rng.uniform(0.85, 1.1), shear, 0], [0, 1, 0]], dtype=np.float32)
        canvas = cv2.warpAffine(canvas, m, (canvas.shape[1] + 40, canvas.shape[0]))
        ys, xs = np.nonzero(canvas > 40)
        piece: np.ndarray = canvas[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        height = px * scale * rng.uniform(0.9, 1.1)
        piece = cv2.resize(piece, (max(1, round(piece.shape[1] * height / piece.shape[0])), max(1, round(height))),
                           interpolation=cv2.INTER_AREA)
        pieces.append(piece)
    gap = max(1, round(px * scale * rng.uniform(0.05, 0.2)))
    height = max(p.shape[0] for p in pieces)
    width = sum(p.shape[1] for p in pieces) + gap * (len(pieces) - 1)
    layer = np.zeros((height + 2, width), np.uint8)
    x = 0
    for p in pieces:
        y = rng.randint(0, height - p.shape[0] + 2)
        layer[y:y + p.shape[0], x:x + p.shape[1]] = np.maximum(layer[y:y + p.shape[0], x:x + p.shape[1]], p)
        x += p.shape[1] + gap
    return layer


def _paint(canvas: np.ndarray, layer: np.ndarray, centre: tuple[float, float], ink: Colour) -> None:
    """Put a white-on-black coverage layer onto the canvas in the ink's colour, centred."""
    h, w = layer.shape
    x0, y0 = round(centre[0] - w / 2), round(centre[1] - h / 2)
    x1, y1 = max(0, x0), max(0, y0)
    x2, y2 = min(canvas.shape[1], x0 + w), min(canvas.shape[0], y0 + h)
    if x2 <= x1 or y2 <= y1:
        return
    alpha = layer[y1 - y0:y2 - y0, x1 - x0:x2 - x0, None].astype(np.float32) / 255
    region = canvas[y1:y2, x1:x2].astype(np.float32)
    canvas[y1:y2, x1:x2] = (region * (1 - alpha) + np.array(ink, dtype=np.float32) * alpha).astype(np.uint8)


def draw_cell(rng: random.Random, style: BoardStyle, truth: Truth, *, upside_down: bool = False,
              photo: bool = True) -> np.ndarray:
    """One cell of a board in this style, photographed and cut as the reader does (BGR)."""
    scale = 4  # drawn four times larger, then shrunk: edges antialiased as a camera sees them
    side = style.cell_px * scale
    size = side * 3  # the cell and its neighbours all round
    canvas: np.ndarray = np.empty((size, size, 3), np.uint8)
    canvas[:] = style.paper
    given = truth.kind == "printed"
    # Neighbours' fills (some of them givens) and this cell's.
    for r in range(3):
        for c in range(3):
            here = (r, c) == (1, 1)
            fill = style.given_fill if (given if here else rng.random() < 0.3) else None
            if fill is not None:
                canvas[r * side:(r + 1) * side, c * side:(c + 1) * side] = fill
    line = max(1, round(style.line_width * side))
    for k in range(4):
        cv2.rectangle(canvas, (k * side - line // 2, -10), (k * side + (line - 1) // 2, size + 10), style.line, -1)
        cv2.rectangle(canvas, (-10, k * side - line // 2), (size + 10, k * side + (line - 1) // 2), style.line, -1)
    centre = (1.5 * side + rng.uniform(-0.03, 0.03) * side, 1.5 * side + rng.uniform(-0.03, 0.03) * side)
    if truth.value is not None:
        text = str(truth.value)
        px = style.digit_height * (0.85 if len(text) == 3 else 1.0) * style.cell_px
        if truth.what == "hand":
            layer = _hand_layer(rng, text, px * rng.uniform(0.9, 1.15), scale)
        elif truth.kind == "written":
            layer = _text_layer(text, style.written_font or style.font, px, scale)
        else:
            layer = _text_layer(text, style.font, px, scale)
        if layer.shape[1] > 0.7 * side:  # three wide digits: narrower, as apps squeeze them
            layer = cv2.resize(layer, (round(0.7 * side), layer.shape[0]), interpolation=cv2.INTER_AREA)
        _paint(canvas, layer, centre, style.ink if given else style.written_ink)
    if truth.what == "circle":
        radius = round(side * rng.uniform(0.36, 0.46))
        width = max(2, round(side * rng.uniform(0.015, 0.045)))
        cv2.circle(canvas, (round(centre[0]), round(centre[1])), radius, style.ink, width, cv2.LINE_AA)
    if truth.what == "note":
        _draw_notes(rng, canvas, style, side)
    if photo:
        canvas = _photograph(rng, canvas, style.cell_px)
        cell = style.cell_px
    else:
        canvas = cv2.resize(canvas, (style.cell_px * 3, style.cell_px * 3), interpolation=cv2.INTER_AREA)
        cell = style.cell_px
    # The reader's cut: some margin inside the lines, not exactly placed.
    margin = rng.uniform(0.02, 0.09) * cell
    dx, dy = rng.uniform(-0.04, 0.04) * cell, rng.uniform(-0.04, 0.04) * cell
    x0, y0 = round(cell + margin + dx), round(cell + margin + dy)
    w = round(cell - 2 * margin + rng.uniform(-0.03, 0.03) * cell)
    h = round(cell - 2 * margin + rng.uniform(-0.03, 0.03) * cell)
    crop = np.ascontiguousarray(canvas[y0:y0 + h, x0:x0 + w, ::-1])  # RGB to BGR
    return np.ascontiguousarray(crop[::-1, ::-1]) if upside_down else crop


def _draw_notes(rng: random.Random, canvas: np.ndarray, style: BoardStyle, side: int) -> None:
    """A player's pencil marks: a few tiny numbers in a corner or along the top."""
    count = rng.randint(1, 4)
    text = " ".join(str(rng.randint(1, 99)) for _ in range(count))
    px = side / 4 * rng.uniform(0.13, 0.2)
    layer = _text_layer(text, style.written_font or style.font, px, 4)
    if layer.shape[1] > 0.8 * side:
        layer = cv2.resize(layer, (round(0.8 * side), layer.shape[0]), interpolation=cv2.INTER_AREA)
    corner = rng.choice(("top", "bottom"))
    y = side + (0.17 if corner == "top" else 0.83) * side
    x = side + side * 0.12 + layer.shape[1] / 2 if rng.random() < 0.7 else 1.5 * side
    _paint(canvas, layer, (x, y), style.written_ink)


def _photograph(rng: random.Random, canvas: np.ndarray, cell_px: int) -> np.ndarray:
    """The drawing as a camera gives it: turned a little, sheared, lit unevenly, blurred, noisy, JPEG."""
    size = canvas.shape[0]
    angle = rng.uniform(-4, 4)
    m = cv2.getRotationMatrix2D((size / 2, size / 2), angle, 1.0)
    m[0, 1] += rng.uniform(-0.04, 0.04)
    canvas = cv2.warpAffine(canvas, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    small: np.ndarray = cv2.resize(canvas, (cell_px * 3, cell_px * 3), interpolation=cv2.INTER_AREA).astype(np.float32)
    # Light: a gradient across the cell and sometimes a shadow's edge.
    yy, xx = np.mgrid[0:small.shape[0], 0:small.shape[1]].astype(np.float32) / small.shape[0]
    theta = rng.uniform(0, 2 * math.pi)
    light = 1 - rng.uniform(0, 0.35) * (np.cos(theta) * xx + np.sin(theta) * yy)
    if rng.random() < 0.1:
        edge = rng.uniform(0.3, 0.7)
        light *= np.where(np.cos(theta) * xx + np.sin(theta) * yy > edge, rng.uniform(0.6, 0.85), 1.0)
    small *= light[..., None]
    sigma = rng.choice((0, 0, 0.5, 0.8, 1.2)) * cell_px / 48
    if sigma > 0.2:
        small = cv2.GaussianBlur(small, (0, 0), sigma)
    small += np.float32(rng.uniform(0, 10)) * np.random.default_rng(rng.getrandbits(32)).standard_normal(
        small.shape).astype(np.float32)
    image = np.clip(small, 0, 255).astype(np.uint8)
    quality = rng.randint(35, 95)
    ok, data = cv2.imencode(".jpg", image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
    assert decoded is not None
    return np.ascontiguousarray(decoded[..., ::-1])


def board_crops(rng: random.Random, *, cells: int = 40, most: int | None = None, written: float = 0.0,
                style: BoardStyle | None = None, notes: float = 0.08, upside_down: bool = False,
                photo: bool = True, givens: float = 0.3) -> tuple[list[np.ndarray], list[Truth], int]:
    """The crops of one board of ``cells`` cells (numbers 1..most) with the truth of each.

    About ``givens`` of the cells hold a printed number, ``written`` of them a player's;
    ``notes`` of the empty ones pencil marks; 1 and N circled when the style circles."""
    style = style or random_style(rng)
    most = most or cells
    values = rng.sample(range(1, most + 1), min(cells, most))
    crops, truths = [], []
    for value in values:
        roll = rng.random()
        if roll < givens:
            circled = style.circles and value in (1, most)
            truth = Truth(value, "printed", "circle" if circled else "printed")
        elif roll < givens + written:
            hand = style.written_font is None
            truth = Truth(value, "written", "hand" if hand else "written")
        else:
            truth = Truth(None, "empty", "note" if rng.random() < notes else "blank")
        crops.append(draw_cell(rng, style, truth, upside_down=upside_down, photo=photo))
        truths.append(truth)
    return crops, truths, most
