"""Table mode: one scorer keeps a real table's score on a phone, everyone else watches.

``api`` is the JSON API (``/api/games/…``), ``pages`` the phone screens (``/``, ``/new``, ``/g/…``)
built from ``screens`` and ``forms``; ``service`` holds their writes (bids, tricks, undo).
"""

from . import api
from . import pages

__all__ = ["api", "pages"]
