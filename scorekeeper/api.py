"""The JSON API for table scorekeeping (API.md, "Scorekeeping")."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request, url_for

from . import services
from .extensions import csrf
from .services import Access, BadRequest, Forbidden

bp = Blueprint("api", __name__, url_prefix="/api")
csrf.exempt(bp)  # JSON calls carry a bearer token, not a cookie


def bearer() -> str | None:
    """The token of ``Authorization: Bearer <token>``."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def body() -> dict[str, Any]:
    """The JSON object sent, or a 400 naming the problem."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise BadRequest("The request body must be a JSON object.")
    return data


def access(game_id: str, write: bool = False) -> Access:
    """Open a game with the request's token; writing needs the scorer token (403 otherwise)."""
    opened = services.open_game(game_id, bearer())
    if write and not opened.can_write:
        raise Forbidden("This link can only watch the game; ask the scorer to make changes.")
    return opened


def links(game_id: str, scorer: str, watch: str) -> dict[str, str]:
    """Scorer and watch links: opening one swaps the token for a cookie (API.md, "Access")."""
    return {
        "scorer_url": url_for("pages.join", game_id=game_id, token=scorer, _external=True),
        "watch_url": url_for("pages.join", game_id=game_id, token=watch, _external=True),
    }


@bp.post("/games")
def create_game() -> Any:
    data = body()
    game, scorer, watch = services.create_game(
        data.get("players"), data.get("variant", "standard"), data.get("first_dealer", 0), data.get("options")
    )
    answer = services.document(game) | {"scorer_token": scorer, "watch_token": watch} | links(game.id, scorer, watch)
    return jsonify(answer), 201


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Any:
    return jsonify(services.document(access(game_id).game))


def _number(raw: str) -> int:
    if not raw.isdigit():
        raise BadRequest(f"{raw!r} is not a hand number.")
    return int(raw)


@bp.put("/games/<game_id>/hands/<n>/bids")
def put_bids(game_id: str, n: str) -> Any:
    access(game_id, write=True)
    data = body()
    if "bids" not in data:
        raise BadRequest("The body needs 'bids': one number per player, in seat order.")
    game = services.record_bids(game_id, _number(n), data["bids"], data.get("trump"), data.get("version"))
    return jsonify(services.document(game))


@bp.put("/games/<game_id>/hands/<n>/tricks")
def put_tricks(game_id: str, n: str) -> Any:
    access(game_id, write=True)
    data = body()
    if "tricks" not in data:
        raise BadRequest("The body needs 'tricks': one number per player, in seat order.")
    game = services.record_tricks(game_id, _number(n), data["tricks"], data.get("version"))
    return jsonify(services.document(game))


@bp.delete("/games/<game_id>/hands/<n>")
def delete_hand(game_id: str, n: str) -> Any:
    access(game_id, write=True)
    data = request.get_json(silent=True) if request.data else None
    version = data.get("version") if isinstance(data, dict) else request.args.get("version", type=int)
    game = services.undo(game_id, _number(n), version)
    return jsonify(services.document(game))


@bp.get("/games/<game_id>/version")
def get_version(game_id: str) -> Any:
    """Cheap polling for watchers: only the version number."""
    return jsonify({"version": access(game_id).game.version})


