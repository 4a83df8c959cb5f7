"""Reading a puzzle from a picture, stage by stage: open it safely, find the board and
its lattice, choose which way up it is read, read the cells with ink, and ask the
engine whether the result is a puzzle (``read``, behind ``read_picture``).

Each stage's time goes into ``Reading.stages``; ``progress`` hears each stage as it
starts.  The whole read keeps to a time budget: the ways up tried and the engine's
checks stop when it runs out (the site also runs the read in a child process with a
time and memory limit of its own).

The cells are read by ``digits.read_cells(crops, most)``: a sample to choose the way up,
then the whole board in one call.  A reading the engine finds no solution for, or cannot
settle, whose givens break Hidato's rules (a number twice, two numbers farther apart than
their difference), is mended from the other numbers each cell may hold (``repair``).
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from engine import MAX_CELLS, Adjacency, Board, Cell

from ..core.messages import N_
from . import CellReading, NoBoard, Progress, Reading, ScanError
from .cutting import cut
from .finding import FEWEST_CELLS, Found, find_board
from .image import Picture, load
from .judge import DOUBT, Verdict, judge
from .lattice import Kind, Position, plane
from .layout import layout
from .orientation import Tried, choose, picture_up, sample, score

if TYPE_CHECKING:
    from .digits_model import Line

BUDGET = 20.0  # seconds for a whole read; the engine and the extra ways up give way first
INKED = 0.02  # a cell whose inside is at least this share ink holds something to read
GLARE_DOUBT = 0.5  # how sure an empty reading under a glare is
WIDER = 0.5  # half a square cell's crop read again when its number may have been cut (cutting.INSET: 0.42)
WAYS_READ_WHOLE = 2  # ways up read on the whole board, at most, when the sample cannot tell them apart

NO_BOARD = N_("No board of cells was found in this picture: take the photo from straight above, with the whole "
              "puzzle in view.")
NO_NUMBERS = N_("A grid of %(cells)s cells was found, but no numbers could be read in it: take the photo closer, "
                "in good light, with the whole puzzle in view.")
TOO_MANY_CELLS = N_("The board found has %(cells)s cells; boards of up to %(most)s cells can be read.")
UNKNOWN_ADJACENCY = N_("Unknown adjacency %(adjacency)s: choose king, rook or hex.")


class DigitReading(Protocol):
    """What ``read_cells`` says of one crop (``digits.DigitReading``)."""

    @property
    def value(self) -> int | None: ...

    @property
    def confidence(self) -> float: ...

    @property
    def kind(self) -> str: ...

    @property
    def others(self) -> tuple[tuple[int, float], ...]: ...

    @property
    def lines(self) -> tuple[Line, ...]: ...


ReadCells = Callable[[list[np.ndarray], "int | None"], Sequence[DigitReading]]


def cell_reader() -> ReadCells:
    """``digits.read_cells``: the model loads on its first call."""
    from .digits import read_cells

    return read_cells


class _Clock:
    """Stage times, the budget, and telling ``progress``."""

    def __init__(self, progress: Progress | None, budget: float) -> None:
        self.started = time.perf_counter()
        self.deadline = self.started + budget
        self.stages: dict[str, float] = {}
        self._stage: str | None = None
        self._since = self.started
        self._progress = progress

    def stage(self, name: str, said: str | None = None) -> None:
        self._close()
        self._stage, self._since = name, time.perf_counter()
        self.say(said or name)

    def say(self, words: str) -> None:
        if self._progress is not None:
            self._progress(words)

    def _close(self) -> None:
        if self._stage is not None:
            self.stages[self._stage] = self.stages.get(self._stage, 0.0) + time.perf_counter() - self._since
            self._stage = None

    def done(self) -> float:
        self._close()
        return time.perf_counter() - self.started

    @property
    def out_of_time(self) -> bool:
        return time.perf_counter() > self.deadline


def read(data: bytes, *, adjacency: str | None = None, entries: bool = False, debug: Path | None = None,
         progress: Progress | None = None, budget: float = BUDGET, read_cells: ReadCells | None = None) -> Reading:
    """Read the puzzle in ``data`` (see ``read_picture``); raises ScanError."""
    if adjacency is not None and adjacency not in ("king", "rook", "hex"):
        raise ScanError(UNKNOWN_ADJACENCY, adjacency=repr(adjacency[:20]))
    clock = _Clock(progress, budget)
    clock.stage("open", "opening the picture")
    picture = load(data)
    clock.stage("board", "finding the board")
    kind: Kind | None = None if adjacency is None else ("hex" if adjacency == "hex" else "square")
    found = find_board(picture, kind)
    if found is None:
        raise NoBoard(NO_BOARD)
    shape, lattice = found.shape, found.lattice
    cells = sorted(shape.cells)
    if len(cells) > MAX_CELLS:
        raise NoBoard(TOO_MANY_CELLS, cells=len(cells), most=MAX_CELLS)
    # Cells under a glare go to the reader too: their ink may be too faint to be seen here.
    inked = [p for p in cells if shape.ink[p] >= INKED or p in shape.glare]
    if not inked:
        raise NoBoard(NO_NUMBERS, cells=len(cells))
    n = len(cells)
    reader = read_cells or cell_reader()

    def cut_at(positions: Sequence[Position], rotation: int) -> list[np.ndarray]:
        return cut(lattice, picture.colour, found.scale, found.offset, positions, rotation)

    def read_at(positions: Sequence[Position], rotation: int, most: int = n) -> list[DigitReading]:
        return list(reader(cut_at(positions, rotation), most))

    clock.stage("rotation", "choosing which way up")
    middle = _middle(cells, lattice.kind)
    ways = choose(lattice.kind, picture_up(lattice, middle), sample(inked, shape.ink), n, read_at, cut_at)
    if not ways:
        raise NoBoard(NO_NUMBERS, cells=len(cells))
    clock.stage("cells", f"reading {len(inked)} cells")
    readings_by_way = []
    for way in ways[:WAYS_READ_WHOLE]:
        # Numbers a little above N are kept: a board found short of a cell or two would
        # refuse its largest numbers, and the engine's check points at them instead.
        readings_by_way.append((way, _read_all(inked, way, lambda p, r: read_at(p, r, n + max(2, n // 10)))))
        if clock.out_of_time:
            break
    if lattice.kind == "square":
        _reread_doubtful(readings_by_way, lambda p, r: list(reader(
            cut(lattice, picture.colour, found.scale, found.offset, p, r, inset=WIDER), n + max(2, n // 10))), n)
    cells, readings_by_way = _without_crosses(cells, readings_by_way)
    n = len(cells)
    clock.stage("engine", "checking the puzzle")
    best = _decide(readings_by_way, cells, lattice.kind, shape.glare, adjacency, entries, n, clock)
    way, readings, cell_of, verdict = best
    drafted = _reading(picture, found, way.rotation, cells, readings, cell_of, verdict)
    reading = Reading(drafted.puzzle, drafted.cells, drafted.width, drafted.height, drafted.doubtful,
                      drafted.solutions, clock.done(), dict(clock.stages))
    if debug is not None:
        clock.stage("debug", "writing the debug pictures")
        from .debug import write_debug

        write_debug(Path(debug), picture, found, way.rotation, cells, cell_of, reading)
        reading.stages["debug"] = clock.done() - reading.seconds
    return reading


def _reread_doubtful(readings_by_way: list[tuple[Tried, dict[Position, DigitReading]]],
                     read_wider: Callable[[Sequence[Position], int], list[DigitReading]], n: int) -> None:
    """Cells whose number may have been cut by the crop read again from a wider one: a
    cell read as a number another cell also holds, a cell with ink and no number, a
    doubtful reading, and a number whose ink reaches the crop's side.  A three-digit
    number in a small cell may reach past the crop, which cuts a digit off (125 read as
    12) or leaves pieces the model cannot read.  The wider reading is taken when it is a
    number of the board's ``n`` no other cell holds and it has more digits than the first,
    or the first had none, or it is surer (the kind stays: the board's readings told it).
    (The first reading may pass N a little, for a board found short of a cell; a second
    one that does would only replace a number by one the engine refuses: 100 by 109.)"""
    for way, readings in readings_by_way:
        counts = Counter(r.value for r in readings.values() if r.value is not None)
        again_at = [p for p, r in readings.items() if r.kind not in ("empty", "hole") and (
            r.value is None or counts[r.value] > 1 or r.confidence < DOUBT or getattr(r, "at_side", False))]
        if not again_at:
            continue
        for p, again in zip(again_at, read_wider(again_at, way.rotation), strict=True):
            old = readings[p]
            if again.value is None or again.value > n or counts[again.value] - (again.value == old.value) > 0:
                continue
            longer = old.value is not None and len(str(again.value)) > len(str(old.value))
            if old.value is None or longer or again.confidence > old.confidence:
                if old.value is not None:
                    counts[old.value] -= 1
                readings[p] = replace(again, kind=old.kind)  # type: ignore[type-var]
                counts[again.value] += 1


def _without_crosses(cells: list[Position], readings_by_way: list[tuple[Tried, dict[Position, DigitReading]]]
                     ) -> tuple[list[Position], list[tuple[Tried, dict[Position, DigitReading]]]]:
    """The cells and readings without the cells a cross marks as holes (our solver page
    draws them so): they are no cells of the board."""
    holes = {p for _, readings in readings_by_way for p, r in readings.items() if r.kind == "hole"}
    if not holes:
        return cells, readings_by_way
    cells = [p for p in cells if p not in holes]
    if len(cells) < FEWEST_CELLS:
        raise NoBoard(NO_BOARD)
    return cells, [(way, {p: r for p, r in readings.items() if p not in holes}) for way, readings in readings_by_way]


def _middle(cells: list[Position], kind: Kind) -> Position:
    """The cell nearest the board's middle."""
    points = plane(kind, np.array(cells))
    centre = points.mean(axis=0)
    return cells[int(np.argmin(((points - centre) ** 2).sum(axis=1)))]


def _read_all(inked: list[Position], way: Tried,
              read_at: Callable[[Sequence[Position], int], list[DigitReading]]) -> dict[Position, DigitReading]:
    """Every cell with ink read at ``way``'s rotation, in one call: the digits module tells
    a player's numbers from the givens by comparing the whole board's (a batch, or the
    sample read to choose the way up, may hold only one kind and could not tell)."""
    return dict(zip(inked, read_at(inked, way.rotation), strict=True))


def _givens(readings: dict[Position, DigitReading], cell_of: dict[Position, Cell],
            entries: bool) -> dict[Cell, tuple[int, float]]:
    return {cell_of[p]: (r.value, r.confidence) for p, r in readings.items()
            if r.value is not None and (entries or r.kind != "written")}


def _decide(readings_by_way: list[tuple[Tried, dict[Position, DigitReading]]], cells: list[Position], kind: Kind,
            glare: set[Position], adjacency: str | None, entries: bool, n: int,
            clock: _Clock) -> tuple[Tried, dict[Position, DigitReading], dict[Position, Cell], Verdict]:
    """The way up whose reading the engine finds a unique solution for; else the one
    whose readings are the most believable."""
    judged = []
    for way, readings in readings_by_way:
        cell_of = layout(kind, cells, way.rotation)
        givens = _givens(readings, cell_of, entries)
        blank = [cell_of[p] for p, r in readings.items() if r.value is None and r.kind != "empty"]
        unsure = {cell_of[p]: float(r.confidence) for p, r in readings.items() if r.confidence < DOUBT}
        # Nothing read under a glare is no proof of an empty cell.
        unsure.update({cell_of[p]: GLARE_DOUBT for p in glare if p in readings and readings[p].value is None})
        verdict = judge([cell_of[p] for p in cells], givens, kind == "square", _adjacency(adjacency), unsure, blank,
                        clock.deadline)
        if verdict.solutions != 1:
            mended = _mended(readings, cell_of, givens, kind, adjacency, verdict, unsure, blank, clock)
            if mended is not None:
                readings, verdict = mended
        judged.append((way, readings, cell_of, verdict))
        if verdict.solutions == 1:
            return judged[-1]
    return max(judged, key=lambda j: score(list(j[1].values()), n))


def _mended(readings: dict[Position, DigitReading], cell_of: dict[Position, Cell],
            givens: dict[Cell, tuple[int, float]], kind: Kind, adjacency: str | None, verdict: Verdict,
            unsure: dict[Cell, float], blank: list[Cell],
            clock: _Clock) -> tuple[dict[Position, DigitReading], Verdict] | None:
    """The readings and verdict with the misread givens mended (``repair``): the first
    mending the engine finds one solution for, else the first that breaks none of the
    rules ``repair`` checks (the reading broke them, so it had no solution: the mended one
    is nearer, and the engine still points at its doubtful cells).  None: keep the reading."""
    from .repair import conflicts, repair, rook_parity

    position = {cell: p for p, cell in cell_of.items()}
    others = {cell_of[p]: r.others for p, r in readings.items()}
    cells = list(cell_of.values())
    ways: list[Adjacency] = [_adjacency(adjacency) or ("king" if kind == "square" else "hex")]
    if kind == "square" and adjacency is None:
        ways.append("rook")
    boards = [Board.from_cells(cells, moves) for moves in ways]
    # Only a reading no adjacency's rules allow is mended: one a Hidato's allow is no
    # misread Numbrix (whose stricter rules it breaks), however long the engine takes.
    for board in boards:
        if not any(conflicts(board, {c: g for c, g in givens.items() if 1 <= g[0] <= board.size}).values()):
            return None

    tried = []
    found: list[tuple[dict[Position, DigitReading], Verdict]] = []
    # The mending with the fewest changes first; but a reading whose givens nearly all
    # keep a Numbrix's parity (a rook's step changes a square's colour, so a number's
    # parity follows its cell's) is a Numbrix's, whose stricter rules mend it better.
    numbrix = kind == "square" and adjacency is None and rook_parity(givens)
    for board in boards:
        fixed = repair(board, givens, others, _weigher(readings, position))
        if fixed is not None:
            changes = sum(c not in fixed or fixed[c][0] != givens[c][0] for c in givens)
            tried.append((not (numbrix and board.adjacency == "rook"), changes, fixed))
    for _, _, fixed in sorted(tried, key=lambda t: t[:2]):
        # Past the budget the engine does not look (the judge gives it no time), but the
        # mending stands on the rules alone: a busy machine reads what a quiet one does.
        left_out = [c for c in givens if c not in fixed]
        sure = dict(unsure)
        sure.update({c: v[1] for c, v in fixed.items() if v[0] != givens[c][0]})
        sure.update({c: givens[c][1] for c in left_out})
        again = judge(cells, fixed, kind == "square", _adjacency(adjacency), sure, blank + left_out, clock.deadline)
        if again.solutions != 0:
            mended = dict(readings)
            for cell in givens:
                p = position[cell]
                if cell not in fixed:
                    mended[p] = replace(readings[p], value=None, confidence=0.0)  # type: ignore[type-var]
                elif fixed[cell][0] != givens[cell][0]:
                    mended[p] = replace(readings[p], value=fixed[cell][0], confidence=fixed[cell][1])  # type: ignore[type-var]
            found.append((mended, again))
            if again.solutions == 1:
                return found[-1]
    return found[0] if found else None


def _weigher(readings: dict[Position, DigitReading], position: dict[Cell, Position]
             ) -> Callable[[Cell, Sequence[int]], list[float]]:
    """How likely the model found each number in a cell, summed over its readings (the
    readings' lines, which ``digits.DigitReading`` keeps)."""
    def weigh(cell: Cell, values: Sequence[int]) -> list[float]:
        from .digits_model import likelihood

        lines = readings[position[cell]].lines
        return [sum(likelihood(line, str(value)) for line in lines) for value in values]

    return weigh


def _adjacency(adjacency: str | None) -> Adjacency | None:
    if adjacency in ("king", "rook", "hex"):
        return adjacency  # type: ignore[return-value]
    return None


def _reading(picture: Picture, found: Found, rotation: int, cells: list[Position],
             readings: dict[Position, DigitReading], cell_of: dict[Position, Cell], verdict: Verdict) -> Reading:
    """The Reading: each cell with what was read, its outline in fractions of the picture."""
    outlines = outline_points(found, cells, rotation, picture)
    out = []
    for p, outline in zip(cells, outlines, strict=True):
        r = readings.get(p)
        cell = cell_of[p]
        if r is None:  # no ink: empty
            out.append(CellReading(cell, None, 1.0, outline, True))
            continue
        sure = float(r.confidence)
        if p in found.shape.glare and r.value is None:
            sure = min(sure, GLARE_DOUBT)  # as the judge weighed it: nothing seen under a glare
        out.append(CellReading(cell, r.value, sure, outline, r.kind != "written"))
    out.sort(key=lambda c: c.cell)
    return Reading(verdict.puzzle, tuple(out), picture.width, picture.height, verdict.doubtful, verdict.solutions)


def outline_points(found: Found, cells: list[Position], rotation: int,
                   picture: Picture) -> list[tuple[tuple[float, float], ...]]:
    """Each cell's corners in fractions of the picture as shown, in order around it
    (clockwise, from the top left as read for a square, from the top for a hexagon)."""
    lattice = found.lattice
    kind = lattice.kind
    from .cutting import up_vector

    up = up_vector(kind, rotation)
    right = np.array([-up[1], up[0]])
    if kind == "square":
        offsets = np.array([(-right + up), (right + up), (right - up), (-right - up)]) * 0.5
    else:
        # The hexagon's corners lie between neighbour directions (0°, 60°... on the flat
        # board), 1/√3 from the centre: at 30°, 90°...; in order from the one nearest up.
        radius = 1 / math.sqrt(3)
        angles = [math.radians(30 + 60 * k) for k in range(6)]
        points = np.array([(math.cos(a), math.sin(a)) for a in angles]) * radius
        first = int(np.argmax(points @ up))
        # Clockwise on a y-down picture is increasing angle.
        offsets = np.array([points[(first + k) % 6] for k in range(6)])
    where = lattice.around(plane(kind, np.array(cells)), offsets) * found.scale + np.array(found.offset)
    h, w = picture.colour.shape[:2]
    return [tuple((float(x) / w, float(y) / h) for x, y in quad) for quad in where]

