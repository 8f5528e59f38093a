"""Every language on a 360 px phone (real Chromium): the hand screen, the scorecard, the game-over
screen, a virtual table's seat and a group's pages fit without sideways scroll or clipped labels,
every control's spoken name holds the words it shows, and the scripts speak the page's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from scorekeeper.i18n import LANGUAGES
from tests.web.groups_kit import auth
from tests.web.groups_kit import export_file
from tests.web.groups_kit import legal_hands

from .phone_kit import page_checks
from .phone_kit import phone
from .test_scorer_screens import api_game
from .test_scorer_screens import finished_game

pytestmark = pytest.mark.browser

#: Text that must show whole: a label cut off by its box (overflow hidden, an ellipsis) is a defect.
LABELS = (
    "button, label, summary, a.button, h1, h2, th, .status, .tag, .hand-meta, .legend, .state, .kicker,"
    ".over-kicker, .sop, .rates, .standings .pl b, .steps li, .bidchip, .aside,"
    ".vt-tag, .vt-status, .vt-handno, .vt-dealt, .vt-trump, .vt-spot-bid, .vt-center, .vt-note"
)

#: (A control hidden from everyone, as the new-game form's off-screen Enter button, is no label.)
#: A label inside a region that scrolls sideways on purpose (the scorecard's .sheet-wrap) is reached
#: by scrolling that region, so only its own box is checked there, not the screen's edge.
CLIPPED = """([sel, screen]) => {
  const scrolls = e => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return true; } return false; };
  return [...document.querySelectorAll(sel)]
    .filter(e => e.offsetParent !== null && e.getClientRects().length && !e.closest('[aria-hidden=true]'))
    .filter(e => { const s = getComputedStyle(e), r = e.getBoundingClientRect();
                   const cut = ['hidden', 'clip'].includes(s.overflowX) && e.scrollWidth > e.clientWidth + 1;
                   return cut || (!scrolls(e) && (r.right > screen + 0.5 || r.left < -0.5)); })
    .map(e => `${e.tagName.toLowerCase()}.${e.className}: "${e.textContent.trim().slice(0, 40)}"`); }"""

#: A control whose spoken name (aria-label) does not contain the words it shows: voice control
#: ("tap Bids") cannot find it (WCAG 2.5.3, label in name). Icons and hidden text are left out.
NAME_WITHOUT_LABEL = """() => {
  const words = text => text.replace(/[^\\p{L}\\p{N}]+/gu, ' ').trim().toLowerCase();
  return [...document.querySelectorAll('a[aria-label], button[aria-label]')]
    .filter(e => e.offsetParent !== null)
    .map(e => { const shown = e.cloneNode(true);
                shown.querySelectorAll('[aria-hidden=true], .sr').forEach(n => n.remove());
                return [e.getAttribute('aria-label'), shown.textContent]; })
    .filter(([name, label]) => words(label) && !words(name).includes(words(label)))
    .map(([name, label]) => `"${label.trim()}" not in "${name}"`); }"""

#: The words of the matched elements that break across two lines (a word cut in two, as
#: "Regis/tra" on a button squeezed by its neighbour or "Жанн/а" in a narrow column).
BROKEN_WORDS = """sel => { const out = [];
  for (const e of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.data.matchAll(/\\S+/g)) {
        const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        if (new Set([...r.getClientRects()].map(q => Math.round(q.top))).size > 1) out.push(m[0]); } } }
  return out; }"""

#: What the hand screen's script writes in each language once the first tap is in (Intl.PluralRules).
STATUS_AFTER_ONE_BID = {
    "en": "1 bid for 11 cards — 3 players to go",
    "ru": "Заказано 1 на 11 карт — осталось 3 игрока",
    "be": "Заказана 1 на 11 карт — засталося 3 гульцы",
    "it": "Dichiarate 1 su 11 carte — mancano 3 giocatori",
    "eo": "Anoncoj 1 por 11 kartoj — restas 3 ludantoj",
    "id": "1 ditawar untuk 11 kartu — tinggal 3 pemain",
}


def fits(page: Any, where: str) -> None:
    """No sideways scroll, 44 px targets, axe-core clean, and no label cut off or pushed off screen."""
    page_checks(page, where)
    clipped = page.evaluate(CLIPPED, [LABELS, page.viewport_size["width"]])
    assert not clipped, f"{where}: labels clipped or off screen: {clipped}"
    unnamed = page.evaluate(NAME_WITHOUT_LABEL)
    assert not unnamed, f"{where}: a control's spoken name lacks the words it shows: {unnamed}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_fits_a_360_px_phone(browser: Any, server: str, shots: Path, lang: str) -> None:
    playing = api_game(
        server,
        ["Anneliese", "Bartholomew", "Cy", "Dee"],
        0,
        [([3, 4, 2, 3], [4, 4, 1, 4]), ([2, 2, 2, 2], [0, 5, 3, 4])],
    )
    tricks_step = api_game(
        server, ["Anneliese", "Bartholomew", "Cy", "Dee"], 0, [([3, 4, 2, 3], [4, 4, 1, 4]), ([2, 2, 2, 2], None)]
    )
    finished = finished_game(server)
    context = phone(browser, "360")
    page = context.new_page()

    page.goto(f"{playing['scorer_url']}?lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("form.hand.bids")).to_be_visible()
    fits(page, f"{lang}: hand screen")
    page.screenshot(path=str(shots / f"lang-{lang}-hand.png"), full_page=True)
    page.locator(".sheet-wrap").scroll_into_view_if_needed()
    fits(page, f"{lang}: scorecard")
    page.locator(".sheet-wrap").screenshot(path=str(shots / f"lang-{lang}-scorecard.png"))
    first = page.locator("form.hand.bids .prow").first
    first.scroll_into_view_if_needed()
    first.locator("label").nth(0).tap()
    expect(page.locator(".dock .status")).to_have_text(STATUS_AFTER_ONE_BID[lang])

    page.goto(f"{tricks_step['scorer_url']}")  # the bids of hand 2 are in: their step is a link back
    expect(page.locator("form.hand.tricks")).to_be_visible()
    expect(page.locator("ol.steps li.done a")).to_be_visible()
    fits(page, f"{lang}: tricks step")
    assert not page.evaluate(BROKEN_WORDS, ".dock-buttons .button"), f"{lang}: a dock button cuts a word"

    page.goto(finished["scorer_url"])  # the language stays: the cookie remembers ?lang=
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator(".final")).to_be_visible()
    fits(page, f"{lang}: game over")
    page.screenshot(path=str(shots / f"lang-{lang}-final.png"), full_page=True)

    page.goto(f"{server}/new")  # a long name typed: the first-dealer list holds it without sideways scroll
    page.locator("input[name='names-0']").fill("Константин Константинопольский")
    page.locator("input[name='names-1']").fill("Ann")
    expect(page.locator(".dealer-pick select option").filter(has_text="Константинопольский")).to_have_count(1)
    fits(page, f"{lang}: new game with a long name")

    short = api_game(server, ["Ann", "Ben", "Cy", "Dee"], 0, [([3, 4, 2, 3], [4, 4, 1, 4])])
    page.goto(short["scorer_url"])  # four short names: the whole scorecard shows, with no sideways scroll
    sheet = page.locator(".sheet-wrap")
    assert sheet.evaluate("e => e.scrollWidth - e.clientWidth") <= 0, f"{lang}: the scorecard of four scrolls sideways"
    context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_virtual_seat_fits_a_360_px_phone_in_each_language(browser: Any, server: str, shots: Path, lang: str) -> None:
    seats = [{"name": "Anneliese"}] + [{"name": name, "bot": "random"} for name in ("Bartholomew", "Cy", "Dee")]
    answer = requests.post(f"{server}/api/tables", json={"seats": seats}, timeout=10)
    assert answer.status_code == 201, answer.text
    context = phone(browser, "360")
    page = context.new_page()
    page.goto(f"{answer.json()['seats'][0]['url']}?lang={lang}")  # the link's page remembers the language
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#vt.vt-myturn")).to_be_visible(timeout=20_000)  # the bots before her have moved
    fits(page, f"{lang}: virtual seat")
    page.screenshot(path=str(shots / f"lang-{lang}-virtual-seat.png"), full_page=True)
    context.close()


#: The card faces whose words spill out of the card ("Q♠" past the top bar's trump card, "Malalta",
#: the Lo Bluke in Esperanto, past the turn-up's small card).
SPILLED = """() => [...document.querySelectorAll('.vt-face')].filter(e => e.offsetParent !== null
    && (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1)).map(e => e.textContent.trim())"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_blukes_words_fit_their_cards_in_each_language(browser: Any, seeded: str, lang: str) -> None:
    """The Hi Bluke turned up and the Lo Bluke in the hand (seed 1): in Esperanto "Malalta" spilled
    out of the turn-up's small card and past the 360 px screen (one deal in 25 scrolled sideways)."""
    seats = [{"name": "Anneliese"}] + [{"name": name, "bot": "random"} for name in ("Bartholomew", "Cy", "Dee")]
    answer = requests.post(f"{seeded}/api/tables", json={"seats": seats, "seed": 1}, timeout=10)
    assert answer.status_code == 201, answer.text
    context = phone(browser, "360")
    page = context.new_page()
    page.goto(f"{answer.json()['seats'][0]['url']}?lang={lang}")
    expect(page.locator("#vt.vt-myturn")).to_be_visible(timeout=20_000)
    expect(page.locator(".vt-trump .vt-face.vt-bluke")).to_be_visible()
    expect(page.locator(".vt-hand .vt-face.vt-bluke")).to_be_visible()
    assert not page.evaluate(SPILLED), f"{lang}: words out of their cards: {page.evaluate(SPILLED)}"
    fits(page, f"{lang}: Blukes")
    context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_groups_pages_fit_a_360_px_phone_in_each_language(browser: Any, server: str, lang: str) -> None:
    """The leaderboard's and a player's column headings wrap in the longer languages, not the page."""
    players = ["Anneliese", "Bartolomeo", "Константин Константинопольский", "Жанна", "Eve", "Fay"]
    created = requests.post(f"{server}/api/groups", json={"name": "Friday", "players": players}, timeout=10).json()
    game = export_file(players, legal_hands(len(players)))
    answer = requests.post(
        f"{server}/api/groups/{created['id']}/import", json=game, headers=auth(created["token"]), timeout=10
    )
    assert answer.status_code == 201, answer.text
    context = phone(browser, "360")
    page = context.new_page()
    page.goto(f"{created['url']}&lang={lang}" if "?" in created["url"] else f"{created['url']}?lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("table.leaders tbody tr")).to_have_count(len(players))
    fits(page, f"{lang}: group")
    broken = page.evaluate(BROKEN_WORDS, "table.leaders thead th, table.leaders tbody .name")
    assert broken in ([], ["Константинопольский"]), f"{lang}: names or headings cut mid-word: {broken}"
    page.locator("table.leaders tbody a").first.tap()
    expect(page.locator("table.figures-table").first).to_be_visible()
    fits(page, f"{lang}: a group's player")
    context.close()


def test_the_phone_tells_the_server_its_time_zone_for_the_dates(browser: Any, server: str) -> None:
    """Dates are written by the server (groups, printed cards): the page's script keeps the phone's
    zone in a cookie, which the next page is dated by (tests/web: the day a game is listed under)."""
    context = phone(browser, "360", timezone_id="America/New_York")
    page = context.new_page()
    page.goto(server + "/")
    expect(page.locator("main")).to_be_visible()
    assert {(c["name"], c["value"]) for c in context.cookies()} >= {("tz", "America/New_York")}
    assert not next(c for c in context.cookies() if c["name"] == "tz")["secure"]  # plain HTTP keeps it
    context.close()


def test_a_phone_that_moved_to_a_zone_named_like_the_start_of_its_old_one_says_so(browser: Any, server: str) -> None:
    """A phone that kept "America/Bahia_Banderas" (UTC−6) and is now in "America/Bahia" (UTC−3) kept
    the old cookie: the check found "tz=America/Bahia" at the start of the longer name."""
    context = phone(browser, "360", timezone_id="America/Bahia")
    context.add_cookies([{"name": "tz", "value": "America/Bahia_Banderas", "url": server}])
    page = context.new_page()
    page.goto(server + "/")
    expect(page.locator("main")).to_be_visible()
    page.wait_for_function("() => document.cookie.indexOf('tz=America/Bahia_') < 0")
    assert [c["value"] for c in context.cookies() if c["name"] == "tz"] == ["America/Bahia"]
    context.close()


def test_over_https_the_time_zone_cookie_is_secure_as_every_other(browser: Any, server: str) -> None:
    """Every cookie the server sets over HTTPS is Secure; the page's own time-zone cookie was not.
    The pages are served under an https address here (intercepted, answered by the test server)."""
    context = phone(browser, "360", timezone_id="Europe/Minsk")
    page = context.new_page()
    page.route(
        "https://bluke.test/**",
        lambda route: route.fulfill(response=route.fetch(url=route.request.url.replace("https://bluke.test", server))),
    )
    page.goto("https://bluke.test/")
    expect(page.locator("main")).to_be_visible()
    page.wait_for_function("document.cookie.indexOf('tz=') >= 0")
    assert [c["secure"] for c in context.cookies() if c["name"] == "tz"] == [True]
    context.close()
