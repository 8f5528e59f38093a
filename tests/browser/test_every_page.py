"""Every page a player can open, in light and dark mode, on a 360 px phone in Chromium: axe-core
finds no violation (WCAG 2.1 AA and best practices), no page scrolls sideways, and every tap target
is at least 44×44 px (UX.md).

One server holds a small world made through the JSON API: table games (fresh, mid-game, over), a
group with a game, and virtual tables in each state a seat or the host can see (lobby, bidding,
playing, the last hand's result kept on screen, the compact table of 15 seats, game over before
and after the rematch). Each page is opened in a fresh phone with only the links its role holds.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from .conftest import serve
from .phone_kit import api_game
from .phone_kit import finished_game
from .phone_kit import no_sideways_scroll
from .phone_kit import page_checks
from .phone_kit import phone

pytestmark = pytest.mark.browser


class Table:
    """A virtual table made and played through the JSON API; humans take their first legal choice."""

    def __init__(self, server: str, seats: list[dict[str, Any]], **extra: Any) -> None:
        self.server = server
        answer = requests.post(f"{server}/api/tables", json={"seats": seats, "seed": 5, **extra}, timeout=10)
        assert answer.status_code == 201, answer.text
        self.data = answer.json()
        self.id = self.data["id"]
        self.tokens = {s["seat"]: s["token"] for s in self.data["seats"]}
        self.links = {s["seat"]: s["url"].replace("http://localhost", server) for s in self.data["seats"]}
        self.host_link = self.data["host_url"].replace("http://localhost", server)

    def call(self, method: str, path: str, token: str, **body: Any) -> dict[str, Any]:
        answer = requests.request(
            method,
            f"{self.server}/api/tables/{self.id}{path}",
            json=body or None,
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        assert answer.ok, answer.text
        return dict(answer.json())

    def view(self, seat: int) -> dict[str, Any]:
        return self.call("GET", "/view", self.tokens[seat])

    def play_until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Act for the humans until seat 0's view satisfies ``done`` (bots move on each look)."""
        for _ in range(3000):
            views = {seat: self.view(seat) for seat in self.tokens}
            if done(views[0]):
                return views[0]
            mover = next((seat for seat, v in views.items() if v["your_turn"]), None)
            if mover is not None:
                v = views[mover]
                path, body = (
                    ("/bid", {"bid": v["legal"][0]}) if v["phase"] == "bidding" else ("/play", {"card": v["legal"][0]})
                )
                self.call("POST", path, self.tokens[mover], **body)
        raise AssertionError("the table never reached the state asked for")


FOUR = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Robo", "bot": "random"}, {"name": "Dot", "bot": "random"}]
FIFTEEN = [{"name": "Ann"}] + [{"name": f"Bot {i}", "bot": "random"} for i in range(1, 15)]


def mine_to(phase: str) -> Callable[[dict[str, Any]], bool]:
    return lambda v: v["your_turn"] and v["phase"] == phase


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The server and everything its pages show, made once through the JSON API."""
    for server in serve(tmp_path_factory.mktemp("every-page"), ALLOW_SEED=True):
        w: dict[str, Any] = {"server": server}
        w["fresh"] = api_game(server, ["Ann", "Ben", "Cy", "Dee"])
        w["playing"] = api_game(
            server,
            ["Ann", "Ben", "Cy", "Dee"],
            0,
            [([3, 4, 2, 3], [4, 4, 1, 4]), ([2, 2, 2, 2], [0, 5, 3, 4]), ([1, 1, 1, 1], None)],
        )
        w["finished"] = finished_game(server)
        group = requests.post(f"{server}/api/groups", json={"name": "Friday night"}, timeout=10).json()
        auth = {"Authorization": f"Bearer {group['token']}"}
        made = requests.post(
            f"{server}/api/groups/{group['id']}/games", json={"players": ["Ann", "Ben", "Cy"]}, headers=auth, timeout=10
        ).json()
        requests.put(
            f"{server}/api/games/{made['id']}/hands/1/bids",
            json={"bids": [4, 5, 3]},
            headers={"Authorization": f"Bearer {made['scorer_token']}"},
            timeout=10,
        ).raise_for_status()
        requests.put(
            f"{server}/api/games/{made['id']}/hands/1/tricks",
            json={"tricks": [5, 3, 5]},
            headers={"Authorization": f"Bearer {made['scorer_token']}"},
            timeout=10,
        ).raise_for_status()
        players = requests.get(f"{server}/api/groups/{group['id']}", headers=auth, timeout=10).json()["players"]
        w["group"] = group | {"link": group["url"].replace("http://localhost", server), "game": made["id"]}
        w["group"]["player"] = next(p["id"] for p in players if p["name"] == "Ann")

        w["lobby"] = Table(server, FOUR, start=False, variant="new-jersey")
        w["lobby"].view(0)  # Ann has opened her link; Ben has not
        w["bidding"] = Table(server, FOUR, variant="new-jersey", first_dealer=3)  # Ann bids first
        w["playing_vt"] = Table(server, FOUR, variant="new-jersey", first_dealer=3)
        w["playing_vt"].play_until(mine_to("playing"))
        w["result"] = Table(server, FOUR, variant="new-jersey", first_dealer=3)
        w["result"].play_until(lambda v: v["hand_number"] == 2 and v["your_turn"])
        w["compact"] = Table(server, FIFTEEN, variant="new-jersey", first_dealer=14)
        w["compact"].play_until(mine_to("playing"))
        w["over"] = Table(server, FIFTEEN, variant="new-jersey")
        w["over"].play_until(lambda v: v["phase"] == "finished")
        w["rematch"] = Table(server, FIFTEEN, variant="new-jersey")
        w["rematch"].play_until(lambda v: v["phase"] == "finished")
        w["rematch"].call("POST", "/rematch", w["rematch"].data["host_token"])
        yield w


def visit(page: Any, url: str, ready: str) -> None:
    page.goto(url)
    expect(page.locator(ready).first).to_be_visible()


def seat(name: str, ready: str) -> Callable[[Any, dict[str, Any]], None]:
    """Seat 0's screen of table ``name`` (opened by its own link, as a player does)."""
    return lambda page, w: visit(page, w[name].links[0], ready)


def host(name: str, ready: str) -> Callable[[Any, dict[str, Any]], None]:
    return lambda page, w: visit(page, w[name].host_link, ready)


def home_with_everything(page: Any, w: dict[str, Any]) -> None:
    for link in (w["playing"]["scorer_url"], w["finished"]["watch_url"], w["bidding"].links[1], w["group"]["link"]):
        page.goto(link)
    visit(page, w["server"] + "/", "main")


def group_page(path: str, ready: str) -> Callable[[Any, dict[str, Any]], None]:
    def go(page: Any, w: dict[str, Any]) -> None:
        page.goto(w["group"]["link"])
        visit(page, w["server"] + path.format(**w["group"]), ready)

    return go


PAGES: dict[str, Callable[[Any, dict[str, Any]], None]] = {
    "home, nothing yet": lambda page, w: visit(page, w["server"] + "/", "main"),
    "home with games, a table and a group": home_with_everything,
    "rules": lambda page, w: visit(page, w["server"] + "/rules", "h1"),
    "offline page": lambda page, w: visit(page, w["server"] + "/offline", "h1"),
    "not found": lambda page, w: visit(page, w["server"] + "/g/nosuchgame", "h1"),
    # table mode: the scorer, the watcher, sharing and the printable sheet on offer
    "new game (with the blank sheet offered)": lambda page, w: visit(page, w["server"] + "/new", "button.start"),
    "bids of hand 1": lambda page, w: visit(page, w["fresh"]["scorer_url"], "form.hand.bids"),
    "share page, new game": lambda page, w: (
        page.goto(w["fresh"]["scorer_url"]),
        visit(page, f"{w['server']}/g/{w['fresh']['id']}/share?new=1", "h1"),
    ),
    "tricks of hand 3": lambda page, w: visit(page, w["playing"]["scorer_url"], "form.hand.tricks"),
    "correcting hand 2": lambda page, w: (
        page.goto(w["playing"]["scorer_url"]),
        visit(page, f"{w['server']}/g/{w['playing']['id']}/hands/2", "form"),
    ),
    "share page": lambda page, w: (
        page.goto(w["playing"]["scorer_url"]),
        visit(page, f"{w['server']}/g/{w['playing']['id']}/share", "h1"),
    ),
    "game over (new game with the same players)": lambda page, w: visit(page, w["finished"]["scorer_url"], ".final"),
    "watch page": lambda page, w: visit(page, w["playing"]["watch_url"], ".watch-now"),
    "watcher's share page": lambda page, w: (
        page.goto(w["playing"]["watch_url"]),
        visit(page, f"{w['server']}/g/{w['playing']['id']}/share", "h1"),
    ),
    "watching a finished game": lambda page, w: visit(page, w["finished"]["watch_url"], ".final"),
    # groups
    "new group": lambda page, w: visit(page, w["server"] + "/groups/new", "form"),
    "group home": group_page("/groups/{id}", ".group-head h1"),
    "group share": group_page("/groups/{id}/share", "h1"),
    "group games": group_page("/groups/{id}/games", "h1"),
    "group game": group_page("/groups/{id}/games/{game}", "h1"),
    "group player": group_page("/groups/{id}/players/{player}", ".player-head h1"),
    # virtual tables
    "new table": lambda page, w: visit(page, w["server"] + "/t/new", "button.vt-primary"),
    "host, lobby": host("lobby", ".vt-seats"),
    "seat, lobby": seat("lobby", "#vt"),
    "seat, bidding (the table view)": seat("bidding", ".vt-bids"),
    "seat, waiting for another seat": lambda page, w: visit(page, w["bidding"].links[1], ".vt-table"),
    "another seat's link on a seat's phone (it asks first)": lambda page, w: (
        page.goto(w["bidding"].links[0]),
        visit(page, w["bidding"].links[1], "form button"),
    ),
    "host, during play": host("bidding", ".vt-table, .vt-seats"),
    "seat, playing (you lead)": seat("playing_vt", ".vt-card.vt-legal"),
    "seat, the last hand's result kept on screen": seat("result", ".vt-prev[open]"),
    "seat, 15 seats as a compact table": seat("compact", ".vt-compact"),
    "seat, game over": seat("over", ".vt-again"),
    "host, game over (rematch)": host("over", ".vt-again"),
    "seat, join the rematch": seat("rematch", ".vt-again button"),
    "virtual scorecard": lambda page, w: (
        page.goto(w["result"].links[0]),
        visit(page, f"{w['server']}/t/{w['result'].id}/scorecard", "h1"),
    ),
}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", list(PAGES))
def test_every_page_passes_axe_core_fits_360_px_and_has_44_px_targets(
    browser: Any, world: dict[str, Any], name: str, scheme: str
) -> None:
    context = phone(browser, "360", scheme)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    PAGES[name](page, world)
    page_checks(page, f"{name} ({scheme})")
    assert not problems, problems
    context.close()


#: The names on a hand's rows shown cut ("D…"): the badge and the figures beside them took the room.
CUT_NAMES = (
    "[...document.querySelectorAll('.prow .name')].filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)"
)

#: The height of the bars that stay on screen while the page scrolls (the top bar, the dock): with
#: large text they took most of a short screen.
KEPT_ON_SCREEN = """[...document.querySelectorAll('.bar, .dock, .vt-top')]
    .filter(e => ['sticky', 'fixed'].includes(getComputedStyle(e).position))
    .reduce((sum, e) => sum + e.getBoundingClientRect().height, 0)"""


@pytest.mark.parametrize("lang", ["en", "ru", "be"])  # Russian and Belarusian: the longest words on buttons
@pytest.mark.parametrize("name", list(PAGES))
def test_every_page_with_its_text_at_150_percent_still_fits_and_has_44_px_targets(
    browser: Any, world: dict[str, Any], name: str, lang: str
) -> None:
    """A phone with large text (browser zoom 150%: 240 CSS px across): still no sideways scroll,
    no tap target under 44 px, no axe-core violation."""
    context = phone(browser, "zoomed", "light", locale=lang)
    page = context.new_page()
    PAGES[name](page, world)
    where = f"{name} ({lang}, 150%)"
    page_checks(page, where)
    cut = page.evaluate(CUT_NAMES)
    assert not cut, f"{where}: names cut short on the hand's rows: {cut}"
    kept = page.evaluate(KEPT_ON_SCREEN)
    assert kept <= 0.25 * 493, f"{where}: bars that stay on screen take {kept} of 493 px"
    context.close()


@pytest.mark.parametrize("lang", ["en", "ru", "be", "it", "eo", "id"])
def test_a_virtual_tables_pages_at_200_percent_scroll_no_sideways(
    browser: Any, world: dict[str, Any], lang: str
) -> None:
    """At 200% zoom (180 CSS px across) a seat's "dealer" badge stood past the screen's edge in
    every language but English, and so did the host's "Played by" menus in three."""
    context = phone(browser, "doubled", "light", locale=lang)
    page = context.new_page()
    for name in ("seat, bidding (the table view)", "host, during play"):
        PAGES[name](page, world)
        assert page.locator(".vt-spot .vt-dealer").count() == 1
        no_sideways_scroll(page, f"{name} ({lang}, 200%)")
    context.close()
