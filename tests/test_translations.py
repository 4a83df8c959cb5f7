"""The Spanish catalogue and the pages in Spanish (issue 21).

- every message is translated, none fuzzy, plurals complete, and the catalogue holds
  every message the code and templates use today (``make translations`` was run);
- no template shows text outside a translation call;
- pages rendered in Spanish show none of the English catalogue's sentences.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from flask import Flask
from jinja2 import Environment

from engine import puzzle_to_id

from puzzle_files import DATA, load

ROOT = Path(__file__).resolve().parent.parent
SPANISH = ROOT / "webapp" / "translations" / "es" / "LC_MESSAGES" / "messages.po"
PUZZLE, _SOLUTION = load(DATA / "seed000-5x5.txt")
CODE = puzzle_to_id(PUZZLE)
# Words that are the same in every language: names.
SAME_EVERYWHERE = {"Hidato", "Numbrix", "English", "Español", "OK", "PDF", "QR", "A4", "Letter"}
# Attributes a person reads or hears.
SPOKEN_ATTRIBUTES = {"title", "aria-label", "alt", "placeholder", "aria-description", "data-label"}


def _catalogue() -> Catalog:
    with open(SPANISH, "rb") as handle:
        return read_po(handle, locale="es")


def _extracted() -> set[str]:
    """The messages the code and templates use now (as ``make translations`` extracts them)."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    keywords = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None,
                "lazy_ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
    found = set()
    for _filename, _lineno, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def test_every_message_is_translated_and_none_is_fuzzy() -> None:
    catalogue = _catalogue()
    missing, fuzzy = [], []
    for message in catalogue:
        if not message.id:
            continue
        if message.fuzzy:
            fuzzy.append(message.id)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings) or len(strings) < (2 if message.pluralizable else 1):
            missing.append(message.id)
    assert not fuzzy, f"fuzzy in {SPANISH.name}: {fuzzy[:10]}"
    assert not missing, f"untranslated in {SPANISH.name} ({len(missing)}): {missing[:10]}"
    assert catalogue.num_plurals == 2


def test_the_catalogue_holds_every_message_in_use() -> None:
    """Run `make translations` and translate what is new when this fails."""
    known = {m.id[0] if isinstance(m.id, tuple) else m.id for m in _catalogue() if m.id}
    used = _extracted()
    assert len(used) > 100, "extraction found almost nothing: is babel.cfg right?"
    missing = sorted(used - known)
    assert not missing, f"{len(missing)} messages not in the Spanish catalogue (make translations): {missing[:10]}"


def _literal_text(source: str) -> str:
    """A template's own markup and text, with every Jinja expression, statement and
    translation block replaced by a placeholder."""
    env = Environment(extensions=["jinja2.ext.i18n"])
    out, depth = [], 0
    statement: list[str] = []
    in_block = False
    for _line, kind, value in env.lex(source):
        if kind == "block_begin":
            in_block, statement = True, []
            continue
        if in_block:
            if kind == "block_end":
                in_block = False
                words = [w for w in statement if w.strip()]
                if words[:1] == ["trans"]:
                    depth += 1
                elif words[:1] == ["endtrans"]:
                    depth -= 1
            else:
                statement.append(value)
            continue
        if kind == "data" and depth == 0:
            out.append(value)
        elif kind in ("variable_begin", "data"):
            out.append("\x00")  # an expression (or translated text) stands here
    return "".join(out)


@pytest.mark.parametrize("template", sorted(p.name for p in (ROOT / "templates").glob("*.html")))
def test_templates_show_no_text_outside_translation_calls(template: str) -> None:
    parser = _VisibleText()
    parser.feed(_literal_text((ROOT / "templates" / template).read_text(encoding="utf-8")))
    untranslated = []
    for text in parser.parts:
        for piece in text.split("\x00"):
            if re.fullmatch(r"\s*[a-z]+(-[a-z]+)+\s*", piece):
                continue  # a class name (a page's body class block)
            words = re.findall(r"[A-Za-zÀ-ÿ]{2,}", piece)
            if any(word not in SAME_EVERYWHERE for word in words):
                untranslated.append(piece.strip())
    assert not untranslated, f"{template}: text outside translation calls: {untranslated[:8]}"


class _VisibleText(HTMLParser):
    """Text and spoken attributes outside scripts and styles."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in SPOKEN_ATTRIBUTES and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def _visible(html: str) -> str:
    parser = _VisibleText()
    parser.feed(html)
    return re.sub(r"\s+", " ", " ".join(parser.parts))


def _english_sentences() -> list[str]:
    """Long literal pieces of the English messages whose Spanish differs."""
    found = []
    for message in _catalogue():
        if not message.id:
            continue
        english = str(message.id[0] if isinstance(message.id, (tuple, list)) else message.id)
        spanish = message.string[0] if isinstance(message.string, (tuple, list)) else message.string
        if spanish == english:
            continue
        for piece in re.split(r"%\(\w+\)[sd]|%[sd]|<[^>]*>|\{\{.*?\}\}", english):
            piece = re.sub(r"\s+", " ", piece).strip(" .,:;·")
            if len(piece) >= 14 and " " in piece:
                found.append(piece)
    return found


def _spanish_pages(app: Flask) -> dict[str, str]:
    client = app.test_client()
    client.get("/?lang=es")  # the choice is kept in the session
    assert client.get(f"/p/{CODE}").status_code == 200
    pages = {path: client.get(path).get_data(as_text=True)
             for path in ("/", f"/p/{CODE}", "/solve", "/booklet", "/mine", f"/p/{CODE}/print", "/no-such-page")}
    hint = client.post(f"/p/{CODE}", data={"action": "hint"}, headers={"HX-Request": "true"})
    pages["hint"] = hint.get_data(as_text=True)
    # The engine's words: a bad id, a puzzle without a solution (its page, the solver's), a 405.
    for path in ("/p/nonsense", "/p/1x4:1b2", f"/p/{CODE}/clock"):
        pages[path] = client.get(path).get_data(as_text=True)
    pages["no solution"] = client.post("/solve", data={"puzzle": "1 . . 2", "action": "solve"}).get_data(as_text=True)
    return pages


def test_pages_in_spanish_show_no_english_sentence(app: Flask) -> None:
    english = _english_sentences()
    assert english, "the catalogue has no translated sentences"
    for path, html in _spanish_pages(app).items():
        assert '<html lang="es"' in html or path == "hint", path
        text = _visible(html)
        shown = [sentence for sentence in english if sentence in text]
        assert not shown, f"{path} in Spanish still shows English: {shown[:5]}"


def test_the_language_follows_the_browser_the_switch_and_the_link(app: Flask) -> None:
    client = app.test_client()
    assert '<html lang="es"' in client.get("/", headers={"Accept-Language": "es-ES,es;q=0.9"}).get_data(as_text=True)
    assert '<html lang="en"' in client.get("/", headers={"Accept-Language": "en-GB"}).get_data(as_text=True)
    other = app.test_client()
    assert '<html lang="es"' in other.get(f"/p/{CODE}?lang=es").get_data(as_text=True)  # a shared link
    page = other.get("/", headers={"Accept-Language": "en-GB"}).get_data(as_text=True)
    assert '<html lang="es"' in page  # the choice is kept
    assert 'hreflang="en"' in page and "lang=en" in page  # the switch back
    assert '<html lang="en"' in other.get("/?lang=en").get_data(as_text=True)


def _engine_templates() -> dict[str, list[str]]:
    """Every English template the engine words a reason, refusal or give-up with, by the
    call that makes it (``Phrase``, ``FactsError`` and its kinds, ``Contradiction``,
    ``PuzzleFormatError.of``), read from the engine's source."""
    import ast

    makers = {"Phrase", "ShapeError", "GenerationError", "Contradiction", "FactsError"}
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "engine").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else None
            if isinstance(func, ast.Attribute) and func.attr == "of" and isinstance(func.value, ast.Name) \
                    and func.value.id == "PuzzleFormatError":
                name = "PuzzleFormatError.of"
            if name not in makers and name != "PuzzleFormatError.of":
                continue
            first = node.args[0] if node.args else None
            where = f"{path.name}:{node.lineno}"
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.setdefault(first.value, []).append(where)
            elif isinstance(first, ast.Name) and first.id == "template" or \
                    isinstance(first, ast.Attribute) and first.attr == "template":
                continue  # a template handed on (a phrase rebuilt, an error's own)
            else:
                found.setdefault("", []).append(where)  # a template made at run time
    return found


def test_every_template_the_engine_can_raise_has_a_msgid() -> None:
    """The engine keeps its reasons' and errors' facts apart; each English template is matched
    with the msgid the site says it with (core/engine_words.py), or listed as never shown."""
    from webapp.core.engine_words import NOT_ON_THE_SITE, SAID

    templates = _engine_templates()
    assert "" not in templates, f"templates made at run time, which no catalogue can hold: {templates.get('')}"
    assert len(templates) >= 60
    missing = {t: where for t, where in templates.items() if t not in SAID and t not in NOT_ON_THE_SITE}
    assert not missing, f"engine templates without a msgid in core/engine_words.py: {missing}"
    assert not set(SAID) - set(templates) - set(_parse_error_templates()), "msgids for templates the engine lost"
    # The site's words keep every field the reader needs: the cells and numbers of the fact.
    for template, msgid in SAID.items():
        fields = set(re.findall(r"%\((\w+)\)s", template)) - {"article", "allowed"}
        said = set(re.findall(r"%\((\w+)\)s", msgid))
        assert said <= set(re.findall(r"%\((\w+)\)s", template)), (template, msgid)
        assert {f for f in fields if "cell" in f or f in ("number", "low", "high")} <= said, (template, msgid)


def _parse_error_templates() -> list[str]:
    source = (ROOT / "engine" / "notation.py").read_text(encoding="utf-8")
    return re.findall(r'PuzzleFormatError\.of\(\s*"([^"]*)"', source)


def test_a_puzzle_text_error_is_said_in_spanish(app: Flask) -> None:
    client = app.test_client()
    client.get("/?lang=es")
    page = client.post("/solve", data={"puzzle": "1 . -3\n. . .", "action": "solve"}).get_data(as_text=True)
    assert "línea 1, columna 5" in page and "número negativo" in page, _visible(page)[-600:]
