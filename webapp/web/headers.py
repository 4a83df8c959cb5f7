"""Response headers every page and partial gets, written the cheap way: Werkzeug's
``response.vary`` parses the header into a set and writes it back at each change, and
``headers.setdefault`` scans the whole list once per header (``response_headers`` writes
them all in one after-request hook)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def vary_with(vary: str, names: Iterable[str]) -> str:
    """``vary`` (a ``Vary`` header's value, or "") with ``names`` added after what it names
    already, each once, whatever its case: what ``response.vary.update(names)`` writes."""
    if not vary:
        return ", ".join(dict.fromkeys(names))
    have = {part.strip().lower() for part in vary.split(",")}
    extra = [name for name in dict.fromkeys(names) if name.lower() not in have]
    return ", ".join([vary, *extra]) if extra else vary


def add_vary(response: Any, names: Iterable[str]) -> None:
    """Add ``names`` to the response's ``Vary`` header (``vary_with``)."""
    headers = response.headers
    current = headers.get("Vary") or ""
    wanted = vary_with(current, names)
    if wanted != current:
        headers["Vary"] = wanted
