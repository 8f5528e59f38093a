"""Printable scorecards as PDF (API.md, "Scorekeeping"; README, "Export format").

A game's PDF opens with either token, as a Bearer header or as the page cookie the join link
sets, so the print button on the game page works without JavaScript; a blank sheet needs none.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import Blueprint
from flask import request
from flask import Response
from flask_babel import to_user_timezone
from werkzeug.datastructures import MultiDict

from .. import games
from .. import limits
from ..engine import build_scorecard
from ..engine import check_records
from ..engine import Rules
from ..errors import BadRequest
from ..i18n import _
from ..models import Game
from ..web import reader
from ..web import whole_number
from . import build_sheet
from . import PAPER_SIZES
from . import render_pdf
from . import STYLES

bp = Blueprint("printing", __name__)


TRUE, FALSE = ("1", "true", "yes", "on"), ("", "0", "false", "no", "off")


def choice(args: Mapping[str, str], name: str, allowed: tuple[str, ...], default: str) -> str:
    """A query parameter that must be one of ``allowed`` (400 naming them otherwise)."""
    value = args.get(name, default).strip().lower()
    if value not in allowed:
        raise BadRequest(
            _(
                "'{name}' must be {allowed} or {last}, not {arg!r}.",
                name=name,
                allowed=", ".join(allowed[:-1]),
                last=allowed[-1],
                arg=args[name],
            )
        )
    return value


def flag(args: Mapping[str, str], name: str) -> bool:
    """A yes/no query parameter: ``1``/``0``, ``true``/``false``, ``yes``/``no``, ``on``/``off``."""
    value = args.get(name, "").strip().lower()
    if value not in TRUE + FALSE:
        raise BadRequest(_("'{name}' must be 1 or 0, not {arg!r}.", name=name, arg=args[name]))
    return value in TRUE


def pdf_response(pdf: bytes, filename: str) -> Response:
    """A PDF shown in the browser (``inline``) that saves under a useful name."""
    return Response(
        pdf,
        mimetype="application/pdf",
        headers={
            "Content-Disposition": f'inline; filename="{filename}"',
            "Cache-Control": "private, no-store",
        },
    )


@bp.get("/api/games/<game_id>/scorecard.pdf")
@limits.rendering
def scorecard_pdf(game_id: str) -> Response:
    return print_game(reader(game_id).game)


def print_game(game: Game) -> Response:
    """``?style=creative|plain|blank&paper=a4|letter&chart=1``: the game's scorecard to print."""
    style = choice(request.args, "style", STYLES, "creative")
    paper = choice(request.args, "paper", tuple(PAPER_SIZES), "a4")
    chart = flag(request.args, "chart") and style != "blank"  # a blank sheet has no scores to chart
    sheet = build_sheet(
        style,
        paper,
        games.rules_of(game),
        game.first_dealer,
        game.players,
        games.scorecard_of(game),
        played_on=game.created_at,
        game_id=game.id,
        chart=chart,
        virtual=game.mode == "virtual",
        bots=games.bot_seats(game),
    )
    # Saved under the day it was played (printed on it, in the phone's time zone), and apart from
    # the same sheet with its chart.
    name = f"bluke-{to_user_timezone(game.created_at):%Y-%m-%d}-{game.id}-{style}{'-chart' if chart else ''}.pdf"
    return pdf_response(render_pdf(sheet), name)


def options(args: Mapping[str, str]) -> dict[str, bool]:
    """The game options (R9, R10, R13 house rule) from query parameters."""
    return {name: flag(args, name) for name in ("extended", "all_cards_hand", "zero_bids")}


def blank_table(args: MultiDict[str, str]) -> tuple[Rules, list[str], int]:
    """The table a blank sheet is for: rules, names (``""`` for unnamed seats) and first dealer.

    ``players=Ann,Ben,Cy`` (or ``players=Ann&players=Ben…``) names the seats; ``players=4`` only
    counts them. The engine checks the table (R4, R6, R9, R10, R18) in its own words.
    """
    given = args.getlist("players")
    if len(given) == 1:
        given = given[0].split(",")
    if not given or given == [""]:
        raise BadRequest(_("Give the players' names, as ?players=Ann,Ben,Cy, or their number, as ?players=4."))
    count = whole_number(given[0].strip()) if len(given) == 1 else None
    names = games.clean_names(given) if count is None else []
    rules = Rules.build(len(names) if count is None else count, args.get("variant", "standard"), options(args))
    first = whole_number(args.get("first_dealer", "0").strip())
    if first is None:
        raise BadRequest(
            _(
                "'first_dealer' must be a seat number from 0 to {last}, not {arg!r}.",
                last=rules.players - 1,
                arg=args["first_dealer"],
            )
        )
    check_records(rules, first, [])  # a seat out of range, in the engine's words (R6)
    return rules, names or [""] * rules.players, first


@bp.get("/scorecards/blank.pdf")
@limits.rendering
def blank_pdf() -> Response:
    """A sheet for a game kept on paper, no stored game or token needed: names, cards and dealers.

    ``?players=…&variant=…&first_dealer=…&extended=1&all_cards_hand=1&zero_bids=1&paper=letter``
    (see :func:`blank_table`).
    """
    rules, names, first = blank_table(request.args)
    paper = choice(request.args, "paper", tuple(PAPER_SIZES), "a4")
    sheet = build_sheet("blank", paper, rules, first, names, build_scorecard(rules, first, []))
    return pdf_response(render_pdf(sheet), f"bluke-blank-{rules.players}-players.pdf")
