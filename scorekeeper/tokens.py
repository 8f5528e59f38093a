"""Access tokens (API.md, "Access"): 128+ random bits, stored only as SHA-256 hashes."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Sequence
from urllib.parse import unquote


def new_token() -> str:
    """A fresh URL-safe token carrying 192 random bits."""
    return secrets.token_urlsafe(24)


#: A set-up form's one-time mark (:func:`new_token`'s shape), from which the tokens it hands out derive.
ONCE = re.compile(r"[\w-]{32}", re.ASCII)


def tokens_of_form(once: object, key: bytes, sent: object, roles: Sequence[str] = ("s", "w")) -> tuple[str, ...] | None:
    """The tokens handed out by the set-up form marked ``once`` and sending ``sent`` (what it asks
    for, as JSON), one for each role (``None`` for a form without a well-formed mark): the same on a
    resend, so what the form made is found again (:func:`scorekeeper.games.made_by_form`,
    :func:`scorekeeper.virtual.service.made_by_form`), others for the form sent back changed, and
    as unguessable as :func:`new_token` without ``key``. A new game's roles are its scorer and
    watch tokens; a new table's its host's and each seat's."""
    if not isinstance(once, str) or not ONCE.fullmatch(once):
        return None
    asked = json.dumps(sent, sort_keys=True)
    made = (hmac.new(key, f"{once}:{asked}:{role}".encode(), hashlib.sha256).digest()[:24] for role in roles)
    return tuple(base64.urlsafe_b64encode(token).decode() for token in made)


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


# -- logs: a join link carries its token in the path (``/g/<id>/join/<token>?w=<watch token>``)
HIDDEN = "…"
JOIN = re.compile(r"(/join/)[^?#\s\"]+", re.IGNORECASE)  # slashes too: /join//<token> opens the same link
QUERY = re.compile(r"((?:^|[?&])(?:w|token)=)[^&#\s\"]+", re.IGNORECASE)  # ^: gunicorn's %(q)s has no "?"
#: Characters that would end or rewrite a log line (line breaks, NUL, terminal escapes), as decoding
#: ``%0a`` puts them there: written as Python escapes instead.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: Anything shaped like a token (:func:`new_token`: 32 URL-safe characters) wherever it stands, as in
#: a mistyped address: ``/x/<token>`` is a 404, and its line must not hold the token either.
TOKEN_LIKE = re.compile(r"(?<![\w-])[\w-]{32,}(?![\w-])", re.ASCII)


def redact(text: str) -> str:
    """A path, query, request line or Referer without the tokens it may carry, fit for one log line.

    Percent-escapes are decoded first, as the app decodes them before routing (``/joi%6E/…``
    opens the same join link), and again while any are left (``%2569`` is ``%69``, an escaped "i").
    A control character, decoded or not, is written as its escape: a request for
    ``/x%0a1.2.3.4 "GET /forged"`` must not add a line to the log that looks like a request.

    >>> redact("GET /g/3f2a9c1b0d5e6f70/join/Zm9vYmFyYmF6cXV4?w=c2VjcmV0 HTTP/1.1")
    'GET /g/3f2a9c1b0d5e6f70/join/…?w=… HTTP/1.1'
    >>> redact("/g/3f2a/joi%6E/Zm9v"), redact("w=c2Vj&x=1"), redact("/g/3f2a/join//Zm9v")
    ('/g/3f2a/join/…', 'w=…&x=1', '/g/3f2a/join/…')
    >>> redact("/g/3f2a/JOIN/Zm9v"), redact("/g/3f2a/jo%2569n/Zm9v"), redact("/x/" + "A" * 32 + "/y")
    ('/g/3f2a/JOIN/…', '/g/3f2a/join/…', '/x/…/y')
    >>> print(redact('/x%0a1.2.3.4 "GET /forged"'), redact("/x%250d%00"), redact("a\u2028b"))
    /x\\n1.2.3.4 "GET /forged" /x\\r\\x00 a\\u2028b
    """
    for _ in range(3):
        if "%" not in text or (decoded := unquote(text)) == text:
            break
        text = decoded
    text = QUERY.sub(r"\1" + HIDDEN, JOIN.sub(r"\1" + HIDDEN, text))
    return CONTROL.sub(lambda c: c[0].encode("unicode_escape").decode(), TOKEN_LIKE.sub(HIDDEN, text))
