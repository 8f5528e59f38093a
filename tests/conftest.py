"""Fixtures as in Flask's tutorial: ``app``, ``client``, ``runner``.

Every test that uses ``app`` runs on SQLite, and again on PostgreSQL when ``TEST_DATABASE_URL``
is set (``.ci/run`` sets it to the local server).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask.testing import FlaskCliRunner

from scorekeeper import create_app
from scorekeeper.extensions import db

TRANSLATIONS = Path(__file__).resolve().parent.parent / "scorekeeper" / "translations"
BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


def database_url(backend: str, tmp_path: Path) -> str:
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite'}"
    return os.environ["TEST_DATABASE_URL"]


def make_app(url: str, **config: Any) -> Flask:
    """A test app on a fresh schema; rate limits are off unless a test turns them on (test_limits.py)."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "test-secret",
            "ALLOW_SEED": True,
            "RATELIMIT_ENABLED": False,
            **config,
        }
    )
    with app.app_context():
        db.drop_all()
        db.create_all()
    return app


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogs() -> None:
    """The app reads compiled catalogs: build each .mo from its .po, as ``make catalogs`` does."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in TRANSLATIONS.glob("*/LC_MESSAGES/messages.po"):
        with po.open("rb") as source:
            catalog = read_po(source)
        with po.with_suffix(".mo").open("wb") as target:
            write_mo(target, catalog)


@pytest.fixture(params=BACKENDS)
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    app = make_app(database_url(request.param, tmp_path))
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real Redis for the rate-limit tests: ``TEST_REDIS_URL``, else database 12 of the local
    server (127.0.0.1:6379, as on CI), else a private ``redis-server`` started for the session."""
    if url := os.environ.get("TEST_REDIS_URL"):
        yield url
        return
    if _listening(6379):
        yield "redis://127.0.0.1:6379/12"
        return
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("no Redis: start one on 127.0.0.1:6379, set TEST_REDIS_URL, or install redis-server")
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while not _listening(port):
        assert process.poll() is None and time.monotonic() < deadline, "redis-server did not start"
        time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/12"
    process.terminate()
    process.wait(timeout=10)


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", port)) == 0
