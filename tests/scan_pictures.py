"""Pictures of boards for the reader's tests: drawn in a few styles, then "photographed".

``draw`` paints a puzzle from the site's own geometry (``paper.drawing``) in a style:
ours (grey givens, thin grey lines, a thick outline), or another app's (coloured givens,
circles around 1 and N, thick lines all over, a player's numbers in blue, another font),
square or hexagonal, pointy-top or turned to flat-top.  ``photograph`` puts that sheet
on a table and takes a 12-MP phone picture of it: perspective, a turn, light falling
off, a shadow, blur, noise, JPEG, and optionally an EXIF orientation tag.  Everything
random comes from a seed, so a test sees the same picture every time.

The test set engineer's generator (``tools/scan_testset.py``) makes the benchmark's
pictures; these are the few the unit tests need, small and quick.
"""

from __future__ import annotations

import io
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine import Cell, Puzzle
from webapp.paper.drawing import SIDE, draw_board

FONTS = "/usr/share/fonts/truetype/"


@dataclass(frozen=True)
class Style:
    """How a board is drawn."""

    line: tuple[int, int, int] = (122, 122, 122)  # lines between cells (RGB)
    thin: float = 1.0  # their width, in SVG units of a 40-unit cell
    thick: float = 4.0  # the outline's
    given_fill: tuple[int, int, int] | None = (232, 232, 232)
    font: str = "dejavu/DejaVuSans-Bold.ttf"
    font_scale: float = 1.0
    circles: bool = False  # a ring around 1 and N
    entries_colour: tuple[int, int, int] = (20, 70, 200)  # a player's numbers
    vanish: bool = False  # no line between two given (coloured) cells
    turn: float = 0.0  # degrees the board's geometry is turned (90: flat-top hexagons), numbers upright
    holes_fill: tuple[int, int, int] | None = None  # interior holes painted (None: blank paper)


OURS = Style()
APP = Style(line=(60, 60, 60), thin=2.0, thick=2.0, given_fill=(255, 214, 140),
            font="liberation/LiberationSans-Regular.ttf", font_scale=1.1, circles=True, vanish=True)
NEWSPAPER = Style(line=(0, 0, 0), thin=1.5, thick=3.0, given_fill=None, font="liberation/LiberationSerif-Bold.ttf",
                  holes_fill=(30, 30, 30))


def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONTS + path, size)


def draw(puzzle: Puzzle, style: Style = OURS, cell_px: int = 80, entries: dict[Cell, int] | None = None,
         margin: float = 1.0) -> np.ndarray:
    """The board as an RGB picture on white paper, ``cell_px`` pixels a cell, ``margin``
    cells of paper around it."""
    drawing = draw_board(puzzle, values=entries)
    k = 2  # drawn at twice the size and scaled down: smooth edges
    unit = cell_px / SIDE * k
    angle = math.radians(style.turn)
    cos, sin = math.cos(angle), math.sin(angle)
    points = [p for shape in drawing.cells for p in shape.corners]
    cx = sum(x for x, _ in points) / len(points)
    cy = sum(y for _, y in points) / len(points)

    def turned(p: tuple[float, float]) -> tuple[float, float]:
        x, y = p[0] - cx, p[1] - cy
        return x * cos - y * sin, x * sin + y * cos

    placed = [turned(p) for p in points]
    left = min(x for x, _ in placed)
    top = min(y for _, y in placed)
    width = max(x for x, _ in placed) - left
    height = max(y for _, y in placed) - top
    pad = margin * SIDE

    def at(p: tuple[float, float]) -> tuple[float, float]:
        x, y = turned(p)
        return (x - left + pad) * unit, (y - top + pad) * unit

    size = (round((width + 2 * pad) * unit), round((height + 2 * pad) * unit))
    image = Image.new("RGB", size, (255, 255, 255))
    pen = ImageDraw.Draw(image)
    thin = max(1, round(style.thin * unit))
    thick = max(1, round(style.thick * unit))
    givens = puzzle.givens
    for shape in drawing.cells:
        fill = style.given_fill if shape.cell in givens and style.given_fill else (255, 255, 255)
        pen.polygon([at(p) for p in shape.corners], fill=fill)
    _draw_lines(pen, drawing, givens, style, at, thin, thick)
    if style.holes_fill is not None:
        _paint_holes(pen, puzzle, at, style.holes_fill)
    _draw_numbers(pen, drawing, puzzle.size, style, at, unit, thin)
    return np.asarray(image.reduce(k))


Place = Callable[[tuple[float, float]], tuple[float, float]]


def _draw_lines(pen: ImageDraw.ImageDraw, drawing: Any, givens: Mapping[Cell, int], style: Style, at: Place,
                thin: int, thick: int) -> None:
    """Every side of every cell (unless both cells are given and the style lets it
    vanish), then the board's outline, thick."""
    sides: dict[tuple[tuple[float, float], tuple[float, float]], list[Cell]] = {}
    for shape in drawing.cells:
        corners = [(round(x, 2), round(y, 2)) for x, y in shape.corners]
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            sides.setdefault((min(a, b), max(a, b)), []).append(shape.cell)
    for (a, b), owners in sides.items():
        if style.vanish and len(owners) == 2 and all(o in givens for o in owners):
            continue
        pen.line([at(a), at(b)], fill=style.line, width=thin)
    for a, b in drawing.edges:
        pen.line([at(a), at(b)], fill=(0, 0, 0), width=thick)
        for x, y in (at(a), at(b)):
            pen.ellipse((x - thick / 2, y - thick / 2, x + thick / 2, y + thick / 2), fill=(0, 0, 0))


def _draw_numbers(pen: ImageDraw.ImageDraw, drawing: Any, n: int, style: Style, at: Place, unit: float,
                  thin: int) -> None:
    """The numbers, centred in their cells; a ring around 1 and N if the style has them."""
    font_px = round(drawing.font_size * unit * style.font_scale)
    font = _font(style.font, font_px)
    for shape in drawing.cells:
        if not shape.text:
            continue
        xs, ys = zip(*(at(p) for p in shape.corners), strict=True)
        centre = (sum(xs) / len(xs), sum(ys) / len(ys))
        colour = (0, 0, 0) if shape.given else style.entries_colour
        pen.text(centre, shape.text, fill=colour, font=font, anchor="mm")
        if style.circles and shape.given and shape.text in ("1", str(n)):
            radius = 0.42 * SIDE * unit
            pen.ellipse((centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius),
                        outline=(200, 30, 30), width=max(2, thin))


def _paint_holes(pen: ImageDraw.ImageDraw, puzzle: Puzzle, at: Callable[..., Any], fill: tuple[int, int, int]) -> None:
    """Interior holes of a square board painted solid (a newspaper's black squares)."""
    board = puzzle.board
    if board.adjacency == "hex":
        return
    for r in range(board.rows):
        row = [c for rr, c in board.cells if rr == r]
        if not row:
            continue
        for c in range(min(row), max(row) + 1):
            if (r, c) not in board.cell_set:
                corners = [(c * SIDE, r * SIDE), ((c + 1) * SIDE, r * SIDE), ((c + 1) * SIDE, (r + 1) * SIDE),
                           (c * SIDE, (r + 1) * SIDE)]
                pen.polygon([at(p) for p in corners], fill=fill)


@dataclass(frozen=True)
class Camera:
    """How the sheet is photographed."""

    seed: int = 0
    size: tuple[int, int] = (4000, 3000)  # the picture, 12 MP
    fill: float = 0.7  # the sheet's share of the picture's shorter side
    turn: float = 0.0  # degrees the sheet is turned on the table
    tilt: float = 0.12  # perspective: how much nearer one side is
    blur: float = 1.2  # Gaussian sigma in pixels of the 12-MP picture
    noise: float = 4.0
    light: float = 0.35  # how much the light falls off across the picture
    shadow: float = 0.3  # darkness of a shadow over part of the sheet (0: none)
    quality: int = 70
    exif: int = 1  # EXIF orientation tag: the pixels are stored turned so that applying it shows them upright
    curl: float = 0.0  # how far the sheet's middle bows, as a share of its height
    glare: float = 0.0  # a lamp's reflection: how much it whitens the brightest spot (0..1)


def photograph(sheet: np.ndarray, camera: Camera = Camera()) -> bytes:
    """A JPEG of the RGB ``sheet`` lying on a table, as a phone takes it."""
    rng = random.Random(camera.seed)
    cv2.setRNGSeed(camera.seed)
    w, h = camera.size
    # A wooden table (BGR), grainy; everything in uint8 with OpenCV: 12 MP stays quick.
    grain: np.ndarray = np.empty((h // 4, w // 4, 3), np.int16)
    cv2.randn(grain, np.zeros(3), np.full(3, 12.0))
    table: np.ndarray = np.empty((h // 4, w // 4, 3), np.uint8)
    table[:] = (96, 120, 150)
    table = cv2.resize(cv2.add(table, grain, dtype=cv2.CV_8U), (w, h), interpolation=cv2.INTER_LINEAR)
    if camera.curl:
        sheet = _curled(sheet, camera.curl)
    sh, sw = sheet.shape[:2]
    scale = camera.fill * min(w, h) / max(sw, sh)
    half_w, half_h = sw * scale / 2, sh * scale / 2
    turn = math.radians(camera.turn)
    corners = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        x, y = sx * half_w, sy * half_h
        # Perspective: the far side (top) shrinks; a little random jitter at each corner.
        near = 1 - camera.tilt * (1 - sy) / 2
        x *= near
        x += rng.uniform(-0.02, 0.02) * w
        y += rng.uniform(-0.02, 0.02) * h
        corners.append((w / 2 + x * math.cos(turn) - y * math.sin(turn),
                        h / 2 + x * math.sin(turn) + y * math.cos(turn)))
    source = np.array([(0, 0), (sw, 0), (sw, sh), (0, sh)], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(source, np.array(corners, dtype=np.float32))
    paper = cv2.cvtColor(sheet, cv2.COLOR_RGB2BGR)
    picture = cv2.warpPerspective(paper, matrix, (w, h), dst=table, flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_TRANSPARENT)
    # Light falling off from one corner, and a soft shadow across part of the sheet:
    # worked out at an eighth of the size (they are smooth) and enlarged.
    sw8, sh8 = w // 8, h // 8
    yy, xx = np.mgrid[0:sh8, 0:sw8].astype(np.float32)
    ax, ay = rng.uniform(-1, 1), rng.uniform(-1, 1)
    ramp = (xx / sw8 - 0.5) * ax + (yy / sh8 - 0.5) * ay
    light = 1 - camera.light * (ramp - ramp.min()) / max(1e-6, float(ramp.max() - ramp.min()))
    if camera.shadow:
        shade: np.ndarray = np.zeros((sh8, sw8), np.float32)
        x0 = rng.uniform(0.2, 0.8) * sw8
        poly = np.array([(x0, 0), (x0 + rng.uniform(0.1, 0.4) * sw8, 0), (x0 + rng.uniform(-0.2, 0.3) * sw8, sh8),
                         (x0 - 0.2 * sw8, sh8)], dtype=np.int32)
        cv2.fillPoly(shade, [poly], 1.0)
        shade = cv2.GaussianBlur(shade, (0, 0), 60 / 8)
        light *= 1 - camera.shadow * shade
    light8 = cv2.resize(np.clip(light * 255, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
    picture = cv2.multiply(picture, cv2.merge([light8, light8, light8]), scale=1 / 255)
    if camera.glare:
        # A soft white spot somewhere on the sheet, saturating at its heart.
        spot: np.ndarray = np.zeros((sh8, sw8), np.float32)
        cx, cy = rng.uniform(0.35, 0.65) * sw8, rng.uniform(0.35, 0.65) * sh8
        cv2.ellipse(spot, (int(cx), int(cy)), (int(0.08 * sw8), int(0.05 * sh8)), rng.uniform(0, 180), 0, 360, 1.0, -1)
        spot = cv2.GaussianBlur(spot, (0, 0), 0.03 * sw8)
        spot8 = cv2.resize(np.clip(spot * camera.glare * 2 * 255, 0, 255).astype(np.uint8), (w, h))
        picture = cv2.add(picture, cv2.merge([spot8, spot8, spot8]))
    if camera.blur:
        picture = cv2.GaussianBlur(picture, (0, 0), camera.blur)
    noise: np.ndarray = np.empty((h, w, 3), np.int16)
    cv2.randn(noise, np.zeros(3), np.full(3, float(camera.noise)))
    out = cv2.add(picture, noise, dtype=cv2.CV_8U)
    return _jpeg(out, camera.quality, camera.exif)


def _curled(sheet: np.ndarray, curl: float) -> np.ndarray:
    """The sheet bowed: its middle column pushed down by ``curl`` of its height, the
    edges not at all (a page lifting off the table), on a wider white margin."""
    h, w = sheet.shape[:2]
    pad = int(abs(curl) * h) + 2
    sheet = cv2.copyMakeBorder(sheet, pad, pad, 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255))
    h2 = sheet.shape[0]
    xs = np.tile(np.arange(w, dtype=np.float32), (h2, 1))
    ys = np.tile(np.arange(h2, dtype=np.float32)[:, None], (1, w))
    ys -= (curl * h * np.sin(np.pi * xs / w)).astype(np.float32)
    return cv2.remap(sheet, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(255, 255, 255))


def page(sheet: np.ndarray, seed: int = 0) -> np.ndarray:
    """The board on a newspaper's page: a title above, lines of text above and below."""
    rng = random.Random(seed)
    h, w = sheet.shape[:2]
    line = max(12, w // 40)
    top, bottom = 4 * line, 6 * line
    image = Image.new("RGB", (w + 2 * line, h + top + bottom), (255, 255, 255))
    image.paste(Image.fromarray(sheet), (line, top))
    pen = ImageDraw.Draw(image)
    pen.text((line, line // 2), f"HIDATO No. {rng.randint(100, 999)}", fill=(0, 0, 0),
             font=_font("liberation/LiberationSerif-Bold.ttf", 2 * line))
    words = ["fill", "the", "grid", "with", "consecutive", "numbers", "that", "touch", "each", "other", "along",
             "a", "side", "or", "a", "corner"]
    body = _font("liberation/LiberationSerif-Regular.ttf", int(0.8 * line))
    for k in range(4):
        text = " ".join(rng.choice(words) for _ in range(40))
        pen.text((line, top + h + line // 2 + k * line * 1.3), text, fill=(20, 20, 20), font=body)
    return np.asarray(image)


def newsprint(sheet: np.ndarray, seed: int = 0) -> np.ndarray:
    """Cheap grey paper: tinted, fibrous, the ink not quite black."""
    rng = np.random.default_rng(seed)
    paper = np.array([226, 222, 208], np.float32)
    ink = np.array([45, 45, 50], np.float32)
    tone = sheet.astype(np.float32).mean(axis=2, keepdims=True) / 255.0
    out = ink + (paper - ink) * tone
    fibres = cv2.GaussianBlur(rng.standard_normal(sheet.shape[:2], dtype=np.float32), (0, 0), 1.5) * 18
    out += fibres[..., None]
    colour = sheet.astype(np.float32) - sheet.astype(np.float32).mean(axis=2, keepdims=True)
    return np.clip(out + 0.6 * colour, 0, 255).astype(np.uint8)


# Pixels stored for each EXIF orientation so that the tag turns them back upright.
_STORED = {1: None, 3: cv2.ROTATE_180, 6: cv2.ROTATE_90_COUNTERCLOCKWISE, 8: cv2.ROTATE_90_CLOCKWISE}


def _jpeg(bgr: np.ndarray, quality: int, orientation: int) -> bytes:
    turn = _STORED[orientation]
    stored = bgr if turn is None else cv2.rotate(bgr, turn)
    image = Image.fromarray(cv2.cvtColor(stored, cv2.COLOR_BGR2RGB))
    out = io.BytesIO()
    exif = Image.Exif()
    if orientation != 1:
        exif[0x0112] = orientation
    image.save(out, "JPEG", quality=quality, exif=exif.tobytes())
    return out.getvalue()


def screenshot(sheet: np.ndarray) -> bytes:
    """The sheet as a PNG, as a screenshot of an app is."""
    out = io.BytesIO()
    Image.fromarray(sheet).save(out, "PNG")
    return out.getvalue()
