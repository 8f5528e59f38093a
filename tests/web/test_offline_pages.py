"""What the offline scorer relies on from the server: the page's cookie (with its CSRF token) for
the API, the game's state on the page, one-button corrections, and "Forget" with an undo."""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .pages_kit import csrf
from .pages_kit import current_version
from .pages_kit import document
from .pages_kit import new_game
from .pages_kit import play
from .pages_kit import second_phone
from .pages_kit import text


def offline_json(client: FlaskClient, game_id: str, element: str) -> dict[str, object]:
    found = re.search(
        rf'<script type="application/json" id="{element}">(.*?)</script>', text(client.get(f"/g/{game_id}")), re.S
    )
    assert found, element
    return json.loads(found.group(1))


# -- the API with the page's cookie ---------------------------------------------------------------
def test_the_scorer_page_writes_through_the_api_with_its_cookie_and_csrf_token(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    token = csrf(client, f"/g/{game_id}")
    answer = client.put(
        f"/api/games/{game_id}/hands/1/bids",
        json={"bids": [4, 5, 3], "trump": "S", "version": 1},
        headers={"X-CSRFToken": token},
    )
    assert answer.status_code == 200
    assert answer.get_json()["hands"][0]["bids"] == [4, 5, 3]
    again = client.put(
        f"/api/games/{game_id}/hands/1/bids",
        json={"bids": [4, 5, 3], "trump": "S", "version": 1},
        headers={"X-CSRFToken": token},
    )
    assert again.status_code == 409 and document(app, game_id)["version"] == 2  # a resent entry is stored once


def test_a_cookie_write_without_the_pages_csrf_token_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    answer = client.put(f"/api/games/{game_id}/hands/1/bids", json={"bids": [4, 5, 3]})
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == "bad_request"
    assert answer.headers["X-Bluke-CSRF"] == "refused"  # the queue renews its token for this 400 only
    assert document(app, game_id)["hands"][0]["bids"] is None
    token = {"X-CSRFToken": csrf(client, f"/g/{game_id}")}
    other = client.put(f"/api/games/{game_id}/hands/1/bids", json={"bids": "4 5 3"}, headers=token)  # malformed
    assert other.status_code == 400 and "X-Bluke-CSRF" not in other.headers


def test_a_watchers_cookie_reads_the_api_but_cannot_write(app: Flask, client: FlaskClient) -> None:
    created = client.post("/api/games", json={"players": ["Ann", "Ben"]}).get_json()
    watcher = app.test_client()
    watcher.get(created["watch_url"])
    assert watcher.get(f"/api/games/{created['id']}").status_code == 200
    token = csrf(watcher, "/")
    answer = watcher.put(
        f"/api/games/{created['id']}/hands/1/bids", json={"bids": [1, 1]}, headers={"X-CSRFToken": token}
    )
    assert answer.status_code == 403


# -- what the page carries for offline use ------------------------------------------------------------
def test_the_scorer_page_carries_the_game_and_the_words_the_script_shows(client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    state = offline_json(client, game_id, "offline-game")
    assert state["id"] == game_id and state["players"] == ["Ann", "Ben", "Cy"] and state["version"] == 1
    assert state["hands"][0] == {
        "number": 1,
        "cards": 13,
        "dealer": 0,
        "trump": "",  # as the trump buttons name it: not noted
        "bids": None,
        "tricks": None,
    }
    # buttons per line for a row of k buttons: 13 bids or 14 tricks make two lines of 7
    assert state["columns"] == [0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 5, 6, 6, 7, 7]
    words = offline_json(client, game_id, "offline-words")
    assert words["waiting"] == {"one": "Offline — {n} entry waiting", "other": "Offline — {n} entries waiting"}
    assert words["unanswered"] == {
        "one": "Server not answering — {n} entry waiting",
        "other": "Server not answering — {n} entries waiting",
    }
    assert words["all_sent"] == "All sent"
    assert 'data-queue="1"' in text(client.get(f"/g/{game_id}"))


def test_the_offline_words_are_in_the_pages_language(client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    client.get("/?lang=ru")
    words = offline_json(client, game_id, "offline-words")
    assert set(words["waiting"]) == {"one", "few", "many", "other"}  # Russian's three, and "other" for old browsers
    assert words["waiting"]["other"] == words["waiting"]["many"]
    assert all("{n}" in form for form in words["waiting"].values())
    assert words["all_sent"] != "All sent"
    assert "{total}" in words["tricks_total"] and not words["tricks_total"].startswith("Tricks add up")


def test_a_refused_entrys_sentences_come_when_asked_not_with_every_page(client: FlaskClient) -> None:
    """The scorer's page is loaded at every save; the box of a refused entry is rare (static/queue-rare.js)."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    assert "keep_server" not in offline_json(client, game_id, "offline-words")
    answer = client.get("/offline/words?lang=it")
    rare = answer.get_json()
    assert answer.headers["Cache-Control"] == "no-cache"
    assert rare["keep_server"] != "Keep the server's" and rare["trump"]["S"].endswith("♠")
    assert set(rare["trump"]) == {"S", "H", "D", "C", "none", ""}
    assert client.get("/offline/words?lang=en").get_json()["use_phone"] == "Use this phone's"


def prototype(page: str, step: str) -> str:
    found = re.search(rf'<template id="proto-{step}">(.*?)</template>', page, re.S)
    assert found, step
    return found.group(1)


def test_the_phone_copies_the_hand_step_the_server_draws(client: FlaskClient) -> None:
    """One source of markup: the next step drawn without a connection is _hand.html itself, drawn
    with marks where the phone's values go (static/queue.js fills them)."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    page = text(client.get(f"/g/{game_id}"))
    bids, tricks = prototype(page, "bids"), prototype(page, "tricks")
    for proto, step in ((bids, "bids"), (tricks, "tricks")):
        assert proto.count("<form") == 1 and f'action="/g/{game_id}/hands/{{number}}/{step}"' in proto
        assert 'data-queue="1"' in proto and 'name="version" value="{version}"' in proto
        assert "Hand {number}" in proto and "<b>{dealer}</b> deals" in proto and "<b>{first}</b> bids first" in proto
        kind = "bid" if step == "bids" else "tricks"
        assert proto.count('class="prow"') == 1  # one player's row, copied for each player
        assert f'class="name" id="{kind}{{seat}}-who">{{name}}<' in proto
    assert 'id="bid{seat}-1"' in bids and 'id="bid{seat}-13"' in bids and 'id="bid{seat}-0"' not in bids  # no zero bids
    assert 'class="trumps"' in bids and 'class="hand-meta no-turn-up"' in bids  # the phone keeps one
    assert 'id="tricks{seat}-0"' in tricks and 'id="tricks{seat}-13"' in tricks and "bid {bid}" in tricks
    assert "Record hand {number}" in tricks and f'href="/g/{game_id}/hands/{{number}}"' in tricks
    notes = re.search(r'<template id="trump-notes">(.*?)</template>', page, re.S)
    assert notes and [key for key in re.findall(r'data-trump="([^"]*)"', notes.group(1))] == [
        "S",
        "H",
        "D",
        "C",
        "none",
        "",
        "dealt",
    ]
    # the page's own step is the same template with the values in place
    assert f'action="/g/{game_id}/hands/1/bids"' in page and "<b>Ann</b> deals" in page


def test_a_watcher_gets_no_queue(app: Flask, client: FlaskClient) -> None:
    created = client.post("/api/games", json={"players": ["Ann", "Ben"]}).get_json()
    watcher = app.test_client()
    watcher.get(created["watch_url"])
    page = text(watcher.get(f"/g/{created['id']}"))
    assert "offline-game" not in page and "queue.js" not in page


# -- the correction page: one button --------------------------------------------------------------
def save_hand(
    client: FlaskClient,
    app: Flask,
    game_id: str,
    number: int,
    bids: list[int | None],
    tricks: list[int | None],
    trump: str = "",
    version: int | None = None,
) -> object:
    data = {
        "csrf_token": csrf(client, f"/g/{game_id}/hands/{number}"),
        "version": str(current_version(app, game_id) if version is None else version),
        "trump": trump,
    }
    data |= {f"bid_{s}": str(v) for s, v in enumerate(bids) if v is not None}
    data |= {f"tricks_{s}": str(v) for s, v in enumerate(tricks) if v is not None}
    return client.post(f"/g/{game_id}/hands/{number}", data=data)


def test_the_correction_page_has_one_form_and_one_button(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    page = text(client.get(f"/g/{game_id}/hands/1"))
    assert page.count("<form") == 1 and page.count('type="submit"') == 1
    assert f'action="/g/{game_id}/hands/1"' in page and "Save hand 1" in page


def test_a_correction_saves_bids_and_tricks_together(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    answer = save_hand(client, app, game_id, 1, [3, 5, 3], [4, 4, 5], "H")
    assert answer.status_code == 302  # type: ignore[attr-defined]
    hand = document(app, game_id)["hands"][0]
    assert (hand["bids"], hand["tricks"], hand["trump"]) == ([3, 5, 3], [4, 4, 5], "H")
    assert document(app, game_id)["version"] == 4  # one write for the whole hand
    assert "Hand 1 corrected" in text(client.get(f"/g/{game_id}"))


@pytest.mark.parametrize(
    "bids, tricks, message",
    [
        ([3, 5, 3], [6, 3, 5], "Tricks add up to 14, but 13 cards were dealt in hand 1 (R23)."),
        ([14, 5, 3], [5, 3, 5], "Ann bid 14, but only 13 cards were dealt in hand 1 (R22)."),
        ([3, 5, 3], [None, None, 5], "Tap a number of tricks taken for Ben."),  # one blank is filled (R23)
    ],
)
def test_a_refused_correction_stores_nothing_and_says_why(
    app: Flask, client: FlaskClient, bids: list[int], tricks: list[int | None], message: str
) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    before = document(app, game_id)
    answer = save_hand(client, app, game_id, 1, bids, tricks)
    assert answer.status_code == 422  # type: ignore[attr-defined]
    assert message in text(answer)  # type: ignore[arg-type]
    assert document(app, game_id) == before


@pytest.mark.parametrize(("trump", "checked"), [("", "t1-"), ("none", "t1none"), ("H", "t1H")])
def test_a_refused_correction_keeps_the_trump_tapped(app: Flask, client: FlaskClient, trump: str, checked: str) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    page = text(save_hand(client, app, game_id, 1, [3, 5, 3], [6, 3, 5], trump))  # type: ignore[arg-type]
    assert re.findall(r'name="trump" id="(t1[^"]*)" value="[^"]*" checked', page) == [checked]


def test_a_correction_says_later_totals_change_only_when_there_are_later_hands(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    save_hand(client, app, game_id, 1, [3, 5, 3], [4, 4, 5])
    assert "Hand 1 corrected." in text(client.get(f"/g/{game_id}"))
    play(client, app, game_id, 2, [2, 6, 4], [2, 7, 3])
    save_hand(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    assert "Hand 1 corrected; every later total is recomputed." in text(client.get(f"/g/{game_id}"))
    save_hand(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])  # saved unchanged: nothing was corrected
    assert "corrected" not in text(client.get(f"/g/{game_id}"))
    save_hand(client, app, game_id, 3, [1, 1, 1], [4, 4, 3])  # the hand screen's first entry, from this page
    assert "corrected" not in text(client.get(f"/g/{game_id}"))


def test_a_refused_correction_says_why_in_the_players_language(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    client.get("/?lang=ru")
    answer = save_hand(client, app, game_id, 1, [3, 5, 3], [6, 3, 5])
    assert answer.status_code == 422  # type: ignore[attr-defined]
    assert "Взяток в сумме 14, а в раздаче 1 сдано карт: 13 (R23)." in text(answer)  # type: ignore[arg-type]


def test_tricks_another_phone_recorded_after_the_page_was_drawn_are_shown_not_overwritten(
    app: Flask, client: FlaskClient
) -> None:
    """The bids corrected on a page drawn before the tricks existed: the save said "tap a number of
    tricks for Ann" over empty rows, and tricks then tapped replaced the other phone's unseen."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    drawn = current_version(app, game_id)
    token = client.get_cookie(f"sk_{game_id}")
    assert token is not None
    bearer = {"Authorization": f"Bearer {token.value}"}
    assert client.put(f"/api/games/{game_id}/hands/1/bids", json={"bids": [4, 5, 3]}, headers=bearer).status_code == 200
    page_version = current_version(app, game_id)
    assert page_version > drawn
    assert "The bids are saved, and the tricks with them" in text(client.get(f"/g/{game_id}/hands/1"))
    assert (
        client.put(f"/api/games/{game_id}/hands/1/tricks", json={"tricks": [5, 3, 5]}, headers=bearer).status_code
        == 200
    )
    before = document(app, game_id)
    answer = save_hand(client, app, game_id, 1, [3, 5, 3], [None, None, None], version=page_version)
    page = text(answer)  # type: ignore[arg-type]
    assert answer.status_code == 409  # type: ignore[attr-defined]
    assert "the tricks Ann 5 · Ben 3 · Cy 5" in page
    assert set(re.findall(r'id="(tricks\d-\d+)"[^>]*checked', page)) == {"tricks0-5", "tricks1-3", "tricks2-5"}
    assert set(re.findall(r'id="(bid\d-\d+)"[^>]*checked', page)) == {"bid0-3", "bid1-5", "bid2-3"}  # the taps kept
    assert document(app, game_id) == before
    assert save_hand(client, app, game_id, 1, [3, 5, 3], [5, 3, 5]).status_code == 302  # type: ignore[attr-defined]
    assert document(app, game_id)["hands"][0]["tricks"] == [5, 3, 5]
    assert "Bids and tricks are saved together." in text(client.get(f"/g/{game_id}/hands/1"))


def test_a_correction_refused_as_out_of_date_keeps_the_taps_to_save_again(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    stale = current_version(app, game_id)
    play(second_phone(app, client, game_id), app, game_id, 2, [2, 6, 4], [2, 7, 3])  # another scorer, meanwhile
    before = document(app, game_id)
    answer = save_hand(client, app, game_id, 1, [3, 5, 3], [4, 4, 5], "H", version=stale)
    assert answer.status_code == 409  # type: ignore[attr-defined]
    page = text(answer)  # type: ignore[arg-type]
    assert (
        "Another scorer saved a change first. Hand 1 now holds the bids Ann 4 · Ben 5 · Cy 3 and the tricks Ann 5 · "
        "Ben 3 · Cy 5." in page
    )
    assert document(app, game_id) == before  # nothing stored
    checked = set(re.findall(r'id="((?:bid|tricks)\d-\d+)"[^>]*checked', page))
    assert {"bid0-3", "bid1-5", "bid2-3", "tricks0-4", "tricks1-4", "tricks2-5"} <= checked  # the taps, kept
    assert re.findall(r'name="version" type="hidden" value="(\d+)"', page) == [str(before["version"])]  # the new one
    answer = save_hand(client, app, game_id, 1, [3, 5, 3], [4, 4, 5], "H")  # checked, saved again
    assert answer.status_code == 302  # type: ignore[attr-defined]
    assert document(app, game_id)["hands"][0]["tricks"] == [4, 4, 5]


def test_a_correction_page_this_phone_moved_on_from_keeps_its_taps_and_blames_nobody(
    app: Flask, client: FlaskClient
) -> None:
    """A correction saved, then Back and saved again with another tap: the taps were kept, but the
    page said another scorer had saved first, with one phone at the table."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    drawn = current_version(app, game_id)
    assert save_hand(client, app, game_id, 1, [4, 4, 3], [5, 3, 5], version=drawn).status_code == 302  # type: ignore[attr-defined]
    before = document(app, game_id)
    answer = save_hand(client, app, game_id, 1, [3, 4, 3], [5, 3, 5], version=drawn)  # the same page, sent again
    page = text(answer)  # type: ignore[arg-type]
    assert answer.status_code == 409  # type: ignore[attr-defined]
    assert (
        "This page is older than what you saved since on this phone. Hand 1 now holds the bids Ann 4 · Ben 4 · Cy 3 "
        "and the tricks Ann 5 · Ben 3 · Cy 5." in page
    )
    assert "Another scorer" not in page and document(app, game_id) == before
    assert {"bid0-3", "bid1-4", "bid2-3"} <= set(re.findall(r'id="(bid\d-\d+)"[^>]*checked', page))  # the taps, kept


def test_a_correction_sent_twice_lands_on_the_game_even_without_the_first_answer(
    app: Flask, client: FlaskClient
) -> None:
    """A double tap on "Save hand 1" whose first answer (and the session cookie it set) was lost:
    the second send said another scorer had saved first, with this scorer's own taps as theirs."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    drawn = current_version(app, game_id)
    assert save_hand(client, app, game_id, 1, [4, 6, 3], [5, 3, 5], version=drawn).status_code == 302  # type: ignore[attr-defined]
    before = document(app, game_id)
    again = save_hand(second_phone(app, client, game_id), app, game_id, 1, [4, 6, 3], [5, 3, 5], version=drawn)
    assert again.status_code == 302 and again.headers["Location"] == f"/g/{game_id}"  # type: ignore[attr-defined]
    assert document(app, game_id) == before


def test_the_bids_of_the_hand_being_played_can_be_corrected_alone(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    client.post(
        f"/g/{game_id}/hands/2/bids",
        data={
            "csrf_token": csrf(client, f"/g/{game_id}"),
            "version": str(current_version(app, game_id)),
            "bid_0": "2",
            "bid_1": "6",
            "bid_2": "4",
        },
    )
    answer = save_hand(client, app, game_id, 2, [2, 6, 3], [None, None, None])
    assert answer.status_code == 302  # type: ignore[attr-defined]
    hand = document(app, game_id)["hands"][1]
    assert hand["bids"] == [2, 6, 3] and hand["tricks"] is None


# -- "Forget this game": asks, warns, can be undone -----------------------------------------------
def test_forget_asks_first_and_warns_a_scorer(client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    home = text(client.get("/"))
    assert '<details class="forget">' in home
    assert "nobody can change the game once it is forgotten here: the link cannot be got back" in home
    assert f'action="/g/{game_id}/forget"' in home


def test_a_forgotten_game_comes_back_with_undo(client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    client.post(f"/g/{game_id}/forget", data={"csrf_token": csrf(client, "/")})
    assert client.get(f"/g/{game_id}").status_code == 404
    answer = client.post(f"/g/{game_id}/forget/undo", data={"csrf_token": csrf(client, "/")})
    assert answer.status_code == 302
    assert 'class="hand bids"' in text(client.get(f"/g/{game_id}"))  # a scorer again
    assert "Forgotten on this phone" not in text(client.get("/"))
    assert client.get(f"/g/{game_id}/share").status_code == 200


def test_undo_after_the_undo_time_finds_nothing(client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    client.post(f"/g/{game_id}/forget", data={"csrf_token": csrf(client, "/")})
    client.delete_cookie(f"skf_{game_id}")  # what the browser does when the cookie's ten minutes are up
    answer = client.post(f"/g/{game_id}/forget/undo", data={"csrf_token": csrf(client)})
    assert answer.status_code == 404
