"""A game's data in and out (API.md, "Scorekeeping"): ``export.json``, ``export.csv``, import.

Exports open with either token, as a Bearer header or as the page cookie the join link sets, so
a download link on the game page works without JavaScript. The file format is
:mod:`scorekeeper.exchange`'s.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint
from flask import Response

from .. import exchange
from .. import limits
from ..extensions import csrf
from ..table.api import created
from ..web import body
from ..web import csv_download
from ..web import download
from ..web import reader

bp = Blueprint("export", __name__)
csrf.exempt(bp)  # the one POST (import) is a JSON call, like the rest of the API


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
    return csv_download(exchange.export_csv(game), f"bluke-{game.id}.csv")


@bp.post("/api/games/import")
@limits.importing
def import_game() -> Any:
    """An ``export.json`` in, a new game out (new tokens, 201 as ``POST /api/games``), same scores."""
    return created(*exchange.import_game(body()))
