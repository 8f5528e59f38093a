"""Scorecards as PDF and the game's data in and out (JSON, CSV, import)."""

from __future__ import annotations

from flask import Blueprint

from .extensions import csrf

bp = Blueprint("export", __name__)
csrf.exempt(bp)
