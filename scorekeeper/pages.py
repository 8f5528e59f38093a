"""HTML pages for table scorekeeping (home, join links)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for

from . import services

bp = Blueprint("pages", __name__)

COOKIE_PREFIX = "sk_"
COOKIE_AGE = 60 * 60 * 24 * 180


def cookie_token(game_id: str) -> str | None:
    """The token this browser holds for a game (set by :func:`join`)."""
    return request.cookies.get(COOKIE_PREFIX + game_id)


def page_access(game_id: str) -> services.Access:
    """Open a game with this browser's cookie; 404 without one."""
    return services.open_game(game_id, cookie_token(game_id))


@bp.get("/")
def home() -> Any:
    return render_template("home.html")


@bp.get("/g/<game_id>/join/<token>")
def join(game_id: str, token: str) -> Any:
    """Swap a link's token for an HttpOnly cookie and redirect to the clean game URL (API.md)."""
    opened = services.open_game(game_id, token)
    response = redirect(url_for("pages.game", game_id=opened.game.id))
    response.set_cookie(COOKIE_PREFIX + game_id, token, max_age=COOKIE_AGE, httponly=True,
                        samesite="Lax", secure=request.is_secure)
    return response


@bp.get("/g/<game_id>")
def game(game_id: str) -> Any:
    opened = page_access(game_id)
    return render_template("game.html", game=opened.game, role=opened.role,
                           doc=services.document(opened.game))
