"""Static files under versioned URLs, cached for a year, and every text answer compressed.

``url_for('static', filename=…)`` adds ``?v=<digest of the file>``: a changed file gets a new
URL, so the old one can be cached ``immutable`` for a year and a repeat visit asks for nothing.
A request without the current digest (an old page, a hand-typed URL) is answered ``no-cache``.
Pages and JSON are compressed by Flask-Compress (brotli or gzip, as the browser accepts); static
files once per version, at the smallest setting (:func:`pack`).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import mimetypes
import posixpath
from pathlib import Path
from typing import Any

import brotli  # type: ignore[import-untyped]  # no stubs; two functions used
import rcssmin  # type: ignore[import-untyped]  # no stubs; one function used
import rjsmin  # type: ignore[import-untyped]  # no stubs; one function used
from flask import current_app
from flask import Flask
from flask import request
from flask import Response
from werkzeug.exceptions import NotFound

YEAR = 365 * 24 * 60 * 60
#: What is worth compressing: pages, styles, scripts, JSON answers, the manifest, SVG.
COMPRESSIBLE = [
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
    "text/csv",
]


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


def one_address(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """``url_value_preprocessor``: a static file has one address. Werkzeug serves ``./app.css`` and
    ``vendor/../app.css`` as ``app.css``; each spelling kept its own digest and compressed copy
    (brotli at its slowest each time), as many as a client cared to send: 404 but for the file's own."""
    filename = (values or {}).get("filename", "") if endpoint == "static" else ""
    if filename and posixpath.normpath(filename) != filename:
        raise NotFound()


def cache_static(response: Response) -> Response:
    """A static file under its current digest never changes: a year, ``immutable``; else revalidate."""
    if request.endpoint != "static" or response.status_code not in (200, 304):
        return response
    filename = (request.view_args or {}).get("filename", "")
    # The version sent, whatever the address asked: the service worker keeps a file under its
    # versioned address only when they agree (templates/sw.js, genuine). During a rolling deploy an
    # older server answers a newer page's address with its own, older file. A 304 says it too: the
    # browser hands the worker its stored copy with the 304's headers.
    response.headers["X-Bluke-Version"] = digest(filename)
    if response.status_code == 304:
        return response
    if response.mimetype in COMPRESSIBLE and response.is_streamed:
        pack(response, filename)
    if request.args.get("v") and request.args.get("v") == digest(filename):
        response.cache_control.public = True
        response.cache_control.max_age = YEAR
        response.cache_control.immutable = True
        response.cache_control.no_cache = None
    else:
        response.cache_control.max_age = None
        response.cache_control.no_cache = True
        if request.args.get("v"):  # another version's address: no cache keeps this file under it
            response.cache_control.no_store = True
    return response


def shrink(data: bytes, mimetype: str) -> bytes:
    r"""Our CSS and JS minified (rcssmin, rjsmin): without the comments that explain the source and
    the whitespace that means nothing; a phone need not download them.

    >>> shrink(b"a :hover {\n  color: red; /* why */\n}\n", "text/css")
    b'a :hover{color:red}'
    >>> shrink(b"if (a) {\n  /* why */\n  go(' x ');\n}\n", "text/javascript")
    b"if(a){go(' x ');}"
    """
    if mimetype == "text/css":
        return bytes(rcssmin.cssmin(data))
    if mimetype == "text/javascript":
        return bytes(rjsmin.jsmin(data))
    return data


def pack(response: Response, filename: str) -> None:
    """Send a static file compressed at the best ratio, compressed once per release and kept.

    Pages are compressed per answer by Flask-Compress at a fast level; a static file is the same
    for every phone, so it is worth brotli's slowest, smallest setting (quality 11), computed
    once per file version. Flask-Compress leaves an answer that already has an encoding alone.
    """
    source = response.response
    response.direct_passthrough = False
    data = response.get_data()
    getattr(source, "close", lambda: None)()  # the static file's handle
    response.vary.add("Accept-Encoding")
    accepted = request.accept_encodings
    encoding = "br" if accepted["br"] else "gzip" if accepted["gzip"] else None
    if encoding is None:
        response.set_data(data)
        return
    packed: dict[tuple[str, str, str], bytes] = current_app.extensions.setdefault("bluke_packed", {})
    key = (filename, digest(filename), encoding)
    if key not in packed:
        if not filename.startswith("vendor/"):
            data = shrink(data, response.mimetype or "")
        packed[key] = brotli.compress(data, quality=11) if encoding == "br" else gzip.compress(data, 9, mtime=0)
    response.set_data(packed[key])
    response.headers["Content-Encoding"] = encoding
    etag, weak = response.get_etag()
    if etag:
        response.set_etag(f"{etag}:{encoding}", weak=bool(weak))
    response.make_conditional(request)


def inline(filename: str) -> str:
    """A small static file as a ``data:`` URL (the favicon: one request fewer on every first load)."""
    known: dict[tuple[str, str], str] = current_app.extensions.setdefault("bluke_inline", {})
    key = (filename, digest(filename))
    if key not in known:
        data = (Path(current_app.static_folder or "") / filename).read_bytes()
        known[key] = f"data:{mimetypes.guess_type(filename)[0]};base64,{base64.b64encode(data).decode()}"
    return known[key]


def register(app: Flask) -> None:
    """Versioned static URLs, their caching, and compressed answers."""
    from .extensions import compress

    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSIBLE)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    # 6: the 32 KB hand screen 29 B smaller than at 5 in at most a fifth more time; 7 and 8 save some 10 B more,
    # 9 takes 13 times as long (benchmarks/first_load.py)
    app.config.setdefault("COMPRESS_BR_LEVEL", 6)
    compress.init_app(app)
    app.url_defaults(versioned)
    app.url_value_preprocessor(one_address)
    app.add_template_global(inline)
    app.after_request(cache_static)
