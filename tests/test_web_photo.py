"""Reading a puzzle from a photo on the site (webapp/web/photo.py): the form, the job that
reads the upload on any host under a time and memory budget, the result page (the editor
filled beside the photo, its buttons working as on the solver page), and every bad input
answered with its reason and a 4xx, never a 500."""

from __future__ import annotations

import html
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image
from waiting import wait_until
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from engine import Puzzle, format_puzzle, puzzle_to_id
from webapp.scan import MAX_BYTES
from webapp.store.shared import Shared
from webapp.web.photo import stage_json
from webapp.web.photo_work import web_picture

from photo_files import (
    BOARD_SCREENSHOT,
    SHEET_WITH_19,
    classic,
    decompression_bomb,
    nineteen_cell,
    no_puzzle,
    not_an_image,
    truncated_jpeg,
)

TICKET = re.compile(r"/photo/([0-9a-f]{32})$")


@pytest.fixture
def photo_app(tmp_path: Path, make_app) -> Flask:
    """An app whose form waits for the reading (the tests want its answer, not the waiting page)."""
    app: Flask = make_app(tmp_path / "instance", PHOTO_WAIT_SECONDS=120)
    return app


def send(client: FlaskClient, data: bytes, name: str = "photo.jpg", **fields: str) -> Any:
    """Post the form as a browser does (the body made here: Werkzeug's test client leaves
    the temporary file it spools a large one to open)."""
    boundary, body = encode_multipart({"photo": FileStorage(io.BytesIO(data), name), **fields})
    return client.post("/photo", data=body, content_type=f"multipart/form-data; boundary={boundary}")


def text_of(response: Any) -> str:
    return html.unescape(response.get_data(as_text=True))


def error_notice(response: Any) -> str:
    found = re.search(r'<p class="notice error" role="alert">(.*?)</p>', response.get_data(as_text=True), re.S)
    assert found, response.get_data(as_text=True)
    return html.unescape(found.group(1))


def grid_values(page: str) -> dict[tuple[int, int], str]:
    """The editor grid's cells as the page fills them: (row, col) from 0 -> token."""
    return {(int(r) - 1, int(c) - 1): value for r, c, value in
            re.findall(r'<input id="g-(\d+)-(\d+)" name="g-\d+-\d+" value="([^"]*)"', page)}


def tokens(puzzle: Puzzle) -> dict[tuple[int, int], str]:
    """What the editor's grid holds for a puzzle."""
    board = puzzle.board
    return {(r, c): ("x" if (r, c) not in board.cell_set else str(puzzle.givens.get((r, c), "")))
            for r in range(board.rows) for c in range(board.cols)}


def read(client: FlaskClient, path: Path) -> tuple[str, str]:
    """Send a picture; its reading's ticket and result page."""
    response = send(client, path.read_bytes(), path.name)
    assert response.status_code == 303, text_of(response)
    ticket = TICKET.search(response.headers["Location"])
    assert ticket, response.headers["Location"]
    page = client.get(response.headers["Location"])
    assert page.status_code == 200, text_of(page)
    assert page.headers["Cache-Control"] == "private, no-store"  # one person's photo
    return ticket.group(1), text_of(page)


# --- the ways in ----------------------------------------------------------------------


def test_the_form_opens_a_phones_camera_and_posts_without_scripts(client: FlaskClient) -> None:
    for path in ("/photo", "/solve"):
        page = client.get(path).get_data(as_text=True)
        form = re.search(r'<form class="photo-form" method="post" action="/photo" enctype="multipart/form-data"', page)
        assert form, path
        assert re.search(r'<input id="(solver-)?photo" name="photo" type="file" accept="image/\*" '
                         r'capture="environment" required', page), path
        assert 'name="adjacency"' in page and 'name="entries"' in page
        assert "up to 25 MB" in page
    home = client.get("/").get_data(as_text=True)
    assert 'href="/photo"' in home and "Read a puzzle from a photo" in home
    assert "Disallow: /photo/" in client.get("/robots.txt").get_data(as_text=True)


# --- a picture read ---------------------------------------------------------------------


def test_a_screenshot_is_read_into_the_editor_beside_the_photo(photo_app: Flask) -> None:
    client = photo_app.test_client()
    ticket, page = read(client, BOARD_SCREENSHOT)
    puzzle = classic()
    assert grid_values(page) == tokens(puzzle)  # the same editor as pasted text, filled
    assert format_puzzle(puzzle).strip() in page  # and its text
    assert "It has exactly one solution" in page
    # The photo, with each cell's outline and number drawn over it in the picture's pixels.
    assert f'<image href="/photo/{ticket}.jpg"' in page
    assert page.count('class="read-cell') == puzzle.size
    for value in puzzle.givens.values():
        assert re.search(rf'<text x="[\d.]+" y="[\d.]+" font-size="[\d.]+">{value}\??</text>', page), value
    assert f'action="/photo/{ticket}"' in page  # the editor posts back beside the photo
    picture = client.get(f"/photo/{ticket}.jpg")
    assert picture.status_code == 200 and picture.mimetype == "image/jpeg"
    assert picture.headers["Cache-Control"] == "private, max-age=900"
    shown = Image.open(io.BytesIO(picture.data))
    with Image.open(BOARD_SCREENSHOT) as original:
        original.load()
    assert max(shown.size) <= 1600
    assert abs(shown.width / shown.height - original.width / original.height) < 0.01
    viewbox = re.search(r'<svg class="photo-svg" viewBox="0 0 (\d+) (\d+)"', page)
    assert viewbox and (int(viewbox.group(1)), int(viewbox.group(2))) == original.size


def test_a_reading_without_a_solution_points_at_the_misread_cell_which_is_fixed_then_solved(
        photo_app: Flask) -> None:
    client = photo_app.test_client()
    ticket, page = read(client, SHEET_WITH_19)
    row, col = nineteen_cell()
    assert grid_values(page)[(row, col)] == "19"
    assert "What was read has no solution" in page
    doubts = re.search(r'<ol class="doubts".*?</ol>', page, re.S)
    assert doubts and f"row {row + 1}, column {col + 1}, read as 19" in doubts.group(0)
    field = f"g-{row + 1}-{col + 1}"
    assert re.search(rf'<input id="{field}"[^>]*class="ed-cell given doubt"[^>]*aria-describedby="doubt-help"', page)
    assert re.search(rf'<a href="#{field}" tabindex="-1" data-field="{field}" class="read-cell doubt"', page)

    # Corrected in the grid, then Check, Solve, Print and Play, the photo still beside.
    form = {f"g-{r + 1}-{c + 1}": value for (r, c), value in grid_values(page).items()}
    form.update({field: "9", "grid_rows": "8", "grid_cols": "8", "puzzle": "", "drawn": "", "adjacency": "king",
                 "difficulty": "medium"})
    checked = client.post(f"/photo/{ticket}", data={**form, "action": "check"})
    assert checked.status_code == 200
    answer = text_of(checked)
    assert "Exactly one solution" in answer
    assert f'<image href="/photo/{ticket}.jpg"' in answer
    assert "read as 19" not in answer  # the cell fixed is no longer listed as doubtful
    solved = text_of(client.post(f"/photo/{ticket}", data={**form, "action": "solve"}))
    assert "It is the only solution" in solved and 'aria-label="Solution"' in solved
    code = puzzle_to_id(classic())
    printed = client.post(f"/photo/{ticket}", data={**form, "action": "print"})
    assert printed.status_code == 303 and printed.headers["Location"] == f"/p/{code}/print"
    played = client.post(f"/photo/{ticket}", data={**form, "action": "play"})
    assert played.status_code == 303 and played.headers["Location"].startswith("/p/")
    graded = text_of(client.post(f"/photo/{ticket}", data={**form, "action": "grade"}))
    assert "Difficulty:" in graded


def test_the_picture_for_the_page_is_turned_as_shown_and_made_smaller() -> None:
    """As the reader sees it (EXIF orientation applied), so the cells' outlines, fractions of
    the picture as shown, fall on their cells."""
    stored = Image.new("RGB", (4000, 3000), (200, 30, 30))
    stored.paste((30, 30, 200), (0, 0, 400, 300))  # a blue corner, top left as stored
    exif = Image.Exif()
    exif[0x0112] = 6  # shown turned a quarter clockwise: the blue corner comes top right
    out = io.BytesIO()
    stored.save(out, "JPEG", quality=90, exif=exif)
    shown = Image.open(io.BytesIO(web_picture(out.getvalue())))
    assert shown.size == (1200, 1600)
    pixel = shown.getpixel((1180, 20))
    assert isinstance(pixel, tuple)
    red, green, blue = pixel[:3]
    assert blue > 150 and red < 80
    transparent = io.BytesIO()
    Image.new("RGBA", (300, 200), (0, 0, 0, 0)).save(transparent, "PNG")
    assert Image.open(io.BytesIO(web_picture(transparent.getvalue()))).getpixel((10, 10)) == (255, 255, 255)
    assert web_picture(b"not a picture") == b""


def test_a_photo_sent_to_one_host_is_read_by_a_worker_on_another(tmp_path: Path, make_app) -> None:
    web = make_app(tmp_path / "instance", JOB_THREADS=0, PHOTO_WAIT_SECONDS=0)  # does no jobs itself
    worker = make_app(tmp_path / "instance")  # another host on the same database
    client = web.test_client()
    response = send(client, BOARD_SCREENSHOT.read_bytes(), "board.png")
    assert response.status_code == 303
    waiting = client.get(response.headers["Location"])
    assert "Your photo is being read" in text_of(waiting) and '<meta http-equiv="refresh" content="1">' in \
        waiting.get_data(as_text=True)
    worker.extensions["hidato"].jobs.start()
    page = wait_until(lambda: text_of(client.get(response.headers["Location"])),
                      lambda page: "Your photo is being read" not in page, 120, every=0.2,
                      what="the photo read by the other host")
    assert grid_values(page) == tokens(classic())


def test_the_waiting_page_says_the_readers_stage_and_counts_the_cells(app: Flask) -> None:
    shared = Shared(app.extensions["hidato"].store)
    shared.add_job("d" * 32, "photo", {"adjacency": None, "entries": False}, start_within=300, keep_seconds=900,
                   data=BOARD_SCREENSHOT.read_bytes())
    client = app.test_client()
    waiting = text_of(client.get("/photo/" + "d" * 32))
    assert "Your photo is being read: waiting for its turn." in waiting
    assert '<progress class="photo-progress" aria-label="Cells read">' in waiting  # no count yet: "working"
    assert shared.claim_job("worker/1/x", ["photo"], 30, 3, "gave up") is not None
    with app.test_request_context():
        for said, shown in [("reading cells: 12 of 40", "reading 12 of 40 cells"),
                            ("reading 1 of 1 cell", "reading 1 of 1 cell"),
                            ("finding the board", "finding the board"),
                            ("choosing which way up", "choosing which way up the picture is"),
                            ("something new", "something new")]:
            assert stage_json(said)["text"] == shown
        shared.job_progress("d" * 32, "worker/1/x", json.dumps(stage_json("reading cells: 12 of 40")))
    waiting = text_of(client.get("/photo/" + "d" * 32))
    assert "Your photo is being read: reading 12 of 40 cells." in waiting
    assert '<progress class="photo-progress" max="40" value="12" aria-label="Cells read">' in waiting


# --- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize(("make", "status"), [
    (not_an_image, 415),
    (truncated_jpeg, 415),
    (decompression_bomb, 413),
    (no_puzzle, 422),
], ids=["not an image", "truncated JPEG", "decompression bomb", "no puzzle"])
def test_a_picture_that_cannot_be_read_is_answered_with_its_reason(photo_app: Flask, make: Any, status: int) -> None:
    response = send(photo_app.test_client(), make(), "picture.jpg", adjacency="hex", entries="1")
    assert response.status_code == status, text_of(response)
    message = error_notice(response)
    assert len(message) > 20 and "Traceback" not in message
    page = text_of(response)
    assert '<form class="photo-form"' in page  # the form again, as it was filled in
    assert '<option value="hex" selected>' in page and 'name="entries" value="1" checked' in page


def test_a_form_without_a_picture_says_so(client: FlaskClient) -> None:
    missing = client.post("/photo", data={"adjacency": ""}, content_type="multipart/form-data")
    assert missing.status_code == 400
    assert error_notice(missing) == "Choose a photo or a screenshot of a puzzle first."
    empty = send(client, b"", "empty.jpg")
    assert empty.status_code == 400
    assert error_notice(empty) == "The file empty.jpg is empty: it holds no picture."
    odd = send(client, not_an_image(), adjacency="triangle")
    assert odd.status_code == 400 and "Unknown adjacency" in text_of(odd)


def test_a_body_over_the_photo_limit_is_refused_saying_the_limit_and_other_routes_keep_theirs(
        photo_app: Flask) -> None:
    client = photo_app.test_client()
    huge = send(client, b"\xff\xd8\xff" + b"\0" * MAX_BYTES, "huge.jpg")
    assert huge.status_code == 413
    assert error_notice(huge).startswith("This photo is too large: the photo reader takes files of up to 25 MB.")
    # The larger limit is the photo form's alone: the solver page still takes 256 KiB.
    solver = client.post("/solve", data={"puzzle": "1 . 3\n" * 60_000, "action": "check"})
    assert solver.status_code == 413 and "256 KiB" in text_of(solver)
    # A megabyte is well within the photo form's: it is read (and refused as no picture).
    assert send(client, not_an_image() * 1500).status_code == 415


def test_uploads_are_rate_limited_per_address(tmp_path: Path, make_app, steady_rate_window: None) -> None:
    app = make_app(tmp_path / "instance", PHOTO_WAIT_SECONDS=120, RATE_LIMITS={"photo": (2, 60)})
    client = app.test_client()
    assert [send(client, not_an_image()).status_code for _ in range(2)] == [415, 415]
    third = send(client, not_an_image())
    assert third.status_code == 429 and third.headers["Retry-After"]
    assert "Too many photos read from your address: at most 2 in a minute." in text_of(third)


def test_a_reading_past_its_time_budget_is_stopped_and_said(tmp_path: Path, make_app) -> None:
    app = make_app(tmp_path / "instance", PHOTO_WAIT_SECONDS=120, PHOTO_SECONDS=0.3)
    response = send(app.test_client(), BOARD_SCREENSHOT.read_bytes(), "board.png")
    assert response.status_code == 422
    assert error_notice(response).startswith("Reading this picture took longer than 0.3 seconds, so it was stopped.")


def test_a_reading_past_its_memory_limit_is_stopped_and_said(tmp_path: Path, make_app) -> None:
    app = make_app(tmp_path / "instance", PHOTO_WAIT_SECONDS=120, PHOTO_MEMORY_MB=256)
    response = send(app.test_client(), BOARD_SCREENSHOT.read_bytes(), "board.png")
    assert response.status_code == 422
    assert error_notice(response).startswith("Reading this picture needed more memory than the 256 MB the site "
                                             "gives it, so it was stopped.")


def test_an_expired_reading_is_a_404_and_its_editor_still_answers(client: FlaskClient) -> None:
    gone = client.get("/photo/" + "a" * 32)
    assert gone.status_code == 404 and "has expired" in text_of(gone)
    assert client.get("/photo/" + "a" * 32 + ".jpg").status_code == 404
    assert client.get("/photo/not-a-ticket").status_code == 404
    answer = client.post("/photo/" + "a" * 32, data={"puzzle": "1 . 3\n", "action": "solve"})
    assert answer.status_code == 200
    page = text_of(answer)
    assert "Solved in" in page and "Your photo is no longer kept" in page
    assert 'action="/solve"' in page  # on from here as the solver page

