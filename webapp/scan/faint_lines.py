"""Boards whose lines are too faint for a pixel to tell them from the picture's grain: a
pale grey grid photographed in dim light (lines a few grey levels darker than the cells,
grain as strong), where no ink threshold, smoothed or not, encloses the cells.

A line is long and straight (a perspective keeps it straight); grain is not.  Averaged
along a short segment, a line stays as dark as it is while grain fades, so each pixel is
measured against segments through it at many angles: how much darker the segment is than
two parallel segments a few pixels either side.  The segment is taken in two halves, one
each way from the pixel, and the fainter half counts: a digit's blob, dark on one side
only, does not grow into a line, while a grid line, dark both ways, keeps its strength.
The response at each pixel is the best over the angles (``line_response``).

The board is then looked for in that response as in a picture's ink: the cells are the
patches a threshold of it encloses, tried at a few multiples of its typical (grain)
level, and the one whose lattice holds the most cells is kept.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

SHRINK = 2  # the work picture is halved first: faint lines are blurred wider than a pixel anyway
HALF_LENGTH = 15  # pixels (of the halved picture) of each half segment: about a third of a small cell
APART = 3  # pixels between the segment and each parallel one it is compared with
ANGLES = 24  # directions tried over half a turn (7.5° apart: a segment 15 long stays within a pixel of its line)
# Thresholds of the response, in multiples of its median (the grain's typical level): a faint
# grid's lines stand at 1.5 to 2 times the grain; more for clearer ones.
OVER_GRAIN = (1.3, 1.55, 2.0, 2.6, 3.5)


def shrunk(grey: np.ndarray) -> np.ndarray:
    """The work picture at ``1/SHRINK`` of its size, where the lines are looked for."""
    h, w = grey.shape[:2]
    return cv2.resize(grey, (max(1, w // SHRINK), max(1, h // SHRINK)), interpolation=cv2.INTER_AREA)


def line_response(grey: np.ndarray) -> np.ndarray:
    """How much darker than the paper beside it a straight line through each pixel is, in
    grey levels (float32, ``grey``'s size; 0 where no line is darker)."""
    picture = grey.astype(np.float32)
    best = np.zeros_like(picture)
    for k in range(ANGLES):
        angle = math.pi * k / ANGLES
        one = cv2.filter2D(picture, -1, _half_segment(angle, 1))
        other = cv2.filter2D(picture, -1, _half_segment(angle, -1))
        np.maximum(best, np.minimum(one, other), out=best)
    return best


def thresholds(response: np.ndarray) -> list[float]:
    """The response's thresholds tried: multiples of its median."""
    typical = float(np.median(response))
    return [typical * k for k in OVER_GRAIN] if typical > 0 else [1.0, 2.0, 4.0]


def _half_segment(angle: float, sign: int) -> np.ndarray:
    """A kernel that gives the paper either side of a half segment (from the pixel, at
    ``angle``, toward ``sign``) minus the segment itself: positive on a dark line."""
    along = np.array([math.cos(angle), math.sin(angle)])
    across = np.array([-along[1], along[0]])
    size = 2 * (HALF_LENGTH + APART) + 3
    kernel = np.zeros((size, size), np.float32)
    middle = size // 2
    for s in np.linspace(0.0, HALF_LENGTH, 2 * HALF_LENGTH):
        for off, weight in ((0, -1.0), (APART, 0.5), (-APART, 0.5)):
            x, y = middle + sign * s * along + off * across
            kernel[int(round(y)), int(round(x))] += weight
    kernel[kernel > 0] /= kernel[kernel > 0].sum()
    kernel[kernel < 0] /= -kernel[kernel < 0].sum()
    return kernel
