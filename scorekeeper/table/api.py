"""The JSON API for table scorekeeping (API.md, "Scorekeeping"). Views parse, call a service, answer."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Blueprint
from flask import jsonify
from flask import request
from flask import url_for

from .. import games
from .. import limits
from ..engine import RulesError
from ..engine import Suit
from ..engine.errors import ScheduleError
from ..errors import BadRequest
from ..errors import Forbidden
from ..errors import WATCH_ONLY
from ..extensions import csrf
from ..games import Access
from ..i18n import _
from ..i18n import shown
from ..models import Game
from ..web import bearer
from ..web import body
from ..web import cookie_token
from ..web import whole_number
from . import service

bp = Blueprint("api", __name__, url_prefix="/api")
csrf.exempt(bp)  # JSON calls carry a bearer token, not a cookie


def version_of(data: dict[str, Any]) -> object:
    """The optional ``version`` from the body or from ``?version=`` (both must agree)."""
    query = request.args.get("version")
    if query is None:
        return data.get("version")
    version = whole_number(query, 20)
    if version is None:
        raise BadRequest(_("'version' must be the whole number from the game document, not {query!r}.", query=query))
    if "version" in data and data["version"] != version:
        raise BadRequest(_("The body and the address give two different versions; send one."))
    return int(query)


def access(game_id: str) -> Access:
    """Open a game for reading with the request's token (either token; 404 otherwise).

    Without a Bearer token the page's HttpOnly cookie opens the game, as for the PDF and the
    export: the scorer page's queue of entries made offline (static/queue.js) reads through it.
    """
    return games.open_game(game_id, bearer() or cookie_token(game_id))


def writer(game_id: str) -> str:
    """The request's token for a write, checked on the locked game by the service (403, 404).

    A write does not open the game first: the token is checked inside the write transaction.
    Without a Bearer token the page's cookie is the token (the scorer page's queue sends its
    entries so); it must then come with the page's CSRF token (``X-CSRFToken``), as a form would.
    """
    token = bearer()
    if token is None and (token := cookie_token(game_id)) is not None:
        csrf.protect()
    return token or ""


@contextmanager
def scorer_only(game_id: str) -> Iterator[str]:
    """A write's token (:func:`writer`), and what is wrong with its request told to the scorer alone.

    A request refused for its body, address or rules (400, 422) is answered so only once its
    token proves to be the scorer's: another of the game's tokens gets 403, any other token or
    an unknown game 404, whatever else is wrong (API.md, "Access"). A write that succeeds pays
    nothing for this: its token is checked on the locked game.
    """
    token = writer(game_id)
    try:
        yield token
    except (BadRequest, RulesError):
        if not games.open_game(game_id, token).can_write:
            raise Forbidden(_(WATCH_ONLY)) from None
        raise


def links(game_id: str, scorer: str, watch: str) -> dict[str, str]:
    """Scorer and watch links: opening one swaps the token for a cookie (API.md, "Access")."""
    return {
        "scorer_url": url_for("pages.join", game_id=game_id, token=scorer, _external=True),
        "watch_url": url_for("pages.join", game_id=game_id, token=watch, _external=True),
    }


def hand_number(raw: str) -> int:
    """The ``<n>`` of a hand's address: a whole number (its range is checked against the schedule)."""
    number = whole_number(raw, 20)
    if number is None:
        raise BadRequest(_("{raw!r} is not a hand number; hands are numbered from 1.", raw=raw))
    return number


@bp.post("/games")
@limits.creating
def create_game() -> Any:
    data = body()
    game, scorer, watch = games.create_game(
        data.get("players"), data.get("variant", "standard"), data.get("first_dealer", 0), data.get("options")
    )
    return created(game, scorer, watch)


def created(game: Game, scorer: str, watch: str) -> Any:
    """201 for a new game: its document, both tokens (shown this once) and their links."""
    answer = games.document(game) | {"scorer_token": scorer, "watch_token": watch} | links(game.id, scorer, watch)
    return jsonify(answer), 201, {"Location": url_for("api.get_game", game_id=game.id)}


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Any:
    return jsonify(games.document(access(game_id).game))


@bp.get("/games/<game_id>/version")
def get_version(game_id: str) -> Any:
    """Cheap polling for watchers: only the version number."""
    return jsonify({"version": games.version_of(game_id, bearer())})


@bp.get("/games/<game_id>/history")
def get_history(game_id: str) -> Any:
    """Every correction of recorded hands (edits and undos, old → new), oldest first."""
    game = access(game_id).game
    return jsonify({"id": game.id, "version": game.version, "corrections": games.history(game)})


@bp.put("/games/<game_id>/hands/<n>/bids")
def put_bids(game_id: str, n: str) -> Any:
    with scorer_only(game_id) as token:
        data = body()
        if "bids" not in data:
            raise BadRequest(_("The body needs 'bids': one number per player, in seat order."))
        number = hand_number(n)
        game = service.record_bids(game_id, number, data["bids"], asked_trump(data, number), version_of(data), token)
    return jsonify(games.document(game))


def asked_trump(data: dict[str, Any], number: int) -> object:
    """The trump a bids body records: ``trump`` (kept when left out), or none for ``"no_trump": true``,
    the game document's word for it (R12); ``"no_trump": false`` leaves ``trump`` to say it."""
    trump = data["trump"] if "trump" in data else service.KEEP
    no_trump = data.get("no_trump", False)
    if not isinstance(no_trump, bool):
        raise BadRequest(_("'no_trump' must be true or false, not {value}.", value=shown(no_trump)))
    if no_trump and trump not in (service.KEEP, None):
        raise ScheduleError(
            "Hand {number} cannot have trump {trump} and no trump at once (R12).",
            "R12",
            number=number,
            trump=Suit(service.stored_trump(trump)).symbol,  # a suit letter, or its own error
        )
    return None if no_trump else trump


@bp.put("/games/<game_id>/hands/<n>/tricks")
def put_tricks(game_id: str, n: str) -> Any:
    with scorer_only(game_id) as token:
        data = body()
        if "tricks" not in data:
            raise BadRequest(_("The body needs 'tricks': one number per player, in seat order."))
        game = service.record_tricks(game_id, hand_number(n), data["tricks"], version_of(data), token)
    return jsonify(games.document(game))


@bp.delete("/games/<game_id>/hands/<n>")
def delete_hand(game_id: str, n: str) -> Any:
    """Undo the latest hand with entries, bids and tricks together; ``n`` must be that hand (R25)."""
    with scorer_only(game_id) as token:
        data = body(required=False)
        game = service.undo(game_id, hand_number(n), version_of(data), token=token)
    return jsonify(games.document(game))
