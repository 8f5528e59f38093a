"""A group on a 360 px phone in Chromium: create it, play two short games from its roster chips,
and read a player's page; no page scrolls sideways, chips are thumb-sized, no script errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .phone_kit import page_checks
from .phone_kit import phone

pytestmark = pytest.mark.browser


def play_hand(page: Any, bids: list[int], tricks: list[int]) -> None:
    """Tap one bid per seat (the bids save themselves), then the tricks of all but the last seat
    (the remainder is filled in), and record the hand."""
    expect(page.locator("form.hand.bids")).to_be_visible()
    for seat, bid in enumerate(bids):
        page.locator(f"label[for=bid{seat}-{bid}]").tap()
    expect(page.locator("form.hand.tricks")).to_be_visible()
    for seat, taken in enumerate(tricks[:-1]):
        page.locator(f"label[for=tricks{seat}-{taken}]").tap()
    expect(page.locator(f"#tricks{len(tricks) - 1}-{tricks[-1]}")).to_be_checked()
    page.locator("button[type=submit].primary").tap()


def start_from_chips(page: Any, chips: list[str], typed: tuple[str, ...] = ()) -> None:
    page.get_by_role("link", name="New game").tap()
    expect(page.locator(".chips-panel")).to_be_visible()
    for chip in page.locator(".chip").all():  # thumb-sized (44 × 44 px)
        box = chip.bounding_box()
        assert box["width"] >= 43.5 and box["height"] >= 43.5, box
    for name in chips:
        page.locator(".chip", has_text=name).tap()
        expect(page.locator(".chip.on", has_text=name)).to_be_visible()
    for offset, name in enumerate(typed):
        page.locator(f"#names-{len(chips) + offset}").fill(name)
    page_checks(page, "new game in a group")
    page.locator("#first-dealer").select_option("0")
    page.locator("button.start").tap()
    expect(page.locator(".created h1")).to_have_text("Game ready")
    page.get_by_text("Start hand 1").tap()


def test_a_group_plays_two_games_from_its_chips_and_reads_a_players_page(
    browser: Any, server: str, shots: Path
) -> None:
    context = phone(browser, "360")
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server + "/")
    page.get_by_role("link", name="New group").tap()
    page.locator("#group-name").fill("Friday night")
    page.locator("#group-players").fill("Ann, Ben, Cy")
    page.get_by_role("button", name="Create the group").tap()
    expect(page.locator(".created h1")).to_have_text("Group ready")
    expect(page.locator("svg.qr")).to_be_visible()
    page_checks(page, "group share")
    page.get_by_role("link", name="Open the group").tap()
    expect(page.locator(".group-head h1")).to_have_text("Friday night")
    page_checks(page, "group home")

    # Game 1: Ann, Ben, Cy from the chips; RULES.md's worked example (hands 1 and 2).
    start_from_chips(page, ["Ann", "Ben", "Cy"])
    play_hand(page, [4, 5, 3], [5, 3, 5])
    play_hand(page, [2, 6, 4], [2, 7, 3])
    expect(page.locator(".sheet tfoot tr.total td")).to_have_text(["61", "11", "−8"])

    # Game 2: Cy and Ann from the chips, and a newcomer typed in, who joins the roster.
    page.goto(server + "/")
    page.locator(".game-link", has_text="Friday night").tap()
    start_from_chips(page, ["Cy", "Ann"], ("Dee",))
    play_hand(page, [3, 4, 5], [3, 4, 6])  # Cy perfect, Ann perfect, Dee one overtrick
    expect(page.locator(".sheet tfoot tr.total td")).to_have_text(["30", "40", "51"])

    # The group's home lists both games and the leaderboard; Ann's page adds up both games.
    page.goto(server + "/")
    page.locator(".game-link", has_text="Friday night").tap()
    expect(page.locator(".games .game-item")).to_have_count(2)
    expect(page.locator(".roster .chip")).to_have_text(["Ann", "Ben", "Cy", "Dee"])
    page_checks(page, "group home with games")
    page.screenshot(path=shots / "360-group-home.png", full_page=True)
    page.locator(".leaders a", has_text="Ann").tap()
    expect(page.locator(".player-head h1")).to_have_text("Ann")
    # Ann: O and P in game 1 (R26), P in game 2; 41 + 20 + 40 = 101 points over 3 hands.
    expect(page.locator(".figures dd")).to_have_text(["0", "1", "2", "100%", "67%", "33.7"])
    expect(page.locator("svg.chart")).to_have_count(3)
    page_checks(page, "player page")
    page.screenshot(path=shots / "360-group-player.png", full_page=True)
    context.close()
    assert problems == []
