"""What every feature's routes share: reading a request's token and JSON body, cookies, headers."""

from __future__ import annotations

import json
from typing import Any

from flask import Response, current_app, request

from .errors import BadRequest
from .games import Access, check_seed, open_game

COOKIE_PREFIX = "sk_"  # the game's token (scorer or watch), path /
WATCH_PREFIX = "skw_"  # the scorer's copy of the watch token, path /g/<id>/, to show the share page
COOKIE_AGE = 60 * 60 * 24 * 180
POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
          "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def cookie_token(game_id: str) -> str | None:
    """The token this browser holds for a game (set by :func:`join`)."""
    return request.cookies.get(COOKIE_PREFIX + game_id)


def reader(game_id: str) -> Access:
    """Open a game for reading with the Bearer token, else this browser's page cookie (404 otherwise)."""
    return open_game(game_id, bearer() or cookie_token(game_id))


def no_store(response: Response) -> Response:
    """API answers (errors included) carry tokens and change with every write: never cache them."""
    if request.path == "/api" or request.path.startswith("/api/"):
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def bearer() -> str | None:
    """The token of ``Authorization: Bearer <token>``."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def body(required: bool = True) -> dict[str, Any]:
    """The JSON object sent (whatever the Content-Type), or a 400 that says what is wrong with it.

    A ``seed`` is refused here unless the app allows seeding (API.md, "Running and configuration").
    """
    raw = request.get_data(cache=True)  # a body over MAX_CONTENT_LENGTH is a 413 here
    if not raw.strip():
        if not required:
            return {}
        raise BadRequest("The request needs a JSON object as its body, such as {\"bids\": [2, 1, 3]}.")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise BadRequest("The request body is not valid JSON; send a JSON object such as {\"bids\": [2, 1, 3]}.") from None
    if not isinstance(data, dict):
        raise BadRequest(f"The request body must be a JSON object ({{…}}), not {type_name(data)}.")
    check_seed(data, current_app.config["ALLOW_SEED"])
    return data


def type_name(value: object) -> str:
    """How JSON calls a value's type, for messages."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true or false"
    if value is None:
        return "null"
    return "a number"


