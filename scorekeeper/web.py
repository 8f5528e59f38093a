"""What every feature's routes share: reading a request's token and JSON body, cookies, headers."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any

import segno
from flask import current_app
from flask import Flask
from flask import request
from flask import Response
from flask.sessions import SecureCookieSessionInterface
from flask.sessions import SessionMixin
from markupsafe import Markup
from werkzeug.exceptions import RequestEntityTooLarge

from .errors import BadRequest
from .games import Access
from .games import check_seed
from .games import open_game
from .i18n import _

COOKIE_PREFIX = "sk_"  # the game's token (scorer or watch), path /
WATCH_PREFIX = "skw_"  # the scorer's copy of the watch token, path /g/<id>/, to show the share page
COOKIE_AGE = 60 * 60 * 24 * 180
POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: A PDF shown inline: a browser's PDF viewer is a plugin that ``object-src 'none'`` would block.
PDF_POLICY = "default-src 'self'; frame-ancestors 'none'"
#: Tells browsers to come back over HTTPS only (sent on answers over HTTPS, RFC 6797).
HSTS = "max-age=31536000"


def token_cookie(**more: Any) -> dict[str, Any]:
    """The options of every cookie that holds a token, set or cleared: HttpOnly, SameSite=Lax,
    and Secure over HTTPS (README, "Running it on the internet")."""
    return {"httponly": True, "samesite": "Lax", "secure": request.is_secure, **more}


def cookies_with(prefixes: tuple[str, ...], most: int) -> list[tuple[str, str]]:
    """``(id, token)`` of this browser's first ``most`` cookies named with one of ``prefixes``.

    The home page opens each with a database lookup, so it looks at no more than ``most``,
    however many cookies a request carries (valid or not).
    """
    found: list[tuple[str, str]] = []
    for name, token in request.cookies.items():
        prefix = next((p for p in prefixes if name.startswith(p)), None)
        if prefix is not None:
            found.append((name[len(prefix) :], token))
            if len(found) == most:
                break
    return found


def cookie_token(game_id: str) -> str | None:
    """The token this browser holds for a game (set by :func:`join`)."""
    return request.cookies.get(COOKIE_PREFIX + game_id)


def reader(game_id: str) -> Access:
    """Open a game for reading with the Bearer token, else this browser's page cookie (404 otherwise)."""
    return open_game(game_id, bearer() or cookie_token(game_id))


def download(data: str | Iterable[str] | Iterable[bytes], mimetype: str, filename: str) -> Response:
    """A file to save (``attachment``), never cached: it holds the players' names."""
    return Response(
        data,
        mimetype=mimetype,
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "private, no-store",
        },
    )


def csv_download(text: str, filename: str) -> Response:
    """A CSV file to save; ``?bom=1`` (the pages' links) starts it with a UTF-8 byte-order mark,
    without which Excel reads it in the computer's own code page: Cyrillic headers and names, and
    any accent, garbled. Scripts get the file as before (README, "Export format")."""
    return download(("\ufeff" if request.args.get("bom") == "1" else "") + text, "text/csv", filename)


def qr_svg(url: str, title: str | None = None, **style: Any) -> Markup:
    """``url`` as a QR code in inline SVG, black on white, error level M, with the quiet zone of four
    modules the QR standard asks for (with less, a dark page around it in dark mode can keep a
    camera from finding the code); ``style`` passes on segno's other ``svg_inline`` options
    (``svgclass``, ``omitsize``)."""
    code = segno.make(url, error="m")
    return Markup(code.svg_inline(scale=4, border=QUIET_ZONE, dark="#000", light="#fff", title=title, **style))


#: Modules of white around a QR code (ISO/IEC 18004).
QUIET_ZONE = 4


def no_store(response: Response) -> Response:
    """API answers (errors included) carry tokens and change with every write: never cache them."""
    if request.path == "/api" or request.path.startswith("/api/"):
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def security_headers(response: Response) -> Response:
    """Every answer (page, JSON, PDF, export, static file, error) gets the same protections.

    No page can be framed and no inline script or style runs (names are text, the CSP is the
    second lock); no token leaves in a ``Referer``; nothing is sniffed into another type; over
    HTTPS the browser is told to stay on HTTPS. A view may set its own values first.
    """
    headers = response.headers
    pdf = response.mimetype == "application/pdf"
    headers.setdefault("Content-Security-Policy", PDF_POLICY if pdf else POLICY)
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("Referrer-Policy", "no-referrer")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    if request.is_secure:
        headers.setdefault("Strict-Transport-Security", HSTS)
    return response


class SecureWhenHttps(SecureCookieSessionInterface):
    """The session cookie (it carries the CSRF token) is ``Secure`` whenever the page came over HTTPS,
    as the game cookies are; ``SESSION_COOKIE_SECURE`` makes it ``Secure`` always."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """A session that holds a CSRF token outlives the browser (``PERMANENT_SESSION_LIFETIME``):
        a page kept on the phone for offline use sends its entries with that token, and a browser
        (or a home-screen app) that was closed meanwhile had dropped it, so they were refused."""
        if session.modified and "csrf_token" in session:  # read only when written: a static file's
            session.permanent = True  # answer must not vary by cookie (it would not be cached)
        super().save_session(app, session, response)


def whole_number(text: str, digits: int = 18) -> int | None:
    """A whole number written in ASCII digits (at most ``digits``), else ``None``: ``"²"`` passes
    ``str.isdigit`` but not ``int``, and 5,000 digits are no seat, move or version."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= digits else None


def bearer() -> str | None:
    """The token of ``Authorization: Bearer <token>``."""
    header = request.headers.get("Authorization", "")
    scheme, _space, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def body(required: bool = True) -> dict[str, Any]:
    """The JSON object sent (whatever the Content-Type), or a 400 that says what is wrong with it.

    A ``seed`` is refused here unless the app allows seeding (API.md, "Running and configuration").
    """
    raw = request.get_data(cache=True)  # a body over MAX_CONTENT_LENGTH is a 413 here
    limit = request.max_content_length
    if request.content_length is None and limit is not None and len(raw) >= limit:
        # A chunked body has no length to check first; Werkzeug stops reading at the limit, and
        # what was read would only look like broken JSON (400). Too long is 413.
        raise RequestEntityTooLarge()
    if not raw.strip():
        if not required:
            return {}
        raise BadRequest(_("The request needs a JSON object as its body, such as {example}.", example=example()))
    try:
        data = json.loads(raw, parse_int=_whole)
    except _TooLong as error:
        raise BadRequest(
            _("A number in the request has {digits} digits; no field takes a number that long.", digits=error.digits)
        ) from None
    except (ValueError, RecursionError):
        raise BadRequest(
            _("The request body is not valid JSON; send a JSON object such as {example}.", example=example())
        ) from None
    if not isinstance(data, dict):
        raise BadRequest(not_an_object(data))
    check_seed(data, current_app.config["ALLOW_SEED"])
    return data


class _TooLong(ValueError):
    def __init__(self, digits: int) -> None:
        self.digits = digits


def _whole(text: str) -> int:
    """A JSON integer, unless Python would refuse to read it (over 4300 digits, a guard against
    quadratic work): that is said as such, not as broken JSON."""
    digits = len(text.lstrip("-"))
    limit = sys.get_int_max_str_digits()
    if limit and digits > limit:
        raise _TooLong(digits)
    return int(text)


#: A body each call takes, for the sentence that refuses a malformed one (API.md's tables).
EXAMPLES = {
    "api.create_game": '{"players": ["Ann", "Ben", "Cy"]}',
    "groups_api.create_game": '{"players": ["Ann", "Ben", "Cy"]}',
    "api.put_bids": '{"bids": [2, 1, 3]}',
    "api.put_tricks": '{"tricks": [2, 1, 3]}',
    "export.import_game": '{"format": "bluke-scorekeeper", "format_version": 1, …}',
    "groups_api.import_game": '{"format": "bluke-scorekeeper", "format_version": 1, …}',
    "virtual.api.create": '{"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}]}',
    "groups_api.create_table": '{"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}]}',
    "virtual.api.bid": '{"bid": 2}',
    "virtual.api.play": '{"card": "QS"}',
    "virtual.api.seat": '{"bot": "basic"}',
    "groups_api.create_group": '{"name": "Friday night", "players": ["Ann", "Ben"]}',
    "groups_api.rename_player": '{"name": "Ann B."}',
    "groups_api.merge_player": '{"into": "<the id of the player to keep>"}',
    "virtual.api.relink": "{}",
    "virtual.api.follow": "{}",
    "virtual.api.rematch": "{}",
}


def example() -> str:
    """A body the request's call takes (a version, for the calls whose body is optional)."""
    return EXAMPLES.get(request.endpoint or "", '{"version": 3}')


def not_an_object(value: object) -> str:
    """Why a body that is JSON but no object is refused: one whole sentence per JSON type, so that
    each language can decline the type's name as its sentence needs (ru "а не списком")."""
    if isinstance(value, list):
        return _("The request body must be a JSON object ({…}), not a list.")
    if isinstance(value, str):
        return _("The request body must be a JSON object ({…}), not a string.")
    if isinstance(value, bool):
        return _("The request body must be a JSON object ({…}), not true or false.")
    if value is None:
        return _("The request body must be a JSON object ({…}), not null.")
    return _("The request body must be a JSON object ({…}), not a number.")
