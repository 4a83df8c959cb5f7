"""The New puzzle form offers only what the server makes: the shapes a variant takes, the
levels a shape and size can reach; it says why not the others, and the server refuses them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect
from test_form_combinations import enabled_levels

from engine import SHAPES
from engine.levels import SMALLEST
from webapp.core.options import VARIANTS, variants_taking


def test_levels_a_board_cannot_reach_are_disabled_and_explained(page: Page) -> None:
    ring = SMALLEST["king"]["ring"]
    page.goto("/")
    page.get_by_label("Shape").select_option("ring")
    page.get_by_label("Size").fill(str(ring["hard"] - 1))
    page.get_by_label("Size").dispatch_event("input")
    difficulty = page.get_by_label("Difficulty")
    expect(difficulty.locator("option[value=hard]")).to_be_disabled()
    expect(difficulty.locator("option[value=expert]")).to_be_disabled()
    expect(difficulty.locator("option[value=medium]")).to_be_enabled()
    expect(page.locator("#difficulty-note")).to_contain_text(f"Hard: size {ring['hard']} or more")
    page.get_by_label("Size").fill(str(ring["hard"]))
    page.get_by_label("Size").dispatch_event("input")
    expect(difficulty.locator("option[value=hard]")).to_be_enabled()
    expected = "" if ring["expert"] <= ring["hard"] else f"Needs a bigger board: Expert: size {ring['expert']} or more."
    expect(page.locator("#difficulty-note")).to_have_text(expected)


def test_the_server_refuses_an_unreachable_level_with_the_reason(page: Page) -> None:
    """Without the script (or with a hand-made request), the server says the same."""
    ring = SMALLEST["king"]["ring"]
    page.goto("/")
    page.get_by_label("Shape").select_option("ring")
    page.get_by_label("Size").fill(str(ring["hard"] - 1))
    # As a browser without the script would: the options all open, nothing re-checks them.
    page.evaluate("var s = document.getElementById('difficulty'); s.removeAttribute('data-level-sizes');"
                  "s.querySelectorAll('option').forEach(function (o) { o.disabled = false; })")
    page.get_by_label("Difficulty").select_option("hard")
    page.get_by_role("button", name="New puzzle").click()
    expect(page.locator("main")).to_contain_text(f"need the ring shape at size {ring['hard']} or more")


SHAPE_VARIANTS = {name: {v.key for v in variants_taking(spec)} for name, spec in SHAPES.items()}


def _enabled(select: Locator) -> list[str]:
    return select.evaluate("s => [...s.options].filter(o => !o.disabled).map(o => o.value)")


def test_the_form_enables_exactly_what_the_server_makes(page: Page, artifacts_dir: Path) -> None:
    """For each variant, the shapes it takes (the others disabled, saying why), and for each
    shape at its usual size, the levels the server accepts (tests/test_form_combinations.py
    makes a puzzle of each)."""
    page.goto("/")
    variant, shape, size = page.get_by_label("Variant"), page.get_by_label("Shape"), page.get_by_label("Size")
    difficulty = page.get_by_label("Difficulty")
    for key in VARIANTS:
        variant.select_option(key)
        takes = [name for name in SHAPES if key in SHAPE_VARIANTS[name]]
        assert _enabled(shape) == takes
        for name in SHAPES:
            option = shape.locator(f"option[value={name}]")
            if name in takes:
                expect(option).to_be_enabled()
            else:
                expect(option).to_be_disabled()
                label = " and ".join(VARIANTS[v].label for v in VARIANTS if v in SHAPE_VARIANTS[name])
                expect(option).to_have_text(f"{name.capitalize()}: {label} only")
        for name in takes:
            shape.select_option(name)
            size.fill(str(SHAPES[name].default_size))
            size.dispatch_event("input")
            expected = enabled_levels(name, SHAPES[name].default_size, key)
            assert _enabled(difficulty) == expected, f"{key} {name}"
    # Heart chosen, then Numbrix: the shape moves to one Numbrix takes, and says why.
    variant.select_option("hidato")
    shape.select_option("heart")
    variant.select_option("numbrix")
    expect(shape).to_have_value("rectangle")
    expect(page.locator("#shape-note")).to_have_text("Heart: Hidato and Hex only.")
    shape.select_option("hexagon")
    expect(page.locator("#shape-note")).to_have_text("Hexagon with Numbrix: sizes 5, 6, 9 and 10 only.")
    page.screenshot(path=artifacts_dir / "new-puzzle-numbrix.png", full_page=True)


@pytest.mark.parametrize(("variant", "shape", "size"), [("numbrix", "hexagon", "6"), ("hex", "heart", "7"),
                                                         ("hidato", "arrow", "8")])
def test_enabled_choices_post_and_make_a_puzzle(page: Page, variant: str, shape: str, size: str) -> None:
    page.goto("/")
    page.get_by_label("Variant").select_option(variant)
    page.get_by_label("Shape").select_option(shape)
    page.get_by_label("Size").fill(size)
    page.get_by_label("Size").dispatch_event("input")
    page.get_by_label("Difficulty").select_option("easy")
    page.get_by_role("button", name="New puzzle").click()
    expect(page).to_have_url(re.compile(r"/p/"))
    expect(page.locator("h1")).to_contain_text(VARIANTS[variant].label)


def test_a_forged_shape_is_refused_in_words_in_spanish(page: Page) -> None:
    """Without the script (or forged), the server refuses in the page's language; here the
    Spanish page names the variants and the shape as the reader does."""
    page.goto("/?lang=es")
    page.get_by_label("Variante").select_option("numbrix")
    expect(page.locator("#shape option[value=heart]")).to_be_disabled()
    page.evaluate("var s = document.getElementById('shape');"
                  "s.querySelectorAll('option').forEach(function (o) { o.disabled = false; }); s.value = 'heart'")
    page.get_by_role("button", name="Nuevo puzle").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("corazón")
    expect(alert).to_contain_text("Numbrix")
    expect(alert).not_to_contain_text("rook")
    expect(page.locator("html")).to_have_attribute("lang", "es")


def test_the_booklet_form_offers_the_same(page: Page) -> None:
    page.goto("/booklet")
    page.get_by_label("Variant").select_option("numbrix")
    shape = page.get_by_label("Shape")
    assert _enabled(shape) == ["mixed", *(name for name in SHAPES if "numbrix" in SHAPE_VARIANTS[name])]
    expect(shape.locator("option[value=arrow]")).to_have_text("Arrow: Hidato only")
    page.get_by_label("Variant").select_option("hex")
    assert _enabled(shape) == ["mixed", *(name for name in SHAPES if name != "arrow")]
