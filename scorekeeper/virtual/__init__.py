"""Virtual mode: tables of human and bot seats playing a full game on several phones.

``bp`` holds the HTML pages (``/t/…``) and, nested in it, the JSON API (``/api/tables/…``).
Both answer refused requests through :mod:`.views`, the one place that decides what a seat sees.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint
from flask import g
from flask import request
from flask import Response

from .. import games
from ..engine import RulesError
from ..errors import ServiceError

bp = Blueprint("virtual", __name__)

from . import api  # noqa: E402  (the routes register themselves on the blueprints)
from . import pages  # noqa: E402  (the routes register themselves on the blueprints)

bp.register_blueprint(api.bp)


@bp.app_context_processor
def game_helpers() -> dict[str, Any]:
    """For the shared templates: ``virtual_bots(game)`` (which seats a bot played, for the scorecard
    and standings) and ``virtual_tables()`` (the tables this browser holds a link to, for home)."""
    return {"virtual_bots": games.bot_seats, "virtual_tables": pages.tables_on_this_phone}


@bp.after_request
def private(response: Response) -> Response:
    """A seat's cards are private: never cached (security headers: ``web.security_headers``)."""
    response.headers.setdefault("Cache-Control", "no-store")
    response.vary.add("X-Partial")
    return response


@bp.errorhandler(RulesError)
@bp.errorhandler(ServiceError)
def refused(error: Exception) -> Any:
    """A refused request, answered for the reader who sent it (hidden cards redacted)."""
    access = g.get("vt_access")
    if request.path.startswith("/api/") or request.endpoint in pages.JSON_ENDPOINTS:
        return api.refused(access, error)
    return pages.refused(access, error)
