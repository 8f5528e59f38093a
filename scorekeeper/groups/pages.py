"""HTML pages of groups: create one, join by link, the group's home, a player's page, sharing.

A group link swaps its token for an HttpOnly cookie (``skg_<id>``, path ``/``) and redirects to
the clean address, as game links do (API.md, "Access"); the home page lists the groups whose
cookies this phone holds.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..extensions import csrf
from ..models import Group
from ..web import COOKIE_AGE, POLICY
from . import service, stats

bp = Blueprint("groups", __name__)
csrf.exempt(bp)  # every POST validates its own Flask-WTF form (token included), as table pages do

def page_group(group_id: str) -> Group:
    """The group opened with this browser's cookie; 404 without it."""
    return service.open_group(group_id, request.cookies.get(service.GROUP_COOKIE + group_id))


def remember(response: BaseResponse, group_id: str, token: str) -> BaseResponse:
    """Keep a group's token in an HttpOnly cookie that the home page can read."""
    response.set_cookie(service.GROUP_COOKIE + group_id, token, max_age=COOKIE_AGE, httponly=True, samesite="Lax",
                        secure=request.is_secure)
    return response


@bp.after_request
def security_headers(response: Response) -> Response:
    """As the game pages: no inline script or style, no token in a Referer, never cached."""
    response.headers.setdefault("Content-Security-Policy", POLICY)
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Cache-Control", "private, no-store")
    return response


@bp.get("/groups/<group_id>/join/<token>")
def join(group_id: str, token: str) -> Any:
    """Swap a group link's token for a cookie and go to the group's clean address."""
    group = service.open_group(group_id, token)
    return remember(redirect(url_for(".home", group_id=group.id)), group.id, token)


@bp.get("/groups/<group_id>")
def home(group_id: str) -> Any:
    """The group's home: leaderboard, roster, games (newest first), new game and new virtual table."""
    season = stats.season(page_group(group_id))
    return render_template("groups/home.html", season=season, group=season.group)
