"""Fixtures as in Flask's tutorial: ``app``, ``client``, ``runner``.

Every test that uses ``app`` runs on SQLite, and again on PostgreSQL when ``TEST_DATABASE_URL``
is set (``.ci/run`` sets it to the local server).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper import create_app
from scorekeeper.extensions import db

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


def database_url(backend: str, tmp_path: Path) -> str:
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite'}"
    return os.environ["TEST_DATABASE_URL"]


def make_app(url: str, **config: Any) -> Flask:
    """A test app on a fresh schema; rate limits are off unless a test turns them on (test_limits.py)."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test-secret",
                      "ALLOW_SEED": True, "RATELIMIT_ENABLED": False, **config})
    with app.app_context():
        db.drop_all()
        db.create_all()
    return app


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
