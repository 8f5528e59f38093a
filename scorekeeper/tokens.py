"""Access tokens (API.md, "Access"): 128+ random bits, stored only as SHA-256 hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """A fresh URL-safe token carrying 192 random bits."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """The stored form; tokens are random enough that a plain hash cannot be reversed."""
    return hashlib.sha256(token.encode()).hexdigest()


def matches(token: str | None, stored_hash: str) -> bool:
    """Constant-time check of ``token`` against a stored hash."""
    return bool(token) and hmac.compare_digest(token_hash(token or ""), stored_hash)


def new_id() -> str:
    """A public identifier for games and tables: 64 random bits, 16 hex digits.

    Not a secret (the tokens are), but long enough that two games never draw the same id.
    """
    return secrets.token_hex(8)
