"""gunicorn as ``make serve`` runs it: which forwarded headers it believes, and which hosts it serves."""

from __future__ import annotations

import http.client
import os
import subprocess
from pathlib import Path

import pytest

from gunicorn_server import GUNICORN, ROOT, Server


def _printed_config(**env: str) -> str:
    environment = {k: v for k, v in os.environ.items() if k not in ("HIDATO_PROXIES", "FORWARDED_ALLOW_IPS")}
    environment.update(env)
    command = [str(GUNICORN), "-c", "python:webapp.web.gunicorn_conf", "--print-config", "webapp.web.wsgi:app"]
    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(("env", "expected"), [
    ({}, "[]"),
    ({"HIDATO_PROXIES": "0"}, "[]"),
    ({"HIDATO_PROXIES": "1"}, "['127.0.0.1', '::1']"),
    ({"HIDATO_PROXIES": "1", "FORWARDED_ALLOW_IPS": "10.0.0.2"}, "['10.0.0.2']"),
    ({"FORWARDED_ALLOW_IPS": "10.0.0.2"}, "[]"),  # no proxies declared: none believed
])
def test_gunicorn_believes_forwarded_headers_only_as_hidato_proxies_says(env: dict[str, str], expected: str) -> None:
    lines = [line for line in _printed_config(**env).splitlines() if line.startswith("forwarded_allow_ips")]
    assert len(lines) == 1 and lines[0].split("=", 1)[1].strip() == expected


def _get(port: int, host: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/mine", headers={"Host": host, "X-Forwarded-Proto": "https",
                                                    "X-Forwarded-Host": "evil.example"})
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def test_a_live_server_answers_only_for_its_hosts(tmp_path: Path) -> None:
    server = Server(tmp_path / "instance", None, workers=1)
    server.env["HIDATO_HOSTS"] = "lan.box"
    server.start()
    try:
        assert _get(server.port, f"127.0.0.1:{server.port}")[0] == 200  # X-Forwarded-Host is not believed
        assert _get(server.port, "lan.box")[0] == 200
        status, page = _get(server.port, "evil.example")
        assert status == 400 and "Unknown host" in page and "Traceback" not in page
    finally:
        server.stop()
