"""A real server in a thread and Debian's Chromium, for tests that tap like a person.

Playwright's own browser download does not work everywhere; the tests launch the system
Chromium (``make system-packages`` installs it) and are skipped, saying why, when it is missing.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server
from werkzeug.serving import WSGIRequestHandler

from scorekeeper import create_app
from scorekeeper.extensions import db

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class QuietHandler(WSGIRequestHandler):
    def log_request(self, *args: Any, **kwargs: Any) -> None:
        pass


def serve(folder: Path, **config: Any) -> Iterator[str]:
    """Run the app on 127.0.0.1 against a fresh SQLite file in ``folder``; yield its base URL."""
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'browser.sqlite'}",
            "SECRET_KEY": "browser-test",
            "INSTANCE_PATH": str(folder),
            "RATELIMIT_ENABLED": False,  # one server creates every test's games; limits: test_limits.py
            **config,
        }
    )
    with app.app_context():
        db.create_all()
    httpd = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    thread.join(timeout=5)
    httpd.server_close()
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on 127.0.0.1 with a fresh SQLite file; yields its base URL."""
    yield from serve(tmp_path_factory.mktemp("server"))


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The same, dealing the cards a seed says (the same table every run)."""
    yield from serve(tmp_path_factory.mktemp("seeded"), ALLOW_SEED=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"Chromium not found at {CHROMIUM} (make system-packages installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: ``$SCREENSHOTS_DIR`` when set (to look at them), else a temp folder."""
    folder = Path(os.environ.get("SCREENSHOTS_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def browser_type_and_profile(tmp_path: Path) -> Iterator[tuple[Any, Path]]:
    """Chromium's launcher and an empty profile folder, for a persistent (not incognito) profile:
    Chromium never offers to install an app from an incognito window."""
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"Chromium not found at {CHROMIUM} (make system-packages installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright.chromium, tmp_path / "profile"
