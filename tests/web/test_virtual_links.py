"""Seat links: each seat its own random token, shown to the host only until the seat joins, re-issued on request."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.errors import Forbidden
from scorekeeper.extensions import db
from scorekeeper.models import VirtualTable
from scorekeeper.tokens import token_hash
from scorekeeper.virtual import service
from scorekeeper.virtual.service import load_state
from scorekeeper.virtual.views import seat_view
from scorekeeper.virtual.views import status_line

from .test_virtual_api import act
from .virtual_support import auth  # noqa: F401 (a fixture)
from .virtual_support import create  # noqa: F401 (a fixture)
from .virtual_support import finish
from .virtual_support import patient_bots  # noqa: F401 (a fixture)
from .virtual_support import row
from .virtual_support import seats  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("patient_bots")


def view(client: FlaskClient, table: str, token: str) -> Any:
    return client.get(f"/api/tables/{table}/view", headers=auth(token))


def test_each_seat_has_its_own_random_token_stored_only_as_a_hash(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "Ben", "Cy", "bot"))
    tokens = [s["token"] for s in created["seats"]]
    assert len(set(tokens)) == 3 and all(len(t) >= 32 for t in tokens)  # 192 bits, URL-safe
    with app.app_context():
        stored = db.session.get(VirtualTable, created["id"])
        assert stored is not None
        text = repr(stored.seats) + repr(stored.state)
        assert not any(t in text for t in tokens)
        assert [s["token_hash"] for s in stored.seats[:3]] == [token_hash(t) for t in tokens]
        assert stored.seats[3]["token_hash"] is None  # a bot has no link


def test_the_host_sees_a_seat_link_only_until_the_seat_joins(client: FlaskClient) -> None:
    created = create(client, seats("Ann", "Ben", "bot"), start=False)
    table, host = created["id"], created["host_token"]
    ann, ben = (s["token"] for s in created["seats"])
    assert [link["token"] for link in view(client, table, host).get_json()["links"]] == [ann, ben]
    assert client.get(f"/t/{table}/join/{ann}", follow_redirects=True).status_code == 200
    hosted = view(client, table, host).get_data(as_text=True)
    assert ben in hosted and ann not in hosted
    page = client.get(f"/t/{table}/join/{host}")
    assert page.status_code == 302
    host_page = client.get(f"/t/{table}/host").get_data(as_text=True)
    assert ben in host_page and ann not in host_page and "Make a new link" in host_page


def test_a_new_link_replaces_the_old_one_and_the_seat_sees_it(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "Ben", "bot"), seed=4)
    table, host = created["id"], created["host_token"]
    old = created["seats"][1]["token"]
    phone = app.test_client()
    assert phone.get(f"/t/{table}/join/{old}").status_code == 302
    answer = client.post(f"/api/tables/{table}/seats/1/link", headers=auth(host))
    assert answer.status_code == 200
    new = answer.get_json()
    assert new["seat"] == 1 and new["token"] != old and new["url"].endswith(f"/t/{table}/join/{new['token']}")
    # the old link stops working, and says why
    refused = view(client, table, old)
    assert refused.status_code == 403 and "newer link" in refused.get_json()["error"]["message"]
    stale_phone = phone.get(f"/t/{table}")
    assert stale_phone.status_code == 403 and "newer link" in stale_phone.get_data(as_text=True)
    # the new holder's screen says that the link was replaced
    fresh = view(client, table, new["token"]).get_json()
    assert fresh["seat"] == 1 and fresh["players"][1]["relinked"] == 1
    other = app.test_client()
    assert other.get(f"/t/{table}/join/{new['token']}").status_code == 302
    assert "The host made a new link for this seat" in other.get(f"/t/{table}").get_data(as_text=True)


def test_a_bot_cannot_get_a_link_and_a_bot_seat_given_to_a_person_gets_a_fresh_one(client: FlaskClient) -> None:
    created = create(client, seats("Ann", "Ben", "bot"), seed=4)
    table, host = created["id"], created["host_token"]
    refused = client.post(f"/api/tables/{table}/seats/2/link", headers=auth(host))
    assert refused.status_code == 400 and "bot" in refused.get_json()["error"]["message"]
    handed = client.put(f"/api/tables/{table}/seats/2", json={"bot": None}, headers=auth(host)).get_json()
    link = next(link for link in handed["links"] if link["seat"] == 2)
    assert link["token"] not in {s["token"] for s in created["seats"]}
    seat = view(client, table, link["token"]).get_json()
    assert seat["seat"] == 2 and seat["players"][2]["person_from"] == 2  # the bot finishes hand 1 (below)
    # once its new holder has looked, the link is gone from the host's answers
    assert link["token"] not in view(client, table, host).get_data(as_text=True)


def test_a_bot_seat_handed_to_a_person_mid_hand_shows_its_cards_only_from_the_next_deal(
    app: Flask, client: FlaskClient
) -> None:
    """The host, who plays a seat too, handed a bot's seat to a person mid-hand and opened the new
    link: it held the bot's whole hand, and handing the seat back to the bot left no trace. The bot
    finishes the hand it was dealt; the person plays the seat from the next deal."""
    created = create(client, seats("Host", "bot", "Ben"), seed=9)
    table, host = created["id"], created["host_token"]
    tokens = {0: created["seats"][0]["token"], 2: created["seats"][1]["token"]}
    handed = client.put(f"/api/tables/{table}/seats/1", json={"bot": None}, headers=auth(host)).get_json()
    assert handed["players"][1]["bot"] == "random" and handed["players"][1]["person_from"] == 2
    tokens[1] = next(link["token"] for link in handed["links"] if link["seat"] == 1)
    answer = view(client, table, tokens[1])
    seen = answer.get_json()
    assert seen["hand"] == [] and seen["legal"] == [] and seen["blocked"] == {} and not seen["your_turn"]
    hidden = held(app, table, 1)
    assert hidden and not hidden & set(re.findall(r'"([2-9TJQKA][SHDC]|[HL]B)"', answer.get_data(as_text=True)))
    phone = app.test_client()
    assert phone.get(f"/t/{table}/join/{tokens[1]}").status_code == 302
    assert "A bot finishes this hand for your seat, whose cards it was dealt; you play from hand 2." in phone.get(
        f"/t/{table}"
    ).get_data(as_text=True)
    hosting = app.test_client()
    assert hosting.get(f"/t/{table}/join/{host}").status_code == 302
    assert "A person plays this seat from hand 2: the bot finishes this hand, whose cards it was dealt." in (
        hosting.get(f"/t/{table}/host").get_data(as_text=True)
    )
    again = client.put(f"/api/tables/{table}/seats/1", json={"bot": None}, headers=auth(host))
    assert again.status_code == 200 and again.get_json()["players"][1]["person_from"] == 2  # asked twice: one hand-over
    # To a bot and back, the link opened meanwhile: still not the cards of the hand the bot was dealt.
    assert client.put(f"/api/tables/{table}/seats/1", json={"bot": "basic"}, headers=auth(host)).status_code == 200
    back = client.put(f"/api/tables/{table}/seats/1", json={"bot": None}, headers=auth(host)).get_json()
    assert back["players"][1]["person_from"] == 2 and view(client, table, tokens[1]).get_json()["hand"] == []
    relinked = client.post(f"/api/tables/{table}/seats/1/link", headers=auth(host))  # a link sent to the wrong phone
    assert relinked.status_code == 200, relinked.get_json()
    tokens[1] = relinked.get_json()["token"]
    early = client.post(f"/api/tables/{table}/bid", json={"bid": 1}, headers=auth(tokens[1])).get_json()["error"]
    assert early["rule"] == "R25" and "you play from hand 2" in early["message"]
    now = bot_finishes_hand_1(app, client, table, tokens)
    assert now["players"][1]["person_from"] is None


def test_a_new_link_made_during_a_hand_shows_none_of_its_cards(app: Flask, client: FlaskClient) -> None:
    """The host, who may hold a seat too, made a new link for a player's seat mid-hand and opened it:
    it showed that player's hand and played their card. A bot finishes the hand; the new link plays
    the seat from the next deal. A link nobody had opened (the host holds it anyway) works at once."""
    created = create(client, seats("Host", "Ann", "Ben"), seed=9)
    table, host = created["id"], created["host_token"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    ann = app.test_client()
    assert ann.get(f"/t/{table}/join/{tokens[1]}", follow_redirects=True).status_code == 200  # Ann opened hers
    cards = held(app, table, 1)
    relinked = client.post(f"/api/tables/{table}/seats/1/link", headers=auth(host))
    assert relinked.status_code == 200, relinked.get_json()
    tokens[1] = relinked.get_json()["token"]
    answer = view(client, table, tokens[1])
    seen = answer.get_json()
    assert seen["hand"] == [] and seen["legal"] == [] and seen["blocked"] == {} and not seen["your_turn"]
    ann_seat = seen["players"][1]
    assert (ann_seat["bot"], ann_seat["person_from"], ann_seat["relinked_in"], ann_seat["relinked"]) == (
        "strong",
        2,
        1,
        1,
    )
    assert not cards & set(re.findall(r'"([2-9TJQKA][SHDC]|[HL]B)"', answer.get_data(as_text=True)))
    refused = client.post(f"/api/tables/{table}/bid", json={"bid": 1}, headers=auth(tokens[1])).get_json()["error"]
    assert refused["rule"] == "R25" and "made during hand 1" in refused["message"], refused
    phone = app.test_client()
    assert phone.get(f"/t/{table}/join/{tokens[1]}").status_code == 302
    page = phone.get(f"/t/{table}").get_data(as_text=True)
    assert "This link was made during hand 1, so it shows none of its cards" in page
    assert not cards & set(re.findall(r"\b([2-9TJQKA][SHDC]|[HL]B)\b", page))
    hosting = app.test_client()
    assert hosting.get(f"/t/{table}/join/{host}").status_code == 302
    assert "The new link plays this seat from hand 2" in hosting.get(f"/t/{table}/host").get_data(as_text=True)
    # Ben never opened his link: the host holds it anyway, and a new one works at once
    tokens[2] = client.post(f"/api/tables/{table}/seats/2/link", headers=auth(host)).get_json()["token"]
    ben = view(client, table, tokens[2]).get_json()
    assert ben["players"][2]["bot"] is None and set(ben["hand"]) == held(app, table, 2)
    now = bot_finishes_hand_1(app, client, table, tokens)
    assert now["players"][1]["relinked_in"] is None


def test_a_link_nobody_opened_stops_working_when_a_bot_takes_the_seat(app: Flask, client: FlaskClient) -> None:
    """Whoever holds an unopened link (the host, until handing it on) never sees a bot's cards:
    filled with bots, or handed to a bot one seat at a time, the link is refused and says why;
    handed back to a person, the seat gets a fresh link. A player who has opened their own link goes
    on seeing the table while a bot plays their seat, but not its cards: they are the bot's now, and
    the host could have opened the link to look at them."""
    created = create(client, seats("Ann", "Ben", "Cy", "Dee"), start=False)
    table, host = created["id"], created["host_token"]
    ann, ben, cy, dee = (s["token"] for s in created["seats"])
    assert client.get(f"/t/{table}/join/{ann}", follow_redirects=True).status_code == 200  # Ann opened hers
    assert client.put(f"/api/tables/{table}/seats/3", json={"bot": "basic"}, headers=auth(host)).status_code == 200
    hosting = app.test_client()  # the host page's "Fill the empty seats with bots"
    assert hosting.get(f"/t/{table}/join/{host}").status_code == 302
    form = re.search(r'name="csrf_token" value="([^"]+)"', hosting.get(f"/t/{table}/host").get_data(as_text=True))
    assert form
    filled = hosting.post(f"/t/{table}/fill", data={"bot": "strong", "csrf_token": form.group(1)})
    assert filled.status_code in (200, 303), filled.get_data(as_text=True)
    assert client.post(f"/api/tables/{table}/start", headers=auth(host)).status_code == 200
    for token in (ben, cy, dee):
        refused = view(client, table, token)
        assert refused.status_code == 403 and "newer link" in refused.get_json()["error"]["message"]
        assert token not in view(client, table, host).get_data(as_text=True)
    assert len(view(client, table, ann).get_json()["hand"]) > 0
    handed = client.put(f"/api/tables/{table}/seats/1", json={"bot": None}, headers=auth(host)).get_json()
    fresh = next(link["token"] for link in handed["links"] if link["seat"] == 1)
    assert fresh not in (ben, cy, dee)
    again = client.put(f"/api/tables/{table}/seats/1", json={"bot": "basic"}, headers=auth(host))
    assert again.status_code == 200 and view(client, table, fresh).status_code == 403  # not opened before
    handed = client.put(f"/api/tables/{table}/seats/1", json={"bot": None}, headers=auth(host)).get_json()
    opened = next(link["token"] for link in handed["links"] if link["seat"] == 1)
    assert view(client, table, opened).get_json()["seat"] == 1  # opened, by Ben or by the host
    client.put(f"/api/tables/{table}/seats/1", json={"bot": "basic"}, headers=auth(host))
    watching = view(client, table, opened).get_json()
    assert watching["seat"] == 1 and watching["hand"] == [] and watching["legal"] == []
    client.put(f"/api/tables/{table}/seats/0", json={"bot": "basic"}, headers=auth(host))
    assert view(client, table, ann).get_json()["hand"] == []  # Ann's own link: the table, not the bot's cards


def test_the_host_link_in_a_seat_cookie_opens_the_host_page_not_an_error(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "Ben", "bot"), seed=4)
    table, host = created["id"], created["host_token"]
    client.set_cookie(f"vt_{table}", host)
    client.set_cookie(f"vth_{table}", host)
    answer = client.get(f"/t/{table}")
    assert answer.status_code == 302 and answer.headers["Location"].endswith(f"/t/{table}/host")
    assert client.get(f"/t/{table}/host").status_code == 200
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/t/new").get_data(as_text=True))
    assert csrf
    played = client.post(f"/t/{table}/play", data={"card": "2C", "csrf_token": csrf.group(1)})
    assert played.status_code == 403 and "open your own seat" in played.get_data(as_text=True)


def test_the_hosts_phone_whose_seat_link_was_replaced_opens_the_host_page(app: Flask, client: FlaskClient) -> None:
    """The host plays a seat on the same phone: once that seat's link was replaced (or a rematch
    followed from another phone), the phone got "this link no longer works", though it hosts."""
    created = create(client, seats("Ann", "Ben", "bot"), seed=4)
    table, host = created["id"], created["host_token"]
    phone = app.test_client()
    assert phone.get(created["host_url"]).status_code == 302
    assert phone.get(f"/t/{table}/join/{created['seats'][0]['token']}").status_code == 302
    assert client.post(f"/api/tables/{table}/seats/0/link", headers=auth(host)).status_code == 200
    answer = phone.get(f"/t/{table}")
    assert answer.status_code == 302 and answer.headers["Location"].endswith(f"/t/{table}/host")
    stranger = app.test_client()  # without the host's cookie the dead link still says what happened
    stranger.set_cookie(f"vt_{table}", created["seats"][0]["token"])
    assert stranger.get(f"/t/{table}").status_code == 403


def test_nobody_sees_the_cards_of_a_seat_a_bot_plays(client: FlaskClient) -> None:
    """The host hands a bot's seat to a person mid-hand, opens the link to look, hands the seat back
    to the bot: the link shows the table and no cards, in this game or, followed, its rematch."""
    created = create(client, seats("Host", "bot", "bot"), seed=9)
    table, host = created["id"], created["host_token"]
    handed = client.put(f"/api/tables/{table}/seats/1", json={"bot": None}, headers=auth(host)).get_json()
    peek = next(link["token"] for link in handed["links"] if link["seat"] == 1)
    assert view(client, table, peek).get_json()["hand"] == []  # the bot's until the next deal
    assert client.put(f"/api/tables/{table}/seats/1", json={"bot": "basic"}, headers=auth(host)).status_code == 200
    for _ in range(3):  # as the bot plays on
        watching = view(client, table, peek).get_json()
        assert watching["seat"] == 1 and watching["hand"] == [] and watching["legal"] == []
    finish(client, table, {0: created["seats"][0]["token"]})
    rematch = client.post(f"/api/tables/{table}/rematch", headers=auth(host)).get_json()
    followed = client.post(f"/api/tables/{table}/rematch/seat", headers=auth(peek)).get_json()["token"]
    seen = view(client, rematch["id"], followed).get_json()
    assert seen["seat"] == 1 and seen["players"][1]["bot"] and seen["hand"] == []


def bot_finishes_hand_1(app: Flask, client: FlaskClient, table: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The people at seats 0 and 2 play hand 1 out while a bot plays seat 1, whose link shows no card
    of it; then seat 1's link holds its hand 2 (its view then, returned)."""
    rng = random.Random(3)
    for _ in range(60):
        now = view(client, table, tokens[1]).get_json()
        if now["hand_number"] == 2:
            break
        assert now["hand"] == []
        turn = now["to_act"]
        assert turn in (0, 2), now
        assert act(client, table, tokens[turn], view(client, table, tokens[turn]).get_json(), rng).status_code == 200
    assert now["hand_number"] == 2 and now["players"][1]["bot"] is None
    assert set(now["hand"]) == held(app, table, 1) and len(now["hand"]) == now["cards"]
    return dict(now)


def held(app: Flask, table: str, seat: int) -> set[str]:
    """The cards a seat holds now, read from the stored table."""
    with app.app_context():
        stored = db.session.get(VirtualTable, table)
        assert stored is not None
        game = load_state(stored)
        assert game is not None
        return {str(card) for card in game.hands[seat]}


def test_a_link_the_host_opened_shows_no_cards_once_a_bot_plays_the_seat(app: Flask, client: FlaskClient) -> None:
    """The host holds every seat's first link: opening Ben's, then handing Ben's seat to a bot, the
    host sees the table through it, never the bot's cards: not in the hand, nor in the reasons a
    card cannot be played (``blocked``), anywhere in the answer."""
    created = create(client, seats("Host", "Ben", "bot"), seed=9)
    table, host, ben = created["id"], created["host_token"], created["seats"][1]["token"]
    mine = view(client, table, ben).get_json()
    assert len(mine["hand"]) > 0 and set(mine["blocked"]) == set(mine["hand"])  # a person's seat: its cards
    assert client.put(f"/api/tables/{table}/seats/1", json={"bot": "basic"}, headers=auth(host)).status_code == 200
    answer = view(client, table, ben)
    seen = answer.get_json()
    assert seen["seat"] == 1 and seen["hand"] == [] and seen["players"][1]["bot"] == "basic"
    assert seen["blocked"] == {} and seen["legal"] == []
    hidden = held(app, table, 1) - {p["card"] for p in seen["trick"]}
    assert hidden and not hidden & set(re.findall(r'"([2-9TJQKA][SHDC]|[HL]B)"', answer.get_data(as_text=True)))


def test_a_seat_a_bot_plays_is_never_told_it_is_its_turn(app: Flask, client: FlaskClient) -> None:
    """Ben's turn to bid, then the host hands Ben's seat to a bot: until the bot has moved, Ben's
    link reads the table with the bot to act, not "your turn" (the bid form, the alert), nor
    "Waiting for Ben" on Ben's own phone."""
    created = create(client, seats("Ann", "Ben", "Cy"), first_dealer=0, seed=3)
    table, ben = created["id"], created["seats"][1]["token"]
    assert view(client, table, ben).get_json()["your_turn"] is True  # the dealer's left bids first (R13)
    with app.app_context():  # the bot takes the seat; its move is still to come
        stored = db.session.get(VirtualTable, table)
        assert stored is not None
        stored.seats = [dict(s, bot="basic") if i == 1 else s for i, s in enumerate(stored.seats)]
        db.session.commit()
        seen = seat_view(stored, 1)
    assert seen["to_act"] == 1 and seen["bots_thinking"] is True
    assert seen["your_turn"] is False and seen["hand"] == [] and seen["blocked"] == {}
    assert status_line(seen) == "A bot bids for you now."


def test_a_link_replaced_while_its_move_was_on_its_way_moves_nothing(app: Flask, client: FlaskClient) -> None:
    """The link was checked when the request came in, then the host made a new one before the move
    took the table's lock: the old link bid anyway (and its holder was told it no longer works)."""
    created = create(client, seats("Ann", "Ben", "bot"), seed=4)
    table, host = created["id"], created["host_token"]
    first = view(client, table, created["seats"][0]["token"]).get_json()
    turn = first["to_act"]
    old = created["seats"][turn]["token"]
    legal = view(client, table, old).get_json()["legal"]
    with app.test_request_context():
        access = service.open_table(table, old)  # the request's check, before the new link
        assert client.post(f"/api/tables/{table}/seats/{turn}/link", headers=auth(host)).status_code == 200
        before = row(app, table)
        with pytest.raises(Forbidden, match="newer link"):
            service.bid(access, legal[0])
        assert row(app, table) == before


@pytest.mark.parametrize("change", ["bot", "link"])
def test_a_link_opened_while_the_host_replaced_it_marks_no_seat_as_opened(
    app: Flask, client: FlaskClient, change: str
) -> None:
    """Ben's first look was checked, then the host gave his seat to a bot (or a new link) before the
    look took the table's lock: the seat was marked opened by a link that no longer works, so a bot's
    seat counted for Ben in a group, and the new link was taken off the host's page unopened."""
    created = create(client, seats("Ann", "Ben", "bot"), start=False)
    table, host, ben = created["id"], created["host_token"], created["seats"][1]["token"]
    with app.test_request_context():
        access = service.open_table(table, ben)  # the look's check, before the host's change
        if change == "bot":
            answer = client.put(f"/api/tables/{table}/seats/1", json={"bot": "basic"}, headers=auth(host))
        else:
            answer = client.post(f"/api/tables/{table}/seats/1/link", headers=auth(host))
        assert answer.status_code == 200, answer.get_json()
        service.mark_joined(access)
    assert not row(app, table)["seats"][1]["joined"]
    if change == "link":  # the new link still shows on the host's page
        assert client.get(f"/api/tables/{table}/view", headers=auth(host)).get_json()["players"][1]["joined"] is False


def test_a_move_made_just_before_its_link_was_replaced_is_answered_as_made(app: Flask, client: FlaskClient) -> None:
    """The move took the table's lock with the link still good, then the host made a new link before
    the answer was read: the move stood, and its answer said the link no longer works (403). It is
    the table as the host sees it, without cards: the bots move on before the answer is read, and
    the next deal's hand would be the new link's."""
    from scorekeeper.virtual import api

    created = create(client, seats("Ann", "Ben", "bot"), seed=4)
    table, host = created["id"], created["host_token"]
    turn = view(client, table, created["seats"][0]["token"]).get_json()["to_act"]
    old = created["seats"][turn]["token"]
    legal = view(client, table, old).get_json()["legal"]
    with app.test_request_context():
        access = service.open_table(table, old)
        service.bid(access, legal[0])  # stored
        assert client.post(f"/api/tables/{table}/seats/{turn}/link", headers=auth(host)).status_code == 200
        answered = api.answer(access, moved=True)
        assert answered["seat"] is None and not answered.get("hand") and answered["bids"][turn] == legal[0]
        with pytest.raises(Forbidden, match="newer link"):
            api.answer(access)  # a look, not a move: the link no longer works


def test_the_hosts_other_phone_opens_the_rematch_it_did_not_set_up(app: Flask, client: FlaskClient) -> None:
    """The rematch's host link was kept by the phone that set it up only: another phone with the
    host link was offered a link to the rematch's host page that answered 404. It asks for the
    rematch again, which answers the same one with its link for this phone too."""
    created = create(client, seats("Ann", *["bot"] * 14), seed=4)  # 15 seats: five hands (R8)
    table, host = created["id"], created["host_token"]

    finish(client, table, {0: created["seats"][0]["token"]})
    phones = [app.test_client(), app.test_client()]
    for phone in phones:
        phone.set_cookie(f"vth_{table}", host)
    csrf = re.compile(r'name="csrf_token" value="([^"]+)"')
    first = phones[0].get(f"/t/{table}/host").get_data(as_text=True)
    made = phones[0].post(f"/t/{table}/rematch", data={"csrf_token": csrf.search(first).group(1)})
    assert made.status_code == 303
    rematch = made.headers["Location"].split("/t/")[1].split("/")[0]
    assert f'href="/t/{rematch}/host"' in phones[0].get(f"/t/{table}/host").get_data(as_text=True)
    other = phones[1].get(f"/t/{table}/host").get_data(as_text=True)
    assert "The rematch is set up" in other and f'href="/t/{rematch}/host"' not in other  # no dead link
    asked = phones[1].post(f"/t/{table}/rematch", data={"csrf_token": csrf.search(other).group(1)})
    assert asked.status_code == 303 and asked.headers["Location"].endswith(f"/t/{rematch}/host")  # the same one
    assert phones[1].get(f"/t/{rematch}/host").status_code == 200
