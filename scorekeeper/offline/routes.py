"""``/manifest.webmanifest``, ``/sw.js`` (served from the root so that it controls every page) and ``/offline``."""

from __future__ import annotations

import hashlib
from typing import Any

from flask import Blueprint
from flask import jsonify
from flask import render_template
from flask import Response
from flask import url_for

from ..assets import digest
from ..table.screens import rare_words
from ..web import POLICY

bp = Blueprint("offline", __name__)

#: The app shell: every static file the scorer's and the watcher's pages and the offline page use.
SHELL = ("app.css", "app.js", "rules.js", "queue.js", "queue-rare.js", "edit.js", "offline.js", "vendor/htmx.min.js")


def _fresh(response: Response, mimetype: str) -> Response:
    """Answers that must follow a new release at once: the browser revalidates them every time."""
    response.mimetype = mimetype
    response.headers["Cache-Control"] = "no-cache"
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Any:
    """The web app manifest: name, start page, standalone display, theme colours and icons."""
    return _fresh(Response(render_template("manifest.webmanifest")), "application/manifest+json")


@bp.get("/sw.js")
def worker() -> Any:
    """The service worker, with the versioned shell URLs; its cache name changes with any of them
    and with the offline page it keeps (in this request's language): a release that changes only
    that page's words reaches the phones too, since a worker whose bytes are the same is not installed again."""
    shell = [url_for("static", filename=name) for name in SHELL]
    made_of = "".join(digest(name) for name in SHELL) + _offline_page()
    release = hashlib.sha256(made_of.encode()).hexdigest()[:12]
    body = render_template("sw.js", shell=shell, cache=f"bluke-shell-{release}", offline=url_for(".offline"))
    return _fresh(Response(body), "text/javascript")


def _offline_page() -> str:
    return render_template("offline.html")


@bp.get("/offline")
def offline() -> Any:
    """What the worker shows for a page this phone has never opened while there is no connection."""
    response = Response(_offline_page())
    response.headers.setdefault("Content-Security-Policy", POLICY)
    return response


@bp.get("/offline/words")
def words() -> Any:
    """The sentences of the scorer's queue that its page does not carry (:func:`rare_words`), in
    the language of ``?lang=`` (the page's), else the request's."""
    return _fresh(jsonify(rare_words()), "application/json")
