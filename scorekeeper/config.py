"""Settings from the environment (API.md; README, "Configuration" and "Running it on the internet")."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from limits import parse_many
from limits.errors import ConfigurationError
from limits.storage import storage_from_string
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.exc import NoSuchModuleError

#: Optional: where the instance folder lives (the default SQLite file and the generated secret key).
INSTANCE_ENV = "SCOREKEEPER_INSTANCE_PATH"


def instance_path(overrides: Mapping[str, Any] | None) -> str | None:
    """The instance folder asked for by ``INSTANCE_PATH`` in the overrides or the environment.

    ``None`` keeps Flask's default (``instance/`` beside the package). Flask wants it absolute.
    """
    path = (overrides or {}).get("INSTANCE_PATH") or os.environ.get(INSTANCE_ENV)
    return os.path.abspath(path) if path else None


def database_url(url: str) -> str:
    """Use psycopg 3 for bare ``postgres://`` and ``postgresql://`` URLs (psycopg2 is not installed).

    A URL SQLAlchemy cannot read, or of a database it has no driver for, stops the app from
    starting with a sentence naming ``SCOREKEEPER_DATABASE_URL`` (not the URL: it may hold a password).

    >>> database_url("postgres://bluke@db/bluke"), database_url("")
    ('postgresql+psycopg://bluke@db/bluke', '')
    >>> database_url("bluke.sqlite")
    Traceback (most recent call last):
    ValueError: SCOREKEEPER_DATABASE_URL must be a database URL such as 'postgresql+psycopg://user@host:5432/name' or 'sqlite:////path/to/file.sqlite'; this one cannot be used (a mistyped scheme or driver?).
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            url = "postgresql+psycopg://" + url[len(prefix) :]
    if url:
        try:
            make_url(url).get_dialect().import_dbapi()
        except (ArgumentError, NoSuchModuleError, ImportError):
            raise ValueError(
                "SCOREKEEPER_DATABASE_URL must be a database URL such as 'postgresql+psycopg://user@host:5432/name'"
                " or 'sqlite:////path/to/file.sqlite'; this one cannot be used (a mistyped scheme or driver?)."
            ) from None
    return url


def storage_url(url: str | None) -> str:
    """``SCOREKEEPER_RATELIMIT_STORAGE_URL`` (``memory://`` when unset), of a kind the rate limiter
    knows; another stops the app from starting with a sentence naming the variable.

    >>> storage_url(None), storage_url("redis://127.0.0.1:6379/0")
    ('memory://', 'redis://127.0.0.1:6379/0')
    >>> storage_url("127.0.0.1:6379")
    Traceback (most recent call last):
    ValueError: SCOREKEEPER_RATELIMIT_STORAGE_URL must be a URL such as 'redis://127.0.0.1:6379/0'; this one names no kind of storage the rate limiter knows.
    """
    if not url:
        return "memory://"
    try:
        storage_from_string(url)  # reads the URL; connects to nothing
    except ConfigurationError:
        raise ValueError(
            "SCOREKEEPER_RATELIMIT_STORAGE_URL must be a URL such as 'redis://127.0.0.1:6379/0'; this one names no"
            " kind of storage the rate limiter knows."
        ) from None
    return url


def _secret_key(instance: Path) -> str:
    """``SCOREKEEPER_SECRET_KEY``, else a key generated once and kept in the instance folder.

    Several server processes may start at once: the key is written to a private temporary file
    and linked into place, so exactly one key wins and nobody reads a half-written file.
    """
    if key := os.environ.get("SCOREKEEPER_SECRET_KEY"):
        return key
    path = instance / "secret_key"
    if not path.exists():
        scratch = instance / f".secret_key.{os.getpid()}.{secrets.token_hex(4)}"
        fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w") as file:
                file.write(secrets.token_hex(32))
            try:
                os.link(scratch, path)
            except FileExistsError:
                pass  # another process was first: use its key
        finally:
            scratch.unlink()
    return path.read_text().strip()


def hosts(text: str | None) -> list[str] | None:
    """``SCOREKEEPER_TRUSTED_HOSTS``: comma-separated host names (``None``: any host is answered).

    Host names are compared as browsers send them, in lower case.

    >>> hosts("Bluke.example, .bluke.example"), hosts(""), hosts(None)
    (['bluke.example', '.bluke.example'], None, None)
    """
    names = [name.strip().lower() for name in (text or "").split(",") if name.strip()]
    return names or None


def proxies(text: str | None) -> int:
    """``SCOREKEEPER_PROXIES``: how many reverse proxies stand in front of the app (0 to 5).

    Their ``X-Forwarded-For``/``-Proto``/``-Host`` headers are believed only from that many hops,
    so a client cannot claim another address (rate limits) or HTTPS (Secure cookies) by itself.
    """
    value = (text or "0").strip()
    if not (value.isascii() and value.isdigit() and int(value) <= 5):
        raise ValueError(f"SCOREKEEPER_PROXIES must be a number of proxies from 0 to 5, not {value!r}.")
    return int(value)


#: The rate-limit budgets (limits.py) and the variables that set them.
BUDGETS = {
    "RATELIMIT_CREATE": "SCOREKEEPER_RATELIMIT_CREATE",
    "RATELIMIT_IMPORT": "SCOREKEEPER_RATELIMIT_IMPORT",
    "RATELIMIT_RENDER": "SCOREKEEPER_RATELIMIT_RENDER",
    "RATELIMIT_ROSTER": "SCOREKEEPER_RATELIMIT_ROSTER",
}


def check_budget(name: str, value: str) -> None:
    """A budget Flask-Limiter can read: it drops one it cannot, and the limit is then off.

    >>> check_budget("RATELIMIT_CREATE", "10 per minute; 200 per hour")
    >>> check_budget("RATELIMIT_CREATE", "ten per minute")
    Traceback (most recent call last):
    ValueError: SCOREKEEPER_RATELIMIT_CREATE must be limits such as '10 per minute; 200 per hour', not 'ten per minute'.
    """
    try:
        parse_many(value)
    except ValueError:
        raise ValueError(
            f"{BUDGETS[name]} must be limits such as '10 per minute; 200 per hour', not {value!r}."
        ) from None


def load_config(app: Flask, overrides: Mapping[str, Any] | None) -> None:
    """Fill ``app.config`` from defaults, the environment, then ``overrides``."""
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    overrides = dict(overrides or {})
    overrides.pop("INSTANCE_PATH", None)  # used by create_app already
    app.config.update(
        SQLALCHEMY_DATABASE_URI=database_url(os.environ.get("SCOREKEEPER_DATABASE_URL") or "")
        or f"sqlite:///{instance / 'scorekeeper.sqlite'}",
        # A pooled connection the database dropped (PostgreSQL restarted, an idle connection cut) is
        # found when taken from the pool and replaced, instead of failing the next request with a 500.
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        ALLOW_SEED=os.environ.get("SCOREKEEPER_ALLOW_SEED") == "1",
        MIGRATIONS_DIR=str(Path(app.root_path).parent / "migrations"),
        # A phone left open for a whole game must still save: CSRF tokens never expire (issue 3).
        WTF_CSRF_TIME_LIMIT=None,
        # Over HTTPS Flask-WTF also wants a same-origin Referer, which no browser sends here: every
        # answer says "Referrer-Policy: no-referrer" (web.py), so each cookie write would be refused.
        # The token, and the session cookie that holds it (SameSite=Lax), are the check.
        WTF_CSRF_SSL_STRICT=False,
        SESSION_COOKIE_SAMESITE="Lax",
        # The session (its CSRF token) lasts as long as a game cookie may, sent again only when it changes.
        PERMANENT_SESSION_LIFETIME=timedelta(days=180),  # web.COOKIE_AGE
        SESSION_REFRESH_EACH_REQUEST=False,
        SESSION_COOKIE_HTTPONLY=True,
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        TRUSTED_HOSTS=hosts(os.environ.get("SCOREKEEPER_TRUSTED_HOSTS")),
        PROXIES=proxies(os.environ.get("SCOREKEEPER_PROXIES")),
        # Rate limits per client address (limits.py); counted in Redis when several processes serve.
        RATELIMIT_ENABLED=True,
        RATELIMIT_STORAGE_URI=storage_url(os.environ.get("SCOREKEEPER_RATELIMIT_STORAGE_URL")),
        RATELIMIT_STRATEGY="moving-window",
        RATELIMIT_KEY_PREFIX="scorekeeper",
        # A Redis that cannot be reached or stops answering costs a request half a second at most,
        # never fails it, and each process counts alone in memory (the same budgets) until Redis
        # answers again (asked after 1, 2, 4 … s). A try gives up after a quarter of a second: the
        # request that finds Redis gone tries twice (Flask-Limiter asks it again at once).
        RATELIMIT_STORAGE_OPTIONS={"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
        RATELIMIT_IN_MEMORY_FALLBACK_ENABLED=True,
        RATELIMIT_SWALLOW_ERRORS=True,
        RATELIMIT_CREATE=os.environ.get("SCOREKEEPER_RATELIMIT_CREATE") or "10 per minute; 200 per hour",
        RATELIMIT_IMPORT=os.environ.get("SCOREKEEPER_RATELIMIT_IMPORT") or "10 per minute; 100 per hour",
        RATELIMIT_RENDER=os.environ.get("SCOREKEEPER_RATELIMIT_RENDER") or "10 per minute; 120 per hour",
        RATELIMIT_ROSTER=os.environ.get("SCOREKEEPER_RATELIMIT_ROSTER") or "20 per minute; 200 per hour",
    )
    if "DATABASE_URL" in overrides:
        overrides["SQLALCHEMY_DATABASE_URI"] = overrides.pop("DATABASE_URL")
    app.config.update(overrides)
    for name in BUDGETS:
        check_budget(name, app.config[name])
    if "SECRET_KEY" not in overrides:
        app.config["SECRET_KEY"] = _secret_key(instance)
