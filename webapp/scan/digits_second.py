"""A second look at the cells whose number was read unsurely, or not found at all.

Small numbers in a blurred photo (a 16×16 board or larger in a 1.5-MP picture: digits 10
to 12 pixels high, in bold strokes as wide as a quarter of their height once blurred)
defeat the first look in two ways.  Their strokes fill the disc the paper is found with
(``digits_ink.PAPER``), so the top-hat keeps only their thin ends: the number falls into
pieces too small to be one, and the cell is taken for empty.  And the readings of its
line, its rows across the cell and its soft box then disagree, the surest of them often
wrong (232 read 22 at 0.98, its soft box 232 at 0.93).

So the cells where the first readings disagree, where none is sure, or where ink but no
number was found are looked at again with a wider disc (``WIDE_DISC``), and every reading
of the number, first and second look, votes for its value with its sureness.  The value
with the most votes wins; its confidence is lowered by the share of the votes that went
elsewhere, so a cell read two ways stays doubtful for the reader and the engine.  A cell
the first look found empty takes a number only when two readings agree on it surely.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from .digits_ink import Look
    from .digits_model import Line

WIDE_DISC = 23  # pixels at digits_ink.SIZE (64): wider than a blurred bold digit's stroke
SURE = 0.8  # a first reading at least this sure, that no other reading contradicts, is kept as is
FOUND_SURE = 0.6  # a number the first look missed is taken when this sure ...
FOUND_VOTES = 2  # ... and read alike this many times
CROSS = 0.5  # a cell read as a cross this surely is left alone (a hole's mark)


def second_look(crops: Sequence[np.ndarray], looks: list[Look], lines: dict[int, Line],
                tried: dict[int, list[Line]], most: int | None
                ) -> tuple[list[Look], dict[int, Line], dict[int, float]]:
    """The looks and chosen lines after a second look at the doubtful cells, and for each
    cell decided by a vote the share of the votes its value won (1.0 where all agreed)."""
    from .digits_ink import look

    looks, lines = list(looks), dict(lines)
    again = [i for i, seen in enumerate(looks) if _doubtful(seen, lines.get(i), tried.get(i, []), most)]
    if not again:
        return looks, lines, {}
    usual = _usual_height(looks)
    wide = {}
    for i in again:
        seen = look(crops[i], WIDE_DISC)
        # A number the first look missed is as tall as the board's others (not a note).
        if seen.number is not None and (looks[i].number is not None or usual is None
                                        or seen.number.height >= 0.5 * usual):
            wide[i] = seen
    agreed: dict[int, float] = {}
    for i, cast in _votes(looks, wide, tried).items():
        chosen = _vote(cast, most)
        if chosen is None:
            continue
        line, share, count = chosen
        if looks[i].number is None:
            if count < FOUND_VOTES or _sure(line, wide[i]) * share < FOUND_SURE:
                continue
            looks[i] = wide[i]
        lines[i] = line
        agreed[i] = share
    return looks, lines, agreed


def _votes(looks: list[Look], wide: dict[int, Look], tried: dict[int, list[Line]]) -> dict[int, list[tuple[Line, int]]]:
    """Every reading of each cell looked at again, with the number of pieces of the look it
    came from: the first look's, and the wide look's line, plain rows and soft box (and
    the first look's soft box when it was not read yet: only unsure numbers' are)."""
    from .digits_model import recogniser

    todo: list[tuple[int, int, np.ndarray]] = []  # (crop, parts, line)
    votes: dict[int, list[tuple[Line, int]]] = {}
    for i, seen in wide.items():
        first = looks[i].number
        votes[i] = [(line, first.parts) for line in tried.get(i, [])] if first is not None else []
        number = seen.number
        assert number is not None
        todo += [(i, number.parts, line) for line in (number.line, number.plain, number.soft) if line is not None]
        if first is not None and first.soft is not None and len(tried.get(i, [])) < 3:
            todo.append((i, first.parts, first.soft))
    read = recogniser().read([line for _, _, line in todo]) if todo else []
    for (i, parts, _), line in zip(todo, read, strict=True):
        votes[i].append((line, parts))
    return votes


def _vote(cast: list[tuple[Line, int]], most: int | None) -> tuple[Line, float, int] | None:
    """The value most of the readings' sureness goes to: its surest line, the share of the
    sureness it won, and how many readings gave it; None when no reading is a number."""
    from .digits import whole

    score: dict[str, float] = {}
    best: dict[str, tuple[float, Line]] = {}
    count: dict[str, int] = {}
    for line, parts in cast:
        sure = whole(line, parts)
        if sure <= 0 or (most is not None and int(line.text) > most):
            continue
        score[line.text] = score.get(line.text, 0.0) + sure
        count[line.text] = count.get(line.text, 0) + 1
        if line.text not in best or sure > best[line.text][0]:
            best[line.text] = (sure, line)
    if not score:
        return None
    text = max(score, key=lambda t: score[t])
    return best[text][1], score[text] / sum(score.values()), count[text]


def _sure(line: Line, seen: Look) -> float:
    from .digits import whole

    return whole(line, seen.number.parts if seen.number is not None else 1)


def _doubtful(seen: Look, line: Line | None, tried: list[Line], most: int | None) -> bool:
    """Whether a cell deserves a second look: ink but no number, a number no reading is
    sure of, or readings that disagree."""
    from .digits import whole

    number = seen.number
    if number is None:
        return True  # the reader sends only cells with ink: a blurred number may hide in it
    if line is None or line.cross >= CROSS:
        return False
    if whole(line, number.parts) < SURE:
        return True
    values = {t.text for t in tried if whole(t, number.parts) > 0 and (most is None or int(t.text) <= most)}
    return len(values) > 1


def _usual_height(looks: list[Look]) -> float | None:
    """The median height of the numbers the first look found, of the crop."""
    heights = sorted(seen.number.height for seen in looks if seen.number is not None)
    return heights[len(heights) // 2] if len(heights) >= 3 else None
