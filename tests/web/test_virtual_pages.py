"""The virtual-table pages without a browser: new table, join links, seat screen, host page."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import VirtualTable

from .pages_kit import sent_at_once
from .virtual_support import auth  # noqa: F401 (a fixture)
from .virtual_support import create  # noqa: F401 (a fixture)
from .virtual_support import finish
from .virtual_support import leaks  # noqa: F401 (a fixture)
from .virtual_support import patient_bots  # noqa: F401 (a fixture)
from .virtual_support import row  # noqa: F401 (a fixture)
from .virtual_support import said
from .virtual_support import seats  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("patient_bots")

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def token_of(client: FlaskClient, url: str) -> str:
    found = CSRF.search(client.get(url).get_data(as_text=True))
    assert found, f"no form on {url}"
    return found.group(1)


def text(answer: Any) -> str:
    return str(answer.get_data(as_text=True))


def joined(app: Flask, created: dict[str, Any], seat: int) -> FlaskClient:
    """A phone that opened the seat's link: its page, with the link's cookie."""
    client = app.test_client()
    link = next(s for s in created["seats"] if s["seat"] == seat)
    answer = client.get(f"/t/{created['id']}/join/{link['token']}", follow_redirects=True)
    assert answer.status_code == 200
    return client


# -- a new table --------------------------------------------------------------------------------
def test_one_person_and_bots_go_straight_to_their_cards(app: Flask) -> None:
    client = app.test_client()
    form = client.get("/t/new")
    assert form.status_code == 200 and 'name="name-3"' in text(form) and "basic bot" in text(form)
    answer = client.post(
        "/t/new",
        data={
            "csrf_token": token_of(client, "/t/new"),
            "count": "4",
            "name-0": "Ann",
            "bot-0": "",
            "name-1": "Robo",
            "bot-1": "random",
            "name-2": "",
            "bot-2": "random",
            "name-3": "Max",
            "bot-3": "random",
            "variant": "new-jersey",
            "first_dealer": "2",
        },
    )
    assert answer.status_code == 303
    table = answer.headers["Location"].rsplit("/", 1)[1]
    cookies = answer.headers.getlist("Set-Cookie")
    assert all("HttpOnly" in c for c in cookies) and len(cookies) == 2  # the seat and the host
    page = client.get(f"/t/{table}")
    assert page.status_code == 200
    body = text(page)
    assert "Your turn" in body and 'name="bid"' in body  # New Jersey starts with one card
    assert ">Bot 3<" in body  # an unnamed bot seat gets a name
    state = row(app, table)["state"]
    assert state["variant"] == "new-jersey" and state["first_dealer"] == 1


def tables_stored(app: Flask) -> int:
    with app.app_context():
        return int(db.session.execute(select(func.count()).select_from(VirtualTable)).scalar_one())


@pytest.mark.parametrize("people", [1, 2])
def test_a_new_table_sent_again_after_its_answer_was_lost_makes_no_second_table(app: Flask, people: int) -> None:
    """The answer to "Open the table" lost on a bad connection, the phone sent the form again: a
    second table, the first one held by nobody (in a group, its players counted twice). The form's
    one-time mark finds the table it made, with the same host and seat links."""
    phone = app.test_client()
    page = text(phone.get("/t/new"))
    once = re.search(r'name="once" value="([\w-]{32})"', page)
    assert once, "the set-up form carries its one-time mark"
    names = {"name-0": "Ann", "bot-0": "", "name-1": "Ben", "bot-1": "" if people == 2 else "basic"}
    form = {"csrf_token": token_of(phone, "/t/new"), "once": once.group(1), "count": "3", **names}
    form |= {"name-2": "", "bot-2": "basic", "variant": "new-jersey", "zero_bids": "on", "draw": "on"}
    before = tables_stored(app)
    first = phone.post("/t/new", data=form)
    cookies = {c.key: c.value for c in phone._cookies.values() if c.key.startswith("vt")}
    lost = app.test_client()  # the phone as it was: the first answer (and its cookies) never arrived
    lost.set_cookie("session", phone.get_cookie("session").value)  # type: ignore[union-attr]
    again = lost.post("/t/new", data=form)
    assert first.status_code == again.status_code == 303 and again.headers["Location"] == first.headers["Location"]
    assert tables_stored(app) == before + 1
    assert {c.key: c.value for c in lost._cookies.values() if c.key.startswith("vt")} == cookies
    table = again.headers["Location"].split("/")[2]
    seat = lost  # the person's phone (one person: this one, the seat's cookie among those sent again)
    if people == 2:  # the host page shows the same links again
        host = text(lost.get(f"/t/{table}/host"))
        links = list(dict.fromkeys(re.findall(r"/t/\w+/join/[\w-]+", host)))  # each seat's, in seat order
        first_host = text(phone.get(f"/t/{table}/host"))
        assert len(links) == 2 and links == list(dict.fromkeys(re.findall(r"/t/\w+/join/[\w-]+", first_host)))
        assert lost.post(f"/t/{table}/start", data={"csrf_token": CSRF.findall(host)[0]}).status_code == 303
        seat = app.test_client()
        seat.get(links[row(app, table)["state"]["to_act"]])
    bids = re.findall(r'name="bid" value="(\d+)"', text(seat.get(f"/t/{table}")))
    assert bids, "the person is to bid (bots before them have bid)"
    at_once = sent_at_once(app, phone, "/t/new", {**form, "once": "x" * 32})  # another form: its own table
    assert at_once == [303, 303, 303] and tables_stored(app) == before + 2
    # the same form sent back with other seats opens a table, which a resend of it finds in turn
    changed = [lost.post("/t/new", data={**form, "name-0": "Dan"}) for _ in range(2)]
    assert [c.status_code for c in changed] == [303, 303] and changed[0].headers["Location"] == changed[1].headers[
        "Location"
    ]
    assert changed[0].headers["Location"] != first.headers["Location"] and tables_stored(app) == before + 3
    assert lost.post("/t/new", data=form).headers["Location"] == first.headers["Location"]  # started, not played
    bid = seat.post(f"/t/{table}/bid", data={"csrf_token": token_of(seat, f"/t/{table}"), "bid": bids[0]})
    assert bid.status_code == 303 and tables_stored(app) == before + 3
    assert lost.post("/t/new", data=form).headers["Location"] != first.headers["Location"]
    assert tables_stored(app) == before + 4


def test_a_refused_new_table_says_why_at_once_and_marks_the_names_it_is_about(app: Flask) -> None:
    """The sentence "Two players are called 'Zed'" was neither focused nor tied to the two names it meant."""
    client = app.test_client()
    seats = {"name-0": "Zed", "bot-0": "", "name-1": "zed ", "bot-1": "", "name-2": "Max", "bot-2": "basic"}
    answer = client.post("/t/new", data={"csrf_token": token_of(client, "/t/new"), "count": "3", **seats})
    assert answer.status_code == 400 and "Two players are called" in text(answer)
    assert '<p class="vt-error" role="alert" id="table-error" tabindex="-1" autofocus>' in text(answer)
    marked = re.findall(r'name="(name-\d)"[^>]*aria-invalid="true" aria-describedby="table-error"', text(answer))
    assert marked == ["name-0", "name-1"]


def test_the_new_table_form_adds_and_removes_seats_without_script(app: Flask) -> None:
    client = app.test_client()
    base = {"csrf_token": token_of(client, "/t/new"), "count": "4", "name-0": "Ann", "bot-0": ""}
    more = client.post("/t/new", data={**base, "add": "1"})
    assert more.status_code == 200 and 'name="name-4"' in text(more) and 'value="Ann"' in text(more)
    fewer = client.post("/t/new", data={**base, "remove": "1"})
    assert 'name="name-3"' not in text(fewer)


def test_enter_in_a_name_without_script_moves_on_and_deals_nothing(app: Flask) -> None:
    """Enter presses the form's first button: it dealt a game against three bots at once."""
    client = app.test_client()
    base = {"csrf_token": token_of(client, "/t/new"), "count": "3", "name-0": "Ann", "bot-0": "", "enter": "1"}
    people = client.post("/t/new", data={**base, "name-1": "", "bot-1": "", "name-2": "Bot 3", "bot-2": "basic"})
    assert people.status_code == 200 and 'value="Ann"' in text(people)
    assert re.search(r'name="name-1"[^>]*autofocus', text(people))  # the next name to type
    bots = client.post(
        "/t/new", data={**base, "name-1": "Bot 2", "bot-1": "basic", "name-2": "Bot 3", "bot-2": "basic"}
    )
    assert re.search(r'class="vt-primary" autofocus', text(bots))  # every seat filled: the button to open
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(VirtualTable)) == 0


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name-0": "Ann", "bot-0": "", "name-1": "", "bot-1": ""}, "2 to 15"),
        ({"name-0": "Ann", "bot-0": "", "name-1": "Ann", "bot-1": ""}, "Two players are called"),
        (
            {
                "name-0": "Ann",
                "bot-0": "",
                "name-1": "Ben",
                "bot-1": "",
                "extended": "on",
                "name-2": "Cy",
                "bot-2": "",
                "name-3": "Di",
                "bot-3": "",
            },
            "extended game",
        ),
    ],
)
def test_a_bad_new_table_is_explained_on_the_form(app: Flask, fields: dict[str, str], message: str) -> None:
    client = app.test_client()
    answer = client.post("/t/new", data={"csrf_token": token_of(client, "/t/new"), "count": "4", **fields})
    assert answer.status_code in (400, 422) and message in text(answer)
    assert 'value="Ann"' in text(answer)  # what was typed stays


def test_the_first_dealer_is_the_row_chosen_even_after_an_empty_row(app: Flask) -> None:
    """The form numbers its rows 1 to N; an empty row is no seat, and the dealer stays the one chosen (R6)."""
    client = app.test_client()
    rows = {"count": "4", "name-0": "Ann", "bot-0": "", "name-1": "", "bot-1": ""}
    rows |= {"name-2": "Cy", "bot-2": "random", "name-3": "Dee", "bot-3": "random"}
    answer = client.post("/t/new", data={"csrf_token": token_of(client, "/t/new"), **rows, "first_dealer": "3"})
    assert answer.status_code == 303
    table = answer.headers["Location"].split("/")[2]
    state = row(app, table)["state"]
    assert [s["name"] for s in row(app, table)["seats"]] == ["Ann", "Cy", "Dee"]
    assert state["first_dealer"] == 1  # Cy, the third row
    for chosen, words in (("2", "row 2 has no name"), ("5", "Choose who deals first"), ("x", "Choose who deals first")):
        refused = client.post("/t/new", data={"csrf_token": token_of(client, "/t/new"), **rows, "first_dealer": chosen})
        assert refused.status_code == 400 and words in text(refused), chosen


def test_several_people_get_a_host_page_with_links_and_qr_codes(app: Flask) -> None:
    client = app.test_client()
    answer = client.post(
        "/t/new",
        data={
            "csrf_token": token_of(client, "/t/new"),
            "count": "3",
            "name-0": "Ann",
            "bot-0": "",
            "name-1": "Ben",
            "bot-1": "",
            "name-2": "Robo",
            "bot-2": "random",
            "variant": "standard",
        },
    )
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/host")
    host = client.get(answer.headers["Location"])
    body = text(host)
    assert host.status_code == 200 and body.count("<svg") == 2 and body.count("/join/") >= 2
    assert "Deal the first hand" in body and "not joined" in body
    table = answer.headers["Location"].split("/")[2]
    assert row(app, table)["phase"] == "lobby"
    # Ben opens his link; the host page shows him as here
    link = re.findall(r'href="(http://localhost/t/[^"]+/join/[^"]+)"', body)[1]
    ben = app.test_client()
    assert ben.get(link).status_code == 302
    assert "Waiting for the host" in text(ben.get(f"/t/{table}"))
    assert text(client.get(f"/t/{table}/host")).count(">here<") == 1
    started = client.post(f"/t/{table}/start", data={"csrf_token": token_of(client, f"/t/{table}/host")})
    assert started.status_code == 303
    assert row(app, table)["phase"] == "bidding"
    assert 'class="vt-card' in text(ben.get(f"/t/{table}"))


def test_the_host_fills_empty_seats_with_bots_and_swaps_a_seat(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "Ben", "Cy"), start=False, seed=3)
    table = created["id"]
    host = app.test_client()
    assert host.get(created["host_url"]).status_code == 302
    joined(app, created, 0)  # only Ann is here
    token = token_of(host, f"/t/{table}/host")
    assert host.post(f"/t/{table}/fill", data={"csrf_token": token, "bot": "random"}).status_code == 303
    assert [s["bot"] for s in row(app, table)["seats"]] == [None, "random", "random"]
    assert host.post(f"/t/{table}/seats/2", data={"csrf_token": token, "bot": ""}).status_code == 303
    assert [s["bot"] for s in row(app, table)["seats"]] == [None, "random", None]


# -- the seat screen ----------------------------------------------------------------------------------
def test_a_join_link_becomes_an_httponly_cookie_and_a_clean_address(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "bot", "bot"), seed=1)
    phone = app.test_client()
    link = created["seats"][0]["url"]
    answer = phone.get(link)
    assert answer.status_code == 302 and answer.headers["Location"] == f"/t/{created['id']}"
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    page = phone.get(f"/t/{created['id']}")
    assert page.status_code == 200 and created["seats"][0]["token"] not in text(page)
    assert app.test_client().get(f"/t/{created['id']}").status_code == 404  # no cookie, no table
    bad = app.test_client().get(f"/t/{created['id']}/join/{'x' * 32}")
    assert bad.status_code == 404


def test_the_seat_screen_shows_its_hand_sorted_and_only_legal_bids(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "bot", "bot", "bot"), seed=4, first_dealer=3)
    phone = joined(app, created, 0)
    body = text(phone.get(f"/t/{created['id']}"))
    v = client.get(f"/api/tables/{created['id']}/view", headers=auth(created["seats"][0]["token"])).get_json()
    shown = re.findall(r'name="card" value="(\w\w)"', body)
    assert shown == v["hand"] and len(shown) == 13  # sorted by the engine: trump first
    assert re.findall(r'name="bid" value="(\d+)"', body) == [str(b) for b in range(1, 14)]
    assert "Your turn: bid." in body and "vt-myturn" in body
    assert not leaks(body, row(app, created["id"])["state"], 0)


def test_without_script_a_seat_waiting_for_another_person_reloads_itself(app: Flask, client: FlaskClient) -> None:
    """Without JavaScript nothing told a waiting seat that its turn had come: it now reloads every
    5 s while another person is to move, and never on its own turn (a reload would drop its choice)."""
    created = create(client, seats("Ann", "Ben"), seed=2, first_dealer=1)  # Ann bids first
    ann, ben = joined(app, created, 0), joined(app, created, 1)
    refresh = '<noscript><meta http-equiv="refresh" content="5"></noscript>'
    assert "Your turn" in text(ann.get(f"/t/{created['id']}")) and refresh not in text(ann.get(f"/t/{created['id']}"))
    assert refresh in text(ben.get(f"/t/{created['id']}"))


def _playing_table(app: Flask, client: FlaskClient) -> tuple[dict[str, Any], FlaskClient, dict[str, Any]]:
    """Ann to play, with at least one card she may not play (found by seed)."""
    for seed in range(100):
        created = create(client, seats("Ann", "bot", "bot", "bot"), seed=seed, first_dealer=1)
        token = created["seats"][0]["token"]
        rng = random.Random(seed)
        v = client.get(f"/api/tables/{created['id']}/view", headers=auth(token)).get_json()
        for _ in range(30):
            if v["phase"] == "playing" and v["your_turn"] and v["blocked"]:
                return created, joined(app, created, 0), v
            path, key = ("bid", "bid") if v["phase"] == "bidding" else ("play", "card")
            v = client.post(
                f"/api/tables/{created['id']}/{path}", json={key: rng.choice(v["legal"])}, headers=auth(token)
            ).get_json()
    raise AssertionError("no seed found")


def test_dimmed_cards_say_why_and_a_tap_on_one_explains_without_script(app: Flask, client: FlaskClient) -> None:
    created, phone, v = _playing_table(app, client)
    table = created["id"]
    body = text(phone.get(f"/t/{table}"))
    code, reason = next(iter(v["blocked"].items()))
    button = re.search(rf'<button[^>]*value="{code}"[^>]*>', body)
    assert button and "vt-dim" in button.group(0) and 'aria-disabled="true"' in button.group(0)
    assert f'data-reason="{reason}"' in button.group(0).replace("&#39;", "'")
    legal = re.search(rf'<button[^>]*value="{v["legal"][0]}"[^>]*>', body)
    assert legal and "vt-legal" in legal.group(0)
    before = row(app, table)
    answer = phone.post(
        f"/t/{table}/play",
        data={"csrf_token": token_of(phone, f"/t/{table}"), "card": code, "version": str(v["version"])},
    )
    assert answer.status_code == 422
    assert reason.replace("'", "&#39;") in text(answer) and 'role="alert"' in text(answer)
    assert row(app, table) == before


#: A card's short label, as the screen and the error messages write it (Q♦, Д♦ in Russian).
SHORT = {
    "en": ({"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}, {"HB": "Hi Bluke", "LB": "Lo Bluke"}),
    "ru": ({"T": "10", "J": "В", "Q": "Д", "K": "К", "A": "Т"}, {"HB": "Старший блюк", "LB": "Младший блюк"}),
}


def short(code: str, lang: str) -> str:
    letters, blukes = SHORT[lang]
    return blukes.get(code) or letters.get(code[0], code[0]) + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[code[1]]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_seats_cards_are_named_in_words_and_its_errors_keep_the_short_label(
    app: Flask, client: FlaskClient, lang: str
) -> None:
    """A screen reader read "Q♦" for a hand's card and "trump 5 ♦" for the turn-up: every card drawn
    is now named in words in the reader's language ("queen of diamonds", "дама бубен"), the hand's
    buttons by their aria-label, the faces as pictures (role="img"); the letters still show."""
    created, phone, v = _playing_table(app, client)
    table = created["id"]
    body = text(phone.get(f"/t/{table}?lang={lang}"))
    for code in v["hand"]:
        button = re.search(rf'<button[^>]*value="{code}"[^>]*>(.*?)</button>', body, re.S)
        assert button, code
        if code not in ("HB", "LB"):  # the letters still show
            assert f">{short(code, lang)[:-1]}</b>" in button.group(1), button.group(1)
        # named by the rank it shows, then in words (WCAG 2.5.3), unless the words start with it
        rank = re.search(r"<b[^>]*>(.*?)</b>", button.group(1)).group(1)
        words = said(code, lang)
        name = words if words.split()[0].casefold() == rank.casefold() else f"{rank}, {words}"
        assert f'aria-label="{name}"' in button.group(0), button.group(0)
    pictures = dict(re.findall(r'<span class="vt-face[^"]*" data-card="(\w\w)" role="img" aria-label="([^"]+)"', body))
    assert v["turn_up"] and pictures[v["turn_up"]] == said(v["turn_up"], lang)
    assert re.search(rf'class="vt-trump".*?data-card="{v["turn_up"]}" role="img"', body, re.S)
    for p in v["trick"]:  # the cards already on the table, in the seats' spots
        assert pictures[p["card"]] == said(p["card"], lang)
    assert not leaks(body, row(app, table)["state"], 0)

    # virtual.js draws the played cards with the names the moves bring, in the reader's language
    moves = phone.get(f"/t/{table}/moves?since=0").get_json()
    played = {m["card"] for m in moves["moves"] if "card" in m}
    assert played and moves["labels"] == {code: said(code, lang) for code in played}

    # an error still writes the card as the screen does: the turn-up is on the table, not in her hand
    refused = phone.post(
        f"/t/{table}/play",
        data={"csrf_token": token_of(phone, f"/t/{table}"), "card": v["turn_up"], "version": str(v["version"])},
    )
    assert refused.status_code == 422
    alert = re.search(r'<p class="vt-error" role="alert">(.*?)</p>', text(refused), re.S)
    assert alert and short(v["turn_up"], lang) in alert.group(1) and "R14" in alert.group(1), alert
    assert said(v["turn_up"], lang) not in alert.group(1)


def test_a_card_played_from_the_form_moves_the_table_on(app: Flask, client: FlaskClient) -> None:
    created, phone, v = _playing_table(app, client)
    table = created["id"]
    token = token_of(phone, f"/t/{table}")
    answer = phone.post(
        f"/t/{table}/play", data={"csrf_token": token, "card": v["legal"][0], "version": str(v["version"])}
    )
    assert answer.status_code == 303 and answer.headers["Location"] == f"/t/{table}"
    assert v["legal"][0] not in row(app, table)["state"]["hands"][0]
    stale = phone.post(
        f"/t/{table}/play",
        data={"csrf_token": token, "card": v["legal"][-1], "version": str(v["version"])},
        headers={"X-Partial": "1"},
    )
    assert stale.status_code == 409 and "moved on" in text(stale)
    assert text(stale).lstrip().startswith('<div id="vt"')  # the partial only, for virtual.js


@pytest.mark.parametrize("digit", ["\u00b2", "\u0661", "\uff15"])  # superscript 2, Arabic-Indic 1, full-width 5
def test_a_number_in_other_digits_is_a_clear_400_not_a_server_error(
    app: Flask, client: FlaskClient, digit: str
) -> None:
    """``"²".isdigit()`` is true but ``int("²")`` fails: every number a seat sends is read as ASCII digits."""
    created, phone, v = _playing_table(app, client)
    table = created["id"]
    before = row(app, table)
    token = token_of(phone, f"/t/{table}")
    played = phone.post(f"/t/{table}/play", data={"csrf_token": token, "card": v["legal"][0], "version": digit})
    assert played.status_code == 400 and "must be a whole number" in text(played)
    moves = phone.get(f"/t/{table}/moves?since={digit}")
    assert (
        moves.status_code == 400 and "must be a move number" in moves.get_json()["error"]["message"]
    )  # JSON, as asked
    seat = created["seats"][0]["token"]
    viewed = client.get(f"/api/tables/{table}/view?since={digit}", headers={"Authorization": f"Bearer {seat}"})
    assert viewed.status_code == 400 and viewed.get_json()["error"]["code"] == "bad_request"
    assert row(app, table) == before


def test_polling_answers_a_version_and_a_partial(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "bot"), seed=2)
    phone = joined(app, created, 0)
    polled = phone.get(f"/t/{created['id']}/version").get_json()
    assert polled["version"] == row(app, created["id"])["version"] and polled["stamp"].startswith(
        f"{polled['version']}."
    )
    part = text(phone.get(f"/t/{created['id']}", headers={"X-Partial": "1"}))
    assert part.lstrip().startswith('<div id="vt"') and "<html" not in part
    assert f'data-stamp="{polled["stamp"]}"' in part
    for call in ("version", "moves"):  # virtual.js's calls answer JSON, refusals too
        refused = app.test_client().get(f"/t/{created['id']}/{call}")
        assert refused.status_code == 404 and refused.get_json()["error"]["code"] == "not_found", call


def test_the_scorecard_link_opens_the_game_page(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "bot"), seed=2)
    phone = joined(app, created, 0)
    answer = phone.get(f"/t/{created['id']}/scorecard")
    assert answer.status_code == 302 and answer.headers["Location"] == f"/g/{created['game_id']}"
    assert phone.get(answer.headers["Location"]).status_code == 200
    share = text(phone.get(f"/g/{created['game_id']}/share"))  # no scorer here: the host has the links
    assert "played at a virtual table" in share and "ask the scorer" not in share


def test_the_host_page_needs_the_host_link(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "Ben"), seed=2)
    phone = joined(app, created, 0)
    assert phone.get(f"/t/{created['id']}/host").status_code == 404
    host = app.test_client()
    host.get(created["host_url"])
    page = host.get(f"/t/{created['id']}/host")
    assert page.status_code == 200
    state = row(app, created["id"])["state"]
    tokens = [created["host_token"], *(s["token"] for s in created["seats"])]
    assert not leaks(text(page), state, None, tokens)  # QR codes and links, but no cards in anyone's hand
    assert host.get(f"/t/{created['id']}").headers["Location"].endswith("/host")


def test_the_last_trick_of_a_hand_stays_on_screen_with_the_result_until_the_next_play(
    app: Flask, client: FlaskClient
) -> None:
    created = create(client, seats("Ann", "bot", "bot"), seed=5, variant="new-jersey")
    token, table = created["seats"][0]["token"], created["id"]
    phone = joined(app, created, 0)
    rng = random.Random(5)
    v = client.get(f"/api/tables/{table}/view", headers=auth(token)).get_json()
    seen_in_hand = seen_after = 0
    while v["hand_number"] <= 3:
        if v["last_trick"] and v["hand_number"] == 3:
            page = text(phone.get(f"/t/{table}"))
            assert "Last trick" in page
            assert all(f'value="{p["card"]}"' not in page for p in v["last_trick"])  # shown, not playable
            seen_in_hand += 1
        if v["phase"] == "bidding" and v["hand_number"] > 1 and not v["trick"]:
            # The engine dealt again, but the hand just over is still shown: its last trick, from
            # the public move log, with who took it, and every seat's result (R19, R20, R26).
            prev = v["previous"]
            plays = [m for m in v["moves"] if m["hand"] == prev["number"] and "card" in m][-3:]
            assert prev["last_trick"] == [{"seat": m["seat"], "card": m["card"]} for m in plays]
            assert prev["last_trick_winner"] == plays[-1]["won_by"] and plays[-1]["hand_over"]
            page = text(phone.get(f"/t/{table}"))
            assert f"Last trick of hand {prev['number']}" in page and "S/O/P" in page
            seen_after += 1
        path, key = ("bid", "bid") if v["phase"] == "bidding" else ("play", "card")
        answer = client.post(f"/api/tables/{table}/{path}", json={key: rng.choice(v["legal"])}, headers=auth(token))
        v = answer.get_json()
    assert seen_in_hand and seen_after


def test_a_finished_game_shows_its_last_trick_once(app: Flask, client: FlaskClient) -> None:
    """The game over, its last trick stood twice: as the hand's latest trick and with hand 25's result."""
    created = create(client, seats("Ann", "bot"), seed=5)
    v = finish(client, created["id"], {0: created["seats"][0]["token"]})
    assert v["phase"] == "finished" and v["last_trick"] == v["previous"]["last_trick"]
    for page in (
        joined(app, created, 0).get(f"/t/{created['id']}"),
        client.get(created["host_url"], follow_redirects=True),
    ):
        shown = text(page)
        assert shown.count('class="vt-plays"') == 1 and f"Last trick of hand {v['previous']['number']}" in shown


@pytest.mark.parametrize(
    "address", ["bid", "play", "settings", "rematch/seat", "start", "fill", "rematch", "seats/1", "seats/1/link"]
)
def test_a_forms_address_opened_with_get_leads_to_the_table(client: FlaskClient, address: str) -> None:
    """A reload or Back after a refused move reopens the form's address: the table, not a 405."""
    created = create(client, seats("Ann", "bot", "bot"), seed=4)
    answer = client.get(f"/t/{created['id']}/{address}")
    assert answer.status_code == 303 and answer.headers["Location"] == f"/t/{created['id']}"


def test_a_link_replaced_while_its_move_was_under_way_is_answered_not_a_500(app: Flask, client: FlaskClient) -> None:
    """The host made a new link for Ann's seat while her tap was on its way. Taken, the move stood but
    the answer read the table again with the old link: a 500 saying nothing was saved. Refused under
    the table's lock, the refusal read it again the same way: a 500 instead of the 403's sentence."""
    from scorekeeper.errors import Forbidden
    from scorekeeper.virtual import pages
    from scorekeeper.virtual import service

    created = create(client, seats("Ann", "bot", "Ben"), seed=3)
    table, ann = created["id"], created["seats"][0]["token"]
    with app.test_request_context(headers={"X-Partial": "1"}):
        tapped = service.open_table(table, ann)  # as the tap's request opened it
    relinked = client.post(f"/api/tables/{table}/seats/0/link", headers=auth(created["host_token"]))
    assert relinked.status_code == 200, relinked.get_json()
    with app.test_request_context(f"/t/{table}/bid", method="POST", headers={"X-Partial": "1"}):
        moved = pages._done(tapped, "virtual.seat")
        assert moved.status_code == 303 and moved.headers["Location"] == f"/t/{table}"
        status = pages.refused(tapped, Forbidden(service.REPLACED))[1]
        assert status == 403
    phone = app.test_client()
    phone.set_cookie(f"vt_{table}", ann)
    answer = phone.get(f"/t/{table}", headers={"X-Partial": "1"})  # where the redirect leads: virtual.js reloads
    assert answer.status_code == 403 and "This link no longer works" in text(answer)


def test_another_seats_link_on_a_phone_that_plays_a_seat_asks_first(app: Flask, client: FlaskClient) -> None:
    """Ben's link sent to Ann's phone turned her screen into Ben's cards and controls at its next look,
    without a word, and Ben's link vanished from the host's page (taken as opened)."""
    created = create(client, seats("Ann", "bot", "Ben"), seed=3)
    table, host = created["id"], auth(created["host_token"])
    ann, ben = created["seats"][0]["token"], created["seats"][1]["token"]
    phone = joined(app, created, 0)
    asked = phone.get(f"/t/{table}/join/{ben}")
    page = text(asked)
    assert (
        asked.status_code == 200 and "This phone plays Ann's seat" in page and "Play Ben's seat on this phone" in page
    )
    assert phone.get_cookie(f"vt_{table}").value == ann  # still Ann's phone
    links = client.get(f"/api/tables/{table}/view", headers=host).get_json()["links"]
    assert [link["seat"] for link in links] == [2]  # Ben's link is still the host's to hand on
    assert phone.get(f"/t/{table}/join/{ann}").status_code == 302  # its own link: no question
    moved = phone.post(f"/t/{table}/join/{ben}", data={"csrf_token": token_of(phone, f"/t/{table}/join/{ben}")})
    assert moved.status_code == 302 and moved.headers["Location"] == f"/t/{table}"
    assert phone.get_cookie(f"vt_{table}").value == ben
    assert phone.get(f"/t/{table}").status_code == 200  # Ben's seat opens on this phone
    assert client.get(f"/api/tables/{table}/view", headers=host).get_json()["links"] == []
    assert phone.post(f"/t/{table}/join/{ben}").status_code == 400  # no page token: nothing moves


@pytest.mark.parametrize(("need", "it"), [(1, "ne manca 1"), (2, "ne mancano 2")])
def test_the_tricks_a_seat_still_needs_take_the_languages_plural(
    app: Flask, client: FlaskClient, need: int, it: str
) -> None:
    created = create(client, seats("Ann", "Ben"), seed=3)
    table, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    for _ in range(2):
        v = next(
            view
            for token in tokens.values()
            if (view := client.get(f"/api/tables/{table}/view", headers=auth(token)).get_json())["to_act"]
            == view["seat"]
        )
        sent = client.post(
            f"/api/tables/{table}/bid", json={"bid": need, "version": v["version"]}, headers=auth(tokens[v["seat"]])
        )
        assert sent.status_code == 200, sent.get_json()
    page = text(joined(app, created, 0).get(f"/t/{table}?lang=it"))
    assert page.count(it) == 2  # both seats bid ``need`` and took nothing yet (R19)
