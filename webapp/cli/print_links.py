"""The links ``hidato print --url`` puts in its QR codes: the site's short links when its
database can be reached, else each puzzle's long link.

The site prints ``{url}/s/{short}`` (``/s/2f``), a sparse code that scans small.  The
command line does the same by registering the puzzles in the site's database (``site.py``:
``DATABASE_URL``, or the instance database ``hidato serve`` uses), so the links resolve
on the site that reads it.  Without one (or with ``--long-links``) each QR code carries
``{url}/p/{id}``; ``paper.booklet`` then prints it large enough to decode from a 100-dpi
scan, and the command says so on stderr.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.stored import StoredPuzzle
from ..paper.booklet import links_for
from .site import NoDatabase, close, open_store

Say = Callable[[str], None]


def print_links(puzzles: list[StoredPuzzle], url: str | None, long_links: bool, say: Say) -> dict[str, str]:
    """Each puzzle's link for its QR code (none without ``url``), telling ``say`` which kind."""
    if not url:
        return {}
    if long_links:
        say("long links (--long-links): the QR codes are printed larger")
        return links_for(puzzles, url)
    try:
        store, shown = open_store()
    except NoDatabase as err:
        say(f"long links: short links are registered in the site's database, but {err}; "
            "the QR codes are printed larger")
        return links_for(puzzles, url)
    try:
        links = {}
        for stored in puzzles:
            store.save_puzzle(stored)  # as the site stores a booklet's puzzles: its pages know them
            short = store.short_code(stored.code)
            if short is None:  # never, once saved; a long link keeps the booklet whole
                return links_for(puzzles, url)
            links[stored.code] = f"{url}/s/{short}"
    except Exception as err:  # noqa: BLE001 - the database went away: the long links still work
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        say(f"long links: the site database {shown} failed ({first}); the QR codes are printed larger")
        return links_for(puzzles, url)
    finally:
        close(store)
    say(f"short links registered in the site database {shown}")
    return links
