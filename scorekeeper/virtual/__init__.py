"""Virtual mode: tables of human and bot seats playing a full game on several phones."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("virtual", __name__)
