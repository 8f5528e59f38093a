"""Error answers: one JSON shape for the API (API.md, "Errors"), friendly pages for people."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask import jsonify
from flask import make_response
from flask import render_template
from flask import request
from flask import Response
from flask import url_for
from flask_limiter.errors import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException
from werkzeug.exceptions import SecurityError

from .engine import RulesError
from .i18n import _
from .i18n import N_
from .i18n import rules_message

NO_GAME = N_("No game with that link: check the address, or ask the scorer for a new link.")
WATCH_ONLY = N_("This link can only watch the game; ask the scorer to make changes.")
UNKNOWN_HOST = N_("This server does not answer for that host name; nothing was saved.")
#: A form sent without any of the site's cookies: the browser keeps none (cookies blocked, as iOS's
#: "Block All Cookies"), and its form's token, its game and its group live in them.
NO_COOKIES = N_(
    "This browser keeps no cookies for this site, so nothing was saved: allow cookies for this site, then try again."
)


#: Under a "not found" page when the browser sent no cookie at all: a link's page finds its game by
#: the cookie the link set, so where cookies are blocked every link ends here.
NO_COOKIES_LINK = N_(
    "If you just opened a link: this browser keeps no cookies for this site, and the link needs one. Allow cookies "
    "for this site, then open the link again."
)


def stale_form(message: str) -> str:
    """A refused form's ``message``, or :data:`NO_COOKIES` when the browser sent no cookie at all:
    "out of date" at every tap would not tell a player what is wrong."""
    return message if request.cookies else _(NO_COOKIES)


#: What a client was doing too often (limits.py), by the limit's scope; ``{seconds}`` to wait.
TOO_OFTEN = {
    "create": N_(
        "Too many new games, tables and groups from your address in a short time. Try again in {seconds} s; "
        "nothing was saved."
    ),
    "import": N_("Too many imports from your address in a short time. Try again in {seconds} s; nothing was saved."),
    "render": N_("Too many printouts from your address in a short time. Try again in {seconds} s."),
    "export": N_("Too many whole-group exports from your address in a short time. Try again in {seconds} s."),
    "roster": N_(
        "Too many changes to a group's players and games from your address in a short time. Try again in {seconds} s; "
        "nothing was changed."
    ),
}
TOO_OFTEN_OTHER = N_("Too many requests from your address in a short time. Try again in {seconds} s.")


class ServiceError(Exception):
    """A refused request that is not a broken game rule; carries the API error code."""

    status = 400
    code = "bad_request"

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message, self.rule = message, rule


class BadRequest(ServiceError):
    """The request body is malformed (400)."""


class Forbidden(ServiceError):
    """A watch token tried to write (403)."""

    status, code = 403, "forbidden"


class NotFound(ServiceError):
    """Unknown game or wrong token: existence is not revealed (404)."""

    status, code = 404, "not_found"


class Conflict(ServiceError):
    """The request was based on an older ``version`` of the game (409)."""

    status, code = 409, "conflict"


CODES = {
    400: "bad_request",
    403: "forbidden",
    404: "not_found",
    405: "bad_request",
    409: "conflict",
    413: "too_large",
    415: "bad_request",
    422: "rule_violation",
    429: "rate_limited",
}


#: PostgreSQL's codes for a transaction rolled back because others held what it needed: a
#: serialisation failure, a deadlock broken, a lock not granted.
LOST_TURN = frozenset({"40001", "40P01", "55P03"})


def contended(error: OperationalError) -> bool:
    """Whether a write stored nothing only because others were writing: SQLite's lock held past the
    busy timeout, or one of :data:`LOST_TURN` (anything else, such as a missing table, is a fault)."""
    return "database is locked" in str(error.orig) or getattr(error.orig, "sqlstate", None) in LOST_TURN


def error_body(status: int, message: str, rule: str | None = None, code: str | None = None) -> dict[str, Any]:
    """``{"error": {"code", "rule", "message"}}``."""
    return {"error": {"code": code or CODES.get(status, "server_error"), "rule": rule, "message": message}}


def rules_status(error: RulesError) -> tuple[int, str | None, str]:
    """Status, rule and code of an engine error: 422 naming its rule, or 400 when the engine names
    none (the input is malformed, not against the rules: an unknown option)."""
    if not error.rule:
        return 400, None, "bad_request"
    return 422, error.rule, "rule_violation"


def wants_json() -> bool:
    """API paths (even unknown ones) always answer JSON; pages answer HTML."""
    return request.path == "/api" or request.path.startswith("/api/")


def error_page(status: int, message: str, rule: str | None = None, found_by_cookie: bool = False) -> Any:
    """The error page. Under a 404 of a page that finds its game, table or group by a cookie, when
    the browser sent no cookie at all, :data:`NO_COOKIES_LINK`."""
    hint = _(NO_COOKIES_LINK) if found_by_cookie and status == 404 and not request.cookies else None
    return render_template("error.html", status=status, message=message, rule=rule, hint=hint), status


def _answer(
    status: int, message: str, rule: str | None = None, code: str | None = None, found_by_cookie: bool = False
) -> Any:
    if wants_json():
        return jsonify(error_body(status, message, rule, code)), status
    return error_page(status, message, rule, found_by_cookie)


def register(app: Flask) -> None:
    """Map engine and service errors, and Werkzeug's, to one answer shape."""

    @app.errorhandler(RulesError)
    def rules_error(error: RulesError) -> Any:
        status, rule, code = rules_status(error)
        return _answer(status, rules_message(error), rule, code)

    @app.errorhandler(ServiceError)
    def service_error(error: ServiceError) -> Any:
        return _answer(error.status, error.message, error.rule, error.code, found_by_cookie=True)

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> Any:
        # Said apart from any other 400 in a header: the scorer's offline queue asks for a fresh
        # token then, and shows any other refusal (static/queue-rare.js), whatever the language.
        answer = make_response(
            _answer(400, stale_form(_("This form was out of date. Please try again: nothing was saved.")))
        )
        answer.headers["X-Bluke-CSRF"] = "refused"
        return answer

    @app.errorhandler(RateLimitExceeded)
    def rate_limited(error: RateLimitExceeded) -> Any:
        from .limits import retry_after

        seconds = retry_after()
        message = _(TOO_OFTEN.get(str(error.limit.scope), TOO_OFTEN_OTHER), seconds=seconds)
        if wants_json() or request.method != "POST" or request.endpoint is None:
            answer = make_response(_answer(429, message))
        else:  # a form refused: what was typed comes back as a form to send again, not lost
            again = url_for(request.endpoint, **(request.view_args or {}))
            again += "?" + request.query_string.decode() if request.query_string else ""
            fields = list(request.form.items(multi=True))
            page = render_template("error.html", status=429, message=message, again=again, fields=fields)
            answer = make_response(page, 429)
        answer.headers["Retry-After"] = str(seconds)
        return answer

    @app.errorhandler(OperationalError)
    def database_busy(error: OperationalError) -> Any:
        """A write that lost its turn (:func:`contended`: many phones writing at once): nothing was
        written, so the answer says to try again, as the scorer's queue does."""
        if not contended(error):
            raise error
        answer = make_response(_answer(503, _("The server is busy with other phones; nothing was saved. Try again.")))
        answer.headers["Retry-After"] = "1"
        return answer

    @app.errorhandler(SecurityError)
    def untrusted_host(error: SecurityError) -> Any:
        """An untrusted ``Host`` (``SCOREKEEPER_TRUSTED_HOSTS``): answered without building any link."""
        if wants_json():
            return jsonify(error_body(400, _(UNKNOWN_HOST))), 400
        return Response(_(UNKNOWN_HOST) + "\n", 400, mimetype="text/plain")

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        status = error.code or 500
        messages = {
            400: N_("The request could not be understood; nothing was saved."),
            404: N_("There is nothing at this address."),
            405: N_("{method} is not possible at this address."),
            413: N_("That request is too large; nothing was saved."),
            500: N_("Something went wrong on the server; nothing was saved. Please try again."),
        }
        known = messages.get(status)
        message = _(known, method=request.method) if known else error.description or _("Bad request.")
        answer = make_response(_answer(status, message))
        allow = getattr(error, "valid_methods", None)
        if allow:  # a 405 says what is possible, as HTTP asks
            answer.headers["Allow"] = ", ".join(allow)
        return answer
