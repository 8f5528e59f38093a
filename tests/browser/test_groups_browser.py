"""A group on a 360 px phone in Chromium: create it, play two short games to the end from its
roster chips (14 players: the shortest schedule, 5 hands, R8), and read a player's page; no page
scrolls sideways, chips are thumb-sized, no script errors."""

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
    (the remainder is filled in), and record the hand. Dealt one card, every bid is 1 and comes
    tapped (R13): the taps out of habit keep it, and the button saves."""
    expect(page.locator("form.hand.bids")).to_be_visible()
    for seat, bid in enumerate(bids):
        page.locator(f"label[for=bid{seat}-{bid}]").tap()
    if sum(tricks) == 1:
        expect(page.locator("form.hand.bids .taps input:checked")).to_have_count(len(bids))
        page.locator("button[type=submit].primary").tap()
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
        row = len(chips) + offset
        if page.locator(f"#names-{row}").count() == 0:
            page.locator(".add-row").tap()
        page.locator(f"#names-{row}").fill(name)
    page_checks(page, "new game in a group")
    page.locator("#first-dealer").select_option("0")
    page.locator("button.start").tap()
    expect(page.locator(".created h1")).to_have_text("Game ready")
    page.get_by_text("Start hand 1").tap()


def play_game(page: Any, seats: int, taken: list[dict[int, int]]) -> None:
    """A whole game of 14 players: 5 hands of 3, 2, 1, 2, 3 cards (R8), every player bidding 1
    (R13); ``taken`` gives each hand's tricks of the seats that took any (the others took none)."""
    for hand in taken:
        play_hand(page, [1] * seats, [hand.get(seat, 0) for seat in range(seats)])


ROSTER = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu", "Max", "Ned"]


def test_a_group_plays_two_games_from_its_chips_and_reads_a_players_page(
    browser: Any, server: str, shots: Path
) -> None:
    context = phone(browser, "360")
    context.set_default_timeout(30_000)  # some 300 taps and page loads, on a machine that may be busy
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server + "/")
    page.get_by_role("link", name="New group").tap()
    page.locator("#group-name").fill("Friday night")
    page.locator("#group-players").fill(", ".join(ROSTER))
    page.get_by_role("button", name="Create the group").tap()
    expect(page.locator(".created h1")).to_have_text("Group ready")
    expect(page.locator("svg.qr")).to_be_visible()
    page_checks(page, "group share")
    page.get_by_role("link", name="Open the group").tap()
    expect(page.locator(".group-head h1")).to_have_text("Friday night")
    page_checks(page, "group home")

    # Game 1: all fourteen from the chips, the shortest schedule (R8: 14 players, 5 hands).
    # Everyone bids 1: made = 10 + overtricks (R19), set = −10 (R20).
    start_from_chips(page, ROSTER)
    play_game(page, 14, [{0: 2, 1: 1}, {1: 1, 2: 1}, {0: 1}, {0: 1, 1: 1}, {2: 3}])
    # Ann 11 − 10 + 10 + 10 − 10 = 11; Ben 10 + 10 − 10 + 10 − 10 = 10; Cy −10 + 10 − 10 − 10 + 12 = −8.
    expect(page.locator(".sheet tfoot tr.total td")).to_have_text(["11", "10", "−8"] + ["−50"] * 11)

    # Game 2: thirteen from the chips, Cy first, and a newcomer typed in, who joins the roster.
    page.goto(server + "/")
    page.locator(".game-link", has_text="Friday night").tap()
    second = ["Cy", "Ann", "Ben", *ROSTER[3:13]]
    start_from_chips(page, second, ("Oz",))
    play_game(page, 14, [{0: 1, 1: 1, 2: 1}, {1: 2}, {0: 1}, {1: 1, 13: 1}, {1: 1, 2: 1, 13: 1}])
    # Cy −10, Ann 10 + 11 − 10 + 10 + 10 = 31, Ben −10, Oz (last seat) −10, the others −50.
    expect(page.locator(".sheet tfoot tr.total td")).to_have_text(["−10", "31", "−10"] + ["−50"] * 10 + ["−10"])

    # The group's home lists both games, finished, and the leaderboard; Ann's page adds up both.
    page.goto(server + "/")
    page.locator(".game-link", has_text="Friday night").tap()
    expect(page.locator(".games .game-item")).to_have_count(2)
    expect(page.locator(".games .game-item").first).to_contain_text("Ann won with +31")
    expect(page.locator(".games .game-item").last).to_contain_text("Ann won with +11")
    expect(page.locator(".roster .chip")).to_have_count(15)
    expect(page.locator(".roster .chip", has_text="Oz")).to_be_visible()
    expect(page.locator(".leaders tbody tr").first.locator("th")).to_have_text("Ann")
    page_checks(page, "group home with games")
    page.screenshot(path=shots / "360-group-home.png", full_page=True)
    page.locator(".leaders a", has_text="Ann").tap()
    expect(page.locator(".player-head h1")).to_have_text("Ann")
    expect(page.locator(".player-head p.muted")).to_contain_text("2 games (2 finished) · 2 wins · 10 hands")
    # Ann over 10 hands: set 3, over 2, perfect 5 (R26); made 7/10, perfect 5/10, 42 points / 10 hands.
    expect(page.locator(".figures dd")).to_have_text(["3", "2", "5", "70%", "50%", "4.2"])
    expect(page.locator("svg.chart")).to_have_count(3)
    page_checks(page, "player page")
    page.screenshot(path=shots / "360-group-player.png", full_page=True)

    # The group's copy of a game (for members without its link): print it, or take it out of the group.
    group_url = page.url.split("/players/")[0]
    game_id = page.locator(".games .game-link").first.get_attribute("href").rsplit("/", 1)[-1]
    page.goto(f"{group_url}/games/{game_id}")
    page_checks(page, "group copy of a game")
    page.locator(".opt input[name=confirm]").tap()
    page.get_by_role("button", name="Take out of the group").tap()
    expect(page.locator(".notes")).to_contain_text("The game is out of the group")
    expect(page.locator(".games .game-item")).to_have_count(1)
    context.close()
    assert problems == []
