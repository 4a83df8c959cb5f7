"""Booklets made on the site (webapp/web/printing.py): a new seed each time, said on the
waiting and ready pages and at the foot of the PDF's solutions, that makes the same
booklet again; and a job whose progress moves through its stages, page by page.

Real PDFs, read back with pdftotext (poppler-utils); real children under the work slots.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from flask import Flask

from pdf_tools import page_count, text

FORM = {"shape": "diamond", "size": "3", "difficulty": "easy", "variant": "hidato", "count": "4",
        "per_page": "2", "paper": "a4", "name_line": "on", "name_line_shown": "1"}
# At the foot of a page the note takes two lines: any space between its words.
SEED_NOTE = re.compile(r"Seed (\d{9}):\s+the\s+same\s+options\s+with\s+this\s+seed\s+make\s+this\s+booklet\s+again\.")


def _pdf(data: bytes, path: Path) -> Path:
    assert data.startswith(b"%PDF-"), data[:200]
    path.write_bytes(data)
    return path


def _puzzle_pages(pdf: Path) -> str:
    """The worksheets' words and numbers (the pages before the answer key: its boards' givens)."""
    pages = [text(pdf, page) for page in range(1, page_count(pdf) + 1)]
    return "\n".join(page for page in pages if "Solution" not in page)


@pytest.mark.slow
def test_booklets_without_a_seed_differ_and_their_printed_seed_makes_them_again(client, tmp_path: Path) -> None:
    first = _pdf(client.post("/booklet", data=FORM).data, tmp_path / "first.pdf")
    second = _pdf(client.post("/booklet", data=FORM).data, tmp_path / "second.pdf")
    # The seed is printed at the foot of the solution pages only (the teacher's, not the pupils').
    words = text(first)
    seeds = SEED_NOTE.findall(words)
    solution_pages = sum("Solution" in text(first, page) for page in range(1, page_count(first) + 1))
    assert solution_pages and len(seeds) == solution_pages, words  # once on every page of solutions
    seed = seeds[0]
    assert not SEED_NOTE.search(_puzzle_pages(first))
    (other_seed,) = set(SEED_NOTE.findall(text(second)))
    assert other_seed != seed
    assert _puzzle_pages(first) != _puzzle_pages(second)  # other puzzles, not only another seed
    # The printed seed, typed into the same form, makes the same booklet: every word and number.
    again = _pdf(client.post("/booklet", data={**FORM, "seed": seed}).data, tmp_path / "again.pdf")
    assert text(again) == words


@pytest.mark.slow
def test_a_booklet_job_says_its_seed_and_its_progress_moves_through_the_stages(tmp_path: Path, make_app) -> None:
    app: Flask = make_app(tmp_path / "instance", BOOKLET_WAIT_SECONDS=0)
    client = app.test_client()
    jobs = app.extensions["hidato"].jobs
    # Six boards one to a page, and their solutions on one page: seven pages to lay out and to write.
    response = client.post("/booklet", data={**FORM, "size": "4", "count": "6", "per_page": "1"})
    assert response.status_code == 303
    waiting = response.headers["Location"]
    ticket = waiting.rsplit("/", 1)[1]
    seen: list[str] = []
    pages: list[str] = []
    deadline = time.monotonic() + 180
    while (job := jobs.status(ticket, "booklet")) is not None and not job.finished:
        if job.status == "running" and job.result and (not seen or seen[-1] != job.result):
            seen.append(job.result)
            if len(pages) < 3:  # what a person sees meanwhile, a few times
                pages.append(client.get(waiting).get_data(as_text=True))
        assert time.monotonic() < deadline, seen
        time.sleep(0.005)
    # Each stage was seen, in order, and within a stage the count went up.
    kinds = [next((kind for kind, pattern in STAGES if re.fullmatch(pattern, said)), said) for said in seen]
    # Pages are laid out and written quickly: on a loaded machine one of those two stages may
    # pass between two looks, never both.
    assert "made" in kinds and {"layout", "write"} & set(kinds), seen
    order = [kind for kind, _ in STAGES]
    assert [order.index(kind) for kind in kinds] == sorted(order.index(kind) for kind in kinds), seen
    assert len(set(seen)) >= 8, seen
    for kind in ("made", "layout", "write"):
        numbers = [int(re.findall(r"\d+", said)[0]) for said, k in zip(seen, kinds, strict=True) if k == kind]
        assert numbers == sorted(numbers), seen
    # The puzzles' count is said, out of 6, and only goes up (above); how many of its values
    # a look catches depends on the machine: six 4x4 boards are made in a few milliseconds.
    made = [said for said, kind in zip(seen, kinds, strict=True) if kind == "made"]
    assert made and all(said.endswith(" of 6 puzzles made") for said in made), seen
    assert any(re.fullmatch(r"(laying out|writing) page \d+ of 7( into the PDF)?", said) for said in seen), seen
    # The waiting page says the progress and the seed; the ready page the seed, which the PDF prints.
    assert any("Your booklet is being made: " in page and " s so far." in page for page in pages)
    seed = SEED_NOTE.search(pages[0])
    assert seed is not None, pages[0]
    ready = client.get(waiting).get_data(as_text=True)
    assert "Download the PDF" in ready and seed.group(0) in ready
    # "Make another booklet": the same options, no seed (new puzzles).
    again = re.search(r'<a href="(/booklet\?[^"]+)">Make another booklet</a>', ready)
    assert again is not None and "seed" not in again.group(1)
    form = client.get(again.group(1).replace("&amp;", "&")).get_data(as_text=True)
    assert re.search(r'<option value="diamond"[^>]* selected>', form)
    assert re.search(r'name="count"[^>]* value="6"', form)
    assert re.search(r'name="seed"[^>]* value=""', form)
    pdf = _pdf(client.get(waiting + ".pdf").data, tmp_path / "job.pdf")
    assert page_count(pdf) == 7 and SEED_NOTE.findall(text(pdf, 7)) == [seed.group(1)]


STAGES = [  # the progress of a booklet job, in the order it goes through them
    ("waiting", r"waiting for its turn"),
    ("made", r"\d+ of 6 puzzles made"),
    ("start", r"laying out the pages"),
    ("prepare", r"preparing the pages, step \d of 3"),
    ("layout", r"laying out page \d+ of 7"),
    ("write", r"writing page \d+ of 7 into the PDF"),
]


@pytest.mark.slow
def test_a_booklet_never_takes_from_the_pool(app: Flask, client, tmp_path: Path) -> None:
    """A pooled puzzle was made from a seed of its own: the booklet's seed would not make it again."""
    from webapp.core.options import Options
    from webapp.core.stored import generate

    found = app.extensions["hidato"]
    pooled = generate(Options("diamond", 3, "hard", "hidato"), seed=7)
    found.store.save_puzzle(pooled, pooled=True)
    response = client.post("/booklet", data={**FORM, "difficulty": "hard", "count": "2"})
    assert response.mimetype == "application/pdf"
    assert found.store.pool_counts() == {("diamond", 3, "hard", "king"): 1}  # still there


@pytest.mark.slow
def test_a_seed_makes_the_same_booklet_in_one_child_or_in_two(tmp_path: Path, make_app) -> None:
    """With two work slots the puzzles are made two at a time (Runner.run_split), each from
    the booklet's seed and its place alone: the same booklet as one child makes."""
    form = {**FORM, "shape": "mixed", "count": "5", "seed": "7"}
    one = make_app(tmp_path / "one", WORK_SLOTS=1).test_client().post("/booklet", data=form).data
    two = make_app(tmp_path / "two", WORK_SLOTS=2).test_client().post("/booklet", data=form).data
    assert text(_pdf(one, tmp_path / "one.pdf")) == text(_pdf(two, tmp_path / "two.pdf"))
