"""The JSON API of groups (API.md, "Groups"): parse, call the service, answer a document.

Every call needs the group's token as ``Authorization: Bearer``; a game's scorer or watch token
opens only that game, never its group (404 here, like a missing group).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any

from flask import Blueprint
from flask import current_app
from flask import jsonify
from flask import render_template
from flask import request
from flask import Response
from flask import stream_with_context
from flask import url_for
from sqlalchemy import func
from sqlalchemy import select
from sqlalchemy.orm.attributes import set_committed_value

from .. import exchange
from .. import games
from .. import limits
from ..errors import BadRequest
from ..errors import NotFound
from ..extensions import csrf
from ..extensions import db
from ..figures import minus
from ..i18n import _
from ..models import Correction
from ..models import Game
from ..models import Group
from ..models import GroupPlayer
from ..models import HandEntry
from ..models import utcnow
from ..printing import PAPER_SIZES
from ..printing import printer
from ..printing.routes import choice
from ..printing.routes import pdf_response
from ..printing.routes import print_game
from ..table.api import created
from ..virtual.api import create_from
from ..web import bearer
from ..web import body
from ..web import csv_download
from ..web import download
from . import service
from . import stats

bp = Blueprint("groups_api", __name__, url_prefix="/api/groups")
csrf.exempt(bp)  # JSON calls carry a bearer token, not a cookie


def opened(group_id: str) -> Group:
    """The group of the request's bearer token (404 when missing or wrong)."""
    return service.open_group(group_id, bearer())


def answer(group: Group) -> dict[str, Any]:
    """The group document, as it is after any write of this request (each commits first)."""
    return service.document(group, stats.season(group).played)


@bp.post("")
@limits.creating
def create_group() -> Any:
    data = body()
    group, token = service.create_group(data.get("name"), data.get("players"))
    url = url_for("groups.join", group_id=group.id, token=token, _external=True)
    return (
        jsonify(answer(group) | {"token": token, "url": url}),
        201,
        {"Location": url_for(".get_group", group_id=group.id)},
    )


@bp.get("/<group_id>")
def get_group(group_id: str) -> Any:
    return jsonify(answer(opened(group_id)))


@bp.post("/<group_id>/games")
@limits.creating
def create_game(group_id: str) -> Any:
    """As ``POST /api/games``; the names are matched to the roster (new ones join it)."""
    group = opened(group_id)
    data = body()
    return created(
        *games.create_game(
            data.get("players"),
            data.get("variant", "standard"),
            data.get("first_dealer", 0),
            data.get("options"),
            attach=service.seat_players(group.id),
        )
    )


@bp.post("/<group_id>/tables")
@limits.creating
def create_table(group_id: str) -> Any:
    """As ``POST /api/tables``; the table's game belongs to the group."""
    group = opened(group_id)
    return create_from(body(), service.seat_players(group.id))


@bp.post("/<group_id>/import")
@limits.importing
def import_game(group_id: str) -> Any:
    """As ``POST /api/games/import``, into the group; a game of the group's export.json keeps its
    seats' players by their ``group_players`` ids."""
    group = opened(group_id)
    data = body()
    origin = (data.get("origin"), data.get("id"))
    attach = service.seat_players(group.id, data.get("group_players"), data.get("group_names"), origin)
    return created(*exchange.import_game(data, attach))


@bp.patch("/<group_id>/players/<player_id>")
@limits.changing_groups
def rename_player(group_id: str, player_id: str) -> Any:
    group = opened(group_id)
    sent = body()
    service.rename(
        group.id,
        player_id,
        needs(sent, "name", _('the player\'s new name, such as {"name": "Ann B."}')),
        sent.get("was"),
    )
    return jsonify(answer(group))


@bp.post("/<group_id>/players/<player_id>/merge")
@limits.changing_groups
def merge_player(group_id: str, player_id: str) -> Any:
    group = opened(group_id)
    service.merge(
        group.id, player_id, needs(body(), "into", _("the id of the player to keep, from the group document"))
    )
    return jsonify(answer(group))


@bp.delete("/<group_id>/players/<player_id>")
@limits.changing_groups
def remove_player(group_id: str, player_id: str) -> Any:
    """A roster player who sat at none of the group's games leaves the roster (400 otherwise)."""
    group = opened(group_id)
    service.remove_player(group.id, player_id)
    return jsonify(answer(group))


@bp.delete("/<group_id>/games/<game_id>")
@limits.changing_groups
def remove_game(group_id: str, game_id: str) -> Any:
    """The game leaves the group and its statistics; it stays a game of its own, with its links."""
    group = opened(group_id)
    service.remove_game(group.id, game_id)
    return jsonify(answer(group))


@bp.get("/<group_id>/stats")
def get_stats(group_id: str) -> Any:
    return current_app.response_class(stats.season(opened(group_id)).answer(), mimetype="application/json")


def needs(data: dict[str, Any], key: str, what: str) -> object:
    """``data[key]``, or a 400 that says what the body lacks."""
    if key not in data:
        raise BadRequest(_("The body needs '{key}': {what}.", key=key, what=what))
    return data[key]


# -- files: opened with the Bearer token or the group page's cookie, so page links work without JavaScript
def reader(group_id: str) -> Group:
    """The group of the request's Bearer token, else of this browser's group cookie (404 otherwise)."""
    return service.open_group(group_id, bearer() or request.cookies.get(service.GROUP_COOKIE + group_id))


#: Games read at once for a group's export: the server holds the hands and corrections of 50
#: games at a time, however large the group (1000 games of 500 corrections each: 500,000).
EXPORT_BATCH = 50


def _rows(model: Any) -> Callable[[str], Any]:
    """How many rows of ``model`` (games, roster players) a group holds, as a query."""
    return lambda group_id: select(func.count()).select_from(model).where(model.group_id == group_id)


def _corrections(group_id: str) -> Any:
    """How many corrections the group's games hold, as a query."""
    return select(func.count()).select_from(Correction).join(Game).where(Game.group_id == group_id)


def _size(*parts: tuple[Callable[[str], Any], int]) -> Callable[[], int]:
    """What a whole-group file costs of its budget: one, and one more for every ``per`` rows of
    each ``(count, per)`` part the request's group holds. Without the group's token, one: what a
    request costs must not tell that a group exists, or how large it is."""

    def cost() -> int:
        group_id = (request.view_args or {}).get("group_id", "")
        try:
            reader(group_id)
        except NotFound:
            return 1
        return 1 + sum((db.session.scalar(count(group_id)) or 0) // per for count, per in parts)

    return cost


@bp.get("/<group_id>/export.json")
@limits.weighed("RATELIMIT_RENDER", "export", _size((_rows(Game), 200), (_corrections, 100_000)))
def export_json(group_id: str) -> Response:
    """Every game of the group, each one an ``export.json`` that ``POST …/import`` takes back."""
    name = f"bluke-group-{reader(group_id).id}.json"  # a wrong group or token: 404 before anything is sent

    def text() -> Iterator[str]:
        """One game a line, by the C encoder (``indent`` would take the pure-Python one, five times
        slower). Read here, in the session the stream runs in."""
        group = reader(group_id)
        played = stats.load(group)
        players = service.player_list(stats.roster(group))
        head = {
            "format": exchange.GROUP_FORMAT,
            "format_version": 1,
            "exported_at": exchange.iso(utcnow()),
            "group": {"id": group.id, "name": group.name, "players": players},
        }
        names = {player["id"]: player["name"] for player in players}  # each seat's roster name, renamed and merged
        yield json.dumps(head, ensure_ascii=False)[:-1] + ', "games": [\n'
        for start in range(0, len(played), EXPORT_BATCH):
            batch = {p.game.id: p for p in played[start : start + EXPORT_BATCH]}
            ids = list(batch)  # two queries a batch, not two a game
            hands = _by_game(
                db.session.scalars(select(HandEntry).where(HandEntry.game_id.in_(ids)).order_by(HandEntry.number)), ids
            )
            query = select(*CORRECTION_COLUMNS).where(Correction.game_id.in_(ids)).order_by(Correction.id)
            corrections = _by_game(db.session.execute(query), ids)
            for game_id, p in batch.items():
                set_committed_value(p.game, "hands", hands[game_id])
                seats: dict[str, Any] = {"group_players": p.seats, "group_names": [names.get(pl, "") for pl in p.seats]}
                if p.game.origin:  # a copy: imported anywhere, it is the game it was copied from (seat_players)
                    seats["origin"] = p.game.origin
                document = exchange.export_document(p.game, corrections[game_id], p.bots)  # no query a game
                line = json.dumps(document | seats, ensure_ascii=False)
                yield ("" if p is played[0] else ",\n") + line
                db.session.expire(p.game, ["hands"])  # written: let them go
        yield "\n]}\n"

    def spooled() -> Iterator[bytes]:
        """The file written whole first (on disk past a megabyte: it is never whole in memory, 100
        MB at the caps), then the database let go and the file sent: a phone that reads it slowly
        holds a thread, never a transaction (on PostgreSQL, a connection idle in it)."""
        with tempfile.SpooledTemporaryFile(max_size=2**20) as out:
            for line in text():
                out.write(line.encode())
            db.session.close()
            out.seek(0)
            while chunk := out.read(2**16):
                yield chunk

    return download(stream_with_context(spooled()), "application/json", name)


#: A correction as the export writes it, read as plain rows (up to 500 a game: no objects to track).
CORRECTION_COLUMNS = (
    Correction.game_id,
    Correction.id,
    Correction.at,
    Correction.hand,
    Correction.field,
    Correction.old,
    Correction.new,
)


def _by_game(found: Iterable[Any], ids: list[str]) -> dict[str, list[Any]]:
    """Rows (or objects) with a ``game_id``, by game, in the order found."""
    rows: dict[str, list[Any]] = {game_id: [] for game_id in ids}
    for row in found:
        rows[row.game_id].append(row)
    return rows


@bp.get("/<group_id>/games/<game_id>/scorecard.pdf")
@limits.rendering
def game_pdf(group_id: str, game_id: str) -> Response:
    """A group game's scorecard to print, as ``/api/games/<id>/scorecard.pdf`` gives it to the game's
    own links (the group's export.json already holds every hand of it)."""
    return print_game(service.group_game(reader(group_id), game_id))


@bp.get("/<group_id>/stats.csv")
def stats_csv(group_id: str) -> Response:
    """One row per player: the statistics answer's figures, for a spreadsheet."""
    season = stats.season(reader(group_id))
    return csv_download(stats.csv_text(season), f"bluke-group-{season.group.id}-stats.csv")


@bp.get("/<group_id>/summary.pdf")
@limits.weighed("RATELIMIT_RENDER", "render", _size((_rows(GroupPlayer), 50)))
def summary_pdf(group_id: str) -> Response:
    """The season summary to print: the leaderboard and each player's S/O/P line (``?paper=a4|letter``)."""
    season = stats.season(reader(group_id))
    paper = choice(request.args, "paper", tuple(PAPER_SIZES), "a4")
    html = render_template(
        "print/season.html", season=season, leaders=season.leaderboard(), points=minus, printed_on=utcnow()
    )
    return pdf_response(printer().pdf(html, paper), f"bluke-group-{season.group.id}.pdf")
