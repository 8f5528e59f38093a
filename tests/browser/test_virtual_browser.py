"""Two phones at one virtual table, in Chromium, tapping like people (360 px wide, light and dark).

Ann (light) and Ben (dark) join a New Jersey table with two random bots by their links, bid and
play hand 1 (one card each) by tapping, and see the result; in hand 2 one of them taps a card
they may not play and is told why. Each screen shows its own cards and no one else's, nothing
scrolls sideways, and every tap target is at least 44 px. Screenshots go to ``$SCREENSHOTS_DIR``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from tests.web.virtual_support import said

from .accessibility import assert_accessible
from .conftest import serve
from .phone_kit import hold
from .phone_kit import no_sideways_scroll
from .phone_kit import page_checks
from .phone_kit import until_held

pytestmark = pytest.mark.browser
PHONE = {"width": 360, "height": 740}
SEATS = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Robo", "bot": "random"}, {"name": "Dot", "bot": "random"}]


@pytest.fixture(scope="module")
def seeded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app with seeding allowed (the deal is repeatable), on 127.0.0.1."""
    yield from serve(tmp_path_factory.mktemp("virtual"), ALLOW_SEED=True)


# -- through the API: finding a seed, and the truth about each hand -------------------------------
class Table:
    def __init__(self, server: str, seed: int) -> None:
        self.server = server
        answer = requests.post(
            f"{server}/api/tables",
            json={"seats": SEATS, "variant": "new-jersey", "seed": seed, "first_dealer": 3},
            timeout=10,
        )
        assert answer.status_code == 201, answer.text
        self.data = answer.json()
        self.id = self.data["id"]
        self.tokens = {s["seat"]: s["token"] for s in self.data["seats"]}

    def view(self, seat: int) -> dict[str, Any]:
        answer = requests.get(
            f"{self.server}/api/tables/{self.id}/view",
            headers={"Authorization": f"Bearer {self.tokens[seat]}"},
            timeout=10,
        )
        return dict(answer.json())

    def act(self, seat: int, v: dict[str, Any]) -> dict[str, Any]:
        """The same choice the test taps: the lowest bid, else the first legal card."""
        path, body = ("bid", {"bid": v["legal"][0]}) if v["phase"] == "bidding" else ("play", {"card": v["legal"][0]})
        answer = requests.post(
            f"{self.server}/api/tables/{self.id}/{path}",
            json=body,
            headers={"Authorization": f"Bearer {self.tokens[seat]}"},
            timeout=10,
        )
        return dict(answer.json())

    def to_act(self) -> tuple[int, dict[str, Any]]:
        for seat in (0, 1):
            v = self.view(seat)
            if v["your_turn"]:
                return seat, v
        raise AssertionError("no human is to act")


def seat_link(server: str, table: dict[str, Any], seat: int = 0) -> str:
    """A seat's link as the table's answer gives it (on http://localhost), on the test server."""
    return str(table["seats"][seat]["url"]).replace("http://localhost", server)


def blocked_in_hand_2(server: str) -> int:
    """A seed where, playing as the test does, a human must tap around a card they may not play in hand 2."""
    for seed in range(300):
        table = Table(server, seed)
        for _ in range(12):
            seat, v = table.to_act()
            if v["hand_number"] == 2 and v["phase"] == "playing" and v["blocked"]:
                return seed
            if v["hand_number"] > 2 or (v["hand_number"] == 2 and v["phase"] == "playing" and v["tricks_played"]):
                break
            table.act(seat, v)
    raise AssertionError("no seed found")


# -- the phones ---------------------------------------------------------------------------------------
def phone(browser: Any, scheme: str) -> Any:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, color_scheme=scheme
    )
    context.set_default_timeout(20_000)  # the screens replay moves at a human pace
    return context


def only_own_cards(page: Any, mine: list[str], theirs: list[str], where: str) -> None:
    shown = page.eval_on_selector_all(".vt-hand [data-card]", "els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted(mine), f"{where}: hand shows {shown}, not {mine}"
    html = page.content()
    for code in theirs:
        assert f'"{code}"' not in html, f"{where}: another seat's {code} is on this screen"


def shot(page: Any, shots: Path, name: str) -> None:
    """The checks every page passes (phone_kit.page_checks: axe-core too), then a screenshot."""
    page_checks(page, name)
    page.screenshot(path=shots / f"virtual-{name}.png", full_page=True)


def test_two_phones_play_a_hand_by_tapping(browser: Any, seeded_server: str, shots: Path) -> None:
    seed = blocked_in_hand_2(seeded_server)
    table = Table(seeded_server, seed)
    problems: list[str] = []
    ann_ctx, ben_ctx = phone(browser, "light"), phone(browser, "dark")
    pages = {0: ann_ctx.new_page(), 1: ben_ctx.new_page()}
    for seat, page in pages.items():
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(seat_link(seeded_server, table.data, seat))
        assert page.url == f"{seeded_server}/t/{table.id}", "the link's token leaves the address bar"
        expect(page.locator("#vt")).to_be_visible()

    def check_both(step: str) -> None:
        hands = {seat: table.view(seat)["hand"] for seat in (0, 1)}
        for seat, page in pages.items():
            only_own_cards(page, hands[seat], hands[1 - seat], f"{step}, seat {seat}")

    # hand 1: one card each; whoever is to act taps, the other phone follows by itself
    taps = 0
    names = {0: "ann-light", 1: "ben-dark"}
    while True:
        seat, v = table.to_act()
        if v["hand_number"] != 1:
            break
        page = pages[seat]
        expect(page.locator(".vt-status")).to_contain_text("Your turn", timeout=20_000)
        check_both(f"hand 1 {v['phase']}")
        shot(page, shots, f"{names[seat]}-{v['phase']}")
        page.evaluate("document.getElementById('vt').classList.add('vt-busy')")  # as while moves replay
        assert_accessible(page, f"{names[seat]}-{v['phase']}, faded while the moves replay")
        page.evaluate("document.getElementById('vt').classList.remove('vt-busy')")
        if v["phase"] == "bidding":
            page.locator('.vt-bids button[value="1"]').tap()
        else:
            page.locator(f'.vt-card[value="{v["legal"][0]}"]').tap()
        taps += 1
        expect(page.locator(".vt-status")).not_to_contain_text(
            "Your turn: " + ("bid" if v["phase"] == "bidding" else "play"), timeout=20_000
        )  # after the replay
    assert taps == 4  # two bids and two cards, one tap each

    # both phones show the new deal and hand 1's result with its last trick (in the result, not as
    # this hand's "last trick": those cards are back in the deck)
    for seat, page in pages.items():
        expect(page.locator(".vt-handno")).to_contain_text("Hand 2", timeout=20_000)
        expect(page.locator(".vt-prev summary")).to_contain_text("Hand 1 result")
        expect(page.locator(".vt-last")).to_have_count(0)
        expect(page.locator(".vt-prev .vt-sub")).to_contain_text("Last trick of hand 1")
        shot(page, shots, f"{names[seat]}-hand2")
    check_both("hand 2 dealt")

    # hand 2: play on until a human may not play one of their cards; a tap on it says why
    for _ in range(10):
        seat, v = table.to_act()
        page = pages[seat]
        expect(page.locator(".vt-status")).to_contain_text("Your turn", timeout=20_000)
        if v["phase"] == "playing" and v["blocked"]:
            code, reason = next(iter(v["blocked"].items()))
            version = page.locator("#vt").get_attribute("data-version")
            page.locator(f'.vt-card[value="{code}"]').tap(force=True)  # aria-disabled: a person can still tap it
            expect(page.locator("#vt-toast")).to_have_text(reason)
            shot(page, shots, f"{names[seat]}-cannot-play")
            assert page.locator("#vt").get_attribute("data-version") == version  # nothing was sent
            page.locator(f'.vt-card[value="{v["legal"][0]}"]').tap()
            expect(page.locator(f'.vt-card[value="{v["legal"][0]}"]')).to_have_count(0)
            break
        if v["phase"] == "bidding":
            page.locator(f'.vt-bids button[value="{v["legal"][0]}"]').tap()
        else:
            page.locator(f'.vt-card[value="{v["legal"][0]}"]').tap()
        expect(page.locator("#vt")).not_to_have_attribute("data-version", str(v["version"]))
    else:
        raise AssertionError("the seeded hand never asked for a card that cannot be played")
    check_both("hand 2 played")
    assert not problems, problems
    ann_ctx.close()
    ben_ctx.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_new_table_form_and_the_host_page_on_a_phone(
    browser: Any, seeded_server: str, shots: Path, scheme: str
) -> None:
    context = phone(browser, scheme)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(seeded_server + "/t/new")
    page.locator('input[name="name-0"]').tap()
    page.keyboard.type("Ann")
    page.keyboard.press("Enter")  # Enter moves on to the next name
    expect(page.locator('input[name="name-1"]')).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("Ben")
    page.locator('select[name="bot-1"]').select_option("")
    no_sideways_scroll(page, "new table")
    page.screenshot(path=shots / f"virtual-new-{scheme}.png", full_page=True)
    page.locator("button.vt-primary").tap()
    expect(page.locator(".vt-seats")).to_be_visible()
    assert page.url.endswith("/host")
    expect(page.locator(".vt-qr svg")).to_have_count(2)
    shot(page, shots, f"host-lobby-{scheme}")
    # Ben's phone joins: the host page notices by itself
    ben_link = page.locator(".vt-url").nth(1).input_value()
    ben = context.browser.new_context(viewport=PHONE).new_page()
    ben.goto(ben_link.replace("http://localhost", seeded_server))
    expect(page.locator(".vt-here")).to_have_count(1, timeout=5000)
    page.locator("button.vt-primary").tap()  # deal
    expect(page.locator(".vt-handno")).to_contain_text("Hand 1", timeout=5000)
    page.locator(".vt-link summary").first.tap()
    shot(page, shots, f"host-playing-{scheme}")
    expect(ben.locator(".vt-card").first).to_be_visible(timeout=5000)
    assert not problems, problems
    context.close()


# -- following the play card by card ----------------------------------------------------------------
RECORD = """
window.__seen = [];
new MutationObserver(function (records) {
  records.forEach(function (record) {
    record.addedNodes.forEach(function (node) {
      if (node.nodeType !== 1) return;
      var faces = node.matches("[data-slot] .vt-face[data-card]") ? [node]
        : Array.prototype.slice.call(node.querySelectorAll("[data-slot] .vt-face[data-card]"));
      faces.forEach(function (face) {
        var key = face.closest(".vt-table").dataset.hand + ":" + face.closest(".vt-spot").dataset.seat
          + ":" + face.dataset.card;
        if (window.__seen.indexOf(key) < 0) window.__seen.push(key);
      });
    });
  });
}).observe(document, {childList: true, subtree: true});
"""


def test_two_phones_see_every_card_of_every_trick_in_order(browser: Any, seeded_server: str, shots: Path) -> None:
    """Hands 1 and 2 (one card, then two) against two bots: each phone shows every card on the table
    as it is played, in the order it was played, the last trick of each hand included, although the
    server decided the bots' cards at once and dealt the next hand in the same request."""
    table = Table(seeded_server, 11)
    host = {"Authorization": f"Bearer {table.data['host_token']}"}
    contexts = {0: phone(browser, "light"), 1: phone(browser, "dark")}
    pages = {}
    problems: list[str] = []
    for seat, context in contexts.items():
        context.add_init_script(RECORD)
        page = context.new_page()
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(seat_link(seeded_server, table.data, seat))
        pages[seat] = page
    moves: dict[int, dict[str, Any]] = {}
    for _ in range(200):
        v = requests.get(f"{seeded_server}/api/tables/{table.id}/view", headers=host, timeout=10).json()
        moves.update({m["seq"]: m for m in v["moves"]})  # the log keeps two hands: collect as we go
        if v["hand_number"] >= 3:
            break
        if v["to_act"] in pages and not v["bots_thinking"]:
            page = pages[v["to_act"]]
            expect(page.locator("#vt.vt-myturn")).to_have_count(1, timeout=30_000)
            expect(page).to_have_title(re.compile("^\u25cf Your turn"))  # seen from a background tab too
            seq = page.locator("#vt").get_attribute("data-seq")
            page.locator(".vt-bids button, .vt-card.vt-legal").first.tap()
            expect(page.locator("#vt")).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    else:
        raise AssertionError("hands 1 and 2 did not finish")
    played = [m for _, m in sorted(moves.items()) if "card" in m and m["hand"] in (1, 2)]
    expected = [f"{m['hand']}:{m['seat']}:{m['card']}" for m in played]
    assert len(expected) == 4 * 1 + 4 * 2 and played[-1]["hand_over"]
    for seat, page in pages.items():
        page.wait_for_function(f"window.__seen.filter(k => /^[12]:/.test(k)).length >= {len(expected)}", timeout=30_000)
        seen = [k for k in page.evaluate("window.__seen") if k[:2] in ("1:", "2:")]
        assert seen == expected, f"seat {seat} showed {seen}, the table played {expected}"
        expect(page.locator(".vt-prev summary")).to_contain_text("Hand 2 result")
        expect(page.locator(".vt-prev .vt-sub")).to_contain_text("Last trick of hand 2")
        shot(page, shots, f"replayed-seat{seat}")
    assert not problems, problems
    for context in contexts.values():
        context.close()


def test_a_phone_that_slept_through_hands_shows_the_latest_trick_only(browser: Any, seeded_server: str) -> None:
    """A seat's phone asleep while hands 1 and 2 were played replayed every one of their moves at the
    table's pace when it woke, a minute at a full table, and held its player's tap until the end:
    the table waited for it. It replays the latest trick (or the bids under way) only."""
    table = Table(seeded_server, 11)
    context = phone(browser, "light")
    context.add_init_script(RECORD)
    page = context.new_page()
    page.goto(seat_link(seeded_server, table.data))
    expect(page.locator("#vt")).to_have_count(1)
    asleep = context.new_cdp_session(page)
    asleep.send("Page.setWebLifecycleState", {"state": "frozen"})
    for _ in range(40):  # Ben and Ann, through the API, while the bots answer: hands 1 and 2
        seat, v = table.to_act()
        if v["hand_number"] == 3:
            break
        table.act(seat, v)
    else:
        raise AssertionError("hand 3 never came")
    host = {"Authorization": f"Bearer {table.data['host_token']}"}
    now = requests.get(f"{seeded_server}/api/tables/{table.id}/view", headers=host, timeout=10).json()
    asleep.send("Page.setWebLifecycleState", {"state": "active"})
    expect(page.locator("#vt")).to_have_attribute("data-seq", str(now["seq"]), timeout=20_000)
    seen = page.evaluate("window.__seen")
    assert not [k for k in seen if k.startswith("1:")], seen  # hand 1 is not replayed
    assert len([k for k in seen if k.startswith("2:")]) <= 4, seen  # of hand 2, its last trick at most
    context.close()


# -- play you can follow: picking, your turn in the background, the hand's end, small screens ------
def to_my_play(table: Table) -> dict[str, Any]:
    """Bid for both humans through the API until Ann (seat 0) is to play; returns her view."""
    for _ in range(20):
        seat, v = table.to_act()
        if seat == 0 and v["phase"] == "playing":
            return v
        table.act(seat, v)
    raise AssertionError("Ann never came to play")


@pytest.mark.parametrize("javascript", [True, False], ids=["javascript", "no-javascript"])
def test_tap_to_pick_then_tap_again_to_play_is_a_setting_of_the_seat(
    browser: Any, seeded_server: str, javascript: bool
) -> None:
    table = Table(seeded_server, 3)  # Ann bids first and leads hand 1 (one card each)
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, java_script_enabled=javascript
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(seat_link(seeded_server, table.data))
    page.locator("#vt-settings summary").tap()
    page.locator("#vt-settings input[name=confirm]").tap()
    page.locator("#vt-settings button[type=submit]").tap()
    expect(page.locator("#vt-settings input[name=confirm]")).to_be_checked()
    v = to_my_play(table)
    if not javascript:
        page.goto(f"{seeded_server}/t/{table.id}")  # no polling without JavaScript: the player looks again
    expect(page.locator(".vt-hand.vt-picking")).to_be_visible()
    code = v["legal"][0]
    card = page.locator(f'.vt-card[value="{code}"]')

    card.tap()  # the first tap picks the card and plays nothing
    expect(page.locator(f'.vt-card[value="{code}"][aria-pressed="true"]')).to_be_visible()
    if javascript:  # axe-core runs as a script in the page
        page_checks(page, "a card picked, not played")
    after = table.view(0)
    assert after["your_turn"] and after["version"] == v["version"] and code in after["hand"]

    page.locator(f'.vt-card[value="{code}"]').tap()  # the second tap plays it
    expect(page.locator(f'.vt-card[value="{code}"]')).to_have_count(0)
    assert code not in table.view(0)["hand"]
    assert not [m for m in table.view(1)["moves"] if m.get("card") == code and m["seat"] != 0]
    context.close()


#: What the browser does for the page is observed, not replaced: vibrations and oscillators started
#: are counted and passed on; the tab can be sent to the background (document.hidden, the
#: visibilitychange event) as a phone does when another app comes up; polls are timed.
DEVICE = """
window.__vibrations = [];
window.__sounds = 0;
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push([title, options.body]); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
  close() {}
};
window.__polls = [];
window.__hiddenAt = null;
var realVibrate = navigator.vibrate ? navigator.vibrate.bind(navigator) : null;
navigator.vibrate = function (pattern) {
  window.__vibrations.push(JSON.stringify(pattern));
  return realVibrate ? realVibrate(pattern) : true;
};
var RealAudio = window.AudioContext;
window.AudioContext = class extends RealAudio {
  createOscillator() {
    var oscillator = super.createOscillator(), start = oscillator.start.bind(oscillator);
    oscillator.start = function () { window.__sounds += 1; return start.apply(null, arguments); };
    return oscillator;
  }
};
var realFetch = window.fetch.bind(window);
window.fetch = function (url, options) {
  if (/\\/version$/.test(String(url))) window.__polls.push(performance.now());
  return realFetch(url, options);
};
Object.defineProperty(document, "hidden", { configurable: true, get: function () { return window.__hiddenAt !== null; } });
Object.defineProperty(document, "visibilityState", {
  configurable: true, get: function () { return window.__hiddenAt !== null ? "hidden" : "visible"; }
});
window.__hide = function () {
  window.__hiddenAt = performance.now();
  document.dispatchEvent(new Event("visibilitychange"));
};
window.__show = function () {
  window.__hiddenAt = null;
  document.dispatchEvent(new Event("visibilitychange"));
};
"""


#: Every state of the seat's screen while it changes: the status line, and whether ``card`` is in the hand.
WATCH_SCREEN = """card => { window.__seen = [];
  new MutationObserver(() => window.__seen.push([
      (document.querySelector('.vt-status') || {}).textContent || '',
      !!document.querySelector(`.vt-hand .vt-card[value="${card}"]`)]))
    .observe(document.body, { childList: true, subtree: true, characterData: true }); }"""


#: Every sentence the table's centre says, in order (the moves replayed, the trick taken).
WATCH_CENTER = """() => { window.__said = [];
  new MutationObserver(() => {
      const center = document.querySelector('#vt [data-center]');
      const text = center ? center.textContent : '';
      if (text && text !== window.__said[window.__said.length - 1]) window.__said.push(text); })
    .observe(document.body, { childList: true, subtree: true, characterData: true }); }"""


def test_a_played_card_leaves_the_hand_at_once_while_the_others_answer(browser: Any, seeded_server: str) -> None:
    """Ben plays; the table's answer comes with the bots' moves after his, replayed one by one. From
    the table's answer on, his screen says his move is in and no longer shows the card in his hand
    or "Your turn", and no tap plays into a trick not shown yet."""
    table = Table(seeded_server, 5)
    for _ in range(60):
        seat, v = table.to_act()
        if seat == 1 and v["phase"] == "playing":
            break
        table.act(seat, v)
    else:
        raise AssertionError("Ben never came to play a card")
    context = phone(browser, "light")
    page = context.new_page()
    page.goto(seat_link(seeded_server, table.data, 1))
    expect(page.locator(".vt-status")).to_contain_text("Your turn")
    card = v["legal"][0]
    page.evaluate(WATCH_SCREEN, card)
    page.locator(f'.vt-card[value="{card}"]').tap()
    page.wait_for_function("() => window.__seen.some(([status]) => status.startsWith('Done'))")
    page.wait_for_function("() => !document.querySelector('.vt-status').textContent.startsWith('Done')")  # replayed
    seen = page.evaluate("window.__seen")
    after = seen[next(i for i, (status, _) in enumerate(seen) if status.startswith("Done")) :]
    assert not [s for s in after if s[1] or "Your turn: play" in s[0]], after
    context.close()


def test_a_tap_while_the_screen_refreshes_is_played_once_the_refresh_is_in(browser: Any, seeded_server: str) -> None:
    """Ann's screen says it is her turn when Ben joins: her screen refreshes (held here, mid-way),
    and the bid she taps meanwhile is not dropped: it is sent once the refresh is in."""
    table = Table(seeded_server, 3)
    context = phone(browser, "light")
    page = context.new_page()
    page.goto(seat_link(seeded_server, table.data))
    expect(page.locator(".vt-status")).to_contain_text("Your turn: bid")
    held = hold(page, r"/t/[^/]+/moves\?", first_only=True)
    joined = requests.get(seat_link(seeded_server, table.data, 1), timeout=10)
    assert joined.status_code == 200, joined.text  # Ben joins: Ann's next poll sees the table changed
    until_held(page, held, "Ann's screen never began to refresh")  # the next poll (every second) asks for the moves
    page.locator('.vt-bids button[value="1"]').tap()
    assert table.view(0)["bids"][0] is None, "nothing is sent before the refresh is in"
    held[0].continue_()
    expect(page.locator(".vt-status")).not_to_contain_text("Your turn: bid")
    assert table.view(0)["bids"][0] == 1
    context.close()


def test_your_turn_reaches_a_tab_in_the_background(browser: Any, seeded_server: str) -> None:
    """Ann turns on vibration and sound, bids, and puts the tab in the background; polling goes on,
    every 5 s instead of every second, and when Ben's bid makes it her turn the title changes, the
    phone vibrates once and one sound plays."""
    table = Table(seeded_server, 3)
    context = phone(browser, "light")
    context.add_init_script(DEVICE)
    page = context.new_page()
    page.goto(seat_link(seeded_server, table.data))
    page.locator("#vt-settings summary").tap()
    page.locator("input[data-alert=vibrate]").tap()
    page.locator("input[data-alert=sound]").tap()
    assert page.evaluate("window.__sounds") == 1  # ticking the box plays the sound once, as a sample
    page.locator("input[data-alert=notify]").tap()
    page.locator(".vt-bids button").first.tap()
    expect(page).not_to_have_title(re.compile("^\u25cf"))  # Ben's turn: the title is the table's again
    page.wait_for_function("() => window.__polls.length >= 3")
    shown = page.evaluate("window.__polls.slice(-3)")
    assert page.evaluate("window.__vibrations") == []

    page.evaluate("window.__hide()")
    page.wait_for_function("() => window.__polls.filter(t => t > window.__hiddenAt).length >= 3", timeout=30_000)
    ben = table.view(1)
    assert ben["your_turn"], "the table waited for Ben"
    table.act(1, ben)  # Ben bids; the bots bid; Ann is to lead
    expect(page).to_have_title(re.compile("^\u25cf Your turn"), timeout=30_000)
    assert page.evaluate("window.__vibrations") == ["[120,80,120]"]
    assert page.evaluate("window.__sounds") == 2
    assert page.evaluate("window.__notes") == [[page.title(), "Your turn: play a card."]]  # while hidden, once
    hidden = page.evaluate("window.__polls.filter(t => t > window.__hiddenAt)")
    gaps = [b - a for a, b in zip(hidden[1:], hidden[2:])]  # the first was timed while shown
    assert gaps and min(gaps) > 4000, f"polls while hidden should be ~5 s apart: {gaps}"
    # Shown, the tab polls faster than hidden: compared side by side, as a busy machine slows both.
    shown_gaps = [b - a for a, b in zip(shown, shown[1:])]
    assert max(shown_gaps) < min(gaps), f"polls while shown {shown_gaps} not faster than hidden {gaps}"
    context.close()


def test_a_tab_in_the_background_replays_what_it_missed_when_looked_at(browser: Any, seeded_server: str) -> None:
    """Ann's tab is in the background while the bids and the first trick are played (her other phone
    plays her seat). It keeps its screen, and when she looks at it again the moves appear one by one
    and the trick stays with its winner; the tab drew the table's last screen at once before, and
    the moves it had skipped were never shown."""
    table = Table(seeded_server, 5)
    context = phone(browser, "light")
    context.add_init_script(DEVICE)
    page = context.new_page()
    page.goto(seat_link(seeded_server, table.data))
    expect(page.locator(".vt-status")).to_contain_text("Your turn: bid")
    before = page.get_attribute("#vt", "data-seq")
    page.evaluate("window.__hide()")
    while not table.view(0)["tricks_played"]:
        table.act(*table.to_act())
    polls = page.evaluate("window.__polls.length")
    page.wait_for_function(f"() => window.__polls.length >= {polls + 2}", timeout=30_000)
    assert page.get_attribute("#vt", "data-seq") == before, "the screen moved on out of sight"
    page.evaluate(WATCH_CENTER)
    page.evaluate("window.__show()")
    page.wait_for_function("() => window.__said.some(text => text.endsWith(' the trick'))")  # taken by someone
    said_after = page.evaluate("window.__said")
    plays = [text for text in said_after if " plays " in text]
    assert len(plays) >= 2, said_after  # the others' cards, one by one (hers are shown without words)
    expect(page.locator("#vt")).not_to_have_attribute("data-seq", before)  # then the table's screen
    context.close()


def test_a_move_whose_answer_never_comes_is_taken_for_lost(browser: Any, seeded_server: str) -> None:
    """The connection hangs on Ann's bid: the screen stayed on "Your turn" with nothing said, and
    stopped following the table, for as long as the phone kept the request open. After ten seconds
    it says the tap may not have arrived and follows the table again."""
    table = Table(seeded_server, 5)
    context = phone(browser, "light")
    page = context.new_page()
    held = hold(page, r"/t/[^/]+/bid$")
    page.goto(seat_link(seeded_server, table.data))
    expect(page.locator(".vt-status")).to_contain_text("Your turn: bid")
    page.locator(".vt-bids button").first.tap()
    expect(page.locator("#vt-toast")).to_contain_text("No connection", timeout=15_000)
    assert len(held) == 1 and table.view(0)["bids"][0] is None  # never sent on: nothing stored
    page.unroute(re.compile(r"/t/[^/]+/bid$"))
    expect(page.locator("#vt-toast")).to_be_hidden()  # the table answers the polls again
    expect(page.locator(".vt-status")).to_contain_text("Your turn: bid")
    page.locator(".vt-bids button").first.tap()
    expect(page.locator(".vt-status")).not_to_contain_text("Your turn: bid")
    assert table.view(0)["bids"][0] is not None
    context.close()


def test_a_refresh_that_hangs_does_not_stop_the_screen(browser: Any, seeded_server: str) -> None:
    """Ann's screen asks for the moves it has not shown and the connection hangs: it stopped
    following the table for good (no poll while it waited). After 10 s it asks again."""
    table = Table(seeded_server, 5)
    context = phone(browser, "light")
    page = context.new_page()
    page.goto(seat_link(seeded_server, table.data))
    expect(page.locator(".vt-status")).to_contain_text("Your turn: bid")
    hung = hold(page, r"/t/[^/]+/moves\?", first_only=True)
    table.act(0, table.view(0))  # her other phone bids
    expect(page.locator(".vt-status")).not_to_contain_text("Your turn: bid", timeout=30_000)
    assert len(hung) == 1
    context.close()


def test_a_turn_that_comes_back_after_the_bots_alone_alerts_again(browser: Any, seeded_server: str) -> None:
    """Ann at a table of bots: her bid, the bots' bids, then her lead. The title kept "Your turn"
    through the bots' moves, and the lead came without a vibration: only a turn that followed
    another person's move alerted (the page still thought it was her turn)."""
    bots = [{"name": f"Bot {i}", "bot": "basic"} for i in (1, 2, 3)]
    answer = requests.post(
        f"{seeded_server}/api/tables",
        json={"seats": [{"name": "Ann"}, *bots], "seed": 5, "first_dealer": 3},
        timeout=10,
    )
    assert answer.status_code == 201, answer.text
    context = phone(browser, "light")
    context.add_init_script(DEVICE)
    page = context.new_page()
    page.goto(seat_link(seeded_server, answer.json()))
    expect(page).to_have_title(re.compile("^\u25cf Your turn"))  # Ann bids first (R13)
    page.locator("#vt-settings summary").tap()
    page.locator("input[data-alert=vibrate]").tap()
    page.locator(".vt-bids button").first.tap()
    expect(page).not_to_have_title(re.compile("^\u25cf"))  # the bots' turns: the table's title again
    expect(page.locator("#vt.vt-myturn .vt-card.vt-legal").first).to_be_visible(timeout=30_000)
    expect(page).to_have_title(re.compile("^\u25cf Your turn"))  # Ann leads (R14)
    assert page.evaluate("window.__vibrations") == ["[120,80,120]"]
    context.close()


def test_by_keyboard_the_turn_come_takes_the_focus_and_is_read_out(browser: Any, seeded_server: str) -> None:
    """The screen is drawn anew when the table moves: the focus fell to the page, so a keyboard had
    to Tab back in every turn, and "Your turn" sat in a live region inserted already filled, which
    screen readers do not read."""
    table = Table(seeded_server, 3)
    context = phone(browser, "light")
    page = context.new_page()
    page.goto(seat_link(seeded_server, table.data))
    page.locator(".vt-bids button").first.focus()
    page.keyboard.press("Enter")  # Ann bids; Ben is to bid
    expect(page.locator(".vt-bids")).to_have_count(0)
    ben = table.view(1)
    assert ben["your_turn"], "the table waited for Ben"
    table.act(1, ben)  # Ben bids; the bots bid; Ann is to lead
    expect(page.locator("#vt.vt-myturn .vt-status")).to_contain_text("Your turn", timeout=30_000)
    expect(page.locator(".vt-card.vt-legal").first).to_be_focused()
    expect(page.locator("body > p.sr[role=status]")).to_have_text(page.locator(".vt-status").inner_text())
    context.close()


def test_a_seats_second_phone_stops_offering_the_turn_its_first_phone_took(browser: Any, seeded_server: str) -> None:
    """Two phones on one seat: the one that did not bid kept "Your turn" and its bid buttons while it
    replayed the table's moves (seconds at a big table), and a tap there was refused after."""
    table = Table(seeded_server, 3)
    link = seat_link(seeded_server, table.data)
    first, second = phone(browser, "light"), phone(browser, "dark")
    one, two = first.new_page(), second.new_page()
    one.goto(link)
    two.goto(link)
    expect(two.locator(".vt-bids button").first).to_be_visible()
    screens: list[Any] = []  # the second phone's new screen held back: what it shows meanwhile is the replay's
    two.route(
        "**/*", lambda route: screens.append(route) if route.request.headers.get("x-partial") else route.continue_()
    )
    one.locator(".vt-bids button").first.tap()
    two.wait_for_function("() => !document.querySelector('#vt').classList.contains('vt-myturn')", timeout=20_000)
    expect(two.locator(".vt-bid")).to_be_hidden()  # before its new screen, which is held back
    expect(two.locator(".vt-status")).not_to_contain_text("Your turn")  # nor says it is still its turn
    two.unroute_all(behavior="ignoreErrors")
    for held in screens:
        held.continue_()
    first.close()
    second.close()


def test_the_line_under_the_table_waits_for_the_moves_it_replays(browser: Any, seeded_server: str) -> None:
    """Ben bids on his phone: Ann's screen replays his bid and the bots' moves after it, and its
    line under the table, which said it was waiting for Ben, no longer does (her new screen, held
    back here, says what comes next)."""
    table = Table(seeded_server, 3)
    context = phone(browser, "light")
    page = context.new_page()
    page.goto(seat_link(seeded_server, table.data))
    seat, v = table.to_act()
    while seat != 1:  # Ann bids through the API until Ben is to bid
        table.act(seat, v)
        seat, v = table.to_act()
    page.reload()
    status = page.locator(".vt-status")
    expect(status).to_contain_text("Ben")
    screens: list[Any] = []
    page.route(
        "**/*", lambda route: screens.append(route) if route.request.headers.get("x-partial") else route.continue_()
    )
    table.act(1, v)
    expect(page.locator("#vt [data-center]")).to_contain_text("Ben bid", timeout=20_000)
    expect(status).to_have_text("The table plays on…")
    page.unroute_all(behavior="ignoreErrors")
    context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_screen_that_cannot_reach_the_table_says_so_until_it_can(browser: Any, seeded_server: str, lang: str) -> None:
    """Waiting for the others, a phone whose connection dropped kept the table as it was, without
    a word, as if nobody moved; after two polls without an answer it says so, until one comes."""
    table = Table(seeded_server, 3)
    context = phone(browser, "light")
    page = context.new_page()
    page.clock.install()
    page.goto(seat_link(seeded_server, table.data) + f"?lang={lang}")
    toast = page.locator("#vt-toast")
    page.clock.run_for(3_000)
    expect(toast).to_be_hidden()  # the table answers every poll
    cut = re.compile(r"/t/[^/]+/(version|moves)(\?.*)?$")
    page.route(cut, lambda route: route.abort())
    page.clock.run_for(1_100)  # one poll fails: a moment's hiccup is not said
    expect(toast).to_be_hidden()
    page.clock.run_for(2_000)
    expect(toast).to_contain_text({"en": "No connection: the table as it was last received", "ru": "Нет связи"}[lang])
    page.unroute(cut)
    page.clock.run_for(2_000)  # the next poll reaches the table
    expect(toast).to_be_hidden()
    context.close()


@pytest.mark.parametrize(("lang", "bot"), [("en", "Bot 3"), ("ru", "Бот 3")])
def test_a_seat_given_to_a_person_on_the_new_table_form_loses_its_bots_name(
    browser: Any, seeded_server: str, lang: str, bot: str
) -> None:
    context = phone(browser, "light")
    page = context.new_page()
    page.goto(f"{seeded_server}/t/new?lang={lang}")
    name = page.locator('input[name="name-2"]')
    expect(name).to_have_value(bot)
    page.locator('select[name="bot-2"]').select_option("")  # a person
    expect(name).to_have_value("")
    expect(name).to_be_focused()  # their name is typed at once
    page.keyboard.type("Cy")
    page.locator('select[name="bot-2"]').select_option("basic")
    page.locator('select[name="bot-2"]').select_option("")
    expect(name).to_have_value("Cy")  # a name typed stays
    context.close()


def test_the_last_trick_stays_on_the_table_then_with_the_hands_result(browser: Any, seeded_server: str) -> None:
    """Hand 1 (one card each): the table shows the finished trick with its winner marked and says
    it was the last of the hand; then the result stays open beside the new deal: each seat's bid,
    tricks, points and S/O/P, and the four cards of the last trick. "You lead" fits a 360 px phone."""
    table = Table(seeded_server, 3)
    context = phone(browser, "dark")
    page = context.new_page()
    page.goto(seat_link(seeded_server, table.data))
    v = to_my_play(table)
    center = page.locator("#vt [data-center]")
    expect(center).to_contain_text("You lead")
    for lang in ("en", "ru", "id"):
        if lang != "en":
            page.goto(f"{seeded_server}/t/{table.id}?lang={lang}")
        whole_words(page, "#vt [data-center]", lang)
    page.goto(f"{seeded_server}/t/{table.id}?lang=en")

    page.locator(f'.vt-card[value="{v["legal"][0]}"]').tap()
    expect(page.locator(f'.vt-card[value="{v["legal"][0]}"]')).to_have_count(0)  # played
    ben = table.view(1)
    table.act(1, ben)  # Ben plays; the bots finish the trick and the hand; hand 2 is dealt
    expect(page.locator("#vt .vt-spot.vt-won")).to_have_count(1, timeout=15_000)  # for PACE.hand only
    expect(page.locator("#vt [data-slot] .vt-face")).to_have_count(4)
    expect(center).to_contain_text("the last of hand 1")

    prev = table.view(0)["previous"]
    expect(page.locator(".vt-prev[open]")).to_be_visible()
    rows = page.locator(".vt-prev .vt-result tbody tr")
    names = [s["name"] for s in SEATS]
    for seat, name in enumerate(names):
        cells = [prev["bids"][seat], prev["tricks"][seat], prev["points"][seat], prev["outcomes"][seat]]
        shown = [c.replace("\u2212", "-").lstrip("+") for c in rows.nth(seat).locator("td").all_inner_texts()]
        assert rows.nth(seat).locator("th").inner_text() == name
        assert shown == [str(c) for c in cells], f"{name}: {shown} is not {cells}"
    cards = page.locator(".vt-prev .vt-plays [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert cards == [p["card"] for p in prev["last_trick"]] and len(cards) == 4
    expect(page.locator(".vt-handno")).to_contain_text("Hand 2")
    context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_screen_reader_names_the_cards_in_words(browser: Any, seeded_server: str, lang: str) -> None:
    """A screen reader read a hand's card as "Q♦" and the turn-up as "trump 5 ♦": Chromium's
    accessible names are now words in the page's language ("queen of diamonds", "дама бубен"), for
    the hand's buttons, the turn-up, and the cards virtual.js draws into the trick as it replays
    the moves (checked while the screen the server draws after them is held back)."""
    table = Table(seeded_server, 3)
    v = to_my_play(table)
    context = phone(browser, "light")
    page = context.new_page()
    page.goto(seat_link(seeded_server, table.data) + f"?lang={lang}")
    expect(page.locator("#vt.vt-myturn")).to_have_count(1)
    for code in v["hand"]:
        # the rank it shows, then the card in words: said as seen, by voice control too (WCAG 2.5.3)
        rank = page.locator(f".vt-card[value={code}] b").inner_text()
        name = (
            said(code, lang)
            if said(code, lang).split()[0].casefold() == rank.casefold()
            else f"{rank}, {said(code, lang)}"
        )
        expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()
    assert v["turn_up"]
    expect(page.locator(".vt-trump").get_by_role("img", name=said(v["turn_up"], lang), exact=True)).to_be_visible()
    hand = page.locator(".vt-cards").aria_snapshot()
    assert f'{said(v["hand"][0], lang)}"' in hand and not re.search("[♠♥♦♣]", hand), hand

    # the screens asked for after each replay: the faces until then are the script's
    held = hold(
        page, rf"/t/{table.id}$", when=lambda request: request.method == "GET" and request.headers.get("x-partial")
    )
    card = v["legal"][0]
    page.locator(f".vt-card[value={card}]").tap()
    mine = page.locator("#vt .vt-spot[data-seat='0'] [data-slot]")
    expect(mine.get_by_role("img", name=said(card, lang), exact=True)).to_be_visible()
    until_held(page, held, "the replay of Ann's card did not end")
    assert len(held) == 1
    expect(mine.get_by_role("img", name=said(card, lang), exact=True)).to_be_visible()  # drawn by the script
    held[0].continue_()
    page.wait_for_function("() => !document.querySelector('#vt .vt-sent')")  # the server's screen, before Ben plays

    ben = table.view(1)
    assert ben["your_turn"] and ben["phase"] == "playing"
    table.act(1, ben)  # Ben plays his first legal card; the bots finish the trick
    bens = page.locator("#vt .vt-spot[data-seat='1'] [data-slot]")
    expect(bens.get_by_role("img", name=said(ben["legal"][0], lang), exact=True)).to_be_visible()
    assert len(held) == 1, "Ben's card was drawn by the script, before the server's screen"
    context.close()


def whole_words(page: Any, selector: str, where: str) -> None:
    """Every word of the element's text is drawn whole on one line, inside the element (not cut, not
    broken mid-word, not hidden under an ellipsis)."""
    broken = page.evaluate(
        """sel => { const el = document.querySelector(sel), text = el.firstChild, out = [];
            if (el.scrollWidth > el.clientWidth) out.push(`overflows: ${el.scrollWidth} > ${el.clientWidth}`);
            const box = el.getBoundingClientRect();
            for (const m of text.data.matchAll(/\\S+/g)) {
              const r = document.createRange(); r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
              const rects = [...r.getClientRects()];
              if (rects.length !== 1 || rects[0].right > box.right + 0.5 || rects[0].left < box.left - 0.5)
                out.push(`${m[0]}: ${rects.length} pieces`);
            }
            return out; }""",
        selector,
    )
    assert not broken, f"{where}: {page.locator(selector).inner_text()!r} is cut: {broken}"


@pytest.mark.parametrize("javascript", [True, False], ids=["javascript", "no-javascript"])
def test_a_stale_tab_says_what_happened_without_version_numbers(
    browser: Any, seeded_server: str, javascript: bool
) -> None:
    """Ann's screen falls behind (with JavaScript: its polls are lost, as on a train) while the host
    changes a bot, then she taps a bid on the old screen: nothing is played, and she reads why.
    (A bid she made from another phone, tapped again, is answered as the move it repeats:
    test_virtual_api.)"""
    table = Table(seeded_server, 3)
    context = browser.new_context(viewport=PHONE, has_touch=True, java_script_enabled=javascript)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.route(re.compile(r"/(version|moves)(\?.*)?$"), lambda route: route.abort())
    page.goto(seat_link(seeded_server, table.data))
    expect(page.locator(".vt-bids button").first).to_be_visible()
    seat, v = table.to_act()
    assert seat == 0
    changed = requests.put(
        f"{seeded_server}/api/tables/{table.id}/seats/2",
        json={"bot": "basic"},
        headers={"Authorization": f"Bearer {table.data['host_token']}"},
        timeout=10,
    )
    assert changed.status_code == 200, changed.text
    version = table.view(0)["version"]
    page.locator(".vt-bids button").first.tap()
    error = page.locator(".vt-error")
    expect(error).to_contain_text("The table moved on before your tap arrived")
    if javascript:  # axe-core runs as a script in the page
        page_checks(page, "a stale tab's tap refused")
    assert "version" not in error.inner_text().lower() and not re.search(r"\d", error.inner_text())
    assert table.view(0)["version"] == version, "the old screen's tap played nothing"
    context.close()


# -- a phone on a bad connection ------------------------------------------------------------------------
def one_against_bots(server: str) -> dict[str, Any]:
    """Ann (seat 0) bids first, against two random bots."""
    seats = [{"name": "Ann"}, {"name": "Robo", "bot": "random"}, {"name": "Dot", "bot": "random"}]
    answer = requests.post(f"{server}/api/tables", json={"seats": seats, "seed": 5, "first_dealer": 2}, timeout=10)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


@pytest.mark.parametrize("lost", ["no answer", "a proxy's 504"])
def test_a_bid_whose_answer_is_lost_is_shown_once_the_table_answers(
    browser: Any, seeded_server: str, lost: str
) -> None:
    """The bid reaches the table but its answer never reaches the phone (or a proxy that gave up
    waiting answers instead): the phone does not claim that nothing was sent, and its next look
    at the table shows the bid (made once)."""
    table = one_against_bots(seeded_server)
    context = phone(browser, "light")
    page = context.new_page()
    page.goto(seat_link(seeded_server, table))
    expect(page.locator(".vt-status")).to_contain_text("Your turn")

    def arrives_but_the_answer_is_lost(route: Any) -> None:
        route.fetch()  # the table gets the bid …
        if lost == "no answer":
            route.abort()  # … and the phone hears nothing back
        else:
            route.fulfill(status=504, content_type="text/html", body="<h1>504 Gateway Time-out</h1>")

    page.route(f"**/t/{table['id']}/bid", arrives_but_the_answer_is_lost)
    page.locator(".vt-bids button").first.tap()
    expect(page.locator("#vt-toast")).to_contain_text("may not have reached the table")
    expect(page.locator(".vt-bid")).to_have_count(0)  # the next look shows the bid made: no bid to tap
    view = requests.get(
        f"{seeded_server}/api/tables/{table['id']}/view",
        headers={"Authorization": f"Bearer {table['seats'][0]['token']}"},
        timeout=10,
    ).json()
    assert view["bids"][0] == 1
    context.close()


def test_after_a_lost_answer_the_old_screen_takes_no_tap_until_the_table_is_drawn_again(
    browser: Any, seeded_server: str
) -> None:
    """The table stored the bid and the answer was lost: the message went at the first answer to a
    poll, while "Your turn: bid" stayed live until the replay caught up, and a second bid tapped
    as the message invited was refused ("Nothing was played for you") though the first counted."""
    table = one_against_bots(seeded_server)
    context = phone(browser, "light")
    page = context.new_page()
    page.goto(seat_link(seeded_server, table))
    expect(page.locator(".vt-status")).to_contain_text("Your turn")
    bids: list[str] = []

    def arrives_but_the_answer_is_lost(route: Any) -> None:
        bids.append(route.request.url)
        route.fetch()
        route.abort()

    page.route(f"**/t/{table['id']}/bid", arrives_but_the_answer_is_lost)
    held = hold(page, r"/t/[^/]+/moves\?")  # the screen's refresh, held
    page.locator(".vt-bids button").first.tap()
    toast = page.locator("#vt-toast")
    expect(toast).to_contain_text("may not have reached the table")
    until_held(page, held, "the screen never began to refresh")  # a poll answered: the refresh is on its way
    expect(toast).to_be_visible()  # still: the screen shown is not the table's yet
    page.evaluate("document.querySelector('.vt-bids button').click()")  # a second bid on the old screen
    page.wait_for_timeout(500)
    assert len(bids) == 1, "a tap on the old screen was sent"
    page.unroute(re.compile(r"/t/[^/]+/moves\?"))
    held[0].continue_()
    expect(page.locator(".vt-bid")).to_have_count(0)  # the table's screen: the bid made
    expect(toast).to_be_hidden()
    context.close()


def test_no_connection_stays_said_until_the_table_answers_again(browser: Any, seeded_server: str) -> None:
    """A tap sent without a connection: the screen keeps saying the tap may not have arrived for as
    long as the table cannot be reached (ten seconds here, on the page's own clock), not for 4 s
    before showing "Your turn" as if all were well; once the table answers, the message goes."""
    table = one_against_bots(seeded_server)
    context = phone(browser, "light")
    page = context.new_page()
    page.clock.install()
    page.goto(seat_link(seeded_server, table))
    expect(page.locator(".vt-status")).to_contain_text("Your turn")
    cut = re.compile(r"/t/[^/]+/(bid|version|moves)(\?.*)?$")
    page.route(cut, lambda route: route.abort())
    page.locator(".vt-bids button").first.tap()
    toast = page.locator("#vt-toast")
    expect(toast).to_contain_text("may not have reached the table")
    page.clock.run_for(10_000)  # ten polls fail
    expect(toast).to_be_visible()
    page.unroute(cut)
    page.clock.run_for(2_000)  # the next poll reaches the table
    expect(toast).to_be_hidden()
    context.close()


def test_a_seat_screen_whose_link_was_replaced_says_so_by_itself(browser: Any, seeded_server: str) -> None:
    table = one_against_bots(seeded_server)
    context = phone(browser, "light")
    page = context.new_page()
    page.goto(seat_link(seeded_server, table))
    expect(page.locator(".vt-status")).to_contain_text("Your turn")
    relinked = requests.post(
        f"{seeded_server}/api/tables/{table['id']}/seats/0/link",
        headers={"Authorization": f"Bearer {table['host_token']}"},
        timeout=10,
    )
    assert relinked.status_code == 200, relinked.text
    expect(page.locator("body")).to_contain_text("This link no longer works: the seat has a newer link", timeout=10_000)
    context.close()


#: Every text the table's centre (a live region) has said, in order.
CENTRE = """
window.__said = [];
new MutationObserver(function () {
  var centre = document.querySelector("#vt [data-center]"), text = centre && centre.textContent;
  if (text && window.__said[window.__said.length - 1] !== text) window.__said.push(text);
}).observe(document, {childList: true, subtree: true, characterData: true});
"""


def test_a_card_another_seat_plays_is_said_in_the_tables_live_region(browser: Any, seeded_server: str) -> None:
    """Bids and tricks taken were said, a card played only drawn: a player who listens did not know
    what to follow."""
    table = one_against_bots(seeded_server)
    context = phone(browser, "light")
    context.add_init_script(CENTRE)
    page = context.new_page()
    page.goto(seat_link(seeded_server, table))
    page.locator(".vt-bids button").first.tap()  # Ann bids, the bots bid, Ann leads
    expect(page.locator("#vt.vt-myturn .vt-card.vt-legal").first).to_be_visible(timeout=30_000)
    page.locator(".vt-card.vt-legal").first.tap()
    page.wait_for_function("() => window.__said.some(t => /^Dot plays /.test(t))", timeout=30_000)
    said = page.evaluate("window.__said")
    robo = next(t for t in said if t.startswith("Robo plays "))
    assert re.fullmatch(r"Robo plays (\w+ of \w+|\w+ Bluke)", robo), said
    assert not any(t.startswith("Ann plays") for t in said), said  # her own card: she knows it
    context.close()


OLDER_BROWSERS = {
    # Safari before 15.4 names no submitter on a form's submit event: every bid and card was sent
    # without its value, answered "Choose how many tricks you bid.", and the seat could not play.
    "no submitter": "Object.defineProperty(SubmitEvent.prototype, 'submitter', { get: () => null })",
    # Storage off (an Android WebView's default, site data blocked): reading the moves seen threw, the
    # screen never caught up and said "No connection" after each move.
    "no storage": "Object.defineProperty(window, 'sessionStorage', { get: () => { throw new DOMException('off') } })",
}


@pytest.mark.parametrize("browser_lacks", OLDER_BROWSERS)
def test_a_seat_bids_on_an_older_browser(browser: Any, seeded_server: str, browser_lacks: str) -> None:
    table = Table(seeded_server, 5)
    seat, v = table.to_act()
    assert v["phase"] == "bidding"
    context = phone(browser, "light")
    context.add_init_script(OLDER_BROWSERS[browser_lacks])
    page = context.new_page()
    page.goto(seat_link(seeded_server, table.data, seat))
    expect(page.locator(".vt-status")).to_contain_text("Your turn")
    bid = v["legal"][-1]
    page.locator(f'.vt-bid button[value="{bid}"]').tap()
    expect(page.locator(".vt-bid")).to_have_count(0)
    assert table.view(seat)["bids"][seat] == bid
    expect(page.locator(".vt-status")).not_to_contain_text("No connection")
    context.close()
