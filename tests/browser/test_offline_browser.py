"""The installable app without a connection, in Chromium at a phone viewport.

"Offline" here is ``context.set_offline(True)`` for the page *and* the server unplugged (see
``offline_kit``): the service worker's own requests are not cut by Playwright's switch.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.vectors import FILE as VECTORS
from tests.web.groups_kit import export_file
from tests.web.groups_kit import legal_hands

from .accessibility import assert_accessible
from .conftest import ARGS
from .conftest import CHROMIUM
from .offline_kit import live_server
from .offline_kit import LiveServer
from .phone_kit import eventually
from .phone_kit import hold
from .phone_kit import lose_the_first_answer
from .phone_kit import no_sideways_scroll
from .phone_kit import phone as small_phone
from .phone_kit import until_held

pytestmark = pytest.mark.browser
PHONE = {"viewport": {"width": 412, "height": 915}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from live_server(tmp_path_factory.mktemp("live"))


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    """A Chromium of this test's own, reached over CDP and ended by killing its process.

    Closing a context whose service worker is busy can hang inside Chromium (it did in a CI run,
    after every assertion of the test had passed, and Playwright's close has no timeout). So no
    test here closes its contexts: the browser process goes at the end, and nothing can hang.
    """
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"Chromium not found at {CHROMIUM} (make system-packages installs it)")
    from playwright.sync_api import sync_playwright

    profile = tmp_path / "chromium"
    # As Playwright launches it: no back/forward cache (a page restored from it fires no "load"),
    # no throttled timers in pages it considers hidden.
    quirks = [
        "--disable-back-forward-cache",
        "--disable-background-timer-throttling",
        "--disable-backgrounding-occluded-windows",
        "--disable-renderer-backgrounding",
    ]
    command = [CHROMIUM, *ARGS, *quirks, "--remote-debugging-port=0", f"--user-data-dir={profile}", "about:blank"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        written = profile / "DevToolsActivePort"  # Chromium writes the port it chose here
        deadline = time.monotonic() + 30
        while not (port := written.read_text().split("\n")[0] if written.exists() else "").isdigit():
            assert process.poll() is None and time.monotonic() < deadline, "Chromium did not start within 30 s"
            time.sleep(0.05)
        with sync_playwright() as playwright:
            yield playwright.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
            process.kill()
    finally:
        process.kill()
        process.wait(timeout=30)


def new_game(live: LiveServer, players: tuple[str, ...] = ("Ann", "Ben", "Cy", "Dee")) -> dict[str, Any]:
    answer = requests.post(live.url + "/api/games", json={"players": list(players)}, timeout=10)
    assert answer.status_code == 201
    return answer.json()


def bearer(game: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['scorer_token']}"}


#: ``navigator.serviceWorker.ready`` never settles when no worker activates: bound the wait in
#: the page (``evaluate`` itself has no timeout) so the test fails with a reason instead of hanging.
WORKER_READY = """Promise.race([
    navigator.serviceWorker.ready.then(() => true),
    new Promise(resolve => setTimeout(() => resolve(false), 15000)),
])"""


def worker_ready(page: Any) -> None:
    assert page.evaluate(WORKER_READY), "no service worker became active within 15 s"


def phone(browser: Any) -> tuple[Any, Any]:
    """A new phone (its own storage and worker) with one page open on nothing yet."""
    context = browser.new_context(**PHONE)
    context.set_default_timeout(10_000)
    return context, context.new_page()


def open_as_scorer(page: Any, game: dict[str, Any]) -> None:
    """Open the scorer link, with the service worker in control of the page."""
    page.goto(game["scorer_url"])
    worker_ready(page)
    page.reload()  # the worker controls pages loaded after it is ready
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    until(page, kept_page(page.url))  # its copy for offline use is stored after the page is answered


def scorer_phone(browser: Any, game: dict[str, Any]) -> tuple[Any, Any]:
    """A phone that opened the scorer link, with the service worker in control of the page."""
    context, page = phone(browser)
    open_as_scorer(page, game)
    return context, page


def go_offline(context: Any, live: LiveServer) -> None:
    context.set_offline(True)
    live.unplug()


def go_online(context: Any, live: LiveServer) -> None:
    """The server plugged in again (unless a test already did, for another phone), then the phone."""
    if not live.plugged:
        live.plug()
    context.set_offline(False)


def bids_waiting_offline(context: Any, page: Any, live: LiveServer) -> None:
    """Without a connection, hand 1's bids of Ann, Ben and Cy tapped: one entry waits on the phone."""
    go_offline(context, live)
    tap(page, "bid1-5", "bid2-3", "bid0-4")
    expect(page.locator("#sync")).to_have_text("Offline — 1 entry waiting")


def test_bids_saved_by_the_last_tap_wait_offline_on_a_browser_without_request_submit(
    browser: Any, live: LiveServer
) -> None:
    """Safari before 16 has no form.requestSubmit: the last bid's save went through form.submit(),
    which fires no submit event, so the queue never saw it and the phone showed its own "no
    connection" page instead of keeping the bids."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = phone(browser)
    context.add_init_script("delete HTMLFormElement.prototype.requestSubmit")
    open_as_scorer(page, game)
    assert page.evaluate("() => typeof document.forms[0].requestSubmit") == "undefined"
    bids_waiting_offline(context, page, live)
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    with page.expect_navigation(timeout=15_000):  # sent once back: the server's page again
        go_online(context, live)
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [4, 5, 3]


def test_the_watch_page_says_when_its_score_stops_being_live(browser: Any, live: LiveServer) -> None:
    game = new_game(live)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(game["watch_url"])
    lost, dot = page.locator("#live-lost"), page.locator(".livedot")
    expect(page.locator(".kicker")).to_contain_text("Live")
    assert page.evaluate("typeof window.htmx") == "object"  # htmx runs: the page does not reload itself
    expect(lost).to_be_hidden()
    assert dot.evaluate("e => getComputedStyle(e).animationName") == "pulse"
    go_offline(context, live)
    try:
        expect(lost).to_be_visible()
        expect(lost).to_have_text(
            "No connection: this is the score as last received. It comes back by itself with the connection."
        )
        assert dot.evaluate("e => getComputedStyle(e).animationName") == "none"
        expect(page.locator("h1")).to_have_text("Hand 1 of 25")  # the score stays
    finally:
        go_online(context, live)
    expect(lost).to_be_hidden()
    assert dot.evaluate("e => getComputedStyle(e).animationName") == "pulse"
    context.close()


def test_a_watch_page_with_htmx_does_not_reload_itself(browser: Any, live: LiveServer) -> None:
    """The check for htmx ran before htmx (both scripts deferred, the page's first), so every watch
    page reloaded itself every 5 s on a good connection. It is made once the page has loaded."""
    game = new_game(live)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.clock.install()
    page.goto(game["watch_url"])
    assert page.evaluate("typeof window.htmx") == "object"
    with pytest.raises(PlaywrightTimeoutError), page.expect_navigation(timeout=3_000):
        page.clock.run_for(12_000)  # a reload would begin at once, well within the 3 s watched
    context.close()


def test_a_watch_poll_that_hangs_does_not_stop_the_live_score(browser: Any, live: LiveServer) -> None:
    """htmx gave a poll all the time in the world: one that hung stopped every poll after it, the
    score stayed where it was and "No connection" was never said. After 10 s it is given up."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(game["watch_url"])
    expect(page.locator(".state")).to_have_text("Bidding…")
    page.evaluate(
        """() => { const lost = document.getElementById('live-lost');
          new MutationObserver(() => { if (!lost.hidden) window.__lostShown = true; })
            .observe(lost, { attributes: true }); }"""
    )
    hold(page, r"since=", first_only=True)
    # the hung one given up: said until the next poll, a second later, is answered
    page.wait_for_function("() => window.__lostShown === true", timeout=20_000)
    url = f"{live.url}/api/games/{game['id']}/hands/1/bids"
    assert requests.put(url, json={"bids": [4, 5, 3]}, headers=bearer(game), timeout=10).ok
    expect(page.locator(".bidlist")).to_contain_text("Ann 4", timeout=10_000)
    expect(page.locator("#live-lost")).to_be_hidden()
    context.close()


def test_the_offline_page_checks_again_after_a_check_that_hangs(browser: Any, live: LiveServer) -> None:
    """The offline page checks every 5 s whether the server answers, and comes back by itself: a
    check that hung was never followed by another, and it stayed on the offline page for good.
    Given up after 10 s, the next check, 5 s later, is answered and the page comes back."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    checks: list[Any] = []

    def hang_the_first_check(route: Any) -> None:
        if route.request.method != "HEAD":
            route.continue_()
            return
        checks.append(route.request.url)
        if len(checks) > 1:
            route.continue_()

    page.route(re.compile(r"/offline$"), hang_the_first_check)
    page.goto(live.url + "/offline")
    with page.expect_navigation(timeout=60_000):  # the page reloads once a check is answered
        pass
    assert len(checks) == 2
    context.close()


def test_a_watch_page_without_htmx_still_follows_the_game(browser: Any, live: LiveServer) -> None:
    """htmx dropped by the connection (or not run, as on Safari before 13.1): the score stayed on the
    first one received; the page now reloads itself while the game goes on, as it does without scripts."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context = browser.new_context(**PHONE)
    context.route("**/static/vendor/htmx.min.js*", lambda route: route.abort())
    page = context.new_page()
    page.goto(game["watch_url"])
    assert page.evaluate("typeof window.htmx") == "undefined"
    expect(page.locator(".state")).to_have_text("Bidding…")
    url = f"{live.url}/api/games/{game['id']}/hands/1/bids"
    assert requests.put(url, json={"bids": [4, 5, 3]}, headers=bearer(game), timeout=10).ok
    expect(page.locator(".bidlist")).to_contain_text("Ann 4", timeout=10_000)
    context.close()


def test_the_watch_page_reloaded_offline_shows_the_last_score_received(browser: Any, live: LiveServer) -> None:
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = phone(browser)
    page.goto(game["watch_url"])
    worker_ready(page)
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    other_scorer(live, game, [4, 5, 3], [5, 3, 5])  # hand 1, followed live
    expect(page.locator("h1")).to_contain_text("Hand 2")
    version = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()["version"]
    until(
        page,
        "() => caches.match(location.href, {ignoreVary: true}).then(r => r ? r.text() : '')"
        f".then(t => t.includes('data-version=\"{version}\"'))",
    )
    go_offline(context, live)
    try:
        page.reload()
        expect(page.locator("h1")).to_contain_text("Hand 2")  # not the copy kept when the page was opened
    finally:
        go_online(context, live)
    context.close()


def test_chromium_finds_the_app_installable(browser_type_and_profile: tuple[Any, Path], live: LiveServer) -> None:
    browser_type, profile = browser_type_and_profile
    from .conftest import ARGS
    from .conftest import CHROMIUM

    context = browser_type.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=ARGS, **PHONE)
    try:
        page = context.new_page()
        page.goto(live.url + "/")
        worker_ready(page)
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


def test_a_page_opened_offline_does_not_say_its_note_of_the_moment_again(browser: Any, live: LiveServer) -> None:
    """The copy kept for offline use is the page as last answered, less its note of the moment: said
    again, "Undone: …" would tell of an undo nobody has just made."""
    context, page = scorer_phone(browser, new_game(live, ("Ann", "Ben", "Cy")))
    tap(page, "bid1-5", "bid2-3", "bid0-4")  # Ann's bid, the last, saves the bids
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    page.locator("button[form=undo-form]").tap()
    expect(page.locator(".notes")).to_contain_text("Undone: the bids of hand 1.")
    until(page, kept_page(page.url))
    go_offline(context, live)
    try:
        page.reload()
        expect(page.locator("form.hand")).to_have_attribute("data-step", "bids")
        expect(page.locator("#bid1-5")).to_be_checked()  # the rest of the page as it was answered
        expect(page.locator("#sheet-h")).to_be_visible()
        expect(page.locator(".notes")).to_have_count(0)
    finally:
        go_online(context, live)


def test_a_page_never_opened_shows_the_offline_page_not_the_browser_error(browser: Any, live: LiveServer) -> None:
    context, page = scorer_phone(browser, new_game(live))
    go_offline(context, live)
    page.goto(live.url + "/new")
    expect(page.locator("h1")).to_have_text("No connection")
    go_online(context, live)  # the page asked for comes back by itself
    expect(page.locator("form.setup")).to_be_attached(timeout=15_000)


@pytest.mark.parametrize(
    ("address", "fill", "start", "said"),
    [
        ("/new", "form.setup input[type=text]", "button.start", "the game was not started"),
        ("/t/new", ".vt-rows input[type=text]", "button.vt-primary", "the table was not set up"),
        ("/groups/new", "#group-name", "form.group-new button.primary", "the group was not created"),
    ],
)
def test_a_set_up_tapped_without_a_connection_keeps_the_page_and_what_was_typed(
    browser: Any, live: LiveServer, address: str, fill: str, start: str, said: str
) -> None:
    """The browser's own "No internet" page replaced the set-up form, and the names typed with it."""
    context, page = phone(browser)
    page.goto(live.url + address)
    go_offline(context, live)
    try:
        names = page.locator(fill)
        for i, name in enumerate(["Ann", "Ben"][: names.count()]):
            names.nth(i).fill(name)
        page.locator(start).tap()
        expect(page.locator("#sync")).to_contain_text(f"No connection: {said}.")
        assert page.url == live.url + address and names.first.input_value() == "Ann"
    finally:
        go_online(context, live)
    page.locator(start).tap()  # the same tap, with the connection back
    expect(page).not_to_have_url(live.url + address)


def test_forget_tapped_without_a_connection_keeps_the_home_page(browser: Any, live: LiveServer) -> None:
    context, page = scorer_phone(browser, new_game(live))
    page.goto(live.url + "/")
    go_offline(context, live)
    try:
        page.locator("details.forget summary").tap()
        page.locator("form.forget-ask button").tap()
        expect(page.locator("#sync")).to_contain_text("No connection: nothing was changed on this phone.")
        expect(page.locator("details.forget")).to_have_count(1)
    finally:
        go_online(context, live)


def test_the_offline_page_waits_out_a_server_in_trouble(browser: Any, live: LiveServer) -> None:
    """Back online while the app restarts behind its proxy (503), the offline page reloaded into the
    proxy's error page, which has no way back; it waits until the page itself answers."""
    context, page = scorer_phone(browser, new_game(live))
    go_offline(context, live)
    page.goto(live.url + "/new")
    expect(page.locator("h1")).to_have_text("No connection")
    live.pages_unavailable = 2
    go_online(context, live)
    expect(page.locator("form.setup")).to_be_attached(timeout=30_000)
    assert live.pages_unavailable == 0


def test_a_page_not_kept_shows_the_offline_page_while_the_server_is_in_trouble(browser: Any, live: LiveServer) -> None:
    """Online, with the app restarting behind its proxy (503), a page the phone never kept showed the
    proxy's error page, which never comes back by itself: the offline page does, once it answers."""
    context, page = scorer_phone(browser, new_game(live))
    live.pages_unavailable = 2
    page.goto(live.url + "/new")
    expect(page.locator("h1")).to_have_text("No connection")
    expect(page.locator("form.setup")).to_be_attached(timeout=30_000)
    assert live.pages_unavailable == 0


def test_a_page_not_kept_whose_answer_hangs_shows_the_offline_page_then_itself(browser: Any, live: LiveServer) -> None:
    """A page this phone never opened, on a connection that hangs: the screen stayed blank for as
    long as the browser waited (minutes). After 20 s the offline page says so, and loads the page
    once the server answers."""
    context, page = scorer_phone(browser, new_game(live))
    held = hold(context, r"/rules$", first_only=True)  # the worker's request for the page
    started = time.monotonic()
    page.goto(live.url + "/rules", wait_until="commit", timeout=40_000)
    expect(page.locator("h1")).to_have_text("No connection", timeout=30_000)
    assert len(held) == 1 and time.monotonic() - started >= 19
    expect(page.locator("#R23")).to_be_attached(timeout=30_000)  # its next check answered: the page itself


def test_the_offline_page_lists_the_games_with_entries_waiting(browser: Any, live: LiveServer) -> None:
    """A scorer who opens an unknown page offline sees that the entries are kept, and where."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    try:
        bids_waiting_offline(context, page, live)
        page.goto(live.url + "/new")
        expect(page.locator("h1")).to_have_text("No connection")
        link = page.locator("#waiting a")
        expect(link).to_have_text("Ann · Ben · Cy — entries waiting: 1")  # names from the kept hand screen
        link.tap()
        expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
        expect(page.locator("#sync")).to_have_text("Offline — 1 entry waiting")
    finally:
        go_online(context, live)
    expect(page.locator("#sync")).to_have_text("All sent", timeout=15_000)
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/bids") == 1


def test_the_offline_page_of_a_phone_that_never_scored_leaves_the_queue_to_the_scorers_page(
    browser: Any, live: LiveServer
) -> None:
    """Looking for waiting entries creates no empty database that would leave the queue without its store."""
    context, page = phone(browser)
    page.goto(live.url + "/")
    worker_ready(page)
    databases = "indexedDB.databases().then(all => all.map(d => d.name))"
    try:
        go_offline(context, live)
        page.goto(live.url + "/new")
        expect(page.locator("h1")).to_have_text("No connection")
        page.wait_for_load_state("load")
        expect(page.locator("#waiting")).to_be_hidden()
        assert "bluke-scorer" not in page.evaluate(databases)
    finally:
        go_online(context, live)
    expect(page.locator("form.setup")).to_be_attached(timeout=15_000)  # the offline page reloads itself
    open_as_scorer(page, new_game(live, ("Ann", "Ben", "Cy")))
    try:
        bids_waiting_offline(context, page, live)
        assert queued(page) == 1
    finally:
        go_online(context, live)


def test_the_game_opened_by_its_share_link_is_kept_at_the_first_visit(browser: Any, live: LiveServer) -> None:
    """The scorer's link redirects to the game; the worker installs while that first page is open,
    and the phone goes offline before opening anything else: the hand screen still reloads."""
    game = new_game(live)
    context, page = phone(browser)
    page.goto(game["scorer_url"])
    assert page.url == f"{live.url}/g/{game['id']}"  # redirected
    worker_ready(page)
    kept = f"caches.open('bluke-pages').then(c => c.match('{page.url}')).then(Boolean)"
    for _ in range(100):
        if page.evaluate(kept):
            break
        page.wait_for_timeout(100)
    go_offline(context, live)
    try:
        page.reload()
        expect(page.locator("h1")).to_have_text("Hand 1 of 25")
        expect(page.locator("#bid0-1")).to_be_attached()
    finally:
        go_online(context, live)


def test_the_offline_page_speaks_the_language_of_the_last_page_opened(browser: Any, live: LiveServer) -> None:
    context, page = scorer_phone(browser, new_game(live))  # the worker kept the offline page in English
    try:
        page.goto(live.url + "/?lang=ru")  # the player changes language
        until(
            page, "() => caches.match('/offline').then(kept => !!kept && kept.headers.get('Content-Language') === 'ru')"
        )
        go_offline(context, live)
        page.goto(live.url + "/new")
        expect(page.locator("h1")).to_have_text("Нет связи")
    finally:
        go_online(context, live)


def test_a_game_opened_offline_speaks_the_language_just_chosen_on_it(browser: Any, live: LiveServer) -> None:
    """The picker's ?lang=ru page was kept under its own address; the game's plain address, where
    the home page links, opened offline in the language before."""
    game = new_game(live)
    context, page = scorer_phone(browser, game)
    try:
        page.get_by_role("link", name="Русский").tap()
        expect(page.locator("h1")).to_contain_text("Раздача 1")
        plain = f"{live.url}/g/{game['id']}"
        until(
            page,
            f"() => caches.open('bluke-pages').then(c => c.match('{plain}'))"
            ".then(kept => !!kept && kept.headers.get('Content-Language') === 'ru')",
        )
        go_offline(context, live)
        page.goto(plain)
        expect(page.locator("h1")).to_contain_text("Раздача 1")
    finally:
        go_online(context, live)


def test_a_repeat_visit_asks_the_server_only_for_the_page(browser: Any, live: LiveServer) -> None:
    game = new_game(live)
    for workers in ("allow", "block"):
        context = browser.new_context(service_workers=workers, **PHONE)
        context.request.get(game["watch_url"], max_redirects=0)  # the cookie, without loading the page
        page = context.new_page()
        page.goto(f"{live.url}/g/{game['id']}")
        if workers == "allow":
            worker_ready(page)
            for kept in (page.url, live.url + "/"):  # the worker's own fetches, which networkidle misses
                until(page, kept_page(kept))
        page.wait_for_load_state("networkidle")  # the first visit's requests are all in
        mark = len(live.hits)
        again = context.new_page()
        again.goto(f"{live.url}/g/{game['id']}")
        again.wait_for_load_state("networkidle")  # and so are the repeat visit's
        reached = [h.path for h in live.since(mark) if not h.query.startswith("since=")]
        if workers == "block":
            # Chromium still fetches the worker's script when Playwright blocks workers (then the
            # registration fails), at a moment of its own: that says nothing about the cache.
            reached = [path for path in reached if path != "/sw.js"]
        assert reached == [f"/g/{game['id']}"], (workers, reached)


@pytest.mark.parametrize("role, budget", [("scorer", 20_000), ("watch", 40_000)])
def test_the_first_load_stays_within_its_budget(browser: Any, live: LiveServer, role: str, budget: int) -> None:
    """Hand screen < 20 KB and watch page < 40 KB compressed (everything the page loads)."""
    game = new_game(live)
    context = browser.new_context(service_workers="block", **PHONE)
    context.request.get(game[f"{role}_url"], max_redirects=0)
    mark = len(live.hits)
    context.new_page().goto(f"{live.url}/g/{game['id']}", wait_until="load")
    hits = [h for h in live.since(mark) if not h.query.startswith("since=")]
    assert all(h.encoding in ("br", "gzip") for h in hits if not h.path.endswith(".png")), hits
    assert sum(h.sent for h in hits) < budget, (sum(h.sent for h in hits), [(h.path, h.sent) for h in hits])


# -- the phone's rules: the engine's vectors, in the browser ---------------------------------------
def test_the_engine_vectors_pass_in_the_browser(browser: Any, live: LiveServer) -> None:
    context, page = scorer_phone(browser, new_game(live))
    table = json.loads(VECTORS.read_text())
    result = page.evaluate(
        """([v, words]) => {
      const R = window.BlukeRules, bad = [], same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
      let count = 0;
      const check = (what, got, want) => { count++; if (!same(got, want)) bad.push([what, got, want]); };
      for (const g of v.games) {
        const where = g.players + ' ' + g.variant + ' ' + JSON.stringify(g.options);
        check('schedule ' + where, R.schedule(g.players, g.variant, g.options), g.schedule);
        g.dealers.forEach((dealer, i) => {
          check('dealer ' + where, R.dealerOf(i + 1, g.first_dealer, g.players), dealer);
          check('first bidder ' + where, R.biddingOrder(dealer, g.players)[0], g.first_bidders[i]);
          check('turn-up ' + where, R.hasTurnUp(g.players, g.schedule[i]), g.turn_up[i]);
        });
        for (const [kind, number, value, message] of g.checks) {
          const cards = g.schedule[number - 1];
          const got = kind === 'bid' ? R.checkBid(value, cards, R.minBid(g.options), number, v.who, words)
            : kind === 'taken' ? R.checkTaken(value, cards, number, v.who, words) : R.checkTotal(value, cards, number, words);
          check(kind + ' ' + number + ' ' + JSON.stringify(value) + ' ' + where, got, message);
        }
      }
      for (const [bid, taken, points, outcome] of v.points) check('points ' + bid + '/' + taken, [R.points(bid, taken), R.outcome(bid, taken)], [points, outcome]);
      for (const [number, step, done, bids, message] of v.order) check('order', R.checkOrder(number, step, done, bids, words), message);
      return {count: count, bad: bad.slice(0, 5)};
    }""",
        [table, page.evaluate("JSON.parse(document.getElementById('offline-words').textContent)")],
    )
    assert result["bad"] == []
    assert result["count"] > 5000


# -- scoring a whole hand offline ------------------------------------------------------------------
def tap(page: Any, *labels: str) -> None:
    for label in labels:
        page.locator(f"label[for={label}]").tap()


def test_an_offline_hand_reaches_the_server_exactly_once(browser: Any, live: LiveServer) -> None:
    game = new_game(live)
    context, page = scorer_phone(browser, game)
    sync = page.locator("#sync")
    undo = page.locator("button[form=undo-form]")
    expect(undo).to_be_hidden()  # nothing to undo yet
    expect(sync).to_be_empty()
    # empty, the status line is still in the accessibility tree, so that its first message is read
    assert sync.evaluate("e => !e.hidden && getComputedStyle(e).display !== 'none'")
    try:
        go_offline(context, live)
        tap(page, "t1H", "bid1-4", "bid2-3", "bid3-2", "bid0-3")  # Ben bids first (Ann deals); Ann's bid saves
        expect(page.locator(".hand-title h1")).to_have_text("Hand 1 of 25")
        expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
        expect(page.locator(".hand-meta").nth(1)).to_contain_text("12 bid for 13 cards")
        expect(sync).to_have_text("Offline — 1 entry waiting")
        expect(undo).to_be_visible()  # the first entry, still on this phone
        expect(undo).to_have_attribute("aria-label", "Undo the bids of hand 1")
        tap(page, "tricks0-5", "tricks1-4", "tricks2-3")  # Dee's 1 is the remainder
        expect(page.locator("#tricks3-1")).to_be_checked()
        expect(page.locator("#tricks0 .pts")).to_have_text("+32")
        page.locator("form.hand button.primary").tap()
        expect(page.locator(".hand-title h1")).to_have_text("Hand 2 of 25")
        expect(page.locator(".hand-meta").first).to_contain_text("12 cards · Ben deals · Cy bids first")
        expect(page.locator("#bid0 .num")).to_have_text("32")  # Ann's running total, computed on the phone
        expect(page.locator("#bid1 .num")).to_have_text("40")
        expect(sync).to_have_text("Offline — 2 entries waiting")
        assert live.count("PUT", f"/api/games/{game['id']}/") == 0
    finally:
        go_online(context, live)
    expect(sync).to_have_text("All sent", timeout=15_000)
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [3, 4, 3, 2] and doc["hands"][0]["trump"] == "H"
    assert doc["hands"][0]["tricks"] == [5, 4, 3, 1]
    assert doc["totals"] == [32, 40, 30, -20]
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/bids") == 1
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/tricks") == 1
    expect(page.locator(".hand-title h1")).to_have_text("Hand 2 of 25")


def test_the_queue_survives_closing_and_reopening_the_page(browser: Any, live: LiveServer) -> None:
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    try:
        bids_waiting_offline(context, page, live)
        page.close()
        page = context.new_page()
        page.goto(f"{live.url}/g/{game['id']}")  # the page kept by the service worker
        expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
        expect(page.locator("#sync")).to_have_text("Offline — 1 entry waiting")
    finally:
        go_online(context, live)
    expect(page.locator("#sync")).to_have_text("All sent", timeout=15_000)
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [4, 5, 3]
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/bids") == 1


#: Fills the page's localStorage with copies of other games, as a phone that scored many games.
FILL_STORAGE = """() => {
    let i = 0;
    for (const size of [1 << 19, 1 << 10, 1]) {
        try { for (;;) localStorage.setItem("bluke-known-old" + i++, "x".repeat(size)); } catch (e) {}
    }
}"""


@pytest.mark.parametrize("storage", ["room", "full"])
def test_a_kept_page_older_than_what_was_sent_goes_on_from_what_was_sent(
    browser: Any, live: LiveServer, storage: str
) -> None:
    """Bids queued offline go out while the scorer taps the tricks, so the page is not drawn again
    and the copy the service worker keeps still asks for the bids. Reopened without a connection,
    the page must ask for the tricks, and the scorer's own save must not read as another scorer's.
    On a phone whose storage is full of the copies kept of other games, those make room."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    others = "() => Object.keys(localStorage).filter(k => k.startsWith('bluke-known-old')).length"
    if storage == "full":
        page.evaluate(FILL_STORAGE)
        filled = page.evaluate(others)
        assert filled > 3
    go_offline(context, live)
    tap(page, "bid1-5", "bid2-3", "bid0-4")
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    tap(page, "tricks0-4")  # tapping on: the page stays when the bids go
    mark = len(live.hits)
    go_online(context, live)
    expect(page.locator("#sync")).to_have_text("All sent", timeout=15_000)
    was, now = f"since={game['version']}", f"since={game['version'] + 1}"
    polled = lambda: [h.query for h in live.since(mark) if h.method == "GET" and h.path == f"/g/{game['id']}"]  # noqa: E731
    page.wait_for_function(f"() => document.body.dataset.poll.endsWith('{now}')")
    deadline = time.monotonic() + 15
    while now not in polled() and time.monotonic() < deadline:  # the poll asks from the phone's own save
        page.wait_for_timeout(200)
    assert now in polled() and was not in polled()
    expect(page.locator("#changed-elsewhere")).to_be_hidden()
    go_offline(context, live)
    page.reload()  # the service worker's copy, drawn before the bids were sent
    form = page.locator("form.hand")
    expect(form).to_have_attribute("data-step", "tricks")
    expect(page.locator("#tricks1 .bidchip")).to_have_text("bid 5")
    expect(page.locator("#tricks0-4")).to_be_checked()  # the tap made before, kept in the draft
    tap(page, "tricks1-5")  # Cy's 4 is the remainder
    page.locator("form.hand button.primary").tap()
    expect(page.locator(".hand-title h1")).to_have_text("Hand 2 of 25")
    expect(page.locator("#sync")).to_have_text("Offline — 1 entry waiting")
    with page.expect_navigation(timeout=15_000):  # all sent: the server's page again
        go_online(context, live)
    expect(page.locator(".hand-title h1")).to_have_text("Hand 2 of 25")
    expect(page.locator(".stale")).to_have_count(0)
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [4, 5, 3] and doc["hands"][0]["tricks"] == [4, 5, 4]
    assert doc["version"] == game["version"] + 2 and live.count("PUT", f"/api/games/{game['id']}/hands/1/tricks") == 1
    if storage == "full":  # room was made with other games' copies, one at a time, not all of them
        assert 0 < page.evaluate(others) < filled


def test_the_game_the_phone_remembers_holds_only_what_the_server_confirmed(browser: Any, live: LiveServer) -> None:
    """The bids go, the tricks behind them do not; reopened offline from the worker's older copy,
    the page counts each entry once: the bids the server has, the tricks still waiting."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    go_offline(context, live)
    offline_hand_1(page, ("bid1-5", "bid2-3", "bid0-4"), ("tricks0-4", "tricks1-5"))
    held = hold(page, r"/hands/1/tricks$")
    go_online(context, live)
    until_held(page, held)  # the bids are in, the tricks on their way
    held[0].abort()
    page.unroute_all()
    go_offline(context, live)
    page.reload()
    expect(page.locator(".hand-title h1")).to_have_text("Hand 2 of 25")
    expect(page.locator("#sync")).to_have_text("Offline — 1 entry waiting")
    expect(page.locator(".sheet-panel .stale")).to_have_text(
        "As of hand 1: 2 entries made on this phone are not counted here yet"
    )
    go_online(context, live)
    expect(page.locator("#sync")).to_have_text("All sent", timeout=15_000)
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["tricks"] == [4, 5, 4]
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/bids") == 1


def test_a_server_in_trouble_holds_the_queue_only_until_it_answers_again(browser: Any, live: LiveServer) -> None:
    """A 503 (the app restarting behind its proxy) is no answer about the entry: it waits and is
    tried again, with the entries behind it, each stored once."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    go_offline(context, live)
    offline_hand_1(page, ("bid1-5", "bid2-3", "bid0-4"), ("tricks0-4", "tricks1-5"))
    expect(page.locator("#sync")).to_have_text("Offline — 2 entries waiting")
    live.unavailable = 2
    mark = len(live.hits)
    go_online(context, live)
    expect(page.locator("#sync")).to_have_text("Server not answering — 2 entries waiting")  # online: not "Offline"
    expect(page.locator("#sync")).to_have_text("All sent", timeout=30_000)
    puts = [h.path.rsplit("/", 1)[1] for h in live.since(mark) if h.method == "PUT"]
    assert puts == ["bids", "bids", "bids", "tricks"]  # refused twice, then each step once
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [4, 5, 3] and doc["hands"][0]["tricks"] == [4, 5, 4]


def test_a_server_in_trouble_shows_the_page_kept_not_its_error(browser: Any, live: LiveServer) -> None:
    """A reload while the app restarts behind its proxy (503) showed the proxy's error page: the
    worker used the copy it kept only when there was no network at all."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    live.pages_unavailable = 1
    page.reload()
    expect(page.locator(".hand-title h1")).to_have_text("Hand 1 of 25")
    tap(page, "bid1-5", "bid2-3", "bid0-4")  # the kept page keeps score: its entry is sent
    expect(page.locator(".hand-title h1")).to_have_text("Hand 1 of 25")
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks", timeout=15_000)
    url = f"{live.url}/api/games/{game['id']}"
    eventually(lambda: requests.get(url, headers=bearer(game), timeout=10).json()["hands"][0]["bids"] == [4, 5, 3])


def test_after_an_update_a_page_kept_before_it_opens_offline_with_the_new_files(browser: Any, live: LiveServer) -> None:
    """An update replaces the worker's files (new versions, new addresses): the game page kept from
    before asked for the old ones offline and opened without style or script, its entries unsent."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    page.evaluate(UPDATE_THE_FILES)  # as the next version's worker leaves the cache: other ?v= digests
    context.new_cdp_session(page).send("Network.clearBrowserCache")  # nor are the old ones in the HTTP cache
    go_offline(context, live)
    page.reload()
    tap(page, "bid1-5", "bid2-3", "bid0-4")
    expect(page.locator("#sync")).to_contain_text("1 entry waiting")  # the queue's script runs
    go_online(context, live)
    expect(page.locator("#sync")).to_have_text("All sent", timeout=15_000)


#: Every file of the worker's cache moved to another version's address (``?v=`` changed), as the
#: worker of the next release installs them and drops the old cache.
UPDATE_THE_FILES = """async () => {
  for (const name of await caches.keys()) {
    if (name === "bluke-pages") continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const url = new URL(request.url);
      if (!url.searchParams.has("v")) continue;
      const response = await cache.match(request);
      url.searchParams.set("v", "next" + url.searchParams.get("v"));
      await cache.put(url.toString(), response);
      await cache.delete(request);
    }
  }
}"""


def test_a_refused_queued_entry_shows_both_versions_and_the_scorer_chooses(browser: Any, live: LiveServer) -> None:
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    bids_waiting_offline(context, page, live)
    live.plug()  # a second scorer, online, records other bids meanwhile
    answer = requests.put(
        f"{live.url}/api/games/{game['id']}/hands/1/bids",
        json={"bids": [2, 2, 2], "version": 1},
        headers=bearer(game),
        timeout=10,
    )
    assert answer.status_code == 200
    context.set_offline(False)
    box = page.locator("#conflict")
    expect(box).to_be_visible(timeout=15_000)
    # hand 1 has a turn-up (R12): the bids are shown with their trump, noted on neither phone here
    expect(box.locator(".theirs")).to_have_text("Ann 2 · Ben 2 · Cy 2 · Trump: not noted")
    expect(box.locator(".mine")).to_have_text("Ann 4 · Ben 5 · Cy 3 · Trump: not noted")
    box.get_by_role("button", name="Use this phone's").tap()
    expect(page.locator("#sync")).to_have_text("All sent", timeout=15_000)
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [4, 5, 3]
    history = requests.get(f"{live.url}/api/games/{game['id']}/history", headers=bearer(game), timeout=10).json()
    assert history["corrections"][0]["old"] == [2, 2, 2]  # the server's version is kept in the history


def test_the_phones_own_save_is_not_taken_for_another_scorers(browser: Any, live: LiveServer) -> None:
    """On a slow connection a poll sent before the phone's own save answered after it: "Another
    scorer just saved a change" came up with no other phone, and the page stopped following."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    _, page = scorer_phone(browser, game)
    live.slow = {("PUT", "/bids"): 3.0, ("GET", "since="): 6.0}
    try:
        with page.expect_request(lambda r: "since=" in r.url) as polled:
            pass
        with page.expect_response(lambda r: r.url.endswith("/bids"), timeout=15_000):
            tap(page, "bid1-5", "bid2-3", "bid0-4")  # saved while that poll is on its way
            expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")  # drawn on the phone
            tap(page, "tricks0-5")  # which keeps the page: no reload once the bids are stored
        assert polled.value.response() is not None  # the poll about the version before the save has answered
        page.evaluate("() => new Promise(done => setTimeout(done, 100))")
        expect(page.locator("#changed-elsewhere")).to_be_hidden()
    finally:
        live.slow = {}


def test_a_clash_with_another_scorer_keeps_the_choice_in_sight_and_nothing_goes_past_it(
    browser: Any, live: LiveServer
) -> None:
    """Online, another scorer saves hand 1's bids first; this phone's are refused. The choice stays
    on screen (the next step is not drawn over it a moment later), the line under the bar says what
    happened in words, and a step tapped meanwhile is not queued behind the refused entry."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context = browser.new_context(**PHONE)
    page = context.new_page()
    polls: list[Any] = []
    page.on("request", lambda request: polls.append(request) if "since=" in request.url else None)
    page.clock.install()
    page.goto(game["scorer_url"])
    expect(page.locator("form.hand")).to_have_attribute("data-step", "bids")
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)  # no poll sees the other scorer's bids first,
    for poll in polls:  # nor one sent before the pause and answered after their save (a busy machine)
        poll.response()
    answer = requests.put(
        f"{live.url}/api/games/{game['id']}/hands/1/bids", json={"bids": [2, 2, 2]}, headers=bearer(game), timeout=10
    )
    assert answer.status_code == 200
    tap(page, "bid1-5", "bid2-3", "bid0-4")
    page.clock.run_for(500)  # the last bid saves itself
    box = page.locator("#conflict")
    expect(box).to_be_visible()
    page.clock.run_for(3000)  # past the moment a slow server's next step would be drawn here
    expect(page.locator("form.hand")).to_have_attribute("data-step", "bids")
    expect(box).to_be_in_viewport()
    expect(page.locator("#sync")).to_have_text("Another phone changed this game meanwhile")
    # the bids' own line said "Saving the bids…" until the choice; now what to do
    expect(page.locator("form.hand .dock .status")).to_have_text("Choose which one the game keeps.")
    page.locator("form.hand button[type=submit].primary").dispatch_event("click")
    page.clock.run_for(2000)
    assert page.evaluate("document.querySelector('#conflict').hidden") is False
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [2, 2, 2] and doc["hands"][0]["tricks"] is None
    # The context is not closed (see the browser fixture): under the paused clock the test ends a
    # moment after the page opened, while its service worker is still installing the app's files,
    # and closing a context whose worker is busy can hang inside Chromium, with no timeout.


def test_keeping_the_servers_version_drops_the_phones_entries(browser: Any, live: LiveServer) -> None:
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    go_offline(context, live)
    tap(page, "bid1-5", "bid2-3", "bid0-4")
    live.plug()
    requests.put(
        f"{live.url}/api/games/{game['id']}/hands/1/bids", json={"bids": [2, 2, 2]}, headers=bearer(game), timeout=10
    )
    context.set_offline(False)
    page.locator("#conflict").get_by_role("button", name="Keep the server's").tap()
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    expect(page.locator(".hand-meta").nth(1)).to_contain_text("6 bid for 13 cards")
    expect(page.locator("#sync")).to_be_empty()
    assert (
        page.evaluate("""new Promise(ok => { const r = indexedDB.open('bluke-scorer', 1);
        r.onsuccess = () => { const g = r.result.transaction('entries').objectStore('entries').getAll();
                              g.onsuccess = () => ok(g.result.length); }; })""")
        == 0
    )


def test_a_clash_also_tells_which_saved_entries_the_other_phone_changed(browser: Any, live: LiveServer) -> None:
    """Hand 1 saved; offline, hand 2's bids tapped here while another phone corrected hand 1's tricks
    and saved other bids for hand 2. The box asked about hand 2's bids only, and the page came back
    with hand 1's totals changed and nothing said about it."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    other_scorer(live, game, [4, 5, 3], [4, 5, 4])
    context, page = scorer_phone(browser, game)
    expect(page.locator(".hand-title h1")).to_have_text("Hand 2 of 25")
    go_offline(context, live)
    tap(page, "bid2-3", "bid0-4", "bid1-4")  # Ben deals hand 2: Cy bids first
    expect(page.locator("#sync")).to_have_text("Offline — 1 entry waiting")
    live.plug()
    url = f"{live.url}/api/games/{game['id']}/hands"
    assert requests.put(url + "/1/tricks", json={"tricks": [5, 4, 4]}, headers=bearer(game), timeout=10).ok
    assert requests.put(url + "/2/bids", json={"bids": [2, 2, 2]}, headers=bearer(game), timeout=10).ok
    context.set_offline(False)
    box, note = page.locator("#conflict"), page.locator("#others-changed")
    expect(box).to_be_visible(timeout=15_000)
    said = "Hand 1 tricks were changed on another phone: Ann 4 · Ben 5 · Cy 4 → Ann 5 · Ben 4 · Cy 4"
    expect(note).to_have_text(said)
    with page.expect_navigation(timeout=15_000):  # sent, then the server's page
        box.get_by_role("button", name="Use this phone's").tap()
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks", timeout=15_000)
    expect(note).to_have_text(said)  # told again on the page the queue loaded
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][1]["bids"] == [4, 4, 3] and doc["hands"][0]["tricks"] == [5, 4, 4]


def queued(page: Any) -> int:
    """How many entries wait in this phone's IndexedDB queue."""
    count: int = page.evaluate("""new Promise(ok => { const r = indexedDB.open('bluke-scorer', 1);
        r.onsuccess = () => { const g = r.result.transaction('entries').objectStore('entries').getAll();
                              g.onsuccess = () => ok(g.result.length); }; })""")
    return count


def offline_hand_1(page: Any, bids: tuple[str, ...], tricks: tuple[str, ...]) -> None:
    """Hand 1's bids, then its tricks, tapped on a phone (Ann deals: Ben bids first, Cy's tricks
    are the remainder)."""
    tap(page, *bids)
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    tap(page, *tricks)
    page.locator("form.hand button.primary").tap()


def other_scorer(live: LiveServer, game: dict[str, Any], bids: list[int], tricks: list[int]) -> None:
    """A second scorer, online, records hand 1 through the API."""
    url = f"{live.url}/api/games/{game['id']}/hands/1"
    assert requests.put(url + "/bids", json={"bids": bids}, headers=bearer(game), timeout=10).ok
    assert requests.put(url + "/tricks", json={"tricks": tricks}, headers=bearer(game), timeout=10).ok


def test_an_entry_the_server_already_has_does_not_carry_the_rest_over_another_phone(
    browser: Any, live: LiveServer
) -> None:
    """The phone's bids repeat what another phone stored, but that phone also stored other tricks:
    the phone's tricks must be refused and shown, not written over the ones it never saw."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    context, page = scorer_phone(browser, game)
    go_offline(context, live)
    offline_hand_1(page, ("bid1-4", "bid2-5", "bid0-3"), ("tricks0-4", "tricks1-4"))
    expect(page.locator("#sync")).to_have_text("Offline — 2 entries waiting")
    live.plug()
    other_scorer(live, game, [3, 4, 5], [5, 4, 4])  # the same bids, other tricks
    context.set_offline(False)
    box = page.locator("#conflict")
    expect(box).to_be_visible(timeout=15_000)
    expect(box).to_contain_text("Hand 1, Tricks")
    expect(box.locator(".theirs")).to_have_text("Ann 5 · Ben 4 · Cy 4")
    expect(box.locator(".mine")).to_have_text("Ann 4 · Ben 4 · Cy 5")
    doc = requests.get(url, headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["tricks"] == [5, 4, 4] and doc["version"] == 3  # nothing overwritten
    with page.expect_navigation():  # the queue is empty: the server's page again
        box.get_by_role("button", name="Keep the server's").tap()
    expect(page.locator("form.hand")).to_have_attribute("data-step", "bids")
    assert requests.get(url, headers=bearer(game), timeout=10).json()["version"] == 3
    assert queued(page) == 0


def test_an_entry_the_server_already_has_lets_the_next_go_past_a_trump_noted_since(
    browser: Any, live: LiveServer
) -> None:
    """Another phone stored the same bids, then noted the trump on them. The phone's bids are taken as
    stored; its tricks clash with nothing of the other phone's and go without a question (the box
    said "On the server: nothing recorded" and offered to drop them)."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    context, page = scorer_phone(browser, game)
    go_offline(context, live)
    offline_hand_1(page, ("bid1-4", "bid2-5", "bid0-3"), ("tricks0-4", "tricks1-4"))
    expect(page.locator("#sync")).to_have_text("Offline — 2 entries waiting")
    live.plug()
    assert requests.put(url + "/hands/1/bids", json={"bids": [3, 4, 5]}, headers=bearer(game), timeout=10).ok
    noted = {"bids": [3, 4, 5], "trump": "S"}
    assert requests.put(url + "/hands/1/bids", json=noted, headers=bearer(game), timeout=10).ok
    with page.expect_navigation(timeout=15_000):  # all sent: the server's page again
        context.set_offline(False)
    expect(page.locator("#conflict")).to_be_hidden()
    doc = requests.get(url, headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["tricks"] == [4, 4, 5] and doc["hands"][0]["trump"] == "S"
    assert queued(page) == 0


def test_each_refused_entry_is_chosen_on_its_own(browser: Any, live: LiveServer) -> None:
    """Two phones score hand 1 differently offline; the second back sees the bids and then the
    tricks, and what the scorer chooses for one entry decides nothing about the next."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    context, page = scorer_phone(browser, game)
    go_offline(context, live)
    offline_hand_1(page, ("bid1-4", "bid2-5", "bid0-2"), ("tricks0-3", "tricks1-5"))
    tap(page, "bid2-2", "bid0-3", "bid1-4")  # hand 2: Ben deals, Cy bids first
    expect(page.locator("#sync")).to_have_text("Offline — 3 entries waiting")
    live.plug()
    other_scorer(live, game, [3, 4, 5], [4, 4, 5])  # the other phone was back first
    context.set_offline(False)
    box = page.locator("#conflict")
    expect(box).to_contain_text("Hand 1, Bids", timeout=15_000)
    box.get_by_role("button", name="Use this phone's").tap()  # for the bids only
    expect(box).to_contain_text("Hand 1, Tricks", timeout=15_000)
    expect(box.locator(".theirs")).to_have_text("Ann 4 · Ben 4 · Cy 5")
    doc = requests.get(url, headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [2, 4, 5] and doc["hands"][0]["tricks"] == [4, 4, 5]
    with page.expect_navigation(timeout=15_000):  # hand 2 clashes with nothing: it goes, and all is sent
        box.get_by_role("button", name="Keep the server's").tap()  # the tricks stay
    doc = requests.get(url, headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["tricks"] == [4, 4, 5] and doc["hands"][1]["bids"] == [3, 4, 2]
    assert live.count("PUT", f"/api/games/{game['id']}/hands/2/bids") == 1


def test_an_entry_the_servers_game_refuses_on_a_rule_is_shown_to_enter_again(browser: Any, live: LiveServer) -> None:
    """Hand 1's tricks waited on the phone while another phone undid its bids: "Use this phone's"
    sent the tricks again into the same refusal (R25), and again, with nothing else said. Kept out
    of the queue, the tricks come back tapped once the bids are in again."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    context, page = scorer_phone(browser, game)
    tap(page, "bid1-5", "bid2-3", "bid0-4")
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    go_offline(context, live)
    tap(page, "tricks0-5", "tricks1-3")
    page.locator("form.hand button.primary").tap()
    expect(page.locator("#sync")).to_have_text("Offline — 1 entry waiting")
    live.plug()
    assert requests.delete(url + "/hands/1", headers=bearer(game), timeout=10).ok  # the other phone's undo
    context.set_offline(False)
    box = page.locator("#conflict")
    expect(box).to_contain_text("before its tricks (R25)", timeout=15_000)
    expect(box).to_contain_text("the entry stays tapped on this phone for when its step comes up again")
    expect(box.locator(".mine")).to_have_text("Ann 5 · Ben 3 · Cy 5")
    expect(box.get_by_role("button", name="Use this phone's")).to_have_count(0)
    with page.expect_navigation(timeout=15_000):
        box.get_by_role("button", name="Keep the server's").tap()
    expect(page.locator("form.hand")).to_have_attribute("data-step", "bids")
    assert requests.get(url, headers=bearer(game), timeout=10).json()["hands"][0]["bids"] is None
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/tricks") == 1
    expect(page.locator(".prow input:checked")).to_have_count(0)  # the tricks' taps are not bids
    tap(page, "bid1-5", "bid2-3", "bid0-4")
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    for tapped in ("tricks0-5", "tricks1-3", "tricks2-5"):
        expect(page.locator(f"#{tapped}")).to_be_checked()
    page.locator("form.hand button.primary").tap()
    expect(page.locator("form.hand")).to_have_attribute("data-step", "bids")  # hand 2
    assert requests.get(url, headers=bearer(game), timeout=10).json()["hands"][0]["tricks"] == [5, 3, 5]


def test_the_steps_drawn_on_the_phone_go_on_from_the_servers_entry_once_kept(browser: Any, live: LiveServer) -> None:
    """The scorer keeps the other phone's bids of hand 1 while tapping hand 2's tricks: the totals
    on the hand 2 screen are counted with those bids, not with the ones this phone had."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    context, page = scorer_phone(browser, game)
    go_offline(context, live)
    offline_hand_1(page, ("bid1-5", "bid2-3", "bid0-4"), ("tricks0-4", "tricks1-5"))
    tap(page, "bid2-4", "bid0-4", "bid1-3")  # hand 2: Ben deals, Cy bids first
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    expect(page.locator("#tricks0 .num")).to_have_text("40")  # Ann made her 4 of hand 1
    tap(page, "tricks2-4")  # tapping on: the page stays once all is sent
    live.plug()
    assert requests.put(url + "/hands/1/bids", json={"bids": [3, 4, 5]}, headers=bearer(game), timeout=10).ok
    context.set_offline(False)
    box = page.locator("#conflict")
    expect(box).to_contain_text("Hand 1, Bids", timeout=15_000)
    box.get_by_role("button", name="Keep the server's").tap()
    expect(page.locator("#sync")).to_have_text("All sent", timeout=15_000)
    expect(page.locator("#tricks0 .num")).to_have_text("31")  # bid 3, took 4
    expect(page.locator("#tricks2 .after")).to_have_attribute("data-base", "−50")  # Cy bid 5, took 4
    expect(page.locator("#tricks2-4")).to_be_checked()  # the tap survives the drawing
    expect(page.locator("#tricks2 .after")).to_have_text("−10")  # and counts on the new total
    doc = requests.get(url, headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [3, 4, 5] and doc["totals"] == [31, 41, -50]
    assert doc["hands"][1]["bids"] == [4, 3, 4]


def test_a_clash_over_one_entry_lets_the_next_go_when_the_other_phone_left_its_place_empty(
    browser: Any, live: LiveServer
) -> None:
    """The other phone saved only hand 1's bids. This phone's bids clash and the scorer keeps this
    phone's; its tricks, made on the same old game, clash with nothing and go without a question."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    context, page = scorer_phone(browser, game)
    go_offline(context, live)
    offline_hand_1(page, ("bid1-4", "bid2-5", "bid0-2"), ("tricks0-3", "tricks1-5"))
    live.plug()
    assert requests.put(url + "/hands/1/bids", json={"bids": [3, 4, 5]}, headers=bearer(game), timeout=10).ok
    context.set_offline(False)
    box = page.locator("#conflict")
    expect(box).to_contain_text("Hand 1, Bids", timeout=15_000)
    expect(box).to_be_focused()
    expect(box.get_by_role("button", name="Use this phone's")).to_be_in_viewport()
    with page.expect_navigation(timeout=15_000):
        box.get_by_role("button", name="Use this phone's").tap()
    doc = requests.get(url, headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [2, 4, 5] and doc["hands"][0]["tricks"] == [3, 5, 5]
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/tricks") == 1  # never refused


def test_an_entry_made_after_a_waiting_undo_lets_that_undo_go(browser: Any, live: LiveServer) -> None:
    """An undo tapped while the latest entry is on its way is for that entry then; once the scorer
    enters the next step, undoing would remove what was just tapped: the undo is let go."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    other_scorer(live, game, [4, 5, 3], [5, 3, 5])
    context, page = scorer_phone(browser, game)
    undo = page.locator("button[form=undo-form]")
    held = hold(page, r"/hands/2/bids$")
    tap(page, "bid2-2", "bid0-3", "bid1-4")  # hand 2: Ben deals, Cy bids first
    until_held(page, held)
    expect(undo).to_have_attribute("aria-label", "Undo the bids of hand 2")
    undo.tap()
    expect(page.locator("#sync")).to_have_text("Sending…")
    tap(page, "tricks2-3", "tricks0-4")  # the scorer goes on; Ben's 5 is the remainder
    page.locator("form.hand button.primary").tap()
    expect(undo).to_have_attribute("aria-label", "Undo the tricks of hand 2")
    with page.expect_navigation(timeout=15_000):  # all sent: the server's page again
        held[0].continue_()
    doc = requests.get(url, headers=bearer(game), timeout=10).json()
    assert doc["hands"][1]["bids"] == [3, 4, 2] and doc["hands"][1]["tricks"] == [4, 5, 3]  # none undone
    assert live.count("POST", f"/g/{game['id']}/undo") == 0


def test_taps_survive_a_reload_and_back_and_forward(browser: Any, live: LiveServer) -> None:
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    tap(page, "t1S", "bid1-5", "bid2-3")
    page.reload()
    expect(page.locator("#bid1-5")).to_be_checked()
    expect(page.locator("#bid2-3")).to_be_checked()
    expect(page.locator("#t1S")).to_be_checked()
    expect(page.locator(".dock .status")).to_have_text("8 bid for 13 cards — 1 player to go")
    page.goto(f"{live.url}/")
    page.go_back()
    expect(page.locator("#bid2-3")).to_be_checked()
    with page.expect_navigation():  # the last bid is sent, then the server's page comes back
        tap(page, "bid0-4")
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    assert page.evaluate("Object.keys(localStorage).filter(k => k.includes('/hands/1/bids')).length") == 0


def test_arrow_keys_on_the_last_bidder_do_not_save_at_the_first_press(browser: Any, live: LiveServer) -> None:
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    tap(page, "bid1-5", "bid2-3")
    page.locator("#bid0-1").focus()
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#bid0-2")).to_be_checked()
    expect(page.locator(".dock .status")).to_have_text("10 bid for 13 cards — underbid by 3")
    assert live.count("PUT", f"/api/games/{game['id']}/") == 0
    expect(page.locator("form.hand")).to_have_attribute("data-step", "bids")
    page.keyboard.press("Enter")  # a keyboard user saves on purpose
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")


def correcting_hand_1(browser: Any, live: LiveServer) -> tuple[dict[str, Any], Any]:
    """A game of Ann, Ben and Cy with hand 1 recorded (bids 4 5 3, tricks 5 3 5), and the scorer's
    phone on its correction page."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}/hands/1"
    requests.put(url + "/bids", json={"bids": [4, 5, 3]}, headers=bearer(game), timeout=10)
    requests.put(url + "/tricks", json={"tricks": [5, 3, 5]}, headers=bearer(game), timeout=10)
    _, page = scorer_phone(browser, game)
    page.goto(f"{live.url}/g/{game['id']}/hands/1")
    until(page, kept_page(page.url))  # for the tests that then lose the connection
    return game, page


def test_the_correction_page_saves_bids_and_tricks_together(browser: Any, live: LiveServer) -> None:
    game, page = correcting_hand_1(browser, live)
    expect(page.locator("form.hand-edit button.primary")).to_have_count(1)  # one button for the hand
    tap(page, "bid0-3", "tricks0-4", "tricks1-4")  # Cy's 5 stays: the tricks still add up to 13
    page.locator("form.hand-edit button.primary").tap()
    expect(page.locator(".notes")).to_contain_text("Hand 1 corrected")
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [3, 5, 3] and doc["hands"][0]["tricks"] == [4, 4, 5]


def test_a_save_the_browser_stopped_is_sent_by_a_later_tap(browser: Any, live: LiveServer) -> None:
    """A double tap sends a form once. A post the browser stopped (its ✕, a connection given up)
    leaves the page as it was, and its button refused every tap until a reload: 10 s on, it sends."""
    game, page = correcting_hand_1(browser, live)
    page.clock.install()
    page.reload()
    save = page.locator("form.hand-edit button.primary")
    tap(page, "bid0-3", "tricks0-4", "tricks1-4")
    address = f"/g/{game['id']}/hands/1"
    held = hold(page, address + "$", first_only=True, when=lambda request: request.method == "POST")
    save.tap()
    until_held(page, held)
    page.context.new_cdp_session(page).send("Page.stopLoading")  # the browser's ✕: the page stays
    save.tap()  # at once: taken for the double tap, and not sent
    page.clock.fast_forward(11_000)
    save.tap()
    expect(page.locator(".notes")).to_contain_text("Hand 1 corrected")
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [3, 5, 3] and doc["hands"][0]["tricks"] == [4, 4, 5]
    assert live.count("POST", address) == 1


def test_the_correction_page_follows_the_bids_and_says_what_stops_the_save(browser: Any, live: LiveServer) -> None:
    """Ben's bid changed from 5 to 3 above: his tricks row says "bid 3" and scores his 3 tricks as
    made (+30), and the hand's bids total 10. Tricks that no longer add up show in the docked line,
    where the thumb is, and the save waits until they do."""
    game, page = correcting_hand_1(browser, live)
    expect(page.locator("#tricks1 .pts")).to_have_text("\u221250")  # 3 of 5: set (R20)
    tap(page, "bid1-3")
    expect(page.locator("#tricks1 .bidchip")).to_have_text("bid 3")
    expect(page.locator("#tricks1 .pts")).to_have_text("+30")  # 3 of 3: made (R19)
    expect(page.locator(".hand.tricks .bid-total")).to_have_text("10 bid for 13 cards")
    dock, save = page.locator("form.hand-edit .dock .status"), page.locator("form.hand-edit button.primary")
    tap(page, "tricks0-6")
    expect(dock).to_have_text("1 trick too many")
    expect(save).to_be_disabled()
    tap(page, "tricks2-4")
    expect(save).to_be_enabled()
    save.tap()
    expect(page.locator(".notes")).to_contain_text("Hand 1 corrected")
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [4, 3, 3] and doc["hands"][0]["tricks"] == [6, 3, 4]


def test_taps_left_on_a_phone_do_not_override_what_another_phone_saved(browser: Any, live: LiveServer) -> None:
    """Ben 5 and Cy 3 tapped on one phone, then the bids 4 2 2 saved on another: the taps came back
    over the stored bids on the correction page, and saving Ann's change there stored 3 5 3."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    _, page = scorer_phone(browser, game)
    tap(page, "bid1-5", "bid2-3")
    url = f"{live.url}/api/games/{game['id']}/hands/1"
    requests.put(url + "/bids", json={"bids": [4, 2, 2]}, headers=bearer(game), timeout=10)
    requests.put(url + "/tricks", json={"tricks": [5, 3, 5]}, headers=bearer(game), timeout=10)
    page.goto(f"{live.url}/g/{game['id']}/hands/1")
    for tapped in ("bid0-4", "bid1-2", "bid2-2"):
        expect(page.locator("#" + tapped)).to_be_checked()
    tap(page, "bid0-3")
    page.locator("form.hand-edit button.primary").tap()
    expect(page.locator(".notes")).to_contain_text("Hand 1 corrected")
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [3, 2, 2]


def test_an_undone_step_shows_what_was_undone_not_older_taps(browser: Any, live: LiveServer) -> None:
    game = new_game(live, ("Ann", "Ben", "Cy"))
    _, page = scorer_phone(browser, game)
    tap(page, "bid1-5", "bid2-3")
    requests.put(
        f"{live.url}/api/games/{game['id']}/hands/1/bids", json={"bids": [4, 2, 2]}, headers=bearer(game), timeout=10
    )
    page.reload()
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    page.locator("button[form=undo-form]").tap()
    expect(page.locator("form.hand")).to_have_attribute("data-step", "bids")
    for tapped in ("bid0-4", "bid1-2", "bid2-2"):  # "still tapped below": the bids undone
        expect(page.locator("#" + tapped)).to_be_checked()
    assert "was=" in page.url
    page.goto(f"{live.url}/g/{game['id']}")  # the game opened again from its own link (a bookmark, the home screen)
    expect(page.locator("form.hand")).to_have_attribute("data-step", "bids")
    for tapped in ("bid0-4", "bid1-2", "bid2-2"):  # still tapped: the phone kept them
        expect(page.locator("#" + tapped)).to_be_checked()


def test_tricks_tapped_before_edit_bids_are_not_saved_with_the_bids(browser: Any, live: LiveServer) -> None:
    """Two tricks tapped, then "Edit bids": the correction page showed them with the third filled
    in, and saving the bids recorded the whole hand; they wait on the hand screen instead."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    _, page = scorer_phone(browser, game)
    tap(page, "bid1-5", "bid2-3", "bid0-4")
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    eventually(lambda: queued(page) == 0)  # sent: until then "Edit bids" takes them back (queue.js)
    tap(page, "tricks0-5", "tricks1-3")
    page.locator("form.hand a.ghost").tap()  # "Edit bids"
    expect(page).to_have_url(re.compile(r"/hands/1$"))
    expect(page.locator("#tricks0-5")).not_to_be_checked()
    tap(page, "tricks0-5")  # tapped here, kept through a reload, then cleared: the bids still save alone
    page.reload()
    expect(page.locator("#tricks0-5")).to_be_checked()
    tap(page, "tricks0-5", "bid0-3")
    expect(page.locator("#tricks0-5")).not_to_be_checked()
    page.locator("form.hand-edit button.primary").tap()
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [3, 5, 3] and doc["hands"][0]["tricks"] is None
    expect(page.locator("#tricks0-5")).to_be_checked()  # the taps wait where they were made
    expect(page.locator("#tricks1-3")).to_be_checked()


def test_a_correction_that_breaks_a_rule_stores_nothing_and_names_it(browser: Any, live: LiveServer) -> None:
    game, page = correcting_hand_1(browser, live)
    page.evaluate("document.querySelectorAll('.hand[data-step=tricks] input').forEach(i => i.checked = false)")
    page.evaluate(
        """for (const [id] of [['tricks0-6'], ['tricks1-3'], ['tricks2-5']]) document.getElementById(id).checked = true"""
    )
    page.locator("form.hand-edit button.primary").tap()
    expect(page.locator(".alert")).to_have_text("Tricks add up to 14, but 13 cards were dealt in hand 1 (R23).")
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["tricks"] == [5, 3, 5] and doc["version"] == 3


def test_a_phone_that_came_by_a_link_finds_its_games_at_home_offline(browser: Any, live: LiveServer) -> None:
    """Offline, "Home" (the offline page's one button, the logo) led to the offline page again when
    the phone had come by a game's link and never opened the home page."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    kept = f"() => caches.open('bluke-pages').then(c => c.match('{live.url}/')).then(Boolean)"
    until(page, kept)
    go_offline(context, live)
    page.goto(live.url + "/")
    page.locator(".game-link", has_text="Ann · Ben · Cy").tap()
    expect(page.locator("form.hand")).to_have_attribute("data-step", "bids")
    go_online(context, live)


def forget_ann_ben_cy(page: Any, live: LiveServer) -> None:
    """On the home page, the game of Ann, Ben and Cy forgotten on this phone (it asks first, and warns)."""
    page.goto(live.url + "/")
    item = page.locator(".game-item", has_text="Ann · Ben · Cy")
    item.locator("summary[aria-label='Forget the game of Ann, Ben, Cy on this phone']").tap()
    expect(item.locator(".forget-ask")).to_contain_text("nobody can change the game once it is forgotten here")
    item.get_by_role("button", name="Forget on this phone").tap()
    expect(page.locator(".game-link")).to_have_count(0)


def test_forgetting_a_game_asks_first_warns_and_can_be_undone(browser: Any, live: LiveServer) -> None:
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    forget_ann_ben_cy(page, live)
    assert context.request.get(f"{live.url}/g/{game['id']}").status == 404
    page.get_by_role("button", name="Undo: keep the game of Ann, Ben, Cy on this phone").tap()
    expect(page.locator(".game-link", has_text="Ann · Ben · Cy")).to_be_visible()
    page.goto(f"{live.url}/g/{game['id']}")
    expect(page.locator("form.hand")).to_have_attribute("data-step", "bids")  # a scorer again


def test_a_forgotten_game_is_not_kept_on_the_phone_for_offline_use(browser: Any, live: LiveServer) -> None:
    """Forgotten, the game still opened offline as the whole scorer page from the worker's copy."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    forget_ann_ben_cy(page, live)
    kept = f"() => caches.open('bluke-pages').then(c => c.match('{live.url}/g/{game['id']}')).then(Boolean)"
    until(page, f"async () => !(await ({kept})())")
    go_offline(context, live)
    page.goto(f"{live.url}/g/{game['id']}")
    expect(page.locator("form.hand")).to_have_count(0)  # the page for one never opened here
    go_online(context, live)


# -- a group's pages --------------------------------------------------------------------------------
#: What the offline page says of a page the phone does not keep (one never opened, a share page).
NOT_KEPT = "This page is not kept on this phone, so it cannot open without a connection."


def kept_page(url: str) -> str:
    """Whether the worker keeps a copy of ``url`` (a function for ``page.evaluate`` or :func:`until`)."""
    return f"() => caches.open('bluke-pages').then(c => c.match({json.dumps(url)})).then(Boolean)"


def until(page: Any, script: str, seconds: float = 10) -> None:
    """Wait until the page's ``script`` (a function) resolves to a true value: ``page.wait_for_function``
    takes the promise itself for one, so it would not wait at all."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"not so within {seconds} s: {script}"
        page.wait_for_timeout(100)


def group_opened_here(browser: Any, live: LiveServer) -> tuple[Any, Any, str, dict[str, str]]:
    """A phone that opened the link of a group (Ann, Ben, Cy, one game) and, with the service worker
    in control, its pages, each then kept: the group's page, its games, the game's page in the
    group and Ann's page. Returns the phone, its page, the group's address and each page's heading."""
    group = requests.post(
        live.url + "/api/groups", json={"name": "Tuesday club", "players": ["Ann", "Ben", "Cy"]}, timeout=10
    ).json()
    game = requests.post(
        f"{live.url}/api/groups/{group['id']}/import",
        json=export_file(["Ann", "Ben", "Cy"], legal_hands(3, 2)),
        headers={"Authorization": f"Bearer {group['token']}"},
        timeout=10,
    ).json()
    ann = next(p["id"] for p in group["players"] if p["name"] == "Ann")
    base = f"{live.url}/groups/{group['id']}"
    headings = {
        base: "Tuesday club",
        f"{base}/games": "1 game",
        f"{base}/games/{game['id']}": "Ann · Ben · Cy",
        f"{base}/players/{ann}": "Ann",
    }
    context, page = phone(browser)
    page.goto(f"{base}/join/{group['token']}")
    assert page.url == base  # redirected to the group's clean address
    worker_ready(page)
    for url, heading in headings.items():
        page.goto(url)
        expect(page.locator("h1")).to_have_text(heading)
        until(page, kept_page(url))
    return context, page, base, headings


def test_a_groups_pages_opened_online_open_offline_but_not_its_share_page(browser: Any, live: LiveServer) -> None:
    """Group pages were answered no-store, which the worker never keeps: offline, every one of them
    showed the offline page. The share page (the group link's token) is still never kept."""
    context, page, base, headings = group_opened_here(browser, live)
    page.goto(base + "/share")
    expect(page.locator("h1")).to_have_text("Group link")
    go_offline(context, live)
    try:
        for url, heading in headings.items():
            page.goto(url)
            expect(page.locator("h1")).to_have_text(heading)
        page.goto(base + "/share")
        expect(page.locator("h1")).to_have_text("No connection")
        expect(page.locator("main")).to_contain_text(NOT_KEPT)
    finally:
        go_online(context, live)


def test_a_forgotten_group_leaves_none_of_its_pages_on_the_phone(browser: Any, live: LiveServer) -> None:
    """Forgotten on the phone, the group's pages (and one kept with a query: a language chosen on it)
    must not open offline from the worker's copies."""
    context, page, base, headings = group_opened_here(browser, live)
    player = list(headings)[-1]
    page.goto(player + "?lang=en")
    until(page, kept_page(player + "?lang=en"))
    page.goto(live.url + "/")
    page.get_by_role("button", name="Forget the group Tuesday club on this phone").tap()
    expect(page.locator(".game-link", has_text="Tuesday club")).to_have_count(0)
    path = json.dumps(base.removeprefix(live.url))
    none_kept = f"""() => caches.open('bluke-pages').then(c => c.keys()).then(keys => !keys.some(r => {{
        const p = new URL(r.url).pathname; return p === {path} || p.startsWith({path} + '/'); }}))"""
    until(page, none_kept)
    assert page.evaluate(kept_page(live.url + "/")) is True  # the home page stays kept
    go_offline(context, live)
    try:
        for url in [*headings, player + "?lang=en"]:
            page.goto(url)
            expect(page.locator("h1")).to_have_text("No connection")
            expect(page.locator("main")).to_contain_text(NOT_KEPT)
    finally:
        go_online(context, live)


# -- an evening offline: hand after hand, then the connection returns ------------------------------
def drawn_form(page: Any) -> str:
    """The hand form as drawn, without what differs between two drawings of the same step (the
    game's version, the CSRF token) and the white space between tags."""
    html = page.locator("form.hand").evaluate("f => f.outerHTML")
    html = re.sub(r'(name="(?:version|csrf_token)" value=)"[^"]*"', r"\1", html)
    return re.sub(r">\s+<", "><", html)


def test_two_hands_scored_offline_reach_the_server_once_each_in_order(browser: Any, live: LiveServer) -> None:
    game = new_game(live)
    url = f"{live.url}/api/games/{game['id']}"
    requests.put(url + "/hands/1/bids", json={"bids": [3, 4, 3, 2], "trump": "H"}, headers=bearer(game), timeout=10)
    requests.put(url + "/hands/1/tricks", json={"tricks": [5, 4, 3, 1]}, headers=bearer(game), timeout=10)
    context, page = scorer_phone(browser, game)
    sync, meta, stale = page.locator("#sync"), page.locator(".hand-meta"), page.locator("#standings .stale")
    go_offline(context, live)
    # hand 2: Ben deals, Cy bids first; a Bluke was turned; Ben's bid saves the bids
    expect(meta.first).to_contain_text("12 cards · Ben deals · Cy bids first")
    tap(page, "t2none", "bid2-3", "bid3-2", "bid0-4", "bid1-2")
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    expect(meta.nth(1)).to_have_text("No trump — a Bluke was turned · 11 bid for 12 cards")
    expect(page.locator("#tricks1 .bidchip")).to_have_text("bid 2")
    tap(page, "tricks2-3", "tricks3-1", "tricks0-4")  # Ben's 4 is the remainder
    expect(page.locator("#tricks1-4")).to_be_checked()
    expect(page.locator("#tricks1 .pts")).to_have_text("+22")
    expect(page.locator("#tricks1 .after")).to_have_text("62")
    page.locator("form.hand button.primary").tap()
    # hand 3, drawn on the phone: Cy deals, Dee bids first, the totals after hand 2
    expect(page.locator(".hand-title h1")).to_have_text("Hand 3 of 25")
    expect(meta.first).to_contain_text("11 cards · Cy deals · Dee bids first")
    expect(page.locator(".prow .name")).to_have_text(["Dee", "Ann", "Ben", "Cy"])  # the bidding order
    expect(page.locator(".prow .pos")).to_have_text(["1", "2", "3", "4"])
    expect(page.locator("#bid2 .tag.deal")).to_have_text("deals")
    expect(page.locator("#bid3 .tag:not(.deal)")).to_have_text("first")
    expect(page.locator(".tag")).to_have_count(2)
    expect(page.locator("#bid0 .taps input")).to_have_count(11)  # 1 to 11: zero bids are off
    expect(page.locator(".prow .num")).to_have_text(["−40", "72", "62", "60"])
    expect(stale).to_have_text("As of hand 2: 2 entries made on this phone are not counted here yet")
    expect(page.locator(".sheet-panel .stale")).to_have_text(stale.inner_text())
    expect(page.locator("a.to-standings")).to_have_attribute("href", "#standings")
    tap(page, "t3S", "bid3-1", "bid0-3", "bid1-2", "bid2-4")
    expect(meta.nth(1)).to_have_text("Trump ♠ · 10 bid for 11 cards")
    tap(page, "tricks3-0", "tricks0-3", "tricks1-2")
    expect(page.locator("#tricks2 .after")).to_have_text("102")
    page.locator("form.hand button.primary").tap()
    expect(page.locator(".hand-title h1")).to_have_text("Hand 4 of 25")
    expect(meta.first).to_contain_text("10 cards · Dee deals · Ann bids first")
    expect(sync).to_have_text("Offline — 4 entries waiting")
    expect(stale).to_have_text("As of hand 2: 4 entries made on this phone are not counted here yet")
    shown = [page.locator(f"#bid{seat} .num").inner_text() for seat in range(4)]
    phone_form = drawn_form(page)
    assert live.count("PUT", f"/api/games/{game['id']}/") == 2  # only the two made online
    mark = len(live.hits)
    go_online(context, live)
    expect(sync).to_have_text("All sent", timeout=15_000)
    puts = [h.path for h in live.since(mark) if h.method == "PUT"]
    assert puts == [f"/api/games/{game['id']}/hands/{n}/{step}" for n in (2, 3) for step in ("bids", "tricks")]
    doc = requests.get(url, headers=bearer(game), timeout=10).json()
    assert [h["bids"] for h in doc["hands"][1:3]] == [[4, 2, 3, 2], [3, 2, 4, 1]]
    assert [h["tricks"] for h in doc["hands"][1:3]] == [[4, 4, 3, 1], [3, 2, 6, 0]]
    assert [(h["trump"], h["no_trump"]) for h in doc["hands"][1:3]] == [(None, True), ("S", False)]  # R12
    assert [f"{t}".replace("-", "−") for t in doc["totals"]] == shown == ["102", "82", "102", "−50"]
    # the page comes back from the server: the same step, drawn by the same template
    expect(stale).to_have_count(0)
    expect(page.locator(".hand-title h1")).to_have_text("Hand 4 of 25")
    assert drawn_form(page) == phone_form


def test_a_one_card_hand_drawn_offline_comes_with_the_only_bid_tapped(browser: Any, live: LiveServer) -> None:
    """Hand 13 of two players deals one card each: every bid is 1 (R13), tapped on the phone as the
    server draws it, so the scorer only saves."""
    game = new_game(live, ("Ann", "Ben"))
    url = f"{live.url}/api/games/{game['id']}"
    for number in range(1, 12):
        cards = 14 - number
        requests.put(f"{url}/hands/{number}/bids", json={"bids": [1, 1]}, headers=bearer(game), timeout=10)
        requests.put(f"{url}/hands/{number}/tricks", json={"tricks": [cards, 0]}, headers=bearer(game), timeout=10)
    context, page = scorer_phone(browser, game)
    go_offline(context, live)
    expect(page.locator(".hand-meta").first).to_contain_text("2 cards")
    expect(page.locator("#bid0-1")).not_to_be_checked()
    tap(page, "bid1-1", "bid0-2")  # hand 12: Ben deals, Ann bids first... and the last tap saves
    tap(page, "tricks0-1")
    page.locator("form.hand button.primary").tap()
    expect(page.locator(".hand-title h1")).to_have_text("Hand 13 of 25")
    expect(page.locator(".hand-meta").first).to_contain_text("1 card")
    for seat in (0, 1):
        expect(page.locator(f"#bid{seat} .taps input")).to_have_count(1)
        expect(page.locator(f"#bid{seat}-1")).to_be_checked()
    expect(page.locator("form.hand .status")).to_have_text("2 bid for 1 card — overbid by 1")
    expect(page.locator("form.hand button.primary")).to_be_enabled()
    phone_form = drawn_form(page)
    go_online(context, live)
    expect(page.locator("#sync")).to_have_text("All sent", timeout=15_000)
    expect(page.locator("#standings .stale")).to_have_count(0)  # the page came back from the server
    assert drawn_form(page) == phone_form
    tap(page, "bid0-1", "bid1-1")  # out of habit: a tap keeps the only bid (no tap-again-to-clear)
    for seat in (0, 1):
        expect(page.locator(f"#bid{seat}-1")).to_be_checked()
    page.locator("form.hand button.primary").tap()
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    doc = requests.get(url, headers=bearer(game), timeout=10).json()
    assert doc["hands"][12]["bids"] == [1, 1]


# -- corrections and undo need the server: without it they say so and lose nothing -----------------
def test_undo_without_a_connection_says_so_and_works_once_back(browser: Any, live: LiveServer) -> None:
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    requests.put(url + "/hands/1/bids", json={"bids": [4, 5, 3]}, headers=bearer(game), timeout=10)
    context, page = scorer_phone(browser, game)
    go_offline(context, live)
    page.locator("button[form=undo-form]").tap()
    expect(page.locator("#sync")).to_have_text(
        "No connection: nothing was undone. Undo again when the connection is back."
    )
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")  # the app, not the browser's error
    go_online(context, live)
    with page.expect_navigation():
        page.locator("button[form=undo-form]").tap()
    expect(page.locator("form.hand")).to_have_attribute("data-step", "bids")
    assert requests.get(url, headers=bearer(game), timeout=10).json()["hands"][0]["bids"] is None


def test_a_correction_without_a_connection_keeps_the_taps_until_it_can_be_saved(browser: Any, live: LiveServer) -> None:
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    requests.put(url + "/hands/1/bids", json={"bids": [4, 5, 3]}, headers=bearer(game), timeout=10)
    requests.put(url + "/hands/1/tricks", json={"tricks": [5, 3, 5]}, headers=bearer(game), timeout=10)
    context, page = scorer_phone(browser, game)
    page.goto(f"{live.url}/g/{game['id']}/hands/1")  # opened once: the phone keeps a copy
    until(page, kept_page(page.url))
    go_offline(context, live)
    tap(page, "bid0-3")
    page.locator("form.hand-edit button.primary").tap()
    expect(page.locator("form.hand-edit .dock .status")).to_have_text(
        "No connection: nothing was sent. What you tapped is kept on this phone; save again when the connection is back."
    )
    page.reload()  # the kept copy, with the tap
    expect(page.locator("#bid0-3")).to_be_checked()
    go_online(context, live)
    page.locator("form.hand-edit button.primary").tap()
    expect(page.locator(".notes")).to_contain_text("Hand 1 corrected")
    assert requests.get(url, headers=bearer(game), timeout=10).json()["hands"][0]["bids"] == [3, 5, 3]
    assert live.count("POST", f"/g/{game['id']}/hands/1") == 1


def test_a_correction_sent_into_a_wifi_without_internet_keeps_its_taps(browser: Any, live: LiveServer) -> None:
    """The phone thinks it is online (Wi-Fi up), but the server cannot be reached: the correction
    goes the browser's way and fails. Back on the correction page, the taps are still there; once
    saved, they are not put back over what a later correction recorded."""
    game, page = correcting_hand_1(browser, live)
    url = f"{live.url}/api/games/{game['id']}"
    tap(page, "bid0-3")
    live.unplug()  # navigator.onLine stays true
    page.locator("form.hand-edit button.primary").tap()
    expect(page).to_have_url("chrome-error://chromewebdata/")  # the browser's own error page: the POST never arrived
    page.goto(f"{live.url}/g/{game['id']}/hands/1")  # the copy the phone kept
    expect(page.locator("#bid0-3")).to_be_checked()
    live.plug()
    page.locator("form.hand-edit button.primary").tap()
    expect(page.locator(".notes")).to_contain_text("Hand 1 corrected")
    assert requests.get(url, headers=bearer(game), timeout=10).json()["hands"][0]["bids"] == [3, 5, 3]
    requests.put(url + "/hands/1/bids", json={"bids": [4, 5, 3]}, headers=bearer(game), timeout=10)
    page.goto(f"{live.url}/g/{game['id']}/hands/1")  # a later version: the sent taps are not put back
    expect(page.locator("#bid0-4")).to_be_checked()


def test_undo_tapped_while_the_entry_is_on_its_way_is_done_once_the_server_has_it(
    browser: Any, live: LiveServer
) -> None:
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    other_scorer(live, game, [4, 5, 3], [5, 3, 5])
    context, page = scorer_phone(browser, game)
    undo = page.locator("button[form=undo-form]")
    expect(undo).to_have_attribute("aria-label", "Undo the tricks of hand 1")
    held = hold(page, r"/hands/2/bids$")
    tap(page, "bid2-4", "bid0-4", "bid1-3")  # hand 2: Ben deals, Cy bids first
    until_held(page, held)  # the bids are on their way, the answer not in
    expect(undo).to_have_attribute("aria-label", "Undo the bids of hand 2")  # the latest entry
    undo.tap()
    expect(page.locator("#sync")).to_have_text("Sending…")
    held[0].continue_()
    expect(page.locator(".note")).to_contain_text("Undone: the bids of hand 2", timeout=15_000)
    assert requests.get(url, headers=bearer(game), timeout=10).json()["hands"][1]["bids"] is None
    assert live.count("PUT", f"/api/games/{game['id']}/hands/2/bids") == 1
    assert live.count("POST", f"/g/{game['id']}/undo") == 1


def bids_stored_answer_lost(browser: Any, live: LiveServer) -> tuple[dict[str, Any], str, Any, Any]:
    """Hand 2's bids saved from a scorer's phone: the server stored them, its answer never came (a
    connection reset), so they wait on the phone. ``(game, its API address, phone, page)``."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    other_scorer(live, game, [4, 5, 3], [5, 3, 5])
    context, page = scorer_phone(browser, game)
    lost: list[str] = []
    page.route(re.compile(r"/hands/2/bids$"), lose_the_first_answer(lost))
    tap(page, "bid2-4", "bid0-4", "bid1-3")  # hand 2: Ben deals, Cy bids first
    expect(page.locator("#sync")).to_contain_text("1 entry waiting")
    assert requests.get(url, headers=bearer(game), timeout=10).json()["hands"][1]["bids"] == [4, 3, 4]
    return game, url, context, page


def test_undo_of_an_entry_whose_answer_was_lost_is_done_on_the_server(browser: Any, live: LiveServer) -> None:
    """The server stored the bids but its answer never came (a connection reset): the entry may be
    there, so the undo is not done on the phone alone; it goes to the server once the entry is."""
    game, url, context, page = bids_stored_answer_lost(browser, live)
    page.locator("button[form=undo-form]").tap()  # at once: before the phone has drawn the next step
    expect(page.locator(".note")).to_contain_text("Undone: the bids of hand 2", timeout=15_000)
    assert requests.get(url, headers=bearer(game), timeout=10).json()["hands"][1]["bids"] is None
    assert live.count("POST", f"/g/{game['id']}/undo") == 1


@pytest.mark.parametrize("undone", ["before the page is loaded again", "after it"])
def test_undo_of_an_entry_whose_answer_was_lost_waits_for_it_across_a_reload(
    browser: Any, live: LiveServer, undone: str
) -> None:
    """That the entry may be stored, and that its undo was asked, lived in the page alone: the page
    loaded again (the phone reopened it), the undo was forgotten or done on the phone only ("Undone")
    while the server kept the bids. Both are kept with the entry, and the undo goes to the server."""
    game, url, context, page = bids_stored_answer_lost(browser, live)
    go_offline(context, live)
    undo = page.locator("button[form=undo-form]")
    try:
        if undone == "after it":
            page.reload()
        expect(undo).to_have_attribute("aria-label", "Undo the bids of hand 2")
        undo.tap()
        expect(page.locator("#sync")).to_have_text("Sending…")
        if undone != "after it":
            page.reload()
        expect(page.locator(".note")).to_have_count(0)  # not "Undone" on the phone alone
    finally:
        go_online(context, live)
    expect(page.locator(".note")).to_contain_text("Undone: the bids of hand 2", timeout=15_000)
    assert requests.get(url, headers=bearer(game), timeout=10).json()["hands"][1]["bids"] is None
    assert live.count("POST", f"/g/{game['id']}/undo") == 1


def test_undo_while_an_earlier_entry_is_on_its_way_takes_back_only_the_last(browser: Any, live: LiveServer) -> None:
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    undo = page.locator("button[form=undo-form]")
    held = hold(page, r"/hands/1/bids$")
    offline_hand_1(page, ("bid1-5", "bid2-3", "bid0-4"), ("tricks0-4", "tricks1-5"))
    until_held(page, held)  # the bids on their way, the tricks waiting behind them
    expect(undo).to_have_attribute("aria-label", "Undo the tricks of hand 1")
    undo.tap()
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    expect(page.locator("#tricks1-5")).to_be_checked()
    held[0].continue_()
    expect(undo).to_have_attribute("aria-label", "Undo the bids of hand 1")
    page.wait_for_function("() => document.body.dataset.sending === undefined")  # the bids are in
    assert queued(page) == 0  # the tricks taken back do not come back
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [4, 5, 3] and doc["hands"][0]["tricks"] is None
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/tricks") == 0


def test_undo_of_entries_still_on_the_phone_takes_them_back_there(browser: Any, live: LiveServer) -> None:
    """Offline, Ann's bid was mistapped and the tricks already entered: two undos bring the bids back,
    still tapped; one bid is changed and the hand entered again. The server only ever sees the
    right bids, once."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    sync, undo, form = page.locator("#sync"), page.locator("button[form=undo-form]"), page.locator("form.hand")
    go_offline(context, live)
    tap(page, "t1H")
    offline_hand_1(page, ("bid1-5", "bid2-3", "bid0-4"), ("tricks0-4", "tricks1-5"))
    expect(sync).to_have_text("Offline — 2 entries waiting")
    expect(undo).to_have_attribute("aria-label", "Undo the tricks of hand 1")
    undo.tap()
    expect(form).to_have_attribute("data-step", "tricks")
    expect(sync).to_have_text(
        "Undone: the tricks of hand 1. They are still tapped below: change what was wrong and record."
    )
    for tapped in ("tricks0-4", "tricks1-5", "tricks2-4"):
        expect(page.locator(f"#{tapped}")).to_be_checked()
    expect(undo).to_have_attribute("aria-label", "Undo the bids of hand 1")
    undo.tap()
    expect(form).to_have_attribute("data-step", "bids")
    for tapped in ("bid0-4", "bid1-5", "bid2-3", "t1H"):
        expect(page.locator(f"#{tapped}")).to_be_checked()
    expect(undo).to_be_hidden()  # nothing left to undo
    assert queued(page) == 0
    page.reload()  # the taps are in the draft
    expect(page.locator("#bid0-4")).to_be_checked()
    tap(page, "bid0-3")
    page.locator("form.hand button.primary").tap()
    expect(form).to_have_attribute("data-step", "tricks")
    expect(sync).to_have_text("Offline — 1 entry waiting")
    expect(page.locator("#tricks1-5")).to_be_checked()  # the tricks taken back are still tapped too
    go_online(context, live)
    expect(sync).to_have_text("All sent", timeout=15_000)
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [3, 5, 3] and doc["hands"][0]["trump"] == "H"
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/bids") == 1
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/tricks") == 0
    assert live.count("POST", f"/g/{game['id']}/undo") == 0


# -- two tabs of one phone: the queue is the phone's (IndexedDB), each page's list its own ------------
def tricks_in_a_second_tab(context: Any, live: LiveServer, game: dict[str, Any]) -> Any:
    """Offline, with hand 1's bids waiting (Ann 4, Ben 5, Cy 3), the game opened in a second tab, which
    goes on from the phone's queue, and its tricks recorded there (Ann 4, Ben 5, Cy 4)."""
    other = context.new_page()
    other.goto(f"{live.url}/g/{game['id']}")  # the page kept by the service worker
    expect(other.locator("form.hand")).to_have_attribute("data-step", "tricks")
    tap(other, "tricks0-4", "tricks1-5")  # Cy's 4 is the remainder
    other.locator("form.hand button.primary").tap()
    expect(other.locator("#sync")).to_have_text("Offline — 2 entries waiting")
    return other


def server_hand_1(live: LiveServer, game: dict[str, Any], tricks: list[int] | None) -> dict[str, Any]:
    """Hand 1 as the server holds it once its tricks are ``tricks`` (15 s at most)."""
    deadline = time.monotonic() + 15
    while True:
        doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
        if doc["hands"][0]["tricks"] == tricks or time.monotonic() > deadline:
            return dict(doc["hands"][0])
        time.sleep(0.1)


def test_tricks_recorded_in_a_tab_closed_since_go_out_after_the_bids_another_tab_sent(
    browser: Any, live: LiveServer
) -> None:
    """The first tab sent the bids and moved only its own list on to the game they made: the tricks of
    the closed tab went out on the older game, came back as a clash with "another phone", and its first
    button dropped them."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    try:
        bids_waiting_offline(context, page, live)
        tricks_in_a_second_tab(context, live, game).close()
        assert queued(page) == 2
    finally:
        go_online(context, live)
    hand = server_hand_1(live, game, [4, 5, 4])
    assert hand["bids"] == [4, 5, 3] and hand["tricks"] == [4, 5, 4]
    expect(page.locator("#conflict")).to_be_hidden()
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/tricks") == 1
    eventually(lambda: queued(page) == 0)  # the answer read before the entry is taken off


def test_a_tab_back_in_sight_goes_on_from_what_another_tab_added_to_the_queue(browser: Any, live: LiveServer) -> None:
    """Undo in the first tab named and took back the bids, the latest entry of its own list, from under
    the tricks recorded in another tab; those were then refused (R25) and had to be entered again."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    undo = page.locator("button[form=undo-form]")
    try:
        bids_waiting_offline(context, page, live)
        other = tricks_in_a_second_tab(context, live, game)
        expect(undo).to_have_attribute("aria-label", "Undo the bids of hand 1")  # its own list, out of sight
        with page.expect_navigation():  # the phone shows the first tab again: it reads the phone's queue
            page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        expect(page.locator("#sync")).to_have_text("Offline — 2 entries waiting")
        expect(undo).to_have_attribute("aria-label", "Undo the tricks of hand 1")
        undo.tap()
        expect(page.locator("#sync")).to_contain_text("Undone: the tricks of hand 1.")
        expect(page.locator("#tricks2-4")).to_be_checked()
        assert queued(page) == 1
        other.close()
    finally:
        go_online(context, live)
    expect(page.locator("#sync")).to_have_text("All sent", timeout=15_000)
    hand = server_hand_1(live, game, None)
    assert hand["bids"] == [4, 5, 3] and hand["tricks"] is None
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/tricks") == 0
    expect(page.locator("#conflict")).to_be_hidden()


def test_offline_taps_survive_a_reload_and_the_phone_refuses_what_the_server_would(
    browser: Any, live: LiveServer
) -> None:
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    go_offline(context, live)
    tap(page, "bid1-5", "bid2-3")
    page.reload()  # the phone's copy of the page, with the two bids tapped
    expect(page.locator("#bid1-5")).to_be_checked()
    expect(page.locator("#bid2-3")).to_be_checked()
    expect(page.locator(".dock .status")).to_have_text("8 bid for 13 cards — 1 player to go")
    tap(page, "bid0-4")
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    # tricks that do not add up (R23) are refused on the phone, in the server's words, and not queued
    page.evaluate(
        """for (const id of ['tricks0-6', 'tricks1-3', 'tricks2-5']) document.getElementById(id).checked = true;
           document.querySelector('form.hand').requestSubmit()"""
    )
    expect(page.locator(".dock .status")).to_have_text("Tricks add up to 14, but 13 cards were dealt in hand 1 (R23).")
    expect(page.locator("#sync")).to_have_text("Offline — 1 entry waiting")
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    go_online(context, live)
    expect(page.locator("#sync")).to_have_text("All sent", timeout=15_000)
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [4, 5, 3] and doc["hands"][0]["tricks"] is None


def test_undo_of_an_entry_whose_answer_was_lost_as_the_phone_went_offline_waits_for_the_server(
    browser: Any, live: LiveServer
) -> None:
    """Sent while online, the bids were stored, and the phone was offline when the answer should
    have come: the undo was done on the phone alone, the server kept the bids, and the scorer's
    next save clashed with them as if another phone had saved."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    other_scorer(live, game, [4, 5, 3], [5, 3, 5])
    context, page = scorer_phone(browser, game)
    held = hold(page, r"/hands/2/bids$")
    tap(page, "bid2-4", "bid0-4", "bid1-3")  # hand 2: Ben deals, Cy bids first
    until_held(page, held)
    held[0].fetch()  # the server stores the bids
    assert requests.get(url, headers=bearer(game), timeout=10).json()["hands"][1]["bids"] == [4, 3, 4]
    go_offline(context, live)
    held[0].abort("internetdisconnected")  # and the phone, offline now, never hears so
    expect(page.locator("#sync")).to_contain_text("1 entry waiting")
    page.unroute(re.compile(r"/hands/2/bids$"))
    page.locator("button[form=undo-form]").tap()  # not taken back on the phone: the server may hold them
    expect(page.locator("#sync")).to_have_text("Offline — 1 entry waiting")
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    go_online(context, live)
    expect(page.locator(".note")).to_contain_text("Undone: the bids of hand 2", timeout=15_000)
    assert requests.get(url, headers=bearer(game), timeout=10).json()["hands"][1]["bids"] is None
    assert live.count("POST", f"/g/{game['id']}/undo") == 1


def test_after_an_offline_entry_is_taken_back_the_page_follows_the_other_scorers_again(
    browser: Any, live: LiveServer
) -> None:
    """The page waits for its own entries before it follows other phones' saves; once the only one
    was taken back on the phone, nothing was left to wait for, yet it never followed again."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    context, page = scorer_phone(browser, game)
    go_offline(context, live)
    tap(page, "bid1-5", "bid2-3", "bid0-4")
    expect(page.locator("#sync")).to_have_text("Offline — 1 entry waiting")
    page.locator("button[form=undo-form]").tap()
    expect(page.locator("#sync")).to_contain_text("Undone: the bids of hand 1")
    go_online(context, live)
    requests.put(url + "/hands/1/bids", json={"bids": [4, 5, 3]}, headers=bearer(game), timeout=10)
    expect(page.locator("#changed-elsewhere")).to_be_visible(timeout=15_000)  # the taps taken back are kept
    page.locator("#changed-elsewhere a").tap()
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")


def test_edit_bids_of_bids_still_on_the_phone_takes_them_back_there(browser: Any, live: LiveServer) -> None:
    """The tricks step drawn on the phone offered the server's correction page for bids the server
    did not have yet: it opened empty, and the saved correction then clashed with the phone's entry."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    try:
        bids_waiting_offline(context, page, live)
        expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
        page.locator("form.hand a.ghost").tap()  # "Edit bids"
        expect(page.locator("form.hand")).to_have_attribute("data-step", "bids")
        expect(page.locator("#bid0-4")).to_be_checked()  # the taps kept, to change what was wrong
        expect(page.locator("#sync")).to_contain_text("Undone: the bids of hand 1")
        assert page.url.endswith(f"/g/{game['id']}")
    finally:
        go_online(context, live)  # the server too: the tests after this one need it


# -- another phone's saves and an expired session, met by the queue -------------------------------
def test_a_correction_of_another_hand_does_not_hold_up_the_entries_waiting(browser: Any, live: LiveServer) -> None:
    """Hand 2's bids and tricks waited on the phone while another phone corrected hand 1's tricks
    (API.md: an earlier, complete hand may be edited). The version had moved on, so the first entry
    was refused (409) and the box asked the scorer to choose between two "versions" of hand 2 that
    did not differ. The entries write a hand the other phone left alone: they go on from the
    server's game without a question, and the totals shown count the corrected hand 1."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    other_scorer(live, game, [4, 5, 3], [5, 3, 5])
    context, page = scorer_phone(browser, game)
    sync, box = page.locator("#sync"), page.locator("#conflict")
    try:
        go_offline(context, live)
        tap(page, "bid2-4", "bid0-4", "bid1-3")  # hand 2: Ben deals, Cy bids first
        expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
        tap(page, "tricks2-4", "tricks0-4")  # Ben's 4 is the remainder
        page.locator("form.hand button.primary").tap()
        expect(page.locator(".hand-title h1")).to_have_text("Hand 3 of 25")
        expect(sync).to_have_text("Offline — 2 entries waiting")
        live.plug()  # another phone, online, corrects hand 1's tricks meanwhile
        version = requests.get(url, headers=bearer(game), timeout=10).json()["version"]
        answer = requests.put(
            url + "/hands/1/tricks", json={"tricks": [4, 5, 4], "version": version}, headers=bearer(game), timeout=10
        )
        assert answer.status_code == 200
    finally:
        go_online(context, live)
    expect(sync).to_have_text("All sent", timeout=15_000)
    expect(page.locator(".stale")).to_have_count(0)  # the server's page again
    expect(box).to_be_hidden()
    expect(page.locator(".hand-title h1")).to_have_text("Hand 3 of 25")
    # hand 1 corrected: Ann 40, Ben 50, Cy 31 (R19); hand 2: Ann 40, Ben 31, Cy 40 (not 81, −19, 72)
    expect(page.locator(".prow .num")).to_have_text(["80", "81", "71"])  # Cy deals: Ann bids first
    doc = requests.get(url, headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["tricks"] == [4, 5, 4]  # the correction stays
    assert doc["hands"][1]["bids"] == [4, 3, 4] and doc["hands"][1]["tricks"] == [4, 4, 4]
    assert doc["totals"] == [80, 81, 71]
    assert live.count("PUT", f"/api/games/{game['id']}/hands/2/tricks") == 1


def test_bids_tapped_while_another_phone_corrected_an_earlier_hand_are_saved(browser: Any, live: LiveServer) -> None:
    """Online: two of hand 2's bids tapped, another phone corrects hand 1's tricks, the last bid is
    tapped. The save was refused as a clash and the box came up over hand 2's bids, which nobody
    else had entered; they are saved, and the tricks step counts the corrected hand 1."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    other_scorer(live, game, [4, 5, 3], [5, 3, 5])
    context, page = scorer_phone(browser, game)
    form = page.locator("form.hand")
    tap(page, "bid2-4", "bid0-4")  # hand 2: Ben deals, Cy bids first
    version = requests.get(url, headers=bearer(game), timeout=10).json()["version"]
    answer = requests.put(
        url + "/hands/1/tricks", json={"tricks": [4, 5, 4], "version": version}, headers=bearer(game), timeout=10
    )
    assert answer.status_code == 200
    tap(page, "bid1-3")  # Ben's bid saves the bids
    expect(form).to_have_attribute("data-step", "tricks", timeout=15_000)
    expect(page.locator("#conflict")).to_be_hidden()
    # the screen goes on to the tricks while the bids are still on their way (queue.js, draw)
    eventually(lambda: requests.get(url, headers=bearer(game), timeout=10).json()["hands"][1]["bids"] == [4, 3, 4])
    doc = requests.get(url, headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["tricks"] == [4, 5, 4]
    expect(page.locator("#tricks0 .num")).to_have_text("40", timeout=15_000)  # Ann made her 4: not 41
    expect(page.locator("#tricks1 .num")).to_have_text("50")  # Ben made his 5: not −50
    expect(page.locator("#conflict")).to_be_hidden()


def test_a_refused_bids_entry_shows_the_trump_on_both_sides(browser: Any, live: LiveServer) -> None:
    """Offline, hand 1's bids with the trump ♠; another phone sent the same bids with ♥. The box
    showed "Ann 4 · Ben 5 · Cy 3" on both sides: nothing to choose between, yet the trump differs
    (R12). Both sides name it, in the page's language. The page was opened offline from the
    worker's copy: the box's script is on the phone too."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    box = page.locator("#conflict")
    rare = page.evaluate("document.querySelector('script[data-rare]').dataset.rare")  # the box's script
    assert page.evaluate("url => caches.match(url).then(Boolean)", rare), "the worker keeps the box's script"
    mark = len(live.hits)  # the worker has kept the app's files
    try:
        go_offline(context, live)
        page.reload()  # the worker's copy of the page
        tap(page, "t1S", "bid1-5", "bid2-3", "bid0-4")
        expect(page.locator("#sync")).to_have_text("Offline — 1 entry waiting")
        live.plug()  # another phone, online, records the same bids with another trump
        answer = requests.put(
            f"{live.url}/api/games/{game['id']}/hands/1/bids",
            json={"bids": [4, 5, 3], "trump": "H", "version": 1},
            headers=bearer(game),
            timeout=10,
        )
        assert answer.status_code == 200
    finally:
        go_online(context, live)
    expect(box).to_be_visible(timeout=15_000)
    expect(box.locator(".theirs")).to_have_text("Ann 4 · Ben 5 · Cy 3 · Trump: ♥")
    expect(box.locator(".mine")).to_have_text("Ann 4 · Ben 5 · Cy 3 · Trump: ♠")
    assert [h.path for h in live.since(mark) if h.path.startswith("/static/")] == []  # from the phone
    page.goto(f"{live.url}/g/{game['id']}?lang=ru")  # the entry still waits: its box comes up again
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(box.locator(".theirs")).to_have_text("Ann 4 · Ben 5 · Cy 3 · Козырь: ♥", timeout=15_000)
    expect(box.locator(".mine")).to_have_text("Ann 4 · Ben 5 · Cy 3 · Козырь: ♠")
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["trump"] == "H"  # nothing overwritten before the scorer chooses


def token_fetches(page: Any, game: dict[str, Any]) -> list[str]:
    """The page's own requests (fetch, not navigations) for the game page: each a fresh CSRF token."""
    fetched: list[str] = []
    address = re.compile(rf"^{re.escape(page.url.split('/g/')[0])}/g/{game['id']}$")

    def seen(request: Any) -> None:
        if request.resource_type == "fetch" and address.match(request.url):
            fetched.append(request.url)

    page.on("request", seen)
    return fetched


def test_entries_refused_for_an_expired_session_go_with_a_fresh_token(browser: Any, live: LiveServer) -> None:
    """Two entries waited offline while the session holding the page's CSRF token went (expired, or
    the browser dropped its cookie). Back online every entry was refused (400) and the queue
    stopped at "The server did not take an entry": the phone asks the page once for a fresh token,
    and both go."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    sync = page.locator("#sync")
    fetched = token_fetches(page, game)
    assert any(c["name"] == "session" for c in context.cookies())
    try:
        go_offline(context, live)
        offline_hand_1(page, ("bid1-5", "bid2-3", "bid0-4"), ("tricks0-4", "tricks1-5"))
        expect(sync).to_have_text("Offline — 2 entries waiting")
        context.clear_cookies(name="session")
        assert not any(c["name"] == "session" for c in context.cookies())
    finally:
        go_online(context, live)
    expect(sync).to_have_text("All sent", timeout=15_000)
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [4, 5, 3] and doc["hands"][0]["tricks"] == [4, 5, 4]
    assert len(fetched) == 1  # one fresh token, for both
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/bids") == 2  # refused once, then taken
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/tricks") == 1


def test_a_fresh_token_that_hangs_is_asked_for_again(browser: Any, live: LiveServer) -> None:
    """The session went; the bids are refused (400) and the page is asked for a fresh token, but
    that request hangs: the queue said "Sending…" for good. After 15 s it counts as unanswered,
    and the next try gets the token and the bids go."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    sync = page.locator("#sync")
    hung = hold(page, rf"/g/{game['id']}$", first_only=True, when=lambda request: request.resource_type == "fetch")
    context.clear_cookies(name="session")
    tap(page, "bid1-5", "bid2-3", "bid0-4")
    expect(sync).to_contain_text("Server not answering", timeout=30_000)
    assert len(hung) == 1
    expect(sync).to_have_text("All sent", timeout=30_000)
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [4, 5, 3]
    context.close()


def test_a_queue_still_refused_with_a_fresh_token_says_its_entries_are_kept(browser: Any, live: LiveServer) -> None:
    """The fresh token is refused too (here every write carries a token the server never gave):
    the status line said "The server did not take an entry … nothing was saved" and the page stopped
    following the other scorers. It says the entries are kept on this phone, how many, and how to
    send them; it asks for a token once, not again and again."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    sync = page.locator("#sync")
    fetched = token_fetches(page, game)
    writes = re.compile(r"/api/games/[^/]+/hands/\d+/(bids|tricks)$")

    def stale_token(route: Any) -> None:
        route.continue_(headers={**route.request.headers, "x-csrftoken": "a-token-the-server-never-gave"})

    page.route(writes, stale_token)
    try:
        go_offline(context, live)
        offline_hand_1(page, ("bid1-5", "bid2-3", "bid0-4"), ("tricks0-4", "tricks1-5"))
        expect(sync).to_have_text("Offline — 2 entries waiting")
    finally:
        go_online(context, live)
    expect(sync).to_have_text(
        "Entries kept on this phone, waiting to be sent: 2. The server did not take them from this page."
        " Reload the page to send them",
        timeout=15_000,
    )
    expect(sync).to_have_class(re.compile(r"\bbad\b"))
    assert len(fetched) == 1
    assert page.evaluate("document.body.dataset.sending") is None  # the page follows other phones again
    assert queued(page) == 2
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/bids") == 2
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/tricks") == 0
    page.unroute(writes)
    with page.expect_navigation(timeout=15_000):  # reloaded: sent, then the server's page again
        sync.get_by_role("link", name="Reload the page to send them").tap()
    expect(page.locator(".hand-title h1")).to_have_text("Hand 2 of 25", timeout=15_000)
    expect(page.locator(".stale")).to_have_count(0)
    doc = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [4, 5, 3] and doc["hands"][0]["tricks"] == [4, 5, 4]
    assert queued(page) == 0


def test_a_scorer_is_told_once_which_saved_entries_another_phone_changed(browser: Any, live: LiveServer) -> None:
    """Another phone changed the bids this phone had saved: the page reloaded for their save and
    showed the new bids with nothing said, and a scorer glancing at the table missed it. The
    reloaded page names the hand, the step and both values, once; a place the other phone filled
    needs no word, and an entry it took back (undo) is named too."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    context = small_phone(browser, "360")
    page = context.new_page()
    open_as_scorer(page, game)
    form, note = page.locator("form.hand"), page.locator("#others-changed")
    tap(page, "t1H", "bid1-5", "bid2-3", "bid0-4")  # saved from this phone
    expect(form).to_have_attribute("data-step", "tricks")
    expect(page.locator(".stale")).to_have_count(0)  # the server's page, with the bids
    page.wait_for_function("() => document.body.dataset.sending === undefined")
    expect(note).to_be_hidden()
    before = "Object.keys(sessionStorage).filter(k => k.startsWith('bluke-before'))"

    assert requests.put(
        url + "/hands/1/bids", json={"bids": [3, 5, 3], "trump": "H"}, headers=bearer(game), timeout=10
    ).ok
    expect(note).to_have_text(
        "Hand 1 bids were changed on another phone: Ann 4 · Ben 5 · Cy 3 · Trump: ♥ → Ann 3 · Ben 5 · Cy 3 · Trump: ♥",
        timeout=15_000,
    )
    expect(note).to_have_attribute("role", "status")
    expect(note).to_be_in_viewport()
    expect(page.locator("#tricks0 .bidchip")).to_have_text("bid 3")  # the page is theirs
    no_sideways_scroll(page, "a note of bids changed on another phone")
    assert_accessible(page, "a note of bids changed on another phone")
    page.reload()  # told once
    expect(form).to_have_attribute("data-step", "tricks")
    page.wait_for_function(f"() => {before}.length === 0")
    expect(note).to_be_hidden()

    assert requests.put(url + "/hands/1/tricks", json={"tricks": [5, 3, 5]}, headers=bearer(game), timeout=10).ok
    expect(page.locator(".hand-title h1")).to_have_text("Hand 2 of 25", timeout=15_000)  # reloaded for it
    page.wait_for_function(f"() => {before}.length === 0")  # what the page knew was compared
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => setTimeout(done, 100)))")
    expect(note).to_be_hidden()  # a place they filled: no word

    other = browser.new_context(**PHONE).new_page()  # another phone, on the scorer's page
    other.goto(game["scorer_url"])
    with other.expect_navigation():
        other.locator("button[form=undo-form]").tap()  # "Undo the tricks of hand 1"
    expect(note).to_have_text("Hand 1 tricks were taken back on another phone: Ann 5 · Ben 3 · Cy 5", timeout=15_000)
    expect(form).to_have_attribute("data-step", "tricks")
    expect(note).to_be_in_viewport()
    no_sideways_scroll(page, "a note of tricks taken back on another phone")
    assert_accessible(page, "a note of tricks taken back on another phone")


#: What the worker's caches hold at addresses of ``app.css``, by address.
CACHED_STYLES = """async () => {
  const found = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      if (request.url.includes("/static/app.css")) found[request.url] = await (await cache.match(request)).text();
    }
  }
  return found;
}"""


def test_a_file_an_older_server_sends_during_a_deploy_is_not_kept_as_the_new_one(
    browser: Any, live: LiveServer
) -> None:
    """While a release is rolled out an older server may answer the new page's ``?v=`` address with
    its own file: the shell is served from the cache until the next release, so the worker keeps
    nothing until every file is the version its address names, and installs at the next visit."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = phone(browser)
    older = {"status": 200, "content_type": "text/css", "body": "/* the older release */"}
    context.route("**/static/app.css?v=*", lambda route: route.fulfill(**older))
    page.goto(game["scorer_url"])
    assert not page.evaluate(WORKER_READY.replace("15000", "3000")), "a worker installed the older release's file"
    assert "/* the older release */" not in page.evaluate(CACHED_STYLES).values()
    context.unroute("**/static/app.css?v=*")
    open_as_scorer(page, game)
    styles = page.evaluate(CACHED_STYLES)
    assert styles and all(css == requests.get(url, timeout=10).text for url, css in styles.items()), styles
