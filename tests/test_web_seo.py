"""What search engines and shared links see: each page's meta description, robots.txt,
Open Graph tags, and the PNG preview of a puzzle's board (webapp/paper/preview.py)."""

from __future__ import annotations

import io
import re
import urllib.robotparser
from datetime import date
from html import unescape
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from engine import Puzzle, puzzle_to_id, shape_board
from webapp.core.stored import StoredPuzzle
from webapp.paper.drawing import draw_board
from webapp.paper.preview import HEIGHT, WIDTH, board_box, preview_png

from puzzle_files import DATA, load

PUZZLE, SOLUTION = load(DATA / "seed000-5x5.txt")
CODE = puzzle_to_id(PUZZLE)
SITE = "https://hidato.example.org"


def meta(html: str) -> dict[str, str]:
    """The page's <meta name=... / property=...> and <link rel=canonical>, by name."""
    found = {unescape(m.group(1)): unescape(m.group(2))
             for m in re.finditer(r'<meta (?:name|property)="([^"]+)" content="([^"]*)"', html)}
    canonical = re.search(r'<link rel="canonical" href="([^"]+)"', html)
    if canonical:
        found["canonical"] = canonical.group(1)
    return found


def _get(client: FlaskClient, path: str, status: int = 200) -> str:
    response = client.get(path)
    assert response.status_code == status, (path, response.status_code)
    return response.get_data(as_text=True)


# --- descriptions -----------------------------------------------------------------------


def test_every_page_has_a_description_of_its_own(client: FlaskClient) -> None:
    made = client.post("/new", data={"shape": "diamond", "size": "3", "difficulty": "easy", "variant": "hidato"})
    generated = made.headers["Location"]
    pages = {
        "home": _get(client, "/"),
        "puzzle": _get(client, f"/p/{CODE}"),
        "generated": _get(client, generated),
        "solver": _get(client, "/solve"),
        "booklet form": _get(client, "/booklet"),
        "my puzzles": _get(client, "/mine"),
        "print": _get(client, f"/p/{CODE}/print"),
        "print solution": _get(client, f"/p/{CODE}/print?solution=1"),
        "not found": _get(client, "/no/such/page", 404),
        "no such puzzle": _get(client, "/p/not-a-puzzle", 404),
        "wrong method": _get(client, "/p/" + CODE + "/cell/0/0", 405),
    }
    descriptions = {name: meta(html).get("description", "") for name, html in pages.items()}
    for name, text in descriptions.items():
        assert 40 <= len(text) <= 200, (name, text)  # what search results show: a sentence or two
    assert len(set(descriptions.values())) == len(descriptions), descriptions
    assert descriptions["puzzle"] == (f"A Hidato puzzle on a board of {PUZZLE.size} cells: fill 1 to "
                                      f"{PUZZLE.size} so each number touches the next across a side or a corner.")
    assert descriptions["generated"].startswith("An easy Hidato puzzle on a diamond-shaped board of ")
    assert "not-a-puzzle" in descriptions["no such puzzle"] and "404" in descriptions["no such puzzle"]


@pytest.mark.parametrize(
    ("shape", "size", "difficulty", "adjacency", "daily", "expected"),
    [
        ("rectangle", 10, "hard", "king", None,
         "A hard Hidato puzzle on a square grid of 10×10 cells: fill 1 to 100 so each number touches the next "
         "across a side or a corner."),
        ("heart", 12, "expert", "hex", None,
         "An expert Hex puzzle on a heart-shaped board of {n} cells: fill 1 to {n} so each number touches the "
         "next across one of the six sides."),
        # The article agrees with the words that follow it ("an arrow", "an expert"), never with a name glued in.
        ("arrow", 10, "easy", "king", None,
         "An easy Hidato puzzle on an arrow-shaped board of {n} cells: fill 1 to {n} so each number touches the "
         "next across a side or a corner."),
        ("rectangle", 8, "expert", "king", None,
         "An expert Hidato puzzle on a square grid of 8×8 cells: fill 1 to 64 so each number touches the next "
         "across a side or a corner."),
        ("diamond", 5, "medium", "rook", date(2025, 5, 4),
         "The puzzle of the day for 4 May 2025: a medium Numbrix puzzle on a diamond-shaped board of {n} cells: "
         "fill 1 to {n} so each number touches the next across a side, not a corner."),
    ],
)
def test_a_puzzle_is_described_by_its_shape_size_and_level(app: Flask, shape: str, size: int, difficulty: str,
                                                           adjacency: str, daily: date | None, expected: str) -> None:
    puzzle = Puzzle(shape_board(shape, size, adjacency))  # type: ignore[arg-type]
    stored = StoredPuzzle(puzzle_to_id(puzzle), puzzle, {}, shape, size, difficulty, daily=daily)
    with app.test_request_context("/"):
        describe = app.jinja_env.globals["puzzle_description"]
        assert describe(stored) == expected.format(n=puzzle.size)  # type: ignore[operator]


# --- robots.txt -------------------------------------------------------------------------


def test_robots_txt_opens_the_public_pages_and_closes_the_per_player_and_costly_ones(client: FlaskClient) -> None:
    response = client.get("/robots.txt")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    body = response.get_data(as_text=True)
    assert body.startswith("User-agent: *\n")
    assert "Disallow: /p/*/print\n" in body and "Disallow: /p/*.txt$\n" in body  # wildcards, as RFC 9309
    robots = urllib.robotparser.RobotFileParser()
    robots.parse(body.splitlines())
    for path in ("/", f"/p/{CODE}", f"/p/{CODE}/preview.png", "/solve", "/booklet", "/s/2f"):
        assert robots.can_fetch("Googlebot", path), path
    for path in ("/mine", "/new", "/new/t0k3n", "/booklet/t0k3n", "/booklet/t0k3n.pdf", "/solve/generate/t0k3n",
                 "/healthz"):
        assert not robots.can_fetch("Googlebot", path), path


# --- Open Graph -------------------------------------------------------------------------


def test_a_shared_puzzle_link_has_open_graph_tags_with_the_public_address(tmp_path: Path, make_app) -> None:
    client = make_app(tmp_path / "instance", PUBLIC_URL=SITE).test_client()
    tags = meta(_get(client, f"/p/{CODE}"))
    assert tags["og:url"] == tags["canonical"] == f"{SITE}/p/{CODE}"
    assert tags["og:image"] == f"{SITE}/p/{CODE}/preview.png"
    assert (tags["og:image:width"], tags["og:image:height"], tags["og:image:type"]) == ("1200", "630", "image/png")
    assert tags["og:title"].startswith(f"Hidato puzzle, {PUZZLE.size} cells") and tags["og:type"] == "website"
    assert tags["og:description"] == tags["description"]
    assert tags["twitter:card"] == "summary_large_image"
    image = client.get(tags["og:image"][len(SITE):])
    assert image.status_code == 200 and image.mimetype == "image/png"
    home = meta(_get(client, "/"))
    assert home["og:url"] == f"{SITE}/" and home["twitter:card"] == "summary" and "og:image" not in home


def test_without_a_public_address_the_links_are_absolute_on_the_request_host(client: FlaskClient) -> None:
    tags = meta(_get(client, f"/p/{CODE}"))
    assert tags["og:url"] == f"http://localhost/p/{CODE}"
    assert tags["og:image"] == f"http://localhost/p/{CODE}/preview.png"


# --- the preview image ------------------------------------------------------------------


def _png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    return image.convert("RGB")


def test_the_preview_is_a_png_cached_for_a_year_and_a_404_for_unknown_puzzles(client: FlaskClient) -> None:
    assert client.get(f"/p/{CODE}/preview.png").status_code == 404  # not seen yet: nothing is solved for it
    client.get(f"/p/{CODE}")  # stored on first sight
    response = client.get(f"/p/{CODE}/preview.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    _png(response.data)
    assert client.get("/p/not-a-puzzle/preview.png").status_code == 404


def _dark(image: Image.Image) -> int:
    return sum(image.convert("L").histogram()[:100])  # pixels darker than 100 of 255


def _spread_givens(board_shape: str, size: int, adjacency: str, every: int) -> Puzzle:
    board = shape_board(board_shape, size, adjacency)  # type: ignore[arg-type]
    return Puzzle(board, {cell: number for number, cell in enumerate(board.cells, start=1) if number % every == 1})


@pytest.mark.parametrize(("shape", "size", "adjacency"),
                         [("rectangle", 21, "king"), ("heart", 12, "king"), ("hexagon", 4, "hex")])
def test_the_preview_draws_the_board_its_givens_and_blank_empty_cells(shape: str, size: int, adjacency: str,
                                                                      artifacts_dir: Path) -> None:
    none, fewer, more = (_spread_givens(shape, size, adjacency, every) for every in (10**6, 9, 3))
    image = _png(preview_png(more, f"{shape} {size}"))
    image.save(artifacts_dir / f"preview-{shape}-{adjacency}.png")
    # The ink grows with the givens: three times as many numbers, over twice the ink of the outline's.
    empty = _dark(_png(preview_png(none, f"{shape} {size}")))
    assert _dark(image) - empty > 2 * (_dark(_png(preview_png(fewer, f"{shape} {size}"))) - empty) > 0
    drawing = draw_board(more)
    left, top, right, bottom = board_box(drawing)
    assert abs(left - (WIDTH - right)) < 1  # centred across
    scale = (right - left) / drawing.width
    for shape_ in drawing.cells:
        xs = [left + x * scale for x, _ in shape_.corners]
        ys = [top + y * scale for _, y in shape_.corners]
        cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
        # Halfway to the first corner (a square's top left, a hexagon's top): inside the cell, off the digits.
        fx, fy = (cx + xs[0]) / 2, (cy + ys[0]) / 2
        fill = image.getpixel((round(fx), round(fy)))
        centre = image.getpixel((round(cx), round(cy)))
        assert isinstance(fill, tuple) and isinstance(centre, tuple)
        if shape_.given:
            assert all(220 <= v <= 240 for v in fill), (shape_.cell, fill)  # the givens' grey
            box = image.crop((round(min(xs)), round(min(ys)), round(max(xs)), round(max(ys))))
            assert _dark(box) > 5, shape_.cell  # a number is drawn in it
        else:
            assert centre == (255, 255, 255) and fill == (255, 255, 255), (shape_.cell, centre, fill)
    # Nothing outside the board but the caption: the corners of the picture are paper.
    for x, y in ((2, 2), (WIDTH - 3, 2), (2, HEIGHT - 3), (WIDTH - 3, HEIGHT - 3), (round(left) - 8, round(top))):
        assert image.getpixel((x, y)) == (255, 255, 255)
    assert image.getpixel((round(left), round(top) - 12)) == (255, 255, 255)
    assert bottom < HEIGHT - 60  # the caption's band is below the board
