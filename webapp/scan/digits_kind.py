"""Printed or written: which numbers of a board are its givens and which a player put in.

Nothing in one cell says it; the board as a whole does.  Givens look alike (one font, one
ink, often a fill behind them) and so do a player's numbers (another colour, a lighter
stroke, no fill).  The numbers of a board are split in two where they clearly form two
groups, by the ink first (its colour, and its contrast with the paper), then the fill
behind them, then the stroke's width; the group that looks printed (neutral ink, strong
contrast, a fill, a heavier stroke) holds the givens.  A board whose numbers do not
split clearly is all givens: a player's numbers are only kept with ``entries``, and a
given wrongly left out costs more than an entry kept.  A gradual change, as a shadow
across the board makes, is no split: the groups must lie far apart for their spread.
Numbers on a fill among numbers on the plain paper are split only when those on the
paper are also fainter and thinner (an app's givens filled, a player's numbers light).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .digits_ink import Look

Colour = tuple[float, float, float]

INK_APART = 12.0  # between two groups' ink hues (see ``hue``: blue ink is 30 from black)
CONTRAST = 30.0  # the ink's contrast with the paper behind it, as a share of the lighter of the two, in 30ths
CONTRAST_APART = 10.0  # between two groups' contrasts (print is black, pencil grey; blur lowers it too)
FILL_APART = 10.0  # between two groups' fills (Lab): a given's fill against the plain paper
SEPARATION = 2.0  # two groups' centres lie this many times their spreads apart
SEPARATION_FAINT = 3.0  # two groups' centres lie this many times their spreads apart (contrast)
FAINTER = 0.6  # pencil: the fainter group's contrast at most this share of the other's
PENCIL = 0.9  # ... and its strokes at most this share of the other's (a shadow fades, it does not thin)
THINNER = 0.8  # a player's numbers on the plain paper: strokes at most this share of the givens'


def kinds(looks: Sequence[Look]) -> list[str]:
    """"printed" or "written" for each look holding a number (in order), "empty" for the others."""
    numbered = [i for i, look in enumerate(looks) if look.number is not None]
    result = ["empty"] * len(looks)
    for i in numbered:
        result[i] = "printed"
    if len(numbered) < 2:
        return result
    inks, contrasts, fills, strokes = [], [], [], []
    for i in numbered:
        number = looks[i].number
        assert number is not None
        fill = lab(looks[i].paper)
        inks.append(hue(number.ink, looks[i].paper))
        contrasts.append((CONTRAST * number.contrast, 0.0, 0.0))
        fills.append(fill)
        strokes.append((number.stroke * 100, 0.0, 0.0))
    split = _two_groups(inks, INK_APART) or _fainter_group(contrasts, strokes) or _unfilled_group(
        fills, contrasts, strokes, _paper(looks))
    if split is None:
        return result
    printed = _printed_group(split, inks, contrasts, fills, strokes, _paper(looks))
    for i, group in zip(numbered, split, strict=True):
        result[i] = "printed" if group == printed else "written"
    return result


def _fainter_group(contrasts: list[Colour], strokes: list[Colour]) -> list[int] | None:
    """Numbers written fainter than the others (pencil against print), only when clearly so
    and in thinner strokes: blur makes printed digits fainter too, but thicker."""
    split = _two_groups(contrasts, CONTRAST_APART, SEPARATION_FAINT)
    if split is None:
        return None
    contrast = [_mean([c for c, g in zip(contrasts, split, strict=True) if g == k])[0] for k in (0, 1)]
    stroke = [_mean([s for s, g in zip(strokes, split, strict=True) if g == k])[0] for k in (0, 1)]
    faint = 0 if contrast[0] < contrast[1] else 1
    if contrast[faint] > FAINTER * contrast[1 - faint] or stroke[faint] > PENCIL * stroke[1 - faint]:
        return None
    if split.count(faint) < 2:
        return None  # one faint number: a corner in shadow, a smudge, not a player's pencil
    return split


def _unfilled_group(fills: list[Colour], contrasts: list[Colour], strokes: list[Colour],
                    paper: Colour | None) -> list[int] | None:
    """Numbers on the plain paper among numbers on a fill (an app's given cells are
    filled, a player's numbers sit in the empty cells): only when the group on the paper
    is also fainter and in thinner strokes, which a shadow across the board never makes."""
    split = _two_groups(fills, FILL_APART, SEPARATION_FAINT)
    if split is None:
        return None
    fill = [_mean([f for f, g in zip(fills, split, strict=True) if g == k]) for k in (0, 1)]
    contrast = [_mean([c for c, g in zip(contrasts, split, strict=True) if g == k])[0] for k in (0, 1)]
    stroke = [_mean([s for s, g in zip(strokes, split, strict=True) if g == k])[0] for k in (0, 1)]
    # The plain paper is the empty cells' when they were given, else the fainter group's.
    plain = 0 if contrast[0] < contrast[1] else 1
    if paper is not None:
        plain = 0 if _distance(fill[0], paper) < _distance(fill[1], paper) else 1
        if _distance(fill[plain], paper) > 0.5 * _distance(fill[1 - plain], paper):
            return None  # neither group sits on the plain paper
    filled = 1 - plain
    if contrast[plain] >= contrast[filled] or stroke[plain] > THINNER * stroke[filled]:
        return None  # a shadow darkens the fill and fades the ink, but thins no stroke
    if min(split.count(0), split.count(1)) < 2:
        return None
    return split


def _paper(looks: Sequence[Look]) -> Colour | None:
    """The board's plain paper (Lab): the median colour of its empty cells."""
    empty = sorted((lab(look.paper) for look in looks if look.number is None), key=lambda c: c[0])
    return empty[len(empty) // 2] if empty else None


def _two_groups(points: list[Colour], apart: float, separation: float = SEPARATION) -> list[int] | None:
    """The best cut of the points in two along their main axis (as Otsu cuts a histogram),
    when the groups' centres lie at least ``apart`` and ``separation`` times their spreads."""
    axis = _main_axis(points)
    order = sorted(range(len(points)), key=lambda k: sum(a * b for a, b in zip(points[k], axis, strict=True)))
    best: tuple[float, int] | None = None
    for cut in range(1, len(order)):
        low, high = [points[k] for k in order[:cut]], [points[k] for k in order[cut:]]
        between = _distance(_mean(low), _mean(high))
        if between < apart:
            continue
        if min(len(low), len(high)) == 1 and between < 1.5 * apart:
            continue  # one odd cell (a smudge, a colour fringe) is no group
        ratio = between / (_spread(low) + _spread(high) + 1e-6)
        if ratio >= separation and (best is None or ratio > best[0]):
            best = (ratio, cut)
    if best is None:
        return None
    groups = [0] * len(points)
    for k in order[best[1]:]:
        groups[k] = 1
    return groups


def _main_axis(points: list[Colour]) -> Colour:
    """The direction along which the points spread most (power iteration)."""
    centre = _mean(points)
    centred = [tuple(p[i] - centre[i] for i in range(3)) for p in points]
    axis: Colour = (1.0, 0.7, 0.4)
    for _ in range(20):
        new = [0.0, 0.0, 0.0]
        for p in centred:
            dot = sum(p[i] * axis[i] for i in range(3))
            for i in range(3):
                new[i] += dot * p[i]
        length = math.sqrt(sum(v * v for v in new))
        if length < 1e-9:
            return axis
        axis = (new[0] / length, new[1] / length, new[2] / length)
    return axis


def _spread(points: list[Colour]) -> float:
    """The root mean square distance of the points from their centre."""
    centre = _mean(points)
    return math.sqrt(sum(_distance(p, centre) ** 2 for p in points) / len(points))


def _printed_group(split: list[int], inks: list[Colour], contrasts: list[Colour], fills: list[Colour],
                   strokes: list[Colour], paper: Colour | None) -> int:
    """Which of the two groups holds the givens: neutral ink, strong contrast, a fill, a
    heavier stroke."""
    score = [0.0, 0.0]
    for g in (0, 1):
        members = [k for k, s in enumerate(split) if s == g]
        ink = _mean([inks[k] for k in members])
        fill = _mean([fills[k] for k in members])
        score[g] -= math.hypot(*ink) / 10  # print is black (or white)
        score[g] += _mean([contrasts[k] for k in members])[0] / 10  # contrast: pencil is grey
        if paper is not None:
            score[g] += min(_distance(fill, paper), 20) / 4  # a given's fill
        score[g] += _mean([strokes[k] for k in members])[0] / 5
        score[g] += 0.5 * len(members) / len(split)  # a tie goes to the larger group
    return 0 if score[0] >= score[1] else 1


def hue(ink: Colour, paper: Colour) -> Colour:
    """How far the ink's colour turns from black (or white): the part of its difference
    from the paper (BGR) that no mix of black or white with the paper explains, in
    hundredths of that difference.  A black digit blurred into a yellow fill is dark
    yellow, yet 0 here; blue ink is about 30 on any paper."""
    f = [c / 255 for c in paper]
    d = [(m - c) / 255 for m, c in zip(ink, paper, strict=True)]
    size = math.sqrt(sum(v * v for v in d))
    if size < 0.05:
        return 0.0, 0.0, 0.0
    towards = []
    for n in ([-v for v in f], [1 - v for v in f]):  # to black, to white
        length = math.sqrt(sum(v * v for v in n))
        if length > 0.05:
            towards.append([v / length for v in n])
    n = max(towards, key=lambda u: sum(a * b for a, b in zip(u, d, strict=True)))
    along = sum(a * b for a, b in zip(n, d, strict=True))
    r = [100 * (v - along * u) / size for v, u in zip(d, n, strict=True)]
    return r[0], r[1], r[2]


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
