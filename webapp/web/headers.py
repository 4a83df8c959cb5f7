"""Response headers every page and partial gets, written the cheap way: Werkzeug's
``response.vary`` parses the header into a set and writes it back at each change, and
``headers.setdefault`` scans the whole list once per header; a cell entry's answer paid
about 80 microseconds for its five after-request hooks' headers, a tenth of its target."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def add_vary(response: Any, names: Iterable[str]) -> None:
    """Add ``names`` to the response's ``Vary`` header (each once, whatever its case),
    after what it names already: what ``response.vary.update(names)`` writes."""
    headers = response.headers
    current = headers.get("Vary")
    if not current:
        headers["Vary"] = ", ".join(dict.fromkeys(names))
        return
    have = {part.strip().lower() for part in current.split(",")}
    extra = [name for name in dict.fromkeys(names) if name.lower() not in have]
    if extra:
        headers["Vary"] = ", ".join([current, *extra])


def add_missing(response: Any, defaults: Mapping[str, str]) -> None:
    """Add each of ``defaults`` the response does not have (by name, whatever its case):
    ``headers.setdefault`` for each, in one pass."""
    headers = response.headers
    present = {name.lower() for name, _value in headers}
    headers.extend([(name, value) for name, value in defaults.items() if name.lower() not in present])
