"""Large text on a phone, after a QA pass (real Chromium): the text made larger by the root font
size (a phone's text size setting, ``larger_text``) or by page zoom (the 240 px "zoomed" phone).
Each test measures the layout: what stays on screen, what fits, what is cut, what can be reached."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from .phone_kit import api_game
from .phone_kit import larger_text
from .phone_kit import phone
from .test_every_page import FOUR
from .test_every_page import KEPT_ON_SCREEN
from .test_every_page import mine_to
from .test_every_page import Table
from .test_languages_browser import BROKEN_WORDS
from .test_languages_browser import SPILLED

pytestmark = pytest.mark.browser

#: A four-player game at the tricks of hand 3 (the dock holds "Edit bids" and "Record hand 3").
HANDS = [([3, 4, 2, 3], [4, 4, 1, 4]), ([2, 2, 2, 2], [0, 5, 3, 4]), ([1, 1, 1, 1], None)]

#: The dock's buttons whose box passes the screen's edge or whose words pass the button's.
DOCK_OVERFLOW = """() => [...document.querySelectorAll('.dock-buttons .button')]
    .filter(e => { const r = e.getBoundingClientRect();
                   return r.right > innerWidth + 0.5 || r.left < -0.5 || e.scrollWidth > e.clientWidth + 1; })
    .map(e => `"${e.textContent.trim()}" ${Math.round(e.getBoundingClientRect().left)}–${
                Math.round(e.getBoundingClientRect().right)} (text ${e.scrollWidth} in ${e.clientWidth})`)"""


def each_step(browser: Any, server: str, size: str, lang: str, percent: int) -> Iterator[tuple[Any, str]]:
    """The hand screen on a phone with larger text, at its bids (a fresh game) and at its tricks
    (hand 3 of :data:`HANDS`): ``(page, step)`` each in turn; the phone is closed after."""
    fresh = api_game(server, ["Ann", "Ben", "Cy", "Dee"])
    playing = api_game(server, ["Ann", "Ben", "Cy", "Dee"], 0, HANDS)
    context = phone(browser, size, locale=lang)
    page = context.new_page()
    larger_text(page, percent)
    try:
        for step, url in (("bids", fresh["scorer_url"]), ("tricks", playing["scorer_url"])):
            page.goto(url)
            expect(page.locator(f"form.hand.{step} .steps")).to_be_visible()
            yield page, step
    finally:
        context.close()


def covered(page: Any, selector: str) -> bool:
    """Whether something else is drawn over the middle of the element (a bar over a button)."""
    return not page.evaluate(
        """sel => { const e = document.querySelector(sel), r = e.getBoundingClientRect();
                    return e.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }""",
        selector,
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("percent", [150, 200])
def test_with_large_text_the_bars_that_stay_on_screen_leave_three_quarters_of_it(
    browser: Any, server: str, lang: str, percent: int
) -> None:
    """The top bar and the dock stay put only while together they take at most a quarter of the
    screen (360 × 640): with larger text the top bar scrolls with the page, then the dock too."""
    for page, step in each_step(browser, server, "short", lang, percent):
        kept = page.evaluate(KEPT_ON_SCREEN)
        assert kept <= 0.25 * 640, f"{lang} {percent}% {step}: the bars that stay on screen take {kept:.0f} of 640 px"
        button = page.locator(".dock button.primary")
        button.scroll_into_view_if_needed()
        assert not covered(page, ".dock button.primary"), f"{lang} {percent}% {step}: the save button is covered"
        last = page.locator(f"form.hand.{step} .prow").last
        last.scroll_into_view_if_needed()
        assert not covered(page, f"form.hand.{step} .prow:last-child .taps label"), f"{step}: the last row is covered"


def test_with_ordinary_text_the_dock_stays_at_hand(browser: Any, server: str) -> None:
    """The guard above leaves the usual phone alone: the dock stays fixed at the bottom."""
    playing = api_game(server, ["Ann", "Ben", "Cy", "Dee"], 0, HANDS)
    context = phone(browser, "360")
    page = context.new_page()
    page.goto(playing["scorer_url"])
    expect(page.locator("form.hand.tricks")).to_be_visible()
    assert page.evaluate("getComputedStyle(document.querySelector('.dock')).position") == "fixed"
    assert page.evaluate("getComputedStyle(document.querySelector('.bar')).position") == "sticky"
    context.close()


def test_the_bars_are_measured_again_when_the_phone_is_turned(browser: Any, server: str) -> None:
    """Text made larger while the page is open: the bars are measured again when the screen's
    width changes (a phone turned, and turned back; on its side the bars scroll with the page)."""
    playing = api_game(server, ["Ann", "Ben", "Cy", "Dee"], 0, HANDS)
    context = phone(browser, "360")
    page = context.new_page()
    page.goto(playing["scorer_url"])
    expect(page.locator("form.hand.tricks")).to_be_visible()
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    loose = re.compile(r"\bloose\b")
    page.set_viewport_size({"width": 740, "height": 360})
    # the page has had its resize on its side (two turns at once may reach it as one resize, back to
    # the width it had, which measures nothing): resize events run before the next frames are drawn
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert page.evaluate("() => innerWidth") == 740
    page.set_viewport_size({"width": 360, "height": 740})
    expect(page.locator("html")).to_have_class(loose)
    kept = page.evaluate(KEPT_ON_SCREEN)
    assert kept <= 0.25 * 740, f"turned back: the bars that stay on screen take {kept:.0f} of 740 px"
    context.close()


@pytest.mark.parametrize("lang", ["ru", "be", "it", "eo"])
@pytest.mark.parametrize("size, percent", [("zoomed", 100), ("short", 150), ("short", 200)])
def test_the_docks_buttons_fit_the_screen_and_their_words(
    browser: Any, server: str, lang: str, size: str, percent: int
) -> None:
    """The dock's "Записать раздачу 3" ended past a 240 px screen, "Изменить заказы" past its own
    button: the buttons go one a line when their words do not fit side by side (the tricks step, the
    correction page)."""
    playing = api_game(server, ["Ann", "Ben", "Cy", "Dee"], 0, HANDS)
    context = phone(browser, size, locale=lang)
    page = context.new_page()
    larger_text(page, percent)
    for url in (playing["scorer_url"], f"{server}/g/{playing['id']}/hands/2"):
        page.goto(url)
        expect(page.locator(".dock button.primary")).to_be_attached()
        where = f"{lang} {size} {percent}% {'correction' if '/hands/' in url else 'tricks'}"
        assert not page.evaluate(DOCK_OVERFLOW), f"{where}: {page.evaluate(DOCK_OVERFLOW)}"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"], f"{where}: the page scrolls sideways ({width} px)"
    context.close()


#: Whether the element is wholly on screen, below the head that stays at the top (if it stays).
IN_SIGHT = """sel => { const e = document.querySelector(sel); if (!e) return false;
    const r = e.getBoundingClientRect(), top = document.querySelector('.vt-top');
    const head = ['sticky', 'fixed'].includes(getComputedStyle(top).position) ? top.getBoundingClientRect().bottom : 0;
    return r.top >= head - 1 && r.bottom <= innerHeight + 1; }"""


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
@pytest.mark.parametrize("phase, choice", [("playing", ".vt-card.vt-legal"), ("bidding", ".vt-bids button")])
@pytest.mark.parametrize("percent", [100, 150])
def test_on_a_seats_turn_its_choices_come_into_sight(
    browser: Any, seeded: str, percent: int, phase: str, choice: str, motion: str
) -> None:
    """On 360 × 640 the round table pushed the hand below the screen (the first legal card's top at
    598 of 640, at 150% text wholly off it): the player's turn brings the choices into view."""
    table = Table(seeded, FOUR, variant="new-jersey", first_dealer=3)  # Ann bids first, then leads
    table.play_until(mine_to(phase))
    context = phone(browser, "short", reduced_motion=motion)
    page = context.new_page()
    larger_text(page, percent)
    page.goto(table.links[0])
    expect(page.locator(f"#vt.vt-myturn {choice}").first).to_be_visible()
    page.wait_for_function(IN_SIGHT, arg=f"#vt {choice}", timeout=3000)
    context.close()


def test_the_home_page_shows_a_games_names_whole_beside_or_above_forget(browser: Any, server: str) -> None:
    """At page zoom 150% "Ann · Ben · Cy" showed as "Ann · Be…": "Forget" took the row's width."""
    made = api_game(server, ["Ann", "Ben", "Cy"])
    context = phone(browser, "zoomed")
    page = context.new_page()
    page.goto(made["scorer_url"])
    page.goto(server + "/")
    names = page.locator(".games .gnames").first
    expect(names).to_have_text("Ann · Ben · Cy")
    assert names.evaluate("e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight + 1"), "cut"
    context.close()


#: The labels under the last trick's cards shown cut ("Christo…"), and the words of the seat tags
#: broken across two lines ("deale / r").
CUT_WHO = "[...document.querySelectorAll('.vt-who')].filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)"


@pytest.mark.parametrize("seats", ["four", "fifteen"])
@pytest.mark.parametrize("size, percent", [("short", 100), ("zoomed", 100), ("short", 200)])
def test_a_seats_labels_and_cards_hold_their_text(
    browser: Any, seeded: str, seats: str, size: str, percent: int
) -> None:
    names = (
        [{"name": "Ann"}, {"name": "Christopher", "bot": "random"}, {"name": "Bot 10", "bot": "random"}]
        + [{"name": "Dot", "bot": "random"}]
        if seats == "four"
        else [{"name": "Ann"}] + [{"name": f"Bot {i}", "bot": "random"} for i in range(1, 15)]
    )
    table = Table(seeded, names, variant="new-jersey", first_dealer=3)
    table.play_until(lambda v: v["phase"] == "playing" and v["your_turn"] and bool(v.get("last_trick")))
    context = phone(browser, size)
    page = context.new_page()
    larger_text(page, percent)
    page.goto(table.links[0])
    expect(page.locator("#vt.vt-myturn")).to_be_visible()
    page.evaluate("document.querySelectorAll('#vt details').forEach(d => { d.open = true; })")
    where = f"{seats} seats, {size} {percent}%"
    assert not page.evaluate(CUT_WHO), f"{where}: names cut under the last trick: {page.evaluate(CUT_WHO)}"
    broken = page.evaluate(BROKEN_WORDS, ".vt-tag")
    assert not broken, f"{where}: seat tags broken mid-word: {broken}"
    assert not page.evaluate(SPILLED), f"{where}: cards whose text spills out: {page.evaluate(SPILLED)}"
    # Settings: the checkbox beside its words, not alone on a line above them.
    label = page.locator(".vt-settings form label")
    beside = label.evaluate(
        """l => { const box = l.querySelector('input').getBoundingClientRect(), r = document.createRange();
                  r.selectNodeContents(l); r.setStartAfter(l.querySelector('input'));
                  return r.getClientRects()[0].top < box.bottom; }"""
    )
    assert beside, f"{where}: the settings checkbox is alone on its line"
    context.close()


def test_the_first_dealer_label_is_a_whole_target_in_landscape(browser: Any, server: str) -> None:
    """/new on a phone on its side (640 × 360): the first dealer's label was 41 px high."""
    context = browser.new_context(viewport={"width": 640, "height": 360}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(server + "/new")
    height = page.locator("label[for=first-dealer]").evaluate("e => e.offsetHeight")
    assert height >= 44, f"the first dealer's label is {height} px high"
    context.close()


#: The hand's steps ("1 Bids — 2 Tricks") whose words end past the hand's edge (cut there), and the
#: step numbers that spill out of their circles.
STEPS_CUT = """() => { const edge = document.querySelector('form.hand').getBoundingClientRect().right;
    return [...document.querySelectorAll('.steps li')].filter(e => e.getBoundingClientRect().right > edge + 0.5)
        .map(e => e.textContent.trim()); }"""
STEPNO_SPILLED = """() => [...document.querySelectorAll('.steps .stepno')]
    .filter(e => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"""


@pytest.mark.parametrize("lang", ["en", "it", "ru"])
@pytest.mark.parametrize("percent", [100, 200])
def test_the_steps_of_a_hand_hold_their_words_and_numbers(browser: Any, server: str, lang: str, percent: int) -> None:
    """At 200% text "2 Prese" (Italian) ended past a 360 px screen, cut by the hand's edge, and the
    step numbers hung out of their 20 px circles."""
    for page, step in each_step(browser, server, "360", lang, percent):
        where = f"{lang} {percent}% {step}"
        assert not page.evaluate(STEPS_CUT), f"{where}: steps cut at the hand's edge: {page.evaluate(STEPS_CUT)}"
        assert not page.evaluate(STEPNO_SPILLED), f"{where}: numbers out of their circles"


def test_with_large_text_a_groups_figures_keep_every_word_whole(browser: Any, server: str) -> None:
    """At 200% text on a 360 px phone the leaderboard and the head-to-head squeezed the players'
    names letter by letter ("B/e/n") and a player's tiles split their figures ("−2" over "7.7"):
    a name now keeps seven letters a line (the figures scroll beside it) and the tiles reflow."""
    group = requests.post(
        server + "/api/groups", json={"name": "Fridays", "players": ["Ann", "Ben", "Deirdre"]}, timeout=10
    ).json()
    auth = {"Authorization": f"Bearer {group['token']}"}
    names = ["Ann", "Ben", "Deirdre", *(f"P{n}" for n in range(11))]  # fourteen: five hands (R8)
    game = requests.post(
        f"{server}/api/groups/{group['id']}/games", json={"players": names}, headers=auth, timeout=10
    ).json()
    scorer = {"Authorization": f"Bearer {game['scorer_token']}"}
    for number, cards in enumerate(game["schedule"], start=1):
        url = f"{server}/api/games/{game['id']}/hands/{number}"
        requests.put(url + "/bids", json={"bids": [1] * 14}, headers=scorer, timeout=10).raise_for_status()
        tricks = [1] * cards + [0] * (14 - cards)
        requests.put(url + "/tricks", json={"tricks": tricks}, headers=scorer, timeout=10).raise_for_status()
    context = phone(browser, "short")
    page = context.new_page()
    larger_text(page, 200)
    page.goto(group["url"].replace("http://localhost", server))
    expect(page.locator("table.leaders")).to_be_visible()
    assert page.evaluate(BROKEN_WORDS, "main") == [], "the group's page"
    page.locator("table.leaders a", has_text="Deirdre").click()
    expect(page.locator("table.h2h")).to_be_visible()
    assert page.evaluate(BROKEN_WORDS, "main") == [], "a player's page"
    context.close()


# -- the narrowest phones (320 px) and long words, after a QA pass over every page ---------------------
def test_scorecard_columns_of_names_that_start_alike_are_told_apart(browser: Any, server: str) -> None:
    """Names were cut at nine letters on one line: "Maria Sc…" twice, "Jean-Pi…" twice (a title shows
    on no phone). A name now takes up to three lines of its column."""
    names = ["Maria Schmidt", "Maria Schneider", "Jean-Pierre Martin", "Jean-Pierre Moreau"]
    made = api_game(server, names, 0, HANDS[:2])
    context = phone(browser, "360")
    page = context.new_page()
    page.goto(made["watch_url"])
    shown = page.locator(".sheet .pname")
    expect(shown).to_have_text(names)
    cut = shown.evaluate_all(
        "s => s.filter(e => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert not cut, f"names cut in the scorecard's header: {cut}"
    assert len({e.inner_text() for e in shown.all()}) == 4
    context.close()


@pytest.mark.parametrize("lang", ["ru", "be"])
def test_the_new_games_choices_keep_their_words_whole_at_320_px(browser: Any, server: str, lang: str) -> None:
    """ "Стандартный" broke as "Стандартн / ый" in a two-column choice at 320 px."""
    context = browser.new_context(viewport={"width": 320, "height": 640}, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    page.goto(f"{server}/new?lang={lang}")
    assert not page.evaluate(BROKEN_WORDS, ".seg label"), page.evaluate(BROKEN_WORDS, ".seg label")
    context.close()


def test_the_page_ends_clear_of_a_dock_whose_message_takes_three_lines(browser: Any, server: str) -> None:
    """The page kept a fixed 120 px clear for the dock, which a refusal in three lines makes 148 px high:
    the end of the page (a language of the footer) stayed under it."""
    made = api_game(server, ["Ann", "Ben", "Cy", "Dee"], 0, [([3, 4, 2, 3], None)])
    context = browser.new_context(viewport={"width": 320, "height": 640}, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    page.goto(f"{made['scorer_url']}?lang=it")
    expect(page.locator("form.hand.tricks")).to_be_visible()
    with page.expect_navigation():  # tricks that add up to 0 of 13, sent past the phone's own checks (R23)
        page.evaluate(
            """() => { document.querySelectorAll('form.hand input[name^=tricks_][value="0"]').forEach(i => { i.checked = true; });
                       document.querySelector('form.hand').submit(); }"""
        )
    dock = page.locator(".dock.fixed")
    expect(dock.locator(".status.bad")).to_be_visible()
    assert dock.evaluate("e => e.offsetHeight") > 130, "the message takes one line: this checks nothing"
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function("() => Math.abs(innerHeight + scrollY - document.documentElement.scrollHeight) < 2")
    end, top = page.evaluate(
        """() => [document.querySelector('footer').getBoundingClientRect().bottom,
                  document.querySelector('.dock.fixed').getBoundingClientRect().top]"""
    )
    assert end <= top, f"the page's end ({end:.0f} px) stays under the dock ({top:.0f} px)"
    context.close()


@pytest.mark.parametrize("lang", ["be", "ru"])
def test_a_hands_result_keeps_its_numbers_on_one_line_at_320_px(browser: Any, seeded: str, lang: str) -> None:
    """At 320 px "−120" showed as "−1 / 20" and "Н/П/Д" on three lines in the hand's result, and the
    seat's own place at the table said "заказывает" with its "…" alone on the next line."""
    names = ["Wolfeschlegelsteinhausen", "Wolfeschlegelsteinhaus01", "Wolfeschlegelsteinhaus02"]
    table = Table(seeded, [{"name": names[0]}] + [{"name": n, "bot": "random"} for n in names[1:]], first_dealer=0)
    table.play_until(lambda v: bool(v.get("previous")) and v["phase"] == "bidding")
    context = browser.new_context(viewport={"width": 320, "height": 640}, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    page.goto(f"{table.links[0]}?lang={lang}")
    expect(page.locator(".vt-result")).to_be_visible()
    expect(page.locator(".vt-me .vt-spot-bid")).not_to_be_empty()
    broken = page.evaluate(BROKEN_WORDS, ".vt-result td, .vt-result abbr, .vt-spot-bid")
    assert not broken, f"{lang}: numbers broken across lines: {broken}"
    context.close()
