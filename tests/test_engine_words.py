"""The engine's reasons, refusals and give-ups reach the reader in their language (issue 25,
item 14): said from their facts (``webapp/core/engine_words.py``), numbers in the locale,
kept as facts when remembered, and no English engine sentence on a Spanish page.

The pages are read with a marking catalogue: every msgid the code and templates use is
"translated" as itself between ⟦ and ⟧, so whatever a page shows outside the marks was
never looked up in a catalogue.  With the real Spanish catalogue the same pages are
Spanish once the new messages are translated (``test_translations.py`` checks that).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.support import Translations
from flask import Flask

from engine import (
    GenerationError,
    PuzzleFormatError,
    ShapeError,
    generate,
    generate_shape,
    puzzle_from_id,
    shape_board,
    solve,
)
from engine import parse_puzzle as parse
from engine.words import Phrase, Seconds
from webapp.core.engine_words import SAID, phrase_text
from webapp.core.messages import Language, Refusal, from_kept, kept, said
from webapp.store.catalog import unplayable_reason

ROOT = Path(__file__).resolve().parent.parent
GAP = "1 . . 2"  # 1 and 2 must touch, but they are 3 steps apart
GAP_ID = "1x4:1b2"


def _marked_catalogue(folder: Path) -> Path:
    """A Spanish catalogue that says every message as ⟦itself⟧ (compiled, in ``folder``)."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    keywords = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None,
                "lazy_ngettext": (1, 2)}
    catalogue = Catalog(locale="es")
    for _file, _line, message, _comments, _context in extract_from_dir(str(ROOT), method_map, options_map,
                                                                       keywords=keywords):
        if isinstance(message, tuple) and len(message) == 2 and message[1]:
            catalogue.add(message, (f"⟦{message[0]}⟧", f"⟦{message[1]}⟧"))
        else:
            text = message[0] if isinstance(message, tuple) else message
            catalogue.add(text, f"⟦{text}⟧")
    target = folder / "es" / "LC_MESSAGES"
    target.mkdir(parents=True)
    with open(target / "messages.mo", "wb") as handle:
        write_mo(handle, catalogue)
    return folder


@pytest.fixture(scope="module")
def marked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _marked_catalogue(tmp_path_factory.mktemp("marked"))


def _marking(app: Flask, folder: Path) -> Flask:
    app.extensions["babel"].translation_directories = [str(folder)]
    return app


def _unmarked(text: str) -> str:
    """What a text says outside the marks (marks nest: a message's fields are messages too)."""
    while True:
        shorter = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
        if shorter == text:
            return text
        text = shorter


def _visible_main(html: str) -> str:
    from test_translations import _visible

    main = re.search(r"<main\b.*?</main>", html, re.S)
    return _visible(main.group(0) if main else html)


# Words a page may show that no catalogue holds: names, and what the reader typed.
NAMES = {"Hidato", "Numbrix", "Hex", "nonsense", "Error", "OK"}


def _english_left(html: str) -> list[str]:
    left = _unmarked(_visible_main(html))
    return [word for word in re.findall(r"[A-Za-z]{3,}", left) if word not in NAMES]


# --- said from their facts --------------------------------------------------------------


class Shouting:
    """A catalogue that says every message in capitals (its fields kept), to see what went
    through it, and writes numbers as Spanish does."""

    locale = "es"

    def gettext(self, message: str) -> str:
        return re.sub(r"%\((\w+)\)([SD])", lambda m: f"%({m.group(1).lower()}){m.group(2).lower()}",
                      message.upper())

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.gettext(singular if n == 1 else plural)


SHOUT = Language(Shouting(), "es")


def _raised(make: Any) -> ValueError:
    with pytest.raises(ValueError) as info:
        make()
    return info.value


def test_a_shape_refusal_is_said_from_its_facts() -> None:
    err = _raised(lambda: shape_board("heart", 7, "rook"))
    assert isinstance(err, ShapeError)
    assert str(err) == "the heart shape is for king and hex boards only, not rook"  # the command line's
    assert said(err) == "The heart shape can't be played as Numbrix"  # the site's, a variant by its name
    assert said(err, SHOUT) == "THE HEART SHAPE CAN'T BE PLAYED AS NUMBRIX"


def test_a_nested_shape_refusal_says_its_cells() -> None:
    err = _raised(lambda: shape_board("hexagon", 7, "rook"))
    assert said(err).startswith("The hexagon shape of size 7 can't be played as Numbrix: the dead end at row ")
    assert "FILA" not in said(err, SHOUT) and "ROW " in said(err, SHOUT)  # the cell through the catalogue too


def test_the_generator_giving_up_is_said_without_seed_or_time_limit() -> None:
    err = _raised(lambda: generate_shape("rectangle", 20, "expert", max_seconds=0.2))
    assert isinstance(err, GenerationError)
    assert "seed" in str(err) and "time limit" in str(err)  # the command line offers both
    text = said(err)
    assert text.startswith("No puzzle at the expert level could be made on this board of 400 cells in 0.2 seconds")
    assert "seed" not in text and "time limit" not in text
    assert "0,2 SECONDS" in said(err, SHOUT)  # the number in the reader's locale


def test_a_drawn_shape_that_gives_no_puzzle_asks_for_another_drawing() -> None:
    board = parse("1 . . .\n. x x .\n. . . .", adjacency="rook").board  # a thin ring of 10 cells
    err = _raised(lambda: generate(board, "medium", seed=1))
    assert isinstance(err, GenerationError) and "larger size" not in said(err)
    assert said(err) == ("None of the 30 solution paths tried through its 10 cells gave a puzzle at the medium "
                         "level: please try again, or draw a larger shape or choose an easier level")


def test_a_level_a_board_cannot_reach_is_said_by_name() -> None:
    err = _raised(lambda: generate_shape("ring", 5, "hard"))
    assert said(err).startswith("Puzzles at the hard level (W3–W4) need the ring shape at size 13 or more in "
                                "Hidato")


def test_the_solvers_reason_is_said_from_its_facts() -> None:
    result = solve(parse(GAP))
    assert isinstance(result.reason, Phrase)
    assert result.reason == ("1 at row 1, column 1 and 2 at row 1, column 4 must touch, but they are 3 steps "
                             "apart")
    assert phrase_text(result.reason, SHOUT) == ("1 AT ROW 1, COLUMN 1 AND 2 AT ROW 1, COLUMN 4 MUST TOUCH, BUT "
                                                 "THEY ARE 3 STEPS APART")


def test_a_gap_of_one_step_and_of_several_read_right() -> None:
    two = solve(parse("1 . . 3 .")).reason
    assert two == ("1 at row 1, column 1 and 3 at row 1, column 4 are 3 steps apart, but the path between them "
                   "has only 2 steps")
    apart = solve(parse("1 x 2")).reason
    assert apart is not None and "are not connected" in apart and "steps lie" not in apart


def test_a_bad_id_is_said_in_plain_words() -> None:
    err = _raised(lambda: puzzle_from_id("5x5:a?"))
    assert isinstance(err, PuzzleFormatError)
    assert said(err) == "The character '?' at position 6 does not belong in an id"
    assert said(_raised(lambda: puzzle_from_id("nonsense"))).startswith("The start is not a board's size")


def test_an_unplayable_reason_is_kept_as_facts_and_said_later_in_any_language() -> None:
    reason = unplayable_reason(solve(parse(GAP)))
    assert isinstance(reason, Refusal)
    back = from_kept(kept(reason))
    assert back.say() == reason.say() == ("This puzzle has no solution: 1 at row 1, column 1 and 2 at row 1, "
                                          "column 4 must touch, but they are 3 steps apart.")
    assert back.say(SHOUT) == ("THIS PUZZLE HAS NO SOLUTION: 1 AT ROW 1, COLUMN 1 AND 2 AT ROW 1, COLUMN 4 MUST "
                               "TOUCH, BUT THEY ARE 3 STEPS APART.")
    slow = from_kept(kept(Refusal("This puzzle is too hard to finish in %(time)s.", time=Seconds(2.5))))
    assert slow.say(SHOUT) == "THIS PUZZLE IS TOO HARD TO FINISH IN 2,5 SECONDS."
    assert from_kept("This puzzle has no solution.").say() == "This puzzle has no solution."  # kept before


def test_every_msgid_keeps_its_fields_fillable() -> None:
    """Each msgid takes the fields its template gives (no KeyError when said)."""
    for template, msgid in SAID.items():
        fields = re.findall(r"%\((\w+)\)s", template)
        values = {name: 3 for name in fields}
        assert msgid % values  # raises if the msgid asks for a field the template lacks


def test_the_spanish_catalogue_says_numbers_the_spanish_way() -> None:
    spanish = Translations.load(str(ROOT / "webapp" / "translations"), ["es"])
    from webapp.core.messages import seconds

    assert seconds(0.5, spanish).startswith("0,5 ")
    assert seconds(0.5).startswith("0.5 ")


# --- the pages, in Spanish ---------------------------------------------------------------


def _spanish(app: Flask) -> Any:
    client = app.test_client()
    client.get("/?lang=es")
    return client


def test_error_pages_in_spanish_show_no_english(app: Flask, marked: Path) -> None:
    client = _spanish(_marking(app, marked))
    pages = {
        "404": client.get("/nope"),
        "405": client.get(f"/p/{GAP_ID}/clock"),
        "bad id": client.get("/p/nonsense"),
        "bad id, print": client.get("/p/5x5:a?/print"),
        "no solution": client.get(f"/p/{GAP_ID}"),
    }
    assert pages["404"].status_code == 404 and pages["bad id"].status_code == 404
    assert pages["405"].status_code == 405 and "POST" in pages["405"].headers.get("Allow", "")
    assert pages["no solution"].status_code == 200  # the board, and why it can't be played
    for name, response in pages.items():
        html = response.get_data(as_text=True)
        assert not _english_left(html), f"{name}: {_english_left(html)[:12]}: {_unmarked(_visible_main(html))}"
    assert "⟦This link does not name a puzzle: in “%(id)s”, %(why)s." not in pages["bad id"].get_data(as_text=True)
    assert "nonsense" in pages["bad id"].get_data(as_text=True)
    # The no-solution page says the reason, from its facts, through the catalogue.
    assert "⟦%(low)s at %(low_cell)s" not in pages["no solution"].get_data(as_text=True)
    assert "⟦⟦row %(row)d, column %(col)d⟧" not in pages["no solution"].get_data(as_text=True)
    # A second reader of the remembered id is told the same, in their language.
    again = _spanish(app).get(f"/p/{GAP_ID}").get_data(as_text=True)
    assert not _english_left(again), _english_left(again)


def test_the_solver_page_in_spanish_says_why_there_is_no_solution(app: Flask, marked: Path) -> None:
    client = _spanish(_marking(app, marked))
    html = client.post("/solve", data={"puzzle": GAP, "action": "solve"}).get_data(as_text=True)
    outcome = re.search(r'<p class="notice none error">.*?</p>', html, re.S)
    assert outcome is not None, _visible_main(html)[-400:]
    text = _visible_main(outcome.group(0))
    assert "1" in text and "4" in text  # the cells of the fact
    assert not _english_left(outcome.group(0)), _unmarked(text)


def test_a_shape_refusal_in_spanish_shows_no_english(app: Flask, marked: Path) -> None:
    client = _spanish(_marking(app, marked))
    booklet = {"shape": "heart", "size": "7", "difficulty": "easy", "variant": "numbrix", "count": "1",
               "per_page": "1", "seed": "1"}
    response = client.post("/booklet", data=booklet)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    error = re.search(r'<p class="notice error"[^>]*>.*?</p>', html, re.S)
    assert error is not None
    assert not _english_left(error.group(0)), _unmarked(_visible_main(error.group(0)))
    assert "⟦" in error.group(0)


def test_a_generator_giving_up_in_spanish_shows_no_english(tmp_path: Path, make_app: Any, marked: Path) -> None:
    app = _marking(make_app(tmp_path / "instance", GENERATE_SECONDS=0.001, GENERATE_WAIT_SECONDS=60), marked)
    app.extensions["hidato"].refiller.request = lambda options=None: None
    client = _spanish(app)
    response = client.post("/new", data={"shape": "rectangle", "size": "10", "difficulty": "medium",
                                         "variant": "hidato"})
    assert response.status_code == 303  # to the page for a board not ready yet (pages.not_ready)
    page = client.get(response.headers["Location"])
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "⟦Your puzzle is not ready yet⟧" in html
    assert not _english_left(html), _unmarked(_visible_main(html))
