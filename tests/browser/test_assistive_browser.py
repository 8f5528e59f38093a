"""Players who see the phone differently (real Chromium): forced colours (Windows High Contrast,
Android high-contrast themes) take away backgrounds and shadows; a player who asked for reduced
motion gets no animated scrolling; a screen reader reads the same label for a button however the
page drew it."""

from __future__ import annotations

from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from .phone_kit import api_game
from .phone_kit import phone

pytestmark = pytest.mark.browser

#: What a chip looks like, as forced colours paint it.
LOOK = """l => { const s = getComputedStyle(l);
    return [s.backgroundColor, s.color, s.borderTopColor, s.borderTopWidth, s.borderTopStyle, s.boxShadow].join(' '); }"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_chosen_bid_trump_and_variant_stay_apart_from_the_others_in_forced_colours(
    browser: Any, server: str, scheme: str
) -> None:
    """Every chip was drawn alike (Canvas, CanvasText, 1 px border): the chosen bid, the trump and
    the variant were told apart only by a background and a shadow, which forced colours drop."""
    made = api_game(server, ["Ann", "Ben", "Cy"])
    context = phone(browser, "360", scheme, forced_colors="active")
    page = context.new_page()
    page.goto(made["scorer_url"])
    page.locator("label[for=bid1-3]").tap()
    page.locator("label[for=t1S]").tap()
    chosen, other = page.locator("label[for=bid1-3]"), page.locator("label[for=bid1-4]")
    assert chosen.evaluate(LOOK) != other.evaluate(LOOK), "bid 3 chosen looks like bid 4"
    spades, hearts = page.locator("label[for=t1S]"), page.locator("label[for=t1H]")
    assert spades.evaluate(LOOK) != hearts.evaluate(LOOK), "the chosen trump looks like the others"
    page.goto(server + "/new")
    standard, jersey = page.locator("label[for=v-standard]"), page.locator("label[for=v-nj]")
    assert standard.evaluate(LOOK) != jersey.evaluate(LOOK), "the chosen variant looks like the other"
    context.close()


def test_the_chart_legend_keeps_its_colours_in_forced_colours(browser: Any, server: str) -> None:
    """The chart's lines keep their colours; the legend's swatches (backgrounds) vanished."""
    made = api_game(server, ["Ann", "Ben", "Cy"], 0, [([4, 5, 3], [5, 3, 5])])
    context = phone(browser, "360", forced_colors="active")
    page = context.new_page()
    page.goto(made["watch_url"])
    colours = page.evaluate(
        "[...document.querySelectorAll('.chart-legend .swatch')].map(s => getComputedStyle(s).backgroundColor)"
    )
    assert len(set(colours)) == 3, f"legend swatches: {colours}"
    context.close()


def test_the_next_row_comes_into_sight_without_animation_when_motion_is_reduced(browser: Any, server: str) -> None:
    """app.css sets scroll-behavior: auto for reduced motion, but a script's behavior: "smooth" wins."""
    made = api_game(server, ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"])
    context = phone(browser, "360", reduced_motion="reduce")
    page = context.new_page()
    page.goto(made["scorer_url"])
    rows = page.locator("form.hand .prow")
    rows.nth(0).locator("label").nth(1).tap()
    page.evaluate("""() => { window.ys = []; const t0 = performance.now();
        const f = () => { window.ys.push(Math.round(scrollY));
          if (performance.now() - t0 < 500) requestAnimationFrame(f); else window.sampled = true; };
        requestAnimationFrame(f); }""")
    rows.nth(1).locator("label").nth(1).tap()
    page.wait_for_function("() => window.sampled === true")  # half a second of frames after the tap
    positions = list(dict.fromkeys(page.evaluate("window.ys")))
    assert len(positions) <= 2, f"the page scrolled in steps: {positions}"
    context.close()


def test_a_row_the_page_adds_is_labelled_as_the_form_labels_its_rows(browser: Any, server: str) -> None:
    """setup.js labelled the buttons of the rows it numbers "Move player 3 up" where the form says
    "… up a seat"; without the new-game words on the page they would read "move_up"."""
    context = phone(browser, "360")
    page = context.new_page()
    page.goto(server + "/new")
    count = page.locator(".name-row").count()
    page.locator(".add-row").click()
    added = page.locator(".name-row").nth(count)
    assert added.locator("button.move").get_attribute("aria-label") == f"Move player {count + 1} up a seat"
    assert added.locator("input[type=text]").get_attribute("placeholder") == f"Player {count + 1}"
    context.close()


def test_a_watcher_hears_each_change_from_a_live_region_that_stays_on_the_page(browser: Any, server: str) -> None:
    """The watch page's live region was inside the block htmx draws anew with each change: a new
    region each time, which screen readers do not read. The one that stays says the hand's line."""
    made = api_game(server, ["Ann", "Ben", "Cy"])
    context = phone(browser, "360")
    page = context.new_page()
    page.goto(made["watch_url"])
    said = page.locator("#live-said")
    expect(said).to_have_text("")  # nothing said on opening
    page.evaluate("() => { window.region = document.getElementById('live-said'); }")
    auth = {"Authorization": f"Bearer {made['scorer_token']}"}
    requests.put(
        f"{server}/api/games/{made['id']}/hands/1/bids", json={"bids": [4, 5, 3]}, headers=auth, timeout=10
    ).raise_for_status()
    expect(said).to_have_text("Hand 1 of 25. Playing · 12 bid for 13 cards")
    assert page.evaluate("() => window.region === document.getElementById('live-said')"), "the region was replaced"
    assert page.locator("#live [aria-live], #live [role=status]").count() == 0
    context.close()


def test_a_row_of_chips_is_named_by_its_player_and_its_step(browser: Any, server: str) -> None:
    """A chip was read as "3" in a group named "Ann": nothing said bid or tricks, and the correction
    page has both steps of a hand, each with a group named "Ann"."""
    made = api_game(server, ["Ann", "Ben", "Cy"], 0, [([4, 5, 3], [5, 3, 5])])
    context = phone(browser, "360")
    page = context.new_page()
    page.goto(made["scorer_url"])
    expect(page.get_by_role("radiogroup", name="Ann Bids", exact=True)).to_have_count(1)
    page.goto(f"{server}/g/{made['id']}/hands/1")  # the correction page: both steps of hand 1
    for step in ("Bids", "Tricks"):
        expect(page.get_by_role("radiogroup", name=f"Ann {step}", exact=True)).to_have_count(1)
    context.close()
