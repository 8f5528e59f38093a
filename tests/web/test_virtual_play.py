"""Following and running a virtual table from the pages: lobby, the table view, tap to pick,
the host dealing from their own seat, rematch, the way back from home and the scorecard, and the
marks on the scorecard and PDF of a game played with bots."""

from __future__ import annotations

import random
import re
import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import VirtualTable

from .export_kit import page_texts
from .virtual_support import api_view
from .virtual_support import auth  # noqa: F401 (a fixture)
from .virtual_support import create  # noqa: F401 (a fixture)
from .virtual_support import finish
from .virtual_support import patient_bots  # noqa: F401 (a fixture)
from .virtual_support import seats  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("patient_bots")

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf(client: FlaskClient, url: str = "/t/new") -> str:
    found = CSRF.search(client.get(url).get_data(as_text=True))
    assert found
    return found.group(1)


def text(answer: Any) -> str:
    return str(answer.get_data(as_text=True))


def phone(app: Flask, url: str) -> FlaskClient:
    """A phone that opened a seat's link: its page, with the link's cookie."""
    client = app.test_client()
    assert client.get(url.replace("http://localhost", ""), follow_redirects=True).status_code == 200
    return client


def test_the_lobby_shows_who_has_joined_and_the_rules_and_a_playing_host_deals_from_their_seat(app: Flask) -> None:
    client = app.test_client()
    token = csrf(client)
    made = client.post(
        "/t/new",
        data={
            "csrf_token": token,
            "count": "3",
            "name-0": "Ann",
            "bot-0": "",
            "name-1": "Ben",
            "bot-1": "",
            "name-2": "Robo",
            "bot-2": "basic",
            "variant": "new-jersey",
            "zero_bids": "on",
            "first_dealer": "2",
        },
    )
    assert made.status_code == 303 and made.headers["Location"].endswith("/host")
    table = made.headers["Location"].split("/")[-2]
    host_page = text(client.get(f"/t/{table}/host"))
    assert "New Jersey (R18), bids of 0 allowed (R13); 25 hands." in host_page
    ann_link = re.search(r'value="(http://localhost/t/\w+/join/[\w-]+)" aria-label="Ann', host_page)
    assert ann_link
    assert client.get(ann_link.group(1).replace("http://localhost", "")).status_code == 302  # the host plays Ann
    lobby = text(client.get(f"/t/{table}"))
    assert "Before the first deal" in lobby and "New Jersey (R18)" in lobby
    assert re.search(r'Ann</span>\s*<span class="vt-tag vt-you">you</span>\s*<span class="vt-tag vt-here">here', lobby)
    assert re.search(r"Ben</span>\s*<span class=\"vt-tag vt-away\">not joined", lobby)
    assert "Deal the first hand" in lobby  # this browser is the host too
    dealt = client.post(f"/t/{table}/start", data={"csrf_token": csrf(client, f"/t/{table}"), "back": "seat"})
    assert dealt.status_code == 303 and dealt.headers["Location"].endswith(f"/t/{table}")
    assert 'class="vt-table' in text(client.get(f"/t/{table}"))
    ben = app.test_client()
    ben.set_cookie(f"vt_{table}", "not a token")
    assert ben.get(f"/t/{table}").status_code == 404


def test_a_link_fetched_for_a_chat_apps_preview_is_nobody_joining(app: Flask, client: FlaskClient) -> None:
    """A chat app fetches a link sent to Ben for its preview: that marked Ben joined, and the host
    page stopped showing his link and QR code before he had opened it. A seat is joined once its
    page opens with the link's cookie."""
    created = create(client, seats("Ann", "Ben", "bot"), start=False, seed=5)
    table, host, ben_url = created["id"], created["host_token"], created["seats"][1]["url"]
    preview = app.test_client(use_cookies=False)
    fetched = preview.get(ben_url.replace("http://localhost", ""), follow_redirects=True)
    assert fetched.status_code == 404  # the seat's page without the cookie: nothing of the seat either
    hosted = api_view(client, table, host)
    assert [p["joined"] for p in hosted["players"]] == [False, False, False]
    assert [link["seat"] for link in hosted["links"]] == [0, 1]
    ben = phone(app, ben_url)
    assert "Before the first deal" in text(ben.get(f"/t/{table}"))
    assert [p["joined"] for p in api_view(client, table, host)["players"]] == [False, True, False]


def test_the_table_view_shows_each_seat_around_the_table(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "bot", "bot", "bot"), seed=7, first_dealer=3)
    ann = phone(app, created["seats"][0]["url"])
    page = text(ann.get(f"/t/{created['id']}"))
    spots = re.findall(r'class="vt-spot vt-at-(\w+)[^"]*" data-seat="(\d)" data-name="([^"]+)"', page)
    assert spots == [("b", "0", "You"), ("l", "1", "Robo1"), ("t", "2", "Robo2"), ("r", "3", "Robo3")]
    v = api_view(client, created["id"], created["seats"][0]["token"])
    assert v["your_turn"] and v["phase"] == "bidding"
    dealer = re.search(r'data-seat="3".*?</div>', page, re.S)
    assert dealer and 'title="Dealer">dealer</span>' in dealer.group(0)
    # Ann bids; the bots bid and Ann leads: the middle of the table says so in full
    table = created["id"]
    ann.post(f"/t/{table}/bid", data={"csrf_token": csrf(ann, f"/t/{table}"), "bid": str(v["legal"][0])})
    page = text(ann.get(f"/t/{created['id']}"))
    assert "Trick 1 of 13: You lead" in page
    assert re.search(r"bid \d+ · took 0 · needs \d+", page)


def test_fifteen_seats_are_a_compact_list(app: Flask, client: FlaskClient) -> None:
    created = create(client, [{"name": "Ann"}] + [{"name": f"B{i}", "bot": "random"} for i in range(14)], seed=2)
    page = text(phone(app, created["seats"][0]["url"]).get(f"/t/{created['id']}"))
    assert "vt-table vt-compact" in page and page.count("vt-at-list") == 15


def test_tap_to_pick_then_tap_again_to_play_works_without_script(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "bot", "bot"), seed=3, first_dealer=2)
    table, token = created["id"], created["seats"][0]["token"]
    ann = phone(app, created["seats"][0]["url"])
    saved = ann.post(f"/t/{table}/settings", data={"csrf_token": csrf(ann, f"/t/{table}"), "confirm": "on"})
    assert saved.status_code == 303
    v = api_view(client, table, token)
    assert v["confirm_play"]
    ann.post(f"/t/{table}/bid", data={"csrf_token": csrf(ann, f"/t/{table}"), "bid": str(v["legal"][0])})
    v = api_view(client, table, token)
    assert v["your_turn"] and v["phase"] == "playing"
    card = v["legal"][0]
    page = text(ann.get(f"/t/{table}"))
    assert f'name="pick" value="{card}"' in page and "tap a card to pick it" in page
    picked = ann.post(f"/t/{table}/play", data={"csrf_token": csrf(ann, f"/t/{table}"), "pick": card})
    assert picked.status_code == 200
    assert f'name="card" value="{card}" class="vt-card vt-legal vt-picked"' in text(picked)
    assert api_view(client, table, token)["version"] == v["version"]  # picking plays nothing
    played = ann.post(f"/t/{table}/play", data={"csrf_token": csrf(ann, f"/t/{table}"), "card": card})
    assert played.status_code == 303
    assert card not in api_view(client, table, token)["hand"]


def test_a_stale_tap_says_what_happened_without_version_numbers(client: FlaskClient) -> None:
    created = create(client, seats("Ann", "bot"), seed=3)
    v = created["view"]
    refused = client.post(
        f"/api/tables/{created['id']}/bid",
        json={"bid": 1, "version": v["version"] - 1},
        headers=auth(created["seats"][0]["token"]),
    )
    message = refused.get_json()["error"]["message"]
    assert refused.status_code == 409 and "moved on before your tap" in message and "version" not in message


def test_a_rematch_seats_everyone_again(app: Flask, client: FlaskClient) -> None:
    spec = [{"name": "Ann"}, {"name": "Ben"}] + [{"name": f"B{i}", "bot": "random"} for i in range(12)]
    created = create(client, spec, seed=9)  # 14 players: 5 hands of 3, 2, 1, 2, 3 cards
    table, host = created["id"], created["host_token"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    early = client.post(f"/api/tables/{table}/rematch", headers=auth(host))
    assert early.status_code == 409
    end = finish(client, table, tokens)
    assert end["winners"]
    again = client.post(f"/api/tables/{table}/rematch", headers=auth(host))
    assert again.status_code == 201
    new = again.get_json()
    assert [p["name"] for p in new["view"]["players"]] == [s["name"] for s in spec]
    assert [p["bot"] for p in new["view"]["players"]] == [s.get("bot") for s in spec]
    assert new["view"]["first_dealer"] == (end["first_dealer"] + 1) % 14  # the deal moves left (R5)
    assert new["view"]["phase"] == "lobby"  # two people: the host deals when both are there
    asked_again = client.post(f"/api/tables/{table}/rematch", headers=auth(host))  # the first answer was lost
    assert asked_again.status_code == 200
    same = asked_again.get_json()
    assert (same["id"], same["host_token"], same["seats"]) == (new["id"], new["host_token"], new["seats"])
    # Ben follows from his finished screen: the same seat, a fresh link of his own
    ben = phone(app, created["seats"][1]["url"])
    finished = text(ben.get(f"/t/{table}"))
    assert "Join the rematch" in finished
    moved = ben.post(f"/t/{table}/rematch/seat", data={"csrf_token": csrf(ben, f"/t/{table}")})
    assert moved.status_code == 303 and moved.headers["Location"].endswith(f"/t/{new['id']}")
    assert "Before the first deal" in text(ben.get(f"/t/{new['id']}"))
    hosted = api_view(client, new["id"], new["host_token"])
    assert [p["joined"] for p in hosted["players"][:2]] == [False, True]
    assert [link["seat"] for link in hosted["links"]] == [0]  # Ben's seat is taken: no link to hand out
    # Ann through the API
    ann = client.post(f"/api/tables/{table}/rematch/seat", headers=auth(tokens[0])).get_json()
    assert ann["id"] == new["id"] and ann["seat"] == 0 and api_view(client, new["id"], ann["token"])["name"] == "Ann"


def test_a_seats_two_phones_both_follow_the_rematch_with_one_link(app: Flask, client: FlaskClient) -> None:
    """Ann's phone and tablet hold her seat's link. Each following the rematch gave her seat a new
    link and revoked the other's: the phone that followed first was told its link no longer works,
    mid-game. Both phones (and a resend of a follow whose answer was lost) get the same link."""
    table, host, tokens = _finished_for_rematch(client)
    rematch = client.post(f"/api/tables/{table}/rematch", headers=auth(host)).get_json()
    ann_phone, ann_tablet = (phone(app, f"/t/{table}/join/{tokens[0]}") for _ in range(2))
    moved = ann_phone.post(f"/t/{table}/rematch/seat", data={"csrf_token": csrf(ann_phone, f"/t/{table}")})
    assert moved.status_code == 303 and moved.headers["Location"].endswith(f"/t/{rematch['id']}")
    also = ann_tablet.post(f"/t/{table}/rematch/seat", data={"csrf_token": csrf(ann_tablet, f"/t/{table}")})
    assert also.status_code == 303 and also.headers["Location"] == moved.headers["Location"]
    for device in (ann_phone, ann_tablet):
        assert "Before the first deal" in text(device.get(f"/t/{rematch['id']}"))
    by_api = [client.post(f"/api/tables/{table}/rematch/seat", headers=auth(tokens[0])) for _ in range(2)]
    assert [a.status_code for a in by_api] == [200, 200]
    link = by_api[0].get_json()["token"]
    assert by_api[1].get_json()["token"] == link and api_view(client, rematch["id"], link)["name"] == "Ann"
    assert ann_phone.get(f"/t/{rematch['id']}").status_code == 200
    # once the rematch's host gives the seat a new link, the old table's link follows no more
    client.post(f"/api/tables/{rematch['id']}/seats/0/link", headers=auth(rematch["host_token"]))
    refused = client.post(f"/api/tables/{table}/rematch/seat", headers=auth(tokens[0]))
    assert refused.status_code == 403 and ann_phone.get(f"/t/{rematch['id']}").status_code == 403


def test_a_player_whose_seat_a_bot_finished_joins_the_rematch_from_the_finished_screen(
    app: Flask, client: FlaskClient
) -> None:
    """Ben's screen said "each player joins it from their own screen" and offered nothing: his seat was
    the bot's at the end (the host gave it one while he was away), though his link may follow."""
    spec = [{"name": "Ann"}, {"name": "Ben"}] + [{"name": f"B{i}", "bot": "random"} for i in range(12)]
    created = create(client, spec, seed=9)
    table, host = created["id"], auth(created["host_token"])
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    ben = phone(app, created["seats"][1]["url"])
    assert client.put(f"/api/tables/{table}/seats/1", json={"bot": "basic"}, headers=host).status_code == 200
    finish(client, table, {0: tokens[0]})
    rematch = client.post(f"/api/tables/{table}/rematch", headers=host).get_json()
    finished = text(ben.get(f"/t/{table}"))
    assert "Join the rematch" in finished
    moved = ben.post(f"/t/{table}/rematch/seat", data={"csrf_token": csrf(ben, f"/t/{table}")})
    assert moved.status_code == 303 and moved.headers["Location"].endswith(f"/t/{rematch['id']}")
    seated = api_view(client, rematch["id"], rematch["host_token"])["players"][1]
    assert seated["name"] == "Ben" and seated["bot"] == "basic"  # the host hands it back when Ben is ready


@pytest.mark.parametrize(
    ("link", "said"),
    [
        ("newer", "The rematch's host has given this seat a newer link: ask the host for it."),
        ("first", "This seat at the rematch has been opened with the link its host gave out: ask the host."),
    ],
)
def test_a_seat_the_rematch_host_has_given_a_new_link_cannot_be_taken_back_from_the_old_table(
    client: FlaskClient, link: str, said: str
) -> None:
    """Ben left; the rematch's host gave his seat to Dan: a newer link, or the one the rematch came
    with. Ben's finished link must not take it (and Dan's cards) back mid-hand: it is refused (not
    "this link no longer works"), and Dan's link goes on working."""
    spec = [{"name": "Ann"}, {"name": "Ben"}] + [{"name": f"B{i}", "bot": "random"} for i in range(12)]
    created = create(client, spec, seed=9)
    table, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    finish(client, table, tokens)
    rematch = client.post(f"/api/tables/{table}/rematch", headers=auth(created["host_token"])).get_json()
    new, host = rematch["id"], auth(rematch["host_token"])
    if link == "newer":
        dan = client.post(f"/api/tables/{new}/seats/1/link", headers=host).get_json()["token"]
    else:
        dan = next(s["token"] for s in rematch["seats"] if s["seat"] == 1)
    assert client.post(f"/api/tables/{new}/start", headers=host).status_code == 200
    hand = api_view(client, new, dan)["hand"]
    refused = client.post(f"/api/tables/{table}/rematch/seat", headers=auth(tokens[1]))
    assert refused.status_code == 403 and refused.get_json()["error"]["message"] == said
    assert api_view(client, new, dan)["hand"] == hand  # still Dan's seat
    ann = client.post(f"/api/tables/{table}/rematch/seat", headers=auth(tokens[0]))  # a seat the host left alone
    assert ann.status_code == 200 and ann.get_json()["seat"] == 0


def _finished_for_rematch(client: FlaskClient) -> tuple[str, str, dict[int, str]]:
    spec = [{"name": "Ann"}, {"name": "Ben"}] + [{"name": f"B{i}", "bot": "random"} for i in range(12)]
    created = create(client, spec, seed=9)
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    finish(client, created["id"], tokens)
    return created["id"], created["host_token"], tokens


def test_a_rematch_asked_for_at_once_from_two_taps_is_one_rematch(app: Flask, client: FlaskClient) -> None:
    """Taps that overlap (a resend while the first is still on its way) each made a table, and the
    host and the seats could end up at different ones: the first recorded stands, the rest answer it."""
    table, host, tokens = _finished_for_rematch(client)
    with app.app_context():
        tables_before = db.session.scalar(select(func.count()).select_from(VirtualTable))
    barrier = threading.Barrier(4)
    answers: list[Any] = []

    def tap() -> None:
        c = app.test_client()
        barrier.wait()
        answers.append(c.post(f"/api/tables/{table}/rematch", headers=auth(host)))

    threads = [threading.Thread(target=tap) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(a.status_code for a in answers) == [200, 200, 200, 201]
    ids = {a.get_json()["id"] for a in answers}
    assert len(ids) == 1 and len({a.get_json()["host_token"] for a in answers}) == 1
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(VirtualTable)) == tables_before + 1
    followed = client.post(f"/api/tables/{table}/rematch/seat", headers=auth(tokens[1]))
    assert followed.status_code == 200 and followed.get_json()["id"] in ids


def test_a_seat_handed_to_a_bot_after_the_game_keeps_the_rematch(client: FlaskClient) -> None:
    """The host's seat change on the finished table saved its state again and dropped the rematch:
    asked again, the host got a second table, and the seats found none to follow."""
    table, host, tokens = _finished_for_rematch(client)
    first = client.post(f"/api/tables/{table}/rematch", headers=auth(host)).get_json()
    assert client.put(f"/api/tables/{table}/seats/1", json={"bot": "basic"}, headers=auth(host)).status_code == 200
    assert api_view(client, table, host)["rematch"] == first["id"]
    again = client.post(f"/api/tables/{table}/rematch", headers=auth(host))
    assert again.status_code == 200 and again.get_json()["id"] == first["id"]
    followed = client.post(f"/api/tables/{table}/rematch/seat", headers=auth(tokens[0]))
    assert followed.status_code == 200 and followed.get_json()["id"] == first["id"]


def test_a_host_who_plays_a_seat_is_not_offered_another_seat_on_the_same_phone(app: Flask, client: FlaskClient) -> None:
    """One phone holds one seat of a table: opening Ben's link on the phone that plays Ann's would
    leave Ann's seat without a phone, so the host page says to hand Ben's link on instead."""
    created = create(client, seats("Ann", "Ben", "bot"), start=False, seed=4)
    host = phone(app, created["host_url"])
    page = host.get(f"/t/{created['id']}/host").get_data(as_text=True)
    assert page.count("seat on this phone") == 2  # Ann's and Ben's, before the host plays either
    assert host.get(created["seats"][0]["url"].replace("http://localhost", "")).status_code == 302  # Ann's, here
    page = host.get(f"/t/{created['id']}/host").get_data(as_text=True)
    assert "Play Ben's seat on this phone" not in page
    assert "This phone plays Ann's seat: give this link to Ben." in page


def test_the_finished_table_shows_each_seats_place(app: Flask, client: FlaskClient) -> None:
    """Once the game is over the seat screen's table gives each seat's place, not the last hand's
    bid and tricks (R21: equal totals share a place)."""
    spec = [{"name": "Ann"}] + [{"name": f"B{i}", "bot": "random"} for i in range(13)]
    created = create(client, spec, seed=9)
    end = finish(client, created["id"], {0: created["seats"][0]["token"]})
    page = phone(app, created["seats"][0]["url"]).get(f"/t/{created['id']}").get_data(as_text=True)
    table = page[page.index('<table class="vt-players">') :]
    table = table[: table.index("</table>")]
    assert ">Place<" in table and ">Bid<" not in table
    places = re.findall(r"</th>\s*<td>(\d+)</td>", table)
    assert places == [str(1 + sum(t > mine for t in end["totals"])) for mine in end["totals"]]


def test_a_rematch_deals_from_its_own_seed_where_seeding_is_allowed(client: FlaskClient) -> None:
    spec = [{"name": "Ann"}] + [{"name": f"B{i}", "bot": "random"} for i in range(13)]
    hands = []
    for first in (9, 10):  # two different games, each followed by a rematch with seed 4
        created = create(client, spec, seed=first)
        finish(client, created["id"], {0: created["seats"][0]["token"]})
        new = client.post(f"/api/tables/{created['id']}/rematch", json={"seed": 4}, headers=auth(created["host_token"]))
        assert new.status_code == 201
        hands.append(api_view(client, new.get_json()["id"], new.get_json()["seats"][0]["token"])["hand"])
    assert hands[0] and hands[0] == hands[1]


def test_a_host_who_also_held_a_replaced_seat_link_still_follows_the_table(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "bot"), seed=3)
    table = created["id"]
    browser = phone(app, created["seats"][0]["url"])  # the host played Ann's seat on this phone …
    browser.get(created["host_url"].replace("http://localhost", ""))  # … and is the host here too
    relinked = client.post(f"/api/tables/{table}/seats/0/link", headers=auth(created["host_token"]))
    assert relinked.status_code == 200
    assert browser.get(f"/t/{table}/version").status_code == 200  # as the host
    assert browser.get(f"/t/{table}/scorecard").status_code == 302
    only_seat = app.test_client()  # a phone that held the old seat link alone: told it was replaced
    only_seat.set_cookie(f"vt_{table}", created["seats"][0]["token"])
    refused = only_seat.get(f"/t/{table}/version")
    assert refused.status_code == 403 and "newer link" in refused.get_data(as_text=True)


def test_home_lists_virtual_tables_and_the_scorecard_leads_back(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "bot", "bot"), seed=3)
    table = created["id"]
    ann = phone(app, created["seats"][0]["url"])
    home = text(ann.get("/"))
    assert "Your virtual tables" in home and f'href="/t/{table}"' in home and "playing as Ann" in home
    host = phone(app, created["host_url"])
    assert f'href="/t/{table}/host"' in text(host.get("/")) and "hosting" in text(host.get("/"))
    assert "Your virtual tables" not in text(app.test_client().get("/"))
    # the scorecard page says the game was virtual, marks the bots, and leads back to the table
    opened = ann.get(f"/t/{table}/scorecard")
    assert opened.status_code == 302
    game_page = text(ann.get(opened.headers["Location"]))
    assert "Played at a virtual table; bots: Robo1 (random), Robo2 (random)." in game_page
    assert game_page.count('title="random bot">bot</small>') == 2
    back = ann.get(f"/t/game/{created['game_id']}")
    assert back.status_code == 302 and back.headers["Location"].endswith(f"/t/{table}")
    # without the table's link, a game that exists answers as one that does not, and names no table
    stranger, unknown = app.test_client(), app.test_client().get("/t/game/0000000000000000")
    refused = stranger.get(f"/t/game/{created['game_id']}")
    assert refused.status_code == unknown.status_code == 404 and refused.data == unknown.data
    assert table not in refused.get_data(as_text=True)


def test_the_pdf_of_a_virtual_game_marks_the_bots(client: FlaskClient) -> None:
    created = create(client, seats("Ann", "bot", "bot"), seed=3)
    pdf = client.get(f"/api/games/{created['game_id']}/scorecard.pdf", headers=auth(created["host_token"]))
    assert pdf.status_code == 200
    first = page_texts(pdf.data)[0]
    assert "at a virtual table; bots: Robo1 (random), Robo2 (random)" in " ".join(first.split())
    assert "Robo1 (bot)" in first


RANKS = "23456789TJQKA"


def power(code: str) -> int:
    """R6's order for the draw: Hi Bluke > Lo Bluke > A > … > 2, suits do not count."""
    return {"HB": 15, "LB": 14}.get(code, RANKS.index(code[0]))


def test_the_first_dealer_can_be_drawn(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "Ben", "bot", "bot"), first_dealer="draw", start=False, seed=12)
    v = created["view"]
    drew = [p["drew"] for p in v["players"]]
    assert all(drew) and all(len(d) >= 1 for d in drew)
    first = [d[0] for d in drew]
    best = max(power(c) for c in first)
    tied = [s for s, c in enumerate(first) if power(c) == best]
    if len(tied) == 1:
        assert v["first_dealer"] == tied[0]
    else:  # the tied seats drew again (R6)
        assert v["first_dealer"] in tied and all(len(drew[s]) > 1 for s in tied)
    host = phone(app, created["host_url"])
    page = text(host.get(f"/t/{created['id']}/host"))
    dealer = v["players"][v["first_dealer"]]["name"]
    assert "Cards drawn for the first deal" in page and f"{dealer} deals first." in page
    started = client.post(f"/api/tables/{created['id']}/start", headers=auth(created["host_token"])).get_json()
    assert started["dealer"] == v["first_dealer"]
    assert [p["drew"] for p in started["players"]] == drew  # while hand 1 is bid, as at a real table
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    playing = finish(client, created["id"], tokens, until=lambda view: view["phase"] == "playing")
    assert not any(p["drew"] for p in playing["players"])  # the cards went back into the deck (R6)
    assert "Cards drawn for the first deal" not in text(host.get(f"/t/{created['id']}/host"))


def test_a_table_dealt_at_once_shows_the_draw_while_hand_1_is_bid(app: Flask, client: FlaskClient) -> None:
    """Dealt at once, the table has no lobby: the draw for first dealer shows in hand 1 instead."""
    created = create(client, seats("Ann", "Ben", "bot"), first_dealer="draw", seed=12)
    v = created["view"]
    assert v["phase"] == "bidding" and all(p["drew"] for p in v["players"])
    dealer = v["players"][v["first_dealer"]]["name"]
    for url in (created["host_url"], created["seats"][0]["url"]):
        page = text(phone(app, url).get(url.replace("http://localhost", ""), follow_redirects=True))
        assert "Cards drawn for the first deal" in page and f"{dealer} deals first." in page


def test_a_thinking_bot_never_answers_faster_than_the_floor(app: Flask, monkeypatch: Any) -> None:
    """A strong bot with one legal card answers at once; the floor keeps that (a void) off the clock."""
    import time

    from scorekeeper.engine import Game
    from scorekeeper.engine import Rules
    from scorekeeper.virtual import service

    monkeypatch.setattr(service, "decide", lambda level, view, rules, rng: view["legal"][0])  # instant
    game = Game.start(Rules(2), 0, random.Random(1))
    log: list[dict[str, Any]] = []
    assert service.FLOORED_LEVELS == {"strong"}  # the others' microseconds show nothing on a network
    with app.app_context():
        started = time.monotonic()
        service._bot_move(game, game.to_act or 0, ["strong", "strong"], random.Random(0), log)
        assert time.monotonic() - started >= service.BOT_MOVE_FLOOR_SECONDS
    assert [m["seat"] for m in log] == [1] and all("bid" in m for m in log)
