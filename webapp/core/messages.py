"""What several layers tell a person in the same words: out of time, too hard."""

from __future__ import annotations

from engine import seconds


def too_hard(budget: float) -> str:
    """A solve, check or grade that ran out of its budget."""
    return (f"This puzzle is too hard to finish in {seconds(round(budget, 2))}: the solver stopped before "
            "it could answer. A puzzle with more givens, or a smaller board, is answered quickly.")


def generator_gave_up(budget: float) -> str:
    """A generation that ran out of its budget."""
    return (f"The generator gave up after {seconds(budget)} without a puzzle of this kind. "
            "Try again (another puzzle may come quicker), a smaller size or an easier difficulty.")
