"""Virtual tables through the JSON API (API.md, "Virtual mode")."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.bots import BOTS
from scorekeeper.bots.basic import basic_bot
from scorekeeper.engine import build_scorecard
from scorekeeper.engine import check_records
from scorekeeper.engine import HandRecord
from scorekeeper.engine import Rules
from scorekeeper.engine import Suit

from .virtual_support import auth  # noqa: F401 (a fixture)
from .virtual_support import create
from .virtual_support import dispose  # noqa: F401 (a fixture)
from .virtual_support import finish  # noqa: F401 (a fixture)
from .virtual_support import fresh_app  # noqa: F401 (a fixture)
from .virtual_support import leaks  # noqa: F401 (a fixture)
from .virtual_support import patient_bots  # noqa: F401 (a fixture)
from .virtual_support import row  # noqa: F401 (a fixture)
from .virtual_support import seats  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("patient_bots")


def view(client: FlaskClient, table: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table}/view", headers=auth(token))
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def act(client: FlaskClient, table: str, token: str, v: dict[str, Any], rng: random.Random) -> Any:
    choice = rng.choice(v["legal"])
    if v["phase"] == "bidding":
        return client.post(
            f"/api/tables/{table}/bid", json={"bid": choice, "version": v["version"]}, headers=auth(token)
        )
    return client.post(f"/api/tables/{table}/play", json={"card": choice, "version": v["version"]}, headers=auth(token))


def records_from(doc: dict[str, Any]) -> list[HandRecord]:
    return [HandRecord(tuple(h["bids"]), tuple(h["tricks"]), Suit.parse(h["trump"])) for h in doc["hands"]]


# -- a whole game -------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["standard", "new-jersey"])
def test_a_whole_game_with_one_human_and_three_random_bots_agrees_with_the_rules_engine(
    app: Flask, client: FlaskClient, variant: str
) -> None:
    created = create(client, seats("Ann", "bot", "bot", "bot"), variant=variant, first_dealer=2, seed=7)
    table, token = created["id"], created["seats"][0]["token"]
    assert [s["seat"] for s in created["seats"]] == [0]  # tokens for human seats only
    rng = random.Random(1)
    seen: dict[int, dict[str, Any]] = {}  # what Ann saw of each finished hand
    v = view(client, table, token)
    steps = 0
    while v["phase"] != "finished":
        assert v["your_turn"] and v["to_act"] == 0, "an answer reflects every bot move up to the next human turn"
        answer = act(client, table, token, v, rng)
        assert answer.status_code == 200, answer.get_json()
        v = answer.get_json()
        if v["previous"]:
            seen[v["previous"]["number"]] = v["previous"]
        steps += 1
    rules = Rules.build(4, variant)
    assert steps == rules.hand_count + sum(rules.schedule)  # one bid and every card of every hand

    doc = client.get(f"/api/games/{created['game_id']}", headers=auth(created["host_token"])).get_json()
    assert doc["mode"] == "virtual" and doc["status"] == "finished"
    assert [h["cards"] for h in doc["hands"]] == list(rules.schedule)
    records = records_from(doc)
    check_records(rules, 2, records)  # R22–R25, dealer rotation included
    card = build_scorecard(rules, 2, records)
    assert doc["totals"] == card.totals == v["totals"]
    assert doc["winners"] == card.winners == v["winners"]
    assert doc["stats"] == card.to_dict()["stats"]
    for line, hand in zip(card.hands, doc["hands"]):
        assert sum(hand["tricks"]) == hand["cards"]  # every trick won by exactly one player (R23)
        assert hand["dealer"] == (2 + hand["number"] - 1) % 4  # R5
        assert hand["points"] == line.points and hand["totals"] == line.totals and hand["outcomes"] == line.outcomes
        shown = seen[hand["number"]]
        assert (shown["bids"], shown["tricks"], shown["points"]) == (hand["bids"], hand["tricks"], hand["points"])
    watched = client.get(f"/api/games/{created['game_id']}", headers=auth(token))
    assert watched.status_code == 200 and watched.get_json()["totals"] == doc["totals"]  # a seat may watch it too


def test_bots_play_up_to_the_first_human_turn_before_the_first_answer(client: FlaskClient) -> None:
    created = create(client, seats("bot", "bot", "Cy", "bot"), first_dealer=3, seed=3)  # seat 0 bids first
    v = view(client, created["id"], created["seats"][0]["token"])
    assert v["phase"] == "bidding" and v["to_act"] == 2 and v["your_turn"]
    assert v["bids"][0] is not None and v["bids"][1] is not None and v["bids"][3] is None
    assert len(v["hand"]) == 13 and v["legal"] == list(range(1, 14))


def test_the_table_continues_on_another_app_after_a_restart(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "bot", "Ben"), seed=11)
    table = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    seat = row(app, table)["state"]["to_act"]
    second = fresh_app(app.config["SQLALCHEMY_DATABASE_URI"])  # another worker, or the server restarted
    try:
        c2 = second.test_client()
        v2 = view(c2, table, tokens[seat])
        assert v2 == view(client, table, tokens[seat])
        answer = act(c2, table, tokens[seat], v2, random.Random(0))
        assert answer.status_code == 200
        assert view(client, table, tokens[seat]) == answer.get_json()
    finally:
        dispose(second)


# -- refusals change nothing ----------------------------------------------------------------------
def _two_humans(client: FlaskClient) -> tuple[str, dict[int, str], dict[str, Any]]:
    created = create(client, seats("Ann", "Ben", "bot", "bot"), first_dealer=3, seed=21)  # Ann bids first
    return created["id"], {s["seat"]: s["token"] for s in created["seats"]}, created


@pytest.mark.parametrize(
    ("who", "path", "payload", "status", "rule", "words"),
    [
        (0, "bid", {"bid": 0}, 422, "R13", "from 1 to 13"),
        (0, "bid", {"bid": 14}, 422, "R13", "not 14"),
        (0, "bid", {"bid": "3"}, 400, None, "whole number of tricks, not '3'."),
        (0, "bid", {"bid": True}, 400, None, "whole number of tricks, not true."),  # JSON's words, not Python's
        (0, "bid", {"bid": None}, 400, None, "whole number of tricks, not null."),
        (0, "bid", {}, 400, None, "'bid'"),
        (1, "bid", {"bid": 3}, 422, "R13", "turn"),
        (0, "play", {"card": "AS"}, 422, "R14", "bidding is under way"),
        (0, "play", {"card": "ZZ"}, 422, "R1", "not a card"),
        (0, "play", {"card": 12}, 400, None, "card code"),
        (0, "play", {"card": None}, 400, None, "not null."),
        (0, "bid", {"bid": 3, "version": 99}, 409, None, "moved on"),
        (0, "bid", {"bid": 3, "version": "1"}, 400, None, "version"),
        (0, "bid", {"bid": 3, "version": -1}, 400, None, "version"),
    ],
)
def test_a_refused_bid_or_card_is_explained_and_changes_nothing(
    app: Flask,
    client: FlaskClient,
    who: int,
    path: str,
    payload: dict[str, Any],
    status: int,
    rule: str | None,
    words: str,
) -> None:
    table, tokens, _ = _two_humans(client)
    before = row(app, table)
    answer = client.post(f"/api/tables/{table}/{path}", json=payload, headers=auth(tokens[who]))
    assert answer.status_code == status
    error = answer.get_json()["error"]
    assert error["rule"] == rule and words in error["message"], error
    assert error["code"] == {400: "bad_request", 409: "conflict", 422: "rule_violation"}[status]
    assert row(app, table) == before


def _find_table_with(client: FlaskClient, want: str) -> tuple[str, str, dict[str, Any]]:
    """A seeded table (Ann and three random bots) where Ann is to play and ``want`` holds."""
    for seed in range(200):
        created = create(client, seats("Ann", "bot", "bot", "bot"), seed=seed, first_dealer=1)
        table, token = created["id"], created["seats"][0]["token"]
        v = view(client, table, token)
        rng = random.Random(seed)
        for _ in range(40):
            if v["phase"] == "playing" and v["your_turn"]:
                if want == "illegal" and v["blocked"]:
                    return table, token, v
                if want == "lead" and not v["trick"]:
                    return table, token, v
            v = act(client, table, token, v, rng).get_json()
    raise AssertionError(f"no seed gives {want}")


def test_an_illegal_card_is_refused_with_the_engines_reason_and_changes_nothing(
    app: Flask, client: FlaskClient
) -> None:
    table, token, v = _find_table_with(client, "illegal")
    code, reason = next(iter(v["blocked"].items()))
    assert code in v["hand"] and code not in v["legal"]
    before = row(app, table)
    answer = client.post(f"/api/tables/{table}/play", json={"card": code}, headers=auth(token))
    assert answer.status_code == 422
    error = answer.get_json()["error"]
    assert error["rule"] in ("R15", "R18") and error["message"] == reason  # the same sentence the card shows
    assert row(app, table) == before


def test_a_card_in_another_hand_is_refused_without_naming_it(app: Flask, client: FlaskClient) -> None:
    table, token, v = _find_table_with(client, "lead")
    state = row(app, table)["state"]
    other = state["hands"][1][0]
    before = row(app, table)
    answer = client.post(f"/api/tables/{table}/play", json={"card": other}, headers=auth(token))
    assert answer.status_code == 422
    error = answer.get_json()["error"]
    assert error["rule"] == "R14" and "not in your hand" in error["message"]
    assert not leaks(answer.get_data(as_text=True), state, 0), error["message"]
    assert row(app, table) == before


def test_a_stale_version_is_refused_with_409(app: Flask, client: FlaskClient) -> None:
    table, tokens, _ = _two_humans(client)
    ann = view(client, table, tokens[0])
    assert (
        client.post(
            f"/api/tables/{table}/bid", json={"bid": 2, "version": ann["version"]}, headers=auth(tokens[0])
        ).status_code
        == 200
    )
    ben = view(client, table, tokens[1])
    before = row(app, table)
    stale = client.post(f"/api/tables/{table}/bid", json={"bid": 2, "version": ann["version"]}, headers=auth(tokens[1]))
    assert stale.status_code == 409 and stale.get_json()["error"]["code"] == "conflict"
    assert row(app, table) == before
    fresh = client.post(f"/api/tables/{table}/bid", json={"bid": 2, "version": ben["version"]}, headers=auth(tokens[1]))
    assert fresh.status_code == 200


@pytest.mark.parametrize(
    ("token_of", "method", "path", "payload", "status"),
    [
        ("host", "post", "bid", {"bid": 3}, 403),
        ("host", "post", "play", {"card": "AS"}, 403),
        ("seat", "post", "start", {}, 403),
        ("seat", "put", "seats/2", {"bot": None}, 403),
        ("wrong", "get", "view", None, 404),
        ("none", "get", "view", None, 404),
        ("host", "put", "seats/9", {"bot": None}, 400),
        ("host", "put", "seats/2", {"bot": "genius"}, 400),
        ("host", "put", "seats/2", {}, 400),
    ],
)
def test_access_rules(
    app: Flask, client: FlaskClient, token_of: str, method: str, path: str, payload: Any, status: int
) -> None:
    table, tokens, created = _two_humans(client)
    token = {"host": created["host_token"], "seat": tokens[0], "wrong": "x" * 32, "none": ""}[token_of]
    before = row(app, table)
    answer = getattr(client, method)(f"/api/tables/{table}/{path}", json=payload, headers=auth(token) if token else {})
    assert answer.status_code == status
    assert answer.get_json()["error"]["code"] == {400: "bad_request", 403: "forbidden", 404: "not_found"}[status]
    assert row(app, table) == before


def test_an_unknown_table_is_404(client: FlaskClient) -> None:
    answer = client.get("/api/tables/nope/view", headers=auth("x" * 32))
    assert answer.status_code == 404 and answer.get_json()["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"seats": [{"name": "Ann"}]}, 422, "2 to 15"),
        ({"seats": "Ann"}, 400, "'seats'"),
        ({"seats": [{}, {"name": "Ben"}]}, 400, "Seat 0 needs a name"),
        ({"seats": [{"name": "Ann"}, {"name": 7}]}, 400, "Seat 1 needs a name"),
        # every message counts seats as the answer does, from 0
        ({"seats": [{"name": " "}, {"name": "Ben"}]}, 400, "Seat 0 has no name"),
        ({"seats": [{"name": "Ann"}, {"name": "x" * 41}]}, 400, "Seat 1's name is longer"),
        ({"seats": [{"name": "Ann"}, {"name": "R", "bot": "genius"}]}, 400, "Seat 1: the bot level"),
        ({"seats": [{"name": "Ann"}, {"name": "Ann"}]}, 400, "Two players"),
        ({"seats": [{"name": "Ann"}, {"name": "R", "bot": "genius"}]}, 400, "bot level"),
        ({"seats": [{"name": "Ann"}, {"name": "Ben"}], "variant": "texas"}, 422, "variant"),
        ({"seats": [{"name": "Ann"}, {"name": "Ben"}], "options": {"jokers": True}}, 400, "Unknown option 'jokers'"),
        ({"seats": [{"name": "Ann"}, {"name": "Ben"}], "first_dealer": 5}, 422, "first dealer"),
        ({"seats": [{"name": "Ann"}, {"name": "Ben"}], "start": "yes"}, 400, "'start'"),
        ({"seats": [{"name": "Ann"}, {"name": "Ben"}], "seed": -1}, 400, "'seed'"),
    ],
)
def test_a_bad_table_is_refused(client: FlaskClient, body: dict[str, Any], status: int, words: str) -> None:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == status
    error = answer.get_json()["error"]
    assert words in error["message"]
    assert error["code"] == {400: "bad_request", 422: "rule_violation"}[status] and (error["rule"] is None) == (
        status == 400
    )


def test_a_seed_is_refused_unless_the_app_allows_seeding(tmp_path: Path) -> None:
    app = fresh_app(f"sqlite:///{tmp_path / 'noseed.sqlite'}", create=True, ALLOW_SEED=False)
    try:
        client = app.test_client()
        answer = client.post("/api/tables", json={"seats": seats("Ann", "bot"), "seed": 4})
        assert answer.status_code == 400 and "SCOREKEEPER_ALLOW_SEED" in answer.get_json()["error"]["message"]
        created = client.post("/api/tables", json={"seats": seats("Ann", "Ben")}).get_json()
        host, seat = auth(created["host_token"]), auth(created["seats"][0]["token"])
        # Calls that need no body refuse a seed or a broken one all the same, and change nothing.
        for path, headers in (("seats/1/link", host), ("rematch", host), ("rematch/seat", seat)):
            for sent in ({"data": '{"seed": 4}'}, {"data": "{{{"}):
                answer = client.post(f"/api/tables/{created['id']}/{path}", headers=headers, **sent)
                assert answer.status_code == 400, (path, sent, answer.get_json())
        assert view(client, created["id"], created["seats"][1]["token"])["version"] == created["view"]["version"]
    finally:
        dispose(app)


def test_seeded_tables_deal_the_same_cards(client: FlaskClient) -> None:
    hands = []
    for _ in range(2):
        created = create(client, seats("Ann", "bot", "bot"), seed=99)
        hands.append(view(client, created["id"], created["seats"][0]["token"])["hand"])
    assert hands[0] == hands[1]


def test_a_bot_decides_from_its_seats_view_and_the_seats_levels(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot is given its own seat's view and which seats are bots of which level, as every seat
    sees them at the table (the strong bot's margin depends on it)."""
    given: list[dict[str, Any]] = []

    def watched(view: dict[str, Any], rules: Rules, rng: random.Random) -> int | str:
        given.append(view)
        return basic_bot(view, rules, rng)

    monkeypatch.setitem(BOTS, "basic", watched)
    created = create(client, [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}, {"name": "Rex", "bot": "random"}])
    ann = created["seats"][0]["token"]
    finish(client, created["id"], {0: ann}, until=lambda v: v["hand_number"] == 2)
    assert given and {v["seat"] for v in given} == {1}
    assert all(v["bots"] == [None, "basic", "random"] for v in given)


# -- host: lobby, start, seats ----------------------------------------------------------------------
def test_a_lobby_waits_for_the_host_to_start(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "Ben", "bot"), start=False, seed=5)
    table, host = created["id"], created["host_token"]
    ann = created["seats"][0]["token"]
    v = view(client, table, ann)
    assert v["phase"] == "lobby" and v["hand"] == [] and v["legal"] == [] and v["hand_number"] == 0
    refused = client.post(f"/api/tables/{table}/bid", json={"bid": 1}, headers=auth(ann))
    assert refused.status_code == 422 and refused.get_json()["error"]["rule"] == "R25"
    hosted = view(client, table, host)
    assert [p["joined"] for p in hosted["players"]] == [True, False, False]  # Ann opened her view
    assert [link["seat"] for link in hosted["links"]] == [1]  # a joined seat's link is no longer shown
    assert [link["token"] for link in hosted["links"]] == [created["seats"][1]["token"]]  # unsealed again
    started = client.post(f"/api/tables/{table}/start", headers=auth(host))
    assert started.status_code == 200
    s = started.get_json()
    assert s["phase"] == "bidding" and s["hand"] == [] and s["seat"] is None  # the host sees no hand
    assert len(view(client, table, ann)["hand"]) == 13
    again = client.post(f"/api/tables/{table}/start", headers=auth(host))
    assert again.status_code == 409


def test_the_host_hands_a_seat_to_a_bot_and_back(app: Flask, client: FlaskClient) -> None:
    table, tokens, created = _two_humans(client)
    host = created["host_token"]
    assert len(view(client, table, tokens[0])["hand"]) == 13  # Ann has opened her link
    ben_before = view(client, table, tokens[1])
    assert ben_before["to_act"] == 0  # Ann must bid: Ben waits
    swapped = client.put(f"/api/tables/{table}/seats/0", json={"bot": "basic"}, headers=auth(host))
    assert swapped.status_code == 200
    s = swapped.get_json()
    assert s["players"][0]["bot"] == "basic" and s["bids"][0] is not None  # the bot bid at once
    ben = view(client, table, tokens[1])
    assert ben["your_turn"] and ben["to_act"] == 1
    back = client.put(f"/api/tables/{table}/seats/0", json={"bot": None}, headers=auth(host))
    assert back.get_json()["players"][0]["bot"] is None
    ann = view(client, table, tokens[0])  # Ann's link still works (one nobody opened would not)
    assert len(ann["hand"]) == 13 and not ann["your_turn"]


def test_a_bot_seat_handed_to_a_person_gets_a_link(client: FlaskClient) -> None:
    table, tokens, created = _two_humans(client)
    host = created["host_token"]
    refused = client.post(f"/api/tables/{table}/seats/3/link", headers=auth(host))  # seats count from 0 (API.md)
    assert refused.status_code == 400 and refused.get_json()["error"]["message"].startswith("Seat 3 is played by a bot")
    answer = client.put(f"/api/tables/{table}/seats/3", json={"bot": None}, headers=auth(host)).get_json()
    link = next(link for link in answer["links"] if link["seat"] == 3)
    v = view(client, table, link["token"])
    assert v["seat"] == 3 and v["name"] == "Robo3" and v["hand"] == []  # its bot finishes the hand it was dealt
    assert v["players"][3] == {**v["players"][3], "bot": "random", "person_from": 2}
    assert link["url"].endswith(f"/t/{table}/join/{link['token']}")


def test_a_stale_seat_swap_is_refused(app: Flask, client: FlaskClient) -> None:
    table, _, created = _two_humans(client)
    before = row(app, table)
    answer = client.put(
        f"/api/tables/{table}/seats/1",
        json={"bot": "random", "version": before["version"] - 1},
        headers=auth(created["host_token"]),
    )
    assert answer.status_code == 409
    assert row(app, table) == before


def test_a_table_of_bots_plays_itself_to_the_end_a_budget_at_a_time(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.virtual import service

    monkeypatch.setattr(service, "BOT_BUDGET_SECONDS", 0.001)
    created = create(client, [{"name": f"B{i}", "bot": "random"} for i in range(14)], seed=2)
    v, looks = created["view"], 0
    while v["phase"] != "finished" and looks < 5000:  # a spectated demo: each look moves the bots on a little
        assert v["bots_thinking"]
        v, looks = view(client, created["id"], created["host_token"]), looks + 1
    assert v["phase"] == "finished" and v["winners"] and looks > 10
    doc = client.get(f"/api/games/{created['game_id']}", headers=auth(created["host_token"])).get_json()
    assert doc["status"] == "finished" and doc["totals"] == v["totals"]


# -- two taps at once ------------------------------------------------------------------------------
def test_two_taps_at_once_never_play_two_cards(app: Flask) -> None:
    client = app.test_client()
    table, token, v = _find_table_with(client, "lead")
    before = row(app, table)
    cards = v["legal"][:2] if len(v["legal"]) > 1 else v["legal"] * 2
    barrier = threading.Barrier(2)
    answers: list[int] = []

    def tap(card: str) -> None:
        c = app.test_client()
        barrier.wait()
        answers.append(
            c.post(
                f"/api/tables/{table}/play", json={"card": card, "version": v["version"]}, headers=auth(token)
            ).status_code
        )

    threads = [threading.Thread(target=tap, args=(card,)) for card in cards]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200, 409]
    after = row(app, table)
    seat = v["seat"]
    assert len(after["state"]["hands"][seat]) == len(before["state"]["hands"][seat]) - 1

    def plays(state: dict[str, Any]) -> int:
        return sum(1 for e in state["log"] if e["seat"] == seat and "card" in e)

    assert plays(after["state"]) == plays(before["state"]) + 1  # one card, then the bots' moves (their own write)


# -- robustness ---------------------------------------------------------------------------------
def test_a_player_rejoins_with_their_link_on_another_phone(app: Flask, client: FlaskClient) -> None:
    created = create(client, seats("Ann", "bot", "bot"), seed=8)
    first = view(client, created["id"], created["seats"][0]["token"])
    act(client, created["id"], created["seats"][0]["token"], first, random.Random(2))
    other_phone = app.test_client()
    assert other_phone.get(created["seats"][0]["url"]).status_code == 302
    page = other_phone.get(f"/t/{created['id']}").get_data(as_text=True)
    again = view(client, created["id"], created["seats"][0]["token"])
    assert all(f'value="{card}"' in page for card in again["hand"])


def test_a_bot_left_to_act_moves_at_the_next_look(app: Flask, client: FlaskClient) -> None:
    """As after a crash between two transactions: the state says a bot is to act, nobody drives it."""
    from scorekeeper.extensions import db
    from scorekeeper.models import VirtualTable

    table, tokens, _ = _two_humans(client)  # Ann (seat 0) is to bid
    with app.app_context():
        stored = db.session.get(VirtualTable, table)
        stored.seats = [dict(s, bot="random") if i == 0 else s for i, s in enumerate(stored.seats)]
        db.session.commit()
    v = view(client, table, tokens[1])
    assert v["bids"][0] is not None and v["to_act"] == 1 and v["your_turn"]


def test_bot_work_is_bounded_per_request_and_the_next_look_continues(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.virtual import service

    monkeypatch.setattr(service, "BOT_BUDGET_SECONDS", 0.0)  # one bot move per request
    created = create(client, seats("Ann", "bot", "bot", "bot"), seed=5, variant="new-jersey", first_dealer=0)
    table, token = created["id"], created["seats"][0]["token"]
    first = created["view"]
    assert first["seq"] == 1 and first["bots_thinking"] and first["to_act"] == 2  # seat 1 bid, seat 2 thinks
    looks = [view(client, table, token) for _ in range(2)]
    assert [v["seq"] for v in looks] == [2, 3] and looks[-1]["your_turn"] and not looks[-1]["bots_thinking"]
    assert [m["seat"] for m in looks[-1]["moves"]] == [1, 2, 3] and all("bid" in m for m in looks[-1]["moves"])
    answer = act(client, table, token, looks[-1], random.Random(0)).get_json()
    # Ann's bid and the first bot card in one request; the other bots' cards at the next looks
    assert answer["phase"] == "playing" and answer["seq"] == 5 and answer["bots_thinking"]
    doc = client.get(f"/api/games/{created['game_id']}", headers=auth(created["host_token"])).get_json()
    assert doc["hands"][0]["bids"] == answer["bids"]
    since = client.get(f"/api/tables/{table}/view?since=4", headers=auth(token)).get_json()
    assert [m["seq"] for m in since["moves"]] == [5, 6] and "card" in since["moves"][0]


def test_the_bots_of_a_process_think_within_their_share_of_its_processor(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many tables of bots only, each created once and then polled, would keep every processor busy:
    the bots of all tables share half of one per process, and a look that finds it spent answers at
    once with the table as it is; the next look goes on."""
    from scorekeeper.virtual import service

    monkeypatch.setattr(service, "BOT_BUDGET_SECONDS", 0.0)  # one bot move per request
    strong = [{"name": f"S{i}", "bot": "strong"} for i in range(3)]
    created = create(client, strong, seed=5)
    table, host = created["id"], created["host_token"]
    monkeypatch.setattr(service, "BOT_SHARE", 0.0)  # spent, and nothing comes back
    service.bot_share.spend(service.bot_share.left() + 0.001)
    before = row(app, table)
    stalled = view(client, table, host)
    assert stalled["bots_thinking"] and stalled["seq"] == created["view"]["seq"] and row(app, table) == before
    monkeypatch.setattr(service, "BOT_SHARE", 1e9)  # the share comes back: the next look goes on
    spent = []
    real_spend = service.bot_share.spend
    monkeypatch.setattr(service.bot_share, "spend", lambda seconds: spent.append(seconds) or real_spend(seconds))
    moved = view(client, table, host)
    assert moved["seq"] > stalled["seq"] and len(spent) == moved["seq"] - stalled["seq"] and min(spent) > 0


@contextmanager
def a_bot_thinking(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[dict[str, Any], list[str]]]:
    """The host starts a table of Ann and two bots from another thread; the first bot's decision is
    held until the block ends. Yields the table and the levels of every decision asked for."""
    from scorekeeper.virtual import service

    thinking, go_on, decided = threading.Event(), threading.Event(), []
    real = service.decide

    def slow(level: str, view: dict[str, Any], rules: Any, rng: random.Random) -> int | str:
        decided.append(level)
        if len(decided) == 1:
            thinking.set()
            assert go_on.wait(30), "the test never let the bot go on"
        return real(level, view, rules, rng)

    monkeypatch.setattr(service, "decide", slow)
    monkeypatch.setattr(service, "BOT_BUDGET_SECONDS", 0.0)  # one move per request
    bots = app.test_client().post("/api/tables", json={"seats": seats("Ann", "bot", "bot"), "start": False}).get_json()
    started: dict[str, int] = {}

    def start() -> None:  # the host deals; seat 1, a bot, bids first and thinks
        host = auth(bots["host_token"])
        started["status"] = app.test_client().post(f"/api/tables/{bots['id']}/start", headers=host).status_code

    starter = threading.Thread(target=start)
    starter.start()
    try:
        assert thinking.wait(30), "the bot never started to think"
        yield bots, decided
    finally:
        go_on.set()
        starter.join(30)
    assert started["status"] == 200


def test_a_look_while_another_request_moves_the_bots_does_not_move_them_again(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Watchers polling a table of bots: one request moves them, the others answer the table as it
    is (their moves would be dropped at the version check: the work wasted, the table slower)."""
    client = app.test_client()
    with a_bot_thinking(app, monkeypatch) as (bots, decided):
        look = view(client, bots["id"], bots["seats"][0]["token"])
        assert look["bots_thinking"] and look["seq"] == 0 and decided == ["random"]  # answered, nothing redone
    assert view(client, bots["id"], bots["seats"][0]["token"])["seq"] >= 1


def test_a_move_at_a_table_without_bots_does_not_wait_for_the_bots_of_another(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every move waited for the process's turn to let bots think before it looked for a bot to
    move: while one table's bots thought, a bid at a table of people held its request (up to 1.2 s
    with the real budget; here, with the wait made a minute, the bid never answers in time)."""
    from scorekeeper.virtual import service

    client = app.test_client()
    people = create(client, seats("Ann", "Ben"), seed=3)
    tokens = [seat["token"] for seat in people["seats"]]
    with a_bot_thinking(app, monkeypatch):
        monkeypatch.setattr(service, "BOT_WAIT_SECONDS", 60.0)
        token = next(t for t in tokens if view(client, people["id"], t)["your_turn"])
        bid = view(client, people["id"], token)["legal"][0]
        answers: list[int] = []
        mover = threading.Thread(
            target=lambda: answers.append(
                app.test_client()
                .post(f"/api/tables/{people['id']}/bid", json={"bid": bid}, headers=auth(token))
                .status_code
            )
        )
        mover.start()
        mover.join(15)
        assert answers == [200], "the bid waited for another table's bots"
    mover.join(90)


@pytest.mark.usefixtures("patient_bots")
@pytest.mark.parametrize("kind", ["bid", "card"])
def test_the_same_move_sent_again_is_answered_as_the_move_it_repeats(app: Flask, kind: str) -> None:
    """Its answer lost, the move is sent again with the screen's version: it counts once and the
    answer is the table after it, not a 409 saying nothing was played; another move from that old
    screen is still refused."""
    client = app.test_client()
    table, token, v = _find_table_with(client, "lead")
    if kind == "bid":  # back to a hand's bidding: the next hand, Ann to bid
        v = finish(client, table, {0: token}, until=lambda w: w["phase"] == "bidding" and w["your_turn"])
    path, move = ("bid", v["legal"][0]) if kind == "bid" else ("play", v["legal"][0])
    body = {kind: move, "version": v["version"]}
    first = client.post(f"/api/tables/{table}/{path}", json=body, headers=auth(token))
    assert first.status_code == 200, first.get_json()
    before = row(app, table)
    again = client.post(f"/api/tables/{table}/{path}", json=body, headers=auth(token))
    assert again.status_code == 200, again.get_json()
    assert row(app, table) == before and again.get_json()["seq"] == first.get_json()["seq"]
    other = next((m for m in v["legal"] if m != move), None)
    if other is not None:
        refused = client.post(f"/api/tables/{table}/{path}", json={**body, kind: other}, headers=auth(token))
        assert refused.status_code in (409, 422) and row(app, table) == before


@pytest.mark.usefixtures("patient_bots")
def test_a_tap_from_before_a_bot_took_the_seat_is_not_taken_for_the_bots_move(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann's seat goes to a bot, which moves; her stale tap of that very move is refused as any tap
    from an old screen is, not answered as a move of hers sent again."""
    from scorekeeper.virtual import service

    client = app.test_client()
    created = create(client, seats("Ann", "bot", "bot"), seed=5)
    table, host, ann = created["id"], auth(created["host_token"]), created["seats"][0]["token"]
    v = view(client, table, ann)
    assert v["your_turn"], v
    monkeypatch.setattr(service, "BOT_BUDGET_SECONDS", 0.0)  # one bot move per request: the game goes on
    assert client.put(f"/api/tables/{table}/seats/0", json={"bot": "random"}, headers=host).status_code == 200
    now = view(client, table, ann)
    played = [m for m in now["moves"] if m["seq"] > v["seq"]][0]
    assert played["seat"] == 0 and now["phase"] != "finished"
    kind, path = ("bid", "bid") if "bid" in played else ("card", "play")
    before = row(app, table)
    stale = client.post(
        f"/api/tables/{table}/{path}", json={kind: played[kind], "version": v["version"]}, headers=auth(ann)
    )
    assert stale.status_code in (409, 422) and row(app, table) == before


def test_a_faulty_bot_is_replaced_by_a_legal_move(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.virtual import service

    def broken(level: str, view: dict[str, Any], rules: Any, rng: Any) -> Any:
        return "not a move"

    monkeypatch.setattr(service, "decide", broken)
    created = create(client, seats("Ann", "bot", "bot"), seed=6, first_dealer=0)
    v = view(client, created["id"], created["seats"][0]["token"])
    assert v["your_turn"] and None not in v["bids"][1:]


def test_bots_think_without_holding_the_database(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a bot decides, another scorer's write (another game) goes through at once: the bots'
    moves are worked out outside any lock and stored in a short write afterwards (on SQLite one
    lock covers the whole database, so a bot thinking inside it would hold every game)."""
    client = app.test_client()
    game = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"]}).get_json()
    with a_bot_thinking(app, monkeypatch) as (bots, decided):
        write = app.test_client().put(
            f"/api/games/{game['id']}/hands/1/bids", json={"bids": [4, 5, 3]}, headers=auth(game["scorer_token"])
        )
        assert write.status_code == 200 and decided == ["random"]  # stored while the bot still thinks
    v = view(client, bots["id"], bots["seats"][0]["token"])
    assert v["bids"][1] is not None  # the bot's bid, stored after its thinking


def test_a_move_stored_is_answered_as_stored_when_the_bots_after_it_cannot_be(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann's bid is stored; the bots' bids after it wait for the database past its timeout (another
    writer, or on PostgreSQL a deadlock broken). The answer said 503 "nothing was saved", and a phone
    sending the bid again was told the table had moved on. Now it is the bid stored, and the next
    look moves the bots."""
    from contextlib import ExitStack

    from scorekeeper import extensions
    from scorekeeper.virtual import service

    from .test_db import another_writer

    monkeypatch.setattr(extensions, "BUSY_TIMEOUT_MS", 200)
    path = tmp_path / "held.sqlite"
    app = fresh_app(f"sqlite:///{path}", create=True)
    client = app.test_client()
    created = create(client, seats("Ann", "bot", "bot"), seed=6, first_dealer=2)
    ann = created["seats"][0]["token"]
    v = view(client, created["id"], ann)
    assert v["your_turn"] and v["phase"] == "bidding"
    thinking, holding = service.decide, []
    with ExitStack() as meanwhile:

        def another_writer_meanwhile(*args: Any) -> Any:
            if not holding:  # holds the lock while the bots' moves wait to be stored
                holding.append(meanwhile.enter_context(another_writer(path)))
            return thinking(*args)

        monkeypatch.setattr(service, "decide", another_writer_meanwhile)
        answer = client.post(f"/api/tables/{created['id']}/bid", json={"bid": v["legal"][0]}, headers=auth(ann))
    monkeypatch.setattr(service, "decide", thinking)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["bids"][0] == v["legal"][0] and answer.get_json()["bids"][1] is None
    after = view(client, created["id"], ann)
    assert None not in after["bids"]  # the next look moved the bots
    dispose(app)


def test_a_malformed_since_is_refused_before_anything_is_stored(app: Flask, client: FlaskClient) -> None:
    """``?since=`` is read for the view a call answers with, after its work: a move was stored, a seat
    marked joined and the bots moved, and the call answered 400 (a rejected request stores nothing)."""
    created = create(client, seats("Ann", "Ben", "bot"), first_dealer=2)  # Ann bids first
    table, ann, host = created["id"], created["seats"][0]["token"], created["host_token"]
    calls = [
        ("get", "view", ann, None),
        ("post", "bid", ann, {"bid": 1}),
        ("put", "seats/1", host, {"bot": "basic"}),
        ("post", "seats/1/link", host, None),
    ]
    for method, path, token, sent in calls:
        before = row(app, table)
        answer = getattr(client, method)(f"/api/tables/{table}/{path}?since=abc", headers=auth(token), json=sent)
        assert answer.status_code == 400 and "'since'" in answer.get_json()["error"]["message"], path
        assert row(app, table) == before, path
    assert client.get(f"/api/tables/{table}/view?since=0", headers=auth(ann)).status_code == 200


def test_a_malformed_since_of_the_screens_poll_lets_no_bot_move(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seat screen's poll for moves (``/t/<id>/moves``) let the bots due move, stored their
    moves, and then refused its ``?since=``."""
    from scorekeeper.virtual import service

    monkeypatch.setattr(service, "BOT_BUDGET_SECONDS", 0.0)  # one bot move per request: some are due
    created = create(client, seats("Ann", "bot", "bot", "bot"), seed=5, variant="new-jersey", first_dealer=0)
    client.get(created["seats"][0]["url"].replace("http://localhost", ""))  # Ann's seat cookie
    before = row(app, created["id"])
    assert before["state"] and created["view"]["bots_thinking"]
    answer = client.get(f"/t/{created['id']}/moves?since=abc")
    assert answer.status_code == 400
    assert row(app, created["id"]) == before
    assert client.get(f"/t/{created['id']}/moves?since=0").status_code == 200
    assert row(app, created["id"]) != before  # a well-formed poll moves the bots on
