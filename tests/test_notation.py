"""Tests for engine.notation: the text notation, multi-puzzle files and compact ids."""

from __future__ import annotations

import io
import itertools
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import ADJACENCIES, MAX_CELLS, MAX_SIDE, Board, Puzzle, is_solution
from engine.notation import (
    MAX_LINE_CHARS,
    MAX_LINES,
    PuzzleFormatError,
    format_puzzle,
    iter_puzzles,
    parse_puzzle,
    puzzle_from_id,
    puzzle_to_id,
    split_puzzles,
)

DATA = Path(__file__).parent / "data" / "puzzles"
PUZZLE_FILES = sorted(p for p in DATA.rglob("*.txt") if not p.name.endswith(".solution.txt"))


def test_data_files_present():
    assert len(PUZZLE_FILES) >= 10


# --- the shipped puzzles --------------------------------------------------------------


@pytest.mark.parametrize("path", PUZZLE_FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_shared_puzzle_and_solution_parse(path: Path):
    puzzle = parse_puzzle(path.read_text())
    solved = parse_puzzle(path.with_name(path.name[:-4] + ".solution.txt").read_text())
    # The solution file is the same board with every cell filled.
    assert solved.board == puzzle.board
    assert len(solved.givens) == puzzle.size
    assert is_solution(puzzle, solved.givens)


@pytest.mark.parametrize("path", PUZZLE_FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_canonical_form_reparses(path: Path):
    puzzle = parse_puzzle(path.read_text())
    text = format_puzzle(puzzle)
    assert parse_puzzle(text) == puzzle
    assert format_puzzle(parse_puzzle(text)) == text
    assert puzzle_from_id(puzzle_to_id(puzzle)) == puzzle


def test_generated_files_are_already_canonical():
    path = DATA / "large" / "rectangle10_s1.txt"
    assert format_puzzle(parse_puzzle(path.read_text())) == path.read_text()


# --- reading --------------------------------------------------------------------------


def test_tokens_padding_and_shape():
    puzzle = parse_puzzle("\n\n# title\n1 _ 0\n- 4\nX x x x\n\n")
    board = puzzle.board
    assert (board.rows, board.cols) == (3, 4)
    assert board.cells == ((0, 0), (0, 1), (0, 2), (1, 1))
    assert puzzle.givens == {(0, 0): 1, (1, 1): 4}


def test_short_rows_are_holes_and_all_hole_rows_kept():
    puzzle = parse_puzzle(". 2\nx\n. . . x\n")
    assert (puzzle.board.rows, puzzle.board.cols) == (3, 4)
    assert puzzle.board.cells == ((0, 0), (0, 1), (2, 0), (2, 1), (2, 2))
    assert puzzle.givens == {(0, 1): 2}
    assert format_puzzle(puzzle) == ". 2 x x\nx x x x\n. . . x\n"


def test_crlf_and_lone_cr_line_breaks():
    assert parse_puzzle("1 .\r\n. 4\r\n") == parse_puzzle("1 .\n. 4\n")
    assert parse_puzzle("1 .\r. 4\r") == parse_puzzle("1 .\n. 4\n")


@pytest.mark.parametrize("adjacency", ADJACENCIES)
def test_adjacency_comment(adjacency: str):
    puzzle = parse_puzzle(f"#  Adjacency :  {adjacency}\n1 .\n. .\n")
    assert puzzle.board.adjacency == adjacency


def test_explicit_adjacency_wins_over_comment():
    assert parse_puzzle("# adjacency: hex\n1 .\n", adjacency="rook").board.adjacency == "rook"
    assert parse_puzzle("1 .\n").board.adjacency == "king"


def test_unknown_explicit_adjacency():
    with pytest.raises(PuzzleFormatError, match="unknown adjacency 'queen'") as info:
        parse_puzzle("1 .", adjacency="queen")
    assert info.value.line is None and str(info.value) == info.value.message


BAD_INPUTS = [
    # (text, message fragment, line, column)
    ("1 2 y", "unknown token 'y': expected a number, '.' or 'x'", 1, 5),
    ("1 2.5", "unknown token '2.5'", 1, 3),
    ("1 +3", "unknown token '+3'", 1, 3),
    ("1 \u00b2", "unknown token", 1, 3),
    ("1 . #c", "unknown token '#c'", 1, 5),
    (". .\n.  -3", "negative number '-3'", 2, 4),
    (". 00", "zero is not a given", 1, 3),
    ("1 . 1", "1 is given twice (first at line 1, column 1)", 1, 5),
    ("\n 2 .\n. 2", "2 is given twice (first at line 2, column 2)", 3, 3),
    (". 5\n. .", "given 5 is larger than the number of cells (4)", 1, 3),
    ("  .  3000", "given 3000 is larger than the number of cells (2)", 1, 6),
    (". " + "9" * 40, "is larger than the number of cells (2)", 1, 3),
    ("x x\nX -", "no cells", None, None),
    ("# only a comment\n", "no cells", None, None),
    ("", "no cells", None, None),
    ("# adjacency: squares\n. .", "unknown adjacency 'squares'", 1, 14),
    ("# adjacency:\n. .", "unknown adjacency ''", 1, 13),
    ("# adjacency: rook\n  # adjacency: hex\n. .", "contradicts 'rook' declared on line 1", 2, 16),
    ("1 .\n\n. 2", "blank line inside the board", 2, None),
    ((". " * 100 + "\n") * 26, f"more than {MAX_CELLS} cells", 26, 1),
    ("x\n" * (MAX_SIDE + 1) + ".", f"too many rows (more than {MAX_SIDE})", MAX_SIDE + 1, 1),
    ("x " * MAX_SIDE + ".", f"too many columns (more than {MAX_SIDE})", 1, 2 * MAX_SIDE + 1),
    ("1\n" + "." * 20_000, "line too long", 2, None),
]


@pytest.mark.parametrize("text, fragment, line, column", BAD_INPUTS)
def test_bad_input(text: str, fragment: str, line: int | None, column: int | None):
    with pytest.raises(PuzzleFormatError) as info:
        parse_puzzle(text)
    err = info.value
    assert fragment in err.message
    assert (err.line, err.column) == (line, column)
    if line is None:
        assert str(err) == err.message
    elif column is None:
        assert str(err) == f"line {line}: {err.message}"
    else:
        assert str(err) == f"line {line}, column {column}: {err.message}"


def test_error_is_a_value_error():
    with pytest.raises(ValueError):
        parse_puzzle("y")


def test_first_line_offsets_error_lines():
    with pytest.raises(PuzzleFormatError) as info:
        parse_puzzle(". .\n. y\n", first_line=40)
    assert (info.value.line, info.value.column) == (41, 3)


def test_largest_board_is_accepted():
    side = 50
    puzzle = parse_puzzle(("." + " ." * (side - 1) + "\n") * side)
    assert puzzle.size == MAX_CELLS == side * side


# Built inside the test so collecting the module does not allocate 250 MB.
HUGE_INPUTS = {
    "long-line": lambda: "1 " * 25_000_000,  # one 50 MB line
    "many-rows": lambda: ". \n" * 17_000_000,  # 50 MB of rows
    "hole-rows": lambda: "x\n" * 25_000_000,  # rows of holes only
    "comments": lambda: "# comment\n" * 5_000_000,  # 50 MB of comments
    "blank": lambda: "\n" * 50_000_000,
    "digits": lambda: ". " * 100 + "\n" + "9" * 9000,  # absurd digit count
}


@pytest.mark.parametrize("name", HUGE_INPUTS)
def test_huge_input_is_rejected(name: str):
    # Scanning stops at the first limit; the test suite's speed shows it.
    with pytest.raises(PuzzleFormatError):
        parse_puzzle(HUGE_INPUTS[name]())


# --- writing --------------------------------------------------------------------------


def test_format_with_values_prints_a_solution():
    puzzle = parse_puzzle("1 . x\n. 12 .\n. . .\n. . .\n. . .")
    values = {cell: i + 1 for i, cell in enumerate(puzzle.board.cells)}
    text = format_puzzle(puzzle, values)
    assert text.splitlines()[0] == " 1  2  x"
    assert parse_puzzle(text).givens == values


@pytest.mark.parametrize("adjacency", ["rook", "hex"])
def test_format_writes_non_king_adjacency(adjacency: str):
    puzzle = parse_puzzle("1 .\n. .", adjacency=adjacency)
    text = format_puzzle(puzzle)
    assert text.startswith(f"# adjacency: {adjacency}\n")
    assert parse_puzzle(text) == puzzle


# --- multi-puzzle files ---------------------------------------------------------------


def test_split_puzzles_line_numbers():
    text = "# file header\n\n1 .\n. 4\n\n\n  \n# second\n. 2\ny .\n\n# trailing comment\n"
    blocks = split_puzzles(text)
    assert [start for start, _ in blocks] == [3, 8]
    assert parse_puzzle(blocks[0][1], first_line=blocks[0][0]).givens == {(0, 0): 1, (1, 1): 4}
    start, block = blocks[1]
    with pytest.raises(PuzzleFormatError) as info:
        parse_puzzle(block, first_line=start)
    assert (info.value.line, info.value.column) == (10, 1)
    assert text.splitlines()[info.value.line - 1].startswith("y")


def test_split_single_puzzle_and_empty_text():
    assert split_puzzles("1 .\n") == [(1, "1 .\n")]
    assert split_puzzles("") == []
    assert split_puzzles("\n\n# nothing\n\n") == []


def test_split_shared_files_concatenated():
    texts = [path.read_text() for path in PUZZLE_FILES]
    blocks = split_puzzles("\n".join(texts))
    assert [parse_puzzle(b, first_line=s) for s, b in blocks] == [parse_puzzle(t) for t in texts]


def reference_split(text: str) -> list[tuple[int, str]]:
    """split_puzzles as it was before it streamed: the whole text split up front."""
    blocks: list[tuple[int, str]] = []
    current: list[str] = []
    start = 0
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text) + [""], start=1):
        if line.strip():
            start = start if current else number
            current.append(line)
            continue
        if any(not kept.strip().startswith("#") for kept in current):
            blocks.append((start, "\n".join(current) + "\n"))
        current = []
    return blocks


def file_lines(text: str) -> list[str]:
    """The text cut the way a file is read: each line keeps its break."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)


SPLIT_TEXTS = [
    "",
    "1 .\n",
    "1 .",
    "# file header\n\n1 .\n. 4\n\n\n  \n# second\n. 2\ny .\n\n# trailing comment\n",
    "1 .\r\n. 4\r\n\r\n. 2\r1 .\r\r# c\r. .",
    "\n\n# nothing\n\n",
    " \t\n1\n \n\t\n2 1\n",
]


@pytest.mark.parametrize("text", SPLIT_TEXTS)
def test_iter_puzzles_matches_split_puzzles(text: str):
    expected = reference_split(text)
    assert split_puzzles(text) == expected
    assert list(iter_puzzles(file_lines(text))) == expected
    assert list(iter_puzzles(io.StringIO(text, newline=""))) == expected
    # Items may also come without their breaks, or several lines in one item.
    assert list(iter_puzzles(re.split(r"\r\n|\r|\n", text))) == expected
    assert list(iter_puzzles([text])) == expected


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="1.x# \n\r", max_size=80))
def test_iter_puzzles_matches_the_old_split_on_any_text(text: str):
    expected = reference_split(text)
    assert split_puzzles(text) == expected
    assert list(iter_puzzles(file_lines(text))) == expected


def test_iter_puzzles_reads_lazily():
    # An endless stream: each puzzle comes as soon as its blank line has been read.
    endless = itertools.cycle(["1 .\n", ". 4\n", "\n"])
    first = list(itertools.islice(iter_puzzles(endless), 3))
    assert first == [(1, "1 .\n. 4\n"), (4, "1 .\n. 4\n"), (7, "1 .\n. 4\n")]


def test_iter_puzzles_keeps_going_after_a_bad_block():
    text = "1 .\n. y\n\n1 2\n"
    blocks = list(iter_puzzles(file_lines(text)))
    assert blocks == [(1, "1 .\n. y\n"), (4, "1 2\n")]


# Blocks past a parser limit: (lines of the block, what the parser says, at which line).
OVERSIZE_BLOCKS = {
    "too-many-lines": (["# c"] * (MAX_LINES + 500) + ["1 ."], "too many lines", MAX_LINES + 1),
    "too-many-rows": (["x"] * (MAX_SIDE + 500) + ["1 ."], "too many rows", MAX_SIDE + 1),
    "long-line": (["1 .", "." * (MAX_LINE_CHARS + 1), ". 2"] + ["x"] * 500, "line too long", 2),
}


@pytest.mark.parametrize("name", OVERSIZE_BLOCKS)
def test_an_oversize_block_is_cut_where_the_parser_fails(name: str):
    lines, fragment, bad_line = OVERSIZE_BLOCKS[name]
    text = "1\n\n" + "\n".join(lines) + "\n\n. 1\n"
    first_line = 3
    blocks = list(iter_puzzles(file_lines(text)))
    assert [start for start, _ in blocks] == [1, first_line, first_line + len(lines) + 1]
    start, block = blocks[1]
    # The block stops at the failing line, so it never grows with the input.
    assert block.count("\n") == bad_line
    errors = []
    for whole in (block, "\n".join(lines) + "\n"):
        with pytest.raises(PuzzleFormatError) as info:
            parse_puzzle(whole, first_line=start)
        errors.append(str(info.value))
    assert errors[0] == errors[1]
    assert fragment in errors[0] and errors[0].startswith(f"line {first_line + bad_line - 1}")
    # The puzzle after the oversize block is still found, at its own line.
    assert blocks[2][1] == ". 1\n"


def test_an_oversize_comment_block_is_dropped_like_any_comment_block():
    text = "# c\n" * (MAX_LINES + 10) + "\n1\n"
    assert list(iter_puzzles(file_lines(text))) == [(MAX_LINES + 12, "1\n")]


# --- compact ids ----------------------------------------------------------------------


def test_id_examples():
    puzzle = parse_puzzle("1 . .\nx 5 .")
    assert puzzle_to_id(puzzle) == "2x3:1bA5a"
    assert puzzle_to_id(parse_puzzle("1 2 3", adjacency="rook")) == "1x3r:1_2_3"
    assert puzzle_to_id(parse_puzzle("1 .\nx x", adjacency="hex")) == "2x2h:1aB"
    long_row = parse_puzzle(". " * 60 + "\n" + "x " * 30)
    assert puzzle_to_id(long_row) == "2x60:zzhZZH"
    assert puzzle_from_id("2x60:zzhZZH") == long_row


def test_id_accepts_surrounding_whitespace_and_non_maximal_runs():
    assert puzzle_from_id(" 2x3:1bA5a\n") == puzzle_from_id("2x3:1aaA5a")


BAD_IDS = [
    ("", "at the start"),
    ("3x3", "at the start"),
    ("3x3q:i", "at the start"),
    ("0x3:c", "at the start"),
    ("03x3:i", "at the start"),
    ("251x1:a", "larger than 250x250"),
    ("3x3:", "describes 0 of the 9 cells"),
    ("3x3:h", "describes 8 of the 9 cells"),
    ("3x3:1ha", "more than 9 cells at character 7"),
    ("3x3:Z", "more than 9 cells at character 5"),
    ("3x3:I", "no cells"),
    ("3x3:01h", "must not start with 0"),
    ("3x3:0i", "must not start with 0"),
    ("3x3:1__2g", "'_' must follow a number at character 7"),
    ("3x3:_1h", "'_' must follow a number"),
    ("3x3:1_a", "'_' must be followed by a number"),
    ("3x3:1h_", "'_' must follow a number"),
    ("3x3:h1_", "ends with '_'"),
    ("3x3:10h", "given 10 is larger than the number of cells (9)"),
    ("3x3:1g1", "1 at character 7 was already given at character 5"),
    ("3x3:1g-", "unexpected '-' at character 7"),
    ("3x3:1g\u00e9", "unexpected"),
    ("3x3:99999999999999999999999999h", "too large"),
    ("250x250:" + "z" * 2404, "more than 2500 cells"),
    ("1x1:" + "a" * 200_000, "too long"),
]


@pytest.mark.parametrize("text, fragment", BAD_IDS)
def test_bad_id(text: str, fragment: str):
    with pytest.raises(PuzzleFormatError) as info:
        puzzle_from_id(text)
    assert fragment in str(info.value)
    assert info.value.line is None and info.value.column is None


def test_id_of_large_sparse_grid():
    cells = tuple((r, r) for r in range(MAX_SIDE))
    puzzle = Puzzle(Board(MAX_SIDE, MAX_SIDE, cells, "rook"), {(0, 0): MAX_SIDE})
    assert puzzle_from_id(puzzle_to_id(puzzle)) == puzzle


# --- property tests -------------------------------------------------------------------


@st.composite
def puzzles(draw) -> Puzzle:
    rows = draw(st.integers(1, 7))
    cols = draw(st.integers(1, 7))
    mask = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    # At least one cell, somewhere random.
    mask[draw(st.integers(0, rows * cols - 1))] = True
    cells = tuple(divmod(i, cols) for i, keep in enumerate(mask) if keep)
    adjacency = draw(st.sampled_from(ADJACENCIES))
    n = len(cells)
    chosen = draw(st.lists(st.sampled_from(cells), unique=True, max_size=n))
    values = draw(st.permutations(range(1, n + 1)))
    return Puzzle(Board(rows, cols, cells, adjacency), dict(zip(chosen, values[: len(chosen)], strict=True)))


@given(puzzles())
def test_text_round_trip(puzzle: Puzzle):
    assert parse_puzzle(format_puzzle(puzzle)) == puzzle


@given(puzzles())
def test_id_round_trip(puzzle: Puzzle):
    ident = puzzle_to_id(puzzle)
    assert puzzle_from_id(ident) == puzzle
    assert all(ch.isalnum() or ch in "_:" for ch in ident)


@given(puzzles())
def test_solution_values_round_trip(puzzle: Puzzle):
    values = {cell: i + 1 for i, cell in enumerate(reversed(puzzle.board.cells))}
    assert parse_puzzle(format_puzzle(puzzle, values)).givens == values


TEXT_PIECES = list(" \t\n\r.x0X-_#123456789y") + [
    "10", "00", "-3", "# adjacency: rook\n", "# adjacency: hex\n", "# adjacency: bad\n", "\u00b2",
]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(TEXT_PIECES), max_size=60).map("".join))
def test_fuzz_text(text: str):
    try:
        puzzle = parse_puzzle(text)
    except PuzzleFormatError as err:
        assert err.message
        return
    assert parse_puzzle(format_puzzle(puzzle)) == puzzle


@settings(max_examples=300)
@given(st.text(max_size=40))
def test_fuzz_text_any_characters(text: str):
    try:
        puzzle = parse_puzzle(text)
    except PuzzleFormatError:
        return
    assert parse_puzzle(format_puzzle(puzzle)) == puzzle


ID_PIECES = ["3x3:", "2x4r:", "1x5h:", "4x", "x", ":", "a", "b", "i", "z", "A", "C", "Z",
             "1", "2", "9", "10", "0", "_", "h", "r", "-", " "]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(ID_PIECES), max_size=12).map("".join))
def test_fuzz_id(text: str):
    try:
        puzzle = puzzle_from_id(text)
    except PuzzleFormatError as err:
        assert err.message and err.line is None
        return
    assert puzzle_from_id(puzzle_to_id(puzzle)) == puzzle
    assert parse_puzzle(format_puzzle(puzzle)) == puzzle
