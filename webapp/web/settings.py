"""The web app's settings: defaults, then the environment, read once (and only here).

``HIDATO_*`` variables are loaded with Flask's ``from_prefixed_env`` (``HIDATO_PROXIES=1``
becomes ``PROXIES = 1``; values are read as JSON when they parse, else as text), plus
``DATABASE_URL`` and ``SECRET_KEY`` (and ``HIDATO_SECRET_KEY_FALLBACKS``, always as
text); a test's or caller's config overrides them.
``check`` then turns each into the type it must have, with a message naming the
variable when it is wrong.  The README's table lists every one.
"""

from __future__ import annotations

import math
import os
import re
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Config

from ..work.budget import default_slot_count

DEFAULTS: dict[str, Any] = {
    "DATABASE_URL": None,  # None: SQLite in the instance folder
    "SECRET_KEY": None,  # None: a random key kept in the database, shared by every host
    # Old keys whose cookies still verify (HIDATO_SECRET_KEY_FALLBACKS, commas or spaces):
    # change SECRET_KEY and list the old one here, so nobody loses their session at once.
    "SECRET_KEY_FALLBACKS": [],
    "TIMEZONE": "UTC",  # the IANA zone whose midnight brings the next puzzle of the day
    "POOL_FILL": True,  # fill the pool of puzzles in the background
    "PROXIES": 0,  # proxies in front whose X-Forwarded-* headers are believed
    "HTTPS": False,  # served over HTTPS: Secure cookies, HSTS
    "PUBLIC_URL": "",  # the site's public address, for printed links
    "HOSTS": "",  # more host names the site answers to
    "SOLVE_SECONDS": 3.0,  # a solve, check, grade or hint
    "GENERATE_SECONDS": 60.0,  # a generation
    "WORK_SLOTS": None,  # None: half the processors, at least one
    "JOB_THREADS": 2,  # threads per server process doing jobs (0: none, leave them to `hidato worker`)
    "SLOT_WAIT_SECONDS": 2.0,  # how long a request waits for a slot for heavy work
    "GENERATE_WAIT_SECONDS": 1.0,  # how long New puzzle waits before a waiting page
    "BOOKLET_WAIT_SECONDS": 1.0,  # how long the booklet form waits before its progress page
    "PHOTO_SECONDS": 30.0,  # reading one photo (its child is killed after this)
    "PHOTO_MEMORY_MB": 1536,  # the address space a photo's child may hold
    "PHOTO_WAIT_SECONDS": 1.0,  # how long the photo form waits before its progress page
    "SESSION_COOKIE_SAMESITE": "Lax",
    "PERMANENT_SESSION_LIFETIME": timedelta(days=400),
}
_NUMBERS = ("SOLVE_SECONDS", "GENERATE_SECONDS", "SLOT_WAIT_SECONDS", "GENERATE_WAIT_SECONDS",
            "BOOKLET_WAIT_SECONDS", "PHOTO_SECONDS", "PHOTO_WAIT_SECONDS")


def instance_path(overrides: dict[str, Any]) -> str | None:
    """The instance folder: the caller's INSTANCE_PATH, else HIDATO_INSTANCE, else Flask's default."""
    return overrides.get("INSTANCE_PATH") or os.environ.get("HIDATO_INSTANCE") or None


def load(config: Config, overrides: dict[str, Any]) -> None:
    """Defaults, the environment, then ``overrides``; every value checked."""
    config.from_mapping(DEFAULTS)
    config.from_prefixed_env("HIDATO")
    for name in ("DATABASE_URL", "SECRET_KEY"):
        if os.environ.get(name):
            config[name] = os.environ[name]
    if "HIDATO_SECRET_KEY_FALLBACKS" in os.environ:  # as text: a key of digits is no JSON number
        config["SECRET_KEY_FALLBACKS"] = os.environ["HIDATO_SECRET_KEY_FALLBACKS"]
    config.update({k: v for k, v in overrides.items() if k != "INSTANCE_PATH"})
    check(config)


def check(config: Config) -> None:
    """Each setting as the type it must be; ValueError naming the variable otherwise."""
    config["POOL_FILL"] = _flag(config, "POOL_FILL")
    config["HTTPS"] = _flag(config, "HTTPS")
    config["PROXIES"] = _whole(config, "PROXIES", low=0)
    config["JOB_THREADS"] = _whole(config, "JOB_THREADS", low=0)
    config["PHOTO_MEMORY_MB"] = _whole(config, "PHOTO_MEMORY_MB", low=256)
    slots = config.get("WORK_SLOTS")
    config["WORK_SLOTS"] = default_slot_count() if slots in (None, "") else _whole(config, "WORK_SLOTS", low=1)
    for name in _NUMBERS:
        config[name] = _seconds(config, name)
    for name in ("PUBLIC_URL", "HOSTS"):
        config[name] = str(config.get(name) or "")
    config["SECRET_KEY_FALLBACKS"] = _keys(config, "SECRET_KEY_FALLBACKS")
    config["TIMEZONE"] = _zone(config, "TIMEZONE")


def _flag(config: Config, name: str) -> bool:
    value = config.get(name)
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value)


def _keys(config: Config, name: str) -> list[str]:
    """Keys as a list: text separated by commas or spaces, or a list of texts."""
    value = config.get(name) or []
    keys = re.split(r"[\s,]+", value.strip()) if isinstance(value, str) else value
    if not isinstance(keys, (list, tuple)) or not all(isinstance(key, str) for key in keys):
        # Never echo the value: it holds secrets.
        raise ValueError(f"HIDATO_{name} must list keys separated by commas or spaces, "
                         f"not a {type(value).__name__}")
    return [key for key in keys if key]


def _zone(config: Config, name: str) -> str:
    value = config.get(name)
    try:
        if not isinstance(value, str) or not value.strip():
            raise ValueError(value)
        ZoneInfo(value.strip())
    except (ValueError, ZoneInfoNotFoundError):
        raise ValueError(f"HIDATO_{name} must be an IANA time zone name such as UTC or Europe/Paris, "
                         f"not {value!r}") from None
    return value.strip()


def _whole(config: Config, name: str, low: int) -> int:
    value = config.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).strip().isdigit() \
            or int(value) < low:
        raise ValueError(f"HIDATO_{name} must be a whole number from {low} up, not {value!r}")
    return int(value)


def _seconds(config: Config, name: str) -> float:
    """A budget must be positive; a wait may be 0 (go straight to the waiting page)."""
    value = config.get(name)
    waiting = name.endswith("_WAIT_SECONDS")
    try:
        seconds = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        seconds = -1.0
    if seconds < 0 or (seconds == 0 and not waiting) or isinstance(value, bool) or not math.isfinite(seconds):
        kind = "a number of seconds from 0 up" if waiting else "a positive number of seconds"
        raise ValueError(f"HIDATO_{name} must be {kind}, not {value!r}")
    return seconds
