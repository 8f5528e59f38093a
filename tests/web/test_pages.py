"""The table pages without a browser: set-up, hands, edits, undo, sharing and the result."""

from __future__ import annotations

import random
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import games
from scorekeeper.engine import draw_for_deal
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.table import pages
from scorekeeper.table import service

from .pages_kit import csrf
from .pages_kit import current_version
from .pages_kit import document
from .pages_kit import new_game
from .pages_kit import play
from .pages_kit import post_hand
from .pages_kit import second_phone
from .pages_kit import sent_at_once
from .pages_kit import text


def games_stored(app: Flask) -> int:
    with app.app_context():
        return len(db.session.execute(db.select(Game)).scalars().all())


# -- home and set-up ---------------------------------------------------------------------------
def test_home_offers_a_new_game_and_lists_the_games_this_phone_opened(client: FlaskClient) -> None:
    assert "Start a new game" in text(client.get("/"))
    new_game(client, ["Ann", "Ben", "Cy"])
    home = text(client.get("/"))
    assert "Ann · Ben · Cy" in home and "Hand 1 of 25" in home and "scoring" in home


def test_home_lists_the_newest_games_of_a_phone_that_opened_more_than_a_hundred(app: Flask) -> None:
    """A browser sends its oldest cookies first: the home page opened the first hundred and left
    out the games just scored."""
    creator, phone = app.test_client(), app.test_client()
    made = [creator.post("/api/games", json={"players": [f"G{n:03d}", "Bo"]}).get_json() for n in range(105)]
    for game in made:  # opened in order: the oldest cookie first
        phone.set_cookie(f"sk_{game['id']}", game["scorer_token"])
    newest = made[-1]
    scorer = {"Authorization": f"Bearer {newest['scorer_token']}"}
    assert (
        creator.put(f"/api/games/{newest['id']}/hands/1/bids", json={"bids": [1, 1]}, headers=scorer).status_code == 200
    )
    home = text(phone.get("/"))
    assert "G104 · Bo" in home and "G075 · Bo" in home and "G074 · Bo" not in home  # the 30 newest


def test_a_new_game_makes_this_browser_the_scorer_and_shows_both_links(client: FlaskClient) -> None:
    answer = client.post(
        "/new",
        data={
            "csrf_token": csrf(client),
            "names-0": "Ann",
            "names-1": " Ben ",
            "names-2": "\u3164 ",  # a Hangul filler is a blank letter: a blank row, skipped
            "names-3": "Cy",
            "first_dealer": "3",
            "action": "start",
        },
    )
    assert answer.status_code == 302
    game_id = answer.headers["Location"].split("/")[2]
    cookies = answer.headers.getlist("Set-Cookie")
    assert any(c.startswith(f"sk_{game_id}=") and "HttpOnly" in c for c in cookies)
    assert any(c.startswith(f"skw_{game_id}=") and "HttpOnly" in c and f"Path=/g/{game_id}/" in c for c in cookies)
    share = client.get(answer.headers["Location"])
    page = text(share)
    assert share.headers["Cache-Control"] == "no-store"
    assert "Scorer link" in page and "Watch link" in page and page.count('class="qr"') == 2
    assert "Start hand 1" in page
    game = text(client.get(f"/g/{game_id}"))
    assert "Hand 1" in game and "<b>Cy</b> deals" in game and "<b>Ann</b> bids first" in game


def test_a_set_up_sent_again_after_its_answer_was_lost_makes_no_second_game(app: Flask) -> None:
    """The answer to "Start the game" lost on a bad connection, the phone sent the form again (a tap
    10 s later, or a reload): a second game, the first one's players in it twice in a group, and
    nobody with its scorer link. The form's one-time mark finds the game it made (R4)."""
    phone = app.test_client()
    page = text(phone.get("/new"))
    once = re.search(r'name="once" type="hidden" value="([\w-]{32})"', page)
    assert once, "the set-up form carries its one-time mark"
    form = {
        "csrf_token": csrf(phone),
        "once": once.group(1),
        "variant": "new-jersey",
        "zero_bids": "y",
        "first_dealer": "draw",
        "action": "start",
        **{f"names-{i}": name for i, name in enumerate(["Ann", "Ben", "Cy"])},
    }
    before = games_stored(app)
    first = phone.post("/new", data=form)
    kept = phone.get_cookie(f"sk_{first.headers['Location'].split('/')[2]}")
    lost = app.test_client()  # the phone as it was: the first answer (and its cookies) never arrived
    lost.set_cookie("session", phone.get_cookie("session").value)  # type: ignore[union-attr]
    again = lost.post("/new", data=form)
    assert first.status_code == again.status_code == 302
    assert again.headers["Location"] == first.headers["Location"] and games_stored(app) == before + 1
    game_id = again.headers["Location"].split("/")[2]
    assert lost.get_cookie(f"sk_{game_id}").value == kept.value  # type: ignore[union-attr]
    assert "Scorer link" in text(lost.get(again.headers["Location"]))
    assert "Hand 1" in text(lost.get(f"/g/{game_id}")) and 'name="bid_0"' in text(lost.get(f"/g/{game_id}"))

    at_once = sent_at_once(app, phone, "/new", {**form, "once": "x" * 32})  # another form: its own game
    assert at_once == [302, 302, 302] and games_stored(app) == before + 2
    # the same form sent back with other players (found again when it is sent again), or once the
    # game has begun, starts a game
    changed = [lost.post("/new", data={**form, "names-2": "Dan"}) for _ in range(2)]
    assert [c.status_code for c in changed] == [302, 302] and changed[0].headers["Location"] == changed[1].headers[
        "Location"
    ]
    assert post_hand(lost, game_id, 1, "bids", [1, 1, 1], 1).status_code == 302
    assert lost.post("/new", data=form).headers["Location"] != first.headers["Location"]
    assert games_stored(app) == before + 4


def test_drawing_for_the_deal_names_dealer_and_scorer_and_shows_the_cards(client: FlaskClient) -> None:
    answer = client.post(
        "/new",
        data={
            "csrf_token": csrf(client),
            "names-0": "Ann",
            "names-1": "Ben",
            "names-2": "Cy",
            "first_dealer": "draw",
            "action": "start",
        },
    )
    page = text(client.get(answer.headers["Location"]))
    assert "deals first (highest card)" in page and "keeps score (lowest)" in page
    assert page.count('class="cardface') >= 3


@pytest.mark.parametrize(("seed", "rounds"), [(0, 1), (4, 2)])
def test_the_draw_is_numbered_only_where_a_tie_had_cards_drawn_again(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, seed: int, rounds: int
) -> None:
    """With no tie the one row of cards read "1. Ann 5♠ Ben 8♦ Cy 2♦", as if Ann came first."""
    monkeypatch.setattr(pages.secrets, "SystemRandom", lambda: random.Random(seed))  # a known draw (R6)
    fields = {"names-0": "Ann", "names-1": "Ben", "names-2": "Cy", "first_dealer": "draw", "action": "start"}
    answer = client.post("/new", data={"csrf_token": csrf(client), **fields})
    page = text(client.get(answer.headers["Location"]))
    assert page.count('class="drawn"') == sum(map(len, draw_for_deal(3, random.Random(seed)).rounds))
    if rounds == 1:
        assert '<p class="draws">' in page and "<ol" not in page
    else:
        assert page.count("Tie, drawn again:") == rounds - 1 and '<ol class="draws">' in page


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"names-0": "Ann"}, "Bluke is played by 2 to 15 players, not 1 (R4)."),
        ({f"names-{i}": f"P{i}" for i in range(16)}, "Bluke is played by 2 to 15 players, not 16 (R4)."),
        ({f"names-{i}": f"P{i}" for i in range(15)} | {"names-15": ""}, "not 16 (R4)."),
        ({"names-0": "Ann", "names-1": "B" * 41}, "Player 2&#39;s name is longer than 40 characters."),
        ({"names-0": "Ann", "names-1": "x" * 5000}, "Player 2&#39;s name is longer than 40 characters."),
        ({"names-0": "", "names-1": "Ann", "names-2": "C" * 41}, "Player 3&#39;s name is longer"),  # the row, R4
        ({"names-0": "", "names-1": "Ann", "names-2": "C\x07"}, "Player 3&#39;s name contains a character"),
        ({"names-0": "Ann", "names-1": "ann"}, "Two players are called &#39;ann&#39;"),
        (
            {"names-0": "A", "names-1": "B", "names-2": "C", "names-3": "D", "extended": "y"},
            "The extended game is only for 2 or 3 players, not 4 (R9).",
        ),
        ({"names-0": "A", "names-1": "B", "names-2": "C", "names-3": "D", "all_cards_hand": "y"}, "(R10)."),
        ({"names-0": "A", "names-1": "B", "variant": "bogus"}, "not &#39;bogus&#39; (R18)"),
        ({"names-0": "A", "names-1": "B", "first_dealer": "7"}, "Choose who deals first"),
        ({"names-0": "A", "names-1": "B", "names-2": "", "first_dealer": "2"}, "row 3 has no name"),
        ({"names-0": "A", "names-1": "B", "first_dealer": "x"}, "Choose who deals first"),
        ({"names-0": "A", "names-1": "B", "first_dealer": "\u00b2"}, "Choose who deals first"),
    ],
)
def test_a_bad_set_up_is_explained_and_stores_nothing(
    app: Flask, client: FlaskClient, fields: dict[str, str], message: str
) -> None:
    data = {"csrf_token": csrf(client), "first_dealer": "0", "action": "start", **fields}
    answer = client.post("/new", data=data)
    assert answer.status_code == 422
    assert message in text(answer) and text(answer).count('role="alert"') == 1
    assert 'value="A"' in text(answer) or 'value="Ann"' in text(answer) or "P14" in text(answer)
    assert games_stored(app) == 0
    # the sentence takes the focus (read out at once) and describes the button that was pressed
    assert 'id="setup-error" tabindex="-1" autofocus' in text(answer) and 'aria-describedby="setup-error"' in text(
        answer
    )


@pytest.mark.parametrize(
    ("fields", "marked"),
    [
        ({"names-0": "Ann", "names-1": "Ben", "names-2": "ann"}, [0, 2]),
        ({"names-0": "", "names-1": "Ann", "names-2": "C" * 41}, [2]),
        ({"names-0": "A", "names-1": "B", "names-2": "C", "names-3": "D", "extended": "y"}, []),
    ],
)
def test_a_refused_set_up_marks_the_name_fields_it_is_about(
    client: FlaskClient, fields: dict[str, str], marked: list[int]
) -> None:
    """The sentence was read out, but no field said it was the one at fault (a screen reader
    moving through the names heard nothing of it)."""
    data = {"csrf_token": csrf(client), "first_dealer": "0", "action": "start", **fields}
    page = text(client.post("/new", data=data))
    invalid = [
        int(row) for row in re.findall(r'id="names-(\d+)"[^>]*aria-invalid="true" aria-describedby="setup-error"', page)
    ]
    assert invalid == marked


@pytest.mark.parametrize("action", ["start", "enter", "add"])
def test_a_form_with_thousands_of_rows_is_refused_at_the_size_of_a_table(
    app: Flask, client: FlaskClient, action: str
) -> None:
    """Only a hand-made request sends more rows than the 15 the page offers (R4): the answer keeps 15."""
    data = {"csrf_token": csrf(client), "action": action} | {f"names-{i}": "a" for i in range(5000)}
    answer = client.post("/new", data=data)
    assert answer.status_code == 422
    assert "Bluke is played by 2 to 15 players, not 5000 (R4)." in text(answer)
    assert text(answer).count('name="names-') == 15
    assert games_stored(app) == 0


@pytest.mark.parametrize(
    ("action", "names", "dealer", "expect", "dealer_after"),
    [
        ("up-1", ["Ann", "Ben", "Cy"], "1", ["Ben", "Ann", "Cy", ""], "0"),
        ("up-2", ["Ann", "Ben", "Cy"], "2", ["Ann", "Cy", "Ben", ""], "1"),
        ("up-0", ["Ann", "Ben", "Cy"], "draw", ["Ann", "Ben", "Cy", ""], "draw"),
        ("add", ["Ann", "Ben", "Cy", "Dee"], "draw", ["Ann", "Ben", "Cy", "Dee", ""], "draw"),
        ("enter", ["Ann", "", "Cy", ""], "draw", ["Ann", "", "Cy", ""], "draw"),
        ("enter", ["Ann", "Ben", "Cy", "Dee"], "0", ["Ann", "Ben", "Cy", "Dee"], "0"),  # no empty row added
    ],
)
def test_the_set_up_rows_rearrange_without_javascript(
    app: Flask, client: FlaskClient, action: str, names: list[str], dealer: str, expect: list[str], dealer_after: str
) -> None:
    data = {
        "csrf_token": csrf(client),
        "action": action,
        "first_dealer": dealer,
        **{f"names-{i}": n for i, n in enumerate(names)},
    }
    page = text(client.post("/new", data=data))
    assert re.findall(r'name="names-\d+" id="names-\d+" value="([^"]*)"', page) == expect
    chosen = re.findall(r'<option value="(\w+)" selected>', page)
    assert chosen == ([] if dealer_after == "draw" else [dealer_after])  # "draw", the first option, by default
    assert games_stored(app) == 0


def test_enter_moves_to_the_first_empty_name_and_after_the_last_to_start(client: FlaskClient) -> None:
    data = {"csrf_token": csrf(client), "action": "enter", "names-0": "Ann", "names-1": "", "names-2": ""}
    page = text(client.post("/new", data=data))
    assert re.search(r'id="names-1"[^>]*autofocus', page)
    data = {"csrf_token": csrf(client), "action": "enter", **{f"names-{i}": n for i, n in enumerate("ABCD")}}
    page = text(client.post("/new", data=data))
    assert re.search(r'class="button primary big start" autofocus', page) and "names-4" not in page


# -- a hand, step by step ------------------------------------------------------------------------
def test_the_worked_example_through_the_pages(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    page = text(client.get(f"/g/{game_id}"))
    assert "Hand 2" in page and "<b>Ben</b> deals" in page and "<b>Cy</b> bids first" in page
    play(client, app, game_id, 2, [2, 6, 4], [2, 7, 3])
    doc = document(app, game_id)
    assert doc["totals"] == [61, 11, -8]
    page = text(client.get(f"/g/{game_id}"))
    # the creative card (R28): taken/bid marks with S circled / P boxed classes, bids/cards column
    over = '<span class="mk O" title="Overtricks: took more than bid">5/4</span><span class="sr">overtricks</span>'
    assert over + '<b class="tot">41</b>' in page
    assert (
        '<span class="mk S" title="Set: took fewer than bid">3/5</span><span class="sr">set</span><b class="tot neg">−50</b>'
        in page
    )
    assert '<span class="mk P"' in page and ">12/13<" in page and ">12/12<" in page
    assert re.search(r'<th scope="col" class="p lead">.*?Ann', page)  # the leader
    footer = page[page.index("<tfoot>") :]
    assert re.findall(r"<td>(\d+)</td>", footer) == ["0", "1", "1", "1", "1", "1", "1", "0", "0"]


def test_bids_and_tricks_both_come_in_bidding_order(client: FlaskClient, app: Flask) -> None:
    """One row order on both steps, the order the table speaks in (R13), so badge 1 is one player."""
    game_id = new_game(client, ["Ann", "Ben", "Cy", "Dee"], dealer="1")
    page = text(client.get(f"/g/{game_id}"))
    assert re.findall(r'class="name" id="bid\d-who">(\w+)<', page) == ["Cy", "Dee", "Ann", "Ben"]
    post_hand(client, game_id, 1, "bids", [3, 3, 3, 3], 1, trump="H")
    page = text(client.get(f"/g/{game_id}"))
    assert re.findall(r'class="name" id="tricks\d-who">(\w+)<', page) == ["Cy", "Dee", "Ann", "Ben"]
    assert "Trump <b" in page and "♥" in page
    # live points come from the engine, per button: bid 3 took 5 → +32 (R19), took 2 → −30 (R20)
    assert 'id="tricks0-5" value="5" data-p="32" data-t="32"' in page
    assert 'id="tricks0-2" value="2" data-p="-30" data-t="-30"' in page


@pytest.mark.parametrize("zero_bids", [False, True])
def test_a_one_card_hand_comes_with_the_only_bid_tapped(client: FlaskClient, zero_bids: bool) -> None:
    """Dealt one card, every bid is 1 (R13): the scorer only saves, or notes the trump first. With
    zero bids allowed each player still has a choice, and nothing is tapped for them."""
    fields = {"zero_bids": "y"} if zero_bids else {}
    game_id = new_game(client, ["Ann", "Ben", "Cy"], variant="new-jersey", **fields)  # R11: one card first
    page = text(client.get(f"/g/{game_id}"))
    assert "1 card" in page
    tapped = re.findall(r'id="bid(\d)-(\d)" value="\d" checked', page)
    if zero_bids:
        assert tapped == []
        assert "0 bid for 1 card — 3 players to go" in page
    else:
        assert sorted(tapped) == [("0", "1"), ("1", "1"), ("2", "1")]
        assert "3 bid for 1 card — overbid by 2" in page


def test_the_last_players_tricks_come_from_the_remainder(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy", "Dee"])
    post_hand(client, game_id, 1, "bids", [3, 3, 3, 3], 1)
    answer = post_hand(client, game_id, 1, "tricks", [4, 2, 5, None], 2)
    assert answer.status_code == 302
    assert document(app, game_id)["hands"][0]["tricks"] == [4, 2, 5, 2]


def test_a_wrong_count_is_blamed_on_its_own_row_not_on_the_blank_one(app: Flask, client: FlaskClient) -> None:
    """A hand-built post: Ann's −1 leaves Ben's blank row unfilled, and the message names Ann (R23)."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    post_hand(client, game_id, 1, "bids", [3, 3, 3], 1)
    answer = post_hand(client, game_id, 1, "tricks", [-1, None, 0], 2)
    page = text(answer)
    assert answer.status_code == 422
    assert "Ann took -1 tricks" in page and "Tap a number of tricks taken for Ben." in page
    assert "Ben took" not in page
    assert document(app, game_id)["hands"][0]["tricks"] is None


@pytest.mark.parametrize(
    ("bids", "trump", "message", "beside"),
    [
        ([14, 5, 3], None, "Ann bid 14, but only 13 cards were dealt in hand 1 (R22).", 0),
        ([4, "abc", 3], None, "Ben&#39;s bid must be a whole number, not &#39;abc&#39; (R22).", 1),
        ([4, 5, 0], None, "Cy bid 0, but every bid is at least 1 (zero bids are off) (R13, R22).", 2),
        ([4, 5, -1], None, "Cy bid -1, but every bid is at least 1", 2),
        ([4, 5, "99999999999999"], None, "Cy&#39;s bid must be a whole number", 2),
        ([4, None, 3], None, "Tap a bid for Ben.", 1),
        ([4, 5, 3], "X", "&#39;X&#39; is not a suit: a trump is S, H, D or C (R12).", None),
    ],
)
def test_bad_bids_are_explained_beside_the_row_and_store_nothing(
    app: Flask,
    client: FlaskClient,
    bids: list[object],
    trump: str | None,
    message: str,
    beside: int | None,
) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    answer = post_hand(client, game_id, 1, "bids", bids, 1, trump=trump)
    page = text(answer)
    assert answer.status_code == 422
    assert message in page
    if beside is not None:
        assert re.search(rf'<p class="err" id="bid{beside}-err">{re.escape(message)}', page)
    doc = document(app, game_id)
    assert doc["hands"][0]["bids"] is None and doc["version"] == 1


@pytest.mark.parametrize("step", ["bids", "tricks"])
def test_the_status_names_the_first_row_without_a_tap_in_bidding_order(
    app: Flask, client: FlaskClient, step: str
) -> None:
    """Ann deals: the rows run Ben, Cy, Dee, Ann, and the first without a tap gets the focus. The
    status named the last one in seat order (the dealer) instead."""
    game_id = new_game(client, ["Ann", "Ben", "Cy", "Dee"])
    if step == "tricks":
        post_hand(client, game_id, 1, "bids", [4, 5, 3, 2], 1)
    answer = post_hand(client, game_id, 1, step, [None, 5, 3, None], current_version(app, game_id))
    first = "Tap a bid for Dee." if step == "bids" else "Tap a number of tricks taken for Dee."
    assert answer.status_code == 422 and re.search(rf'<p class="status bad"[^>]*>{re.escape(first)}</p>', text(answer))


def test_the_correction_pages_status_names_the_first_row_without_a_tap_in_bidding_order(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy", "Dee"])  # Ann deals hand 1: rows Ben, Cy, Dee, Ann
    play(client, app, game_id, 1, [4, 5, 3, 2], [4, 5, 3, 1])
    url = f"/g/{game_id}/hands/1"
    tricks = {f"tricks_{seat}": str(taken) for seat, taken in enumerate([4, 5, 3, 1])}
    data = {"csrf_token": csrf(client, url), "version": str(current_version(app, game_id)), "bid_1": "5", "bid_2": "3"}
    answer = client.post(url, data=data | tricks)
    assert answer.status_code == 422
    assert '<p class="alert" role="alert">Tap a bid for Dee.</p>' in text(answer)


@pytest.mark.parametrize(
    ("tricks", "message", "beside"),
    [
        ([5, 3, 4], "Tricks add up to 12, but 13 cards were dealt in hand 1 (R23).", None),
        ([14, 0, 0], "Ann took 14 tricks, but hand 1 had 13 cards dealt (R23).", 0),
        ([5, "x", 5], "Ben&#39;s tricks must be a whole number, not &#39;x&#39; (R23).", 1),
        ([5, None, None], "Tap a number of tricks taken for Ben.", 1),
        ([13, 1, None], "Tricks add up to 14, but 13 cards were dealt in hand 1 (R23).", None),  # no tap mends it
    ],
)
def test_bad_tricks_are_explained_and_store_nothing(
    app: Flask, client: FlaskClient, tricks: list[object], message: str, beside: int | None
) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    post_hand(client, game_id, 1, "bids", [4, 5, 3], 1)
    answer = post_hand(client, game_id, 1, "tricks", tricks, 2)
    page = text(answer)
    assert answer.status_code == 422 and message in page
    if beside is not None:
        assert f'id="tricks{beside}-err">{message}' in page
    else:  # in the docked line, just above the save button, the rule is not a link a thumb could catch;
        # it takes the focus, so that a screen reader reads it as the page opens (a live region is not)
        assert f'<p class="status bad" aria-live="polite" tabindex="-1" autofocus>{message}</p>' in page
    assert document(app, game_id)["hands"][0]["tricks"] is None


def test_tricks_before_bids_are_refused_in_the_engines_words(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    answer = post_hand(client, game_id, 1, "tricks", [5, 3, 5], 1)
    assert answer.status_code == 422 and "Record the bids of hand 1 before its tricks (R25)." in text(answer)
    answer = post_hand(client, game_id, 99, "bids", [1, 1, 1], 1)
    assert answer.status_code == 422 and "there is no hand 99" in text(answer)


# -- versions: stale pages and double taps -----------------------------------------------------
def test_a_stale_page_shows_what_the_other_scorer_entered_and_keeps_these_taps(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    post_hand(second_phone(app, client, game_id), game_id, 1, "bids", [4, 5, 3], 1)  # another phone first
    answer = post_hand(client, game_id, 1, "bids", [1, 2, 1], 1, trump="H")  # this phone's older page
    # Post/Redirect/Get: the browser lands on the game's address, never on the form's
    assert answer.status_code == 303 and answer.headers["Location"] == f"/g/{game_id}"
    assert document(app, game_id)["hands"][0]["bids"] == [4, 5, 3]
    page = text(client.get(f"/g/{game_id}"))
    assert "Another scorer saved first" in page and "They entered the bids of hand 1" in page
    assert re.findall(r"<li><span>(\w+)</span> <b>(\d+)</b></li>", page) == [("Ben", "5"), ("Cy", "3"), ("Ann", "4")]
    for seat, bid in enumerate([1, 2, 1]):  # this scorer's taps, kept
        assert re.search(rf'id="bid{seat}-{bid}" value="{bid}" checked', page)
    assert re.search(r'id="t1H" value="H" checked', page)
    assert f'href="/g/{game_id}?drop=1"' in page
    # apply: the kept taps, saved at the new version, correct the other scorer's entry
    post_hand(client, game_id, 1, "bids", [1, 2, 1], current_version(app, game_id), trump="H")
    assert document(app, game_id)["hands"][0]["bids"] == [1, 2, 1]
    assert "Another scorer saved first" not in text(client.get(f"/g/{game_id}"))


def test_tricks_from_a_page_older_than_an_undo_of_the_bids_are_said_to_be_the_other_scorers_doing(
    app: Flask, client: FlaskClient
) -> None:
    """The other scorer undid the bids: this stale page's tricks break R25 only because of that, so
    the answer is the clash path (another scorer changed the hand), not an R25 error."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    post_hand(client, game_id, 1, "bids", [4, 5, 3], 1, trump="S")
    stale = current_version(app, game_id)
    other = second_phone(app, client, game_id)
    undone = other.post(
        f"/g/{game_id}/undo", data={"csrf_token": csrf(other, f"/g/{game_id}"), "version": stale, "number": 1}
    )
    assert undone.status_code == 302
    answer = post_hand(client, game_id, 1, "tricks", [5, 3, 5], stale)
    assert answer.status_code == 303 and answer.headers["Location"] == f"/g/{game_id}"
    page = text(client.get(f"/g/{game_id}"))
    assert "Another scorer changed this hand first" in page and "bids of hand 1 before its tricks" not in page
    assert document(app, game_id)["hands"][0]["bids"] is None


def test_a_different_entry_from_a_second_tab_of_this_phone_is_kept_beside_what_is_stored(
    app: Flask, client: FlaskClient
) -> None:
    """Tab A recorded the tricks; tab B, opened before, tapped others and recorded them: B was told
    only that nothing changed and moved on to the next hand, its taps gone and the stored ones unseen."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    post_hand(client, game_id, 1, "bids", [4, 5, 3], 1)
    assert post_hand(client, game_id, 1, "tricks", [5, 3, 5], 2).status_code == 302  # tab A
    assert post_hand(client, game_id, 1, "tricks", [2, 6, 5], 2).status_code == 303  # tab B
    page = text(client.get(f"/g/{game_id}"))
    assert "This page is older than what you saved since on this phone." in page
    assert "now holds the bids Ann 4 · Ben 5 · Cy 3 and the tricks Ann 5 · Ben 3 · Cy 5" in page
    assert set(re.findall(r'id="(tricks\d-\d+)"[^>]*checked', page)) == {"tricks0-2", "tricks1-6", "tricks2-5"}
    assert document(app, game_id)["hands"][0]["tricks"] == [5, 3, 5]


def test_a_form_sent_again_from_a_page_this_phone_moved_on_from_changes_nothing(
    app: Flask, client: FlaskClient
) -> None:
    """Refused tricks fixed and recorded, then Back and reload: the browser sent the refused form
    again, and the game page said another scorer had saved first, with only one phone at the table."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    post_hand(client, game_id, 1, "bids", [4, 5, 3], 1)
    assert post_hand(client, game_id, 1, "tricks", [5, 3, 4], 2).status_code == 422  # 12 of 13 (R23)
    assert post_hand(client, game_id, 1, "tricks", [5, 3, 5], 2).status_code == 302
    again = post_hand(client, game_id, 1, "tricks", [5, 3, 4], 2)  # the refused form, sent again
    assert again.status_code == 303 and again.headers["Location"] == f"/g/{game_id}"
    page = text(client.get(f"/g/{game_id}"))
    assert "This page is older than what you saved since on this phone." in page
    assert "Hand 1 now holds the bids Ann 4 · Ben 5 · Cy 3 and the tricks Ann 5 · Ben 3 · Cy 5." in page
    assert "Another scorer saved first" not in page and "Drop these taps" in page
    assert document(app, game_id)["hands"][0]["tricks"] == [5, 3, 5]
    assert "Drop these taps" not in text(client.get(f"/g/{game_id}?drop=1"))
    # the same stale form from another phone is a clash to settle, as before
    other = second_phone(app, client, game_id)
    assert post_hand(other, game_id, 1, "tricks", [5, 3, 4], 2).status_code == 303
    assert "Another scorer saved first" in text(other.get(f"/g/{game_id}"))


def test_a_refused_tricks_form_keeps_showing_the_trump_noted(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    post_hand(client, game_id, 1, "bids", [4, 5, 3], 1, trump="S")
    page = text(post_hand(client, game_id, 1, "tricks", [9, 9, 9], 2))  # 27 tricks of 13 (R23)
    notes = re.findall(r'<span class="trump-note">(.*?)</span>', page)  # the script's blank copy, then the hand's
    assert "Tricks add up to 27" in page and "♠" in notes[-1]


def test_dropping_kept_taps_shows_the_other_scorers_entry(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    post_hand(client, game_id, 1, "bids", [4, 5, 3], 1)
    post_hand(client, game_id, 1, "bids", [1, 1, 1], 1)
    page = text(client.get(f"/g/{game_id}?drop=1"))
    assert "Another scorer saved first" not in page and "Record hand 1" in page
    assert "Another scorer saved first" not in text(client.get(f"/g/{game_id}"))
    assert document(app, game_id)["hands"][0]["bids"] == [4, 5, 3]


@pytest.mark.parametrize("address", ["hands/1/bids", "hands/1/tricks", "undo"])
def test_a_forms_address_opened_with_get_leads_to_the_game(client: FlaskClient, address: str) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    answer = client.get(f"/g/{game_id}/{address}")
    assert answer.status_code == 303 and answer.headers["Location"] == f"/g/{game_id}"


def test_a_double_tap_stores_once(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    first = post_hand(client, game_id, 1, "bids", [4, 5, 3], 1, trump="S")
    second = post_hand(client, game_id, 1, "bids", [4, 5, 3], 1, trump="S")
    assert first.status_code == second.status_code == 302
    post_hand(client, game_id, 1, "tricks", [5, 3, 5], 2)
    assert post_hand(client, game_id, 1, "tricks", [5, 3, 5], 2).status_code == 302
    doc = document(app, game_id)
    assert doc["version"] == 3 and doc["hands"][0]["tricks"] == [5, 3, 5]
    assert "Corrections" not in text(client.get(f"/g/{game_id}"))


@pytest.mark.parametrize(
    ("tapped", "trump", "no_trump", "shown"),
    [
        ("", None, False, "Trump not noted"),  # the default: nothing noted is not "no trump"
        ("none", None, True, "No trump</b> — a Bluke was turned"),  # R12
        ("D", "D", False, "Trump <b"),
    ],
)
def test_the_trump_buttons_keep_not_noted_apart_from_no_trump(
    app: Flask,
    client: FlaskClient,
    tapped: str,
    trump: str | None,
    no_trump: bool,
    shown: str,
) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    assert post_hand(client, game_id, 1, "bids", [4, 5, 3], 1, trump=tapped).status_code == 302
    hand = document(app, game_id)["hands"][0]
    assert (hand["trump"], hand["no_trump"]) == (trump, no_trump)
    assert shown in text(client.get(f"/g/{game_id}"))


@pytest.mark.parametrize("version", [None, "", "abc"])
def test_a_form_without_a_good_version_is_refused(app: Flask, client: FlaskClient, version: str | None) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    answer = post_hand(client, game_id, 1, "bids", [4, 5, 3], **({} if version is None else {"version": version}))
    assert answer.status_code == 400 and "This page was out of date" in text(answer)
    assert document(app, game_id)["hands"][0]["bids"] is None


# -- corrections -------------------------------------------------------------------------------
def test_an_earlier_hand_is_edited_with_its_forms_prefilled_and_the_change_is_kept(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    play(client, app, game_id, 2, [2, 6, 4], [2, 7, 3])
    edit = text(client.get(f"/g/{game_id}/hands/1"))
    assert 'id="bid0-4" value="4" checked' in edit and 'id="tricks1-3" value="3" checked' in edit
    answer = post_hand(client, game_id, 1, "tricks", [5, 4, 4], current_version(app, game_id))
    assert answer.status_code == 302
    page = text(client.get(f"/g/{game_id}"))
    assert "Hand 1 corrected" in page
    assert document(app, game_id)["totals"] == [61, 11, -9]  # Cy now 4/3 (31) instead of 5/3 (32)
    assert "Corrections" in page and "Ben 3 → 4" in page and "Cy 5 → 4" in page


def test_an_edit_with_an_error_shows_the_edit_page_again(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    answer = post_hand(client, game_id, 1, "bids", [4, 25, 3], current_version(app, game_id))
    page = text(answer)
    assert answer.status_code == 422 and "Correct hand 1" in page and "Ben bid 25" in page
    assert document(app, game_id)["hands"][0]["bids"] == [4, 5, 3]


def correct_hand(
    client: FlaskClient, app: Flask, game_id: str, bids: list[int], tricks: list[int | None]
) -> TestResponse:
    """Hand 1's correction page (without script) sent with these taps, ``None`` untapped."""
    data = {"csrf_token": csrf(client, f"/g/{game_id}/hands/1"), "version": str(current_version(app, game_id))}
    data |= {f"bid_{seat}": str(bid) for seat, bid in enumerate(bids)}
    data |= {f"tricks_{seat}": str(taken) for seat, taken in enumerate(tricks) if taken is not None}
    return client.post(f"/g/{game_id}/hands/1", data=data)


def test_a_refused_correction_scores_the_tricks_against_the_bids_tapped_above_them(
    app: Flask, client: FlaskClient
) -> None:
    """Ann's bid corrected 4 → 6 and a slip in the tricks (R23): the page came back with the tricks
    scored against the stored bids ("bid 4 +41", "12 bid for 13 cards") under "14 bid for 13 cards"."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    answer = correct_hand(client, app, game_id, [6, 5, 3], [5, 3, 4])
    page = text(answer)
    assert answer.status_code == 422 and document(app, game_id)["hands"][0]["bids"] == [4, 5, 3]
    tricks = page[page.index('id="tricks-part"') :]
    assert '<b class="bid-total">14 bid for 13 cards</b>' in tricks
    ann = tricks[tricks.index('id="tricks0"') :]
    assert '<span class="bidchip">bid 6</span> <span class="pts neg">\u221260</span>' in ann  # set: 5 of 6 (R20)
    assert 'id="tricks0-6" value="6" data-p="60" data-t="60"' in ann


def test_the_correction_page_gives_the_last_player_the_tricks_left_as_the_hand_does(
    app: Flask, client: FlaskClient
) -> None:
    """Tricks 5 and 3 tapped, Cy's left blank: the hand's tricks step gives Cy the 5 left (R23);
    its correction page refused the same taps ("Tap a number of tricks taken for Cy")."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    assert post_hand(client, game_id, 1, "bids", [4, 5, 3], current_version(app, game_id)).status_code == 302
    answer = correct_hand(client, app, game_id, [4, 5, 3], [5, 3, None])
    assert answer.status_code == 302, text(answer)
    assert document(app, game_id)["hands"][0]["tricks"] == [5, 3, 5]


def test_a_hand_not_reached_cannot_be_edited(client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    answer = client.get(f"/g/{game_id}/hands/3")
    assert answer.status_code == 404 and "Hand 3 cannot be edited" in text(answer)


def test_the_whole_hand_undone_through_the_api_is_listed_as_such(app: Flask, client: FlaskClient) -> None:
    """``DELETE …/hands/1`` takes back bids, trump and tricks at once: the list said "undo bids"."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    token = client.get_cookie(f"sk_{game_id}")
    assert token is not None
    answer = client.delete(f"/api/games/{game_id}/hands/1", headers={"Authorization": f"Bearer {token.value}"})
    assert answer.status_code == 200 and answer.get_json()["hands"][0]["bids"] is None
    page = text(client.get(f"/g/{game_id}"))
    assert "undo hand" in page and "removed bids 4·5·3" in page and "removed tricks 5·3·5" in page
    assert re.search(r'<time datetime="[^"]+" title="[^"]+ UTC">', page)  # no zone from the phone yet
    client.set_cookie("tz", "Europe/Minsk")
    assert re.search(r'<time datetime="[^"]+" title="[^"]+[0-9APM]">', text(client.get(f"/g/{game_id}")))


def test_undo_takes_back_the_latest_entry_step_by_step(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    page = text(client.get(f"/g/{game_id}"))
    assert "Undo the tricks of hand 1" in page
    answer = client.post(
        f"/g/{game_id}/undo",
        data={"csrf_token": csrf(client, f"/g/{game_id}"), "version": current_version(app, game_id), "number": 1},
    )
    assert answer.status_code == 302
    page = text(client.get(answer.headers["Location"]))
    assert "Undone: the tricks of hand 1. They are still tapped below" in page and "Record hand 1" in page
    assert "undo tricks" in page and "removed tricks 5·3·5" in page
    # What the undo took away is still tapped, not saved: recording puts it back in one tap.
    assert set(re.findall(r'id="(tricks\d-\d+)"[^>]*checked', page)) == {"tricks0-5", "tricks1-3", "tricks2-5"}
    assert document(app, game_id)["hands"][0]["tricks"] is None
    assert "tricks0-5" not in re.findall(r'id="(tricks\d-\d+)"[^>]*checked', text(client.get(f"/g/{game_id}")))
    other = second_phone(app, client, game_id)
    stale = other.post(
        f"/g/{game_id}/undo", data={"csrf_token": csrf(other, f"/g/{game_id}"), "version": 1, "number": 1}
    )
    assert stale.status_code == 303
    assert "Another scorer saved a change first, so nothing was undone" in text(other.get(f"/g/{game_id}"))
    client.post(
        f"/g/{game_id}/undo",
        data={"csrf_token": csrf(client, f"/g/{game_id}"), "version": current_version(app, game_id), "number": 1},
    )
    doc = document(app, game_id)
    assert doc["hands"][0]["bids"] is None


def test_an_undo_sent_again_from_this_phone_undoes_nothing_more_and_blames_nobody(
    app: Flask, client: FlaskClient
) -> None:
    """Back, then the undo form sent again: "Someone else changed this game first", with one phone."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    form = {"csrf_token": csrf(client, f"/g/{game_id}"), "version": current_version(app, game_id), "number": 1}
    assert client.post(f"/g/{game_id}/undo", data=form).status_code == 302
    again = client.post(f"/g/{game_id}/undo", data=form)
    assert again.status_code == 303 and again.headers["Location"] == f"/g/{game_id}"
    page = text(client.get(f"/g/{game_id}"))
    assert "That entry of hand 1 is undone already, so nothing more was undone." in page
    assert "Someone else" not in page
    assert document(app, game_id)["hands"][0]["bids"] == [4, 5, 3]  # the tricks alone undone, once
    # A double tap whose first answer (and the session cookie it set) was lost: the same.
    form = {"csrf_token": csrf(client, f"/g/{game_id}"), "version": current_version(app, game_id), "number": 1}
    assert client.post(f"/g/{game_id}/undo", data=form).status_code == 302  # the bids now
    again = second_phone(app, client, game_id)
    form["csrf_token"] = csrf(again, f"/g/{game_id}")
    assert again.post(f"/g/{game_id}/undo", data=form).status_code == 303
    assert "That entry of hand 1 is undone already" in text(again.get(f"/g/{game_id}"))
    assert document(app, game_id)["hands"][0]["bids"] is None  # the bids undone once, and nothing more


def test_an_undo_after_another_phone_entered_again_is_not_taken_for_a_double_tap(
    app: Flask, client: FlaskClient
) -> None:
    """Another phone undid hand 1's tricks, this page was drawn, the other phone entered them again
    (a new entry, no correction): this page's undo was said to be "undone already"."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    token = client.get_cookie(f"sk_{game_id}")
    assert token is not None
    undo = {"csrf_token": csrf(client, f"/g/{game_id}"), "version": current_version(app, game_id), "number": 1}
    assert client.post(f"/g/{game_id}/undo", data=undo).status_code == 302  # the other phone undoes the tricks
    other = second_phone(app, client, game_id)  # this page's phone
    form = {"csrf_token": csrf(other, f"/g/{game_id}"), "version": current_version(app, game_id), "number": 1}
    bearer = {"Authorization": f"Bearer {token.value}"}
    entered = client.put(f"/api/games/{game_id}/hands/1/tricks", json={"tricks": [4, 4, 5]}, headers=bearer)
    assert entered.status_code == 200  # and enters them again
    assert other.post(f"/g/{game_id}/undo", data=form).status_code == 303
    page = text(other.get(f"/g/{game_id}"))
    said = "Another scorer saved a change first, so nothing was undone: check the scorecard and undo again if needed."
    assert said in page and "you had version" not in page and "undone already" not in page
    assert document(app, game_id)["hands"][0]["tricks"] == [4, 4, 5]


def test_a_scorer_without_script_is_told_once_what_another_phone_changed_of_the_game(
    app: Flask, client: FlaskClient
) -> None:
    """This phone (no script) recorded hand 1; another phone's queue then stored its own tricks over
    them (its scorer chose "Use this phone's"): this page showed the new figures without a word."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 4, 4])
    said = "Changed on another phone since you last saved here:"
    assert said not in text(client.get(f"/g/{game_id}"))  # its own entries are no news
    token = client.get_cookie(f"sk_{game_id}")
    assert token is not None
    bearer = {"Authorization": f"Bearer {token.value}"}
    changed = client.put(f"/api/games/{game_id}/hands/1/tricks", json={"tricks": [4, 5, 4]}, headers=bearer)
    assert changed.status_code == 200
    page = text(client.get(f"/g/{game_id}"))
    told = page[page.index(said) : page.index("</noscript>", page.index(said))]
    assert "Hand 1 · tricks: Ann 5 → 4, Ben 4 → 5." in told
    assert said not in text(client.get(f"/g/{game_id}"))  # told once
    other = second_phone(app, client, game_id)  # another browser of the scorer, which saved nothing here
    assert said not in text(other.get(f"/g/{game_id}"))


@pytest.mark.parametrize(
    ("trump", "button", "said"),
    [("H", "t1H", "with the trump, ♥"), ("none", "t1none", "with the trump, no trump")],
)
def test_undoing_the_bids_keeps_the_trump_chosen_and_says_so(
    app: Flask, client: FlaskClient, trump: str, button: str, said: str
) -> None:
    """Without JavaScript too: the trump goes with the bids it was recorded with, so the hand
    screen after the undo has it chosen again and the note says so (it is not cleared unsaid)."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    answer = post_hand(client, game_id, 1, "bids", [4, 5, 3], current_version(app, game_id), trump=trump)
    assert answer.status_code == 302, text(answer)
    answer = client.post(
        f"/g/{game_id}/undo",
        data={"csrf_token": csrf(client, f"/g/{game_id}"), "version": current_version(app, game_id), "number": 1},
    )
    page = text(client.get(answer.headers["Location"]))
    assert f"Undone: the bids of hand 1. They are still tapped below, {said}: change what was wrong and save." in page
    assert re.search(rf'id="{button}"[^>]*checked', page), "the trump button is chosen again"
    assert set(re.findall(r'id="(bid\d-\d+)"[^>]*checked', page)) == {"bid0-4", "bid1-5", "bid2-3"}
    assert document(app, game_id)["hands"][0]["bids"] is None and document(app, game_id)["hands"][0]["trump"] is None
    again = post_hand(client, game_id, 1, "bids", [4, 5, 3], current_version(app, game_id), trump=trump)
    assert again.status_code == 302
    assert document(app, game_id)["hands"][0]["trump"] == (None if trump == "none" else trump)


def test_undoing_bids_recorded_without_a_trump_says_nothing_of_one(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    post_hand(client, game_id, 1, "bids", [4, 5, 3], current_version(app, game_id))
    answer = client.post(
        f"/g/{game_id}/undo",
        data={"csrf_token": csrf(client, f"/g/{game_id}"), "version": current_version(app, game_id), "number": 1},
    )
    page = text(client.get(answer.headers["Location"]))
    assert "Undone: the bids of hand 1. They are still tapped below: change what was wrong and save." in page
    assert re.search(r'id="t1-"[^>]*checked', page), "not noted, as before"


# -- game over ---------------------------------------------------------------------------------
def game_ann_made_hand_by_hand(app: Flask, client: FlaskClient) -> str:
    """A finished game of Ann and Ben in which every hand Ann bid 1 and took every trick."""
    game_id = new_game(client, ["Ann", "Ben"])
    with app.app_context():
        schedule = games.rules_of(db.session.get(Game, game_id)).schedule
        for number, cards in enumerate(schedule, start=1):
            service.record_bids(game_id, number, [1, 1])
            service.record_tricks(game_id, number, [cards, 0])
    return game_id


def test_the_finished_game_shows_winners_standings_and_the_chart(app: Flask, client: FlaskClient) -> None:
    game_id = game_ann_made_hand_by_hand(app, client)
    page = text(client.get(f"/g/{game_id}"))
    assert "Game over · 25 hands" in page and "Ann" in page and "wins" in page
    assert '<svg class="chart"' in page and "<polyline" in page
    assert "made&nbsp;100%" in page  # Ann made every hand
    assert 'class="prow' not in page  # no hand form once the game is over
    assert "data-awake" not in page


@pytest.mark.parametrize(("lang", "made"), [("en", "made&nbsp;100%"), ("ru", "выполнено&nbsp;100\u202f%")])
def test_the_final_standings_write_rates_as_the_language_does(
    app: Flask, client: FlaskClient, lang: str, made: str
) -> None:
    """The same made rate reads the same on the game's page as on the group's pages and in print."""
    game_id = game_ann_made_hand_by_hand(app, client)
    assert made in text(client.get(f"/g/{game_id}?lang={lang}"))


def test_a_watcher_follows_the_score_curve_during_the_game(app: Flask) -> None:
    """The curve came only once the game was over (UX.md lists it with the standings). The watch
    page has it after each hand, live too; the scorer's hand screen leaves it out (its first load)."""
    creator = app.test_client()
    made = creator.post("/api/games", json={"players": ["Ann", "Ben", "Cy"]}).get_json()
    scorer = {"Authorization": f"Bearer {made['scorer_token']}"}
    for number, (bids, tricks) in enumerate([([4, 5, 3], [5, 3, 5]), ([2, 6, 4], [2, 7, 3])], start=1):
        creator.put(f"/api/games/{made['id']}/hands/{number}/bids", json={"bids": bids}, headers=scorer)
        creator.put(f"/api/games/{made['id']}/hands/{number}/tricks", json={"tricks": tricks}, headers=scorer)
    watcher, scoring = app.test_client(), app.test_client()
    watcher.set_cookie(f"sk_{made['id']}", made["watch_token"])
    scoring.set_cookie(f"sk_{made['id']}", made["scorer_token"])
    watching = text(watcher.get(f"/g/{made['id']}"))
    assert "Score progression" in watching and watching.count("<polyline") == 3
    live = text(watcher.get(f"/g/{made['id']}?since=1", headers={"HX-Request": "true"}))
    assert "Score progression" in live and live.count("<polyline") == 3
    assert "Score progression" not in text(scoring.get(f"/g/{made['id']}"))


def test_the_chart_is_drawn_on_the_server_from_the_scorecard() -> None:
    from scorekeeper.charts import progression
    from scorekeeper.engine import build_scorecard
    from scorekeeper.engine import HandRecord
    from scorekeeper.engine import Rules

    card = build_scorecard(Rules(3), 0, [HandRecord((4, 5, 3), (5, 3, 5)), HandRecord((2, 6, 4), (2, 7, 3))])
    svg = str(progression(["<b>Ann</b>", "Ben", "Cy"], card))
    assert svg.startswith('<svg class="chart"') and svg.count("<polyline") == 3
    assert "&lt;b&gt;Ann&lt;/b&gt;" in svg and "<b>Ann" not in svg
    assert str(progression(["A", "B", "C"], build_scorecard(Rules(3), 0, []))) == ""


def test_the_game_page_links_to_the_print_and_export_files_this_cookie_opens(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    page = text(client.get(f"/g/{game_id}"))
    csv_link = re.search(r'href="(/api/games/[^"]+/export\.csv\?bom=1)"', page).group(1)
    assert f"/api/games/{game_id}/scorecard.pdf?style=creative" in page
    answer = client.get(csv_link)
    assert answer.status_code == 200 and "Ann" in text(answer)


def test_the_qr_codes_keep_the_quiet_zone_of_four_modules_a_camera_needs(client: FlaskClient) -> None:
    """Two modules of white, then in dark mode the dark page: below what the QR standard asks for."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    page = client.get(f"/g/{game_id}/share").get_data(as_text=True)
    codes = re.findall(r'<path fill="#fff" d="M0 0h(\d+)v\1h-\1z"/><path class="qrline" stroke="#000" d="M(\d+) ', page)
    assert codes and all(start == "4" for _, start in codes)  # the first finder pattern starts 4 modules in
    assert all((int(side) - 8 - 17) % 4 == 0 for side, _ in codes)  # a whole QR version (21, 25, …) and 2 × 4
