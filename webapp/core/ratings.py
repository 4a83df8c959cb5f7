"""A puzzle's rating in words, the same on the command line, the solver page and paper.

The rating (``engine.Rating``) is the longest chain of reasoning a puzzle needs, on
Berthier's whip scale: W0 is singles only, W4 a chain of four steps.  The levels are
ranges of it (``engine.LEVELS``); a puzzle that chains of up to ``engine.MAX_CHAIN``
steps cannot finish needs guessing, which is harder than expert.
"""

from __future__ import annotations

from engine import LEVELS, MAX_CHAIN, Rating, plural
from engine.levels import range_text
from engine.words import technique_name

NEEDS_GUESSING = f"chains of up to {MAX_CHAIN} steps cannot finish it, so it needs guessing"


def chain_words(rating: Rating) -> str:
    """What the rating's whole part means: "longest chain: 4 steps, W4 on Berthier's scale"."""
    if not rating.solved:
        return f"{NEEDS_GUESSING}: harder than expert"
    if rating.length == 0:
        return "singles only, W0 on Berthier's scale"
    return f"longest chain: {plural(rating.length, 'step')}, W{rating.length} on Berthier's scale"


def technique_lines(rating: Rating) -> list[str]:
    """One line per kind of reasoning used, shortest first, with how much it did:
    "singles: 64 numbers placed", "chains of length 3: 12 candidates ruled out".

    A puzzle that needs guessing has no singles line: its count would be every empty cell,
    and the reasoning did not place them all."""
    lines = []
    for length, count in rating.techniques():
        if length == 0:
            if rating.solved:
                lines.append(f"{technique_name(0)}: {plural(count, 'number')} placed")
        else:
            lines.append(f"{technique_name(length)}: {plural(count, 'candidate')} ruled out")
    return lines


def levels_text() -> str:
    """The levels as ranges of the rating: "easy W0–W1, medium W2, hard W3–W4, expert W5 or more"."""
    return ", ".join(f"{name} {range_text(level)}" for name, level in LEVELS.items())
