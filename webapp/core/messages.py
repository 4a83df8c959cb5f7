"""What several layers tell a person in the same words: out of time, too hard, busy; and
refusals that are translated where they are shown.

Pure Python, no Flask: a message is written in English with ``%(name)s`` parameters and
marked with ``N_`` (one of pybabel's default keywords, so ``make translations`` extracts
it).  Functions take ``words``, any gettext translations object (``gettext``/``ngettext``:
the standard library's ``NullTranslations`` is English, the web layer passes
``web.i18n.words()``, the request's catalogue with its locale, a ``Language``).  A
check that refuses raises ``Refusal``, whose ``str()`` is English (logs, the CLI) and
``said(err, words)`` any language; the engine's own errors are said the same way, from
their facts (``engine_words``).  Numbers with decimals are written in the locale of
``words`` ("2.5" in English, "2,5" in Spanish: ``decimal``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from gettext import NullTranslations
from typing import Any, Protocol

from babel.numbers import format_decimal

from engine import FactsError, Phrase, Seconds

ENGLISH = NullTranslations()


class Words(Protocol):
    """What a message needs of a catalogue: gettext's two methods."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


@dataclass(frozen=True)
class Language:
    """A catalogue and its locale ("es"): what a message needs to be said in a language,
    its numbers included (a catalogue alone does not always know its locale)."""

    catalogue: Words
    locale: str = "en"

    def gettext(self, message: str, /) -> str:
        return self.catalogue.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return self.catalogue.ngettext(singular, plural, n)


def locale_of(words: Words) -> str:
    """The locale ``words`` speaks: a ``Language``'s, a compiled catalogue's own (its
    header), else English."""
    if isinstance(words, Language):
        return words.locale
    info = getattr(words, "info", None)
    found = info().get("language") if callable(info) else None
    return str(found) if found else "en"


def decimal(value: float, words: Words = ENGLISH, pattern: str | None = None) -> str:
    """A number in the locale of ``words``: "2.5", "2,5"; ``pattern`` as Babel's ("0.0")."""
    return format_decimal(value, format=pattern, locale=locale_of(words))


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
        """The message in the language of ``words`` (its parameters too: a ``Name``, an
        engine ``Phrase``, ``Seconds``, another refusal, a number in the locale)."""
        text = words.gettext(self.msgid)
        if not self.params:
            return text
        return text % {key: _said_value(value, words) for key, value in self.params.items()}


class Sentence(Refusal):
    """A refusal that may begin with a parameter ("hard puzzles need…"): a capital first."""

    def say(self, words: Words = ENGLISH) -> str:
        text = super().say(words)
        return text[:1].upper() + text[1:]


class Name(str):
    """A parameter of a refusal that is itself a msgid (a shape's or a level's name): it is
    said in the reader's language too."""


def said(err: BaseException, words: Words = ENGLISH) -> str:
    """An error's message in the language of ``words``: a refusal's, or an engine error's
    from its facts (a capital first: the engine's begin in lower case)."""
    if isinstance(err, Refusal):
        return err.say(words)
    from engine import PuzzleFormatError

    from .engine_words import error_text  # it builds on this module

    if isinstance(err, (FactsError, PuzzleFormatError)):
        text = error_text(err, words)
        return text[:1].upper() + text[1:]
    # A plain message that is a msgid itself is translated whole; any other stays as it is.
    return words.gettext(str(err))


def _said_value(value: Any, words: Words) -> Any:
    """A refusal's parameter in the language of ``words``."""
    if isinstance(value, Name):
        return words.gettext(value)
    if isinstance(value, Refusal):
        return value.say(words)
    if isinstance(value, Seconds):
        return seconds(value, words)
    if isinstance(value, Phrase):
        from .engine_words import phrase_text  # it builds on this module

        return phrase_text(value, words)
    if isinstance(value, int) and not isinstance(value, bool):
        # Counts and the numbers of a board, never grouped: a player who typed 9999 reads
        # "9999", as typed (and a 1200-cell board's numbers are written 1200 on it).
        return str(value)
    if isinstance(value, float):
        return decimal(value, words)  # "2.5" in English, "2,5" in Spanish
    return value


def kept(refusal: Refusal) -> str:
    """A refusal as text to keep (JSON: its msgid and facts), to be said later in any
    language (``from_kept``)."""
    return json.dumps({"msgid": refusal.msgid, "sentence": isinstance(refusal, Sentence),
                       "params": {key: _kept_value(value) for key, value in refusal.params.items()}})


def from_kept(text: str) -> Refusal:
    """The refusal ``kept`` wrote; a plain message kept before (English) is a msgid itself."""
    try:
        found = json.loads(text) if text.startswith("{") else None
    except ValueError:
        found = None
    if not isinstance(found, dict) or not isinstance(found.get("msgid"), str):
        return Refusal(text)
    kind = Sentence if found.get("sentence") else Refusal
    params = found.get("params")
    facts = {key: _value_kept(value) for key, value in params.items()} if isinstance(params, dict) else {}
    return kind(found["msgid"], **facts)


def _kept_value(value: Any) -> Any:
    if isinstance(value, Phrase):
        return {"phrase": value.template, "params": {k: _kept_value(v) for k, v in value.params.items()}}
    if isinstance(value, Name):
        return {"name": str(value)}
    if isinstance(value, Seconds):
        return {"seconds": float(value)}
    if isinstance(value, tuple):
        return {"cell": list(value)}
    if isinstance(value, list):
        return [_kept_value(v) for v in value]
    return value


def _value_kept(value: Any) -> Any:
    if isinstance(value, list):
        return [_value_kept(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "phrase" in value:
        return Phrase(str(value["phrase"]), **{k: _value_kept(v) for k, v in dict(value.get("params") or {}).items()})
    if "name" in value:
        return Name(str(value["name"]))
    if "seconds" in value:
        return Seconds(float(value["seconds"]))
    if "cell" in value:
        return tuple(int(x) for x in value["cell"])
    return value


def seconds(value: float, words: Words = ENGLISH, digits: int = 6) -> str:
    """A duration in words, as ``engine.seconds``: "1 second", "0.5 seconds" ("0,5 segundos")."""
    shown = f"{value:.{digits}g}"
    if "e" not in shown:
        shown = decimal(float(shown), words, "0.######")
    return words.ngettext("%(n)s second", "%(n)s seconds", 1 if shown == "1" else 2) % {"n": shown}


TOO_HARD = N_("This puzzle is too hard to finish in %(time)s: the solver stopped before it could answer. A "
              "puzzle with more givens, or a smaller board, is answered quickly.")


def too_hard_refusal(budget: float) -> Refusal:
    """A solve, check or grade that ran out of its budget, as a refusal to keep or say."""
    return Refusal(TOO_HARD, time=Seconds(round(budget, 2)))


def too_hard(budget: float, words: Words = ENGLISH) -> str:
    """A solve, check or grade that ran out of its budget."""
    return too_hard_refusal(budget).say(words)


def generator_gave_up(budget: float, words: Words = ENGLISH) -> str:
    """A generation that ran out of its budget."""
    return words.gettext("The generator gave up after %(time)s without a puzzle of this kind. Try again "
                         "(another puzzle may come quicker), a smaller size or an easier difficulty.") % {
        "time": seconds(budget, words)}


def busy(retry_after: float, words: Words = ENGLISH) -> str:
    """Every slot for heavy work is taken."""
    return words.gettext("The server is busy with other puzzles right now. Please try again in %(time)s.") % {
        "time": seconds(retry_after, words)}
