#!/usr/bin/env python3
"""What a phone downloads: the hand screen's and the watch page's first load and repeat visit.

A live server (SQLite in a temporary folder) and Debian's Chromium at a phone viewport. For the
scorer's hand screen (a 4-player game, hand 1) and for the watch page of the same game:

* **first load** — a fresh browser profile (service workers blocked, so only what the page itself
  needs) opens the page; every request that reaches the server up to the ``load`` event is
  counted, with the body bytes as sent (compressed: brotli or gzip, as Chromium asks) and the
  same URLs fetched again uncompressed (``Accept-Encoding: identity``) for comparison;
* **install** — in a fresh profile with the service worker, the bytes its one-off install adds
  (the worker and the app shell it keeps for offline use);
* **repeat visit** — the same profile opens the page again (a new navigation, as from the home
  screen): requests that still reach the server, with the service worker, and with the HTTP
  cache alone (versioned static URLs, cached a year, ``immutable``).

Targets (issue "installable, works offline"): hand screen < 20 KB compressed, watch page < 40 KB.

Last, the hand screen's page compressed at brotli levels 4 to 9 side by side: its bytes and the
time each level takes, as a ratio to the level the app uses (``COMPRESS_BR_LEVEL``).

    .venv/bin/python benchmarks/first_load.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import brotli  # type: ignore[import-untyped]
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import ARGS  # noqa: E402
from tests.browser.conftest import CHROMIUM  # noqa: E402
from tests.browser.offline_kit import Hit  # noqa: E402
from tests.browser.offline_kit import LiveServer  # noqa: E402

TARGETS = {"hand": 20_000, "watch": 40_000}
PHONE = {"viewport": {"width": 412, "height": 915}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def visit(context: Any, server: LiveServer, url: str, wait_worker: bool) -> list[Hit]:
    """Open ``url`` in a new tab; the requests that reached the server until it loaded (and, with
    ``wait_worker``, until the service worker had installed the app shell)."""
    mark = len(server.hits)
    page = context.new_page()
    page.goto(url, wait_until="load")
    if wait_worker:
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        # the page and the home page kept for offline use, fetched once by the new worker
        page.wait_for_function("caches.open('bluke-pages').then(c => c.match(location.origin + '/')).then(Boolean)")
    hits = [h for h in server.since(mark) if not h.query.startswith("since=")]  # not the watch page's polls
    page.close()
    return hits


def identity_bytes(server: LiveServer, hits: list[Hit], cookies: dict[str, str]) -> int:
    """The same requests, uncompressed."""
    total = 0
    for hit in hits:
        url = server.url + hit.path + (f"?{hit.query}" if hit.query else "")
        answer = requests.get(url, headers={"Accept-Encoding": "identity"}, cookies=cookies, allow_redirects=False)
        total += len(answer.content)
    return total


def opened(browser: Any, join_url: str, workers: bool) -> Any:
    """A fresh phone profile holding the page cookie (the join link answered, its page not loaded)."""
    context = browser.new_context(service_workers="allow" if workers else "block", **PHONE)
    context.request.get(join_url, max_redirects=0)
    return context


def measure(browser: Any, server: LiveServer, name: str, join_url: str, page_url: str) -> dict[str, Any]:
    """First load without a worker (what the page itself needs), the worker's one-off install, repeat visits."""
    plain = opened(browser, join_url, workers=False)
    cookies = {c["name"]: c["value"] for c in plain.cookies()}
    first = visit(plain, server, page_url, wait_worker=False)
    repeat_http = visit(plain, server, page_url, wait_worker=False)
    plain.close()
    with_worker = opened(browser, join_url, workers=True)
    installed = visit(with_worker, server, page_url, wait_worker=True)
    repeat_sw = visit(with_worker, server, page_url, wait_worker=False)
    with_worker.close()
    return {
        "page": name,
        "requests": len(first),
        "compressed": sum(h.sent for h in first),
        "uncompressed": identity_bytes(server, first, cookies),
        "install": sum(h.sent for h in installed) - sum(h.sent for h in first),
        "repeat_sw": [h.path for h in repeat_sw],
        "repeat_http": [h.path for h in repeat_http],
        "paths": [f"{h.path} {h.sent} B {h.encoding or 'identity'}" for h in first],
    }


def levels(server: LiveServer, scorer_url: str, page_url: str) -> list[str]:
    """The hand screen's page at brotli levels 4 to 9: bytes, and time against the app's level."""
    session = requests.Session()
    session.get(scorer_url)  # the scorer's cookie
    html = session.get(page_url, headers={"Accept-Encoding": "identity"}).content
    used = server.app.config["COMPRESS_BR_LEVEL"]
    seconds = dict.fromkeys(range(4, 10), 0.0)
    for _ in range(200):  # interleaved rounds: a noisy machine slows every level alike
        for level in seconds:
            start = time.perf_counter()
            brotli.compress(html, quality=level)
            seconds[level] += time.perf_counter() - start
    lines = [f"hand screen page, {len(html)} B: brotli level, bytes, time as a ratio to level {used} (the app's)"]
    for level, spent in seconds.items():
        lines.append(f"  {level}: {len(brotli.compress(html, quality=level))} B, x{spent / seconds[used]:.2f}")
    return lines


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(Path(folder))
        try:
            game = requests.post(server.url + "/api/games", json={"players": ["Ann", "Ben", "Cy", "Dee"]}).json()
            page_url = f"{server.url}/g/{game['id']}"
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                rows = [
                    measure(browser, server, "hand", game["scorer_url"], page_url),
                    measure(browser, server, "watch", game["watch_url"], page_url),
                ]
                browser.close()
            compression = levels(server, game["scorer_url"], page_url)
        finally:
            server.close()
    print(
        f"{'page':<6} {'requests':>8} {'compressed':>11} {'uncompressed':>13} {'target':>8} {'repeat (sw)':>12} {'repeat (http cache)':>20}"
    )
    for row in rows:
        print(
            f"{row['page']:<6} {row['requests']:>8} {row['compressed']:>9} B {row['uncompressed']:>11} B "
            f"{'< ' + str(TARGETS[row['page']] // 1000) + ' KB':>8} {len(row['repeat_sw']):>12} {len(row['repeat_http']):>20}"
        )
    for row in rows:
        print(f"\n{row['page']}: first load {row['paths']}")
        print(f"  with the service worker, its one-off install adds {row['install']} B (worker and app shell)")
        print(
            f"  repeat visit reaches the server for: with the worker {row['repeat_sw']}, HTTP cache only {row['repeat_http']}"
        )
    print("\n" + "\n".join(compression))


if __name__ == "__main__":
    main()
