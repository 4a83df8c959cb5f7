"""Tests for engine.shapes: the named shapes, text masks and the quick playability test."""

from __future__ import annotations

import dataclasses
from itertools import pairwise

import pytest

from engine.board import ADJACENCIES, MAX_CELLS, MAX_SIDE, Adjacency, Board
from engine.shapes import (
    SHAPES,
    ShapeError,
    ShapeSpec,
    check_playable,
    leaf_block_cells,
    parse_mask,
    shape_board,
    shape_cells,
)

EXPECTED_SHAPES = {
    "rectangle", "square", "diamond", "cross", "heart", "ring",
    "triangle", "hexagon", "star", "skull", "arrow",
}
ALL_SIZES = [(name, size) for name, spec in SHAPES.items() for size in range(spec.min_size, spec.max_size + 1)]


def text(cells: list[tuple[int, int]]) -> str:
    """Cells drawn as a mask, '#' a cell and '.' none."""
    present = set(cells)
    rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + 1
    return "\n".join("".join("#" if (r, c) in present else "." for c in range(cols)) for r in range(rows))


def row_widths(cells: list[tuple[int, int]]) -> list[int]:
    rows = max(r for r, _ in cells) + 1
    return [sum(1 for r, _ in cells if r == row) for row in range(rows)]


def enclosed_holes(cells: list[tuple[int, int]]) -> int:
    """Empty cells of the bounding box that cannot reach its edge (rook steps)."""
    present = set(cells)
    rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + 1
    outside = set()
    todo = [(r, c) for r in range(rows) for c in range(cols)
            if (r in (0, rows - 1) or c in (0, cols - 1)) and (r, c) not in present]
    outside.update(todo)
    while todo:
        r, c = todo.pop()
        for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= cell[0] < rows and 0 <= cell[1] < cols and cell not in present and cell not in outside:
                outside.add(cell)
                todo.append(cell)
    return rows * cols - len(present) - len(outside)


# --- the catalogue ----------------------------------------------------------------------


def test_catalogue_holds_the_named_shapes():
    assert set(SHAPES) == EXPECTED_SHAPES
    for name, spec in SHAPES.items():
        assert isinstance(spec, ShapeSpec) and spec.name == name
        assert spec.min_size <= spec.default_size <= spec.max_size
        assert spec.description and "king" in spec.adjacencies


def test_specs_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        SHAPES["square"].max_size = 99


@pytest.mark.parametrize("name,size", ALL_SIZES)
def test_every_size_is_normalised_and_plays_as_king(name, size):
    cells = shape_cells(name, size)
    assert cells == sorted(set(cells))
    assert min(r for r, _ in cells) == 0 and min(c for _, c in cells) == 0
    assert 12 <= len(cells) <= 450
    assert max(max(r, c) for r, c in cells) < MAX_SIDE
    check_playable(Board.from_cells(cells, "king"))


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_sizes_run_from_small_to_large(name):
    spec = SHAPES[name]
    assert len(shape_cells(name, spec.min_size)) <= 80  # pictures need a few more (a star's 5 points: 76)
    assert len(shape_cells(name, spec.max_size)) >= 350


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_the_sizes_a_shape_says_it_takes_are_exactly_those_that_play(name):
    """``ShapeSpec.sizes`` is what the forms offer: every size it names plays with that
    adjacency, every other size (and every adjacency the shape does not take) is refused."""
    spec = SHAPES[name]
    for adjacency in ADJACENCIES:
        playable = []
        for size in range(spec.min_size, spec.max_size + 1):
            try:
                board = shape_board(name, size, adjacency)
            except ShapeError:
                continue
            assert board.adjacency == adjacency
            playable.append(size)
        assert tuple(playable) == spec.sizes(adjacency)
        assert spec.takes(adjacency) == bool(playable)


@pytest.mark.parametrize("name", ["rectangle", "square", "diamond", "hexagon", "cross", "ring"])
@pytest.mark.parametrize("adjacency", ["rook", "hex"])
def test_basic_shapes_play_at_their_default_size_with_rook_and_hex(name, adjacency):
    check_playable(shape_board(name, SHAPES[name].default_size, adjacency))


def test_hexagon_rook_sizes():
    playable = []
    for size in range(SHAPES["hexagon"].min_size, SHAPES["hexagon"].max_size + 1):
        try:
            shape_board("hexagon", size, "rook")
            playable.append(size)
        except ShapeError as error:
            assert "dead end" in str(error) and "rook" in str(error)
    assert playable == [5, 6, 9, 10]
    assert "5, 6, 9, 10" in SHAPES["hexagon"].description


def test_shapes_are_the_same_every_time():
    for name, spec in SHAPES.items():
        assert shape_cells(name, spec.default_size) == shape_cells(name, spec.default_size)


# --- the shapes look like their names ------------------------------------------------------


def test_rectangle_and_square():
    assert shape_cells("square", 5) == [(r, c) for r in range(5) for c in range(5)]
    assert shape_cells("rectangle", 6) == shape_cells("square", 6)
    assert shape_cells("rectangle", 6, rows=3, cols=7) == [(r, c) for r in range(3) for c in range(7)]
    assert len(shape_cells("rectangle", 6, rows=3)) == 18


def test_diamond_rows_grow_by_two_then_shrink():
    assert row_widths(shape_cells("diamond", 4)) == [2, 4, 6, 8, 8, 6, 4, 2]
    assert text(shape_cells("diamond", 2)) == ".##.\n####\n####\n.##."


def test_triangle_rows_grow_by_two():
    assert row_widths(shape_cells("triangle", 5)) == [2, 4, 6, 8, 10]


def test_cross_is_a_plus_sign():
    assert text(shape_cells("cross", 3)) == "..##..\n..##..\n######\n######\n..##..\n..##.."
    cells = shape_cells("cross", 9)
    assert (0, 0) not in cells and (17, 17) not in cells and (9, 0) in cells and (0, 9) in cells


def test_ring_has_a_square_hole():
    cells = shape_cells("ring", 10)
    assert text(cells).splitlines()[4] == "##......##"
    assert enclosed_holes(cells) == 36


def test_hexagon_rows():
    cells = shape_cells("hexagon", 4)
    assert row_widths(cells) == [4, 5, 6, 7, 6, 5, 4]
    # on a hex board every cell of the middle of each side touches six others
    board = Board.from_cells(cells, "hex")
    inner = [i for i, (r, c) in enumerate(board.cells) if len(board.neighbours[i]) == 6]
    assert len(inner) == 19  # the hexagon of side 3 inside


def test_heart_has_two_lobes_and_a_point():
    cells = shape_cells("heart", 12)
    top = [c for r, c in cells if r == 0]
    assert len(top) >= 4 and max(top) - min(top) + 1 > len(top)  # a notch between the lobes
    widths = row_widths(cells)
    assert widths[-1] <= 2 and max(widths) == 12
    assert widths.index(12) < len(widths) // 2


@pytest.mark.parametrize("size", range(SHAPES["star"].min_size, SHAPES["star"].max_size + 1))
def test_star_has_five_points_at_every_size(size):
    """A point on top, two arms spanning the width, two legs that spread apart at the
    bottom, mirror-symmetric: a star, not a house with a chimney (the old small stars)."""
    cells = shape_cells("star", size)
    present = set(cells)
    width = max(c for _, c in cells) + 1
    assert width == size  # size is its width
    assert present == {(r, width - 1 - c) for r, c in cells}
    widths = row_widths(cells)
    rows = len(widths)
    assert widths[0] <= 3 and widths[1] <= 3  # the top point
    arms = widths.index(width)
    assert 2 <= arms < rows // 2  # arms across the whole width, in the upper half
    waist = min(widths[arms:])
    assert waist <= width // 2 + 1  # the body narrows under the arms
    bottom = sorted(c for r, c in cells if r == rows - 1)
    gap = max(b - a for a, b in pairwise(bottom))
    assert gap >= 3  # two legs, apart
    assert bottom[-1] - bottom[0] + 1 > waist  # spreading outwards, wider than the waist
    apart = next(k for k in range(rows) if len(runs(cells, rows - 1 - k)) != 2)
    assert apart >= max(1, rows // 8)  # the legs part well above the bottom row


def runs(cells: list[tuple[int, int]], row: int) -> list[tuple[int, int]]:
    """The runs of cells on a row, as (first, last) columns."""
    found: list[tuple[int, int]] = []
    for c in sorted(c for r, c in cells if r == row):
        if found and found[-1][1] == c - 1:
            found[-1] = (found[-1][0], c)
        else:
            found.append((c, c))
    return found


def test_skull_has_eye_sockets_and_teeth():
    cells = shape_cells("skull", 16)
    assert enclosed_holes(cells) >= 12
    bottom = [c for r, c in cells if r == max(r for r, _ in cells)]
    assert max(bottom) - min(bottom) + 1 > len(bottom) + 2  # gaps between teeth
    assert max(row_widths(cells)) > len(bottom) + 3  # the jaw is narrower than the cranium


def test_arrow_points_right():
    cells = shape_cells("arrow", 16)
    last = max(c for _, c in cells)
    tip = [r for r, c in cells if c == last]
    assert len(tip) == 1
    heights = [sum(1 for _, c in cells if c == col) for col in range(last + 1)]
    assert heights[0] < max(heights) and heights[-1] == 1


def test_small_pictures_are_drawn_the_same_everywhere():
    assert text(shape_cells("heart", 8)) == (
        ".##..##.\n"
        "########\n"
        "########\n"
        ".######.\n"
        "..####..\n"
        "...##..."
    )
    assert text(shape_cells("star", 12)) == (
        ".....##.....\n"
        ".....##.....\n"
        ".....##.....\n"
        "....####....\n"
        "############\n"
        "############\n"
        ".##########.\n"
        "..########..\n"
        "...######...\n"
        "...######...\n"
        "..########..\n"
        "..##....##.."
    )
    assert text(shape_cells("arrow", 8)) == (
        ".....#..\n"
        "#######.\n"
        "########\n"
        "#######.\n"
        ".....#.."
    )


# --- errors -----------------------------------------------------------------------------


def test_unknown_shape_lists_the_known_ones():
    with pytest.raises(ShapeError, match="unknown shape 'blob': expected one of arrow, cross, diamond"):
        shape_cells("blob", 5)


def test_size_out_of_range_says_the_range():
    with pytest.raises(ShapeError, match=r"size 30 is out of range for the square: expected 4\.\.21"):
        shape_cells("square", 30)
    with pytest.raises(ShapeError, match="out of range"):
        shape_board("heart", 1)
    with pytest.raises(ShapeError, match="whole number"):
        shape_cells("square", 5.0)


def test_rows_and_cols_only_for_rectangles():
    with pytest.raises(ShapeError, match="rectangle only"):
        shape_cells("diamond", 5, rows=4)
    with pytest.raises(ShapeError, match=f"1..{MAX_SIDE}"):
        shape_cells("rectangle", 5, rows=0, cols=4)
    with pytest.raises(ShapeError, match=f"more than {MAX_CELLS}"):
        shape_cells("rectangle", 5, rows=100, cols=100)


def test_shape_board_refuses_unsupported_adjacencies():
    with pytest.raises(ShapeError, match="the arrow shape is for king boards only, not rook"):
        shape_board("arrow", 16, "rook")
    with pytest.raises(ShapeError, match="the heart shape is for king and hex boards only, not rook"):
        shape_board("heart", 12, "rook")
    with pytest.raises(ShapeError, match="unknown adjacency"):
        shape_board("square", 5, "queen")
    with pytest.raises(ShapeError, match="the hexagon of size 7 cannot be played with rook moves: the dead end"):
        shape_board("hexagon", 7, "rook")


# --- masks ------------------------------------------------------------------------------


def test_mask_cells_and_holes():
    assert parse_mask("#o.\nx-#\n O#") == [(0, 0), (0, 1), (1, 2), (2, 1), (2, 2)]


def test_mask_is_normalised_and_ignores_blank_lines_around_it():
    assert parse_mask("\n\n  ..\n  .##\n  ##\n\n") == [(0, 1), (0, 2), (1, 0), (1, 1)]
    assert parse_mask("##\r\n##\r\n") == [(0, 0), (0, 1), (1, 0), (1, 1)]


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_mask_round_trip(name):
    cells = shape_cells(name, SHAPES[name].default_size)
    assert parse_mask(text(cells)) == cells
    assert parse_mask(text(cells).replace("#", "o").replace(".", " ")) == cells


def test_mask_errors_name_line_and_column():
    with pytest.raises(ShapeError, match=r"line 2, column 3: unexpected 'z'"):
        parse_mask("###\n##z\n")
    with pytest.raises(ShapeError, match=r"line 1, column 2: unexpected '\\t'"):
        parse_mask("#\t#")
    with pytest.raises(ShapeError, match="no cells"):
        parse_mask("")
    with pytest.raises(ShapeError, match="no cells"):
        parse_mask("...\n x-\n")


def test_mask_size_limits():
    with pytest.raises(ShapeError, match=f"more than {MAX_CELLS} cells"):
        parse_mask("\n".join(["#" * 50] * 51))
    with pytest.raises(ShapeError, match=f"wider than {MAX_SIDE}"):
        parse_mask("#" * (MAX_SIDE + 1))
    with pytest.raises(ShapeError, match=f"more than {MAX_SIDE}"):
        parse_mask("#\n" * (MAX_SIDE + 1))
    assert len(parse_mask("\n".join(["#" * 50] * 50))) == MAX_CELLS


# --- check_playable ---------------------------------------------------------------------


def board(mask: str, adjacency: Adjacency = "king") -> Board:
    return Board.from_cells(parse_mask(mask), adjacency)


def refusal(mask: str, adjacency: Adjacency = "king") -> str:
    with pytest.raises(ShapeError) as caught:
        check_playable(board(mask, adjacency))
    return str(caught.value)


def test_small_boards_are_fine():
    check_playable(board("#"))
    check_playable(board("##", "rook"))
    check_playable(board("#\n#\n#", "hex"))


def test_cell_without_neighbour():
    assert refusal("#.#") == "2 cells have no neighbour: row 1, column 1; row 1, column 3"
    assert refusal("##.#") == "the cell at row 1, column 4 has no neighbour"
    assert refusal("#.#.#.#.#") == (
        "5 cells have no neighbour: row 1, column 1; row 1, column 3; row 1, column 5; row 1, column 7; ..."
    )


def test_disconnected():
    assert refusal("##..##\n##..##") == "the shape falls apart into 2 pieces (of 4, 4 cells)"


def test_dead_ends():
    message = refusal(".#.\n###\n.#.", "rook")
    assert message.startswith("the shape has 4 dead ends (cells with only one neighbour: "
                              "row 1, column 2; row 2, column 1; row 2, column 3; row 3, column 2); ")


def test_rook_colour_imbalance():
    assert refusal("#.\n##\n##\n.#", "rook") == (
        "a rook path alternates light and dark squares, but the shape has 4 light and 2 dark ones "
        "(they may differ by at most one)"
    )


def test_rook_dead_end_on_the_rarer_colour():
    # the hexagon of side 3: one dark square more, but its dead end on the right is light
    message = refusal(".###.\n####.\n#####\n####.\n.###.", "rook")
    assert message == (
        "the dead end at row 3, column 5 must be an end of the path, but it is light and a rook path "
        "over 9 light and 10 dark squares starts and stops on dark ones"
    )


def test_rook_dead_ends_of_one_colour_on_a_balanced_board():
    message = refusal("####\n##..\n####", "rook")
    assert message.startswith("the two dead ends are the same colour")


def test_cut_cell_leaving_three_pieces():
    message = refusal("#.#\n.#.\n##.")
    assert message.startswith("removing the cell at row 2, column 2 splits the shape into 3 pieces")
    message = refusal("##.##\n##.##\n..#..\n##...\n##...")
    assert message.startswith("removing the cell at row 3, column 3 splits the shape into 3 pieces")


def test_three_parts_hanging_on_single_cells():
    mask = (
        "....###....\n"
        "....###....\n"
        "....###....\n"
        ".....#.....\n"
        "###.###.###\n"
        "###########\n"
        "###.###.###"
    )
    # the middle block holds three others, each by a single cell
    message = refusal(mask)
    assert message.startswith(
        "3 parts of the shape hang on a single cell (at row 4, column 6; row 6, column 4; row 6, column 8); "
    )


def test_too_many_narrow_cells():
    message = refusal("#.\n##\n##\n.#", "hex")
    assert message.startswith("too many cells with at most two neighbours crowd round the cell at row ")


def test_leaf_block_cells():
    assert leaf_block_cells(board("####")) == [0, 3]
    assert leaf_block_cells(board("##\n##")) == []
    assert leaf_block_cells(board("##..\n##..\n..##\n..##")) == [0, 1, 2, 5, 6, 7]
