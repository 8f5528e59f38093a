"""The scorer's queue of entries (static/queue.js, static/queue-rare.js) after QA's pass: the screen
goes on once the entry on it is sent, another phone's trump is asked about, an entry taken back in
one tab is not sent by another, and an entry the server refuses for itself can be dropped.

Same phones and server as ``test_offline_browser`` (its fixtures and helpers).
"""

from __future__ import annotations

from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.games import MAX_CORRECTIONS
from scorekeeper.models import Correction

from . import test_offline_browser as offline
from .offline_kit import LiveServer
from .phone_kit import eventually
from .phone_kit import hold
from .phone_kit import lose_the_first_answer
from .test_offline_browser import bearer
from .test_offline_browser import bids_waiting_offline
from .test_offline_browser import go_offline
from .test_offline_browser import go_online
from .test_offline_browser import new_game
from .test_offline_browser import queued
from .test_offline_browser import scorer_phone
from .test_offline_browser import tap

pytestmark = pytest.mark.browser
live = offline.live  # a server of this module's own
browser = offline.browser  # a Chromium of each test's own


def game_doc(live: LiveServer, game: dict[str, Any]) -> dict[str, Any]:
    doc: dict[str, Any] = requests.get(f"{live.url}/api/games/{game['id']}", headers=bearer(game), timeout=10).json()
    return doc


def corrections(live: LiveServer, game: dict[str, Any]) -> list[dict[str, Any]]:
    url = f"{live.url}/api/games/{game['id']}/history"
    found: list[dict[str, Any]] = requests.get(url, headers=bearer(game), timeout=10).json()["corrections"]
    return found


def test_tricks_recorded_online_after_an_offline_step_move_the_screen_on(browser: Any, live: LiveServer) -> None:
    """Bids waited offline; the connection came back while the scorer tapped the tricks, and the
    page stayed (taps on it). "Record hand 1" was stored, but the screen stayed on hand 1 with its
    Record button, a stale "1 entry … not counted here yet", and a second Record did nothing."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    sync = page.locator("#sync")
    try:
        bids_waiting_offline(context, page, live)
        tap(page, "tricks1-5")  # tapping the tricks as the connection comes back
    finally:
        go_online(context, live)
    expect(sync).to_have_text("All sent", timeout=15_000)  # the page stays: the scorer is tapping
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    tap(page, "tricks2-4")  # Ann's 4 is the remainder
    with page.expect_navigation(timeout=15_000):  # all sent: the server's page again
        page.locator("form.hand button.primary").tap()
    expect(page.locator(".hand-title h1")).to_have_text("Hand 2 of 25")
    expect(page.locator("form.hand")).to_have_attribute("data-step", "bids")
    expect(page.locator(".stale")).to_have_count(0)
    doc = game_doc(live, game)
    assert doc["hands"][0]["bids"] == [4, 5, 3] and doc["hands"][0]["tricks"] == [4, 5, 4]
    assert live.count("PUT", f"/api/games/{game['id']}/hands/1/tricks") == 1


def test_a_clash_choice_does_not_carry_a_later_bid_over_another_phones_trump(browser: Any, live: LiveServer) -> None:
    """Offline, this phone recorded hand 1's tricks and hand 2's bids 3 3 3 with ♠; another phone
    recorded other tricks and the same bids with ♣. Asked about the tricks only, the scorer kept the
    server's, and hand 2's trump became ♠ with no question (the bids matched; the trump was not
    compared). Hand 2's bids are asked about in turn."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    assert requests.put(
        url + "/hands/1/bids", json={"bids": [4, 5, 3], "trump": "H"}, headers=bearer(game), timeout=10
    ).ok
    context, page = scorer_phone(browser, game)
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    go_offline(context, live)
    tap(page, "tricks1-5", "tricks2-4")  # Ann's 4 is the remainder
    page.locator("form.hand button.primary").tap()
    expect(page.locator(".hand-title h1")).to_have_text("Hand 2 of 25")
    tap(page, "t2S", "bid2-3", "bid0-3", "bid1-3")  # Ben deals, Cy bids first; Ben's bid saves
    expect(page.locator("#sync")).to_have_text("Offline — 2 entries waiting")
    live.plug()  # the other phone, online
    assert requests.put(url + "/hands/1/tricks", json={"tricks": [5, 4, 4]}, headers=bearer(game), timeout=10).ok
    other = {"bids": [3, 3, 3], "trump": "C"}
    assert requests.put(url + "/hands/2/bids", json=other, headers=bearer(game), timeout=10).ok
    context.set_offline(False)
    box = page.locator("#conflict")
    expect(box).to_contain_text("Hand 1, Tricks", timeout=15_000)
    box.get_by_role("button", name="Keep the server's").tap()
    expect(box).to_contain_text("Hand 2, Bids", timeout=15_000)
    expect(box.locator(".theirs")).to_have_text("Ann 3 · Ben 3 · Cy 3 · Trump: ♣")
    expect(box.locator(".mine")).to_have_text("Ann 3 · Ben 3 · Cy 3 · Trump: ♠")
    assert game_doc(live, game)["hands"][1]["trump"] == "C"
    with page.expect_navigation(timeout=15_000):  # nothing left: the server's page again
        box.get_by_role("button", name="Keep the server's").tap()
    doc = game_doc(live, game)
    assert doc["hands"][0]["tricks"] == [5, 4, 4]
    assert doc["hands"][1]["bids"] == [3, 3, 3] and doc["hands"][1]["trump"] == "C"
    assert corrections(live, game) == []
    assert queued(page) == 0


def second_tab(context: Any, live: LiveServer, game: dict[str, Any]) -> Any:
    """Another tab of the same phone on the game's page (the copy the service worker keeps, offline),
    with the entry the first tab left waiting."""
    page = context.new_page()
    page.goto(f"{live.url}/g/{game['id']}")
    expect(page.locator("#sync")).to_have_text("Offline — 1 entry waiting")
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    return page


def taken_back_in_a_second_tab(context: Any, first: Any, live: LiveServer, game: dict[str, Any]) -> Any:
    """Bids saved offline in the first tab, then taken back (undo) in a second tab, returned."""
    bids_waiting_offline(context, first, live)
    other = second_tab(context, live, game)
    other.locator("button[form=undo-form]").tap()
    expect(other.locator("form.hand")).to_have_attribute("data-step", "bids")
    return other


def test_an_entry_taken_back_in_one_tab_is_not_sent_by_another(browser: Any, live: LiveServer) -> None:
    """Bids saved offline in one tab, taken back (undo) in a second tab of the same phone: back
    online, the first tab still sent them (its own list of the queue, read once), and the second
    said another scorer had saved a change."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, first = scorer_phone(browser, game)
    try:
        other = taken_back_in_a_second_tab(context, first, live, game)
        assert queued(other) == 0
    finally:
        go_online(context, live)
    # the first tab finds its entry gone and shows the game as it is: nothing recorded
    expect(first.locator("form.hand")).to_have_attribute("data-step", "bids", timeout=15_000)
    expect(first.locator(".stale")).to_have_count(0)
    expect(first.locator("body[data-sending]")).to_have_count(0)
    assert live.count("PUT", f"/api/games/{game['id']}/") == 0
    assert game_doc(live, game)["hands"][0]["bids"] is None
    expect(other.locator("#changed-elsewhere")).to_be_hidden()


def test_an_entry_changed_in_one_tab_is_sent_as_changed_and_not_refused(browser: Any, live: LiveServer) -> None:
    """As above, then the second tab saved the bids changed (Ben 1): the first tab sent its old
    bids, and the changed ones came back refused as if another phone had written first."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, first = scorer_phone(browser, game)
    try:
        other = taken_back_in_a_second_tab(context, first, live, game)
        tap(other, "bid1-1")  # Ben 1 instead of 5
        other.locator("form.hand button.primary").tap()
        expect(other.locator("#sync")).to_have_text("Offline — 1 entry waiting")
    finally:
        go_online(context, live)
    # the changed bids reach the server (from either tab), and nothing is left to send in any tab
    eventually(lambda: game_doc(live, game)["version"] == 2 and queued(other) == 0)
    for page in (first, other):
        expect(page.locator("body[data-sending]")).to_have_count(0, timeout=15_000)
        expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
        expect(page.locator("#conflict")).to_be_hidden()
    assert game_doc(live, game)["hands"][0]["bids"] == [4, 1, 3]
    assert corrections(live, game) == []  # the bids taken back were never stored
    eventually(lambda: queued(first) == 0)  # the tab may be reloading itself (queue.js, sent)


def test_two_tabs_tricks_for_the_same_hand_clash_and_neither_is_stored_over_the_other(
    browser: Any, live: LiveServer
) -> None:
    """Two tabs in sight (split screen), both offline, recorded hand 1's tricks differently: back
    online, the first stored moved the other on to the new version as if it followed, and it was
    stored over the first without a question, even after "Keep the server's"."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    requests.put(url + "/hands/1/bids", json={"bids": [4, 5, 3], "version": 1}, headers=bearer(game), timeout=10)
    context, first = scorer_phone(browser, game)
    second = context.new_page()
    second.goto(f"{live.url}/g/{game['id']}")
    expect(second.locator("form.hand")).to_have_attribute("data-step", "tricks")
    try:
        go_offline(context, live)
        for page, taps in ((first, ("tricks1-5", "tricks2-4")), (second, ("tricks1-3", "tricks2-5"))):
            tap(page, *taps)
            page.locator("form.hand button.primary").tap()
        eventually(lambda: queued(first) == 2)
    finally:
        go_online(context, live)

    def clashing() -> list[Any]:
        return [page for page in (first, second) if page.locator("#conflict").is_visible()]

    eventually(lambda: bool(clashing()))
    box = clashing()[0].locator("#conflict")
    stored = game_doc(live, game)["hands"][0]["tricks"]
    assert stored in ([4, 5, 4], [5, 3, 5]) and corrections(live, game) == []  # one stored, nothing over it
    mine = "Ann 4 · Ben 5 · Cy 4" if stored == [5, 3, 5] else "Ann 5 · Ben 3 · Cy 5"
    expect(box.locator(".mine")).to_have_text(mine)
    box.get_by_role("button", name="Keep the server's").tap()
    expect(box).to_be_hidden()
    eventually(lambda: queued(first) == 0)
    assert game_doc(live, game)["hands"][0]["tricks"] == stored and corrections(live, game) == []


def test_an_entry_another_phone_stored_alike_still_tells_what_else_it_changed(browser: Any, live: LiveServer) -> None:
    """Tricks waited offline; another phone recorded the same tricks, then corrected the bids. Back
    online the entry was taken as stored, and the changed bids (Ann's perfect bid now a set) were
    shown without a word."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    context, page = scorer_phone(browser, game)
    tap(page, "bid1-5", "bid2-3", "bid0-4")
    eventually(lambda: queued(page) == 0 and game_doc(live, game)["version"] == 2)
    try:
        context.set_offline(True)  # this phone only: the other one reaches the server
        tap(page, "tricks1-5", "tricks2-4")  # Ann's 4 is the remainder
        page.locator("form.hand button.primary").tap()
        expect(page.locator("#sync")).to_have_text("Offline — 1 entry waiting")
        for step, values, version in (("tricks", [4, 5, 4], 2), ("bids", [5, 5, 3], 3)):
            answer = requests.put(
                f"{url}/hands/1/{step}", json={step: values, "version": version}, headers=bearer(game), timeout=10
            )
            assert answer.status_code == 200, answer.text
    finally:
        go_online(context, live)
    note = page.locator("#others-changed")
    expect(note).to_have_text(
        "Hand 1 bids were changed on another phone: Ann 4 · Ben 5 · Cy 3 · Trump: not noted → Ann 5 · Ben 5 · Cy 3 · Trump: not noted",
        timeout=15_000,
    )
    expect(page.locator("#conflict")).to_be_hidden()
    eventually(lambda: queued(page) == 0)
    assert game_doc(live, game)["hands"][0]["bids"] == [5, 5, 3]


def test_an_entry_refused_for_itself_says_why_and_can_be_dropped(browser: Any, live: LiveServer) -> None:
    """The game has all the corrections it may keep; this phone's bids, kept over another phone's,
    would be one more. Every 400 was taken for an expired CSRF token: "Reload the page to send
    them", at every reload, the server's sentence never shown, and the tricks behind stuck too."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    url = f"{live.url}/api/games/{game['id']}"
    with live.app.app_context():
        db.session.add_all(
            Correction(game_id=game["id"], hand=1, field="undo", old=None, new=None) for _ in range(MAX_CORRECTIONS)
        )
        db.session.commit()
    context, page = scorer_phone(browser, game)
    sync, box = page.locator("#sync"), page.locator("#conflict")
    go_offline(context, live)
    tap(page, "bid1-5", "bid2-3", "bid0-4")
    tap(page, "tricks0-4", "tricks1-5")  # Cy's 4 is the remainder
    page.locator("form.hand button.primary").tap()
    expect(sync).to_have_text("Offline — 2 entries waiting")
    live.plug()  # another phone records other bids meanwhile
    assert requests.put(url + "/hands/1/bids", json={"bids": [4, 4, 3]}, headers=bearer(game), timeout=10).ok
    context.set_offline(False)
    expect(box).to_contain_text("Hand 1, Bids", timeout=15_000)
    box.get_by_role("button", name="Use this phone's").tap()  # a correction: past the cap
    said = (
        "The server did not take an entry: This game keeps at most 500 corrections and has 500: this change"
        " would go past it, so nothing was saved. Start a new game to go on."
    )
    expect(box.locator("h2")).to_have_text(said, timeout=15_000)
    expect(sync).to_have_text(said)
    expect(box.locator(".mine")).to_have_text("Ann 4 · Ben 5 · Cy 3 · Trump: not noted")  # to note it
    expect(box.get_by_role("button", name="Use this phone's")).to_have_count(0)
    assert queued(page) == 2  # nothing dropped without the scorer
    page.reload()  # the same sentence and choice again, not a promise that a reload sends it
    expect(box.locator("h2")).to_have_text(said, timeout=15_000)
    with page.expect_navigation(timeout=15_000):  # the bids dropped, the tricks behind them sent
        box.get_by_role("button", name="Keep the server's").tap()
    doc = requests.get(url, headers=bearer(game), timeout=10).json()
    assert doc["hands"][0]["bids"] == [4, 4, 3] and doc["hands"][0]["tricks"] == [4, 5, 4]
    assert queued(page) == 0


def test_an_entry_stored_but_whose_answer_was_lost_is_taken_as_sent(browser: Any, live: LiveServer) -> None:
    """The bids reached the server, the answer did not: sent again, they are refused as stale (409,
    API.md, though the server holds them), and the queue takes them as sent, with no box."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    lost: list[str] = []
    page.route(f"**/api/games/{game['id']}/hands/1/bids", lose_the_first_answer(lost))
    tap(page, "bid1-5", "bid2-3", "bid0-4")
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    expect(page.locator("#sync")).to_have_text("All sent", timeout=30_000)
    assert lost and live.count("PUT", f"/api/games/{game['id']}/hands/1/bids") == 2
    expect(page.locator("#conflict")).to_be_hidden()
    doc = game_doc(live, game)
    assert doc["hands"][0]["bids"] == [4, 5, 3] and doc["version"] == 2 and corrections(live, game) == []
    tap(page, "tricks0-5", "tricks1-3")
    page.locator("form.hand button.primary").tap()
    eventually(lambda: game_doc(live, game)["hands"][0]["tricks"] == [5, 3, 5])


def test_an_entry_whose_answer_never_comes_is_sent_again(browser: Any, live: LiveServer) -> None:
    """The connection hangs on the bids' request: the screen said "Sending…" and the queue waited for
    as long as the phone kept the request open. After 15 s the answer is taken for lost: the screen
    says the server is not answering, and the bids are sent again and stored once."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context, page = scorer_phone(browser, game)
    hung = hold(page, rf"/api/games/{game['id']}/hands/1/bids$", first_only=True)  # never answered
    tap(page, "bid1-5", "bid2-3", "bid0-4")
    expect(page.locator("#sync")).to_contain_text("Server not answering", timeout=30_000)
    assert hung and game_doc(live, game)["version"] == 1  # the hung request never reached the server
    expect(page.locator("#sync")).to_have_text("All sent", timeout=30_000)
    doc = game_doc(live, game)
    assert doc["hands"][0]["bids"] == [4, 5, 3] and doc["version"] == 2 and corrections(live, game) == []
    context.close()


def test_home_notes_the_entries_a_game_keeps_on_this_phone_and_its_screen_sends_them(
    browser: Any, live: LiveServer
) -> None:
    """Entries made offline, the app closed, then opened again online at its start page (home): the
    game was listed as if nothing waited, and nothing was sent; asked whether to forget it, the
    scorer was not told its entries could then never be sent."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    other = new_game(live, ("Dee", "Eve"))
    context, page = scorer_phone(browser, game)
    context.new_page().goto(other["scorer_url"])  # a second game on this phone, nothing waiting
    bids_waiting_offline(context, page, live)
    for opened in context.pages:
        opened.close()
    go_online(context, live)
    home = context.new_page()
    home.goto(live.url + "/")
    waiting = home.locator(f"[data-game='{game['id']}'] .gwaiting")
    expect(waiting).to_have_text("Entries kept on this phone, waiting to be sent: 1. Open the game to send them.")
    expect(home.locator(".gwaiting")).to_have_count(1)
    home.locator(f"[data-game='{game['id']}'] .forget summary").tap()  # asked before it is forgotten
    expect(home.locator(f"[data-game='{game['id']}'] .forget-ask .unsent")).to_have_text(
        "Entries of this game not sent yet: 1. Once it is forgotten here they can never be sent: open the game first"
        " to send them."
    )
    expect(home.locator(".unsent")).to_have_count(1)
    home.locator(f"[data-game='{game['id']}'] .game-link").tap()
    eventually(lambda: game_doc(live, game)["hands"][0]["bids"] == [4, 5, 3])
    expect(home.locator("form.hand")).to_have_attribute("data-step", "tricks")
    eventually(lambda: queued(home) == 0)  # the answer read and the entry taken off the queue
    home.goto(live.url + "/")
    expect(home.locator(f"[data-game='{game['id']}'] .game-link")).to_be_visible()
    expect(home.locator(".gwaiting")).to_have_count(0)


def test_bids_are_saved_where_indexeddb_never_answers(browser: Any, live: LiveServer) -> None:
    """Safari on iOS 14.6 could leave ``indexedDB.open`` unanswered: the queue waited for it and the
    save did nothing at all. After 3 s it goes on as without IndexedDB: the plain form, online."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context = browser.new_context(**offline.PHONE)
    context.add_init_script("indexedDB.open = () => ({})")  # a request whose answer never comes
    page = context.new_page()
    page.goto(game["scorer_url"])
    with page.expect_navigation(timeout=10_000):
        tap(page, "bid1-5", "bid2-3", "bid0-4")
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    assert game_doc(live, game)["hands"][0]["bids"] == [4, 5, 3]


@pytest.mark.parametrize("storage", ["none", "unanswered"])
def test_without_indexeddb_a_save_offline_says_so_and_keeps_the_taps(
    browser: Any, live: LiveServer, storage: str
) -> None:
    """No IndexedDB (storage blocked, some private modes) or one that never answers: the queue cannot
    keep the bids, and a save without a connection replaced the app with the browser's error page."""
    game = new_game(live, ("Ann", "Ben", "Cy"))
    context = browser.new_context(**offline.PHONE)
    blocked = {"none": "delete window.indexedDB", "unanswered": "indexedDB.open = () => ({})"}
    context.add_init_script(blocked[storage])
    page = context.new_page()
    page.goto(game["scorer_url"])
    context.set_offline(True)
    tap(page, "bid1-5", "bid2-3", "bid0-4")
    status = page.locator("form.hand .dock .status")
    expect(status).to_have_text(
        "No connection: nothing was sent. What you tapped is kept on this phone; save again when the connection is back.",
        timeout=10_000,
    )
    assert page.evaluate("() => [...document.querySelector('form.hand .dock .status').classList]") == ["status", "bad"]
    assert page.url == f"{live.url}/g/{game['id']}" and game_doc(live, game)["version"] == 1
    expect(page.locator("#bid0-4")).to_be_checked()
    context.set_offline(False)
    with page.expect_navigation(timeout=10_000):
        page.locator("form.hand button.primary").tap()
    expect(page.locator("form.hand")).to_have_attribute("data-step", "tricks")
    assert game_doc(live, game)["hands"][0]["bids"] == [4, 5, 3]
    context.close()
