"""Settings from the environment (API.md, "Running and configuration")."""

from __future__ import annotations

import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper import create_app
from scorekeeper.config import _secret_key
from scorekeeper.extensions import db

ENV = (
    "SCOREKEEPER_DATABASE_URL",
    "SCOREKEEPER_SECRET_KEY",
    "SCOREKEEPER_ALLOW_SEED",
    "SCOREKEEPER_INSTANCE_PATH",
    "SCOREKEEPER_TRUSTED_HOSTS",
    "SCOREKEEPER_PROXIES",
    "SCOREKEEPER_RATELIMIT_STORAGE_URL",
)


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """No SCOREKEEPER_* variable leaks in from the shell; the instance folder is a temporary one."""
    for name in ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    yield


def make(config: dict[str, object] | None = None) -> Flask:
    app = create_app(config)
    with app.app_context():
        db.engine.dispose()  # nothing is connected yet; keep it that way
    return app


def test_defaults_keep_the_database_and_key_in_the_instance_folder(tmp_path: Path) -> None:
    app = make()
    instance = tmp_path / "instance"
    assert app.instance_path == str(instance)
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{instance / 'scorekeeper.sqlite'}"
    assert app.config["ALLOW_SEED"] is False
    key = (instance / "secret_key").read_text()
    assert app.config["SECRET_KEY"] == key and len(key) == 64
    assert stat.S_IMODE((instance / "secret_key").stat().st_mode) == 0o600
    assert stat.S_IMODE((instance / "scorekeeper.sqlite").stat().st_mode) == 0o600  # it holds hidden hands
    assert sorted(p.name for p in instance.iterdir()) == ["scorekeeper.sqlite", "secret_key"]  # no scratch files


def test_the_generated_key_is_reused_and_differs_per_instance_folder(tmp_path: Path) -> None:
    first, second = make(), make()
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    elsewhere = make({"INSTANCE_PATH": str(tmp_path / "elsewhere")})
    assert elsewhere.instance_path == str(tmp_path / "elsewhere")
    assert elsewhere.config["SECRET_KEY"] != first.config["SECRET_KEY"]


def test_processes_starting_together_agree_on_one_key(tmp_path: Path) -> None:
    folder = tmp_path / "together"
    folder.mkdir()
    barrier, keys = threading.Barrier(8), []

    def start() -> None:
        barrier.wait()
        keys.append(_secret_key(folder))

    threads = [threading.Thread(target=start) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(keys) == 8 and len(set(keys)) == 1
    assert [p.name for p in folder.iterdir()] == ["secret_key"]


def test_environment_variables_are_honoured(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", f"sqlite:///{tmp_path / 'elsewhere.sqlite'}")
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "from-the-environment")
    monkeypatch.setenv("SCOREKEEPER_ALLOW_SEED", "1")
    app = make()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'elsewhere.sqlite'}"
    assert app.config["SECRET_KEY"] == "from-the-environment"
    assert app.config["ALLOW_SEED"] is True
    assert not (tmp_path / "instance" / "secret_key").exists()


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgresql+psycopg://postgres@127.0.0.1:5432/test", "postgresql+psycopg://postgres@127.0.0.1:5432/test"),
        ("postgresql://postgres@db/scores", "postgresql+psycopg://postgres@db/scores"),
        ("postgres://postgres@db/scores", "postgresql+psycopg://postgres@db/scores"),
    ],
)
def test_postgresql_urls_use_psycopg_3(monkeypatch: pytest.MonkeyPatch, url: str, expected: str) -> None:
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", url)
    app = make()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == expected
    with app.app_context():
        assert db.engine.dialect.driver == "psycopg"


@pytest.mark.parametrize("value", ["0", "", "yes", "true"])
def test_seeding_needs_exactly_1(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("SCOREKEEPER_ALLOW_SEED", value)
    assert make().config["ALLOW_SEED"] is False


def test_the_config_mapping_overrides_everything(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "from-the-environment")
    monkeypatch.setenv("SCOREKEEPER_ALLOW_SEED", "1")
    app = make(
        {
            "SECRET_KEY": "given",
            "ALLOW_SEED": False,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite'}",
            "MAX_CONTENT_LENGTH": 1000,
        }
    )
    assert app.config["SECRET_KEY"] == "given" and app.config["ALLOW_SEED"] is False
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'x.sqlite'}"
    assert app.config["MAX_CONTENT_LENGTH"] == 1000


def test_a_seed_is_refused_by_an_app_started_without_the_variable(tmp_path: Path) -> None:
    app = make({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'seed.sqlite'}"})
    with app.app_context():
        db.create_all()
    try:
        client = app.test_client()
        response = client.post("/api/games", json={"players": ["Ann", "Ben"], "seed": 1})
        assert response.status_code == 400 and response.get_json()["error"]["code"] == "bad_request"
        assert client.post("/api/games", json={"players": ["Ann", "Ben"]}).status_code == 201
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
