"""A puzzle's rating in words, the same on the command line, the solver page and paper.

The rating (``engine.Rating``) is the longest chain of reasoning a puzzle needs, on
Berthier's whip scale: W0 is singles only, W4 a chain of four steps.  The levels are
ranges of it (``engine.LEVELS``); a puzzle that chains of up to ``engine.MAX_CHAIN``
steps cannot finish needs guessing, which is harder than expert.

Each function takes ``words``, a catalogue (``core.messages``; English when not given):
the site passes the reader's, with its locale ("4,2" in Spanish), and the command line
stays English.
"""

from __future__ import annotations

from engine import LEVELS, MAX_CHAIN, Rating, range_text

from .messages import ENGLISH, Words, decimal


def needs_guessing(words: Words = ENGLISH) -> str:
    """"chains of up to 12 steps cannot finish it, so it needs guessing"."""
    return words.gettext("chains of up to %(cap)s steps cannot finish it, so it needs guessing") % {"cap": MAX_CHAIN}


def rating_number(rating: Rating, words: Words = ENGLISH) -> str:
    """The rating as shown: "4.2" ("4,2"), or "over 12" for a puzzle that needs a guess."""
    if rating.solved:
        return decimal(rating.score, words, "0.0")
    return words.gettext("over %(cap)s") % {"cap": MAX_CHAIN}


def chain_words(rating: Rating, words: Words = ENGLISH) -> str:
    """What the rating's whole part means: "longest chain: 4 steps, W4 on Berthier's scale"."""
    if not rating.solved:
        return words.gettext("%(needs_guessing)s: harder than expert") % {"needs_guessing": needs_guessing(words)}
    if rating.length == 0:
        return words.gettext("singles only, W0 on Berthier's scale")
    return _filled(words.ngettext("longest chain: %(num)d step, W%(num)d on Berthier's scale",
                                  "longest chain: %(num)d steps, W%(num)d on Berthier's scale", rating.length),
                   rating.length)


def technique_name(length: int, words: Words = ENGLISH) -> str:
    """The reasoning of a chain length in words: "singles", "chains of length 3"."""
    if length == 0:
        return words.gettext("singles")
    if length == 1:
        return words.gettext("one-step eliminations (length 1)")
    return words.gettext("chains of length %(length)s") % {"length": length}


def technique_lines(rating: Rating, words: Words = ENGLISH) -> list[str]:
    """One line per kind of reasoning used, shortest first, with how much it did:
    "singles: 64 numbers placed", "chains of length 3: 12 candidates ruled out".

    A puzzle that needs guessing has no singles line: its count would be every empty cell,
    and the reasoning did not place them all."""
    lines = []
    for length, count in rating.techniques():
        if length == 0:
            if rating.solved:
                done = _filled(words.ngettext("%(num)d number placed", "%(num)d numbers placed", count), count)
                lines.append(f"{technique_name(0, words)}: {done}")
        else:
            done = _filled(words.ngettext("%(num)d candidate ruled out", "%(num)d candidates ruled out", count),
                           count)
            lines.append(f"{technique_name(length, words)}: {done}")
    return lines


def levels_text() -> str:
    """The levels as ranges of the rating: "easy W0–W1, medium W2, hard W3–W4, expert W5 or more"
    (English: the command line's help)."""
    return ", ".join(f"{name} {range_text(level)}" for name, level in LEVELS.items())


def _filled(message: str, count: int) -> str:
    # A catalogue's ngettext returns the message unfilled.  (ngettext is called where the
    # messages are written, so that pybabel extracts them.)
    return message % {"num": count}
