"""The shared drawing of a board (webapp/drawing.py): cells, numbers, outline, sizes."""

from __future__ import annotations

import math
import re

import pytest

from engine import parse_puzzle
from webapp.paper.drawing import BOLD_DIGIT_EM, DIGIT_EM, HEX_RADIUS, SIDE, differing_cells, draw_board


def points(shape) -> list[tuple[float, float]]:
    pairs = [p.split(",") for p in shape.points.split()]
    return [(float(x), float(y)) for x, y in pairs]


def segments(outline: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    found = re.findall(r"M([-\d.]+) ([-\d.]+)L([-\d.]+) ([-\d.]+)", outline)
    return [((float(a), float(b)), (float(c), float(d))) for a, b, c, d in found]


def test_square_board_one_square_a_cell_holes_not_drawn() -> None:
    puzzle = parse_puzzle("1 . x\n. 5 .\n")
    drawing = draw_board(puzzle)
    assert [s.cell for s in drawing.cells] == [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)]
    assert (drawing.width, drawing.height) == (3 * SIDE, 2 * SIDE)
    first = drawing.cells[0]
    assert points(first) == [(0, 0), (SIDE, 0), (SIDE, SIDE), (0, SIDE)]
    assert first.text == "1" and first.given
    assert [s.text for s in drawing.cells] == ["1", "", "", "5", ""]
    # The outline is every side with no cell beyond it: 2 + 2 + 2 + 1 + 3 sides.
    assert len(segments(drawing.outline)) == 10


def test_solution_numbers_fill_the_open_cells_and_highlight_marks_cells() -> None:
    puzzle = parse_puzzle("1 . .\n")
    drawing = draw_board(puzzle, {(0, 0): 1, (0, 1): 2, (0, 2): 3}, highlight=[(0, 2)])
    assert [(s.text, s.given, s.highlight) for s in drawing.cells] == [
        ("1", True, False), ("2", False, False), ("3", False, True)]
    assert drawing.cells[2].label == "Row 1, column 3: 3"


def test_hex_board_is_drawn_as_hexagons_odd_rows_shifted() -> None:
    puzzle = parse_puzzle("# adjacency: hex\n. .\n. .\n")
    drawing = draw_board(puzzle)
    assert drawing.hex
    corners = points(drawing.cells[0])
    assert len(corners) == 6
    # A regular pointy-top hexagon SIDE wide.
    xs = [x for x, _ in corners]
    assert max(xs) - min(xs) == pytest.approx(SIDE, abs=0.02)
    sides = [math.dist(corners[i], corners[(i + 1) % 6]) for i in range(6)]
    assert sides == pytest.approx([HEX_RADIUS] * 6, abs=0.02)
    # Row 1 (odd) is shifted half a cell to the right of row 0.
    x_row0 = min(x for x, _ in points(drawing.cells[0]))
    x_row1 = min(x for x, _ in points(drawing.cells[2]))
    assert x_row1 - x_row0 == pytest.approx(SIDE / 2, abs=0.02)
    assert drawing.width == pytest.approx(2.5 * SIDE)
    # Four hexagons in a rhombus: 4 x 6 sides, 5 shared pairs inside.
    assert len(segments(drawing.outline)) == 24 - 2 * 5


def test_fit_keeps_the_proportions_inside_the_box() -> None:
    drawing = draw_board(parse_puzzle(". . . .\n. . . .\n"))
    width, height = drawing.fit(100, 100)
    assert width == 100 and height == pytest.approx(100 * drawing.aspect, abs=0.01)
    width, height = drawing.fit(400, 50)
    assert height == pytest.approx(50, abs=0.01) and width < 400


def test_font_shrinks_for_longer_numbers() -> None:
    small = draw_board(parse_puzzle(". . .\n"))
    large = draw_board(parse_puzzle("\n".join([" ".join(["."] * 40)] * 30)))
    assert large.font_size < small.font_size


def test_differing_cells() -> None:
    assert differing_cells({(0, 0): 1, (0, 1): 2, (1, 0): 3}, {(0, 0): 1, (0, 1): 3, (1, 0): 2}) == [(0, 1), (1, 0)]


# --- the PDF's boards in a few paths ----------------------------------------------------------


def _polygon_sides(drawing) -> set[frozenset[tuple[float, float]]]:  # noqa: ANN001
    """Every side of every cell's polygon, once (a side two cells share is one side)."""
    sides = set()
    for shape in drawing.cells:
        corners = [(round(x, 1), round(y, 1)) for x, y in points(shape)]
        sides |= {frozenset((a, b)) for a, b in zip(corners, corners[1:] + corners[:1], strict=True)}
    return sides


def _grid_sides(grid: str, step: float) -> set[frozenset[tuple[float, float]]]:
    """The sides a grid path draws, its long straight lines cut at every ``step``."""
    sides = set()
    for x, y, kind, end in re.findall(r"M([-\d.]+) ([-\d.]+)([HV])([-\d.]+)", grid):
        x, y, end = float(x), float(y), float(end)
        start = x if kind == "H" else y
        for k in range(round((end - start) / step)):
            a = start + k * step
            ends = ((a, y), (a + step, y)) if kind == "H" else ((x, a), (x, a + step))
            sides.add(frozenset((round(p, 1), round(q, 1)) for p, q in ends))
    for a, b, c, d in re.findall(r"M([-\d.]+) ([-\d.]+)L([-\d.]+) ([-\d.]+)", grid):
        sides.add(frozenset(((round(float(a), 1), round(float(b), 1)), (round(float(c), 1), round(float(d), 1)))))
    return sides


@pytest.mark.parametrize("text", ["1 . x\n. 5 .\n", "x 1 . x\n. . . .\n. 9 x .\nx . . x\n",
                                  "# adjacency: hex\n. 1 .\n. . x\n5 . .\n"])
def test_the_grid_path_draws_every_side_of_every_cell_once(text: str) -> None:
    drawing = draw_board(parse_puzzle(text))
    drawn = _grid_sides(drawing.grid, SIDE)
    assert drawn == _polygon_sides(drawing)
    # Square boards' sides are joined into long lines: fewer moves than sides.
    if not drawing.hex:
        assert drawing.grid.count("M") < len(drawn)
    else:
        assert drawing.grid.count("M") == len(drawn)


def test_the_shaded_path_covers_the_given_cells_only() -> None:
    drawing = draw_board(parse_puzzle("1 2 .\n. 5 .\n"))
    # Givens side by side on a row make one rectangle.
    assert drawing.shaded == f"M0 0H{2 * SIDE:g}V{SIDE:g}H0Z M{SIDE:g} {SIDE:g}H{2 * SIDE:g}V{2 * SIDE:g}H{SIDE:g}Z"
    hexes = draw_board(parse_puzzle("# adjacency: hex\n1 .\n. 4\n"))
    assert hexes.shaded.count("Z") == 2 and hexes.shaded.count("L") == 10  # two hexagons, six corners each


def test_numbers_as_one_text_each_digit_where_a_centred_number_puts_it() -> None:
    drawing = draw_board(parse_puzzle("1 . . .\n. . . .\n. . . 12\n"), {(0, 1): 2, (1, 0): 5})
    assert drawing.given_numbers.text == "112"  # 1, then 12
    assert drawing.other_numbers.text == "25"
    xs = [float(x) for x in drawing.given_numbers.x.split()]
    ys = [float(y) for y in drawing.given_numbers.y.split()]
    assert len(xs) == len(ys) == 3
    digit = BOLD_DIGIT_EM * drawing.font_size
    one, twelve = drawing.cells[0], drawing.cells[11]
    assert xs[0] == pytest.approx(one.x - digit / 2, abs=0.01)  # one digit, centred on the cell
    assert xs[1:] == pytest.approx([twelve.x - digit, twelve.x], abs=0.01)  # two, side by side
    assert ys == pytest.approx([one.y, twelve.y, twelve.y], abs=0.01)
    assert float(drawing.other_numbers.x.split()[0]) == pytest.approx(
        drawing.cells[1].x - DIGIT_EM * drawing.font_size / 2, abs=0.01)
