"""Named board shapes, custom text masks, and a quick test that a shape can hold a path.

Every named shape takes one ``size`` (its description says what the size measures) and
scales from about 12-20 cells to about 400.  Shapes are plain cell lists, the same for
every adjacency; a shape that cannot hold a path under some adjacency lists only the
adjacencies it supports, and ``shape_board`` refuses the others.  ``ShapeSpec.sizes``
says, as facts for the forms that offer shapes, which sizes take each adjacency (all of
them but for a few: the rook hexagon's dead ends and colours).

Row 0 is the top row.  The hexagon is drawn for the hex layout (odd-r: odd rows shifted
half a cell right) starting on an even row, so it looks regular on a hex board.
Picture shapes (heart, star, skull) are rasterised from outlines computed with plain
arithmetic only (no trigonometry at run time), so they come out the same everywhere.

``check_playable`` rejects boards that clearly have no Hamiltonian path, using cheap
necessary conditions only; passing it does not promise that a path exists.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .board import ADJACENCIES, MAX_CELLS, MAX_SIDE, Adjacency, Board, Cell
from .words import FactsError

__all__ = [
    "SHAPES",
    "ShapeError",
    "ShapeSpec",
    "check_playable",
    "leaf_block_cells",
    "parse_mask",
    "shape_board",
    "shape_cells",
]


class ShapeError(FactsError):
    """A shape that cannot be built, or a board that cannot hold a path through every cell
    (its English message and its facts: ``words.FactsError``)."""


@dataclass(frozen=True)
class ShapeSpec:
    """A named shape: what its size means, the sizes allowed and how to draw it."""

    name: str
    description: str
    min_size: int
    max_size: int
    default_size: int
    builder: Callable[[int], list[Cell]]
    adjacencies: tuple[Adjacency, ...] = ADJACENCIES
    # Adjacencies that take only some sizes, and those sizes (tests check the list against
    # check_playable at every size).
    only_sizes: tuple[tuple[Adjacency, tuple[int, ...]], ...] = ()

    def takes(self, adjacency: str) -> bool:
        """Whether the shape holds a path with this adjacency at some size."""
        return adjacency in self.adjacencies

    def sizes(self, adjacency: str) -> tuple[int, ...]:
        """The sizes at which the shape holds a path with this adjacency, smallest first
        (none when it does not take the adjacency)."""
        if not self.takes(adjacency):
            return ()
        for name, sizes in self.only_sizes:
            if name == adjacency:
                return sizes
        return tuple(range(self.min_size, self.max_size + 1))


# --- geometric shapes -------------------------------------------------------------------


def _rectangle(rows: int, cols: int) -> list[Cell]:
    return [(r, c) for r in range(rows) for c in range(cols)]


def _square(size: int) -> list[Cell]:
    return _rectangle(size, size)


def _diamond(size: int) -> list[Cell]:
    # ``size`` rows from a tip to the middle.  Rows of even width (2, 4, 6, ...) keep the
    # two colours of a chessboard balanced, which a rook path needs; odd widths would
    # leave one colour ahead by about a row.
    cells: list[Cell] = []
    for r in range(2 * size):
        k = min(r, 2 * size - 1 - r)  # 0 on the tips
        cells.extend((r, c) for c in range(size - 1 - k, size + 1 + k))
    return cells


def _cross(size: int) -> list[Cell]:
    # ``size`` is half the side.  Arms of even width (about a third of the side, at least
    # two so a path can go in and out) keep a chessboard's colours balanced for rook;
    # odd arms on an odd side can leave one colour three squares ahead.
    side = 2 * size
    width = 2 * max(1, round(size / 3))
    lo = (side - width) // 2
    hi = lo + width
    return [(r, c) for r in range(side) for c in range(side) if lo <= r < hi or lo <= c < hi]


def _ring(size: int) -> list[Cell]:
    frame = max(1, (size + 2) // 5)
    return [
        (r, c)
        for r in range(size)
        for c in range(size)
        if min(r, c, size - 1 - r, size - 1 - c) < frame
    ]


def _triangle(size: int) -> list[Cell]:
    # Even widths 2, 4, ..., 2 * size, for the same colour balance as the diamond.
    return [(r, c) for r in range(size) for c in range(size - 1 - r, size + 1 + r)]


def _hexagon(size: int) -> list[Cell]:
    # A hexagon with ``size`` cells on each side, drawn in odd-r layout: the true left
    # edge of row r sits at x = d / 2 (d = rows from the middle row) and odd rows are
    # drawn half a cell to the right, so the column is x minus that half cell.
    middle = size - 1
    cells: list[Cell] = []
    for r in range(2 * size - 1):
        d = abs(r - middle)
        # doubled x of the left edge, then shifted by the layout's half cell
        start = (d + (middle % 2) - (r % 2)) // 2
        cells.extend((r, c) for c in range(start, start + 2 * size - 1 - d))
    return cells


# --- picture shapes, rasterised from outlines -------------------------------------------


def _raster(rows: int, cols: int, inside: Callable[[float, float], bool]) -> list[Cell]:
    """Cells whose centre (x, y in 0..1 across the grid, y downwards) lies inside."""
    return [
        (r, c)
        for r in range(rows)
        for c in range(cols)
        if inside((c + 0.5) / cols, (r + 0.5) / rows)
    ]


def _open(cells: Iterable[Cell]) -> list[Cell]:
    """Only the cells in some full 2x2 block: thin spikes would be dead ends."""
    present = set(cells)
    kept: set[Cell] = set()
    for r, c in present:
        block = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
        if all(cell in present for cell in block):
            kept.update(block)
    return sorted(kept)


def _largest_piece(cells: Iterable[Cell]) -> list[Cell]:
    """The biggest king-connected piece, so a coarse raster never falls apart."""
    left = sorted(set(cells))
    remaining = set(left)
    best: list[Cell] = []
    for seed in left:
        if seed not in remaining:
            continue
        remaining.discard(seed)
        piece, todo = [seed], [seed]
        while todo:
            r, c = todo.pop()
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    cell = (r + dr, c + dc)
                    if cell in remaining:
                        remaining.discard(cell)
                        piece.append(cell)
                        todo.append(cell)
        if len(piece) > len(best):
            best = piece
    return sorted(best)


def _heart(size: int) -> list[Cell]:
    rows = max(4, round(size * 0.9))

    def inside(x: float, y: float) -> bool:
        u = (x - 0.5) * 2.0  # -1 .. 1 across
        v = 1.0 - y * 2.0  # 1 at the top .. -1 at the tip
        lobe = (abs(u) - 0.5) ** 2 + (v - 0.5) ** 2 <= 0.25
        body = v <= 0.5 and abs(u) <= (v + 1.0) * (2 / 3)
        return lobe or body

    return _largest_piece(_open(_raster(rows, size, inside)))


# A regular five-pointed star, point up: outer radius 1, inner radius 0.382.  The corners
# are cos and sin of 90, 162, ... and 126, 198, ... degrees, written out so no libm
# rounding can differ between machines.
_OUTER = ((0.0, 1.0), (-0.951057, 0.309017), (-0.587785, -0.809017), (0.587785, -0.809017), (0.951057, 0.309017))
_INNER = ((-0.587785, 0.809017), (-0.951057, -0.309017), (0.0, -1.0), (0.951057, -0.309017), (0.587785, 0.809017))
_STAR_INNER_RADIUS = 0.382
_STAR = tuple(
    corner
    for (ox, oy), (ix, iy) in zip(_OUTER, _INNER, strict=True)
    for corner in ((ox, oy), (ix * _STAR_INNER_RADIUS, iy * _STAR_INNER_RADIUS))
)
_STAR_WIDTH = 2 * 0.951057  # from one arm's tip to the other's
_STAR_HEIGHT = 1.809017  # from the top point (y = 1) down to the feet (y = -0.809)
_STAR_ARMS = 0.309017  # the height of the arms' straight top edges
# How far outside its outline, in cells, a cell's centre may lie and still belong to the
# star: this thickens the points, so each stays two or more cells wide at every size
# (rasterised by their centres alone, the legs of a small star were single cells or
# nothing, and the star read as a house).
_STAR_REACH = 0.6


def _in_polygon(x: float, y: float, corners: tuple[tuple[float, float], ...]) -> bool:
    inside = False
    j = len(corners) - 1
    for i in range(len(corners)):
        xi, yi = corners[i]
        xj, yj = corners[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def _near_outline(x: float, y: float, corners: tuple[tuple[float, float], ...], reach: float) -> bool:
    """Whether (x, y) lies within ``reach`` of the polygon's outline (squared distances:
    plain arithmetic, the same on every machine)."""
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
        dx, dy = bx - ax, by - ay
        along = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
        ex, ey = ax + along * dx - x, ay + along * dy - y
        if ex * ex + ey * ey <= reach * reach:
            return True
    return False


def _mirror_pruned(cells: Iterable[Cell], width: int) -> list[Cell]:
    """Without the cells that would be dead ends on a king or a hex board (fewer than two
    neighbours), each with its mirror image, so the picture stays symmetric; again until
    none is left (a removal can leave a new one)."""
    kept = set(cells)
    while kept:
        top, left = min(r for r, _ in kept), min(c for _, c in kept)
        shifted = sorted((r - top, c - left) for r, c in kept)  # hex rows shift by the board's own parity
        ends: set[Cell] = set()
        for adjacency in ("king", "hex"):
            board = Board.from_cells(shifted, adjacency)
            ends.update((board.cells[i][0] + top, board.cells[i][1] + left)
                        for i, near in enumerate(board.neighbours) if len(near) < 2)
        if not ends:
            break
        kept -= ends | {(r, width - 1 - c) for r, c in ends}
    return sorted(kept)


def _star(size: int) -> list[Cell]:
    # ``size`` columns and as many rows: a regular star is 0.95 as tall as it is wide, and
    # the row it gains lengthens the legs (on a hex board, whose rows are 0.87 of a cell
    # apart, it looks the right height too).
    rows = size
    column, row = _STAR_WIDTH / size, _STAR_HEIGHT / rows  # the star's units in a cell
    corners = tuple((x / column, y / row) for x, y in _STAR)  # in cells from the star's centre
    # The picture moves down by under half a row so that the arms' top edges run between
    # two rows: each arm then ends in two cells, never in a single one.
    edge = (1.0 - _STAR_ARMS) / row
    shift = round(edge) - edge
    cells = []
    for r in range(-1, rows + 1):
        for c in range(size):
            x, y = c + 0.5 - size / 2, 1.0 / row - (r + 0.5 - shift)
            if _in_polygon(x, y, corners) or _near_outline(x, y, corners, _STAR_REACH):
                cells.append((r, c))
    return _largest_piece(_mirror_pruned(cells, size))


def _skull(size: int) -> list[Cell]:
    rows = max(5, size)

    def inside(x: float, y: float) -> bool:
        u = x - 0.5  # -0.5 .. 0.5 across
        cranium = u * u + (y - 0.42) ** 2 <= 0.25 and y <= 0.8
        jaw = abs(u) <= 0.3 and y >= 0.6
        eye = (abs(u) - 0.21) ** 2 + ((y - 0.5) / 1.3) ** 2 <= 0.01
        nose = 0.62 <= y <= 0.78 and abs(u) <= (y - 0.62) * 0.5
        return (cranium or jaw) and not eye and not nose

    cells = _largest_piece(_open(_raster(rows, size, inside)))
    # Teeth: gaps in the bottom row, every other column, once the jaw is wide enough.
    bottom = max(r for r, _ in cells)
    jaw = sorted(c for r, c in cells if r == bottom)
    if len(jaw) >= 5:
        gaps = {c for c in jaw[1:-1] if (c - jaw[0]) % 2}
        cells = [(r, c) for r, c in cells if r != bottom or c not in gaps]
    return cells


def _arrow(size: int) -> list[Cell]:
    # An arrow pointing right: a shaft a third as thick as the head, then a head whose
    # sides run at 45 degrees to a single-cell tip.
    half = max(2, size * 3 // 10)  # the head is 2 * half + 1 rows tall
    thick = max(1, round(half / 3))
    shaft = size - half - 1
    cells = [(r, c) for r in range(half - thick, half + thick + 1) for c in range(shaft)]
    for k in range(half + 1):
        cells.extend((r, shaft + k) for r in range(k, 2 * half + 1 - k))
    return cells


def _spec(
    name: str,
    description: str,
    sizes: tuple[int, int, int],
    builder: Callable[[int], list[Cell]],
    adjacencies: tuple[Adjacency, ...] = ADJACENCIES,
    only_sizes: tuple[tuple[Adjacency, tuple[int, ...]], ...] = (),
) -> ShapeSpec:
    low, default, high = sizes
    return ShapeSpec(name, description, low, high, default, builder, tuple(adjacencies), only_sizes)


_KING_HEX: tuple[Adjacency, ...] = ("king", "hex")

SHAPES: dict[str, ShapeSpec] = {
    spec.name: spec
    for spec in (
        _spec("rectangle", "a full rectangle; size is the side, or give rows and cols", (4, 8, 21), _square),
        _spec("square", "a full square; size is the side", (4, 8, 21), _square),
        _spec("diamond", "a diamond of rows 2, 4, 6, ... cells wide; size is the rows from tip to middle",
              (2, 5, 14), _diamond),
        _spec("cross", "a plus sign with arms a third of the side wide; size is half the side", (3, 5, 13), _cross),
        _spec("heart", "a heart; size is its width", (6, 12, 28), _heart, _KING_HEX),
        _spec("ring", "a square frame around a square hole; size is the outer side", (5, 10, 26), _ring),
        _spec("triangle", "a triangle of rows 2, 4, 6, ... cells wide; size is its height", (4, 8, 20), _triangle,
              _KING_HEX),
        _spec(
            "hexagon",
            "a hexagon drawn for hex boards; size is the cells per side (rook: sizes 5, 6, 9, 10 only)",
            (3, 5, 12),
            _hexagon,
            only_sizes=(("rook", (5, 6, 9, 10)),),
        ),
        _spec("star", "a five-pointed star; size is its width", (12, 16, 33), _star, _KING_HEX),
        _spec("skull", "a skull with eye sockets, nose and teeth; size is its width", (10, 14, 24), _skull, _KING_HEX),
        _spec("arrow", "an arrow pointing right; size is its length", (8, 16, 42), _arrow, ("king",)),
    )
}


# --- building shapes ------------------------------------------------------------------


def _normalise(cells: Iterable[Cell]) -> list[Cell]:
    """Cells sorted and moved so the top row and the left column are 0."""
    cells = sorted(set(cells))
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return [(r - top, c - left) for r, c in cells]


def _lookup(name: str) -> ShapeSpec:
    spec = SHAPES.get(name)
    if spec is None:
        raise ShapeError("unknown shape %(name)s: expected one of %(choices)s", name=repr(name),
                         choices=", ".join(sorted(SHAPES)))
    return spec


def shape_cells(name: str, size: int, rows: int | None = None, cols: int | None = None) -> list[Cell]:
    """The cells of a named shape at a size, sorted, with top row and left column 0."""
    spec = _lookup(name)
    if not isinstance(size, int) or isinstance(size, bool):
        raise ShapeError("size must be a whole number, not %(size)s", size=repr(size)[:20])
    if rows is not None or cols is not None:
        if name != "rectangle":
            raise ShapeError("rows and cols apply to the rectangle only, not to the %(shape)s", shape=name)
        rows = size if rows is None else rows
        cols = size if cols is None else cols
        if not 1 <= rows <= MAX_SIDE:
            raise ShapeError("rectangle rows must be 1..%(most)s, not %(value)s", most=MAX_SIDE, value=rows)
        if not 1 <= cols <= MAX_SIDE:
            raise ShapeError("rectangle cols must be 1..%(most)s, not %(value)s", most=MAX_SIDE, value=cols)
        if rows * cols > MAX_CELLS:
            raise ShapeError("a %(rows)sx%(cols)s rectangle has %(cells)s cells, more than %(most)s",
                             rows=rows, cols=cols, cells=rows * cols, most=MAX_CELLS)
        return _rectangle(rows, cols)
    if not spec.min_size <= size <= spec.max_size:
        raise ShapeError("size %(size)s is out of range for the %(shape)s: expected %(low)s..%(high)s",
                         size=size, shape=name, low=spec.min_size, high=spec.max_size)
    return _normalise(spec.builder(size))


def shape_board(
    name: str,
    size: int,
    adjacency: Adjacency = "king",
    rows: int | None = None,
    cols: int | None = None,
) -> Board:
    """A board of a named shape; ShapeError if it cannot hold a path with this adjacency."""
    spec = _lookup(name)
    if adjacency not in ADJACENCIES:
        raise ShapeError("unknown adjacency %(name)s: expected king, rook or hex", name=repr(adjacency))
    if adjacency not in spec.adjacencies:
        raise ShapeError("the %(shape)s shape is for %(allowed)s boards only, not %(adjacency)s",
                         shape=name, allowed=" and ".join(spec.adjacencies), adjacency=adjacency)
    board = Board.from_cells(shape_cells(name, size, rows, cols), adjacency)
    try:
        check_playable(board)
    except ShapeError as error:
        if name == "rectangle":
            raise ShapeError("the %(rows)sx%(cols)s rectangle cannot be played with %(adjacency)s moves: %(why)s",
                             rows=rows or size, cols=cols or size, adjacency=adjacency, why=error.phrase) from None
        raise ShapeError("the %(shape)s of size %(size)s cannot be played with %(adjacency)s moves: %(why)s",
                         shape=name, size=size, adjacency=adjacency, why=error.phrase) from None
    return board


# --- custom masks -----------------------------------------------------------------------

MASK_CELL = frozenset("#oO")
MASK_HOLE = frozenset(".xX- ")


def parse_mask(text: str) -> list[Cell]:
    """Cells of a text mask: one character per column, ``#``/``o`` a cell, ``.``/``x``/``-``/space none.

    Uppercase ``O`` and ``X`` are accepted too.  Blank lines before the first and after
    the last row are ignored; the cells come back sorted with top row and left column 0
    (so on a hex board the first row holding a cell is an even, unshifted row).
    """
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    first = 0
    while first < len(lines) and not lines[first].strip():
        first += 1
    if len(lines) - first > MAX_SIDE:
        raise ShapeError("the mask has %(rows)s rows, more than %(most)s", rows=len(lines) - first, most=MAX_SIDE)
    cells: list[Cell] = []
    for row, line in enumerate(lines[first:]):
        line_no = first + row + 1
        if len(line.rstrip(" ")) > MAX_SIDE:
            raise ShapeError("line %(line)s, column %(column)s: the mask is wider than %(most)s columns",
                             line=line_no, column=MAX_SIDE + 1, most=MAX_SIDE)
        for col, char in enumerate(line):
            if char in MASK_HOLE:
                continue
            if char not in MASK_CELL:
                raise ShapeError("line %(line)s, column %(column)s: unexpected %(char)s in a mask "
                                 "(use '#' or 'o' for a cell, '.', 'x', '-' or space for none)",
                                 line=line_no, column=col + 1, char=repr(char))
            cells.append((row, col))
            if len(cells) > MAX_CELLS:
                raise ShapeError("line %(line)s, column %(column)s: the mask has more than %(most)s cells",
                                 line=line_no, column=col + 1, most=MAX_CELLS)
    if not cells:
        raise ShapeError("the mask has no cells: mark cells with '#' or 'o'")
    return _normalise(cells)


# --- can a path cover the board? ------------------------------------------------------


def _where(board: Board, indices: Iterable[int]) -> list[Cell]:
    """Cells for a message, in reading order (``words.english`` names the first few:
    "row 1, column 2; row 3, column 1")."""
    return [board.cells[i] for i in sorted(indices)]


def _pieces(board: Board) -> list[list[int]]:
    """The connected pieces of the board, each as a sorted list of cell indices."""
    seen = [False] * board.size
    pieces = []
    for start in range(board.size):
        if seen[start]:
            continue
        seen[start] = True
        piece, todo = [start], [start]
        while todo:
            for j in board.neighbours[todo.pop()]:
                if not seen[j]:
                    seen[j] = True
                    piece.append(j)
                    todo.append(j)
        pieces.append(sorted(piece))
    return pieces


def _blocks(board: Board) -> list[list[int]]:
    """Biconnected blocks of a connected board (Tarjan, iterative), as lists of cells."""
    n = board.size
    neighbours = board.neighbours
    order = [-1] * n
    low = [0] * n
    edges: list[tuple[int, int]] = []
    blocks: list[list[int]] = []
    order[0] = 0
    counter = 1
    stack = [(0, -1, 0)]  # (cell, parent, next neighbour position)
    while stack:
        v, parent, k = stack[-1]
        if k < len(neighbours[v]):
            stack[-1] = (v, parent, k + 1)
            w = neighbours[v][k]
            if order[w] < 0:
                order[w] = low[w] = counter
                counter += 1
                edges.append((v, w))
                stack.append((w, v, 0))
            elif w != parent and order[w] < order[v]:
                edges.append((v, w))
                low[v] = min(low[v], order[w])
            continue
        stack.pop()
        if parent < 0:
            continue
        low[parent] = min(low[parent], low[v])
        if low[v] >= order[parent]:
            block: set[int] = set()
            while True:
                a, b = edges.pop()
                block.update((a, b))
                if (a, b) == (parent, v):
                    break
            blocks.append(sorted(block))
    return blocks


def leaf_block_cells(board: Board) -> list[int]:
    """Cells a path must start or stop among: those of parts hanging on a single cell.

    Empty when no single cell holds the board together (a connected board is assumed).
    """
    if board.size < 3:
        return []
    blocks = _blocks(board)
    if len(blocks) == 1:
        return []
    count = [0] * board.size
    for block in blocks:
        for i in block:
            count[i] += 1
    return sorted(
        i
        for block in blocks
        if sum(count[j] > 1 for j in block) == 1
        for i in block
        if count[i] == 1
    )


def check_playable(board: Board) -> None:
    """Raise ShapeError if the board clearly has no path through every cell (cheap tests only)."""
    n = board.size
    if n == 1:
        return
    neighbours = board.neighbours
    lonely = [i for i in range(n) if not neighbours[i]]
    if len(lonely) == 1:
        raise ShapeError("the cell at %(cell)s has no neighbour", cell=board.cells[lonely[0]])
    if lonely:
        raise ShapeError("%(count)s cells have no neighbour: %(cells)s", count=len(lonely),
                         cells=_where(board, lonely))
    pieces = _pieces(board)
    if len(pieces) > 1:
        sizes = ", ".join(str(len(p)) for p in sorted(pieces, key=len, reverse=True)[:6])
        raise ShapeError("the shape falls apart into %(count)s pieces (of %(sizes)s cells)", count=len(pieces),
                         sizes=sizes)
    ends = [i for i in range(n) if len(neighbours[i]) == 1]
    if len(ends) > 2:
        raise ShapeError("the shape has %(count)s dead ends (cells with only one neighbour: %(cells)s); "
                         "a path can start or stop in only two", count=len(ends), cells=_where(board, ends))
    if board.adjacency == "rook":
        _check_colours(board, ends)
    _check_cuts(board)
    _check_narrow(board, ends)


def _check_colours(board: Board, ends: list[int]) -> None:
    """A rook path alternates the colours of a chessboard."""
    dark = [i for i, (r, c) in enumerate(board.cells) if (r + c) % 2]
    light = board.size - len(dark)
    if abs(light - len(dark)) > 1:
        raise ShapeError("a rook path alternates light and dark squares, but the shape has %(light)s light "
                         "and %(dark)s dark ones (they may differ by at most one)", light=light, dark=len(dark))
    if light != len(dark):
        # one colour has a square more, so a path starts and stops on that colour
        major = 1 if len(dark) > light else 0
        wrong = [i for i in ends if sum(board.cells[i]) % 2 != major]
        if wrong and major:
            raise ShapeError("the dead end at %(cell)s must be an end of the path, but it is light and a rook path "
                             "over %(light)s light and %(dark)s dark squares starts and stops on dark ones",
                             cell=board.cells[wrong[0]], light=light, dark=len(dark))
        if wrong:
            raise ShapeError("the dead end at %(cell)s must be an end of the path, but it is dark and a rook path "
                             "over %(light)s light and %(dark)s dark squares starts and stops on light ones",
                             cell=board.cells[wrong[0]], light=light, dark=len(dark))
    elif len(ends) == 2 and sum(board.cells[ends[0]]) % 2 == sum(board.cells[ends[1]]) % 2:
        raise ShapeError(
            "the two dead ends are the same colour, but a rook path over as many light as dark "
            "squares starts and stops on different colours"
        )


def _check_cuts(board: Board) -> None:
    """A path survives losing one cell in at most two pieces, and has only two ends."""
    blocks = _blocks(board)
    if len(blocks) == 1:
        return
    count = [0] * board.size
    for block in blocks:
        for i in block:
            count[i] += 1
    cuts = [i for i in range(board.size) if count[i] > 1]
    for i in cuts:
        if count[i] > 2:
            raise ShapeError("removing the cell at %(cell)s splits the shape into %(count)s pieces; "
                             "a path passes through it only once, so it can reach at most two",
                             cell=board.cells[i], count=count[i])
    leaves = [block for block in blocks if sum(count[i] > 1 for i in block) == 1]
    if len(leaves) > 2:
        necks = sorted(next(i for i in block if count[i] > 1) for block in leaves)
        raise ShapeError("%(count)s parts of the shape hang on a single cell (at %(cells)s); "
                         "a path must end inside each of them, and it has only two ends",
                         count=len(leaves), cells=_where(board, necks))


def _check_narrow(board: Board, ends: list[int]) -> None:
    """Cells with at most two neighbours force the path through those neighbours."""
    neighbours = board.neighbours
    narrow = [len(near) <= 2 for near in neighbours]
    if board.size <= 3:
        return
    # Each cell can take two path steps; every further narrow neighbour must be an end
    # of the path that does not step to it, and the path has only two ends.
    spare = 2 - len(ends)
    over = []
    for i in range(board.size):
        excess = sum(narrow[j] for j in neighbours[i]) - 2
        if excess > 0:
            over.append(i)
            spare -= excess
    if spare < 0:
        raise ShapeError("too many cells with at most two neighbours crowd round the cell at %(cell)s: a path "
                         "passes through a cell once, so it can serve only two of them there, and it has only "
                         "two ends for the rest", cell=board.cells[over[0]])
