"""A Spanish booklet keeps its language: its QR codes (read by zxing-cpp from poppler's
render of the PDF) open the puzzles' pages in Spanish, even in a browser that asks for
English, and its file name keeps its accents (``filename*``, RFC 6266)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest
import zxingcpp
from PIL import Image

from pdf_tools import render_png, text

SITE = "https://hidato.example.org"
FORM = {"shape": "triangle", "size": "4", "difficulty": "easy", "variant": "hidato", "count": "2",
        "per_page": "2", "seed": "3", "paper": "a4"}


@pytest.mark.slow
def test_a_spanish_booklet_keeps_its_language_through_the_short_link_and_the_file_name(
        tmp_path: Path, make_app) -> None:
    app = make_app(tmp_path / "instance", PUBLIC_URL=SITE)
    teacher = app.test_client()
    response = teacher.post("/booklet?lang=es", data=FORM)
    assert response.mimetype == "application/pdf"

    disposition = response.headers["Content-Disposition"]
    utf8 = re.search(r"filename\*=UTF-8''(\S+)", disposition)
    assert utf8 is not None, disposition
    assert unquote(utf8.group(1)) == "hidato-2-puzles-hidato-de-nivel-fácil-forma-de-triángulo.pdf"
    plain = re.search(r'filename="([^"]+)"', disposition)  # for clients without filename*
    assert plain is not None and plain.group(1) == "hidato-2-puzles-hidato-de-nivel-facil-forma-de-triangulo.pdf"
    assert "tri-ngulo" not in disposition and "f-cil" not in disposition

    pdf = tmp_path / "es.pdf"
    pdf.write_bytes(response.data)
    assert "Escanéalo para jugarlo en línea" in text(pdf, 1)
    png = render_png(pdf, 1, tmp_path / "es-page", dpi=150)
    links = sorted(found.text for found in zxingcpp.read_barcodes(Image.open(png)))
    assert len(links) == 2
    for link in links:
        found = re.fullmatch(re.escape(SITE) + r"(/s/[0-9a-z]+\?lang=es)", link)
        assert found is not None, link
        assert found.group(1).split("://")[-1] in text(pdf, 1).replace("\n", " ")  # printed beside it
        # A pupil's browser that asks for English, never on the site before.
        pupil = app.test_client()
        answer = pupil.get(found.group(1), headers={"Accept-Language": "en-GB,en;q=0.9"})
        assert answer.status_code == 301
        page = pupil.get(answer.headers["Location"], headers={"Accept-Language": "en-GB,en;q=0.9"})
        html = page.get_data(as_text=True)
        assert page.status_code == 200 and '<html lang="es"' in html, answer.headers["Location"]
        assert "Comprobar" in html and ">Check<" not in html


def test_an_english_sheet_keeps_the_shortest_link(tmp_path: Path, make_app) -> None:
    from engine import puzzle_to_id

    from puzzle_files import DATA, load

    app = make_app(tmp_path / "instance", PUBLIC_URL=SITE)
    client = app.test_client()
    puzzle, _solution = load(DATA / "seed000-5x5.txt")
    code = puzzle_to_id(puzzle)
    client.get(f"/p/{code}")  # stored on first sight
    english = client.get(f"/p/{code}/print").get_data(as_text=True)
    assert re.search(r"hidato\.example\.org/s/[0-9a-z]+<", english)
    spanish = client.get(f"/p/{code}/print?lang=es").get_data(as_text=True)
    assert re.search(r"hidato\.example\.org/s/[0-9a-z]+\?lang=es<", spanish)
