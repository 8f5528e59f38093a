"""The JSON API of virtual mode (API.md, "Virtual mode"): parse, call the service, answer a view.

Beyond API.md (extensions, nothing changed): ``POST /api/tables`` also answers ``host_url``, each
seat's ``name`` and join ``url``, and ``view`` (the host's view); ``bid``, ``play``, ``start`` and
``PUT seats`` take an optional ``version`` (409 when stale); ``GET /api/tables/<id>/version`` is
cheap polling (``version`` and ``stamp``, which also changes when someone joins). A view adds
``table_id``, ``game_id``, ``name``, ``your_turn``, ``hand_count``, ``variant``, ``options``,
``first_dealer``, ``players`` (name, bot, joined), ``blocked`` (why each of the seat's cards cannot
be played now), ``tricks_played``, ``last_trick_winner``, ``previous`` (the last finished hand's
bids, tricks, points) and ``winners``; the host's view has ``seat: null``, no hand, and ``links``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint
from flask import g
from flask import jsonify
from flask import request
from flask import url_for

from .. import limits
from ..errors import BadRequest
from ..errors import Forbidden
from ..extensions import csrf
from ..games import Attach
from ..i18n import _
from ..web import bearer
from ..web import body
from ..web import whole_number
from . import service
from . import views
from .service import TableAccess

bp = Blueprint("api", __name__, url_prefix="/api/tables")
csrf.exempt(bp)  # JSON calls carry a bearer token, not a cookie


def opened(table_id: str) -> TableAccess:
    """The table opened with the request's bearer token (404 when wrong), remembered for errors."""
    access = service.open_table(table_id, bearer())
    g.vt_access = access
    return access


def as_seat(table_id: str) -> TableAccess:
    """Acting needs a seat token."""
    access = opened(table_id)
    if access.is_host:
        raise Forbidden(_("The host link watches the table; play with a seat link."))
    return access


def as_host(table_id: str) -> TableAccess:
    """Starting and handing seats to bots needs the host token."""
    access = opened(table_id)
    if not access.is_host:
        raise Forbidden(_("Only the host can do that; ask whoever opened the table."))
    return access


def link(access: TableAccess, seat: int, token: str) -> dict[str, Any]:
    """One seat's token and join link."""
    table = access.table
    return {
        "seat": seat,
        "name": table.seats[seat]["name"],
        "token": token,
        "url": url_for("virtual.join", table_id=table.id, token=token, _external=True),
    }


def links(access: TableAccess) -> list[dict[str, Any]]:
    """The links of human seats whose player has not opened theirs yet (host only)."""
    return [link(access, seat, token) for seat, token in service.seat_tokens(access).items()]


@bp.before_request
def since_checked() -> None:
    """A malformed ``?since=`` is refused before anything is stored: a move, a seat marked joined,
    the bots' turns (a rejected request stores nothing); the view read after them would refuse it."""
    since()


def since() -> int | None:
    """``?since=N``: the client has replayed the moves up to ``N`` (``seq`` of its last view)."""
    raw = request.args.get("since")
    if raw is None:
        return None
    seq = whole_number(raw, 12)
    if seq is None:
        raise BadRequest(_("'since' must be a move number from a view's 'seq', not {raw!r}.", raw=raw))
    return seq


def answer(access: TableAccess, moved: bool = False) -> dict[str, Any]:
    """The reader's view after a fresh read of the table; the host's also lists the seat links.

    ``moved``: the seat's move was made (its link checked under the table's lock). A link the host
    replaced just after it is still answered with the table, not a 403 that would say the move was
    refused (API.md: a rejected write stores nothing); its next request gets the 403. The table as
    the host sees it, without the seat's cards: the bots may have dealt the next hand meanwhile,
    whose cards are the new link's."""
    seat = access.seat
    try:
        access = service.open_table(access.table.id, access.token)
    except Forbidden:
        if not moved:
            raise
        access, seat = service.reread(access), None
    view = views.seat_view(access.table, seat, since())
    if access.is_host:
        view["links"] = links(access)
    return view


def refused(access: TableAccess | None, error: Exception) -> Any:
    """The API error shape, with the message redacted for whoever asked."""
    table, seat = (access.table, access.seat) if access is not None else (None, None)
    status, shape = views.error_body(table, seat, error)
    return jsonify(shape), status


def _version(data: dict[str, Any]) -> object:
    return data.get("version")


@bp.post("")
@limits.creating
def create() -> Any:
    return create_from(body())


def create_from(data: dict[str, Any], attach: Attach | None = None) -> Any:
    """201 for a new table (``POST /api/tables``); ``attach`` seats a group's players in its game.

    ``?since=`` is read first: a group's route (``POST /api/groups/<id>/tables``) is not on this
    blueprint, whose :func:`since_checked` refuses a malformed one before anything is stored."""
    since()
    created = service.create_table(
        data.get("seats"),
        data.get("variant", "standard"),
        data.get("options"),
        data.get("first_dealer", 0),
        data.get("start", True),
        data.get("seed"),
        attach=attach,
    )
    return new_table(created)


def new_table(created: service.Created) -> Any:
    """201 for a new table (200 for a rematch asked again): its host token and link, each human
    seat's link, the host's view."""
    access = TableAccess(created.table, None, created.host_token)
    g.vt_access = access
    view = answer(access)
    view.pop("links")
    return jsonify(
        {
            "id": created.table.id,
            "game_id": created.table.game_id,
            "host_token": created.host_token,
            "host_url": url_for("virtual.join", table_id=created.table.id, token=created.host_token, _external=True),
            "seats": [link(access, seat, token) for seat, token in sorted(created.seat_tokens.items())],
            "view": view,
        }
    ), 200 if created.again else 201


@bp.get("/<table_id>/view")
def view(table_id: str) -> Any:
    access = service.settle_if_needed(opened(table_id))
    service.mark_joined(access)
    return jsonify(answer(access))


@bp.get("/<table_id>/version")
def version(table_id: str) -> Any:
    """Cheap polling: only the version number."""
    access = service.settle_if_needed(opened(table_id))
    return jsonify({"version": access.table.version, "stamp": service.stamp(access.table)})


@bp.post("/<table_id>/bid")
def bid(table_id: str) -> Any:
    access = as_seat(table_id)
    data = body()
    if "bid" not in data:
        raise BadRequest(_("The body needs 'bid': the number of tricks you bid, such as {\"bid\": 3}."))
    assert access.seat is not None
    service.bid(access, data["bid"], _version(data))
    return jsonify(answer(access, moved=True))


@bp.post("/<table_id>/play")
def play(table_id: str) -> Any:
    access = as_seat(table_id)
    data = body()
    if "card" not in data:
        raise BadRequest(_("The body needs 'card': the code of a card in your hand (see 'legal' in your view)."))
    assert access.seat is not None
    service.play(access, data["card"], _version(data))
    return jsonify(answer(access, moved=True))


@bp.post("/<table_id>/start")
def start(table_id: str) -> Any:
    access = as_host(table_id)
    data = body(required=False)
    service.start(table_id, _version(data))
    return jsonify(answer(access))


@bp.put("/<table_id>/seats/<int:seat>")
def seat(table_id: str, seat: int) -> Any:
    access = as_host(table_id)
    data = body()
    if "bot" not in data:
        raise BadRequest(_("The body needs 'bot': a bot level such as \"basic\", or null to hand the seat back."))
    service.set_bot(access, seat, data["bot"], _version(data))
    return jsonify(answer(access))


@bp.post("/<table_id>/seats/<int:seat>/link")
def relink(table_id: str, seat: int) -> Any:
    """The host gives a seat a new link; the old one stops working (answers the new link)."""
    access = as_host(table_id)
    body(required=False)
    token = service.reissue(access, seat)
    return jsonify(link(service.open_table(table_id, access.token), seat, token))


@bp.post("/<table_id>/rematch")
@limits.creating
def rematch(table_id: str) -> Any:
    """The host starts a new game with the same seats once this one is over (201, as a new table)."""
    access = as_host(table_id)
    data = body(required=False)
    return new_table(service.rematch(access, data.get("seed")))


@bp.post("/<table_id>/rematch/seat")
def follow(table_id: str) -> Any:
    """A seat of the finished table gets its own link to the same seat at the rematch."""
    access = as_seat(table_id)
    body(required=False)
    moved = service.follow_rematch(access)
    g.vt_access = moved
    return jsonify(
        {
            "id": moved.table.id,
            "seat": moved.seat,
            "token": moved.token,
            "url": url_for("virtual.join", table_id=moved.table.id, token=moved.token, _external=True),
            "view": answer(moved),
        }
    )
