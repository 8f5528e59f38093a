"""The groups API of API.md, "Groups": every call, roster matching, rename, merge, and access."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func
from sqlalchemy import insert
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.models import GroupAlias
from scorekeeper.models import GroupPlayer
from scorekeeper.models import GroupSeat

from .groups_kit import auth
from .groups_kit import export_file
from .groups_kit import group_table
from .groups_kit import import_into
from .groups_kit import legal_hands
from .groups_kit import new_group
from .virtual_support import finish
from .virtual_support import patient_bots  # noqa: F401 (a fixture)


def roster(doc: dict[str, Any]) -> dict[str, str]:
    """Name → player id."""
    return {p["name"]: p["id"] for p in doc["players"]}


def new_game(client: FlaskClient, group: dict[str, Any], players: list[str], **body: Any) -> dict[str, Any]:
    answer = client.post(
        f"/api/groups/{group['id']}/games", json={"players": players, **body}, headers=auth(group["token"])
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def group_doc(client: FlaskClient, group: dict[str, Any]) -> dict[str, Any]:
    answer = client.get(f"/api/groups/{group['id']}", headers=auth(group["token"]))
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_creating_a_group_answers_its_document_token_and_join_link(client: FlaskClient) -> None:
    answer = client.post("/api/groups", json={"name": "  Friday   night ", "players": ["Ben", " ann ", "Cy"]})
    assert answer.status_code == 201
    doc = answer.get_json()
    assert answer.headers["Location"] == f"/api/groups/{doc['id']}"
    assert list(doc) == ["id", "name", "players", "games", "token", "url"]
    assert doc["name"] == "Friday night"
    assert [p["name"] for p in doc["players"]] == ["ann", "Ben", "Cy"]  # trimmed, in alphabetical order
    assert len({p["id"] for p in doc["players"]}) == 3 and doc["games"] == []
    assert len(doc["token"]) >= 22  # at least 128 bits, URL-safe
    assert doc["url"].endswith(f"/groups/{doc['id']}/join/{doc['token']}")
    assert answer.headers["Cache-Control"] == "no-store"


def test_the_roster_is_optional(client: FlaskClient) -> None:
    assert new_group(client, players=None)["players"] == []


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "'name' must be the group's name"),
        ({"name": "   "}, "The group has no name"),
        ({"name": "x" * 61}, "longer than 60 characters"),
        ({"name": "Fri\x00day"}, "cannot be printed"),
        ({"name": "Fri", "players": "Ann"}, "'players' must be a list of names"),
        ({"name": "Fri", "players": ["Ann", " ANN "]}, "Two players are called 'ANN'"),
        ({"name": "Fri", "players": ["Ann", ""]}, "Player 2 has no name"),
        ({"name": "Fri", "players": ["y" * 41]}, "Player 1's name is longer than 40 characters"),
        ({"name": "Fri", "players": [f"P{i}" for i in range(301)]}, "at most 300 players"),
    ],
)
def test_a_bad_group_is_refused_with_a_sentence_and_nothing_stored(
    app: Flask, client: FlaskClient, body: dict[str, Any], message: str
) -> None:
    answer = client.post("/api/groups", json=body)
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["code"] == "bad_request" and message in error["message"]
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(GroupPlayer)) == 0


def test_names_at_a_group_game_match_the_roster_trimmed_and_case_insensitively(client: FlaskClient) -> None:
    group = new_group(client, players=["Ann", "Ben"])
    ids = roster(group)
    game = new_game(client, group, [" ann", "BEN ", "Cy"])
    assert [p["name"] for p in game["players"]] == ["ann", "BEN", "Cy"]  # the game keeps what was typed
    assert game["scorer_token"] and game["watch_token"] and game["scorer_url"]
    doc = group_doc(client, group)
    assert roster(doc) == {"Ann": ids["Ann"], "Ben": ids["Ben"], "Cy": roster(doc)["Cy"]}  # Cy joined
    (listed,) = doc["games"]
    assert listed["id"] == game["id"] and listed["mode"] == "table" and listed["status"] == "in_progress"
    assert listed["players"] == [
        {"seat": 0, "player_id": ids["Ann"], "name": "ann", "bot": None},
        {"seat": 1, "player_id": ids["Ben"], "name": "BEN", "bot": None},
        {"seat": 2, "player_id": roster(doc)["Cy"], "name": "Cy", "bot": None},
    ]
    assert listed["totals"] == [0, 0, 0] and listed["winners"] == []
    assert listed["created_at"] == game["created_at"]
    # The game itself is an ordinary game: its own tokens open it.
    assert client.get(f"/api/games/{game['id']}", headers=auth(game["watch_token"])).status_code == 200


def test_games_are_listed_newest_first_with_their_totals_and_winners(client: FlaskClient) -> None:
    group = new_group(client)
    names = [f"P{i}" for i in range(15)]  # 15 players: a 5-hand game (R8)
    first = import_into(client, group, names, legal_hands(15, seed=3))
    second = new_game(client, group, ["Ann", "Ben"])
    doc = group_doc(client, group)
    assert [g["id"] for g in doc["games"]] == [second["id"], first["id"]]
    assert doc["games"][1]["status"] == "finished"
    assert doc["games"][1]["totals"] == first["totals"] and doc["games"][1]["winners"] == first["winners"]


def test_a_virtual_table_in_a_group_records_its_game_there(client: FlaskClient) -> None:
    group = new_group(client, players=["Ann"])
    answer = client.post(
        f"/api/groups/{group['id']}/tables",
        headers=auth(group["token"]),
        json={
            "seats": [{"name": "ANN"}, {"name": "Robo", "bot": "basic"}, {"name": "Bolt", "bot": "random"}],
            "seed": 5,
        },
    )
    assert answer.status_code == 201, answer.get_json()
    table = answer.get_json()
    assert {"id", "game_id", "host_token", "seats"} <= set(table)
    doc = group_doc(client, group)
    (listed,) = doc["games"]
    assert listed["id"] == table["game_id"] and listed["mode"] == "virtual"
    assert listed["players"] == [
        {"seat": 0, "player_id": roster(group)["Ann"], "name": "ANN", "bot": None},
        {"seat": 1, "player_id": "", "name": "Robo", "bot": "basic"},
        {"seat": 2, "player_id": "", "name": "Bolt", "bot": "random"},
    ]
    assert set(roster(doc)) == {"Ann"}  # bots are no roster players


def test_an_import_into_a_group_answers_like_an_import(client: FlaskClient) -> None:
    group = new_group(client)
    hands = [([4, 5, 3], [5, 3, 5]), ([2, 6, 4], [2, 7, 3])]  # RULES.md's worked example
    game = import_into(client, group, ["Ann", "Ben", "Cy"], hands)
    assert game["totals"] == [61, 11, -8] and game["scorer_token"]
    assert [g["id"] for g in group_doc(client, group)["games"]] == [game["id"]]


def test_a_game_imported_into_the_group_that_holds_it_is_refused(client: FlaskClient) -> None:
    """The group's own export imported back (a "restore" into the same group) counted every game
    twice in the statistics; into another group it is a game of that group."""
    group = new_group(client)
    game = import_into(client, group, ["Ann", "Ben", "Cy"], [([4, 5, 3], [5, 3, 5])])
    exported = client.get(f"/api/groups/{group['id']}/export.json", headers=auth(group["token"])).get_json()
    entry = exported["games"][0]
    answer = client.post(f"/api/groups/{group['id']}/import", json=entry, headers=auth(group["token"]))
    assert answer.status_code == 400
    assert f"This game is in the group already (id {game['id']})" in answer.get_json()["error"]["message"]
    assert [g["id"] for g in group_doc(client, group)["games"]] == [game["id"]]
    other = new_group(client, "Saturdays")
    assert client.post(f"/api/groups/{other['id']}/import", json=entry, headers=auth(other["token"])).status_code == 201
    # that group's copy, from its own export, is the same game: back in the first group it counted twice
    (copy,) = client.get(f"/api/groups/{other['id']}/export.json", headers=auth(other["token"])).get_json()["games"]
    assert copy["id"] != game["id"] and copy["origin"] == game["id"]
    answer = client.post(f"/api/groups/{group['id']}/import", json=copy, headers=auth(group["token"]))
    assert answer.status_code == 400
    assert f"This game is in the group already (id {game['id']})" in answer.get_json()["error"]["message"]
    assert [g["id"] for g in group_doc(client, group)["games"]] == [game["id"]]


def test_a_games_file_imported_into_a_group_a_second_time_is_refused(client: FlaskClient) -> None:
    """An import sent again (its first answer lost on the way back, or the file chosen twice) made
    a second copy of the game, which counted twice in the group's statistics."""
    made = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"], "first_dealer": 0}).get_json()
    exported = client.get(f"/api/games/{made['id']}/export.json", headers=auth(made["scorer_token"])).get_json()
    group = new_group(client)
    first = client.post(f"/api/groups/{group['id']}/import", json=exported, headers=auth(group["token"]))
    assert first.status_code == 201, first.get_json()
    again = client.post(f"/api/groups/{group['id']}/import", json=exported, headers=auth(group["token"]))
    assert again.status_code == 400
    assert f"This game is in the group already (id {made['id']})" in again.get_json()["error"]["message"]
    assert [g["id"] for g in group_doc(client, group)["games"]] == [first.get_json()["id"]]
    # The copy's own export (its new id) is refused too, and a file without an id is not compared.
    copy_file = client.get(
        f"/api/games/{first.get_json()['id']}/export.json", headers=auth(first.get_json()["scorer_token"])
    ).get_json()
    assert (
        client.post(f"/api/groups/{group['id']}/import", json=copy_file, headers=auth(group["token"])).status_code
        == 400
    )
    for unusable in (None, "ab\x00cd"):  # no id, or one no database column holds (PostgreSQL: 500): not compared
        exported["id"] = unusable
        assert (
            client.post(f"/api/groups/{group['id']}/import", json=exported, headers=auth(group["token"])).status_code
            == 201
        )


def test_a_virtual_games_export_brings_no_bot_to_the_roster_and_its_import_keeps_the_marks(client: FlaskClient) -> None:
    """A game played against bots outside the group, exported and imported into it: Robo and Rita
    joined the roster and its leaderboard. The export marks a bot's seat; in a group it counts for nobody."""
    table = client.post(
        "/api/tables",
        json={"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "strong"}, {"name": "Rita", "bot": "basic"}]},
    ).get_json()
    exported = client.get(f"/api/games/{table['game_id']}/export.json", headers=auth(table["host_token"])).get_json()
    assert exported["players"] == [
        {"seat": 0, "name": "Ann"},
        {"seat": 1, "name": "Robo", "bot": "strong"},
        {"seat": 2, "name": "Rita", "bot": "basic"},
    ]
    group = new_group(client)
    answer = client.post(f"/api/groups/{group['id']}/import", json=exported, headers=auth(group["token"]))
    assert answer.status_code == 201, answer.get_json()
    assert list(roster(group_doc(client, group))) == ["Ann"]
    stats = client.get(f"/api/groups/{group['id']}/stats", headers=auth(group["token"])).get_json()
    assert [p["name"] for p in stats["players"]] == ["Ann"]
    plain = client.post("/api/games/import", json=exported)  # outside a group the marks change nothing
    assert plain.status_code == 201 and [p["name"] for p in plain.get_json()["players"]] == ["Ann", "Robo", "Rita"]
    # The imported games keep the marks: exported again, then imported into another group, no bot
    # joins its roster either (they were dropped, and there Robo and Rita became players).
    again = client.get(
        f"/api/games/{plain.get_json()['id']}/export.json", headers=auth(plain.get_json()["watch_token"])
    )
    assert again.get_json()["players"] == exported["players"]
    whole = client.get(f"/api/groups/{group['id']}/export.json", headers=auth(group["token"])).get_json()
    assert whole["games"][0]["players"] == exported["players"]
    other = new_group(client)
    for file in (again.get_json(), whole["games"][0]):
        answer = client.post(f"/api/groups/{other['id']}/import", json=file, headers=auth(other["token"]))
        assert answer.status_code == 201, answer.get_json()
    assert list(roster(group_doc(client, other))) == ["Ann"]
    stats = client.get(f"/api/groups/{other['id']}/stats", headers=auth(other["token"])).get_json()
    assert [(p["name"], p["with_bots"]) for p in stats["players"]] == [("Ann", 2)]
    exported["players"][1]["bot"] = "grandmaster"
    refused = client.post(f"/api/groups/{group['id']}/import", json=exported, headers=auth(group["token"]))
    assert refused.status_code == 400 and refused.get_json()["error"]["message"] == (
        'The file\'s players[1].bot should be a bot level (random, basic, strong) or null, not "grandmaster".'
    )
    assert len(group_doc(client, group)["games"]) == 1


def test_a_seat_handed_to_a_bot_after_its_person_opened_it_comes_back_to_them_from_the_export(
    client: FlaskClient,
) -> None:
    """Ann and Ben opened their seats, then the host gave both to bots: the game counts for them
    (README), but their export entry, imported into another group or back into this one after the
    game was taken out, counted for nobody: the seats' bot marks won over ``group_players``."""
    group = new_group(client)
    table = group_table(client, group, [{"name": "Ann"}, {"name": "Robo", "bot": "random"}, {"name": "Ben"}])
    for seat in table["seats"]:  # each person opens their seat
        assert client.get(f"/api/tables/{table['id']}/view", headers=auth(seat["token"])).status_code == 200
    for seat in (0, 2):
        handed = client.put(
            f"/api/tables/{table['id']}/seats/{seat}", json={"bot": "random"}, headers=auth(table["host_token"])
        )
        assert handed.status_code == 200, handed.get_json()
    ids = roster(group_doc(client, group))
    (entry,) = client.get(f"/api/groups/{group['id']}/export.json", headers=auth(group["token"])).get_json()["games"]
    assert [p.get("bot") for p in entry["players"]] == ["random"] * 3
    assert entry["group_players"] == [ids["Ann"], "", ids["Ben"]]
    other = new_group(client, "Saturdays")
    assert client.post(f"/api/groups/{other['id']}/import", json=entry, headers=auth(other["token"])).status_code == 201
    assert sorted(roster(group_doc(client, other))) == ["Ann", "Ben"]
    headers = auth(group["token"])
    assert client.delete(f"/api/groups/{group['id']}/games/{table['game_id']}", headers=headers).status_code == 200
    again = client.post(f"/api/groups/{group['id']}/import", json=entry, headers=headers)
    assert again.status_code == 201, again.get_json()
    (game,) = group_doc(client, group)["games"]
    assert [p["player_id"] for p in game["players"]] == [ids["Ann"], "", ids["Ben"]]
    stats = client.get(f"/api/groups/{group['id']}/stats", headers=headers).get_json()
    assert sorted((p["name"], p["games"]) for p in stats["players"]) == [("Ann", 1), ("Ben", 1)]


def test_a_game_of_the_groups_export_comes_back_to_the_same_players(client: FlaskClient) -> None:
    """``group_players`` keeps a renamed or merged player's seat; a seat for nobody stays so."""
    group = new_group(client)
    import_into(client, group, ["Ann", "Annie"], legal_hands(2, 3))
    import_into(client, group, ["Annie", "Ben", "Robo"], legal_hands(3, 3))
    ids = roster(group_doc(client, group))
    headers = auth(group["token"])
    client.patch(f"/api/groups/{group['id']}/players/{ids['Ben']}", json={"name": "Benjamin"}, headers=headers)
    whole = client.get(f"/api/groups/{group['id']}/export.json", headers=headers).get_json()
    refused = client.post(f"/api/groups/{group['id']}/import", json=whole, headers=headers)
    assert refused.status_code == 400 and refused.get_json()["error"]["message"] == (
        "This is the export of a whole group: import its games one at a time, each entry of its 'games' list as a "
        "file of its own."
    )
    exported = whole["games"][0]
    exported["group_players"][2] = ""  # as a bot's seat is written
    # taken out of the group (a slip), then imported back from the export
    assert client.delete(f"/api/groups/{group['id']}/games/{exported['id']}", headers=headers).status_code == 200
    again = client.post(f"/api/groups/{group['id']}/import", json=exported, headers=headers)
    assert again.status_code == 201, again.get_json()
    doc = group_doc(client, group)
    assert sorted(roster(doc)) == ["Ann", "Annie", "Benjamin", "Robo"]  # no second Ben
    (game,) = [g for g in doc["games"] if g["id"] == again.get_json()["id"]]
    assert [p["player_id"] for p in game["players"]] == [ids["Annie"], ids["Ben"], ""]


def test_a_game_of_one_groups_export_keeps_its_renames_and_merges_in_another_group(client: FlaskClient) -> None:
    """Another group knows none of the export's player ids: the seats go by the roster names the
    export gives (``group_names``), not by the names written in the game."""
    group = new_group(client)
    headers = auth(group["token"])
    import_into(client, group, ["Ann", "Ben", "Cy"], legal_hands(3, 2))
    import_into(client, group, ["Annie", "Bob", "Cy"], legal_hands(3, 2))
    ids = roster(group_doc(client, group))
    client.patch(f"/api/groups/{group['id']}/players/{ids['Ben']}", json={"name": "Benjamin"}, headers=headers)
    merged = client.post(
        f"/api/groups/{group['id']}/players/{ids['Annie']}/merge", json={"into": ids["Ann"]}, headers=headers
    )
    assert merged.status_code == 200, merged.get_json()
    exported = client.get(f"/api/groups/{group['id']}/export.json", headers=headers).get_json()["games"]
    assert [g["group_names"] for g in exported] == [["Ann", "Bob", "Cy"], ["Ann", "Benjamin", "Cy"]]
    other = new_group(client)
    for game in reversed(exported):
        answer = client.post(f"/api/groups/{other['id']}/import", json=game, headers=auth(other["token"]))
        assert answer.status_code == 201, answer.get_json()
    doc = group_doc(client, other)
    assert sorted(roster(doc)) == ["Ann", "Benjamin", "Bob", "Cy"]  # no Annie, no Ben
    assert [[p["name"] for p in g["players"]] for g in doc["games"]] == [["Annie", "Bob", "Cy"], ["Ann", "Ben", "Cy"]]
    again = roster(doc)
    assert [[p["player_id"] for p in g["players"]] for g in doc["games"]] == [
        [again["Ann"], again["Bob"], again["Cy"]],
        [again["Ann"], again["Benjamin"], again["Cy"]],
    ]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("group_players", "x", "'group_players' must list one roster player id per seat"),
        ("group_players", ["", ""], "'group_players' must list one roster player id per seat"),
        ("group_players", ["p", "p", ""], "'group_players' names a player at two seats"),
        ("group_names", "Ann", "'group_names' must list one roster name per seat"),
        ("group_names", ["Ann", "Ben"], "'group_names' must list one roster name per seat"),
        ("group_names", ["Ann", "Ben", "x" * 41], "'group_names', seat 3: The player's name is longer"),
        ("group_names", ["Ann", "ann ", ""], "'group_names' names a player at two seats"),  # a seat lost otherwise
    ],
)
def test_bad_seats_of_a_group_export_are_refused_and_store_nothing(
    app: Flask, client: FlaskClient, field: str, value: object, message: str
) -> None:
    group = new_group(client)
    body = export_file(["Ann", "Ben", "Cy"], legal_hands(3, 2)) | {field: value}
    answer = client.post(f"/api/groups/{group['id']}/import", json=body, headers=auth(group["token"]))
    assert answer.status_code == 400 and message in answer.get_json()["error"]["message"]
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 0
        assert db.session.scalar(select(func.count()).select_from(GroupPlayer)) == 0


@pytest.mark.parametrize(
    ("call", "body", "status", "code"),
    [
        ("games", {"players": ["Ann"]}, 422, "rule_violation"),  # R4
        ("games", {"players": ["Ann", "ann "]}, 400, "bad_request"),
        ("tables", {"seats": "Ann"}, 400, "bad_request"),
        # The view answered is read after the table is made: its 'since' is checked before.
        ("tables?since=abc", {"seats": [{"name": "Ann"}, {"bot": "basic"}]}, 400, "bad_request"),
        # Seats counted before any is read: not "Seat 0 needs a name", R4 (and no work per seat).
        ("tables", {"seats": [{}] * 100_000}, 422, "rule_violation"),
        ("import", {"format": "other"}, 400, "bad_request"),
        (
            "import",
            {
                "format": "bluke-scorekeeper",
                "format_version": 1,
                "variant": "standard",
                "first_dealer": 0,
                "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Eve"}],
                "hands": [{"number": 1, "bids": [14, 1], "tricks": None}],
            },
            422,
            "rule_violation",
        ),  # R22
    ],
)
def test_a_refused_game_in_a_group_stores_no_game_and_no_new_player(
    app: Flask, client: FlaskClient, call: str, body: dict[str, Any], status: int, code: str
) -> None:
    group = new_group(client, players=["Ann"])
    answer = client.post(f"/api/groups/{group['id']}/{call}", json=body, headers=auth(group["token"]))
    assert answer.status_code == status and answer.get_json()["error"]["code"] == code
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 0
        assert db.session.scalar(select(func.count()).select_from(GroupPlayer)) == 1


def test_renaming_a_player_changes_the_roster_and_statistics_but_not_recorded_games(client: FlaskClient) -> None:
    group = new_group(client, players=["Ann", "Ben"])
    ids = roster(group)
    game = new_game(client, group, ["Ann", "Ben"])
    answer = client.patch(
        f"/api/groups/{group['id']}/players/{ids['Ann']}", json={"name": " Ann  B. "}, headers=auth(group["token"])
    )
    assert answer.status_code == 200, answer.get_json()
    doc = answer.get_json()
    assert roster(doc) == {"Ann B.": ids["Ann"], "Ben": ids["Ben"]}
    assert doc["games"][0]["players"][0] == {"seat": 0, "player_id": ids["Ann"], "name": "Ann", "bot": None}
    stats = client.get(f"/api/groups/{group['id']}/stats", headers=auth(group["token"])).get_json()
    assert {p["name"] for p in stats["players"]} == {"Ann B.", "Ben"}
    assert (
        client.get(f"/api/games/{game['id']}", headers=auth(game["watch_token"])).get_json()["players"][0]["name"]
        == "Ann"
    )
    # The new name is what later games match.
    new_game(client, group, ["ann b.", "Ben"])
    assert roster(group_doc(client, group)) == {"Ann B.": ids["Ann"], "Ben": ids["Ben"]}


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"name": "ben"}, 400, "'Ben' is already a player of this group"),
        ({"name": "\u200cBen\u200d"}, 400, "'Ben' is already a player of this group"),
        ({"name": ""}, 400, "The player has no name"),
        ({"name": 3}, 400, "'name' must be the player's new name"),
        ({}, 400, "The body needs 'name'"),
        ({"name": "Ann B.", "was": 3}, 400, "'was' must be the player's name as you saw it"),
        ({"name": "Ann B.", "was": "Anne"}, 409, "'Anne' was renamed 'Ann' meanwhile"),
    ],
)
def test_a_bad_rename_is_refused(client: FlaskClient, body: dict[str, Any], status: int, message: str) -> None:
    group = new_group(client, players=["Ann", "Ben"])
    answer = client.patch(
        f"/api/groups/{group['id']}/players/{roster(group)['Ann']}", json=body, headers=auth(group["token"])
    )
    assert answer.status_code == status and message in answer.get_json()["error"]["message"]
    assert roster(group_doc(client, group)).keys() == {"Ann", "Ben"}


def test_two_phones_renaming_one_player_from_the_same_page_do_not_overwrite_each_other(client: FlaskClient) -> None:
    """Both phones showed "Ann": the second rename was written over the first, unseen. Given the
    name the phone showed (``was``), it is refused; the same rename from both is done once."""
    group = new_group(client, players=["Ann", "Ben"])
    url = f"/api/groups/{group['id']}/players/{roster(group)['Ann']}"
    first = client.patch(url, json={"name": "Ann A", "was": "Ann"}, headers=auth(group["token"]))
    assert first.status_code == 200
    second = client.patch(url, json={"name": "Ann B", "was": " Ann "}, headers=auth(group["token"]))
    assert second.status_code == 409 and second.get_json()["error"]["code"] == "conflict"
    assert "'Ann' was renamed 'Ann A' meanwhile" in second.get_json()["error"]["message"]
    assert roster(group_doc(client, group)).keys() == {"Ann A", "Ben"}
    again = client.patch(url, json={"name": "Ann A", "was": "Ann"}, headers=auth(group["token"]))
    assert again.status_code == 200 and roster(again.get_json()).keys() == {"Ann A", "Ben"}


def test_the_roster_is_in_alphabetical_order_in_every_script(client: FlaskClient) -> None:
    """É after E, Ё with Е, Belarusian І after И, not each after Z or Я as code points put them."""
    names = ["Zoe", "Émile", "ann", "Яна", "Ёжик", "Егор", "Іван", "Жэня", "Ĉiu", "Dan", "Eva"]
    group = new_group(client, players=names)
    expected = ["ann", "Ĉiu", "Dan", "Émile", "Eva", "Zoe", "Егор", "Ёжик", "Жэня", "Іван", "Яна"]
    assert list(roster(group)) == list(roster(group_doc(client, group))) == expected
    players = client.get(f"/api/groups/{group['id']}/stats", headers=auth(group["token"])).get_json()["players"]
    assert [p["name"] for p in players] == expected


def test_a_rename_that_only_changes_case_is_allowed(client: FlaskClient) -> None:
    group = new_group(client, players=["ann"])
    answer = client.patch(
        f"/api/groups/{group['id']}/players/{roster(group)['ann']}", json={"name": "Ann"}, headers=auth(group["token"])
    )
    assert answer.status_code == 200 and list(roster(answer.get_json())) == ["Ann"]


def test_merging_a_typo_moves_its_games_and_statistics_to_the_player_kept(app: Flask, client: FlaskClient) -> None:
    group = new_group(client, players=["Ann", "Ben", "Cy"])
    hands = legal_hands(2, 2, seed=4)
    import_into(client, group, ["Ann", "Ben"], hands)
    typo = import_into(client, group, ["Anne", "Cy"], legal_hands(2, 3, seed=5))
    ids = roster(group_doc(client, group))
    answer = client.post(
        f"/api/groups/{group['id']}/players/{ids['Anne']}/merge",
        json={"into": ids["Ann"]},
        headers=auth(group["token"]),
    )
    assert answer.status_code == 200, answer.get_json()
    doc = answer.get_json()
    assert roster(doc) == {"Ann": ids["Ann"], "Ben": ids["Ben"], "Cy": ids["Cy"]}
    listed = next(g for g in doc["games"] if g["id"] == typo["id"])
    assert listed["players"][0] == {"seat": 0, "player_id": ids["Ann"], "name": "Anne", "bot": None}
    stats = client.get(f"/api/groups/{group['id']}/stats", headers=auth(group["token"])).get_json()
    ann = next(p for p in stats["players"] if p["player_id"] == ids["Ann"])
    assert ann["games"] == 2 and ann["hands"] == 5
    with app.app_context():
        assert db.session.get(GroupPlayer, ids["Anne"]) is None


def test_a_player_merged_on_another_phone_is_named_as_merged_not_as_an_unknown_id(client: FlaskClient) -> None:
    """Two phones merge at once, or one renames a player another just merged: the second was told
    'This group has no player 2675bab71a2c60a4.', an id a member does not know."""
    group = new_group(client)
    headers = auth(group["token"])
    import_into(client, group, ["Ann", "Annie", "Ben"], legal_hands(3, 2))
    import_into(client, group, ["Ann", "Ben", "Cy"], legal_hands(3, 2))
    ids = roster(group_doc(client, group))
    url = f"/api/groups/{group['id']}/players/{ids['Cy']}"
    assert client.post(url + "/merge", json={"into": ids["Annie"]}, headers=headers).status_code == 200
    late = client.patch(url, json={"name": "Cyrus"}, headers=headers)
    assert late.status_code == 404
    assert "merged into another" in late.get_json()["error"]["message"]
    assert sorted(roster(group_doc(client, group))) == ["Ann", "Annie", "Ben"]


def test_a_merged_name_seats_the_player_kept_in_later_games(client: FlaskClient) -> None:
    """A merge is for good: the next game that names "Anne" (any case) seats Ann, no new "Anne"."""
    group = new_group(client, players=["Ann", "Ben"])
    new_game(client, group, ["Anne", "Ben"])
    ids = roster(group_doc(client, group))
    merged = client.post(
        f"/api/groups/{group['id']}/players/{ids['Anne']}/merge",
        json={"into": ids["Ann"]},
        headers=auth(group["token"]),
    )
    assert merged.status_code == 200, merged.get_json()
    later = new_game(client, group, [" ANNE", "Ben"])
    doc = group_doc(client, group)
    assert roster(doc) == {"Ann": ids["Ann"], "Ben": ids["Ben"]}
    assert next(g for g in doc["games"] if g["id"] == later["id"])["players"][0]["player_id"] == ids["Ann"]
    # merged in turn, Ann's names all go along: "Anne" now seats Annie
    annie = new_game(client, group, ["Annie", "Cy"])["id"]
    assert roster(group_doc(client, group))["Annie"]
    ids = roster(group_doc(client, group))
    assert (
        client.post(
            f"/api/groups/{group['id']}/players/{ids['Ann']}/merge",
            json={"into": ids["Annie"]},
            headers=auth(group["token"]),
        ).status_code
        == 200
    ), annie
    third = new_game(client, group, ["anne", "Ben"])
    doc = group_doc(client, group)
    assert next(g for g in doc["games"] if g["id"] == third["id"])["players"][0]["player_id"] == ids["Annie"]
    assert set(roster(doc)) == {"Annie", "Ben", "Cy"}


@pytest.mark.parametrize("players", [["Annie", "Ann", "Ben"], ["Ben", "Ann", "ANNIE"], ["Annie", "Ben", "Anne"]])
def test_a_new_game_may_not_seat_a_player_twice_under_a_merged_name(
    app: Flask, client: FlaskClient, players: list[str]
) -> None:
    """Both names went to Ann: the second seat counted for nobody and the first seat's results
    were Ann's, whoever played them. Refused, nothing stored (R4)."""
    group = new_group(client, players=["Ann", "Annie", "Anne", "Ben"])
    ids = roster(group_doc(client, group))
    for name in ("Annie", "Anne"):
        merged = client.post(
            f"/api/groups/{group['id']}/players/{ids[name]}/merge",
            json={"into": ids["Ann"]},
            headers=auth(group["token"]),
        )
        assert merged.status_code == 200, merged.get_json()
    before = group_doc(client, group)
    answer = client.post(f"/api/groups/{group['id']}/games", json={"players": players}, headers=auth(group["token"]))
    assert answer.status_code == 422, answer.get_json()
    error = answer.get_json()["error"]
    later = next(name for name in reversed(players) if name.lower() in ("annie", "anne"))
    earlier = next(name for name in players if name.lower() in ("ann", "annie", "anne") and name != later)
    assert error["rule"] == "R4"
    assert error["message"] == (
        f"{later} is a name merged into Ann in this group, who is already at this game as {earlier}: "
        "each player holds one seat (R4)."
    )
    assert group_doc(client, group) == before
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 0


def test_a_name_that_looks_like_a_player_id_is_a_name(client: FlaskClient) -> None:
    """A seat's name and a roster player's id were kept in one table: a seat named with Ann's id
    passed for a second seat of Ann (R4 refused a game any group outside would take)."""
    group = new_group(client, players=["Ann"])
    ann = roster(group)["Ann"]
    for players in (["Ann", ann], [ann, "Ann"]):
        answer = client.post(
            f"/api/groups/{group['id']}/games", json={"players": players}, headers=auth(group["token"])
        )
        assert answer.status_code == 201, answer.get_json()


@pytest.mark.usefixtures("patient_bots")
@pytest.mark.parametrize("started", [False, True])
def test_a_bots_seat_is_not_handed_to_a_name_of_a_player_already_at_the_table(
    app: Flask, client: FlaskClient, started: bool
) -> None:
    """Annie was merged into Ann, who holds a seat: handed to a person, Annie's seat counted for
    nobody without a word. Refused (R4), whether the seat goes back at once or at the next deal."""
    group = new_group(client, players=["Ann", "Ben", "Annie"])
    ids = roster(group)
    merged = client.post(
        f"/api/groups/{group['id']}/players/{ids['Annie']}/merge",
        json={"into": ids["Ann"]},
        headers=auth(group["token"]),
    )
    assert merged.status_code == 200
    table = group_table(
        client, group, [{"name": "Ann"}, {"name": "annie", "bot": "random"}, {"name": "Ben"}], start=started
    )
    before = client.get(f"/api/tables/{table['id']}/view", headers=auth(table["host_token"])).get_json()
    refused = client.put(f"/api/tables/{table['id']}/seats/1", json={"bot": None}, headers=auth(table["host_token"]))
    assert refused.status_code == 422, refused.get_json()
    assert refused.get_json()["error"] == {
        "code": "rule_violation",
        "rule": "R4",
        "message": "Annie is a name merged into Ann in this group, who is already at this game as Ann: "
        "each player holds one seat (R4).",
    }
    assert client.get(f"/api/tables/{table['id']}/view", headers=auth(table["host_token"])).get_json() == before


@pytest.mark.usefixtures("patient_bots")
def test_a_name_merged_into_a_player_at_the_table_before_the_next_deal_leaves_the_table_playing(
    client: FlaskClient,
) -> None:
    """Annie's seat goes to her person at the next deal; meanwhile Annie is merged into Ann, who
    holds a seat. At the deal the seat counts for nobody, and the table plays on."""
    group = new_group(client, players=["Ann", "Ben", "Annie"])
    ids = roster(group)
    table = group_table(client, group, [{"name": "Ann"}, {"name": "Annie", "bot": "random"}, {"name": "Ben"}], seed=5)
    host = auth(table["host_token"])
    assert client.put(f"/api/tables/{table['id']}/seats/1", json={"bot": None}, headers=host).status_code == 200
    merged = client.post(
        f"/api/groups/{group['id']}/players/{ids['Annie']}/merge",
        json={"into": ids["Ann"]},
        headers=auth(group["token"]),
    )
    assert merged.status_code == 200
    tokens = {0: table["seats"][0]["token"], 2: table["seats"][1]["token"]}
    finish(client, table["id"], tokens, until=lambda view: view["hand_number"] == 2)  # the table plays on
    seats = next(g for g in group_doc(client, group)["games"] if g["id"] == table["game_id"])["players"]
    assert [seat["player_id"] for seat in seats] == [ids["Ann"], "", ids["Ben"]]


def refused_import(app: Flask, client: FlaskClient, group: dict[str, Any], game: dict[str, Any], message: str) -> None:
    """Importing ``game`` into ``group`` is refused with R4 and ``message``; the group is as it was and
    no game is stored but the one already there."""
    before = group_doc(client, group)
    answer = client.post(f"/api/groups/{group['id']}/import", json=game, headers=auth(group["token"]))
    assert answer.status_code == 422, answer.get_json()
    assert answer.get_json()["error"] == {"code": "rule_violation", "rule": "R4", "message": message}
    assert group_doc(client, group) == before
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 1


def test_an_import_from_another_group_may_not_seat_a_player_twice_under_a_merged_name(
    app: Flask, client: FlaskClient
) -> None:
    """Cy and Dee are two players in the exporting group and one here (Dee merged into Cy): the
    import seated Cy and left Dee's seat counting for nobody. Refused as a new game is (R4)."""
    here = new_group(client, players=["Cy", "Dee", "Ann"])
    ids = roster(here)
    merged = client.post(
        f"/api/groups/{here['id']}/players/{ids['Dee']}/merge", json={"into": ids["Cy"]}, headers=auth(here["token"])
    )
    assert merged.status_code == 200, merged.get_json()
    there = new_group(client, name="Elsewhere")
    import_into(client, there, ["Cy", "Dee", "Ann"], legal_hands(3, 2))
    (game,) = client.get(f"/api/groups/{there['id']}/export.json", headers=auth(there["token"])).get_json()["games"]
    assert game["group_names"] == ["Cy", "Dee", "Ann"]
    refused_import(
        app,
        client,
        here,
        game,
        "Dee is a name merged into Cy in this group, who is already at this game as Cy: "
        "each player holds one seat (R4).",
    )  # one game stored: the other group's only


def test_an_import_may_not_seat_a_player_by_id_and_again_by_their_new_name(app: Flask, client: FlaskClient) -> None:
    """Ann's seat comes back to Ann by id; Ben left the roster and Ann took his name since the
    export, so Ben's seat went by name to Ann as well and counted for nobody. Refused (R4)."""
    group = new_group(client, players=["Ann", "Ben"])
    ids, headers = roster(group), auth(group["token"])
    game = import_into(client, group, ["Ann", "Ben"], legal_hands(2, 3))
    exported = client.get(f"/api/groups/{group['id']}/export.json", headers=headers).get_json()["games"][0]
    assert client.delete(f"/api/groups/{group['id']}/games/{game['id']}", headers=headers).status_code == 200
    assert client.delete(f"/api/groups/{group['id']}/players/{ids['Ben']}", headers=headers).status_code == 200
    renamed = client.patch(f"/api/groups/{group['id']}/players/{ids['Ann']}", json={"name": "Ben"}, headers=headers)
    assert renamed.status_code == 200, renamed.get_json()
    refused_import(
        app,
        client,
        group,
        exported,
        "Ben is the name in this group of the player already at this game as Ann: each player holds one seat (R4).",
    )  # one game stored: the game taken out of the group


def test_an_import_may_not_bring_one_new_name_to_two_seats(app: Flask, client: FlaskClient) -> None:
    """Seat 0's roster name in the exporting group and seat 1's name in the game are one name, new
    here: the import seated it once and left seat 1 counting for nobody. Refused (R4)."""
    there = new_group(client, name="Elsewhere", players=["Ann", "Qux", "Cy"])
    import_into(client, there, ["Ann", "Qux", "Cy"], legal_hands(3, 2))
    (game,) = client.get(f"/api/groups/{there['id']}/export.json", headers=auth(there["token"])).get_json()["games"]
    game["group_names"] = ["Qux", "", "Cy"]  # as an export of renames could name them
    here = new_group(client, players=["Cy"])
    refused_import(
        app, client, here, game, "Two seats of this game come to Qux in this group: each player holds one seat (R4)."
    )  # one game stored: the other group's only


def test_a_merged_name_is_taken_back_only_by_its_player(client: FlaskClient) -> None:
    group = new_group(client, players=["Ann", "Anne", "Ben"])
    ids = roster(group)
    client.post(
        f"/api/groups/{group['id']}/players/{ids['Anne']}/merge",
        json={"into": ids["Ann"]},
        headers=auth(group["token"]),
    )
    taken = client.patch(
        f"/api/groups/{group['id']}/players/{ids['Ben']}", json={"name": "anne"}, headers=auth(group["token"])
    )
    assert taken.status_code == 400 and taken.get_json()["error"]["message"] == (
        "'anne' is a name merged into 'Ann' in this group: it stands for them. Choose another name."
    )  # not "'Ann' is already a player", a name Ben was not given
    back = client.patch(
        f"/api/groups/{group['id']}/players/{ids['Ann']}", json={"name": "Anne"}, headers=auth(group["token"])
    )
    assert back.status_code == 200 and roster(back.get_json()) == {"Anne": ids["Ann"], "Ben": ids["Ben"]}
    later = new_game(client, group, ["Ann", "Ben"])  # "Ann" was renamed, not merged: a new player
    assert roster(group_doc(client, group))["Ann"] != ids["Ann"], later


def test_a_game_taken_out_of_the_group_stops_counting_and_keeps_its_links(app: Flask, client: FlaskClient) -> None:
    group = new_group(client, players=["Ann", "Ben"])
    kept = import_into(client, group, ["Ann", "Ben"], legal_hands(2, 3, seed=1))
    mistake = import_into(client, group, ["Ann", "Ben"], legal_hands(2, 5, seed=2))
    answer = client.delete(f"/api/groups/{group['id']}/games/{mistake['id']}", headers=auth(group["token"]))
    assert answer.status_code == 200, answer.get_json()
    assert [g["id"] for g in answer.get_json()["games"]] == [kept["id"]]
    stats = client.get(f"/api/groups/{group['id']}/stats", headers=auth(group["token"])).get_json()
    assert {(p["name"], p["games"], p["hands"]) for p in stats["players"]} == {("Ann", 1, 3), ("Ben", 1, 3)}
    own = client.get(f"/api/games/{mistake['id']}", headers=auth(mistake["scorer_token"]))
    assert own.status_code == 200 and sum(h["tricks"] is not None for h in own.get_json()["hands"]) == 5
    with app.app_context():
        assert (
            db.session.scalar(select(func.count()).select_from(GroupSeat).where(GroupSeat.game_id == mistake["id"]))
            == 0
        )
    again = client.delete(f"/api/groups/{group['id']}/games/{mistake['id']}", headers=auth(group["token"]))
    assert again.status_code == 404 and again.get_json()["error"]["message"] == "This group has no such game."


def test_only_a_player_without_games_leaves_the_roster(client: FlaskClient) -> None:
    group = new_group(client, players=["Ann", "Ben", "Bne"])
    ids = roster(group)
    new_game(client, group, ["Ann", "Ben"])
    refused = client.delete(f"/api/groups/{group['id']}/players/{ids['Ann']}", headers=auth(group["token"]))
    assert refused.status_code == 400
    assert refused.get_json()["error"]["message"].startswith(
        "Ann sat at 1 of the group's games, so they stay on the roster"
    )
    gone = client.delete(f"/api/groups/{group['id']}/players/{ids['Bne']}", headers=auth(group["token"]))
    assert gone.status_code == 200 and roster(gone.get_json()) == {"Ann": ids["Ann"], "Ben": ids["Ben"]}


def test_a_member_prints_a_group_game_they_hold_no_link_of(client: FlaskClient) -> None:
    group = new_group(client, players=["Ann", "Ben"])
    game = import_into(client, group, ["Ann", "Ben"], legal_hands(2, 2, seed=3))
    answer = client.get(
        f"/api/groups/{group['id']}/games/{game['id']}/scorecard.pdf?chart=1", headers=auth(group["token"])
    )
    assert answer.status_code == 200 and answer.data.startswith(b"%PDF")
    assert answer.headers["Content-Disposition"].endswith(f'-{game["id"]}-creative-chart.pdf"')
    other = new_group(client, "Other")
    foreign = client.get(f"/api/groups/{other['id']}/games/{game['id']}/scorecard.pdf", headers=auth(other["token"]))
    assert foreign.status_code == 404


def test_two_players_who_sat_at_the_same_game_cannot_be_merged(app: Flask, client: FlaskClient) -> None:
    group = new_group(client, players=["Ann", "Ben"])
    ids = roster(group)
    new_game(client, group, ["Ann", "Ben"])
    answer = client.post(
        f"/api/groups/{group['id']}/players/{ids['Ben']}/merge", json={"into": ids["Ann"]}, headers=auth(group["token"])
    )
    assert answer.status_code == 422
    error = answer.get_json()["error"]
    assert error == {
        "code": "rule_violation",
        "rule": "R4",
        "message": "Ben and Ann sat at the same game, so they are two people: each player holds one "
        "seat (R4). They cannot be merged.",
    }
    assert roster(group_doc(client, group)) == ids
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(GroupSeat)) == 2


@pytest.mark.parametrize(
    ("into", "status", "message"),
    [
        ("self", 400, "cannot be merged into themselves"),
        ("ffffffffffffffff", 404, "This group has no player"),
        (7, 400, "'into' must be the id"),
        (None, 400, "'into' must be the id"),
    ],
)
def test_a_bad_merge_is_refused(client: FlaskClient, into: object, status: int, message: str) -> None:
    group = new_group(client, players=["Ann", "Ben"])
    ann = roster(group)["Ann"]
    answer = client.post(
        f"/api/groups/{group['id']}/players/{ann}/merge",
        headers=auth(group["token"]),
        json={"into": ann if into == "self" else into},
    )
    assert answer.status_code == status and message in answer.get_json()["error"]["message"]
    assert roster(group_doc(client, group)).keys() == {"Ann", "Ben"}


def test_renaming_or_merging_an_unknown_player_is_404(client: FlaskClient) -> None:
    group = new_group(client, players=["Ann"])
    answer = client.patch(f"/api/groups/{group['id']}/players/nobody", json={"name": "X"}, headers=auth(group["token"]))
    assert answer.status_code == 404 and answer.get_json()["error"]["code"] == "not_found"
    other = new_group(client, players=["Eve"])  # a player of another group is unknown here
    answer = client.post(
        f"/api/groups/{group['id']}/players/{roster(group)['Ann']}/merge",
        json={"into": roster(other)["Eve"]},
        headers=auth(group["token"]),
    )
    assert answer.status_code == 404


# -- access ---------------------------------------------------------------------------------------
CALLS = [
    ("GET", "", None),
    ("GET", "/stats", None),
    ("POST", "/games", {"players": ["Ann", "Ben"]}),
    ("POST", "/tables", {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}]}),
    ("POST", "/import", {"format": "bluke-scorekeeper"}),
    ("PATCH", "/players/{ann}", {"name": "Zed"}),
    ("POST", "/players/{ann}/merge", {"into": "{ben}"}),
    ("GET", "/export.json", None),
    ("GET", "/stats.csv", None),
    ("GET", "/summary.pdf", None),
    ("GET", "/games/{game}/scorecard.pdf", None),
    ("DELETE", "/games/{game}", None),
    ("DELETE", "/players/{ann}", None),
]


def tokens(client: FlaskClient, group: dict[str, Any], game: dict[str, Any]) -> dict[str, str | None]:
    """Every token that must not open ``group``: none, a wrong one, another group's, its game's."""
    other = new_group(client, "Other")
    return {
        "none": None,
        "made up": "x" * 32,
        "another group's": other["token"],
        "its game's scorer": game["scorer_token"],
        "its game's watch": game["watch_token"],
    }


@pytest.mark.parametrize(("method", "path", "body"), CALLS)
def test_every_group_call_is_404_without_the_group_token(
    app: Flask, client: FlaskClient, method: str, path: str, body: dict[str, Any] | None
) -> None:
    group = new_group(client, players=["Ann", "Ben", "Cy"])
    ids = roster(group)
    game = new_game(client, group, ["Ann", "Ben"])
    for who, token in tokens(client, group, game).items():
        url = f"/api/groups/{group['id']}" + path.format(
            ann=ids["Cy"] if method == "DELETE" else ids["Ann"], game=game["id"]
        )
        data = {k: v.format(ben=ids["Ben"]) if isinstance(v, str) else v for k, v in (body or {}).items()}
        answer = client.open(
            url, method=method, json=data if body is not None else None, headers=auth(token) if token else {}
        )
        assert answer.status_code == 404, (who, answer.status_code)
        assert answer.get_json()["error"]["code"] == "not_found", who
        assert "group" in answer.get_json()["error"]["message"]
    with app.app_context():  # nothing was written
        assert db.session.scalar(select(func.count()).select_from(Game)) == 1
        assert {p.name for p in db.session.scalars(select(GroupPlayer))} == {"Ann", "Ben", "Cy"}
        assert db.session.get(Game, game["id"]).group_id == group["id"]


def test_an_unknown_group_looks_exactly_like_a_wrong_token(client: FlaskClient) -> None:
    group = new_group(client)
    unknown = client.get("/api/groups/0123456789abcdef", headers=auth(group["token"])).get_json()
    wrong = client.get(f"/api/groups/{group['id']}", headers=auth("nope")).get_json()
    assert unknown == wrong


def test_the_group_token_opens_no_game(client: FlaskClient) -> None:
    group = new_group(client)
    game = new_game(client, group, ["Ann", "Ben"])
    assert client.get(f"/api/games/{game['id']}", headers=auth(group["token"])).status_code == 404
    answer = client.put(f"/api/games/{game['id']}/hands/1/bids", json={"bids": [1, 1]}, headers=auth(group["token"]))
    assert answer.status_code == 404


def test_the_token_is_stored_only_as_a_hash(app: Flask, client: FlaskClient) -> None:
    group = new_group(client)
    with app.app_context():
        row = db.session.execute(select(Game.__table__.metadata.tables["groups"])).one()
        assert group["token"] not in [str(v) for v in row]


def test_two_games_started_at_once_with_a_new_name_share_one_roster_player(app: Flask, client: FlaskClient) -> None:
    """The group row is locked by each new game's transaction, so "Eve" joins the roster once."""
    group = new_group(client, players=["Ann", "Ben"])
    barrier = threading.Barrier(4)
    answers: list[Any] = [None] * 4

    def start(index: int) -> None:
        phone = app.test_client()
        try:
            barrier.wait(timeout=30)
            answer = phone.post(
                f"/api/groups/{group['id']}/games",
                headers=auth(group["token"]),
                json={"players": ["Ann", "Eve" if index % 2 else " eve", "Ben"]},
            )
            answers[index] = answer.status_code
        except BaseException as error:  # noqa: BLE001 - reported below
            answers[index] = error

    threads = [threading.Thread(target=start, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert answers == [201] * 4
    doc = group_doc(client, group)
    assert sorted(roster(doc)) == ["Ann", "Ben", "Eve"] or sorted(roster(doc)) == ["Ann", "Ben", "eve"]
    eve = next(p["id"] for p in doc["players"] if p["name"].casefold() == "eve")
    assert len(doc["games"]) == 4 and all(g["players"][1]["player_id"] == eve for g in doc["games"])


def count_rows(app: Flask, group_id: str) -> tuple[int, int]:
    """(games, roster players) stored for a group."""
    with app.app_context():
        games = db.session.scalar(select(func.count()).select_from(Game).where(Game.group_id == group_id))
        players = db.session.scalar(
            select(func.count()).select_from(GroupPlayer).where(GroupPlayer.group_id == group_id)
        )
        db.session.remove()
        return int(games or 0), int(players or 0)


def test_a_full_roster_refuses_a_game_that_would_add_players(app: Flask, client: FlaskClient) -> None:
    group = new_group(client, players=[f"P{i}" for i in range(300)])
    answer = client.post(
        f"/api/groups/{group['id']}/games", json={"players": ["P1", "Newcomer"]}, headers=auth(group["token"])
    )
    assert answer.status_code == 400
    assert "keeps at most 300 players and has 300" in answer.get_json()["error"]["message"]
    assert count_rows(app, group["id"]) == (0, 300)  # neither the game nor the new name is stored
    smaller = new_group(client, players=[f"P{i}" for i in range(299)])
    two = client.post(
        f"/api/groups/{smaller['id']}/games", json={"players": ["N1", "N2"]}, headers=auth(smaller["token"])
    )
    assert two.status_code == 400 and "keeps at most 300 players and has 299" in two.get_json()["error"]["message"]
    assert new_game(client, group, ["P1", "P2"])["id"]  # players on the roster still play


def test_a_group_keeps_at_most_1000_games(app: Flask, client: FlaskClient) -> None:
    group = new_group(client, players=["Ann", "Ben"])
    with app.app_context():  # 999 stored games, written directly: the API would take minutes
        db.session.execute(
            insert(Game),
            [
                {
                    "id": f"old{i:05}",
                    "variant": "standard",
                    "options": {},
                    "players": ["Ann", "Ben"],
                    "first_dealer": 0,
                    "scorer_hash": f"x{i}",  # unique, as every token's hash
                    "watch_hash": "y",
                    "group_id": group["id"],
                }
                for i in range(999)
            ],
        )
        db.session.commit()
    assert new_game(client, group, ["Ann", "Ben"])["id"]  # the 1000th
    message = "This group already keeps 1000 games, the most it can; start a new group for the next season."
    refused = [
        client.post(f"/api/groups/{group['id']}/games", json={"players": ["Ann", "Cy"]}, headers=auth(group["token"])),
        client.post(
            f"/api/groups/{group['id']}/import",
            json=export_file(["Ann", "Cy"], legal_hands(2, 1)),
            headers=auth(group["token"]),
        ),
        client.post(
            f"/api/groups/{group['id']}/tables",
            json={"seats": [{"name": "Cy"}, {"name": "Robo", "bot": "basic"}]},
            headers=auth(group["token"]),
        ),
    ]
    for answer in refused:
        assert answer.status_code == 400 and answer.get_json()["error"]["message"] == message
    assert count_rows(app, group["id"]) == (1000, 2)  # nothing stored, Cy not on the roster
    assert client.post("/api/games", json={"players": ["Ann", "Cy"]}).status_code == 201  # outside the group


def test_a_group_remembers_at_most_1000_merged_names(app: Flask, client: FlaskClient) -> None:
    """Merging is how the aliases grow, and every new game reads them all: bounded like the roster."""
    group = new_group(client, players=["Ann", "Anne", "Annie", "Ben"])
    ids = roster(group)
    with app.app_context():  # 999 names merged into Ben, written directly: the API would take minutes
        db.session.execute(
            insert(GroupAlias),
            [{"group_id": group["id"], "key": f"old {i}", "player_id": ids["Ben"]} for i in range(999)],
        )
        db.session.commit()

    def merge(name: str) -> Any:
        return client.post(
            f"/api/groups/{group['id']}/players/{ids[name]}/merge",
            json={"into": ids["Ann"]},
            headers=auth(group["token"]),
        )

    assert merge("Anne").status_code == 200  # the 1000th
    refused = merge("Annie")
    assert refused.status_code == 400
    assert refused.get_json()["error"]["message"] == (
        "This group already remembers 1000 names merged into its players, the most it keeps: Annie cannot be "
        "merged. Rename the player instead, or start a new group."
    )
    assert set(roster(group_doc(client, group))) == {"Ann", "Annie", "Ben"}
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(GroupAlias)) == 1000


@pytest.mark.usefixtures("patient_bots")
def test_a_full_roster_refuses_a_bots_seat_handed_on_at_the_next_deal_and_the_table_plays_on(
    app: Flask, client: FlaskClient
) -> None:
    """Handed to a person mid-hand, the seat's name was to join the roster at the next deal: with the
    roster full, that deal answered 400 to every move and look, and the table stood still for good."""
    group = new_group(client, players=[f"P{i}" for i in range(299)])
    table = group_table(
        client, group, [{"name": "P1"}, {"name": "Robo", "bot": "random"}, {"name": "Newcomer"}], seed=5
    )
    host = auth(table["host_token"])
    refused = client.put(f"/api/tables/{table['id']}/seats/1", json={"bot": None}, headers=host)
    assert (
        refused.status_code == 400 and "keeps at most 300 players and has 300" in refused.get_json()["error"]["message"]
    )
    seen = client.get(f"/api/tables/{table['id']}/view", headers=host).get_json()
    assert seen["players"][1]["bot"] == "random" and seen["players"][1]["person_from"] is None  # nothing changed
    tokens = {0: table["seats"][0]["token"], 2: table["seats"][1]["token"]}
    finish(client, table["id"], tokens, until=lambda view: view["hand_number"] == 2)  # the table plays on
    assert count_rows(app, group["id"])[1] == 300
