"""Every combination the New puzzle and booklet forms leave enabled is accepted by the
server and makes a puzzle; every other one is refused in a plain sentence, in the
reader's language.

What the forms enable comes from the engine's facts: the variants a shape takes
(``ShapeSpec.takes``, ``sizes``) and the smallest size of each level (``engine.levels``,
the table hidato.js reads); tests/e2e/test_levels_form.py checks that the page enables
exactly these.  Generation runs ``work.tasks.generate``, the call the New puzzle job makes
in its child, with the site's budget.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale, get_translations
from test_translations import _extracted

from engine import DIFFICULTIES, SHAPES, count_solutions
from webapp.core.options import VARIANTS, check_takes, parse_options, unreachable_refusal, variants_taking
from webapp.core.stored import stored_from
from webapp.work import tasks

GENERATE_SECONDS = 60.0  # the site's default budget for one generation (HIDATO_GENERATE_SECONDS)
TAKEN = [(key, name) for key, variant in VARIANTS.items() for name, spec in SHAPES.items()
         if variant in variants_taking(spec)]
NOT_TAKEN = [(key, name) for key, variant in VARIANTS.items() for name, spec in SHAPES.items()
             if variant not in variants_taking(spec)]


def enabled_levels(shape: str, size: int, variant: str) -> list[str]:
    """The levels the forms leave enabled for this shape, size and variant."""
    adjacency = VARIANTS[variant].adjacency
    return [level for level in DIFFICULTIES if unreachable_refusal(shape, size, adjacency, level) is None]


def test_the_engine_decides_which_shapes_each_variant_takes() -> None:
    """No list of our own: heart, star, skull and triangle are Hidato and Hex only, the
    arrow Hidato only, because the engine says so (its shapes' adjacencies)."""
    assert {name for key, name in NOT_TAKEN if key == "numbrix"} == {"heart", "star", "skull", "triangle", "arrow"}
    assert {name for key, name in NOT_TAKEN if key == "hex"} == {"arrow"}
    assert not [name for key, name in NOT_TAKEN if key == "hidato"]


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "shape"), TAKEN)
def test_every_enabled_combination_generates(variant: str, shape: str) -> None:
    size = SHAPES[shape].default_size
    levels = enabled_levels(shape, size, variant)
    assert levels, f"{variant} {shape} at its default size {size} enables no level at all"
    for level in levels:
        options = parse_options({"shape": shape, "size": str(size), "difficulty": level, "variant": variant})
        made = tasks.generate(options.shape, options.size, options.difficulty, options.adjacency, 1,
                              GENERATE_SECONDS)
        stored = stored_from(made)
        assert stored.difficulty == level and stored.shape == shape
        assert stored.puzzle.board.adjacency == VARIANTS[variant].adjacency
        assert count_solutions(stored.puzzle) == 1


def _refusal(html: str) -> str:
    found = re.search(r'class="notice error" role="alert">([^<]*)<', html)
    assert found, "no refusal on the page"
    return found.group(1).replace("&#39;", "'")


def _words(app: Flask, language: str):
    with app.test_request_context(), force_locale(language):
        return get_translations()


@pytest.mark.parametrize(("variant", "shape"), NOT_TAKEN)
@pytest.mark.parametrize("form", ["/new", "/booklet"])
def test_a_shape_the_variant_does_not_take_is_refused_in_words(app: Flask, client: FlaskClient, form: str,
                                                                variant: str, shape: str) -> None:
    """As a forged request, or a browser without the script, would send it."""
    data = {"shape": shape, "size": str(SHAPES[shape].default_size), "difficulty": "easy", "variant": variant,
            "count": "1", "per_page": "1"}
    response = client.post(form, data=data)
    assert response.status_code == 400
    said = _refusal(response.get_data(as_text=True))
    names = " and ".join(VARIANTS[v.key].label for v in variants_taking(SHAPES[shape]))
    assert said == (f"The {shape} shape is for {names} only, not {VARIANTS[variant].label}: "
                    "choose another shape or another variant.")
    assert not re.search(r"\b(king|rook)\b", said)

    spanish = client.post(f"{form}?lang=es", data=data)
    assert spanish.status_code == 400
    html = spanish.get_data(as_text=True)
    assert '<html lang="es"' in html
    with pytest.raises(ValueError) as refused:
        check_takes(SHAPES[shape], SHAPES[shape].default_size, VARIANTS[variant])
    msgid = refused.value.msgid  # type: ignore[attr-defined]
    assert msgid in _extracted()  # make translations picks it up, so the lead can translate it
    spanish_words = _words(client.application, "es")
    assert _refusal(html) == refused.value.say(spanish_words)  # type: ignore[attr-defined]
    name = spanish_words.gettext(shape)
    assert name != shape and name in _refusal(html)  # the shape's name is said in Spanish already


def test_a_size_the_variant_does_not_take_is_refused_in_words(client: FlaskClient) -> None:
    hexagon = SHAPES["hexagon"]
    sizes = hexagon.sizes("rook")
    assert sizes and sizes != hexagon.sizes("king")
    missing = next(size for size in hexagon.sizes("king") if size not in sizes)
    response = client.post("/new", data={"shape": "hexagon", "size": str(missing), "difficulty": "easy",
                                         "variant": "numbrix"})
    assert response.status_code == 400
    listed = ", ".join(map(str, sizes[:-1])) + f" and {sizes[-1]}"
    assert _refusal(response.get_data(as_text=True)) == (
        f"With Numbrix, the hexagon shape comes in sizes {listed} only, not {missing}.")
    parse_options({"shape": "hexagon", "size": str(sizes[0]), "difficulty": "easy", "variant": "numbrix"})


def test_a_level_the_board_cannot_reach_is_refused_naming_the_variant(client: FlaskClient) -> None:
    response = client.post("/new", data={"shape": "ring", "size": "8", "difficulty": "hard", "variant": "hidato"})
    assert response.status_code == 400
    said = _refusal(response.get_data(as_text=True))
    assert said.startswith("Puzzles at the hard level (W3–W4) need the ring shape at size ")
    assert "in Hidato" in said
    assert not re.search(r"\b(king|rook|adjacency)\b", said)
