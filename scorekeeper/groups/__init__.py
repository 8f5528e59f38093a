"""Groups: the same players over many games, their roster and their statistics across games.

``api`` is the JSON API (``/api/groups/…``), ``pages`` the phone pages (``/groups/…``), ``service``
holds the writes (create, seat a game's players, rename, merge) and ``stats`` adds up the engine's
scorecards of every game in a group.
"""

from . import api
from . import pages

__all__ = ["api", "pages"]
