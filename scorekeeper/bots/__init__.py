"""Computer players. Standard library only; a bot sees exactly what its seat's view shows.

A bot is a function ``(view, rules, rng) -> action`` where ``view`` is
:meth:`scorekeeper.engine.Game.view_for` for the bot's seat, and the action is a bid (``int``)
or a card code (``str``) taken from ``view["legal"]``. The view may also carry ``bots``, each
seat's bot level or None for a person, as every seat at a virtual table sees them (:func:`table_view`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..engine import Rules
from .basic import basic_bot
from .strong import strong_bot

Action = int | str
Bot = Callable[[dict[str, Any], Rules, random.Random], Action]


def random_bot(view: dict[str, Any], rules: Rules, rng: random.Random) -> Action:
    """A uniformly random legal action (tests and baselines)."""
    legal: list[Action] = view["legal"]
    return rng.choice(legal)


BOTS: dict[str, Bot] = {"random": random_bot, "basic": basic_bot, "strong": strong_bot}
LEVELS = ("random", "basic", "strong")


def table_view(view: dict[str, Any], levels: list[str | None]) -> dict[str, Any]:
    """A seat's view with each seat's bot level (None for a person) added, as ``bots``."""
    return {**view, "bots": list(levels)}


def decide(level: str, view: dict[str, Any], rules: Rules, rng: random.Random) -> Action:
    """The action of a bot of ``level`` for the seat whose ``view`` is given."""
    bot = BOTS.get(level, random_bot)
    return bot(view, rules, rng)
