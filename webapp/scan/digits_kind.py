"""Printed or written: which numbers of a board are its givens and which a player put in.

Nothing in one cell says it; the board as a whole does.  Givens look alike (one font, one
ink, often a fill behind them) and so do a player's numbers (another colour, a lighter
stroke, no fill).  The numbers of a board are split in two where they differ most
clearly, by the ink's colour first, then the fill behind them, then the stroke's width;
the group that looks printed (neutral ink, a fill, a heavier stroke) holds the givens.
A board whose numbers do not split clearly is all givens: a player's numbers are only
kept with ``entries``, and a given wrongly left out costs more than an entry kept.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .digits_ink import Look

Colour = tuple[float, float, float]

INK_APART = 28.0  # Lab distance between two groups' inks that tells them apart
FILL_APART = 10.0  # between a fill and the paper (a given's grey against white is about 12)
STROKE_APART = 1.6  # ratio between two groups' stroke widths


def kinds(looks: Sequence[Look]) -> list[str]:
    """"printed" or "written" for each look holding a number (in order), "empty" for the others."""
    numbered = [i for i, look in enumerate(looks) if look.number is not None]
    result = ["empty"] * len(looks)
    for i in numbered:
        result[i] = "printed"
    if len(numbered) < 2:
        return result
    inks = [lab(looks[i].number.ink) for i in numbered]  # type: ignore[union-attr]
    fills = [lab(looks[i].paper) for i in numbered]
    strokes = [looks[i].number.stroke for i in numbered]  # type: ignore[union-attr]
    paper = _paper(looks)
    split = _two_groups(inks, INK_APART)
    if split is None:
        filled = [_distance(f, paper) > FILL_APART for f in fills] if paper is not None else []
        if any(filled) and not all(filled):
            split = [0 if f else 1 for f in filled]
    if split is None:
        split = _stroke_groups(strokes)
    if split is None:
        return result
    printed = _printed_group(split, inks, fills, strokes, paper)
    for i, group in zip(numbered, split, strict=True):
        result[i] = "printed" if group == printed else "written"
    return result


def _paper(looks: Sequence[Look]) -> Colour | None:
    """The board's plain paper (Lab): the median colour of its empty cells."""
    empty = sorted((lab(look.paper) for look in looks if look.number is None), key=lambda c: c[0])
    return empty[len(empty) // 2] if empty else None


def _two_groups(points: list[Colour], apart: float) -> list[int] | None:
    """Two clusters (2-means from the two farthest points) when their centres lie ``apart``."""
    a, b = max(((p, q) for p in points for q in points), key=lambda pq: _distance(*pq))
    if _distance(a, b) < apart:
        return None
    for _ in range(8):
        groups = [0 if _distance(p, a) <= _distance(p, b) else 1 for p in points]
        if all(g == 0 for g in groups) or all(g == 1 for g in groups):
            return None
        a = _mean([p for p, g in zip(points, groups, strict=True) if g == 0])
        b = _mean([p for p, g in zip(points, groups, strict=True) if g == 1])
    if _distance(a, b) < apart:
        return None
    # Every point must sit clearly nearer its own group: no chain of shades between them.
    for p, g in zip(points, groups, strict=True):
        own, other = (a, b) if g == 0 else (b, a)
        if _distance(p, own) > 0.6 * _distance(p, other):
            return None
    return groups


def _stroke_groups(strokes: list[float]) -> list[int] | None:
    """Bold against light strokes, when the widths fall into two clearly apart sets."""
    ordered = sorted(strokes)
    gaps = [(ordered[k + 1] / max(ordered[k], 1e-6), k) for k in range(len(ordered) - 1)]
    ratio, k = max(gaps)
    if ratio < 1.3:
        return None
    low, high = ordered[:k + 1], ordered[k + 1:]
    if sum(high) / len(high) < STROKE_APART * sum(low) / len(low):
        return None
    cut = ordered[k]
    return [1 if s <= cut else 0 for s in strokes]


def _printed_group(split: list[int], inks: list[Colour], fills: list[Colour], strokes: list[float],
                   paper: Colour | None) -> int:
    """Which of the two groups holds the givens: neutral ink, a fill, a heavier stroke."""
    score = [0.0, 0.0]
    for g in (0, 1):
        members = [k for k, s in enumerate(split) if s == g]
        ink = _mean([inks[k] for k in members])
        fill = _mean([fills[k] for k in members])
        chroma = math.hypot(ink[1], ink[2])
        score[g] -= chroma / 20
        score[g] += abs(ink[0] - fill[0]) / 40  # contrast: print is black, pencil grey
        if paper is not None:
            score[g] += min(_distance(fill, paper), 30) / 10
        score[g] += 4 * sum(strokes[k] for k in members) / len(members)
        score[g] += 0.2 * len(members) / len(split)  # a tie goes to the larger group
    return 0 if score[0] >= score[1] else 1


def lab(bgr: Colour) -> Colour:
    """CIE L*a*b* of a BGR colour 0..255 (D65)."""
    def linear(c: float) -> float:
        c /= 255.0
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    b, g, r = (linear(v) for v in bgr)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _distance(p: Colour, q: Colour) -> float:
    return math.dist(p, q)


def _mean(points: list[Colour]) -> Colour:
    n = len(points)
    return sum(p[0] for p in points) / n, sum(p[1] for p in points) / n, sum(p[2] for p in points) / n
