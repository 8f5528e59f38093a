"""What the table-mode browser tests share: a phone, counted taps, and the checks every page passes."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import requests
from playwright._impl._errors import TargetClosedError  # raised, not exported, by playwright.sync_api
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from .accessibility import assert_accessible

#: "zoomed": the 360 px phone with its text at 150% (browser zoom: a 240 × 493 CSS px screen);
#: "doubled": the same at 200% (180 × 370); "short": a 360 × 640 phone, for its text made larger
#: with ``larger_text``.
PHONES = {
    "360": {"width": 360, "height": 740},
    "short": {"width": 360, "height": 640},
    "pixel7": {"width": 412, "height": 915},
    "zoomed": {"width": 240, "height": 493},
    "doubled": {"width": 180, "height": 370},
}

#: Everything a finger can tap; links inside a sentence are exempt (WCAG 2.5.8, "inline").
TAPPABLE = (
    "a[href], button, summary, select, label[for], input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
)


def phone(browser: Any, size: str, scheme: str = "light", **options: Any) -> Any:
    """A phone-sized browser context (touch, 2× pixels) in the light or dark scheme."""
    context = browser.new_context(
        viewport=PHONES[size], device_scale_factor=2, is_mobile=True, has_touch=True, color_scheme=scheme, **options
    )
    context.set_default_timeout(10_000)
    return context


def larger_text(page: Any, percent: int) -> None:
    """The page's text at ``percent``% without page zoom (the root font size, as a phone's text size
    setting sets it): the stylesheet arrives with ``html { font-size }`` added, before the page is drawn."""

    def grow(route: Any) -> None:
        try:
            answer = route.fetch()
            route.fulfill(response=answer, body=answer.text() + f"\nhtml {{ font-size: {percent}%; }}")
        except TargetClosedError:  # the test closed its phone while a stylesheet was on its way: none to grow
            pass

    page.route("**/static/app.css*", grow)


def hold(
    target: Any, address: str, *, first_only: bool = False, when: Callable[[Any], bool] | None = None
) -> list[Any]:
    """Requests of a page or context to ``address`` (a regular expression) held, never answered (a
    connection that hangs), in the list returned until the test lets one go (``continue_``, ``abort``).
    With ``first_only`` the first is held and the later ones go through; ``when`` picks by request."""
    held: list[Any] = []

    def route_it(route: Any) -> None:
        if (when is None or when(route.request)) and not (first_only and held):
            held.append(route)
        else:
            route.continue_()

    target.route(re.compile(address), route_it)
    return held


def eventually(check: Callable[[], bool], seconds: float = 15) -> None:
    """Wait until ``check()`` is true, asked again every 0.1 s; a page reloading meanwhile (its
    script's context gone) counts as not yet."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if check():
                return
        except PlaywrightError:
            pass
        assert time.monotonic() < deadline, f"not so within {seconds} s"
        time.sleep(0.1)


def until_held(page: Any, held: list[Any], what: str = "the request was never made") -> None:
    """Wait (a bounded poll, no sleep) until ``hold`` has a request."""
    for _ in range(100):
        if held:
            return
        page.wait_for_timeout(100)
    raise AssertionError(what)


def lose_the_first_answer(lost: list[str]) -> Callable[[Any], None]:
    """A route whose first request reaches the server (which stores it) while its answer never
    reaches the phone (a connection reset); ``lost`` lists it. Later requests go through."""

    def route_it(route: Any) -> None:
        if lost:
            route.continue_()
            return
        lost.append(route.request.url)
        route.fetch()
        route.abort("connectionreset")

    return route_it


def no_sideways_scroll(page: Any, where: str) -> None:
    """The page is no wider than the phone's screen. Measured against the viewport the context was
    given, not ``innerWidth``: a mobile browser zooms out to show a page wider than the screen, and
    ``innerWidth`` then grows with the page."""
    width = page.evaluate("document.documentElement.scrollWidth")
    screen = page.viewport_size["width"]
    assert width <= screen, f"{where}: the page scrolls sideways ({width} > {screen} px)"


#: Resolves once every finite animation and CSS transition on the page has finished (a tapped
#: button's ``transform: scale(.96)`` springing back, a card sliding in), so what is measured next
#: is the resting layout; endless ones (the live dot's pulse) do not change sizes and are not waited for.
SETTLED = """Promise.all(document.getAnimations()
    .filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
    .map(a => a.finished.catch(() => null)))"""


def small_targets(page: Any) -> list[str]:
    """Visible tap targets under 44×44 CSS px (UX.md), named by their text, measured at rest.

    An element's layout size is measured, not its painted box: a label the emulated finger last
    touched can stay ``:active`` and drawn at ``scale(.96)`` (the press feedback), which is not its size.
    """
    found: list[str] = page.evaluate(
        "async sel => { await " + SETTLED + "; return "
        """[...document.querySelectorAll(sel)]
            .filter(e => e.offsetParent !== null && !e.closest('[aria-hidden=true]')
                         && !(e.tagName === 'A' && getComputedStyle(e).display === 'inline'))
            .map(e => [e.textContent.trim().slice(0, 24) || e.getAttribute('aria-label') || e.tagName,
                       e instanceof HTMLElement ? {width: e.offsetWidth, height: e.offsetHeight}
                                                : e.getBoundingClientRect()])
            .filter(([, r]) => r.width > 0 && (r.width < 43.5 || r.height < 43.5))
            .map(([t, r]) => `${t}: ${Math.round(r.width)}×${Math.round(r.height)}`); }""",
        TAPPABLE,
    )
    return found


def page_checks(page: Any, where: str) -> None:
    """Every page: no sideways scroll, every tap target at least 44×44 px, axe-core clean."""
    page.wait_for_load_state("load")
    no_sideways_scroll(page, where)
    small = small_targets(page)
    assert not small, f"{where}: tap targets under 44×44 px: {small}"
    assert_accessible(page, where)


def row_clear_of_the_dock(page: Any, row: str) -> None:
    """Wait (no sleep) until a row is wholly visible between the top bar and the docked buttons."""
    page.wait_for_function(
        """sel => { const r = document.querySelector(sel).getBoundingClientRect();
                    const dock = document.querySelector('.dock').getBoundingClientRect();
                    const bar = document.querySelector('.bar').getBoundingClientRect();
                    return r.top >= bar.bottom - 1 && r.bottom <= dock.top + 1; }""",
        arg=row,
        timeout=2000,
    )


class Taps:
    """Taps on the screen, counted."""

    def __init__(self, page: Any) -> None:
        self.page, self.count = page, 0

    def __call__(self, selector: str) -> None:
        self.count += 1
        self.page.locator(selector).tap()


def start_game(page: Any, names: list[str], dealer: int) -> str:
    """Type the names in one flow (Enter moves on; after the last row, to the start button: no
    empty row is added), choose the first dealer once, start; returns the watch link."""
    page.locator("#names-0").tap()
    rows = page.locator(".name-row").count()
    for i, name in enumerate(names):
        page.keyboard.type(name)
        page.keyboard.press("Enter")
        expect(page.locator(f"#names-{i + 1}" if i + 1 < rows else "button.start")).to_be_focused()
    assert page.locator(".name-row").count() == rows
    page.locator("#first-dealer").select_option(str(dealer))
    page.locator("button.start").tap()
    expect(page.locator(".created h1")).to_have_text("Game ready")
    return page.locator(".share.watch input.copy").input_value()


def api_game(
    server: str, players: list[str], first_dealer: int = 0, hands: list[tuple[list[int], list[int] | None]] = ()
) -> dict[str, Any]:
    """A game made through the JSON API, with ``hands`` (bids, tricks or None) recorded in order."""
    made = requests.post(
        server + "/api/games", json={"players": players, "first_dealer": first_dealer}, timeout=10
    ).json()
    auth = {"Authorization": f"Bearer {made['scorer_token']}"}
    for number, (bids, tricks) in enumerate(hands, start=1):
        requests.put(
            f"{server}/api/games/{made['id']}/hands/{number}/bids", json={"bids": bids}, headers=auth, timeout=10
        ).raise_for_status()
        if tricks is not None:
            requests.put(
                f"{server}/api/games/{made['id']}/hands/{number}/tricks",
                json={"tricks": tricks},
                headers=auth,
                timeout=10,
            ).raise_for_status()
    return made


def finished_game(server: str) -> dict[str, Any]:
    """A whole three-player game, Ann winning, with negative totals along the way."""
    schedule = requests.post(server + "/api/games", json={"players": ["A", "B", "C"]}, timeout=10).json()["schedule"]
    return api_game(
        server,
        ["Ann", "Ben", "Cy"],
        0,
        [([1, 1, 1], [cards - 1, 1, 0] if cards > 1 else [1, 0, 0]) for cards in schedule],
    )
