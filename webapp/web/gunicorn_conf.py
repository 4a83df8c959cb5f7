"""gunicorn settings for ``make serve``: ``gunicorn -c python:webapp.web.gunicorn_conf webapp.web.wsgi:app``.

HOST, PORT and WORKERS come from the environment (defaults 127.0.0.1, 5000 and two per
core plus one); THREADS is the threads per worker (default 4: a request may wait a
moment for the generator or a booklet).  Behind a reverse proxy, set HIDATO_PROXIES
(see README, "Running it in production"): gunicorn trusts X-Forwarded-Proto and the
like only then, from the proxy on this machine, and never when it is unset.
"""

from __future__ import annotations

import os
from typing import Any


def _number(name: str, default: int, low: int = 1) -> int:
    text = (os.environ.get(name) or "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) < low:
        raise SystemExit(f"{name} must be a whole number from {low} up, not {text!r}")
    return int(text)


bind = f"{os.environ.get('HOST') or '127.0.0.1'}:{_number('PORT', 5000)}"
workers = _number("WORKERS", 2 * (os.cpu_count() or 1) + 1)
worker_class = "gthread"
threads = _number("THREADS", 4)
# A worker silent this long is killed and replaced (no request should take a tenth of it).
timeout = 60
graceful_timeout = 20
keepalive = 5
# Heartbeat files in memory, not on a disk that may stall.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
# Several servers on one machine (tests, make load) must not fight over one control socket.
control_socket_disable = True
# The app's ProxyFix reads forwarded headers when HIDATO_PROXIES says proxies are in
# front; gunicorn's own reading of them (the scheme) follows the same setting exactly:
# none without it (gunicorn would otherwise trust 127.0.0.1 by default).
_PROXIES = _number("HIDATO_PROXIES", 0, low=0)
forwarded_allow_ips = (os.environ.get("FORWARDED_ALLOW_IPS") or "127.0.0.1,::1") if _PROXIES else ""
accesslog = os.environ.get("ACCESS_LOG") or None
errorlog = "-"
proc_name = "hidato"


def post_worker_init(worker: Any) -> None:
    """Start the worker's process for budgeted generation in the background, ready for the
    first puzzle, and its job threads (they take jobs any host queued)."""
    import threading

    from webapp.work.budget import start_processes

    threading.Thread(target=start_processes, name="hidato-forkserver", daemon=True).start()
    services = getattr(getattr(worker, "wsgi", None), "extensions", {}).get("hidato")
    if services is not None:
        services.jobs.start()


def worker_exit(server: Any, worker: Any) -> None:
    """A worker going away stops its pool-filling child process and takes no more jobs (the
    ones it holds are taken over by another worker when their leases run out)."""
    app = getattr(worker, "wsgi", None)
    services = getattr(app, "extensions", {}).get("hidato")
    if services is not None:
        services.refiller.stop()
        services.jobs.shutdown(wait=graceful_timeout - 5)  # a restart lets its jobs finish
