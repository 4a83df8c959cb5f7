"""Reading and writing puzzles as text and as compact ids.

Text notation: one board row per line, cells separated by whitespace.  ``.``, ``0`` or
``_`` is an empty cell, ``x``, ``X`` or ``-`` a hole, a positive integer a given.  Short
rows are padded with holes.  ``#`` starts a comment line; ``# adjacency: rook`` (or
``king``, ``hex``) sets the adjacency.  A file may hold several puzzles separated by
blank lines (see ``split_puzzles``, and ``iter_puzzles``, which reads them one at a
time from a stream of lines).

Compact id (URL-safe, in the spirit of Simon Tatham's game ids):
``{rows}x{cols}{suffix}:{body}`` with suffix ``''`` (king), ``r`` (rook) or ``h`` (hex).
The body walks the grid in row-major order: ``a``-``z`` is a run of 1-26 empty cells,
``A``-``Z`` a run of 1-26 holes, a decimal number a given; two numbers in a row are
separated by ``_``.  Example: ``2x3:1bA5a`` is the rows ``1 . .`` and ``x 5 .``.

Every malformed input raises ``PuzzleFormatError``; size limits are checked while
scanning so huge inputs are rejected without being read in full.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

from .board import ADJACENCIES, MAX_CELLS, MAX_SIDE, Adjacency, Board, Cell, Puzzle

__all__ = [
    "PuzzleFormatError",
    "parse_puzzle",
    "format_puzzle",
    "split_puzzles",
    "iter_puzzles",
    "puzzle_to_id",
    "puzzle_from_id",
]

EMPTY_TOKENS = frozenset({".", "0", "_"})
HOLE_TOKENS = frozenset({"x", "X", "-"})
# Generous: a 250-column row of 4-digit numbers is ~1250 characters.
MAX_LINE_CHARS = 10_000
# Bounds the loop over comment and blank lines, which the cell limits do not.
MAX_LINES = 20_000
# N <= MAX_CELLS has 4 digits; anything longer is out of range, so int() is never slow.
_MAX_DIGITS = len(str(MAX_CELLS)) + 1
# Longest possible id: every cell of a MAX_SIDE x MAX_SIDE grid written as one letter.
_MAX_ID_CHARS = MAX_SIDE * MAX_SIDE + MAX_CELLS * (_MAX_DIGITS + 1) + 32

_ADJACENCY_COMMENT = re.compile(r"#\s*adjacency\s*:\s*(.*?)\s*$", re.IGNORECASE)
_TOKEN = re.compile(r"\S+")
_ID_HEAD = re.compile(r"([1-9][0-9]{0,3})x([1-9][0-9]{0,3})([rh]?):")
_ID_SUFFIX: dict[Adjacency, str] = {"king": "", "rook": "r", "hex": "h"}
_ID_ADJACENCY: dict[str, Adjacency] = {suffix: name for name, suffix in _ID_SUFFIX.items()}


class PuzzleFormatError(ValueError):
    """Malformed puzzle text or id, with the 1-based line and column when known."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        self.message = message
        self.line = line
        self.column = column
        # The facts of the message, for a caller that words it in another language: an
        # English template with %(name)s fields, and their values.
        self.template = message.replace("%", "%%")
        self.params: dict[str, object] = {}
        super().__init__(self._describe())

    @classmethod
    def of(cls, template: str, line: int | None = None, column: int | None = None,
           **params: object) -> PuzzleFormatError:
        """An error whose message is ``template % params`` (the facts kept apart)."""
        err = cls(template % params if params else template, line, column)
        err.template, err.params = template, params
        return err

    def _describe(self) -> str:
        if self.line is None:
            return self.message
        if self.column is None:
            return f"line {self.line}: {self.message}"
        return f"line {self.line}, column {self.column}: {self.message}"

    def __str__(self) -> str:
        return self._describe()


def _show(token: str, limit: int = 20) -> str:
    """A token quoted for an error message, cut short if it is long."""
    if len(token) > limit:
        return repr(token[:limit]) + "..."
    return repr(token)


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _line_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each line, found lazily so a huge text is never split up front."""
    start = 0
    while True:
        found = _LINE_BREAK.search(text, start)
        if not found:
            yield start, len(text)
            return
        yield start, found.start()
        start = found.end()


def _check_adjacency(name: str, line: int | None = None, column: int | None = None) -> str:
    if name not in ADJACENCIES:
        raise PuzzleFormatError.of(
            "unknown adjacency %(name)s: expected king, rook or hex", line, column, name=_show(name)
        )
    return name


def _adjacency(name: str) -> Adjacency:
    """A name already checked against ADJACENCIES, typed as one."""
    assert name in ADJACENCIES  # which narrows the type too
    return name


def parse_puzzle(text: str, adjacency: str | None = None, first_line: int = 1) -> Puzzle:
    """Parse one puzzle in text notation; ``first_line`` numbers the text's first line."""
    if adjacency is not None:
        _check_adjacency(adjacency)
    reader = _PuzzleReader()
    line_no = first_line - 1
    for start, end in _line_spans(text):
        line_no += 1
        if line_no - first_line >= MAX_LINES:
            raise PuzzleFormatError.of("too many lines (more than %(most)s)", line_no, most=MAX_LINES)
        # Checked before slicing so a 50 MB line is never copied.
        if end - start > MAX_LINE_CHARS:
            raise PuzzleFormatError.of("line too long (%(count)s characters, at most %(most)s)", line_no,
                                       count=end - start, most=MAX_LINE_CHARS)
        reader.read_line(text[start:end], line_no)
    return reader.puzzle(adjacency)


class _PuzzleReader:
    """The state of one puzzle being read line by line: rows so far, givens, the adjacency."""

    def __init__(self) -> None:
        self.declared: str | None = None
        self.declared_line = 0
        self.cells: list[Cell] = []
        # value -> (line, column, cell) of each given; the position names it in errors
        self.givens: dict[int, tuple[int, int, Cell]] = {}
        self.too_big: list[tuple[int, int, str]] = []
        self.rows = self.cols = 0
        self.blank_after_rows: int | None = None

    def read_line(self, line: str, line_no: int) -> None:
        stripped = line.strip()
        if not stripped:
            if self.rows:
                self.blank_after_rows = self.blank_after_rows or line_no
        elif stripped.startswith("#"):
            self._comment(line, stripped, line_no)
        else:
            self._row(line, line_no)

    def _comment(self, line: str, stripped: str, line_no: int) -> None:
        match = _ADJACENCY_COMMENT.match(stripped)
        if not match:
            return
        column = line.index("#") + 1 + match.start(1)
        name = _check_adjacency(match.group(1).lower(), line_no, column)
        if self.declared is not None and name != self.declared:
            raise PuzzleFormatError.of(
                "adjacency %(name)s contradicts %(declared)s declared on line %(first)s",
                line_no,
                column,
                name=repr(name), declared=repr(self.declared), first=self.declared_line,
            )
        self.declared, self.declared_line = name, line_no

    def _row(self, line: str, line_no: int) -> None:
        if self.blank_after_rows is not None:
            raise PuzzleFormatError.of(
                "blank line inside the board (write a row of holes as 'x x x')", self.blank_after_rows
            )
        row = self.rows
        self.rows += 1
        if self.rows > MAX_SIDE:
            raise PuzzleFormatError.of("too many rows (more than %(most)s)", line_no, 1, most=MAX_SIDE)
        cells = self.cells
        col = -1
        # Each cell is handled inline, not by a method: a call per cell made parsing ~5% slower.
        for col, match in enumerate(_TOKEN.finditer(line)):
            column = match.start() + 1
            if col >= MAX_SIDE:
                raise PuzzleFormatError.of("too many columns (more than %(most)s)", line_no, column, most=MAX_SIDE)
            token = match.group()
            if token in HOLE_TOKENS:
                continue
            cell = (row, col)
            if token not in EMPTY_TOKENS:
                _read_given(token, cell, self.givens, self.too_big, line_no, column)
            cells.append(cell)
            if len(cells) > MAX_CELLS:
                raise PuzzleFormatError.of("board too large (more than %(most)s cells)", line_no, column,
                                           most=MAX_CELLS)
        self.cols = max(self.cols, col + 1)

    def puzzle(self, adjacency: str | None) -> Puzzle:
        if not self.cells:
            raise PuzzleFormatError.of("no cells: the puzzle needs at least one '.' or number")
        n = len(self.cells)
        too_big = self.too_big + [(at_line, at_column, str(value))
                                  for value, (at_line, at_column, _cell) in self.givens.items() if value > n]
        if too_big:
            at_line, at_column, shown = min(too_big)
            raise PuzzleFormatError.of(
                "given %(given)s is larger than the number of cells (%(n)s)", at_line, at_column, given=shown, n=n
            )
        board = Board(self.rows, self.cols, tuple(self.cells), _adjacency(adjacency or self.declared or "king"))
        return Puzzle(board, {cell: value for value, (_l, _c, cell) in self.givens.items()})


def _read_given(
    token: str,
    cell: Cell,
    givens: dict[int, tuple[int, int, Cell]],
    too_big: list[tuple[int, int, str]],
    line: int,
    column: int,
) -> None:
    """Check one numeric token and record it as a given."""
    negative = token.startswith("-") and token[1:].isascii() and token[1:].isdigit()
    if negative:
        raise PuzzleFormatError.of("negative number %(token)s: givens are 1..N", line, column, token=_show(token))
    if not (token.isascii() and token.isdigit()):
        raise PuzzleFormatError.of(
            "unknown token %(token)s: expected a number, '.' or 'x'", line, column, token=_show(token)
        )
    digits = token.lstrip("0")
    if not digits:
        raise PuzzleFormatError.of(
            "zero is not a given (%(token)s): write an empty cell as '.'", line, column, token=_show(token)
        )
    if len(digits) > _MAX_DIGITS:
        too_big.append((line, column, digits[:12] + "..."))
        return
    value = int(digits)
    if value > MAX_CELLS:
        # Certainly larger than N; reported with the others once N is known.
        too_big.append((line, column, digits))
        return
    if value in givens:
        first_line, first_column, _ = givens[value]
        raise PuzzleFormatError.of(
            "%(value)s is given twice (first at line %(first_line)s, column %(first_column)s)",
            line,
            column,
            value=value, first_line=first_line, first_column=first_column,
        )
    givens[value] = (line, column, cell)


def format_puzzle(puzzle: Puzzle, values: Mapping[Cell, int] | None = None) -> str:
    """Canonical text of a puzzle, or of a filled grid when ``values`` is given."""
    board = puzzle.board
    shown: dict[Cell, int] = dict(puzzle.givens)
    if values:
        shown.update((cell, v) for cell, v in values.items() if cell in board.cell_set)
    width = max([len(str(board.size))] + [len(str(v)) for v in shown.values()])
    cell_set = board.cell_set
    out = []
    if board.adjacency != "king":
        out.append(f"# adjacency: {board.adjacency}")
    for r in range(board.rows):
        row = []
        for c in range(board.cols):
            if (r, c) not in cell_set:
                row.append("x".rjust(width))
            elif (r, c) in shown:
                row.append(str(shown[(r, c)]).rjust(width))
            else:
                row.append(".".rjust(width))
        out.append(" ".join(row))
    return "\n".join(out) + "\n"


def split_puzzles(text: str) -> list[tuple[int, str]]:
    """Split text holding puzzles separated by blank lines into (first line number, block).

    Blocks holding only comments are dropped, so a comment meant for a puzzle (such as
    ``# adjacency: rook``) must not be separated from its rows by a blank line.
    """
    return list(iter_puzzles(text[start:end] for start, end in _line_spans(text)))


def iter_puzzles(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(first line number, block) for each puzzle in ``lines``, read one line at a time.

    The blocks and numbers are those of ``split_puzzles``: puzzles are separated by blank
    lines and blocks holding only comments are dropped.  ``lines`` may keep their line
    breaks, as a file gives them, or not; an item holding more breaks (a lone CR, say)
    is split at them, but a CR LF pair must not be split between two items.

    A block is never collected past ``parse_puzzle``'s limits: at the first line that is
    too long, or one line or row too many, the block is cut after that line (so parsing
    it fails there, with that line's number), handed out at once, and the rest of it
    is read past without being kept.
    """
    block = _Block()
    number = 0
    for item in lines:
        for line in _split_item(item):
            number += 1
            if not line.strip():
                if block.lines:
                    if block.has_rows and not block.sent:
                        yield block.start, block.text()
                    block = _Block()
                continue
            block.add(number, line)
            if block.full and block.has_rows and not block.sent:
                # Its fate is sealed: hand it out now, not at the end of an endless block.
                block.sent = True
                yield block.start, block.text()
    if block.has_rows and not block.sent:
        yield block.start, block.text()


def _split_item(item: str) -> list[str]:
    """The lines of one item of ``iter_puzzles``' input, without their breaks."""
    body = item[:-2] if item.endswith("\r\n") else item[:-1] if item.endswith(("\n", "\r")) else item
    if "\n" in body or "\r" in body:
        return _LINE_BREAK.split(body)
    return [body]


class _Block:
    """The lines of one puzzle block as ``iter_puzzles`` collects them."""

    __slots__ = ("start", "lines", "rows", "has_rows", "full", "sent")

    def __init__(self) -> None:
        self.start = 0
        self.lines: list[str] = []
        self.rows = 0
        self.has_rows = False
        # True once parse_puzzle is sure to fail on the last line kept: the rest of the
        # block cannot change its message, so it is not kept (a 16 MB block stays small).
        self.full = False
        self.sent = False

    def add(self, number: int, line: str) -> None:
        is_row = not line.lstrip().startswith("#")
        self.has_rows = self.has_rows or is_row
        if self.full:
            return
        if not self.lines:
            self.start = number
        self.lines.append(line)
        self.rows += is_row
        self.full = len(self.lines) > MAX_LINES or len(line) > MAX_LINE_CHARS or self.rows > MAX_SIDE

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def puzzle_to_id(puzzle: Puzzle) -> str:
    """The compact URL-safe id of a puzzle, e.g. ``3x3:1b9eA``."""
    board = puzzle.board
    cell_set = board.cell_set
    givens = puzzle.givens
    parts: list[str] = []
    run_kind = ""  # "a" for empty cells, "A" for holes
    run_length = 0
    last_was_number = False

    def flush() -> None:
        nonlocal run_length
        base = ord(run_kind) if run_kind else 0
        while run_length > 0:
            step = min(run_length, 26)
            parts.append(chr(base + step - 1))
            run_length -= step

    for r in range(board.rows):
        for c in range(board.cols):
            cell = (r, c)
            if cell in givens:
                flush()
                run_kind = ""
                if last_was_number:
                    parts.append("_")
                parts.append(str(givens[cell]))
                last_was_number = True
                continue
            kind = "a" if cell in cell_set else "A"
            if kind != run_kind:
                flush()
                run_kind = kind
            run_length += 1
            last_was_number = False
    flush()
    suffix = _ID_SUFFIX[board.adjacency]
    return f"{board.rows}x{board.cols}{suffix}:{''.join(parts)}"


_ID_PART = re.compile(r"([a-z])|([A-Z])|([0-9]+)|(_)")


def puzzle_from_id(text: str) -> Puzzle:
    """Decode a compact id made by ``puzzle_to_id``; raises PuzzleFormatError if malformed."""
    if not isinstance(text, str):
        raise PuzzleFormatError.of("a puzzle id must be text")
    text = text.strip()
    if len(text) > _MAX_ID_CHARS:
        raise PuzzleFormatError.of("puzzle id too long (%(count)s characters)", count=len(text))
    head = _ID_HEAD.match(text)
    if not head:
        raise PuzzleFormatError.of("bad puzzle id: expected '{rows}x{cols}:' or '{rows}x{cols}r:' / 'h:' at the start")
    rows, cols = int(head.group(1)), int(head.group(2))
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise PuzzleFormatError.of("bad puzzle id: %(rows)sx%(cols)s is larger than %(most)sx%(most)s", rows=rows,
                                   cols=cols, most=MAX_SIDE)
    reader = _IdReader(rows, cols)
    i = head.end()
    while i < len(text):
        part = _ID_PART.match(text, i)
        if not part:
            raise PuzzleFormatError.of("bad puzzle id: unexpected %(char)s at character %(at)s", char=repr(text[i]),
                                       at=i + 1)
        # Dispatched here, not in a method of the reader: a second call per part made
        # decoding ids ~5% slower.
        empty, hole, number, underscore = part.groups()
        if number:
            reader.number(number, i + 1)
        elif underscore:
            reader.underscore(i + 1)
        else:
            reader.run(empty, hole, i + 1)
        i = part.end()
    return reader.puzzle(_ID_ADJACENCY[head.group(3)])


class _IdReader:
    """The grid of a compact id being read part by part, row-major."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.area = rows * cols
        self.pos = 0  # next grid position
        self.cells: list[Cell] = []
        self.givens: dict[Cell, int] = {}
        self.given_at: dict[int, int] = {}
        self.previous = ""  # kind of the previous part: "run", "number" or "_"

    def underscore(self, at: int) -> None:
        """'_', which separates two numbers."""
        if self.previous != "number":
            raise PuzzleFormatError.of("bad puzzle id: '_' must follow a number at character %(at)s", at=at)
        self.previous = "_"

    def number(self, number: str, at: int) -> None:
        """A given number, in the next grid position."""
        if number.startswith("0"):
            raise PuzzleFormatError.of("bad puzzle id: number %(number)s at character %(at)s must not start with 0",
                                       number=_show(number), at=at)
        if len(number) > _MAX_DIGITS or int(number) > MAX_CELLS:
            raise PuzzleFormatError.of("bad puzzle id: number %(number)s at character %(at)s is too large",
                                       number=_show(number), at=at)
        value = int(number)
        if value in self.given_at:
            raise PuzzleFormatError.of("bad puzzle id: %(value)s at character %(at)s was already given at "
                                       "character %(first)s", value=value, at=at, first=self.given_at[value])
        if self.pos >= self.area:
            raise self._past_the_end(at)
        self.given_at[value] = at
        cell = divmod(self.pos, self.cols)
        self.givens[cell] = value
        self.cells.append(cell)
        self.pos += 1
        self.previous = "number"

    def run(self, empty: str | None, hole: str | None, at: int) -> None:
        """A run of empty cells (a lower-case letter) or holes (upper-case), 1 to 26 long."""
        if self.previous == "_":
            raise PuzzleFormatError.of("bad puzzle id: '_' must be followed by a number at character %(at)s", at=at)
        letter = empty or hole
        assert letter is not None
        length = ord(letter) - ord("a" if empty else "A") + 1
        if self.pos + length > self.area:
            raise self._past_the_end(at)
        if empty:
            self.cells.extend(divmod(p, self.cols) for p in range(self.pos, self.pos + length))
            if len(self.cells) > MAX_CELLS:
                raise PuzzleFormatError.of("bad puzzle id: more than %(most)s cells at character %(at)s",
                                           most=MAX_CELLS, at=at)
        self.pos += length
        self.previous = "run"

    def _past_the_end(self, at: int) -> PuzzleFormatError:
        return PuzzleFormatError.of("bad puzzle id: more than %(area)s cells at character %(at)s", area=self.area,
                                    at=at)

    def puzzle(self, adjacency: Adjacency) -> Puzzle:
        if self.previous == "_":
            raise PuzzleFormatError.of("bad puzzle id: ends with '_'")
        if self.pos != self.area:
            raise PuzzleFormatError.of("bad puzzle id: describes %(count)s of the %(area)s cells of a "
                                       "%(rows)sx%(cols)s grid", count=self.pos, area=self.area, rows=self.rows,
                                       cols=self.cols)
        if not self.cells:
            raise PuzzleFormatError.of("bad puzzle id: no cells")
        if len(self.cells) > MAX_CELLS:
            raise PuzzleFormatError.of("bad puzzle id: more than %(most)s cells", most=MAX_CELLS)
        n = len(self.cells)
        for value in self.givens.values():
            if value > n:
                raise PuzzleFormatError.of("bad puzzle id: given %(value)s is larger than the number of cells "
                                           "(%(count)s)", value=value, count=n)
        return Puzzle(Board(self.rows, self.cols, tuple(self.cells), adjacency), self.givens)
