"""A second look at the cells whose number was read unsurely, or not found at all.

Small numbers in a blurred photo (a 16×16 board or larger in a 1.5-MP picture: digits 10
to 12 pixels high, in bold strokes as wide as a quarter of their height once blurred)
defeat the first look in two ways.  Their strokes fill the disc the paper is found with
(``digits_ink.PAPER``), so the top-hat keeps only their thin ends: the number falls into
pieces too small to be one, and the cell is taken for empty.  And the readings of its
line, its rows across the cell and its soft box then disagree, the surest of them often
wrong (232 read 22 at 0.98, its soft box 232 at 0.93).

So the cells where the first readings disagree, where none is sure, or where ink but no
number was found are looked at again with a wider disc (``WIDE_DISC``) and once more
sharpened (an unsharp mask: a blurred 7 or 4 whose thin strokes fade into the paper), and
every reading of the number, from every look, votes for its value with its sureness.  A
reading with fewer digits than the ink is wide for counts less (a blurred 108 read 10).
The value with the most votes wins; its confidence is lowered by the share of the votes
that went elsewhere, so a cell read two ways stays doubtful for the reader and the engine.
A cell the first look found empty takes a number only when two readings agree on it surely.
Sure, agreeing first readings (nearly every cell of a sharp picture) are not looked at again.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from .digits_ink import Look
    from .digits_model import Line

WIDE_DISC = 23  # pixels at digits_ink.SIZE (64): wider than a blurred bold digit's stroke
SURE = 0.8  # a first reading at least this sure, that no other reading contradicts, is kept as is
FOUND_SURE = 0.6  # a number the first look missed is taken when this sure ...
FOUND_VOTES = 2  # ... and read alike this many times
SHARPEN = 2.0  # the unsharp mask's amount for the third look ...
SHARPEN_SIGMA = 1.5  # ... and its blur, in pixels of the crop (64)
THREE_WIDE = 2.0  # a number at least this many times as wide as tall has three digits ...
TWO_WIDE = 1.0  # ... this many, at least two (the set's widest two-digit number: 1.95, one digit: 0.89)
SHORT = 0.3  # a reading with fewer digits than the ink's width says counts this much in the vote
MARGIN = 1.5  # another value replaces the first reading only with this many times its votes
TAKEN = 0.3  # a reading of a number another cell holds surely counts this much in the vote
CROSS = 0.5  # a cell read as a cross this surely is left alone (a hole's mark)


def second_look(crops: Sequence[np.ndarray], looks: list[Look], lines: dict[int, Line],
                tried: dict[int, list[Line]], most: int | None
                ) -> tuple[list[Look], dict[int, Line], dict[int, float], dict[int, list[Line]]]:
    """The looks and chosen lines after a second look at the doubtful cells, for each
    cell decided by a vote the share of the votes its value won (1.0 where all agreed),
    and every reading each cell had, the second look's included."""
    from .digits_ink import look

    looks, lines = list(looks), dict(lines)
    again = [i for i, seen in enumerate(looks) if _doubtful(seen, lines.get(i), tried.get(i, []), most)]
    if not again:
        return looks, lines, {}, tried
    usual = _usual_height(looks)
    wide: dict[int, Look] = {}
    sharp: dict[int, Look] = {}
    for i in again:
        seen = look(crops[i], WIDE_DISC)
        # A number the first look missed is as tall as the board's others (not a note).
        if seen.number is not None and (looks[i].number is not None or usual is None
                                        or seen.number.height >= 0.5 * usual):
            wide[i] = seen
            # A third look, sharpened, with the usual disc.
            third = look(sharpened(crops[i]))
            if third.number is not None:
                sharp[i] = third
    taken = _taken(looks, lines, again)
    agreed: dict[int, float] = {}
    cast_all = _votes(looks, wide, tried, sharp)
    tried = {**tried, **{i: [line for line, _ in cast] for i, cast in cast_all.items()}}
    for i, cast in cast_all.items():
        first = lines[i].text if looks[i].number is not None and i in lines else None
        chosen = _vote(cast, most, _fewest_digits([looks[i], wide[i], sharp.get(i, looks[i])]), taken, first)
        if chosen is None:
            continue
        line, share, count = chosen
        if looks[i].number is None:
            if count < FOUND_VOTES or _sure(line, wide[i]) * share < FOUND_SURE:
                continue
            looks[i] = wide[i]
        lines[i] = line
        agreed[i] = share
    return looks, lines, agreed, tried


def _votes(looks: list[Look], wide: dict[int, Look], tried: dict[int, list[Line]],
           sharp: dict[int, Look]) -> dict[int, list[tuple[Line, int]]]:
    """Every reading of each cell looked at again, with the number of pieces of the look it
    came from: the first look's, the wide look's line, plain rows and soft box, the
    sharpened look's line and soft box (and the first look's soft box when it was not
    read yet: only unsure numbers' are)."""
    from .digits_model import recogniser

    todo: list[tuple[int, int, np.ndarray]] = []  # (crop, parts, line)
    votes: dict[int, list[tuple[Line, int]]] = {}
    for i, seen in wide.items():
        first = looks[i].number
        votes[i] = [(line, first.parts) for line in tried.get(i, [])] if first is not None else []
        number = seen.number
        assert number is not None
        todo += [(i, number.parts, line) for line in (number.line, number.plain, number.soft) if line is not None]
        third = sharp[i].number if i in sharp else None
        if third is not None:
            todo += [(i, third.parts, line) for line in (third.line, third.soft) if line is not None]
        if first is not None and first.soft is not None and len(tried.get(i, [])) < 3:
            todo.append((i, first.parts, first.soft))
    read = recogniser().read([line for _, _, line in todo]) if todo else []
    for (i, parts, _), line in zip(todo, read, strict=True):
        votes[i].append((line, parts))
    return votes


def _fewest_digits(seen: list[Look]) -> int:
    """How many digits a number at least has, from its ink's width against its height
    (one digit is at most 0.9 as wide as tall, two at most 2.0, on every board of the
    test set; a look may miss a digit, never add one, so the widest look counts)."""
    ratio = max((s.number.width / max(s.number.height, 1e-6) for s in seen if s.number is not None), default=0.0)
    return 3 if ratio >= THREE_WIDE else 2 if ratio >= TWO_WIDE else 1


def _taken(looks: list[Look], lines: dict[int, Line], again: list[int]) -> set[str]:
    """The numbers other cells of the board hold surely (read alike every way, not looked
    at again): a board holds each number once, so a doubtful cell is unlikely to hold one."""
    from .digits import whole

    looked = set(again)
    return {line.text for i, line in lines.items() if i not in looked and looks[i].number is not None
            and whole(line, looks[i].number.parts) >= SURE}  # type: ignore[union-attr]


def _vote(cast: list[tuple[Line, int]], most: int | None, fewest: int = 1,
          taken: Collection[str] = (), first: str | None = None) -> tuple[Line, float, int] | None:
    """The value most of the readings' sureness goes to: its surest line, the share of the
    sureness it won, and how many readings gave it; None when no reading is a number.  A
    reading with fewer digits than ``fewest`` counts less, and so does a number ``taken``
    by another cell.  The ``first`` reading chosen stands unless another value clearly
    outvotes it (``MARGIN``): the looks are alike, and their readings err alike."""
    from .digits import whole

    score: dict[str, float] = {}
    best: dict[str, tuple[float, Line]] = {}
    count: dict[str, int] = {}
    for line, parts in cast:
        sure = whole(line, parts)
        if sure <= 0 or (most is not None and int(line.text) > most):
            continue
        if len(line.text) < fewest:
            sure *= SHORT
        if line.text in taken:
            sure *= TAKEN
        score[line.text] = score.get(line.text, 0.0) + sure
        count[line.text] = count.get(line.text, 0) + 1
        if line.text not in best or sure > best[line.text][0]:
            best[line.text] = (sure, line)
    if not score:
        return None
    text = max(score, key=lambda t: score[t])
    if first in score and score[text] < MARGIN * score[first]:
        text = first
    return best[text][1], score[text] / sum(score.values()), count[text]


def sharpened(crop: np.ndarray) -> np.ndarray:
    """The crop through an unsharp mask: a blurred thin digit (a 7, a 4) whose strokes
    fade into the paper stands out again."""
    import cv2
    import numpy as np

    grey = crop.astype(np.float32)
    blurred = cv2.GaussianBlur(grey, (0, 0), SHARPEN_SIGMA)
    out: np.ndarray = np.clip(grey + SHARPEN * (grey - blurred), 0, 255).astype(np.uint8)
    return out


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
