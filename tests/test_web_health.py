"""``GET /healthz`` (webapp/web/health.py): what a load balancer asks each host."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from webapp.store.store import database_url


def test_healthy_when_the_database_answers(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_data(as_text=True) == "ok\n"
    assert response.mimetype == "text/plain" and response.headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in response.headers
    assert client.head("/healthz").status_code == 200


def test_any_host_may_ask(client: FlaskClient) -> None:
    # Health checkers name the backend's own address, which the pages refuse.
    assert client.get("/", headers={"Host": "10.0.0.7:8000"}).status_code == 400
    response = client.get("/healthz", headers={"Host": "10.0.0.7:8000"})
    assert response.status_code == 200 and response.get_data(as_text=True) == "ok\n"


def test_only_get_and_head(client: FlaskClient) -> None:
    response = client.post("/healthz")
    assert response.status_code == 405 and response.headers["Allow"] == "GET, HEAD"


def test_unhealthy_when_the_database_is_gone(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    store = app.extensions["hidato"].store
    # The database's server goes away: a PostgreSQL socket folder with no server in it, or
    # an SQLite file in a folder that does not exist (both are real failed connections).
    gone = tmp_path / "gone"
    if store.engine.dialect.name == "postgresql":
        url = make_url(database_url(store.engine.url.render_as_string(hide_password=False), ""))
        url = url.update_query_dict({"host": str(gone)})
    else:
        url = make_url(f"sqlite:///{gone}/hidato.sqlite3")
    kept, store.engine = store.engine, create_engine(url)
    try:
        response = client.get("/healthz", headers={"Host": "10.0.0.7"})
    finally:
        store.engine.dispose()
        store.engine = kept  # closed with the app, with whatever its sessions opened
    text = response.get_data(as_text=True)
    assert response.status_code == 503 and response.mimetype == "text/plain"
    assert text.startswith("database unreachable") and len(text) < 100 and "Traceback" not in text
    assert response.headers["Cache-Control"] == "no-store"
