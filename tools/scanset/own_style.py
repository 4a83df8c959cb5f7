"""A second drawing of boards, our own with Pillow: other fonts, coloured givens, circles
around 1 and N, thin or thick lines, tiles with gaps, holes left blank or shaded, flat-
and pointy-top hexes, and a player's numbers in another colour.

The cells' geometry is the site's (``webapp.paper.drawing.draw_board``: squares, or
pointy-top hexagons in the odd-r layout); a flat-top board is the same geometry turned
by 30 or 90 degrees with its numbers kept upright.  Everything is drawn at twice the
size and reduced, which smooths the edges as a screen or a printer does.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine import Cell, Puzzle
from webapp.paper.drawing import draw_board

Colour = tuple[int, int, int]
Point = tuple[float, float]
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation"))
SUPERSAMPLE = 2

# Fonts for printed numbers: Debian's DejaVu (fonts-dejavu-core, which WeasyPrint needs)
# and Liberation (fonts-liberation, which Chromium pulls in): sans, serif, mono, condensed.
GIVEN_FONTS = (
    "DejaVuSans-Bold.ttf", "DejaVuSans.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansMono-Bold.ttf",
    "DejaVuSansCondensed-Bold.ttf", "LiberationSans-Bold.ttf", "LiberationSans-Regular.ttf",
    "LiberationSerif-Bold.ttf", "LiberationSerif-Regular.ttf", "LiberationMono-Bold.ttf",
    "LiberationSansNarrow-Bold.ttf",
)
# A player's numbers: lighter, often slanted (typed in an app, or written in pen).
ENTRY_FONTS = ("DejaVuSans.ttf", "DejaVuSans-ExtraLight.ttf", "DejaVuSans-Oblique.ttf", "LiberationSans-Italic.ttf",
               "DejaVuSerif-Italic.ttf", "LiberationSans-Regular.ttf", "DejaVuSansCondensed-Oblique.ttf")
SERIF_FONTS = ("DejaVuSerif-Bold.ttf", "DejaVuSerif.ttf", "LiberationSerif-Bold.ttf", "LiberationSerif-Regular.ttf",
               "DejaVuSerifCondensed-Bold.ttf")
WORDS = ("the", "of", "and", "puzzle", "number", "city", "council", "weather", "report", "market", "local", "team",
         "season", "week", "said", "after", "new", "plans", "school", "river", "road", "year", "night", "game",
         "league", "points", "rain", "sunny", "shares", "prices", "music", "show", "opens", "mayor", "vote")


@lru_cache(maxsize=64)
def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    """A TrueType font of Debian's by file name."""
    for folder in FONT_DIRS:
        if (folder / name).exists():
            return ImageFont.truetype(str(folder / name), size)
    raise FileNotFoundError(f"font {name} not found in {', '.join(map(str, FONT_DIRS))} "
                            "(apt-get install fonts-dejavu-core fonts-dejavu-extra fonts-liberation)")


@dataclass(frozen=True)
class Theme:
    """How a board is drawn."""

    paper: Colour = (255, 255, 255)
    cell: Colour | None = None  # the empty cells' fill (None: the paper)
    line: Colour = (40, 40, 40)
    thin: float = 0.03  # lines between cells, in cells
    outline: float = 0.08  # the board's edge, in cells (0: the thin line)
    outline_colour: Colour = (0, 0, 0)
    given_fill: Colour | None = None
    given_ink: Colour = (0, 0, 0)
    given_font: str = "DejaVuSans-Bold.ttf"
    digits: float = 0.55  # the numbers' height in cells (two digits; three are narrower to fit)
    circles: Colour | None = None  # rings around 1 and N
    circle_width: float = 0.06
    holes: str = "blank"  # "blank" (not drawn) or "shaded" (a filled square in the grid)
    hole_fill: Colour = (30, 30, 30)
    tiles: float = 0.0  # gap between cells drawn as separate rounded tiles, in cells (0: a grid)
    tile_round: float = 0.14  # a square tile's corner radius over its side (0.5: round cells)
    entry_ink: Colour = (30, 80, 200)
    entry_font: str = "DejaVuSans.ttf"
    entry_jitter: float = 0.0  # a hand's wobble: offset (cells) and tilt (x 30 degrees)
    hex_turn: int = 0  # degrees the odd-r geometry is turned (30, -30, 90, -90: flat-top cells)

    def turned(self, turn: int) -> Theme:
        return replace(self, hex_turn=turn)


@dataclass
class BoardPicture:
    """A drawn board on its own canvas, and where it lies there."""

    image: Image.Image
    box: tuple[float, float, float, float]  # the board's left, top, right, bottom in pixels
    cell: float  # a cell's width in pixels
    notes: dict[str, object] = field(default_factory=dict)


def _rotate(point: Point, degrees: float) -> Point:
    a = math.radians(degrees)
    x, y = point
    return x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)


def draw(puzzle: Puzzle, theme: Theme, cell: float, entries: dict[Cell, int] | None = None,
         margin: float = 0.6, rng: random.Random | None = None) -> BoardPicture:
    """The board of ``puzzle`` (and ``entries`` in the player's colour), ``cell`` pixels a
    cell, ``margin`` cells of paper around it."""
    rng = rng or random.Random(0)
    k = SUPERSAMPLE
    drawing = draw_board(puzzle)
    side = 40.0  # drawing.py's SIDE: a square's side, a hexagon's width
    scale = cell * k / side
    turn = theme.hex_turn if drawing.hex else 0
    polygons = {s.cell: [_rotate(p, turn) for p in s.corners] for s in drawing.cells}
    xs = [x for poly in polygons.values() for x, _ in poly]
    ys = [y for poly in polygons.values() for _, y in poly]
    pad = margin * side
    left, top = min(xs) - pad, min(ys) - pad
    width = (max(xs) - min(xs) + 2 * pad) * scale
    height = (max(ys) - min(ys) + 2 * pad) * scale

    def at(p: Point) -> Point:
        return (p[0] - left) * scale, (p[1] - top) * scale

    image = Image.new("RGB", (math.ceil(width), math.ceil(height)), theme.paper)
    canvas = ImageDraw.Draw(image)
    thin = max(round(1.5 * k), round(theme.thin * cell * k))  # never under 1.5 px: a line shows
    cells = {c: [at(p) for p in poly] for c, poly in polygons.items()}
    centres = {c: (sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly))
               for c, poly in cells.items()}
    if theme.holes == "shaded" and not drawing.hex:
        _shade_holes(canvas, puzzle, at, theme, thin)
    _cells(canvas, puzzle, cells, centres, theme, cell * k, thin)
    if theme.outline and not theme.tiles:
        wide = max(thin, round(theme.outline * cell * k))
        for a, b in drawing.edges:
            p, q = at(_rotate(a, turn)), at(_rotate(b, turn))
            canvas.line([p, q], fill=theme.outline_colour, width=wide)
            for x, y in (p, q):
                canvas.ellipse((x - wide / 2, y - wide / 2, x + wide / 2, y + wide / 2), fill=theme.outline_colour)
    _numbers(image, puzzle, centres, theme, cell * k, entries or {}, rng, drawing.hex)
    out = image.reduce(k) if k > 1 else image
    board_box = ((min(xs) - left) * scale / k, (min(ys) - top) * scale / k,
                 (max(xs) - left) * scale / k, (max(ys) - top) * scale / k)
    return BoardPicture(out, board_box, cell)


def _cells(canvas: ImageDraw.ImageDraw, puzzle: Puzzle, cells: dict[Cell, list[Point]],
           centres: dict[Cell, Point], theme: Theme, cell: float, thin: int) -> None:
    """Each cell's fill (or tile), then the lines between cells."""
    for c, poly in cells.items():
        fill = theme.given_fill if c in puzzle.givens and theme.given_fill else (theme.cell or theme.paper)
        if theme.tiles:
            _tile(canvas, poly, centres[c], theme.tiles * cell, fill, theme.line if theme.thin else None, thin,
                  theme.tile_round)
        else:
            canvas.polygon(poly, fill=fill)
    if not theme.tiles and theme.thin:
        for poly in cells.values():
            canvas.line([*poly, poly[0]], fill=theme.line, width=thin, joint="curve")


def _numbers(image: Image.Image, puzzle: Puzzle, centres: dict[Cell, Point], theme: Theme, cell: float,
             entries: dict[Cell, int], rng: random.Random, hex_board: bool) -> None:
    """The rings around 1 and N, the givens, and the player's numbers (a hand's wobble)."""
    canvas = ImageDraw.Draw(image)
    n = puzzle.size
    if theme.circles:
        for c, value in puzzle.givens.items():
            if value in (1, n):
                x, y = centres[c]
                r = 0.4 * cell
                canvas.ellipse((x - r, y - r, x + r, y + r), outline=theme.circles,
                               width=max(1, round(theme.circle_width * cell)))
    room = cell * (0.62 if hex_board else 0.78)
    widest = "8" * len(str(n))  # every number in one size: the one that lets N fit
    given_face = _face(theme.given_font, theme.digits * cell, room, widest)
    entry_face = _face(theme.entry_font, theme.digits * cell, room * 0.92, widest)
    for c, value in puzzle.givens.items():
        _number(image, str(value), centres[c], given_face, theme.given_ink, 0.0)
    for c, value in entries.items():
        wobble = theme.entry_jitter * cell * 0.1
        x, y = centres[c]
        _number(image, str(value), (x + rng.uniform(-wobble, wobble), y + rng.uniform(-wobble, wobble)), entry_face,
                theme.entry_ink, rng.uniform(-8, 8) * theme.entry_jitter)


def _shade_holes(canvas: ImageDraw.ImageDraw, puzzle: Puzzle, place: Callable[[Point], Point], theme: Theme,
                 thin: int) -> None:
    """Holes inside the board's bounding grid drawn as filled squares, as many newspapers do."""
    board = puzzle.board
    side = 40.0
    for r in range(board.rows):
        for c in range(board.cols):
            if (r, c) not in board.cell_set:
                corners = [(c * side, r * side), ((c + 1) * side, r * side), ((c + 1) * side, (r + 1) * side),
                           (c * side, (r + 1) * side)]
                poly = [place(p) for p in corners]
                canvas.polygon(poly, fill=theme.hole_fill)
                canvas.line([*poly, poly[0]], fill=theme.line, width=thin)


def _tile(canvas: ImageDraw.ImageDraw, poly: Sequence[Point], centre: Point, gap: float, fill: Colour,
          line: Colour | None, thin: int, rounded: float = 0.14) -> None:
    """A cell as a tile: its polygon shrunk towards its centre, corners rounded for squares
    (by ``rounded`` of the side; 0.5 or more: a round cell, a hexagon's too)."""
    cx, cy = centre
    shrunk = []
    for x, y in poly:
        d = math.hypot(x - cx, y - cy)
        f = max(0.0, (d - gap / 2 * math.sqrt(2 if len(poly) == 4 else 1.15)) / d) if d else 1.0
        shrunk.append((cx + (x - cx) * f, cy + (y - cy) * f))
    if rounded >= 0.5:
        r = min(math.hypot(x - cx, y - cy) for x, y in shrunk) * (math.sqrt(0.5) if len(poly) == 4 else 0.87)
        canvas.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=line, width=thin if line else 0)
    elif len(poly) == 4:
        xs, ys = [p[0] for p in shrunk], [p[1] for p in shrunk]
        box = (min(xs), min(ys), max(xs), max(ys))
        canvas.rounded_rectangle(box, radius=(box[2] - box[0]) * rounded, fill=fill, outline=line,
                                 width=thin if line else 0)
    else:
        canvas.polygon(shrunk, fill=fill, outline=line, width=thin if line else 0)


def _face(name: str, height: float, room: float, widest: str) -> ImageFont.FreeTypeFont:
    """The font ``name`` at the size whose digits are ``height`` tall, smaller if ``widest``
    would then be wider than ``room``."""
    size = max(6, round(height * 1.35))  # a font's size is about 1.35 times its digits' height
    left, _top, right, _bottom = font(name, size).getbbox(widest, anchor="mm")
    if right - left > room:
        size = max(6, int(size * room / (right - left)))
    return font(name, size)


def _number(image: Image.Image, text: str, centre: Point, face: ImageFont.FreeTypeFont, ink: Colour,
            tilt: float) -> None:
    """``text`` centred on ``centre``, turned by ``tilt`` degrees."""
    x, y = centre
    if not tilt:
        ImageDraw.Draw(image).text((x, y), text, fill=ink, font=face, anchor="mm")
        return
    # Tilted: drawn on a small transparent layer, turned, and pasted over the cell.
    box = round(face.size * 2.2)
    layer = Image.new("L", (box * 2, box * 2), 0)
    ImageDraw.Draw(layer).text((box, box), text, fill=255, font=face, anchor="mm")
    layer = layer.rotate(tilt, resample=Image.Resampling.BICUBIC)
    solid = Image.new("RGB", layer.size, ink)
    image.paste(solid, (round(x - box), round(y - box)), layer)


def words(rng: random.Random, count: int) -> str:
    """A line of newspaper-like words, a number now and then (page furniture, never a board)."""
    out = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.08:
            out.append(str(rng.randint(1, 2030)))
        elif roll < 0.1:
            out.append(f"{rng.randint(1, 12)}:{rng.randint(0, 59):02d}")
        else:
            out.append(rng.choice(WORDS))
    return " ".join(out)
