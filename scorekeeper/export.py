"""Scorecards as PDF and the game's data in and out (JSON, CSV, import) — API.md, "Scorekeeping".

A game's PDF and exports open with either token, as a Bearer header or as the page cookie that
``pages.join`` sets, so a print or download link on the game page works without JavaScript.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, request
from werkzeug.datastructures import MultiDict

from . import exchange, printing, services
from .api import bearer, body, created
from .engine import Rules, build_scorecard, check_records
from .extensions import csrf
from .pages import cookie_token
from .services import BadRequest

bp = Blueprint("export", __name__)
csrf.exempt(bp)  # the one POST (import) is a JSON call, like the rest of the API

TRUE, FALSE = ("1", "true", "yes", "on"), ("", "0", "false", "no", "off")


def reader(game_id: str) -> services.Access:
    """Open a game for reading with the Bearer token, else this browser's page cookie (404 otherwise)."""
    return services.open_game(game_id, bearer() or cookie_token(game_id))


def choice(args: Mapping[str, str], name: str, allowed: tuple[str, ...], default: str) -> str:
    """A query parameter that must be one of ``allowed`` (400 naming them otherwise)."""
    value = args.get(name, default).strip().lower()
    if value not in allowed:
        raise BadRequest(f"'{name}' must be {', '.join(allowed[:-1])} or {allowed[-1]}, not {args[name]!r}.")
    return value


def flag(args: Mapping[str, str], name: str) -> bool:
    """A yes/no query parameter: ``1``/``0``, ``true``/``false``, ``yes``/``no``, ``on``/``off``."""
    value = args.get(name, "").strip().lower()
    if value not in TRUE + FALSE:
        raise BadRequest(f"'{name}' must be 1 or 0, not {args[name]!r}.")
    return value in TRUE


def pdf_response(pdf: bytes, filename: str) -> Response:
    """A PDF shown in the browser (``inline``) that saves under a useful name."""
    return Response(pdf, mimetype="application/pdf", headers={
        "Content-Disposition": f'inline; filename="{filename}"',
        "Cache-Control": "private, no-store",
    })


def download(data: str, mimetype: str, filename: str) -> Response:
    """A file to save (``attachment``), never cached: it holds the players' names."""
    return Response(data, mimetype=mimetype, headers={
        "Content-Disposition": f'attachment; filename="{filename}"',
        "Cache-Control": "private, no-store",
    })


@bp.get("/api/games/<game_id>/scorecard.pdf")
def scorecard_pdf(game_id: str) -> Response:
    """``?style=creative|plain|blank&paper=a4|letter&chart=1``: the game's scorecard to print."""
    game = reader(game_id).game
    style = choice(request.args, "style", printing.STYLES, "creative")
    paper = choice(request.args, "paper", tuple(printing.PAPER_SIZES), "a4")
    sheet = printing.build_sheet(
        style, paper, services.rules_of(game), game.first_dealer, game.players, services.scorecard_of(game),
        played_on=game.created_at, game_id=game.id, chart=flag(request.args, "chart"),
    )
    return pdf_response(printing.render_pdf(sheet), f"bluke-{game.id}-{style}.pdf")


def seat_number(text: str) -> int | None:
    """A whole number written in ASCII digits, else ``None`` (``"²"`` or 5,000 digits are not)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None


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
        raise BadRequest("Give the players' names, as ?players=Ann,Ben,Cy, or their number, as ?players=4.")
    count = seat_number(given[0].strip()) if len(given) == 1 else None
    names = services.clean_names(given) if count is None else []
    rules = Rules.build(len(names) if count is None else count, args.get("variant", "standard"), options(args))
    first = seat_number(args.get("first_dealer", "0").strip())
    if first is None:
        raise BadRequest(f"'first_dealer' must be a seat number from 0 to {rules.players - 1}, "
                         f"not {args['first_dealer']!r}.")
    check_records(rules, first, [])  # a seat out of range, in the engine's words (R6)
    return rules, names or [""] * rules.players, first


@bp.get("/scorecards/blank.pdf")
def blank_pdf() -> Response:
    """A sheet for a game kept on paper, no stored game or token needed: names, cards and dealers.

    ``?players=…&variant=…&first_dealer=…&extended=1&all_cards_hand=1&zero_bids=1&paper=letter``
    (see :func:`blank_table`).
    """
    rules, names, first = blank_table(request.args)
    paper = choice(request.args, "paper", tuple(printing.PAPER_SIZES), "a4")
    sheet = printing.build_sheet("blank", paper, rules, first, names, build_scorecard(rules, first, []))
    return pdf_response(printing.render_pdf(sheet), f"bluke-blank-{rules.players}-players.pdf")


@bp.get("/api/games/<game_id>/export.json")
def export_json(game_id: str) -> Response:
    """The whole game as a versioned file (README.md, "Export format"); either token."""
    game = reader(game_id).game
    text = json.dumps(exchange.export_document(game), ensure_ascii=False, indent=1)  # keys in the documented order
    return download(text + "\n", "application/json", f"bluke-{game.id}.json")


@bp.get("/api/games/<game_id>/export.csv")
def export_csv(game_id: str) -> Response:
    """One row per hand per player; either token."""
    game = reader(game_id).game
    return download(exchange.export_csv(game), "text/csv", f"bluke-{game.id}.csv")


@bp.post("/api/games/import")
def import_game() -> Any:
    """An ``export.json`` in, a new game out (new tokens, 201 as ``POST /api/games``), same scores."""
    return created(*exchange.import_game(body()))
