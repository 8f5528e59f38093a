"""Settings from the environment (API.md): database URL, secret key, seeding for tests."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask


def _secret_key(instance: Path) -> str:
    """``SCOREKEEPER_SECRET_KEY``, else a key generated once and kept in the instance folder."""
    if key := os.environ.get("SCOREKEEPER_SECRET_KEY"):
        return key
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def load_config(app: Flask, overrides: Mapping[str, Any] | None) -> None:
    """Fill ``app.config`` from defaults, the environment, then ``overrides``."""
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    overrides = dict(overrides or {})
    app.config.update(
        SQLALCHEMY_DATABASE_URI=os.environ.get("SCOREKEEPER_DATABASE_URL")
        or f"sqlite:///{instance / 'scorekeeper.sqlite'}",
        ALLOW_SEED=os.environ.get("SCOREKEEPER_ALLOW_SEED") == "1",
        MIGRATIONS_DIR=str(Path(app.root_path).parent / "migrations"),
        # A phone left open for a whole game must still save: CSRF tokens never expire (issue 3).
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        JSON_SORT_KEYS=False,
    )
    if "DATABASE_URL" in overrides:
        overrides["SQLALCHEMY_DATABASE_URI"] = overrides.pop("DATABASE_URL")
    app.config.update(overrides)
    if "SECRET_KEY" not in overrides:
        app.config["SECRET_KEY"] = _secret_key(instance)
