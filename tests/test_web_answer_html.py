"""The cells, the clock, the counts, the status line and the buttons drawn in Python
(web/cell_html.py, web/panel_html.py): the markup the page's script and htmx rely on,
escaping, and Spanish."""

from __future__ import annotations

from datetime import datetime

from flask import Flask

from webapp.core.game import CellView, Game, State
from webapp.web.cell_html import cell_html
from webapp.web.notice import Notice
from webapp.web.panel_html import counts_html, duplicates_html, status_html, timer_html, tools_html

from puzzle_files import DATA, load

PUZZLE, SOLUTION = load(DATA / "seed000-5x5.txt")
OPEN = [cell for cell in PUZZLE.board.cells if cell not in PUZZLE.givens]


def url(row: int, col: int) -> str:
    return f"/p/x/cell/{row}/{col}?a=1&b=<2>"


def test_a_given_cell_is_a_number_and_takes_no_entry(app: Flask) -> None:
    with app.test_request_context("/"):
        html = str(cell_html(CellView((0, 2), True, 7, hinted=True), True, False, 2, url))
    assert html == ('<div id="cell-1-3" data-row="1" data-col="3"\n     class="cell given hinted" hx-swap-oob="true">'
                    '\n  <span class="num">7</span>\n</div>')


def test_an_open_cell_posts_its_entry_and_says_what_is_wrong(app: Flask) -> None:
    view = CellView((1, 4), False, 12, wrong=True, also_at=(2, 3), also_count=1, raw="<x>", error="bad & <b>",
                    notes=(1, 3))
    with app.test_request_context("/"):
        html = str(cell_html(view, False, False, 3, url))
    assert html.startswith('<div id="cell-2-5" data-row="2" data-col="5"\n     class="cell wrong dup" '
                           'hx-post="/p/x/cell/2/5?a=1&amp;b=&lt;2&gt;" hx-trigger="change" hx-params="c-2-5,mode">')
    assert ('<input id="c-2-5" name="c-2-5" inputmode="numeric" autocomplete="off" maxlength="3" size="3"\n'
            '         aria-label="Row 2, column 5" value="&lt;x&gt;" aria-invalid="true" aria-describedby="note-2-5">'
            ) in html
    assert "pencil" not in html  # a cell with a number shows no notes
    assert ('<span class="note" id="note-2-5">bad &amp; &lt;b&gt;; wrong number; 12 is also at row 3, column 4, '
            'and 1 other cell</span>\n</div>') in html


def test_a_locked_cell_is_read_only_and_posts_nothing(app: Flask) -> None:
    with app.test_request_context("/?lang=es"):
        app.preprocess_request()
        html = str(cell_html(CellView((0, 0), False, None, notes=(2, 5)), False, True, 2, url))
    assert "hx-post" not in html and ' readonly>' in html
    assert 'aria-label="Fila 1, columna 1"' in html and '<span class="pencil">2 5</span>' in html


def test_the_clock_and_the_counts(app: Flask) -> None:
    game = Game(PUZZLE, SOLUTION, State(started=datetime(2026, 1, 2, 3, 4, 5, 6), mistakes=2))
    game.state.entries[OPEN[0]] = SOLUTION[OPEN[0]]
    with app.test_request_context("/"):
        timer = str(timer_html(game, 3725, "s<1>", oob=True))
        counts = str(counts_html(game, 1))
    assert timer == ('<span id="timer" role="timer" data-seconds="3725" data-running="true"\n'
                     '      data-epoch="20260102030405000006" data-stamp="s&lt;1&gt;" aria-label="Time taken"'
                     ' hx-swap-oob="true"><span class="clock">1:02:05</span></span>')
    runs = game.missing()
    assert len(runs) > 1
    first = f"{runs[0][0]}–{runs[0][1]}" if runs[0][1] > runs[0][0] else str(runs[0][0])
    more = len(runs) - 1
    assert counts == ('<div id="counts" class="counts">\n  <p><strong>1</strong> of '
                      f'{len(OPEN)} cells filled\n    <span class="mistakes">· Mistakes: 2</span></p>\n'
                      f'  <p class="missing"><span class="label">Missing:</span>\n    {first}, … ({more} more '
                      f'run{"s" if more > 1 else ""})</p>\n</div>')
    game.state.revealed = True  # a finished game lists nothing missing
    with app.test_request_context("/"):
        assert "missing" not in str(counts_html(game, 40))


def test_the_numbers_entered_twice_are_capped_and_named_in_words(app: Flask) -> None:
    state = State()
    with app.test_request_context("/"):
        empty = str(duplicates_html(Game(PUZZLE, SOLUTION, state), oob=True))
    assert empty == '<div id="duplicates" class="duplicates" hx-swap-oob="true"></div>'
    free = [v for v in range(1, PUZZLE.size + 1) if v not in PUZZLE.givens.values()]
    for cell in OPEN[:4]:  # one number in four cells: three named, then "…"
        state.entries[cell] = free[0]
    given = sorted(PUZZLE.givens.values())
    for k, cell in enumerate(OPEN[4:10]):  # six given numbers entered again: five numbers listed in all
        state.entries[cell] = given[k]
    game = Game(PUZZLE, SOLUTION, state)
    with app.test_request_context("/?lang=es"):
        app.preprocess_request()
        html = str(duplicates_html(game))
    assert html.startswith('<div id="duplicates" class="duplicates">\n  <ul class="problems" aria-label="')
    assert html.count("<li>") == 5 and html.endswith("</li>\n  </ul></div>")
    first = "; ".join(f"fila {r + 1}, columna {c + 1}" for r, c in sorted(OPEN[:4])[:3])
    assert f"{first}; …</li>" in html


def test_the_status_line_says_the_notice_with_its_kind_escaped(app: Flask) -> None:
    with app.test_request_context("/"):
        empty = str(status_html(None))
        error = str(status_html(Notice("Row 1 <b> & 'c'", "error"), oob=True))
        solved = str(status_html(Notice("Solved!", "solved")))
    # On the page it is kept when htmx swaps the game; in an answer it fills the line.
    assert empty == '<div id="status" class="status" role="status" hx-preserve="true">\n</div>'
    assert error == ('<div id="status" class="status" role="status" hx-swap-oob="innerHTML">\n'
                     '  <p class="notice error"><strong>Not taken:</strong> '
                     'Row 1 &lt;b&gt; &amp; &#39;c&#39;</p>\n</div>')
    assert '<p class="notice solved"><span class="badge" aria-hidden="true">★</span>Solved!</p>' in solved
    with app.test_request_context("/?lang=es"):
        app.preprocess_request()
        assert "<strong>Pista:</strong> " in str(status_html(Notice("x", "hint")))


def test_the_buttons_follow_undo_and_redo_and_leave_a_finished_game(app: Flask) -> None:
    game = Game(PUZZLE, SOLUTION, State())
    with app.test_request_context("/"):
        fresh = str(tools_html(game, oob=True))
        game.enter(OPEN[0], SOLUTION[OPEN[0]])
        game.enter(OPEN[1], SOLUTION[OPEN[1]])
        game.undo()  # one move left to undo, one to redo
        undone = str(tools_html(game))
        game.reveal()
        finished = str(tools_html(game))
    assert fresh.startswith('<div id="tools" class="tools" role="group" aria-label="Game" hx-swap-oob="true">\n'
                            '  <button id="tool-undo" name="action" value="undo" disabled>Undo</button>\n'
                            '  <button id="tool-redo" name="action" value="redo" disabled>Redo</button>')
    assert fresh.endswith('<button type="button" id="tool-print" class="js-only" data-print>Print</button></div>')
    assert fresh.count("<button") == 8
    assert ('<button id="tool-undo" name="action" value="undo">Undo</button>\n'
            '  <button id="tool-redo" name="action" value="redo">Redo</button>') in undone
    assert finished == '<div id="tools" class="tools" role="group" aria-label="Game"></div>'
