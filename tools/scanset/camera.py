"""A flat picture of a sheet "photographed" with a phone, with OpenCV and NumPy.

``Shot`` says how: the frame's size, how much of it the sheet fills, its turn (any
angle), the camera's tilt (perspective), the paper's curl (a smooth displacement),
newsprint (greyish paper, grain, ink soaked in), the light (a gradient, a shadow, a
glare, a colour cast), focus and shake (blur), sensor noise, JPEG quality and the
EXIF orientation the camera writes (the pixels are stored turned to match, as phones
do).  ``develop`` makes the picture as shown; ``jpeg`` writes it.

The board's box on the sheet is kept inside the frame: what a person photographing a
puzzle does, even when the page around it is cut off.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

Box = tuple[float, float, float, float]  # left, top, right, bottom in pixels


@dataclass(frozen=True)
class Shot:
    """How a sheet is photographed."""

    width: int = 1600  # the picture as shown (after the EXIF orientation)
    height: int = 1200
    fill: float = 0.75  # the board's larger side over the frame's smaller one
    turn: float = 0.0  # degrees, counter-clockwise, of the sheet in the frame
    tilt: float = 0.08  # perspective: how much nearer one edge of the sheet is (0..0.3)
    curl: float = 0.0  # the paper's bend, as a share of the sheet's height (0..0.04)
    newsprint: bool = False
    background: str = "wood"  # wood, desk, cloth, dark
    gradient: float = 0.2  # the light falling off across the frame (0..0.5)
    shadow: float = 0.0  # how dark a shadow across part of the sheet is (0..0.6)
    glare: float = 0.0  # a bright spot (0..0.5)
    warmth: float = 0.0  # a colour cast: > 0 warm (lamp), < 0 cold (daylight in shade)
    blur: float = 0.6  # Gaussian sigma in pixels of the frame
    shake: int = 0  # length in pixels of a motion blur (0: none)
    noise: float = 2.0  # sensor noise, sigma in grey levels
    quality: int = 80  # JPEG quality
    orientation: int = 1  # EXIF orientation: 1 upright, 3 upside down, 6 and 8 a quarter turn

    def describe(self) -> dict[str, object]:
        """The shot as a plain dict, for the manifest."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def newsprint(sheet: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Greyish, slightly yellow paper with fibres and grain; ink soaked in and never black."""
    img: np.ndarray = sheet.astype(np.float32) / 255.0
    img = cv2.GaussianBlur(img, (0, 0), 0.7)  # the ink spreads in the paper
    h, w = img.shape[:2]
    paper = np.array([0.80, 0.83, 0.84], np.float32) + rng.uniform(-0.04, 0.03, 3).astype(np.float32)  # BGR
    ink = np.float32(rng.uniform(0.12, 0.25))
    # Fibres: a faint mottle a few pixels across, and grain; no clouds (newsprint is even).
    fibres = _smooth_noise(rng, h, w, max(h, w) / 300, 0.012) + _smooth_noise(rng, h, w, 1.5, 0.02)
    base = paper[None, None, :] + fibres[..., None]
    # Where the sheet is white the paper shows; where it is dark, the ink (not pure black).
    out = img * (base - ink) + ink
    return np.clip(out * 255.0, 0, 255).astype(np.uint8)


def _smooth_noise(rng: np.random.Generator, h: int, w: int, scale: float, amplitude: float) -> np.ndarray:
    """Noise smoothed over ``scale`` pixels, with standard deviation about ``amplitude``."""
    small_h, small_w = max(2, int(h / max(scale, 1))), max(2, int(w / max(scale, 1)))
    field: np.ndarray = rng.standard_normal((small_h, small_w)).astype(np.float32)
    field = cv2.resize(field, (w, h), interpolation=cv2.INTER_CUBIC)
    std = float(field.std()) or 1.0
    return field * np.float32(amplitude / std)


def _background(rng: np.random.Generator, kind: str, w: int, h: int) -> np.ndarray:
    """A table, a desk, a cloth or a dark surface around the sheet (BGR, float 0..1)."""
    if kind == "wood":
        base = np.array([0.25, 0.42, 0.62], np.float32) * rng.uniform(0.7, 1.1)
        angle = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        along = xx * math.cos(angle) + yy * math.sin(angle)
        across = -xx * math.sin(angle) + yy * math.cos(angle)
        wobble = _smooth_noise(rng, h, w, max(w, h) / 8, 25.0)
        grain = np.sin((across + wobble) / rng.uniform(6, 14)) * 0.06 + np.sin(along / 400.0) * 0.02
        field = grain + _smooth_noise(rng, h, w, 3, 0.02)
        return np.clip(base[None, None, :] * (1 + field[..., None]), 0, 1)
    if kind == "cloth":
        base = rng.uniform(0.25, 0.7, 3).astype(np.float32)
        field = _smooth_noise(rng, h, w, 1.5, 0.03) + _smooth_noise(rng, h, w, max(w, h) / 5, 0.05)
        return np.clip(base[None, None, :] * (1 + field[..., None]), 0, 1)
    level = 0.12 if kind == "dark" else rng.uniform(0.45, 0.7)
    base = np.array([level, level, level], np.float32) + rng.uniform(-0.03, 0.03, 3).astype(np.float32)
    field = _smooth_noise(rng, h, w, max(w, h) / 4, 0.04) + _smooth_noise(rng, h, w, 2, 0.01)
    return np.clip(base[None, None, :] + field[..., None], 0, 1)


def _curled(sheet: np.ndarray, amount: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The sheet bent like paper that does not lie flat: a smooth displacement, and the
    shading the bend gives (to multiply the light by)."""
    h, w = sheet.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = xx / w, yy / h
    lift = amount * h
    # A page curling up at one side edge and sagging in the middle, plus a gentle wave.
    edge = rng.choice([0.0, 1.0])
    bend = (np.abs(u - edge) ** 2.5) * lift + np.sin(v * math.pi * rng.uniform(0.6, 1.4)) * lift * 0.3
    dy = bend * (v - 0.5) * 0.6 + bend * 0.5
    dx = np.sin(v * math.pi) * lift * 0.25 * (u - 0.5)
    map_x = (xx + dx).astype(np.float32)
    map_y = (yy - dy + float(dy.mean())).astype(np.float32)
    out = cv2.remap(sheet, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    shade = 1.0 - np.clip(np.gradient(bend, axis=1) * w / max(lift, 1e-6) * 0.02, -0.06, 0.1)
    return out, shade.astype(np.float32)


def _corners(shot: Shot, sheet_w: int, sheet_h: int, board: Box, rng: np.random.Generator) -> np.ndarray:
    """Where the sheet's four corners go in the frame: scaled so the board fills
    ``shot.fill``, tilted, turned, and placed so the board stays inside the frame."""
    bl, bt, br, bb = board
    scale = shot.fill * min(shot.width, shot.height) / max(br - bl, bb - bt)
    src = np.array([[0, 0], [sheet_w, 0], [sheet_w, sheet_h], [0, sheet_h]], np.float32)
    # Perspective: the camera leans towards one side of the sheet, which shrinks the far side.
    side = int(rng.integers(4))
    shrink = shot.tilt * rng.uniform(0.6, 1.0)
    pts = src.copy()
    far = {0: (0, 1), 1: (1, 2), 2: (2, 3), 3: (3, 0)}[side]
    middle = pts[list(far)].mean(axis=0)
    for i in far:
        pts[i] = middle + (pts[i] - middle) * (1 - shrink)
    pts += rng.normal(0, shot.tilt * 0.15, pts.shape).astype(np.float32) * np.float32(min(sheet_w, sheet_h))
    a = math.radians(-shot.turn)  # counter-clockwise on screen, where y runs downwards
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], np.float32)
    centre = np.array([(bl + br) / 2, (bt + bb) / 2], np.float32)
    placed = ((pts - centre) @ rot.T) * np.float32(scale)
    board_pts = np.array([[bl, bt], [br, bt], [br, bb], [bl, bb]], np.float32)
    warp = cv2.getPerspectiveTransform(src, pts)
    board_warped = cv2.perspectiveTransform(board_pts[None], warp)[0]
    board_placed = ((board_warped - centre) @ rot.T) * np.float32(scale)
    # Fit the board inside the frame with a margin, shrinking if it must, then nudge it.
    lo, hi = board_placed.min(axis=0), board_placed.max(axis=0)
    room = np.array([shot.width, shot.height], np.float32) * np.float32(0.94)
    factor = float(min(1.0, *(room / (hi - lo))))
    placed *= np.float32(factor)
    lo, hi = lo * factor, hi * factor
    slack = np.maximum(np.array([shot.width, shot.height], np.float32) - (hi - lo), 0) * np.float32(0.3)
    offset = np.array([shot.width, shot.height], np.float32) / 2 - (lo + hi) / 2
    offset += rng.uniform(-1, 1, 2).astype(np.float32) * slack / 2
    return (placed + offset).astype(np.float32)


def develop(sheet: np.ndarray, board: Box, shot: Shot, rng: np.random.Generator) -> np.ndarray:
    """The photo as shown (BGR uint8, ``shot.width`` x ``shot.height``) of ``sheet`` (BGR
    uint8), whose board lies at ``board``."""
    w, h = shot.width, shot.height
    if shot.newsprint:
        sheet = newsprint(sheet, rng)
    shade = None
    if shot.curl:
        sheet, shade = _curled(sheet, shot.curl, rng)
    dst = _corners(shot, sheet.shape[1], sheet.shape[0], board, rng)
    # Shrink a large sheet first (area averaging): a perspective warp alone would alias.
    factor = float(np.linalg.norm(dst[1] - dst[0])) / sheet.shape[1]
    if factor < 0.8:
        size = (max(2, round(sheet.shape[1] * factor * 1.2)), max(2, round(sheet.shape[0] * factor * 1.2)))
        sheet = cv2.resize(sheet, size, interpolation=cv2.INTER_AREA)
        shade = None if shade is None else cv2.resize(shade, size, interpolation=cv2.INTER_AREA)
    sw, sh = sheet.shape[1], sheet.shape[0]
    src = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    paper = cv2.warpPerspective(sheet.astype(np.float32) / 255.0, matrix, (w, h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    mask = cv2.warpPerspective(np.ones(sheet.shape[:2], np.float32), matrix, (w, h), flags=cv2.INTER_LINEAR)
    ground = _background(rng, shot.background, w, h)
    # The sheet lifts off the table a little: a soft shadow around its edge.
    drop = cv2.GaussianBlur(mask, (0, 0), max(w, h) / 250)
    ground = ground * (1 - 0.35 * drop[..., None])
    img = paper * mask[..., None] + ground * (1 - mask[..., None])
    if shade is not None:
        img *= cv2.warpPerspective(shade, matrix, (w, h), borderValue=1.0)[..., None]
    img = _light(img, shot, rng)
    if shot.noise:
        # Sensor noise before the lens's and the phone's smoothing (phones denoise): grain
        # that the blur softens, as in a real photo, rather than crisp speckle on top.
        grain = rng.normal(0, shot.noise / 255.0, (h, w, 1)).astype(np.float32)
        chroma = rng.normal(0, shot.noise / 1020.0, (h, w, 3)).astype(np.float32)  # phones smooth colour noise most
        img = img + grain + chroma
    if shot.blur:
        img = cv2.GaussianBlur(img, (0, 0), shot.blur)
    if shot.shake:
        kernel: np.ndarray = np.zeros((shot.shake, shot.shake), np.float32)
        kernel[shot.shake // 2, :] = 1.0 / shot.shake
        turn = cv2.getRotationMatrix2D((shot.shake / 2 - 0.5, shot.shake / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, turn, (shot.shake, shot.shake))
        kernel = (kernel / max(float(kernel.sum()), 1e-6)).astype(np.float32)
        img = cv2.filter2D(img, -1, kernel)
    return np.clip(img * 255.0 + 0.5, 0, 255).astype(np.uint8)


def _light(img: np.ndarray, shot: Shot, rng: np.random.Generator) -> np.ndarray:
    """A light gradient, a shadow, a glare and a colour cast over the whole frame."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = ((xx / w - 0.5) * math.cos(angle) + (yy / h - 0.5) * math.sin(angle)) + 0.5
    light = 1.0 - shot.gradient * np.clip(ramp, 0, 1)
    vignette = ((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * 0.35
    light = light - vignette
    if shot.shadow:
        # The phone's or a hand's shadow: a blob reaching in from one edge, its edge soft.
        mask: np.ndarray = np.zeros((h, w), np.float32)
        edge = int(rng.integers(4))
        reach = rng.uniform(0.25, 0.5)
        pts = []
        for t in np.linspace(0, 1, 7):
            depth = reach * rng.uniform(0.6, 1.0)
            along, into = t, depth
            x, y = {0: (along, into), 1: (1 - into, along), 2: (along, 1 - into), 3: (into, along)}[edge]
            pts.append((x * w, y * h))
        base = {0: [(w, -10), (-10, -10)], 1: [(w + 10, h), (w + 10, -10)], 2: [(w, h + 10), (-10, h + 10)],
                3: [(-10, h), (-10, -10)]}[edge]
        poly = np.array(pts + base, np.int32)
        cv2.fillPoly(mask, [poly], 1.0)
        mask = cv2.GaussianBlur(mask, (0, 0), max(w, h) / 40)
        light = light * (1 - shot.shadow * mask)
    img = img * light[..., None]
    if shot.glare:
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        radius = rng.uniform(0.08, 0.2) * max(w, h)
        spot = np.exp(-(((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * radius**2)))
        img = img + shot.glare * spot[..., None] * (1.0 - img * 0.5)
    if shot.warmth:
        cast = np.array([1 - shot.warmth, 1.0, 1 + shot.warmth * 0.6], np.float32)  # BGR
        img = img * cast[None, None, :]
    return img


# EXIF orientation -> how the stored pixels are turned from the picture as shown (PIL's
# transpose): a camera held sideways stores the sensor's rows and says how to turn them.
_STORED = {3: Image.Transpose.ROTATE_180, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}


def jpeg(photo: np.ndarray, quality: int, orientation: int = 1, camera: str = "Pixel 7") -> bytes:
    """``photo`` (BGR, as shown) as a JPEG; with ``orientation`` its pixels are stored
    turned and the EXIF tag says how to show them."""
    image = Image.fromarray(cv2.cvtColor(photo, cv2.COLOR_BGR2RGB))
    exif = Image.Exif()
    exif[0x010F] = "Google"  # Make
    exif[0x0110] = camera  # Model
    exif[0x0132] = "2026:03:14 09:26:53"  # DateTime
    if orientation != 1:
        image = image.transpose(_STORED[orientation])
    exif[0x0112] = orientation
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality, exif=exif.tobytes(), optimize=True)
    return out.getvalue()
