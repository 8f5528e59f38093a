"""The statistics answer (API.md, "Groups") against figures recomputed here from the rule book:
points R19/R20, S/O/P R26, wins R21 (a shared first place wins for each), schedules R7/R8."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.groups import stats
from scorekeeper.models import Group

from .groups_kit import auth
from .groups_kit import expected_season
from .groups_kit import import_into
from .groups_kit import legal_hands
from .groups_kit import new_group
from .groups_kit import schedule
from .pages_kit import statements
from .virtual_support import finish
from .virtual_support import patient_bots  # noqa: F401 (a fixture)

FIFTEEN = [f"P{i:02}" for i in range(15)]  # 15 players: 5 hands, 3 2 1 2 3 (R8)

#: A finished 15-player game where P00 and P01 share first place with 30 points each (R21).
TIED = [
    ([1] * 15, [1, 1, 1] + [0] * 12),
    ([1] * 15, [1, 1] + [0] * 13),
    ([1] * 15, [0, 0, 1] + [0] * 12),
    ([1] * 15, [1, 1] + [0] * 13),
    ([1] * 15, [1, 1, 1] + [0] * 12),
]


def stats_of(client: FlaskClient, group: dict[str, Any]) -> dict[str, Any]:
    answer = client.get(f"/api/groups/{group['id']}/stats", headers=auth(group["token"]))
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def season_games() -> list[tuple[list[str], list[tuple[list[int], list[int]]]]]:
    """Games of a season: names as typed (the case varies) and their complete hands."""
    three = ["Ann", "Ben", "Cy"]
    return [
        (three, legal_hands(3, 25, seed=11)),  # finished
        (["ann", "CY", "Dee"], legal_hands(3, 25, seed=12)),  # finished, names typed otherwise
        (["Ben", "Dee"], legal_hands(2, 9, seed=13)),  # in progress
        (FIFTEEN[:13] + ["Ann", "Ben"], legal_hands(15, 5, seed=14)),  # finished, 15 players
        (FIFTEEN, TIED),  # finished, a shared win
    ]


def roster_name(typed: str) -> str:
    return {"ann": "Ann", "CY": "Cy"}.get(typed, typed)


def test_every_statistic_matches_the_rule_book(client: FlaskClient) -> None:
    group = new_group(client, players=["Ann", "Ben", "Cy"])
    games = season_games()
    for names, hands in games:
        import_into(client, group, names, hands)
    # An unfinished hand (bids only) counts for nothing (R25).
    partial = import_into(client, group, ["Dee", "Eve"], [])
    client.put(f"/api/games/{partial['id']}/hands/1/bids", json={"bids": [3, 4]}, headers=auth(partial["scorer_token"]))

    expected, pairs = expected_season([([roster_name(n) for n in ns], hs) for ns, hs in games] + [(["Dee", "Eve"], [])])
    answer = stats_of(client, group)
    assert answer["group"] == group["id"]
    by_name = {p["name"]: p for p in answer["players"]}
    assert set(by_name) == set(expected)
    for name, e in expected.items():
        got = by_name[name]
        assert list(got) == [
            "player_id",
            "name",
            "games",
            "finished",
            "wins",
            "hands",
            "set",
            "over",
            "perfect",
            "overtricks",
            "bid",
            "taken",
            "points",
            "made_rate",
            "perfect_rate",
            "by_cards",
            "virtual",
            "with_bots",
        ]
        for key in (
            "games",
            "finished",
            "wins",
            "hands",
            "set",
            "over",
            "perfect",
            "overtricks",
            "bid",
            "taken",
            "points",
        ):
            assert got[key] == getattr(e, key), (name, key)
        assert got["made_rate"] == (round((e.over + e.perfect) / e.hands, 3) if e.hands else 0)
        assert got["perfect_rate"] == (round(e.perfect / e.hands, 3) if e.hands else 0)
        assert got["by_cards"] == dict(sorted(e.by_cards.items(), key=lambda kv: int(kv[0]))), name
    # The shared first place is a win for both (R21), and neither is ahead of the other.
    assert by_name["P00"]["wins"] == by_name["P01"]["wins"] >= 1
    ids = {p["name"]: p["player_id"] for p in answer["players"]}
    names_of = {v: k for k, v in ids.items()}
    got_pairs = {frozenset((names_of[h["a"]], names_of[h["b"]])): h for h in answer["head_to_head"]}
    assert set(got_pairs) == set(pairs)  # every pair that finished a game together, and no other
    for key, h in got_pairs.items():
        a, b = names_of[h["a"]], names_of[h["b"]]
        assert (h["games"], h["a_ahead"], h["b_ahead"]) == (pairs[key]["games"], pairs[key][a], pairs[key][b]), key
    tie = got_pairs[frozenset(("P00", "P01"))]
    assert tie["games"] == 2 and tie["a_ahead"] + tie["b_ahead"] <= 1  # the tied game counts for neither
    # Pairs list each pair once, in roster order (alphabetical).
    order = [p["player_id"] for p in answer["players"]]
    assert all(order.index(h["a"]) < order.index(h["b"]) for h in answer["head_to_head"])
    # A player's page works out their head-to-head from their own games alone: the same figures.
    with client.application.app_context():
        season = stats.season(db.session.get(Group, group["id"]))
        for name, player_id in ids.items():
            mine = {
                (names_of[other.id], games, ahead, behind) for other, games, ahead, behind in season.against(player_id)
            }
            assert mine == {
                (other, pair["games"], pair[name], pair[other])
                for key, pair in pairs.items()
                if name in key
                for other in key - {name}
            }, name


def test_a_player_without_complete_hands_has_zero_rates(client: FlaskClient) -> None:
    group = new_group(client, players=["Ann"])
    (ann,) = stats_of(client, group)["players"]
    assert ann | {"player_id": None} == {
        "player_id": None,
        "name": "Ann",
        "games": 0,
        "finished": 0,
        "wins": 0,
        "hands": 0,
        "set": 0,
        "over": 0,
        "perfect": 0,
        "overtricks": 0,
        "bid": 0,
        "taken": 0,
        "points": 0,
        "made_rate": 0,
        "perfect_rate": 0,
        "by_cards": {},
        "virtual": 0,
        "with_bots": 0,
    }
    assert stats_of(client, group)["head_to_head"] == []


@pytest.mark.usefixtures("patient_bots")
def test_games_entered_hand_by_hand_and_virtual_games_count_alike(client: FlaskClient) -> None:
    group = new_group(client)
    game = client.post(
        f"/api/groups/{group['id']}/games", json={"players": ["Ann", "Ben"]}, headers=auth(group["token"])
    ).get_json()
    hands = [([4, 5], [5, 8]), ([6, 6], [6, 6]), ([11, 1], [3, 8])]  # 13, 12, 11 cards (R7)
    for number, (bids, tricks) in enumerate(hands, start=1):
        for kind, values in (("bids", bids), ("tricks", tricks)):
            answer = client.put(
                f"/api/games/{game['id']}/hands/{number}/{kind}",
                json={kind: values},
                headers=auth(game["scorer_token"]),
            )
            assert answer.status_code == 200, answer.get_json()
    table = client.post(
        f"/api/groups/{group['id']}/tables",
        headers=auth(group["token"]),
        json={"seats": [{"name": "ann"}, {"name": "Robo", "bot": "random"}], "seed": 3},
    ).get_json()
    finish(client, table["id"], {0: table["seats"][0]["token"]})  # Ann plays her seat, Robo is a bot
    played = client.get(f"/api/games/{table['game_id']}", headers=auth(table["host_token"])).get_json()
    virtual = [(h["bids"], h["tricks"]) for h in played["hands"] if h["tricks"] is not None]
    assert len(virtual) == len(schedule(2))  # the whole game was played
    expected, _pairs = expected_season([(["Ann", "Ben"], hands), (["Ann", "Robo"], virtual)])
    by_name = {p["name"]: p for p in stats_of(client, group)["players"]}
    assert set(by_name) == {"Ann", "Ben"}  # a bot is no roster player and has no line
    for name in ("Ann", "Ben"):
        e = expected[name]
        line = by_name[name]
        assert (line["hands"], line["points"], line["set"], line["wins"]) == (e.hands, e.points, e.set, e.wins)
    assert by_name["Ann"]["by_cards"]["13"]["hands"] == 3  # 13 cards: hand 1 of both games and the last one
    assert (by_name["Ann"]["games"], by_name["Ann"]["virtual"], by_name["Ann"]["with_bots"]) == (2, 1, 1)
    assert (by_name["Ben"]["virtual"], by_name["Ben"]["with_bots"]) == (0, 0)


def test_the_statistics_read_a_fixed_number_of_queries_however_many_games(app: Flask, client: FlaskClient) -> None:
    group = new_group(client, players=["Ann", "Ben", "Cy"])

    def queries() -> int:
        with statements(app) as sent:
            assert client.get(f"/api/groups/{group['id']}/stats", headers=auth(group["token"])).status_code == 200
            assert client.get(f"/groups/{group['id']}").status_code == 200
        return len(sent)

    client.set_cookie(f"skg_{group['id']}", group["token"])
    import_into(client, group, ["Ann", "Ben"], legal_hands(2, 3, seed=1))
    one = queries()
    for seed in range(2, 8):
        import_into(client, group, ["Ann", "Ben", "Cy"], legal_hands(3, 4, seed=seed))
    assert queries() == one


@pytest.mark.usefixtures("patient_bots")
def test_a_seat_counts_for_the_person_who_opened_it_whoever_plays_it_now(client: FlaskClient) -> None:
    """Ben plays hand 1 and leaves a bot his seat; Cy never opens hers: the game is Ben's, not Cy's."""
    group = new_group(client)
    table = client.post(
        f"/api/groups/{group['id']}/tables",
        headers=auth(group["token"]),
        json={"seats": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cy"}, {"name": "Robo", "bot": "random"}]},
    ).get_json()
    tokens = {seat: table["seats"][seat]["token"] for seat in (0, 1)}
    host = auth(table["host_token"])

    def to_a_bot(seat: int) -> None:
        answer = client.put(f"/api/tables/{table['id']}/seats/{seat}", json={"bot": "basic"}, headers=host)
        assert answer.status_code == 200, answer.get_json()

    to_a_bot(2)
    finish(client, table["id"], tokens, until=lambda view: view["hand_number"] == 2)
    to_a_bot(1)
    finish(client, table["id"], {0: tokens[0]})
    doc = client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()
    ids = {p["name"]: p["id"] for p in doc["players"]}
    (game,) = doc["games"]
    assert [(s["player_id"], s["bot"]) for s in game["players"]] == [
        (ids["Ann"], None),
        (ids["Ben"], "basic"),
        ("", "basic"),
        ("", "random"),
    ]
    by_name = {p["name"]: p for p in stats_of(client, group)["players"]}
    hands = len(schedule(4))
    assert (by_name["Ben"]["games"], by_name["Ben"]["finished"], by_name["Ben"]["hands"]) == (1, 1, hands)
    assert (by_name["Cy"]["games"], by_name["Cy"]["hands"]) == (0, 0)


def test_a_bots_seat_handed_to_a_person_in_the_lobby_joins_the_roster(client: FlaskClient) -> None:
    group = new_group(client, players=["Ann"])
    table = client.post(
        f"/api/groups/{group['id']}/tables",
        headers=auth(group["token"]),
        json={"seats": [{"name": "Ann"}, {"name": "Dee", "bot": "basic"}], "start": False},
    ).get_json()
    answer = client.put(f"/api/tables/{table['id']}/seats/1", json={"bot": None}, headers=auth(table["host_token"]))
    assert answer.status_code == 200, answer.get_json()
    doc = client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()
    ids = {p["name"]: p["id"] for p in doc["players"]}
    assert [(s["player_id"], s["bot"]) for s in doc["games"][0]["players"]] == [(ids["Ann"], None), (ids["Dee"], None)]


def test_a_rematch_seat_its_player_followed_and_the_host_handed_back_counts_for_them(client: FlaskClient) -> None:
    """Ben's seat ended the game with a bot, so the rematch deals it to a bot; Ben follows from his
    finished screen and the host hands the seat back: the rematch counts for Ben."""
    group = new_group(client, players=["Ann", "Ben"])
    spec = [{"name": "Ann"}, {"name": "Ben"}] + [{"name": f"B{i}", "bot": "random"} for i in range(12)]
    table = client.post(
        f"/api/groups/{group['id']}/tables", headers=auth(group["token"]), json={"seats": spec, "seed": 5}
    ).get_json()
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    for token in tokens.values():
        assert client.get(f"/api/tables/{table['id']}/view", headers=auth(token)).status_code == 200
    host = auth(table["host_token"])
    assert client.put(f"/api/tables/{table['id']}/seats/1", json={"bot": "random"}, headers=host).status_code == 200
    finish(client, table["id"], {0: tokens[0]})
    rematch = client.post(f"/api/tables/{table['id']}/rematch", headers=host).get_json()
    ben = client.post(f"/api/tables/{table['id']}/rematch/seat", headers=auth(tokens[1])).get_json()["token"]
    handed = client.put(f"/api/tables/{rematch['id']}/seats/1", json={"bot": None}, headers=auth(rematch["host_token"]))
    assert handed.status_code == 200, handed.get_json()
    ann = client.post(f"/api/tables/{table['id']}/rematch/seat", headers=auth(tokens[0])).get_json()["token"]
    finish(client, rematch["id"], {0: ann, 1: ben})
    doc = client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()
    ids = {p["name"]: p["id"] for p in doc["players"]}
    again = next(g for g in doc["games"] if g["id"] == rematch["game_id"])
    assert [(s["player_id"], s["bot"]) for s in again["players"][:2]] == [(ids["Ann"], None), (ids["Ben"], None)]
    by_name = {p["name"]: p for p in stats_of(client, group)["players"]}
    assert (by_name["Ann"]["games"], by_name["Ben"]["games"]) == (2, 2)


def test_a_rematch_seats_a_player_renamed_since_under_the_new_name(client: FlaskClient) -> None:
    """Ben renamed Benjamin once the game was over: the rematch seated a new roster player "Ben"
    beside him, and his games were split between the two."""
    group = new_group(client, players=["Ann", "Ben"])
    spec = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Robo", "bot": "random"}]
    table = client.post(
        f"/api/groups/{group['id']}/tables", headers=auth(group["token"]), json={"seats": spec, "seed": 5}
    ).get_json()
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    finish(client, table["id"], tokens)
    ids = {p["name"]: p["id"] for p in group["players"]}
    renamed = client.patch(
        f"/api/groups/{group['id']}/players/{ids['Ben']}", json={"name": "Benjamin"}, headers=auth(group["token"])
    )
    assert renamed.status_code == 200, renamed.get_json()
    rematch = client.post(f"/api/tables/{table['id']}/rematch", headers=auth(table["host_token"])).get_json()
    doc = client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()
    assert sorted(p["name"] for p in doc["players"]) == ["Ann", "Benjamin"]
    again = next(g for g in doc["games"] if g["id"] == rematch["game_id"])
    assert [s["player_id"] for s in again["players"]] == [ids["Ann"], ids["Ben"], ""]
    assert [s["name"] for s in rematch["seats"]][:2] == ["Ann", "Benjamin"]


def test_a_rematch_after_a_player_took_a_bots_name_names_the_bot_apart(client: FlaskClient) -> None:
    """Ben renamed "robo" (a bot's name at the table: bots are no roster players, so the rename
    stands): the rematch was refused for two players of one name (R4), every time it was asked."""
    group = new_group(client, players=["Ann", "Ben"])
    spec = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Robo", "bot": "random"}]
    table = client.post(
        f"/api/groups/{group['id']}/tables", headers=auth(group["token"]), json={"seats": spec, "seed": 5}
    ).get_json()
    finish(client, table["id"], {s["seat"]: s["token"] for s in table["seats"]})
    ids = {p["name"]: p["id"] for p in group["players"]}
    renamed = client.patch(
        f"/api/groups/{group['id']}/players/{ids['Ben']}", json={"name": "robo"}, headers=auth(group["token"])
    )
    assert renamed.status_code == 200, renamed.get_json()
    answer = client.post(f"/api/tables/{table['id']}/rematch", headers=auth(table["host_token"]))
    assert answer.status_code == 201, answer.get_json()
    doc = client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()
    again = next(g for g in doc["games"] if g["id"] == answer.get_json()["game_id"])
    assert [s["name"] for s in again["players"]] == ["Ann", "robo", "Robo 2"]
    assert [s["player_id"] for s in again["players"]] == [ids["Ann"], ids["Ben"], ""]


def test_a_name_whose_only_seat_a_bot_took_unopened_can_leave_the_roster(client: FlaskClient) -> None:
    """Cyd's seat went to a bot before anyone opened it: it counts for nobody, so the name typed for
    it leaves the roster like any name that played no game."""
    group = new_group(client, players=["Ann"])
    table = client.post(
        f"/api/groups/{group['id']}/tables",
        headers=auth(group["token"]),
        json={"seats": [{"name": "Ann"}, {"name": "Cyd"}, {"name": "Robo", "bot": "random"}], "start": False},
    ).get_json()
    assert (
        client.put(
            f"/api/tables/{table['id']}/seats/1", json={"bot": "random"}, headers=auth(table["host_token"])
        ).status_code
        == 200
    )
    by_name = {p["name"]: p for p in stats_of(client, group)["players"]}
    assert by_name["Cyd"]["games"] == 0 and by_name["Ann"]["games"] == 1
    removed = client.delete(
        f"/api/groups/{group['id']}/players/{by_name['Cyd']['player_id']}", headers=auth(group["token"])
    )
    assert removed.status_code in (200, 204), removed.get_json()
    doc = client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()
    assert [p["name"] for p in doc["players"]] == ["Ann"]
    answer = client.put(f"/api/tables/{table['id']}/seats/1", json={"bot": None}, headers=auth(table["host_token"]))
    assert answer.status_code == 200  # handed to a person again: the name joins the roster again
    doc = client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()
    assert sorted(p["name"] for p in doc["players"]) == ["Ann", "Cyd"]


def test_a_bots_seat_handed_to_a_person_mid_hand_joins_the_roster_at_the_next_deal(client: FlaskClient) -> None:
    """The person plays the seat from the next deal (the bot finishes the hand it was dealt): from
    then on the seat's name is a roster player of the group, as a seat handed over in the lobby is."""
    group = new_group(client, players=["Ann"])
    table = client.post(
        f"/api/groups/{group['id']}/tables",
        headers=auth(group["token"]),
        json={"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "random"}, {"name": "Cyd"}], "seed": 5},
    ).get_json()
    tokens = {0: table["seats"][0]["token"], 2: table["seats"][1]["token"]}
    host = auth(table["host_token"])
    assert client.put(f"/api/tables/{table['id']}/seats/1", json={"bot": None}, headers=host).status_code == 200

    def roster() -> list[str]:
        doc = client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()
        return sorted(p["name"] for p in doc["players"])

    assert roster() == ["Ann", "Cyd"]  # the bot plays on this hand
    finish(client, table["id"], tokens, until=lambda view: view["hand_number"] == 2)
    assert roster() == ["Ann", "Cyd", "Robo"]
