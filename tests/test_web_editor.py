"""The solver page (/solve) through Flask's test client: text and grid, every button."""

from __future__ import annotations

import html as html_lib
import re
import time
from pathlib import Path
from typing import Any

import pytest
from busy import BUSY_SLACK
from flask import Flask
from flask.testing import FlaskClient
from waiting import wait_until

from engine import count_solutions, grade, parse_puzzle, puzzle_to_id
from webapp.core.draft import grid_of_text, resize, text_of_grid
from webapp.work import tasks

from puzzle_files import DATA, load

ROOT = Path(__file__).resolve().parent.parent
UNIQUE = "1 . 3\n6 5 .\n. . 9\n"
SEVERAL = "1 . .\n. . .\n"
NONE = "1 . .\n. . 2\n"  # 1 and 2 don't touch
MALFORMED = "1 y .\n. . .\n"


def status(html: str) -> str:
    found = re.search(r'<div id="status"[^>]*>(.*?)</div>', html, re.S)
    assert found
    return html_lib.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


def post(client: FlaskClient, text: str, action: str, **extra: str):
    return client.post("/solve", data={"puzzle": text, "action": action, **extra})


def grid_form(lines: list[str], text: str | None = None, **extra: str) -> dict[str, str]:
    """The form as the page posts it: the grid's cells, and the text as drawn."""
    cells = [line.split() for line in lines]
    drawn = text_of_grid([["" if t == "." else t for t in row] for row in cells])
    form = {"grid_rows": str(len(cells)), "grid_cols": str(len(cells[0])), "drawn": drawn,
            "puzzle": drawn if text is None else text}
    for r, row in enumerate(cells, start=1):
        for c, token in enumerate(row, start=1):
            form[f"g-{r}-{c}"] = "" if token == "." else token
    return {**form, **extra}


def test_the_empty_editor(client: FlaskClient) -> None:
    response = client.get("/solve")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert html.count('class="ed-cell') == 25
    assert 'aria-label="Row 5, column 5"' in html
    for label in ("Rows", "Columns", "Puzzle text", "Adjacency", "Difficulty to generate"):
        assert re.search(rf'<label for="\w+"[^>]*>{label}</label>', html), label
    for button in ("Solve", "Check", "Grade", "Play this puzzle", "Generate a puzzle on this shape"):
        assert f">{button}</button>" in html


def test_solve_shows_the_solution_and_the_time(client: FlaskClient) -> None:
    html = post(client, UNIQUE, "solve").get_data(as_text=True)
    assert re.search(r"Solved in \d+ ms\. It is the only solution\.", status(html))
    assert sorted(re.findall(r"<text [^>]*>(\d+)</text>", html), key=int) == [str(k) for k in range(1, 10)]


def test_check_unique(client: FlaskClient) -> None:
    assert "Exactly one solution" in status(post(client, UNIQUE, "check").get_data(as_text=True))


def test_check_several_shows_two_solutions_and_where_they_differ(client: FlaskClient) -> None:
    html = post(client, SEVERAL, "check").get_data(as_text=True)
    said = status(html)
    assert said.startswith("More than one solution. The two below differ in")
    boards = re.findall(r"<figure class=\"result-board\">(.*?)</figure>", html, re.S)
    assert len(boards) == 2
    first, second = ([re.findall(r"<text [^>]*>(\d+)</text>", b) for b in boards])
    assert first != second
    marked = [b.count('class="differs"') for b in boards]
    count = int(re.search(r"differ in (\d+) cells", said).group(1))  # type: ignore[union-attr]
    assert marked == [count, count] and count >= 2
    assert "row " in said and "column " in said


def test_no_solution_says_why(client: FlaskClient) -> None:
    response = post(client, NONE, "check")
    said = status(response.get_data(as_text=True))
    assert response.status_code == 200
    assert said.startswith("No solution: 1 at row 1, column 1 and 2 at row 2, column 3")
    assert "Solution" not in said


def test_malformed_points_at_line_column_and_cell(client: FlaskClient) -> None:
    response = post(client, MALFORMED, "check")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "line 1, column 3: unknown token 'y'" in status(html)
    assert "row 1, column 2 of the grid" in status(html)
    bad = re.search(r'<input id="g-1-2"[^>]*>', html)
    assert bad and 'aria-invalid="true"' in bad.group(0) and 'value="y"' in bad.group(0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no cells"),
        ("x x\nx x\n", "no cells"),
        ("1 . 9\n", "given 9 is larger than the number of cells (3)"),
        ("1 . 1\n", "1 is given twice"),
        ("# adjacency: queen\n. .\n", "unknown adjacency 'queen'"),
    ],
)
def test_malformed_messages(client: FlaskClient, text: str, message: str) -> None:
    response = post(client, text, "solve")
    assert response.status_code == 400
    assert message in status(response.get_data(as_text=True))


def test_the_solver_gives_up_within_its_budget(tmp_path: Path, make_app) -> None:
    client = make_app(tmp_path, SOLVE_SECONDS=0.5).test_client()
    text = (ROOT / "tests" / "data" / "budget" / "hard-900.txt").read_text()
    said = status(post(client, text, "check").get_data(as_text=True))
    assert said.startswith("This puzzle is too hard to finish in 0.5 seconds")


def test_grade_says_the_level_the_rating_and_each_length(client: FlaskClient) -> None:
    html = post(client, UNIQUE, "grade").get_data(as_text=True)
    graded = grade(parse_puzzle(UNIQUE))
    assert status(html).startswith(f"Difficulty: {graded.level.capitalize()}, rating {graded.rating.text} (")
    assert re.search(r"<li>singles: \d+ numbers? placed</li>", html)
    several = status(post(client, SEVERAL, "grade").get_data(as_text=True))
    assert "More than one solution" in several and "can be graded" in several


def test_grade_of_a_large_puzzle(client: FlaskClient) -> None:
    puzzle, _solution = load(DATA / "large" / "rectangle12_s1.txt")
    html = post(client, (DATA / "large" / "rectangle12_s1.txt").read_text(), "grade").get_data(as_text=True)
    rating = grade(puzzle).rating
    assert status(html).startswith(f"Difficulty: {grade(puzzle).level.capitalize()}, rating {rating.text} (")
    assert html.count(" ruled out</li>") == len(rating.uses) and puzzle.size == 144


def test_play_this_puzzle_stores_it_and_opens_its_page(client: FlaskClient) -> None:
    response = post(client, UNIQUE, "play")
    assert response.status_code == 303
    code = puzzle_to_id(parse_puzzle(UNIQUE))
    assert response.headers["Location"] == f"/p/{code}"
    assert client.get(response.headers["Location"]).status_code == 200


@pytest.mark.parametrize(("text", "message"), [(SEVERAL, "more than one solution"), (NONE, "no solution")])
def test_play_refuses_a_puzzle_without_one_solution(client: FlaskClient, text: str, message: str) -> None:
    response = post(client, text, "play")
    assert response.status_code == 400
    assert message in status(response.get_data(as_text=True))


# --- the grid and the text --------------------------------------------------------------


def test_the_grid_is_used_when_the_text_was_not_changed(client: FlaskClient) -> None:
    form = grid_form(["1 . 3", "6 5 .", ". . 9"])
    form["g-2-3"] = "4"  # typed into the grid; the text still shows what was drawn
    html = client.post("/solve", data={**form, "action": "check"}).get_data(as_text=True)
    assert "Exactly one solution" in status(html)
    assert re.search(r'<textarea[^>]*>1 \. 3\n6 5 4\n\. \. 9\n</textarea>', html)


def test_the_text_wins_when_it_was_changed(client: FlaskClient) -> None:
    form = grid_form([". . .", ". . ."], text=UNIQUE)
    html = client.post("/solve", data={**form, "action": "check"}).get_data(as_text=True)
    assert "Exactly one solution" in status(html)
    assert html.count('class="ed-cell') == 9  # the grid drawn again from the text
    assert re.search(r'<input id="g-3-3"[^>]*value="9"', html)


def test_text_posted_by_a_browser_with_crlf_still_counts_as_unchanged(client: FlaskClient) -> None:
    form = grid_form(["1 . .", ". . ."])
    form["puzzle"] = form["puzzle"].replace("\n", "\r\n")
    form["g-2-3"] = "6"
    html = client.post("/solve", data={**form, "action": "check"}).get_data(as_text=True)
    assert re.search(r'<textarea[^>]*>1 \. \.\n\. \. 6\n</textarea>', html)


def test_holes_typed_as_x(client: FlaskClient) -> None:
    form = grid_form(["1 . x", ". . ."])
    html = client.post("/solve", data={**form, "action": "solve"}).get_data(as_text=True)
    assert "Solved in" in status(html)
    assert html.count("<polygon") == 5
    assert re.search(r'<input id="g-1-3"[^>]*class="ed-cell hole"', html)


def test_resize_keeps_what_fits(client: FlaskClient) -> None:
    form = grid_form(["1 . x", ". 5 ."], rows="3", cols="2")
    html = client.post("/solve", data={**form, "action": "draw"}).get_data(as_text=True)
    assert html.count('class="ed-cell') == 6
    assert re.search(r'<textarea[^>]*>1 \.\n\. 5\n\. \.\n</textarea>', html)
    assert "Press Solve or Check" in status(html)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"rows": "31"}, "from 1 to 30"),
        ({"cols": "zero"}, "from 1 to 30"),
        ({"grid_rows": "2", "grid_cols": "2", "g-3-1": "5"}, "outside the 2×2 grid"),
        ({"adjacency": "queen"}, "Unknown adjacency"),
        ({"difficulty": "insane"}, "Unknown difficulty"),
        ({"action": "explode"}, "Unknown action"),
    ],
)
def test_bad_form_input_is_a_400(client: FlaskClient, extra: dict[str, str], message: str) -> None:
    data = {"puzzle": UNIQUE, "action": "draw", **extra}
    response = client.post("/solve", data=data)
    assert response.status_code == 400
    assert message in html_lib.unescape(response.get_data(as_text=True))


def test_adjacency_from_the_form_or_the_text(client: FlaskClient) -> None:
    # 1 and 2 touch only at a corner: fine for Hidato, no solution for Numbrix.
    text = "1 .\n. 2\n"
    assert "No solution" not in status(post(client, text + "", "solve", adjacency="king").get_data(as_text=True))
    assert "No solution" in status(post(client, text, "solve", adjacency="rook").get_data(as_text=True))
    html = post(client, "# adjacency: rook\n" + text, "solve", adjacency="king").get_data(as_text=True)
    assert "No solution" in status(html)
    assert '<option value="rook" selected>' in html


def test_a_hex_grid_is_drawn_shifted(client: FlaskClient) -> None:
    html = post(client, ". . .\n. . .\n", "solve", adjacency="hex").get_data(as_text=True)
    assert 'class="draw-grid hex"' in html and 'class="row shift"' in html


def test_open_a_puzzle_by_id(client: FlaskClient) -> None:
    puzzle, _ = load(DATA / "seed000-5x5.txt")
    html = client.get(f"/solve?id={puzzle_to_id(puzzle)}").get_data(as_text=True)
    assert re.search(r'<input id="g-1-2"[^>]*value="18"', html)
    assert client.get("/solve?id=nonsense").status_code == 400


def test_a_board_too_big_to_draw_is_edited_as_text(client: FlaskClient) -> None:
    text = "\n".join([" ".join(["."] * 31)] * 2)
    html = post(client, text, "solve").get_data(as_text=True)
    assert "too big to draw" in html and 'class="ed-cell' not in html
    assert "Solved in" in status(html)


def test_grid_helpers_round_trip() -> None:
    grid = grid_of_text("# a comment\n 1 .  x\n10 _ -\n.\n")
    assert grid == [["1", "", "x"], ["10", "", "x"], ["", "x", "x"]]
    assert text_of_grid(grid) == " 1  .  x\n10  .  x\n .  x  x\n"
    assert grid_of_text(text_of_grid(grid)) == grid
    assert resize(grid, 2, 4) == [["1", "", "x", ""], ["10", "", "x", ""]]
    assert grid_of_text("") is None


# --- generating on a custom shape -------------------------------------------------------


def test_generate_on_this_shape_opens_the_new_puzzle(client: FlaskClient, app: Flask) -> None:
    form = grid_form(["x . . .", ". . . .", ". . . .", ". . . x"], difficulty="easy")
    response = client.post("/solve", data={**form, "action": "generate"})
    assert response.status_code == 303
    code = response.headers["Location"][len("/p/"):]
    stored = app.extensions["hidato"].store.find_puzzle(code)
    assert stored is not None
    assert stored.shape == "custom" and stored.difficulty == "easy"
    assert stored.puzzle.board.cells == parse_puzzle("x . . .\n. . . .\n. . . .\n. . . x\n").board.cells


def test_generate_refuses_a_shape_without_a_path(client: FlaskClient) -> None:
    form = grid_form([". x .", "x x x", ". x ."])  # four cells, none touching
    response = client.post("/solve", data={**form, "action": "generate"})
    assert response.status_code == 400
    assert "No puzzle could be made on this shape" in status(response.get_data(as_text=True))


def test_generate_refuses_a_shape_too_big(client: FlaskClient) -> None:
    text = "\n".join([" ".join(["."] * 25)] * 19)
    response = post(client, text, "generate")
    assert response.status_code == 400
    assert "up to 450" in status(response.get_data(as_text=True))


def test_slow_generation_waits_on_a_page(tmp_path: Path, make_app) -> None:
    client = make_app(tmp_path, GENERATE_WAIT_SECONDS=0).test_client()
    form = grid_form([". . . .", ". . . .", ". . . ."], difficulty="easy")
    response = client.post("/solve", data={**form, "action": "generate"})
    assert response.status_code == 303
    waiting = response.headers["Location"]
    assert waiting.startswith("/solve/generate/")
    def made(page: Any) -> bool:
        if page.status_code == 303:
            return True
        assert page.status_code == 200 and "Making your puzzle" in page.get_data(as_text=True)
        return False

    page = wait_until(lambda: client.get(waiting), made, 30, what="the puzzle on the drawn shape")
    assert page.headers["Location"].startswith("/p/")
    assert client.get(waiting).status_code == 404  # a ticket is used once


# --- big boards: the text box, the grid's size, legible solutions (issue 26) ----------------

SQUARE21 = (ROOT / "tests" / "data" / "solver" / "square21-king-easy-s1.txt").read_text()
NUMBRIX = ROOT / "tests" / "data" / "rated" / "generated" / "square10-rook-easy-s1.txt"


def _square(side: int) -> str:
    rows = [["."] * side for _ in range(side)]
    rows[0][0] = "1"
    return "\n".join(" ".join(row) for row in rows) + "\n"


def _field(html: str, name: str) -> str:
    found = re.search(rf'<input id="{name}"[^>]*value="(\d+)"', html)
    assert found, name
    return found.group(1)


def test_the_text_box_keeps_one_row_a_line_and_is_as_tall_as_the_text(client: FlaskClient) -> None:
    html = post(client, SQUARE21, "check").get_data(as_text=True)
    box = re.search(r"<textarea[^>]*>", html)
    assert box and 'wrap="off"' in box.group(0) and 'rows="22"' in box.group(0)
    small = client.get("/solve").get_data(as_text=True)
    assert 'rows="6"' in re.search(r"<textarea[^>]*>", small).group(0)  # type: ignore[union-attr]
    tall = post(client, _square(30), "draw").get_data(as_text=True)
    assert 'rows="24"' in re.search(r"<textarea[^>]*>", tall).group(0)  # type: ignore[union-attr]


def test_a_pasted_text_too_big_to_draw_shows_its_own_size(client: FlaskClient) -> None:
    form = grid_form([". . . . ."] * 5, text=_square(40))  # pasted over the 5x5 grid, then Solve
    response = client.post("/solve", data={**form, "action": "solve"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "This board has 1,600 cells" in status(html)
    assert _field(html, "rows") == "40" and _field(html, "cols") == "40"
    assert 'class="ed-cell' not in html
    assert re.search(r'<p id="draw-too-big" class="help">This board is too big to draw here', html)
    assert re.search(r'<input type="hidden" id="grid-rows" name="grid_rows" value="40" disabled>', html)
    # Resize grid with the sizes as shown: nothing to resize, no error.
    again = {"puzzle": _square(40), "drawn": _square(40), "rows": "40", "cols": "40", "action": "draw"}
    response = client.post("/solve", data=again)
    assert response.status_code == 200 and "Press Solve or Check" in status(response.get_data(as_text=True))
    # Smaller sizes cut the text to them.
    response = client.post("/solve", data={**again, "rows": "3", "cols": "4"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and html.count('class="ed-cell') == 12
    assert re.search(r"<textarea[^>]*>1 \. \. \.\n\. \. \. \.\n\. \. \. \.\n</textarea>", html)


def test_a_pasted_text_brings_its_grid_and_size_with_any_button(client: FlaskClient) -> None:
    text = "1 . . . . . .\n" + ". . . . . . .\n" * 11
    for action in ("draw", "check"):  # Resize grid with Rows/Columns as drawn (5x5), or a result
        form = grid_form([". . . . ."] * 5, text=text)
        html = client.post("/solve", data={**form, "rows": "5", "cols": "5", "action": action}).get_data(as_text=True)
        assert _field(html, "rows") == "12" and _field(html, "cols") == "7", action
        assert html.count('class="ed-cell') == 84 and 'aria-label="Row 12, column 7"' in html
        assert "Drawing grid, 12 rows by 7 columns" in html
    # Rows/Columns changed as well as the text: the text's grid at the size asked for.
    form = grid_form([". . . . ."] * 5, text=text)
    html = client.post("/solve", data={**form, "rows": "2", "cols": "3", "action": "draw"}).get_data(as_text=True)
    assert re.search(r"<textarea[^>]*>1 \. \.\n\. \. \.\n</textarea>", html)


def test_rows_or_columns_out_of_range_are_said_on_the_editor_keeping_the_puzzle(client: FlaskClient) -> None:
    form = grid_form(["1 . 3", "6 5 .", ". . 9"], rows="31", cols="3")
    response = client.post("/solve", data={**form, "action": "draw"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert status(html) == "Rows must be a whole number from 1 to 30."
    assert re.search(r"<textarea[^>]*>1 \. 3\n6 5 \.\n\. \. 9\n</textarea>", html)


def test_a_solution_is_never_drawn_with_numbers_under_12_px(client: FlaskClient) -> None:
    for text in (SQUARE21, UNIQUE):
        html = post(client, text, "solve").get_data(as_text=True)
        legible = re.search(r'<div class="result-scroll" data-legible="(\d+)"><svg[^>]*width="([\d.]+)"', html)
        size = re.search(r'<g font-family="[^"]*" font-size="([\d.]+)"', html)
        assert legible and size
        # At data-legible px wide, the numbers (font-size in units of the SVG's own width) are 12 px.
        scale = int(legible.group(1)) / float(legible.group(2))
        assert 12 <= float(size.group(1)) * scale < 12.1
    assert 'data-legible="636"' in post(client, SQUARE21, "solve").get_data(as_text=True)


# --- other rules: a Numbrix puzzle pasted as a Hidato ---------------------------------------


def _numbrix_without_its_rule() -> str:
    """A real generated Numbrix puzzle, its "# adjacency: rook" line taken out."""
    return "".join(line for line in NUMBRIX.read_text().splitlines(True) if not line.startswith("#"))


def test_a_numbrix_puzzle_checked_as_hidato_is_offered_numbrix(client: FlaskClient) -> None:
    text = _numbrix_without_its_rule()
    assert count_solutions(parse_puzzle(text, adjacency="king"), limit=2) == 2  # not unique as a Hidato
    for action, said in (("check", "More than one solution"), ("solve", "more than one solution"),
                         ("grade", "can be graded")):
        html = post(client, text, action).get_data(as_text=True)
        assert said in status(html) and "With Numbrix rules (sides only) it has exactly one solution." in status(html)
        assert re.search(r'<button form="editor-form" name="use_adjacency" value="rook"[^>]*>Solve as Numbrix</button>',
                         html)
    # The button posts the form with use_adjacency (and no action): solved as Numbrix.
    html = client.post("/solve", data={"puzzle": text, "use_adjacency": "rook"}).get_data(as_text=True)
    assert status(html).endswith("It is the only solution.")
    assert '<option value="rook" selected>' in html and "use_adjacency" not in html


def test_the_offer_rewrites_a_declared_adjacency(client: FlaskClient) -> None:
    text = "# adjacency: king\n" + _numbrix_without_its_rule()
    assert "With Numbrix rules" in status(post(client, text, "check").get_data(as_text=True))
    html = client.post("/solve", data={"puzzle": text, "drawn": text, "use_adjacency": "rook"}).get_data(as_text=True)
    assert status(html).endswith("It is the only solution.")
    assert "# adjacency: rook\n" in html


def test_no_solution_as_numbrix_is_offered_hidato(client: FlaskClient) -> None:
    text = (DATA / "seed000-5x5.txt").read_text()
    html = post(client, text, "check", adjacency="rook").get_data(as_text=True)
    assert status(html).startswith("No solution")
    assert "With Hidato rules (sides and corners) it has exactly one solution." in status(html)
    assert re.search(r'name="use_adjacency" value="king"[^>]*>Solve as Hidato</button>', html)


def test_no_offer_when_no_other_rule_gives_one_solution(client: FlaskClient) -> None:
    html = post(client, SEVERAL, "check").get_data(as_text=True)
    assert "More than one solution" in status(html) and "use_adjacency" not in html


def test_the_other_rules_are_tried_within_what_is_left_of_the_budget() -> None:
    puzzle = parse_puzzle((ROOT / "tests" / "data" / "budget" / "hard-900.txt").read_text())
    started = time.perf_counter()
    assert tasks.unique_with(puzzle, 0.3) is None
    assert time.perf_counter() - started < 0.3 + BUSY_SLACK
    started = time.perf_counter()
    examined = tasks.examine(puzzle, False, 0.5)  # the first check gives up: nothing else is tried
    assert not examined.result.complete and examined.unique_with is None
    assert time.perf_counter() - started < 0.5 + BUSY_SLACK
    numbrix = parse_puzzle(_numbrix_without_its_rule(), adjacency="king")
    assert tasks.examine(numbrix, False, 2.5).unique_with == "rook"
