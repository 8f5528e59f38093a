"""A live server that can be unplugged and plugged in again, and that counts what reaches it.

``context.set_offline(True)`` cuts the page off, but not its service worker's own requests
(microsoft/playwright#2311): a test of "no connection" would quietly still reach the server.
So offline tests also stop the server, which refuses connections until :meth:`plug`; and every
request that does reach it is logged (method, path, body bytes sent), so a test can say that a
queued entry arrived exactly once, or that a repeat visit asked for nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

from werkzeug.serving import BaseWSGIServer
from werkzeug.serving import make_server
from werkzeug.serving import WSGIRequestHandler

from scorekeeper import create_app
from scorekeeper.extensions import db


class QuietHandler(WSGIRequestHandler):
    def log_request(self, *args: Any, **kwargs: Any) -> None:
        pass


@dataclass
class Hit:
    """One request that reached the server."""

    method: str
    path: str
    query: str
    sent: int = 0  # body bytes as sent (compressed when the answer was)
    encoding: str = ""


@dataclass
class LiveServer:
    """The app on 127.0.0.1 with a fresh SQLite file; :meth:`unplug` / :meth:`plug` keep its port."""

    folder: Path
    hits: list[Hit] = field(default_factory=list)
    port: int = 0
    #: Writes answered "503 Service Unavailable" before they reach the app, as a proxy does while
    #: the app restarts: a test sets how many of the next PUT requests fail so.
    unavailable: int = 0
    #: The same for pages (a GET or HEAD that is neither a static file nor the API).
    pages_unavailable: int = 0
    #: Seconds a request waits before the app sees it, by its method and a text in its path and
    #: query (``("GET", "since=")``): a slow connection.
    slow: dict[tuple[str, str], float] = field(default_factory=dict)
    _httpd: BaseWSGIServer | None = None
    _thread: threading.Thread | None = None

    def __post_init__(self) -> None:
        self.app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{self.folder / 'live.sqlite'}",
                "SECRET_KEY": "browser-test",
                "INSTANCE_PATH": str(self.folder),
                "RATELIMIT_ENABLED": False,
            }
        )  # one server makes every test's games
        with self.app.app_context():
            db.create_all()
        self._lock = threading.Lock()
        self.plug()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _counting(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        hit = Hit(environ["REQUEST_METHOD"], environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", ""))
        with self._lock:
            self.hits.append(hit)
            failing = hit.method == "PUT" and self.unavailable > 0
            self.unavailable -= failing
            a_page = hit.method in ("GET", "HEAD") and not hit.path.startswith(("/static/", "/api/"))
            page_failing = a_page and self.pages_unavailable > 0
            self.pages_unavailable -= page_failing
            failing = failing or page_failing
        address = f"{hit.path}?{hit.query}"
        time.sleep(
            max((t for (method, part), t in self.slow.items() if method == hit.method and part in address), default=0)
        )
        if failing:
            start_response("503 Service Unavailable", [("Content-Type", "application/json"), ("Retry-After", "1")])
            yield b'{"error": {"message": "The server is restarting."}}'
            return

        def start(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            hit.encoding = next((v for k, v in headers if k.lower() == "content-encoding"), "")
            return start_response(status, headers, *args)

        answer = self.app(environ, start)
        try:
            for chunk in answer:
                hit.sent += len(chunk)
                yield chunk
        finally:
            getattr(answer, "close", lambda: None)()  # WSGI: the server closes what the app returned

    @property
    def plugged(self) -> bool:
        """Whether the server is serving (not unplugged)."""
        return self._httpd is not None

    def plug(self) -> None:
        """Serve (again, on the same port)."""
        self._httpd = make_server("127.0.0.1", self.port, self._counting, threaded=True, request_handler=QuietHandler)
        self.port = self._httpd.server_port
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        """Stop serving: connections to the port are refused, as with no network at all."""
        assert self._httpd and self._thread
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)
        self._httpd = None

    def close(self) -> None:
        if self._httpd:
            self.unplug()
        with self.app.app_context():
            db.engine.dispose()

    def count(self, method: str, path_start: str) -> int:
        """How many requests with this method and a path starting so reached the server."""
        with self._lock:
            return sum(1 for h in self.hits if h.method == method and h.path.startswith(path_start))

    def since(self, mark: int) -> list[Hit]:
        """The requests after the first ``mark`` ones (``mark = len(server.hits)`` taken earlier)."""
        with self._lock:
            return list(self.hits[mark:])


def live_server(folder: Path) -> Iterator[LiveServer]:
    """Fixture body: a :class:`LiveServer`, closed afterwards."""
    server = LiveServer(folder)
    yield server
    server.close()
