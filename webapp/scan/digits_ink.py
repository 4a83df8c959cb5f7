"""Where a cell's number is: its ink found apart from the border lines, a circle, pencil
notes, shadows and fills, and the number cut out as a line the OCR model reads.

Colour-blind to polarity and fills: every pixel's distance (in RGB) from the cell's
paper colour (the median of the crop) is its "ink", so black on grey, blue on white,
white on dark blue and yellow-filled cells are alike.  A morphological top-hat keeps
only what is thinner than a quarter of the cell (strokes, lines), so a shadow's edge or a
neighbour's fill at the crop's edge fall away.  The ink's connected pieces are then
judged: lines along an edge, tiny specks and large blots are dropped, a ring (a circle
around the number, or a whole cell border left in the crop) is peeled off what it
encloses, and the tallest pieces that line up form the number.

Everything is measured on the crop shrunk to 64 pixels; the line for the model is cut
from the crop at full resolution (only the number's pieces kept, white elsewhere).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

SIZE = 64  # the working size of a crop, in pixels
HEIGHT = 48  # the OCR model's line height
SMALLEST_NUMBER = 0.26  # a number is at least this tall, of the crop (pencil notes are smaller)
EDGE_BAND = 0.12  # of the crop: pieces lying mostly this close to an edge are border remnants
PAPER = 15  # pixels at SIZE: wider than any digit's stroke, narrower than a fill or a shadow
FAINTEST = 32.0  # the weakest ink, in RGB distance from the paper (noise and JPEG stay below)
WIDEST = 3.2  # a number is at most this many times as wide as tall (three digits are about 2)
PAD = 0.25  # white round the number in the line, of its height
SOFT_FILL = 0.7  # the number's share of the height of the unmasked line read when unsure
SOFT_SIDE = 0.3  # the room either side of it, of the number's height
GROW = 9  # pixels at SIZE round the pieces kept whose fainter ink goes to the model too (a faint
# diagonal, too weak for the pieces, lies between the strokes of a blurred serif 4)


Piece = tuple[int, int, int, int, int]  # a connected piece of ink: label, x, y, width, height


@dataclass(frozen=True)
class Number:
    """The ink of a number found in a crop."""

    line: np.ndarray  # grey uint8, HEIGHT pixels high: the digits dark on white, padded
    height: float  # the number's height, of the crop's
    width: float  # the number's width, of the crop's height
    centre: tuple[float, float]  # of the crop (x, y)
    parts: int  # pieces as tall as the number (usually one per digit)
    ink: tuple[float, float, float]  # BGR of the strokes' cores
    stroke: float  # the strokes' width, of the number's height
    contrast: float  # the strokes' darkest (or lightest) against the paper: 0..1 of what the paper allows
    plain: np.ndarray | None = None  # the number's rows across the whole cell, unmasked: read again when unsure
    soft: np.ndarray | None = None  # the number's own box, unmasked, with room above and below: read when unsure


@dataclass(frozen=True)
class Look:
    """A crop looked at: its paper colour and the number in it, if any."""

    paper: tuple[float, float, float]  # BGR
    number: Number | None
    tallest: float = 0.0  # the tallest piece of ink that might be a digit, of the crop (0: none)


def look(crop: np.ndarray, paper_disc: int = PAPER) -> Look:
    """Find the number in one cell's crop (BGR uint8); ``paper_disc``: the disc (pixels at
    SIZE) the paper behind the strokes is found with (``digits_second`` looks again with a
    wider one at bold, blurred digits whose strokes fill the usual disc)."""
    import cv2
    import numpy as np

    small = cv2.resize(crop, (SIZE, SIZE), interpolation=cv2.INTER_AREA if crop.shape[0] > SIZE else cv2.INTER_LINEAR)
    # The paper behind every pixel: the crop closed (dark ink) or opened (light ink) with a
    # disc wider than any stroke, so every stroke is filled with the paper around it
    # however dense the digits, while a shadow's or a fill's edge stays where it is.
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    low, middle, high = np.percentile(grey, (2, 50, 98))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (paper_disc, paper_disc))
    behind = cv2.morphologyEx(small, cv2.MORPH_CLOSE if middle - low >= high - middle else cv2.MORPH_OPEN, disc)
    small = small.astype(np.float32)
    behind = behind.astype(np.float32)
    paper = np.median(behind.reshape(-1, 3), axis=0)
    strokes = np.sqrt(((small - behind) ** 2).mean(axis=2))
    inner = strokes[SIZE // 6:SIZE - SIZE // 6, SIZE // 6:SIZE - SIZE // 6]
    peak = float(np.percentile(inner, 99.5))
    paper_bgr = (float(paper[0]), float(paper[1]), float(paper[2]))
    if peak < FAINTEST:
        return Look(paper_bgr, None)
    # Hysteresis: strokes are what is clearly ink, grown along fainter ink (a blurred or
    # unevenly lit stroke keeps its faint half).
    strong = strokes > max(FAINTEST * 0.8, 0.45 * peak)
    weak = (strokes > max(FAINTEST * 0.6, 0.3 * peak)).astype(np.uint8)
    count, labels = cv2.connectedComponents(weak, connectivity=8)
    held = np.zeros(count, bool)
    held[labels[strong]] = True
    held[0] = False
    mask = held[labels].astype(np.uint8)
    keep, tallest = _number_pieces(mask)
    if keep is None:
        return Look(paper_bgr, None, tallest)
    return Look(paper_bgr, _number(crop, small, behind, strokes, keep), tallest)


def _number_pieces(mask: np.ndarray) -> tuple[np.ndarray | None, float]:
    """The mask of the number's pieces (uint8 0/1), or None when nothing there is a number;
    and the tallest piece's height, of the crop."""
    import cv2
    import numpy as np

    mask = _peel_rings(_erase_lines(mask))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    inner, edge = _sort_pieces(count, labels, stats)
    if not inner:
        return None, 0.0
    tallest = max(p[4] for p in inner)
    if tallest < SMALLEST_NUMBER * SIZE:
        return None, tallest / SIZE  # only small marks: pencil notes, dirt
    chosen = _choose_pieces(inner, edge, tallest)
    if chosen is None:
        return None, tallest / SIZE
    keep = np.isin(labels, chosen).astype(np.uint8)
    return keep, tallest / SIZE


def _sort_pieces(count: int, labels: np.ndarray, stats: np.ndarray) -> tuple[list[Piece], list[Piece]]:
    """The pieces that could be a number's: those clear of the edges (or mostly), and
    those lying mostly along an edge; specks, blots and border lines left out."""
    import numpy as np

    band = max(2, round(EDGE_BAND * SIZE))
    inner: list[Piece] = []
    edge: list[Piece] = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < 6 or area > 0.45 * SIZE * SIZE:
            continue  # a speck, or a blot no digit makes
        at_edge = x < band or y < band or x + w > SIZE - band or y + h > SIZE - band
        if at_edge and max(w, h) >= 0.7 * SIZE and min(w, h) <= 0.15 * SIZE:
            continue  # a border line
        if at_edge:
            ys, xs = np.nonzero(labels[y:y + h, x:x + w] == i)
            ys, xs = ys + y, xs + x
            near = np.minimum(np.minimum(xs, SIZE - 1 - xs), np.minimum(ys, SIZE - 1 - ys)) < band
            if near.mean() > 0.5:
                edge.append((i, x, y, w, h))
                continue
        inner.append((i, x, y, w, h))
    return inner, edge


def _choose_pieces(inner: list[Piece], edge: list[Piece], tallest: int) -> list[int] | None:
    """The labels of the number's pieces: the tall pieces, then whatever lies within their
    rows (a broken stroke), and a digit the cut came close to: as tall as the others, in
    line with them, beside them.  None when they are off the middle or a long row (notes)."""
    tall = [p for p in inner if p[4] >= 0.55 * tallest]
    top = min(p[2] for p in tall)
    bottom = max(p[2] + p[4] for p in tall)
    left = min(p[1] for p in tall)
    right = max(p[1] + p[3] for p in tall)
    if not 0.25 * SIZE <= (top + bottom) / 2 <= 0.75 * SIZE or right - left > WIDEST * (bottom - top):
        return None  # off the middle, or a long row: a player's notes
    reach = 0.6 * tallest
    chosen = [p[0] for p in tall]
    for p in inner:
        if p not in tall and p[2] >= top - 2 and p[2] + p[4] <= bottom + 2 and p[1] + p[3] >= left - reach \
                and p[1] <= right + reach:
            chosen.append(p[0])
    row = bottom - top
    for p in edge:
        in_line = abs(p[2] - top) <= 0.2 * row + 1 and abs(p[2] + p[4] - bottom) <= 0.2 * row + 1
        beside = p[1] + p[3] >= left - 0.5 * row and p[1] <= right + 0.5 * row
        if in_line and beside and p[3] >= 0.2 * row:
            chosen.append(p[0])
    return chosen


def _erase_lines(mask: np.ndarray) -> np.ndarray:
    """The mask without the border lines along its edges, even where a digit touches them."""
    import cv2
    import numpy as np

    found = cv2.HoughLinesP(mask, 1, np.pi / 180, round(0.55 * SIZE), minLineLength=round(0.7 * SIZE), maxLineGap=4)
    if found is None:
        return mask
    band = EDGE_BAND * SIZE
    mask = mask.copy()
    for x1, y1, x2, y2 in found[:, 0].tolist():
        dx, dy = x2 - x1, y2 - y1
        if abs(dx) <= 0.15 * abs(dy):  # upright: at the left or right edge?
            middle, across = (x1 + x2) / 2, mask[(y1 + y2) // 2, :]
        elif abs(dy) <= 0.15 * abs(dx):
            middle, across = (y1 + y2) / 2, mask[:, (x1 + x2) // 2]
        else:
            continue
        if band <= middle <= SIZE - 1 - band:
            continue  # inside the cell: a digit's stroke
        width = _run(across, round(middle))
        # Drawn right across the crop, a little wider than measured.
        length = max(abs(dx), abs(dy))
        ux, uy = dx / length, dy / length
        start = (round(x1 - ux * SIZE), round(y1 - uy * SIZE))
        end = (round(x2 + ux * SIZE), round(y2 + uy * SIZE))
        cv2.line(mask, start, end, 0, thickness=width + 2)
    return mask


def _run(values: np.ndarray, at: int) -> int:
    """How many set pixels in a row there are through ``at``."""
    if not values[at]:
        return 1
    low = high = at
    while low > 0 and values[low - 1]:
        low -= 1
    while high < len(values) - 1 and values[high + 1]:
        high += 1
    return high - low + 1


def _peel_rings(mask: np.ndarray) -> np.ndarray:
    """The mask without the circle drawn round a number (what touches it stays)."""
    import cv2
    import numpy as np

    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    for i in range(1, count):
        if max(stats[i][2], stats[i][3]) < 0.5 * SIZE:
            continue
        ys, xs = np.nonzero(labels == i)
        circle = _circle(xs.astype(np.float32), ys.astype(np.float32))
        if circle is not None:
            cx, cy, radius, width = circle
            on = np.abs(np.hypot(xs - cx, ys - cy) - radius) <= width
            mask = mask.copy()
            mask[ys[on], xs[on]] = 0
    return mask


def _circle(xs: np.ndarray, ys: np.ndarray) -> tuple[float, float, float, float] | None:
    """The circle these pixels draw (centre, radius, half its line's width), if they draw
    one: fitted again and again to the pixels near it, so digits inside it do not count."""
    import numpy as np

    centre = SIZE / 2
    near = np.hypot(xs - centre, ys - centre) > 0.25 * SIZE  # start from what lies out of the middle
    cx = cy = radius = 0.0
    spread = np.zeros(0, np.float32)
    for _ in range(5):
        if near.sum() < 20:
            return None
        x, y = xs[near], ys[near]
        a = np.stack([x, y, np.ones_like(x)], axis=1)
        solution, *_ = np.linalg.lstsq(a, -(x * x + y * y), rcond=None)
        cx, cy = -solution[0] / 2, -solution[1] / 2
        squared = cx * cx + cy * cy - solution[2]
        if squared <= 0:
            return None
        radius = float(np.sqrt(squared))
        off = np.abs(np.hypot(xs - cx, ys - cy) - radius)
        spread = off[near]
        # Digits touching the circle pull the fit; a band no wider than a circle's line
        # keeps them out once the circle is roughly found.
        near = off <= max(1.5, min(2.5 * float(np.median(spread)), 0.1 * radius))
    if not (0.3 * SIZE <= radius <= 0.8 * SIZE and 0.2 * SIZE <= cx <= 0.8 * SIZE and 0.2 * SIZE <= cy <= 0.8 * SIZE):
        return None
    if float(np.median(spread)) > 0.08 * radius:
        return None  # a thick or oval shape (a digit's bowl), not a thin circle
    # It goes round: most of the circle that lies inside the crop is drawn.
    bins = 32
    angles = np.arctan2(ys[near] - cy, xs[near] - cx)
    drawn = np.zeros(bins, bool)
    drawn[((angles + np.pi) / (2 * np.pi) * bins).astype(int) % bins] = True
    around = (np.arange(bins) + 0.5) / bins * 2 * np.pi - np.pi
    px, py = cx + radius * np.cos(around), cy + radius * np.sin(around)
    visible = (px >= 0) & (px <= SIZE - 1) & (py >= 0) & (py <= SIZE - 1)
    if visible.sum() < bins // 2 or (drawn & visible).sum() < 0.75 * visible.sum():
        return None
    # Its line's half width from every pixel near it: the band the fit kept may be narrower
    # than a thick circle's line, whose remnants would pass for digits.
    line = off[off <= max(1.5, 2.5 * float(np.median(spread)))]
    return float(cx), float(cy), radius, float(np.percentile(line, 90)) + 1.0


def _number(crop: np.ndarray, small: np.ndarray, behind: np.ndarray, distance: np.ndarray,
            keep: np.ndarray) -> Number:
    """Measure the number's pieces and cut its line from the full-size crop."""
    import cv2
    import numpy as np

    ys, xs = np.nonzero(keep)
    top, bottom, left, right = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
    height = bottom - top
    count, _, stats, _ = cv2.connectedComponentsWithStats(keep, connectivity=8)
    parts = sum(1 for i in range(1, count) if stats[i][3] >= 0.6 * height)
    values = distance[keep == 1]
    level = float(np.percentile(values, 80))
    # The strongest ink against what the paper allows: black on white is 1, pencil less.
    paper_grey = float(np.median(cv2.cvtColor(behind.astype(np.uint8), cv2.COLOR_BGR2GRAY)[keep == 1]))
    strongest = float(np.percentile(values, 95))
    contrast = min(1.0, strongest / max(paper_grey, 255 - paper_grey, 1.0) * 1.1)
    # The ink's colour from the strokes' cores: their edges are mixed with the paper.
    core = (keep == 1) & (distance >= np.percentile(values, 85))
    ink = small[core].mean(axis=0) if core.any() else small[keep == 1].mean(axis=0)
    boundary = int((keep & ~cv2.erode(keep, np.ones((3, 3), np.uint8)).astype(bool)).sum())
    stroke = 2.0 * float(keep.sum()) / max(boundary, 1) / height
    # The line: the number's box with a white margin, cut from the full-size crop.
    rows, cols = crop.shape[:2]
    sy, sx = rows / SIZE, cols / SIZE
    pad = PAD * height
    y0, y1 = (top - pad) * sy, (bottom + pad) * sy
    x0, x1 = (left - pad) * sx, (right + pad) * sx
    # Round the pieces, the faint edges of their strokes (blur, antialiasing) belong to them.
    grown = cv2.dilate(keep, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (GROW, GROW)))
    full_keep = cv2.resize(grown, (cols, rows), interpolation=cv2.INTER_NEAREST)
    paper = cv2.resize(behind, (cols, rows), interpolation=cv2.INTER_LINEAR)
    full = np.sqrt(((crop.astype(np.float32) - paper) ** 2).mean(axis=2))
    plain = _plain(crop, paper, full_keep, y0, y1)
    soft = _soft(crop, full_keep, top * sy, bottom * sy, left * sx, right * sx, paper)
    full[full_keep == 0] = 0.0
    # Full black from 70 % of the strokes' usual ink: a thin stroke blurred by the camera (the
    # diagonal of a serif 4) stays dark enough for the model to see it.
    grey = 255.0 - np.clip(full * (255.0 / max(0.7 * level, FAINTEST)), 0, 255)
    by0, by1, bx0, bx1 = round(y0), max(round(y1), round(y0) + 1), round(x0), max(round(x1), round(x0) + 1)
    box = np.full((by1 - by0, bx1 - bx0), 255.0, np.float32)
    iy0, iy1, ix0, ix1 = max(0, by0), min(rows, by1), max(0, bx0), min(cols, bx1)
    box[iy0 - by0:iy1 - by0, ix0 - bx0:ix1 - bx0] = grey[iy0:iy1, ix0:ix1]
    width = max(HEIGHT // 2, round(box.shape[1] * HEIGHT / box.shape[0]))
    shrink = box.shape[0] > HEIGHT
    line = cv2.resize(box, (width, HEIGHT), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_CUBIC)
    return Number(
        line=np.clip(line, 0, 255).astype(np.uint8), height=height / SIZE, width=(right - left) / SIZE,
        centre=((left + right) / 2 / SIZE, (top + bottom) / 2 / SIZE), parts=parts,
        ink=(float(ink[0]), float(ink[1]), float(ink[2])), stroke=stroke, contrast=contrast, plain=plain, soft=soft)


def _plain(crop: np.ndarray, paper: np.ndarray, keep: np.ndarray, y0: float, y1: float) -> np.ndarray:
    """The number's rows across the cell inside its border band, the crop's own grey with
    its contrast stretched, every ink kept: in a small blurred cell the pieces may miss a
    digit or part of one, which the model still reads in the picture itself."""

    rows, cols = crop.shape[:2]
    band_x, band_y = round(EDGE_BAND * cols), round(EDGE_BAND * rows)
    top, bottom = max(band_y, round(y0)), min(rows - band_y, round(y1))
    if bottom - top < 4:
        top, bottom = band_y, rows - band_y
    grey = _dark_on_light(crop, keep, paper)
    return _stretched_line(grey[top:bottom, band_x:cols - band_x], 90)


def _soft(crop: np.ndarray, keep: np.ndarray, top: float, bottom: float, left: float, right: float,
          paper: np.ndarray) -> np.ndarray:
    """The number's box in the crop's own grey, unmasked and unthresholded, a little wider
    than its pieces and with the number filling ``SOFT_FILL`` of the line's height: a
    small number blurred by the camera keeps its grey strokes and the paper between them
    (the pieces, cut at a threshold, merge an 8 into a blob and lose a 6's loop)."""

    rows, cols = crop.shape[:2]
    height = bottom - top
    room = height * (1 / SOFT_FILL - 1) / 2
    y0, y1 = max(0, round(top - room)), min(rows, round(bottom + room))
    x0, x1 = max(0, round(left - SOFT_SIDE * height)), min(cols, round(right + SOFT_SIDE * height))
    grey = _dark_on_light(crop, keep, paper)
    return _stretched_line(grey[y0:max(y1, y0 + 1), x0:max(x1, x0 + 1)], 95)


def _dark_on_light(crop: np.ndarray, keep: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """The crop in grey (float), turned over when its ink ``keep`` is lighter than the
    paper, so the model always sees dark digits on a light ground."""
    import cv2
    import numpy as np

    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    paper_grey = float(cv2.cvtColor(paper.astype(np.uint8), cv2.COLOR_BGR2GRAY).mean())
    if keep.any() and float(grey[keep > 0].mean()) > paper_grey:
        grey = 255.0 - grey  # light digits on a dark cell
    return grey


def _stretched_line(box: np.ndarray, high_percentile: int) -> np.ndarray:
    """``box`` with its contrast stretched (2nd to ``high_percentile``th percentile onto
    0..255) and scaled to the model's line height."""
    import cv2
    import numpy as np

    low, high = np.percentile(box, (2, high_percentile))
    box = np.clip((box - low) * (255.0 / max(1.0, float(high - low))), 0, 255)
    width = max(HEIGHT // 2, round(box.shape[1] * HEIGHT / box.shape[0]))
    shrink = box.shape[0] > HEIGHT
    line = cv2.resize(box, (width, HEIGHT), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_CUBIC)
    return np.clip(line, 0, 255).astype(np.uint8)
