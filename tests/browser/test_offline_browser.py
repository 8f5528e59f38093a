"""The installable app without a connection, in Chromium at a phone viewport.

"Offline" here is ``context.set_offline(True)`` for the page *and* the server unplugged (see
``offline_kit``): the service worker's own requests are not cut by Playwright's switch.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from .offline_kit import LiveServer, live_server

pytestmark = pytest.mark.browser
PHONE = {"viewport": {"width": 412, "height": 915}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from live_server(tmp_path_factory.mktemp("live"))


def new_game(live: LiveServer, players: tuple[str, ...] = ("Ann", "Ben", "Cy", "Dee")) -> dict[str, Any]:
    answer = requests.post(live.url + "/api/games", json={"players": list(players)}, timeout=10)
    assert answer.status_code == 201
    return answer.json()


def scorer_phone(browser: Any, game: dict[str, Any]) -> tuple[Any, Any]:
    """A phone that opened the scorer link, with the service worker in control of the page."""
    context = browser.new_context(**PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(game["scorer_url"])
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # the worker controls pages loaded after it is ready
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    return context, page


def go_offline(context: Any, live: LiveServer) -> None:
    context.set_offline(True)
    live.unplug()


def go_online(context: Any, live: LiveServer) -> None:
    live.plug()
    context.set_offline(False)


def test_chromium_finds_the_app_installable(browser_type_and_profile: tuple[Any, Path], live: LiveServer) -> None:
    browser_type, profile = browser_type_and_profile
    from .conftest import ARGS, CHROMIUM

    context = browser_type.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=ARGS, **PHONE)
    try:
        page = context.new_page()
        page.goto(live.url + "/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getAppManifest")["errors"] == []
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()


def test_the_hand_screen_reloads_without_a_connection(browser: Any, live: LiveServer) -> None:
    context, page = scorer_phone(browser, new_game(live))
    try:
        go_offline(context, live)
        page.reload()
        expect(page.locator("h1")).to_have_text("Hand 1 of 25")
        expect(page.locator("#bid0-1")).to_be_attached()
        assert page.evaluate("getComputedStyle(document.body).fontFamily")  # the cached stylesheet applies
        assert page.evaluate("document.styleSheets[0].cssRules.length") > 10
    finally:
        go_online(context, live)
        context.close()


def test_a_page_never_opened_shows_the_offline_page_not_the_browser_error(browser: Any, live: LiveServer) -> None:
    context, page = scorer_phone(browser, new_game(live))
    try:
        go_offline(context, live)
        page.goto(live.url + "/new")
        expect(page.locator("h1")).to_have_text("No connection")
    finally:
        go_online(context, live)
        context.close()


def test_a_repeat_visit_asks_the_server_only_for_the_page(browser: Any, live: LiveServer) -> None:
    game = new_game(live)
    for workers in ("allow", "block"):
        context = browser.new_context(service_workers=workers, **PHONE)
        context.request.get(game["watch_url"], max_redirects=0)  # the cookie, without loading the page
        page = context.new_page()
        page.goto(f"{live.url}/g/{game['id']}")
        if workers == "allow":
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        mark = len(live.hits)
        again = context.new_page()
        again.goto(f"{live.url}/g/{game['id']}")
        reached = [h.path for h in live.since(mark) if not h.query.startswith("since=")]
        assert reached == [f"/g/{game['id']}"], (workers, reached)
        context.close()


@pytest.mark.parametrize("role, budget", [("scorer", 20_000), ("watch", 40_000)])
def test_the_first_load_stays_within_its_budget(browser: Any, live: LiveServer, role: str, budget: int) -> None:
    """Hand screen < 20 KB and watch page < 40 KB compressed (everything the page loads)."""
    game = new_game(live)
    context = browser.new_context(service_workers="block", **PHONE)
    context.request.get(game[f"{role}_url"], max_redirects=0)
    mark = len(live.hits)
    context.new_page().goto(f"{live.url}/g/{game['id']}", wait_until="load")
    hits = [h for h in live.since(mark) if not h.query.startswith("since=")]
    context.close()
    assert all(h.encoding in ("br", "gzip") for h in hits if not h.path.endswith(".png")), hits
    assert sum(h.sent for h in hits) < budget, hits
