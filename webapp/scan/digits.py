"""The numbers in a board's cells: which cells hold one, what it is, and who put it there.

``read_cells`` takes the crops of a board's cells (straightened, BGR) and reads them all
at once, so that it can compare them with each other:

1. each crop is looked at cheaply (``digits_ink``): most cells are empty and never reach
   the model; border remnants, circles, shadows and pencil notes are not numbers;
2. the numbers left are cut out as lines 48 pixels high and read in batches by PP-OCRv4's
   recogniser (``digits_model``), for digits (and a cross, which marks a hole); each is
   read a second time in the cell's own grey across its width, unmasked, and the surer
   reading that is a number kept (in a small blurred cell the pieces of ink may lose a
   digit or a faint stroke that the model still reads in the picture);
   cells whose readings disagree, where none is sure, or with ink but no number found
   are looked at again (``digits_second``: a wider disc for the paper, the crop
   sharpened) and every reading votes for the value;
3. a reading is refused when it is no number of the board (0, a leading zero, above N),
   and its confidence is the model's, lowered when the pieces of ink disagree with it (and
   by the share of the votes it lost);
4. printed givens are told from a player's numbers by comparing them (``digits_kind``).

``orientation_score`` says how upright a board's crops look, to choose a rotation:
digits read upside down often read as digits too (16 and 91), but less surely.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    import numpy as np

    from .digits_ink import Look
    from .digits_model import Line

Kind = Literal["empty", "printed", "written", "hole"]

MOST_DIGITS = 3  # boards hold at most 999 cells
CROSS = 0.8  # a line read as one cross at least this surely marks a hole
RETRY_BELOW = 0.6  # a reading whose least sure digit is below this is read again, smaller
SMALLER = 2 / 3  # the number's height in the line read again
SOFT_BELOW = 0.6  # a number read less surely than this is read once more, unmasked (``Number.soft``)
NOTES = 0.5  # a number less than half as tall as the board's others is a pencil note
SIDE = 0.16  # of the crop: a number whose ink comes this close to a side may reach past it
OTHERS = 4  # other numbers a cell may hold, kept for ``repair``


@dataclass(frozen=True)
class DigitReading:
    """What one cell holds: a number (None: nothing), how sure, and how it got there.

    ``kind`` "empty" goes with ``value`` None; a cell with ink the model could not read as a
    number of the board is "printed" or "written" with ``value`` None and a low confidence;
    "hole" (``value`` None, the confidence the cross's): a cross marks the cell as a hole
    (as our solver page draws one)."""

    value: int | None
    confidence: float  # 0..1: of the value, or of the cell being empty
    kind: Kind
    at_side: bool = False  # the number's ink reaches a side of the crop: a digit may lie beyond it
    # Other numbers of the board the cell may hold, surest first, each with how sure the
    # readings were of it: a doubtful cell's other readings and their digits' runners-up
    # (``repair`` tries them when the puzzle read cannot be solved).
    others: tuple[tuple[int, float], ...] = ()
    # The model's readings of the cell, for ``repair`` to weigh a number it did not read
    # (``digits_model.likelihood``: a digit lost to the blur, 112 read 12).
    lines: tuple[Line, ...] = field(default=(), compare=False, repr=False)


def read_cells(crops: Sequence[np.ndarray], most: int | None = None) -> list[DigitReading]:
    """Read each cell's crop (BGR uint8, one cell each); numbers above ``most`` (the board's
    number of cells, when known) are refused.  Loads OpenCV and the model on first use."""
    from .digits_ink import Look, look
    from .digits_kind import kinds
    from .digits_second import second_look

    looks = without_notes([look(crop) for crop in crops])
    lines, tried = _read_lines(looks, most)
    looks, lines, agreed, tried = second_look(crops, looks, lines, tried, most)
    crosses = {i for i, line in lines.items() if line.cross >= CROSS and _one_mark(looks[i])}
    # A hole's cross is no number: it takes no part in telling givens from a player's.
    kind_of = kinds([Look(seen.paper, None, seen.tallest) if i in crosses else seen for i, seen in enumerate(looks)])
    readings = []
    for i, seen in enumerate(looks):
        if seen.number is None:
            readings.append(DigitReading(None, _empty_confidence(seen), "empty"))
            continue
        if i in crosses:
            readings.append(DigitReading(None, round(lines[i].cross, 4), "hole"))
            continue
        value, confidence = judge(lines[i], seen, most)
        confidence = round(confidence * agreed.get(i, 1.0), 4)
        kind: Kind = "written" if kind_of[i] == "written" else "printed"
        # Even a sure reading may be wrong (a blurred 187 read as 107 at 0.94): every
        # number keeps its others, which cost nothing more to know.
        read = [lines[i], *tried.get(i, [])]
        others = alternatives(read, value, most)
        readings.append(DigitReading(value, confidence, kind, _at_side(seen), others, tuple(read)))
    return readings


def alternatives(read: Sequence[Line], value: int | None, most: int | None) -> tuple[tuple[int, float], ...]:
    """The numbers other than ``value`` these readings of one cell point to, surest first
    (at most ``OTHERS``): each reading's own number, and the number with one digit replaced
    by its runner-up at that place, as sure as its least sure digit then is."""
    sure: dict[int, float] = {}

    def offer(text: str, chars: Sequence[float], other: float) -> None:
        if not text or text[0] == "0" or len(text) > MOST_DIGITS:
            return
        number = int(text)
        if number == value or (most is not None and number > most):
            return
        score = min(chars) * (1 - other)
        if score > sure.get(number, 0.0):
            sure[number] = round(score, 4)

    for line in read:
        offer(line.text, line.chars, line.other)
        for place, (digit, p) in enumerate(line.seconds):
            chars = [*line.chars[:place], p, *line.chars[place + 1:]]
            offer(line.text[:place] + str(digit) + line.text[place + 1:], chars, line.other)
    return tuple(sorted(sure.items(), key=lambda item: -item[1])[:OTHERS])


def _at_side(seen: Look) -> bool:
    """Whether the number's ink comes close to the crop's left or right side: a wide
    number in a small cell may reach past the crop, which then cuts a digit off, and the
    piece left at the side is taken for a border's remnant."""
    number = seen.number
    return number is not None and (number.centre[0] - number.width / 2 < SIDE
                                   or number.centre[0] + number.width / 2 > 1 - SIDE)


def _one_mark(seen: Look) -> bool:
    """Whether the ink is one mark about as wide as tall, as a cross is (a circled number
    the model cannot read is not)."""
    number = seen.number
    return number is not None and number.parts <= 1 and 0.6 <= number.width / max(number.height, 1e-6) <= 1.6


def orientation_score(crops: Sequence[np.ndarray], most: int | None = None) -> float:
    """How upright these crops stand, 0..1: the mean confidence of the numbers read in them.

    The reader turns a board's crops each way it could stand and keeps the best: upside
    down, most digits read badly or not at all (3, 4, 7) and the confidences drop."""
    readings = [r for r in read_cells(crops, most) if r.kind != "empty"]
    if not readings:
        return 0.0
    return sum(r.confidence for r in readings) / len(readings)


def judge(line: Line, seen: Look, most: int | None) -> tuple[int | None, float]:
    """The number a line read as, if it is one of the board's, and how sure that is."""
    number = seen.number
    assert number is not None
    text = line.text
    if not text or len(text) > MOST_DIGITS or text[0] == "0":
        return None, 0.0
    value = int(text)
    if most is not None and value > most:
        return None, 0.0
    confidence = min(line.chars)
    if line.other > 0.5:  # a character that is no digit was read somewhere in the line
        confidence *= 1 - line.other
    if number.parts > len(text):  # more separate digits than were read
        confidence *= 0.5
    return value, round(confidence, 4)


def without_notes(looks: list[Look]) -> list[Look]:
    """Numbers far smaller than the board's others are a player's pencil notes: empty."""
    from .digits_ink import Look

    heights = sorted(look.number.height for look in looks if look.number is not None)
    if len(heights) < 3:
        return looks
    usual = heights[len(heights) // 2]
    return [Look(look.paper, None, look.tallest) if look.number is not None and look.number.height < NOTES * usual
            else look for look in looks]


def _read_lines(looks: list[Look], most: int | None = None) -> tuple[dict[int, Line], dict[int, list[Line]]]:
    """The model's reading of every number's line, by the crop's index; and every reading
    tried for it (the line, smaller, the plain rows, the soft box), for ``digits_second``."""
    from .digits_model import recogniser

    todo = [i for i, look in enumerate(looks) if look.number is not None]
    if not todo:
        return {}, {}
    lines = [looks[i].number.line for i in todo]  # type: ignore[union-attr]
    found = recogniser().read(lines)
    tried = [[line] for line in found]
    # The model sometimes takes one digit filling the whole line for a letter (a bold 2
    # for N): unsure readings are read again with the number smaller inside the line.
    unsure = [k for k, line in enumerate(found) if _unsure(line)]
    if unsure:
        again = recogniser().read([_smaller(lines[k]) for k in unsure])
        for k, line in zip(unsure, again, strict=True):
            tried[k].append(line)
            if _sureness(line) > _sureness(found[k]):
                found[k] = line
    # Each number read again in its rows across the whole cell, every ink kept: a small,
    # blurred cell's pieces may have lost a digit or a faint stroke the model still reads
    # there, and sure wrong readings are not rare then (92 read as 2).
    numbers = [looks[i].number for i in todo]
    again_at = [k for k, number in enumerate(numbers) if number is not None and number.plain is not None]
    if again_at:
        plain = recogniser().read([numbers[k].plain for k in again_at])  # type: ignore[union-attr,misc]
        for k, line in zip(again_at, plain, strict=True):
            tried[k].append(line)
            parts = numbers[k].parts  # type: ignore[union-attr]
            if whole(line, parts) > whole(found[k], parts):
                found[k] = line
    # Still unsure: the number's own box read unmasked, its grey kept (a small, blurred
    # number's pieces merge or break where the model still sees the digits).
    doubtful = [k for k, number in enumerate(numbers) if number is not None and number.soft is not None
                and whole(found[k], number.parts) < SOFT_BELOW]
    if doubtful:
        soft = recogniser().read([numbers[k].soft for k in doubtful])  # type: ignore[union-attr,misc]
        for k, line in zip(doubtful, soft, strict=True):
            tried[k].append(line)
            parts = numbers[k].parts  # type: ignore[union-attr]
            # Only a number of the board: a surer reading the judge then refuses (744 on a
            # board of 144) would lose the number read first.
            if whole(line, parts) > whole(found[k], parts) and (most is None or int(line.text) <= most):
                found[k] = line
    return dict(zip(todo, found, strict=True)), dict(zip(todo, tried, strict=True))


def _unsure(line: Line) -> bool:
    return not line.text or line.other > 0.5 or min(line.chars) < RETRY_BELOW


def whole(line: Line, parts: int) -> float:
    """How sure a reading is, halved when it holds fewer digits than the ink has pieces;
    none when it is no number (a leading 0: a circle read as a digit)."""
    if not line.text or line.text[0] == "0" or len(line.text) > MOST_DIGITS:
        return 0.0
    return _sureness(line) * (0.5 if parts > len(line.text) else 1.0)


def _sureness(line: Line) -> float:
    """How sure a reading is of its digits: their least probability, less what else it saw."""
    return min(line.chars) * (1 - line.other) if line.text else 0.0


def _smaller(line: np.ndarray) -> np.ndarray:
    """The line with its number shrunk to two thirds of the height, centred on white."""
    import cv2
    import numpy as np

    height, width = line.shape[:2]
    small = max(8, round(height * SMALLER))
    shrunk = cv2.resize(line, (max(1, round(width * small / height)), small), interpolation=cv2.INTER_AREA)
    out = np.full((height, shrunk.shape[1] + height // 3), 255, np.uint8)
    top, left = (height - small) // 2, height // 6
    out[top:top + small, left:left + shrunk.shape[1]] = shrunk
    return out


def _empty_confidence(seen: Look) -> float:
    """How sure a cell is empty: less so when it holds marks nearly as tall as a number."""
    from .digits_ink import SMALLEST_NUMBER

    return round(max(0.5, 0.99 - 0.5 * seen.tallest / SMALLEST_NUMBER), 4)
