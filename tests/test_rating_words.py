"""Tests for webapp.core.ratings: a rating in English words, through a catalogue's gettext
and ngettext, and with its number in the catalogue's locale."""

from __future__ import annotations

from babel.support import Translations

from engine import MAX_CHAIN, Rating
from webapp.core.messages import Language
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
    class Marked:
        def gettext(self, message: str) -> str:
            return "<" + message + ">"

        def ngettext(self, singular: str, plural: str, num: int) -> str:
            return "<" + (singular if num == 1 else plural) + ">"

    marked = Marked()
    assert rating_number(GUESS, marked) == f"<over {MAX_CHAIN}>"
    assert needs_guessing(marked) == f"<chains of up to {MAX_CHAIN} steps cannot finish it, so it needs guessing>"
    assert chain_words(THREE, marked) == "<longest chain: 3 steps, W3 on Berthier's scale>"
    assert technique_lines(THREE, marked)[-1] == "<chains of length 3>: <2 candidates ruled out>"


def test_the_rating_is_written_in_the_readers_locale() -> None:
    rating = Rating(2, {1: 4, 2: 1}, True, empty=15, size=25)
    english = rating_number(rating)
    assert "." in english and "," not in english
    spanish = Language(Translations(), "es")  # no catalogue needed: the locale writes the number
    assert rating_number(rating, spanish) == english.replace(".", ",")
