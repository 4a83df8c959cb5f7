"""The play page's clock between the page and the server: the stamp a timer is drawn with,
and the seconds a page says it showed.

Opening a puzzle writes nothing (crawlers, people who only look), so the page counts from
the moment it opens and the server learns that count with the first entry or action.  A
page cannot claim more than it can have counted: its timer carries a stamp, signed with
the site's key, of the seconds it was drawn with and when, so the seconds a request
brings are bounded by those seconds plus the time since (``Game.sync_clock`` takes them,
never below the server's own).  Claiming more time would only spoil one's own record;
the bound keeps a stray or forged number from doing even that.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from datetime import UTC, datetime
from functools import lru_cache

from flask import current_app, request
from itsdangerous import BadSignature, TimestampSigner
from itsdangerous.encoding import base64_encode, int_to_bytes, want_bytes

# The most seconds a page may say it showed (about 115 days): anything above is not a
# count a page made.
MAX_SHOWN = 10_000_000
SHOWN_FIELD, STAMP_FIELD = "clock", "clock_stamp"
_SALT = "hidato-page-clock"


def now_seconds() -> int:
    """The time a stamp is signed at, in whole seconds (the tests move it)."""
    return int(time.time())


class _Signer(TimestampSigner):
    """A ``TimestampSigner`` that derives each key once (itsdangerous derives it again,
    one more HMAC, at every signature and check)."""

    def get_timestamp(self) -> int:
        return now_seconds()

    def __init__(self, keys: list[str]):
        super().__init__(keys, salt=_SALT)
        self._derived: dict[bytes | None, bytes] = {}
        # The current key's HMAC, keyed once: each stamp signs with a copy of it.
        self._mac = hmac.new(self.derive_key(), digestmod=self.digest_method)

    def sign(self, value: str | bytes) -> bytes:
        """What ``TimestampSigner.sign`` writes (the value, its time, the HMAC of both, each
        after a ".", the last two in unpadded URL-safe base64), in a few calls rather than
        its fifteen: a timer is drawn with every entry."""
        signed = want_bytes(value) + b"." + base64_encode(int_to_bytes(self.get_timestamp()))
        mac = self._mac.copy()
        mac.update(signed)
        return signed + b"." + base64_encode(mac.digest())

    def derive_key(self, secret_key: str | bytes | None = None) -> bytes:
        kept = secret_key if isinstance(secret_key, bytes) else None if secret_key is None else secret_key.encode()
        found = self._derived.get(kept)
        if found is None:
            found = self._derived[kept] = super().derive_key(secret_key)
        return found


@lru_cache(maxsize=8)
def _signer_for(keys: tuple[str, ...]) -> _Signer:
    return _Signer(list(keys))


def _signer() -> TimestampSigner:
    # The current key signs; the fallbacks (a rotation under way) still verify. One signer
    # per set of keys: a timer is drawn with every entry.
    config = current_app.config
    fallbacks = config.get("SECRET_KEY_FALLBACKS")
    if not fallbacks:  # no rotation under way: no generator to go through
        return _signer_for((str(config["SECRET_KEY"]),))
    return _signer_for((*(str(key) for key in fallbacks), str(config["SECRET_KEY"])))


@lru_cache(maxsize=1024)
def _puzzle_tag(code: str) -> str:
    """A short tag of the puzzle, so a stamp from one puzzle says nothing about another."""
    return hashlib.sha256(code.encode()).hexdigest()[:10]


def stamp(code: str, seconds: int) -> str:
    """The signed stamp of a timer drawn now, showing ``seconds``, on the puzzle ``code``."""
    return _signer().sign(f"{int(seconds)}:{_puzzle_tag(code)}").decode("ascii")


def shown(code: str) -> tuple[int, int] | None:
    """What the posting page's clock showed and the most it can have counted, in seconds;
    None if the request says nothing (no script, a paused clock) or nothing believable."""
    raw, signed = request.form.get(SHOWN_FIELD, ""), request.form.get(STAMP_FIELD, "")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 8) or not signed:
        return None
    try:
        value, when = _signer().unsign(signed[:200], return_timestamp=True)
    except (BadSignature, ValueError):
        return None
    seconds, _, tag = value.decode("ascii", "replace").partition(":")
    if tag != _puzzle_tag(code) or not seconds.isdigit():
        return None
    # The stamp's time is in whole seconds, cut down: one more second covers that.
    since = (datetime.now(UTC) - when).total_seconds()
    ceiling = int(seconds) + max(0, int(since)) + 1
    return min(int(raw), MAX_SHOWN), min(ceiling, MAX_SHOWN)
