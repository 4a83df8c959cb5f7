"""What several layers tell a person in the same words: out of time, too hard, busy; and
refusals that are translated where they are shown.

Pure Python, no Flask: a message is written in English with ``%(name)s`` parameters and
marked with ``N_`` (one of pybabel's default keywords, so ``make translations`` extracts
it).  Functions take ``words``, any gettext translations object (``gettext``/``ngettext``:
the standard library's ``NullTranslations`` is English, the web layer passes Flask-Babel's
``get_translations()`` for the request's language).  A check that refuses raises
``Refusal``, whose ``str()`` is English (logs, the CLI) and ``said(err, words)`` any language.
"""

from __future__ import annotations

from gettext import NullTranslations
from typing import Any, Protocol

ENGLISH = NullTranslations()


class Words(Protocol):
    """What a message needs of a catalogue: gettext's two methods."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


def N_(text: str) -> str:  # noqa: N802 (gettext's name for "extract now, translate where shown")
    """Marks a msgid for pybabel; returns it as it is."""
    return text


class Refusal(ValueError):
    """A ValueError for a person: a msgid and its parameters, English when printed."""

    def __init__(self, msgid: str, **params: Any):
        self.msgid = msgid
        self.params = params
        super().__init__(self.say())

    def say(self, words: Words = ENGLISH) -> str:
        """The message in the language of ``words`` (``Name`` parameters translated too)."""
        text = words.gettext(self.msgid)
        if not self.params:
            return text
        return text % {key: words.gettext(value) if isinstance(value, Name) else value
                       for key, value in self.params.items()}


class Sentence(Refusal):
    """A refusal that may begin with a parameter ("hard puzzles need…"): a capital first."""

    def say(self, words: Words = ENGLISH) -> str:
        text = super().say(words)
        return text[:1].upper() + text[1:]


class Name(str):
    """A parameter of a refusal that is itself a msgid (a shape's or a level's name): it is
    said in the reader's language too."""


def said(err: BaseException, words: Words = ENGLISH) -> str:
    """An error's message in the language of ``words`` (an engine error's stays English)."""
    # A plain message that is a msgid itself (e.g. one stored in the database in English)
    # is translated whole; any other (an engine error's) stays as it is.
    return err.say(words) if isinstance(err, Refusal) else words.gettext(str(err))


def seconds(value: float, words: Words = ENGLISH, digits: int = 6) -> str:
    """A duration in words, as ``engine.seconds``: "1 second", "0.5 seconds"."""
    shown = f"{value:.{digits}g}"
    return words.ngettext("%(n)s second", "%(n)s seconds", 1 if shown == "1" else 2) % {"n": shown}


def too_hard(budget: float, words: Words = ENGLISH) -> str:
    """A solve, check or grade that ran out of its budget."""
    return words.gettext("This puzzle is too hard to finish in %(time)s: the solver stopped before it could "
                         "answer. A puzzle with more givens, or a smaller board, is answered quickly.") % {
        "time": seconds(round(budget, 2), words)}


def generator_gave_up(budget: float, words: Words = ENGLISH) -> str:
    """A generation that ran out of its budget."""
    return words.gettext("The generator gave up after %(time)s without a puzzle of this kind. Try again "
                         "(another puzzle may come quicker), a smaller size or an easier difficulty.") % {
        "time": seconds(budget, words)}


def busy(retry_after: float, words: Words = ENGLISH) -> str:
    """Every slot for heavy work is taken."""
    return words.gettext("The server is busy with other puzzles right now. Please try again in %(time)s.") % {
        "time": seconds(retry_after, words)}
