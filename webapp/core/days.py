"""Which day it is for the site: the puzzle of the day turns over at midnight in one
zone (``HIDATO_TIMEZONE``, UTC by default), whatever zone each host's clock is set to,
so every host behind a load balancer agrees on today's puzzle."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo


def today(zone: str = "UTC", now: datetime | None = None) -> date:
    """The date in ``zone`` (an IANA name such as "Europe/Paris") at ``now`` (default: this moment)."""
    moment = now if now is not None else datetime.now(UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)  # naive times are UTC here, as every stored time is
    return moment.astimezone(ZoneInfo(zone)).date()
