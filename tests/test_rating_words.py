"""Tests for webapp.core.ratings: a rating in English words, and through a translation's
gettext and ngettext (the standard library's, or Flask-Babel's that fills %(num)d itself)."""

from __future__ import annotations

from engine import MAX_CHAIN, Rating
from webapp.core.ratings import chain_words, needs_guessing, rating_number, technique_lines

ONE = Rating(1, {1: 1}, True, empty=1, size=9)
THREE = Rating(3, {1: 20, 2: 6, 3: 2}, True, empty=15, size=25)
GUESS = Rating(MAX_CHAIN, {1: 4}, False, empty=15, size=25)


def test_english_words() -> None:
    assert rating_number(THREE) == f"{THREE.score:.1f}" and rating_number(GUESS) == f"over {MAX_CHAIN}"
    assert chain_words(ONE) == "longest chain: 1 step, W1 on Berthier's scale"
    assert chain_words(THREE) == "longest chain: 3 steps, W3 on Berthier's scale"
    assert chain_words(Rating(0, {}, True, 5, 9)) == "singles only, W0 on Berthier's scale"
    assert chain_words(GUESS) == (f"chains of up to {MAX_CHAIN} steps cannot finish it, so it needs guessing: "
                                  "harder than expert")
    assert technique_lines(ONE) == ["singles: 1 number placed",
                                    "one-step eliminations (length 1): 1 candidate ruled out"]
    assert technique_lines(GUESS) == ["one-step eliminations (length 1): 4 candidates ruled out"]


def test_words_go_through_the_translation_functions() -> None:
    def gettext(message: str) -> str:
        return "<" + message + ">"

    def babel_ngettext(singular: str, plural: str, num: int) -> str:  # Flask-Babel's fills %(num)d
        return "<" + (singular if num == 1 else plural) % {"num": num} + ">"

    assert rating_number(GUESS, gettext) == f"<over {MAX_CHAIN}>"
    assert needs_guessing(gettext) == f"<chains of up to {MAX_CHAIN} steps cannot finish it, so it needs guessing>"
    assert chain_words(THREE, gettext, babel_ngettext) == "<longest chain: 3 steps, W3 on Berthier's scale>"
    assert technique_lines(THREE, gettext, babel_ngettext)[-1] == "<chains of length 3>: <2 candidates ruled out>"
