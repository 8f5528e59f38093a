"""The installable, offline app: its manifest, its service worker and the page shown offline.

The service worker (``templates/sw.js``) keeps the app shell (the files listed in :data:`SHELL`)
and the last copy of every page the phone opened; the scorer's entries made offline wait in the
page's own queue (``static/queue.js``) and are sent by the page, never replayed by the worker.
"""

from __future__ import annotations

from .routes import bp
from .routes import SHELL

__all__ = ["SHELL", "bp"]
