"""Static files under versioned URLs, cached for a year, and every text answer compressed.

``url_for('static', filename=…)`` adds ``?v=<digest of the file>``: a changed file gets a new
URL, so the old one can be cached ``immutable`` for a year and a repeat visit asks for nothing.
A request without the current digest (an old page, a hand-typed URL) is answered ``no-cache``.
Compression (gzip or brotli, as the browser accepts) is Flask-Compress's.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, request

YEAR = 365 * 24 * 60 * 60
#: What is worth compressing: pages, styles, scripts, JSON answers, the manifest, SVG.
COMPRESSIBLE = ["text/html", "text/css", "text/javascript", "application/javascript", "application/json",
                "application/manifest+json", "image/svg+xml", "text/csv"]


def digest(filename: str) -> str:
    """A short digest of a static file's content, recomputed only when the file changes."""
    path = Path(current_app.static_folder or "") / filename
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return ""
    known: dict[str, tuple[int, str]] = current_app.extensions.setdefault("bluke_digests", {})
    if filename not in known or known[filename][0] != stamp:
        known[filename] = (stamp, hashlib.sha256(path.read_bytes()).hexdigest()[:12])
    return known[filename][1]


def versioned(endpoint: str, values: dict[str, Any]) -> None:
    """``url_defaults`` callback: every static URL carries its file's digest."""
    if endpoint == "static" and "filename" in values and "v" not in values:
        if version := digest(values["filename"]):
            values["v"] = version


def cache_static(response: Response) -> Response:
    """A static file under its current digest never changes: a year, ``immutable``; else revalidate."""
    if request.endpoint != "static" or response.status_code != 200:
        return response
    filename = (request.view_args or {}).get("filename", "")
    if response.mimetype in COMPRESSIBLE and response.is_streamed:
        # Read into memory (static files are small) so that Flask-Compress compresses it whole,
        # with a Content-Length and an ETag, instead of streaming it uncompressed.
        source = response.response
        data = b"".join(source)
        getattr(source, "close", lambda: None)()
        response.direct_passthrough = False
        response.set_data(data)
    if request.args.get("v") and request.args.get("v") == digest(filename):
        response.cache_control.public = True
        response.cache_control.max_age = YEAR
        response.cache_control.immutable = True
        response.cache_control.no_cache = None
    else:
        response.cache_control.max_age = None
        response.cache_control.no_cache = True
    return response


def register(app: Flask) -> None:
    """Versioned static URLs, their caching, and compressed answers."""
    from .extensions import compress

    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSIBLE)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)  # near the best ratio, fast enough per request
    compress.init_app(app)
    app.url_defaults(versioned)
    app.after_request(cache_static)
