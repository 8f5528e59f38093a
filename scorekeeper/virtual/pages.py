"""HTML pages of virtual mode: the seat screen, the host page and the "new virtual table" form.

Pages work without JavaScript (plain forms, redirect after post). ``static/virtual.js`` polls
``/t/<id>/version`` about once a second and swaps in the partial (``_seat.html`` / ``_host.html``)
when the table moved on; it posts the same forms with ``X-Partial: 1`` to get the partial back.
"""

from __future__ import annotations

from typing import Any

import segno
from flask import g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from .. import limits
from ..bots import LEVELS
from ..engine import RulesError
from ..engine.rules import OPTION_NAMES
from ..errors import BadRequest, NotFound, ServiceError
from ..groups import pages as groups
from ..i18n import _
from ..web import COOKIE_AGE, COOKIE_PREFIX
from . import bp, service, views
from .service import TableAccess

SEAT_COOKIE = "vt_"
HOST_COOKIE = "vth_"
MAX_SEATS, MIN_SEATS, DEFAULT_SEATS = 15, 2, 4


# -- cookies and access --------------------------------------------------------------------------
def _set_cookie(response: Response, name: str, token: str) -> None:
    response.set_cookie(name, token, max_age=COOKIE_AGE, httponly=True, samesite="Lax",
                        secure=request.is_secure)


def page_access(table_id: str, host: bool = False) -> TableAccess:
    """The table opened with this browser's seat (or host) cookie; 404 without one."""
    token = request.cookies.get((HOST_COOKIE if host else SEAT_COOKIE) + table_id)
    access = service.open_table(table_id, token)
    g.vt_access = access
    return access


def partial() -> bool:
    """A request from ``virtual.js`` wants only the swappable part of the page."""
    return request.headers.get("X-Partial") == "1"


def _int_field(name: str, what: str) -> int | None:
    raw = (request.form.get(name) or "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise BadRequest(_("{what} must be a whole number, not {raw!r}.", what=what, raw=raw))
    return int(raw)


# -- rendering -----------------------------------------------------------------------------------
def _context(access: TableAccess, error: str | None = None) -> dict[str, Any]:
    table = access.table
    view = views.seat_view(table, access.seat)
    return {
        "view": view, "stamp": service.stamp(table), "error": error, "face": views.card_face, "suit_name": views.suit_name,
        "signed": views.signed,
        "status": views.status_line(view), "bids_line": views.bids_line(view), "levels": LEVELS,
        "is_host_browser": bool(request.cookies.get(HOST_COOKIE + table.id)),
        "has_seat_cookie": bool(request.cookies.get(SEAT_COOKIE + table.id)),
    }


def _host_context(access: TableAccess, error: str | None = None) -> dict[str, Any]:
    context = _context(access, error)
    table = access.table
    seats = []
    for seat, token in service.seat_tokens(access).items():
        url = url_for("virtual.join", table_id=table.id, token=token, _external=True)
        qr = segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff", border=2)
        seats.append({"seat": seat, "url": url, "qr": qr})
    context["links"] = {s["seat"]: s for s in seats}
    return context


def render_seat(access: TableAccess, error: str | None = None, status: int = 200) -> Any:
    template = "virtual/_seat.html" if partial() else "virtual/seat.html"
    return render_template(template, **_context(access, error)), status


def render_host(access: TableAccess, error: str | None = None, status: int = 200) -> Any:
    template = "virtual/_host.html" if partial() else "virtual/host.html"
    return render_template(template, **_host_context(access, error)), status


def refused(access: TableAccess | None, error: Exception) -> Any:
    """The page again, unchanged, with the reason it was refused (redacted for this reader)."""
    table, seat = (access.table, access.seat) if access is not None else (None, None)
    status, shape = views.error_body(table, seat, error)
    message = shape["error"]["message"]
    if access is None:
        return render_template("error.html", status=status, message=message, rule=shape["error"]["rule"]), status
    access = service.open_table(access.table.id, access.token)  # a fresh read after the rollback
    return (render_host if access.is_host else render_seat)(access, message, status)


def _done(access: TableAccess, endpoint: str) -> Any:
    """After a successful post: the partial for scripts, else redirect (post/redirect/get)."""
    if partial():
        access = service.open_table(access.table.id, access.token)
        return (render_host if access.is_host else render_seat)(access)
    return redirect(url_for(endpoint, table_id=access.table.id), 303)


# -- joining -------------------------------------------------------------------------------------
@bp.get("/t/<table_id>/join/<token>")
def join(table_id: str, token: str) -> Any:
    """Swap a link's token for an HttpOnly cookie and redirect to the clean URL (like pages.join)."""
    access = service.open_table(table_id, token)
    if access.is_host:
        response = redirect(url_for("virtual.host", table_id=table_id))
        _set_cookie(response, HOST_COOKIE + table_id, token)
    else:
        service.mark_joined(access)
        response = redirect(url_for("virtual.seat", table_id=table_id))
        _set_cookie(response, SEAT_COOKIE + table_id, token)
    return response


def seat_or_host(table_id: str) -> TableAccess:
    """This browser's seat at the table, else its host link (404 with neither)."""
    try:
        return page_access(table_id)
    except NotFound:
        return page_access(table_id, host=True)


@bp.get("/t/<table_id>/scorecard")
def scorecard(table_id: str) -> Any:
    """Open the table's game page (scorecard) with the token this browser already holds."""
    access = seat_or_host(table_id)
    response = redirect(url_for("pages.game", game_id=access.table.game_id))
    _set_cookie(response, COOKIE_PREFIX + access.table.game_id, access.token)
    return response


@bp.get("/t/<table_id>/version")
def version(table_id: str) -> Any:
    """Cheap polling for ``virtual.js``: only the version number."""
    access = seat_or_host(table_id)
    access = service.settle_if_needed(access)
    return {"version": access.table.version, "stamp": service.stamp(access.table)}


# -- the seat --------------------------------------------------------------------------------------
@bp.get("/t/<table_id>")
def seat(table_id: str) -> Any:
    if not request.cookies.get(SEAT_COOKIE + table_id) and request.cookies.get(HOST_COOKIE + table_id):
        return redirect(url_for("virtual.host", table_id=table_id))
    access = service.settle_if_needed(page_access(table_id))
    return render_seat(access)


@bp.post("/t/<table_id>/bid")
def bid(table_id: str) -> Any:
    access = page_access(table_id)
    amount = _int_field("bid", _("A bid"))
    if amount is None:
        raise BadRequest(_("Choose how many tricks you bid."))
    assert access.seat is not None
    service.bid(table_id, access.seat, amount, _int_field("version", _("The version")))
    return _done(access, "virtual.seat")


@bp.post("/t/<table_id>/play")
def play(table_id: str) -> Any:
    access = page_access(table_id)
    card = request.form.get("card", "")
    assert access.seat is not None
    service.play(table_id, access.seat, card, _int_field("version", _("The version")))
    return _done(access, "virtual.seat")


# -- the host ------------------------------------------------------------------------------------
@bp.get("/t/<table_id>/host")
def host(table_id: str) -> Any:
    access = service.settle_if_needed(page_access(table_id, host=True))
    return render_host(access)


@bp.post("/t/<table_id>/start")
def start(table_id: str) -> Any:
    access = page_access(table_id, host=True)
    service.start(table_id, _int_field("version", _("The version")))
    return _done(access, "virtual.host")


@bp.post("/t/<table_id>/seats/<int:number>")
def seat_bot(table_id: str, number: int) -> Any:
    access = page_access(table_id, host=True)
    level = request.form.get("bot") or None
    service.set_bot(access, number, level, _int_field("version", _("The version")))
    return _done(access, "virtual.host")


@bp.post("/t/<table_id>/fill")
def fill(table_id: str) -> Any:
    access = page_access(table_id, host=True)
    service.fill_with_bots(access, request.form.get("bot") or None)
    return _done(access, "virtual.host")


# -- a new table -----------------------------------------------------------------------------------
def _form_rows(count: int) -> list[dict[str, str]]:
    rows = []
    for i in range(count):
        rows.append({"name": (request.form.get(f"name-{i}") or "").strip(),
                     "bot": request.form.get(f"bot-{i}", "")})
    return rows


def _default_rows(count: int) -> list[dict[str, str]]:
    return [{"name": "", "bot": ""}] + [{"name": f"Bot {i + 1}", "bot": "basic"} for i in range(1, count)]


def _render_new(rows: list[dict[str, str]], error: str | None = None, status: int = 200) -> Any:
    form = request.form
    settings = {
        "variant": form.get("variant", "standard"),
        "options": {name: form.get(name) == "on" for name in OPTION_NAMES},
        "first_dealer": form.get("first_dealer", "1"),
    }
    return render_template("virtual/new.html", rows=rows, levels=LEVELS, error=error, settings=settings,
                           max_seats=MAX_SEATS, min_seats=MIN_SEATS), status


@bp.get("/t/new")
def new() -> Any:
    count = request.args.get("seats", DEFAULT_SEATS, type=int) or DEFAULT_SEATS
    return _render_new(_default_rows(max(MIN_SEATS, min(MAX_SEATS, count))))


@bp.post("/t/new")
@limits.creating
def create() -> Any:
    count = max(MIN_SEATS, min(MAX_SEATS, request.form.get("count", DEFAULT_SEATS, type=int) or DEFAULT_SEATS))
    rows = _form_rows(count)
    if "add" in request.form and count < MAX_SEATS:
        return _render_new(rows + [{"name": f"Bot {count + 1}", "bot": "basic"}])
    if "remove" in request.form and count > MIN_SEATS:
        return _render_new(rows[:-1])
    seats = [{"name": r["name"] or None, "bot": r["bot"] or None} for r in rows if r["name"] or r["bot"]]
    humans = [i for i, s in enumerate(seats) if s["bot"] is None]
    try:
        first = int(request.form.get("first_dealer", "1")) - 1
        options = {name: request.form.get(name) == "on" for name in OPTION_NAMES}
        created = service.create_table(seats, request.form.get("variant", "standard"), options, first,
                                       start=len(humans) <= 1, attach=groups.attach_for_request())
    except (RulesError, ServiceError, ValueError) as error:
        status, shape = views.error_body(None, None, error if isinstance(error, (RulesError, ServiceError))
                                         else BadRequest(_("The first dealer must be a seat number.")))
        return _render_new(rows, shape["error"]["message"], status)
    table_id = created.table.id
    if len(humans) == 1:  # one player against bots: straight to the cards
        response = redirect(url_for("virtual.seat", table_id=table_id), 303)
        _set_cookie(response, SEAT_COOKIE + table_id, created.seat_tokens[humans[0]])
        service.mark_joined(service.open_table(table_id, created.seat_tokens[humans[0]]))
    else:
        response = redirect(url_for("virtual.host", table_id=table_id), 303)
    _set_cookie(response, HOST_COOKIE + table_id, created.host_token)
    return response
