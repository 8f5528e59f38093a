"""Every language on a 360 px phone (real Chromium): the hand screen, the scorecard, the game-over
screen and a virtual table's seat fit without sideways scroll or clipped labels, and the scripts speak
the page's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from scorekeeper.i18n import LANGUAGES

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

#: A label inside a region that scrolls sideways on purpose (the scorecard's .sheet-wrap) is reached
#: by scrolling that region, so only its own box is checked there, not the screen's edge.
CLIPPED = """sel => {
  const scrolls = e => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return true; } return false; };
  return [...document.querySelectorAll(sel)]
    .filter(e => e.offsetParent !== null && e.getClientRects().length)
    .filter(e => { const s = getComputedStyle(e), r = e.getBoundingClientRect();
                   const cut = ['hidden', 'clip'].includes(s.overflowX) && e.scrollWidth > e.clientWidth + 1;
                   return cut || (!scrolls(e) && (r.right > innerWidth + 0.5 || r.left < -0.5)); })
    .map(e => `${e.tagName.toLowerCase()}.${e.className}: "${e.textContent.trim().slice(0, 40)}"`); }"""

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
    clipped = page.evaluate(CLIPPED, LABELS)
    assert not clipped, f"{where}: labels clipped or off screen: {clipped}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_fits_a_360_px_phone(browser: Any, server: str, shots: Path, lang: str) -> None:
    playing = api_game(
        server,
        ["Anneliese", "Bartholomew", "Cy", "Dee"],
        0,
        [([3, 4, 2, 3], [4, 4, 1, 4]), ([2, 2, 2, 2], [0, 5, 3, 4])],
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

    page.goto(finished["scorer_url"])  # the language stays: the cookie remembers ?lang=
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator(".final")).to_be_visible()
    fits(page, f"{lang}: game over")
    page.screenshot(path=str(shots / f"lang-{lang}-final.png"), full_page=True)
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
