"""HTML pages of virtual mode: the seat screen, the host page and the "new virtual table" form.

Pages work without JavaScript (plain forms, redirect after post). ``static/virtual.js`` polls
``/t/<id>/version`` about once a second, replays the moves since the last one it showed
(``/t/<id>/moves``) on the table at a human pace, then swaps in the partial (``_seat.html`` /
``_host.html``); it posts the same forms with ``X-Partial: 1``. Every route is for one role: a
seat's cookie for the seat's screen and actions, the host's cookie for the host's.
"""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask import g
from flask import redirect
from flask import render_template
from flask import request
from flask import url_for
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from .. import limits
from ..bots import LEVELS
from ..engine import RulesError
from ..engine.rules import OPTION_NAMES
from ..errors import BadRequest
from ..errors import error_page
from ..errors import Forbidden
from ..errors import NotFound
from ..errors import ServiceError
from ..games import refused_rows
from ..games import trimmed
from ..groups import pages as groups
from ..i18n import _
from ..i18n import N_
from ..tokens import new_token
from ..tokens import ONCE
from ..tokens import tokens_of_form
from ..web import COOKIE_AGE
from ..web import COOKIE_PREFIX
from ..web import cookies_with
from ..web import qr_svg
from ..web import token_cookie
from ..web import whole_number
from . import bp
from . import service
from . import views
from .api import since
from .service import TableAccess

SEAT_COOKIE = "vt_"
HOST_COOKIE = "vth_"
MAX_SEATS, MIN_SEATS, DEFAULT_SEATS = 15, 2, 4


# -- cookies and access --------------------------------------------------------------------------
def _set_cookie(response: Response, name: str, token: str) -> None:
    response.set_cookie(name, token, **token_cookie(max_age=COOKIE_AGE))


def page_access(table_id: str, host: bool = False) -> TableAccess:
    """The table opened with this browser's seat (or host) cookie, in that role only.

    404 without a cookie or with a wrong token; 403 when the cookie holds a token of the other
    role (a seat's token where the host's belongs, or the other way round): every page and form
    acts only for the role it is for.
    """
    token = request.cookies.get((HOST_COOKIE if host else SEAT_COOKIE) + table_id)
    access = service.open_table(table_id, token)
    if access.is_host != host:
        raise Forbidden(_(NOT_HOST if host else NOT_SEAT))
    g.vt_access = access
    return access


NOT_HOST = N_("Only the host can do that: the host's link opens the host page.")
NOT_SEAT = N_("That is the host's link, not a seat's: open your own seat's link to play.")


def partial() -> bool:
    """A request from ``virtual.js`` wants only the swappable part of the page."""
    return request.headers.get("X-Partial") == "1"


def _int_field(name: str, what: str) -> int | None:
    raw = (request.form.get(name) or "").strip()
    if not raw:
        return None
    number = whole_number(raw)
    if number is None:
        raise BadRequest(_("{what} must be a whole number, not {raw!r}.", what=what, raw=raw))
    return number


# -- rendering -----------------------------------------------------------------------------------
def _hosts(table_id: str) -> bool:
    """This browser also holds the table's host link (the host who plays a seat too)."""
    try:
        return service.open_table(table_id, request.cookies.get(HOST_COOKIE + table_id)).is_host
    except ServiceError:
        return False


def _seat_here(table_id: str) -> int | None:
    """The seat this browser plays at the table, if any (the host who plays a seat too)."""
    try:
        return service.open_table(table_id, request.cookies.get(SEAT_COOKIE + table_id)).seat
    except ServiceError:
        return None


def _context(access: TableAccess, error: str | None = None, picked: str | None = None) -> dict[str, Any]:
    table = access.table
    view = views.seat_view(table, access.seat)
    here = _seat_here(table.id)
    return {
        "view": view,
        "stamp": service.stamp(table),
        "error": error,
        "face": views.card_face,
        "suit_name": views.suit_name,
        "signed": views.signed,
        "picked": picked if picked in view["hand"] else None,
        "status": views.status_line(view),
        "bids_line": views.bids_line(view),
        "levels": LEVELS,
        "rules_line": views.rules_line(view),
        "seats_around": views.table_seats(view),
        "center": views.center_line(view),
        "is_host_browser": _hosts(table.id),
        # the rematch's host link is kept by the phone that set it up; another host's phone asks again
        "hosts_rematch": view.get("rematch") is not None and access.seat is None and _hosts(view["rematch"]),
        "has_seat_cookie": here is not None,
        "my_seat": here,
    }


def _host_context(access: TableAccess, error: str | None = None) -> dict[str, Any]:
    context = _context(access, error)
    table = access.table
    seats = []
    for seat, token in service.seat_tokens(access).items():
        url = url_for("virtual.join", table_id=table.id, token=token, _external=True)
        qr = qr_svg(url)
        seats.append({"seat": seat, "url": url, "qr": qr})
    context["links"] = {s["seat"]: s for s in seats}
    return context


def render_seat(access: TableAccess, error: str | None = None, status: int = 200, picked: str | None = None) -> Any:
    template = "virtual/_seat.html" if partial() else "virtual/seat.html"
    return render_template(template, **_context(access, error, picked)), status


def render_host(access: TableAccess, error: str | None = None, status: int = 200, open_link: int | None = None) -> Any:
    template = "virtual/_host.html" if partial() else "virtual/host.html"
    return render_template(template, open_link=open_link, **_host_context(access, error)), status


def _reopened(table_id: str, token: str) -> TableAccess | None:
    """The table read afresh with a link (after a write or a rollback), or ``None`` when the link no
    longer opens it: the host gave its seat a new one meanwhile."""
    try:
        return service.open_table(table_id, token)
    except (Forbidden, NotFound):
        return None


def refused(access: TableAccess | None, error: Exception) -> Any:
    """The page again, unchanged, with the reason it was refused (redacted for this reader); only the
    reason where the link no longer opens the table (a new one made while this request was under way)."""
    table, seat = (access.table, access.seat) if access is not None else (None, None)
    status, shape = views.error_body(table, seat, error)
    message = shape["error"]["message"]
    fresh = _reopened(access.table.id, access.token) if access is not None else None
    if fresh is None:
        return error_page(status, message, shape["error"]["rule"], found_by_cookie=True)
    return (render_host if fresh.is_host else render_seat)(fresh, message, status)


def _done(access: TableAccess, endpoint: str) -> Any:
    """After a successful post: the partial for scripts, else redirect (post/redirect/get); the
    redirect too when a new link replaced this one just after the move (the move stands; the page
    then says the link no longer works)."""
    if partial() and (fresh := _reopened(access.table.id, access.token)) is not None:
        return (render_host if fresh.is_host else render_seat)(fresh)
    return redirect(url_for(endpoint, table_id=access.table.id), 303)


# -- joining -------------------------------------------------------------------------------------
@bp.get("/t/<table_id>/join/<token>")
@bp.post("/t/<table_id>/join/<token>")
def join(table_id: str, token: str) -> Any:
    """Swap a link's token for an HttpOnly cookie and redirect to the clean URL (like pages.join).

    A phone plays one seat of a table (one cookie): opened on a phone that plays another seat (a link
    sent to the wrong player), the link first asks, and only its button (POST) moves the phone over;
    else the phone's screen would turn into that seat's cards and controls at its next look.
    """
    access = service.open_table(table_id, token)
    held = _other_seat(access) if request.method == "GET" else None
    if held is not None and access.seat is not None:
        names = [seat["name"] for seat in access.table.seats]
        return render_template("virtual/switch.html", table_id=table_id, mine=names[held], theirs=names[access.seat])
    if access.is_host:
        response = redirect(url_for("virtual.host", table_id=table_id))
        _set_cookie(response, HOST_COOKIE + table_id, token)
    else:  # joined once the seat's page opens with the cookie (:func:`seat`), not here: a chat app
        # fetching the link for its preview keeps no cookie, and its fetch is nobody joining
        response = redirect(url_for("virtual.seat", table_id=table_id))
        _set_cookie(response, SEAT_COOKIE + table_id, token)
    return response


def _other_seat(access: TableAccess) -> int | None:
    """The seat this phone plays at the table when ``access`` opens another one (its cookie still works)."""
    held = request.cookies.get(SEAT_COOKIE + access.table.id)
    mine = _reopened(access.table.id, held) if held and held != access.token and not access.is_host else None
    return mine.seat if mine is not None and mine.seat != access.seat else None


def seat_or_host(table_id: str) -> TableAccess:
    """This browser's seat at the table, else its host link, whichever role it holds (404 with neither)."""
    replaced: Forbidden | None = None
    for cookie in (SEAT_COOKIE, HOST_COOKIE):
        token = request.cookies.get(cookie + table_id)
        if token:
            try:
                access = service.open_table(table_id, token)
            except NotFound:
                continue
            except Forbidden as error:  # a seat link the host replaced: the host's may still be here
                replaced = error
                continue
            g.vt_access = access
            return access
    if replaced is not None:
        raise replaced
    raise NotFound(_("No table with that link: check the address, or ask the host for a new link."))


@bp.get("/t/<table_id>/scorecard")
def scorecard(table_id: str) -> Any:
    """Open the table's game page (scorecard) with the token this browser already holds."""
    access = seat_or_host(table_id)
    response = redirect(url_for("pages.game", game_id=access.table.game_id))
    _set_cookie(response, COOKIE_PREFIX + access.table.game_id, access.token)
    return response


#: The seat screen's calls for ``virtual.js``: they answer JSON, refusals included.
JSON_ENDPOINTS = frozenset({"virtual.version", "virtual.moves"})


@bp.get("/t/<table_id>/version")
def version(table_id: str) -> Any:
    """Cheap polling for ``virtual.js``: only the version number."""
    access = seat_or_host(table_id)
    access = service.settle_if_needed(access)
    return {"version": access.table.version, "stamp": service.stamp(access.table)}


@bp.get("/t/<table_id>/moves")
def moves(table_id: str) -> Any:
    """The moves since ``?since=N`` for ``virtual.js`` to replay card by card (public facts only)."""
    access = seat_or_host(table_id)
    seq = since() or 0  # refused before the bots move: a rejected request stores nothing
    access = service.settle_if_needed(access)
    view = views.seat_view(access.table, access.seat, seq)
    return {
        "seq": view["seq"],
        "moves": view["moves"],
        "stamp": service.stamp(access.table),
        "names": [p["name"] for p in view["players"]],
        "seat": view["seat"],
        # each card played in these moves as a screen reader says it in the reader's language ("queen of
        # spades"): the spoken name of the face virtual.js draws (only these cards, not the deck's 54)
        "labels": {m["card"]: views.card_face(m["card"])["name"] for m in view["moves"] if "card" in m},
    }


# -- the seat --------------------------------------------------------------------------------------
@bp.get("/t/<table_id>")
def seat(table_id: str) -> Any:
    """A seat's screen; a browser holding only the host's link (in either cookie) gets the host page."""
    token, hosting = request.cookies.get(SEAT_COOKIE + table_id), request.cookies.get(HOST_COOKIE + table_id)
    try:
        to_host = service.open_table(table_id, token).is_host if token is not None else bool(hosting)
    except Forbidden:  # a seat link that no longer works, on the host's phone: the host page
        if not hosting:
            raise
        to_host = True
    if to_host:
        return redirect(url_for("virtual.host", table_id=table_id))
    access = page_access(table_id)
    service.mark_joined(access)
    return render_seat(service.settle_if_needed(access))


@bp.get("/t/<table_id>/bid")
@bp.get("/t/<table_id>/play")
@bp.get("/t/<table_id>/settings")
@bp.get("/t/<table_id>/rematch/seat")
@bp.get("/t/<table_id>/start")
@bp.get("/t/<table_id>/fill")
@bp.get("/t/<table_id>/rematch")
@bp.get("/t/<table_id>/seats/<int:_seat>")
@bp.get("/t/<table_id>/seats/<int:_seat>/link")
def form_address(table_id: str, **_: Any) -> Any:
    """A form's own address opened with GET (a reload or Back after a refused move): the table,
    whose seat screen sends the host on to the host page."""
    return redirect(url_for("virtual.seat", table_id=table_id), 303)


@bp.post("/t/<table_id>/bid")
def bid(table_id: str) -> Any:
    access = page_access(table_id)
    amount = _int_field("bid", _("A bid"))
    if amount is None:
        raise BadRequest(_("Choose how many tricks you bid."))
    assert access.seat is not None
    service.bid(access, amount, _int_field("version", _("The version")))
    return _done(access, "virtual.seat")


@bp.post("/t/<table_id>/play")
def play(table_id: str) -> Any:
    """Play a card; with "tap to pick, tap again to play" on, a first tap only picks it (no change)."""
    access = page_access(table_id)
    if "card" not in request.form and request.form.get("pick"):
        return render_seat(access, picked=request.form["pick"])
    card = request.form.get("card", "")
    assert access.seat is not None
    service.play(access, card, _int_field("version", _("The version")))
    return _done(access, "virtual.seat")


@bp.post("/t/<table_id>/settings")
def settings(table_id: str) -> Any:
    """The seat's own settings: tap a card to pick it, and again to play it."""
    access = page_access(table_id)
    service.set_confirm(access, request.form.get("confirm") == "on")
    return _done(access, "virtual.seat")


@bp.post("/t/<table_id>/rematch/seat")
def follow(table_id: str) -> Any:
    """Take the same seat at the rematch: a link of this seat's own, kept in this browser."""
    moved = service.follow_rematch(page_access(table_id))
    response = redirect(url_for("virtual.seat", table_id=moved.table.id), 303)
    _set_cookie(response, SEAT_COOKIE + moved.table.id, moved.token)
    return response


@bp.get("/t/game/<game_id>")
def for_game(game_id: str) -> Any:
    """From a virtual game's scorecard back to its table (the browser's cookie decides the page).

    Only for a browser holding the table's host or seat link: to anyone else a game that exists
    and one that does not answer alike (API.md: existence is not revealed), and neither learns the
    table's id."""
    table_id = service.table_of_game(game_id)
    if table_id is None or (_seat_here(table_id) is None and not _hosts(table_id)):
        raise NotFound(_("No table plays this game."))
    return redirect(url_for("virtual.seat", table_id=table_id))


# -- the host ------------------------------------------------------------------------------------
@bp.get("/t/<table_id>/host")
def host(table_id: str) -> Any:
    access = service.settle_if_needed(page_access(table_id, host=True))
    return render_host(access)


@bp.post("/t/<table_id>/start")
def start(table_id: str) -> Any:
    """Deal hand 1: from the host page, or from the seat screen of a host who plays."""
    access = page_access(table_id, host=True)
    service.start(table_id, _int_field("version", _("The version")))
    if request.form.get("back") == "seat" and _seat_here(table_id) is not None:
        if partial():
            return render_seat(page_access(table_id))
        return redirect(url_for("virtual.seat", table_id=table_id), 303)
    return _done(access, "virtual.host")


@bp.post("/t/<table_id>/seats/<int:number>/link")
def relink(table_id: str, number: int) -> Any:
    """A new link for a seat whose player lost theirs; the old link stops working."""
    access = page_access(table_id, host=True)
    service.reissue(access, number)
    if partial():
        return render_host(service.open_table(table_id, access.token), open_link=number)
    return redirect(url_for("virtual.host", table_id=table_id, _anchor=f"vt-link-{number}"), 303)


@bp.post("/t/<table_id>/rematch")
@limits.creating
def rematch(table_id: str) -> Any:
    """The host starts a rematch with the same seats; a host who plays moves to their seat there too."""
    access = page_access(table_id, host=True)
    created = service.rematch(access)
    g.made_before = created.again  # the same rematch asked again costs no creation (limits._created)
    new_id = created.table.id
    response = redirect(url_for("virtual.host", table_id=new_id), 303)
    _set_cookie(response, HOST_COOKIE + new_id, created.host_token)
    if _seat_here(table_id) is not None:
        moved = service.follow_rematch(page_access(table_id))
        _set_cookie(response, SEAT_COOKIE + new_id, moved.token)
        if len(created.seat_tokens) == 1:  # one person against bots: straight to the cards
            response.headers["Location"] = url_for("virtual.seat", table_id=new_id)
    return response


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


# -- the home page -----------------------------------------------------------------------------------
HOME_TABLES = 20


def tables_on_this_phone() -> list[dict[str, Any]]:
    """The virtual tables this browser holds a link to (seat or host cookie), newest first.

    Listed on the home page as soon as a table is created or joined, linking to the table itself.
    At most 100 cookies are looked at, so a request stays cheap whatever a browser sends.
    """
    found: dict[str, dict[str, Any]] = {}
    for table_id, token in cookies_with((SEAT_COOKIE, HOST_COOKIE), 100):
        try:
            access = service.open_table(table_id, token)
        except ServiceError:
            continue
        table = access.table
        entry = found.setdefault(table.id, {"table": table, "seat": None, "host": False})
        if access.is_host:
            entry["host"] = True
        else:
            entry["seat"] = table.seats[access.seat]["name"] if access.seat is not None else None
    listed = sorted(found.values(), key=lambda e: e["table"].created_at, reverse=True)[:HOME_TABLES]
    for entry in listed:
        table = entry["table"]
        entry.update(
            names=[s["name"] for s in table.seats],
            phase=table.phase,
            hand=(table.state or {}).get("number", 0),
            hands=service.rules_of(table).hand_count,
            url=url_for("virtual.seat" if entry["seat"] else "virtual.host", table_id=table.id),
        )
    return listed


# -- a new table -----------------------------------------------------------------------------------
def _form_rows(count: int) -> list[dict[str, str]]:
    rows = []
    for i in range(count):
        rows.append({"name": trimmed(request.form.get(f"name-{i}") or ""), "bot": request.form.get(f"bot-{i}", "")})
    return rows


def _default_rows(count: int) -> list[dict[str, str]]:
    return [{"name": "", "bot": ""}] + [{"name": service.bot_name(i), "bot": "basic"} for i in range(1, count)]


def _render_new(
    rows: list[dict[str, str]], error: str | None = None, status: int = 200, focus: int | str | None = None
) -> Any:
    form = request.form
    settings = {
        "variant": form.get("variant", "standard"),
        "options": {name: form.get(name) == "on" for name in OPTION_NAMES},
        "first_dealer": form.get("first_dealer", "1"),
        "draw": form.get("draw") == "on",
    }
    return render_template(
        "virtual/new.html",
        rows=rows,
        levels=LEVELS,
        error=error,
        refused=refused_rows(row["name"] for row in rows) if error else (),
        settings=settings,
        once=form.get("once") if ONCE.fullmatch(form.get("once", "")) else new_token(),
        max_seats=MAX_SEATS,
        min_seats=MIN_SEATS,
        focus=focus,
    ), status


@bp.get("/t/new")
def new() -> Any:
    count = request.args.get("seats", DEFAULT_SEATS, type=int) or DEFAULT_SEATS
    return _render_new(_default_rows(max(MIN_SEATS, min(MAX_SEATS, count))))


def _dealer_seat(value: str, kept: list[int], rows: int) -> int:
    """The first dealer's seat from the form's row number (1 to ``rows``); the rows ``kept`` are the seats."""
    row = whole_number(value.strip())
    if row is None or not 1 <= row <= rows:
        raise BadRequest(_("Choose who deals first, or let the app draw cards for it (R6)."))
    if row - 1 not in kept:
        raise BadRequest(
            _("The first dealer's row {row} has no name: type one or choose another dealer (R6).", row=row)
        )
    return kept.index(row - 1)


@bp.post("/t/new")
@limits.creating
def create() -> Any:
    count = max(MIN_SEATS, min(MAX_SEATS, request.form.get("count", DEFAULT_SEATS, type=int) or DEFAULT_SEATS))
    rows = _form_rows(count)
    if "enter" in request.form:  # Enter in a name without JavaScript: the next empty name, else the button
        empty = next((i for i, row in enumerate(rows) if not row["name"] and not row["bot"]), None)
        return _render_new(rows, focus="open" if empty is None else empty)
    if "add" in request.form and count < MAX_SEATS:
        return _render_new(rows + [{"name": service.bot_name(count), "bot": "basic"}])
    if "remove" in request.form and count > MIN_SEATS:
        return _render_new(rows[:-1])
    kept = [i for i, r in enumerate(rows) if r["name"] or r["bot"]]  # an empty row is no seat
    seats = [{"name": rows[i]["name"] or None, "bot": rows[i]["bot"] or None} for i in kept]
    humans = [i for i, s in enumerate(seats) if s["bot"] is None]
    variant, options = request.form.get("variant", "standard"), {n: request.form.get(n) == "on" for n in OPTION_NAMES}
    roles = ["host", *(f"seat {i}" for i in range(len(seats)))]
    try:
        drawn = request.form.get("draw") == "on"
        first: int | str = "draw" if drawn else _dealer_seat(request.form.get("first_dealer", "1"), kept, len(rows))
        asked = [seats, variant, options, first]
        marked = tokens_of_form(request.form.get("once"), str(current_app.config["SECRET_KEY"]).encode(), asked, roles)
        created, tokens = service.made_by_form(marked)
        if created is None:
            created = service.create_table(
                seats, variant, options, first, len(humans) <= 1, attach=groups.attach_for_request(), tokens=tokens
            )
    except IntegrityError:  # the same form sent at the same time made the table first
        created, tokens = service.made_by_form(marked)
        if created is None:
            raise
    except (RulesError, ServiceError) as error:
        status, shape = views.error_body(None, None, error)
        return _render_new(rows, shape["error"]["message"], status)
    g.made_before = created.again  # the answer lost, the form sent again: no second table (limits._created)
    table_id = created.table.id
    if len(humans) == 1:  # one player against bots: straight to the cards
        response = redirect(url_for("virtual.seat", table_id=table_id), 303)
        _set_cookie(response, SEAT_COOKIE + table_id, created.seat_tokens[humans[0]])
        service.mark_joined(service.open_table(table_id, created.seat_tokens[humans[0]]))
    else:
        response = redirect(url_for("virtual.host", table_id=table_id), 303)
    _set_cookie(response, HOST_COOKIE + table_id, created.host_token)
    return response
