"""Recording hands through the JSON API: order, edits, undo, repeats, versions and the finish."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Table:
    """A game created through the API, driven as the scorer and read as a watcher."""

    def __init__(self, client: FlaskClient, players: list[str] | None = None, **body: Any) -> None:
        response = client.post("/api/games", json={"players": players or ["Ann", "Ben", "Cy"], **body})
        assert response.status_code == 201, response.get_json()
        self.client, self.created = client, response.get_json()
        self.id = self.created["id"]
        self.scorer, self.watch = auth(self.created["scorer_token"]), auth(self.created["watch_token"])
        self.schedule: list[int] = self.created["schedule"]

    def bids(self, number: int, bids: list[int], **body: Any) -> TestResponse:
        return self.client.put(
            f"/api/games/{self.id}/hands/{number}/bids", json={"bids": bids, **body}, headers=self.scorer
        )

    def tricks(self, number: int, tricks: list[int], **body: Any) -> TestResponse:
        return self.client.put(
            f"/api/games/{self.id}/hands/{number}/tricks", json={"tricks": tricks, **body}, headers=self.scorer
        )

    def undo(self, number: int, query: str = "", **body: Any) -> TestResponse:
        return self.client.delete(f"/api/games/{self.id}/hands/{number}{query}", json=body or None, headers=self.scorer)

    def hand(self, number: int, bids: list[int], tricks: list[int], trump: str | None = None) -> dict[str, Any]:
        assert self.bids(number, bids, trump=trump).status_code == 200
        response = self.tricks(number, tricks)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def doc(self) -> dict[str, Any]:
        return self.client.get(f"/api/games/{self.id}", headers=self.watch).get_json()

    def corrections(self) -> list[dict[str, Any]]:
        return self.client.get(f"/api/games/{self.id}/history", headers=self.watch).get_json()["corrections"]


def test_a_hand_fills_its_line_of_the_document(client: FlaskClient) -> None:
    table = Table(client)
    doc = table.bids(1, [4, 5, 3], trump="S").get_json()
    assert doc["version"] == 2 and doc["current_hand"] == 1
    assert doc["hands"][0] == {
        "number": 1,
        "cards": 13,
        "dealer": 0,
        "trump": "S",
        "bids": [4, 5, 3],
        "tricks": None,
        "points": None,
        "totals": None,
        "outcomes": None,
        "no_trump": False,
    }
    doc = table.tricks(1, [5, 3, 5]).get_json()
    assert doc["version"] == 3 and doc["current_hand"] == 2
    assert doc["hands"][0] == {
        "number": 1,
        "cards": 13,
        "dealer": 0,
        "trump": "S",
        "bids": [4, 5, 3],
        "tricks": [5, 3, 5],
        "points": [41, -50, 32],
        "totals": [41, -50, 32],
        "outcomes": ["O", "S", "O"],
        "no_trump": False,
    }
    assert doc["totals"] == [41, -50, 32]
    assert doc["stats"][1] == {"seat": 1, "set": 1, "over": 0, "perfect": 0, "overtricks": 0, "bid": 5, "taken": 3}
    assert table.doc() == doc


def test_rules_worked_example_gives_its_totals(client: FlaskClient) -> None:
    table = Table(client)
    table.hand(1, [4, 5, 3], [5, 3, 5])
    doc = table.hand(2, [2, 6, 4], [2, 7, 3])
    assert [h["totals"] for h in doc["hands"][:2]] == [[41, -50, 32], [61, 11, -8]]
    assert doc["hands"][1]["outcomes"] == ["P", "O", "S"] and doc["hands"][1]["dealer"] == 1


def test_zero_bids_need_the_house_rule(client: FlaskClient) -> None:
    assert Table(client).bids(1, [0, 5, 3]).status_code == 422
    table = Table(client, options={"zero_bids": True})
    doc = table.hand(1, [0, 5, 3], [0, 8, 5])
    assert doc["hands"][0]["points"] == [0, 53, 32]


def test_every_change_bumps_the_version_by_one(client: FlaskClient) -> None:
    table = Table(client)
    versions = [
        table.bids(1, [4, 5, 3]).get_json()["version"],
        table.tricks(1, [5, 3, 5]).get_json()["version"],
        table.bids(1, [4, 5, 4]).get_json()["version"],
        table.undo(1).get_json()["version"],
    ]
    assert versions == [2, 3, 4, 5]
    assert client.get(f"/api/games/{table.id}/version", headers=table.watch).get_json() == {"version": 5}


@pytest.mark.parametrize("where", ["body", "query"])
def test_a_current_version_is_accepted_and_a_stale_one_refused(client: FlaskClient, where: str) -> None:
    table = Table(client)

    def put(bids: list[int], version: int) -> TestResponse:
        if where == "body":
            return table.bids(1, bids, version=version)
        return client.put(
            f"/api/games/{table.id}/hands/1/bids?version={version}", json={"bids": bids}, headers=table.scorer
        )

    assert put([4, 5, 3], 1).status_code == 200
    stale = put([3, 3, 3], 1)
    assert stale.status_code == 409 and stale.get_json()["error"]["code"] == "conflict"
    assert table.doc()["hands"][0]["bids"] == [4, 5, 3] and table.doc()["version"] == 2
    assert put([3, 3, 3], 2).status_code == 200


def test_a_double_tap_stores_nothing_twice(client: FlaskClient) -> None:
    table = Table(client)
    first = table.bids(1, [4, 5, 3], trump="H")
    again = table.bids(1, [4, 5, 3], trump="H")  # the same request, sent twice
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json() and again.get_json()["version"] == 2
    assert table.bids(1, [4, 5, 3]).get_json()["version"] == 2  # trump left out: kept as it is
    table.tricks(1, [5, 3, 5], version=2)
    repeat = table.tricks(1, [5, 3, 5])
    assert repeat.status_code == 200 and repeat.get_json()["version"] == 3
    assert table.corrections() == []
    # A repeated request for a hand that has moved on changes nothing either.
    table.hand(2, [2, 6, 4], [2, 7, 3])
    assert table.bids(1, [4, 5, 3]).get_json()["version"] == 5
    assert table.tricks(1, [5, 3, 5]).get_json()["version"] == 5
    # With its version, sent again once the game has moved on, it is refused as API.md says (409),
    # though the game holds what it asks: the client learns that the game changed since it read it.
    stale = table.bids(1, [4, 5, 3], trump="H", version=1)
    assert stale.status_code == 409 and "you had version 1, it is now 5" in stale.get_json()["error"]["message"]
    assert table.doc()["version"] == 5 and table.corrections() == []


def test_trump_is_kept_when_left_out_and_null_records_a_hand_without_trump(client: FlaskClient) -> None:
    table = Table(client)
    first = table.bids(1, [4, 5, 3]).get_json()["hands"][0]
    assert first["trump"] is None and first["no_trump"] is False  # left out on a new hand: not noted
    table.bids(1, [4, 5, 3], trump="D")
    assert table.bids(1, [4, 5, 4]).get_json()["hands"][0]["trump"] == "D"
    doc = table.bids(1, [4, 5, 4], trump=None).get_json()
    # null keeps API.md's meaning, a hand without trump (R12), and says it was noted so
    assert doc["hands"][0]["trump"] is None and doc["hands"][0]["no_trump"] is True and doc["version"] == 5
    assert [(c["field"], c["old"], c["new"]) for c in table.corrections()] == [
        ("trump", None, "D"),
        ("bids", [4, 5, 3], [4, 5, 4]),
        ("trump", "D", "-"),
    ]


def test_no_trump_true_as_the_document_writes_it_records_a_hand_without_trump(client: FlaskClient) -> None:
    table = Table(client)
    doc = table.bids(1, [4, 5, 3], no_trump=True).get_json()
    assert doc["hands"][0]["trump"] is None and doc["hands"][0]["no_trump"] is True  # not dropped (R12)
    echoed = table.bids(1, [4, 5, 3], trump=None, no_trump=True)
    assert echoed.status_code == 200 and echoed.get_json()["version"] == doc["version"]  # the same entry again
    told = table.bids(1, [4, 5, 3], trump="H", no_trump=False).get_json()["hands"][0]
    assert told["trump"] == "H" and told["no_trump"] is False


def test_editing_an_earlier_hand_recomputes_every_later_total(client: FlaskClient) -> None:
    table = Table(client)
    table.hand(1, [4, 5, 3], [5, 3, 5])
    table.hand(2, [2, 6, 4], [2, 7, 3])
    before = table.hand(3, [3, 4, 4], [3, 4, 4])
    assert before["totals"] == [91, 51, 32]
    doc = table.tricks(1, [4, 4, 5]).get_json()  # Ann took 4, not 5; Ben 4, not 3
    assert doc["hands"][0]["points"] == [40, -50, 32]
    assert [h["totals"] for h in doc["hands"][:3]] == [[40, -50, 32], [60, 11, -8], [90, 51, 32]]
    assert doc["totals"] == [90, 51, 32] and doc["stats"][0]["over"] == 0 and doc["stats"][0]["perfect"] == 3
    doc = table.bids(2, [3, 6, 4]).get_json()  # Ann bid 3 in hand 2 and was set
    assert [h["totals"] for h in doc["hands"][:3]] == [[40, -50, 32], [10, 11, -8], [40, 51, 32]]
    assert doc["hands"][2]["tricks"] == [3, 4, 4] and doc["current_hand"] == 4
    history = table.corrections()
    assert [(c["hand"], c["field"], c["old"], c["new"]) for c in history] == [
        (1, "tricks", [5, 3, 5], [4, 4, 5]),
        (2, "bids", [2, 6, 4], [3, 6, 4]),
    ]
    assert all(c["at"].endswith("Z") and isinstance(c["id"], int) for c in history)


def test_undo_removes_the_whole_latest_hand_and_keeps_a_correction(client: FlaskClient) -> None:
    table = Table(client)
    table.hand(1, [4, 5, 3], [5, 3, 5])
    table.hand(2, [2, 6, 4], [2, 7, 3], trump="C")
    earlier = table.undo(1)  # not the latest: nothing changes (R25)
    assert earlier.status_code == 422 and earlier.get_json()["error"]["message"] == (
        "Only the latest hand with entries, hand 2, can be undone; edit hand 1 instead (R25)."
    )
    doc = table.undo(2).get_json()
    assert doc["hands"][1] == {
        "number": 2,
        "cards": 12,
        "dealer": 1,
        "trump": None,
        "bids": None,
        "tricks": None,
        "points": None,
        "totals": None,
        "outcomes": None,
        "no_trump": False,
    }
    assert doc["totals"] == [41, -50, 32] and doc["current_hand"] == 2 and doc["version"] == 6
    table.bids(2, [1, 1, 1])
    doc = table.undo(2, version=7).get_json()  # a hand with bids only goes too
    assert doc["hands"][1]["bids"] is None and doc["version"] == 8
    repeated = table.undo(2)  # a repeated undo does not remove hand 1, and says why (R25)
    assert repeated.status_code == 422 and repeated.get_json()["error"]["message"] == (
        "Hand 2 has no entries to undo; only the latest hand with entries, hand 1, can be undone (R25)."
    )
    doc = table.undo(1, query="?version=8").get_json()
    assert doc["hands"][0]["bids"] is None and doc["totals"] == [0, 0, 0]
    history = table.corrections()
    assert [(c["hand"], c["field"]) for c in history] == [(2, "undo"), (2, "undo"), (1, "undo")]
    assert history[0]["old"] == {"bids": [2, 6, 4], "tricks": [2, 7, 3], "trump": "C"}
    assert history[0]["new"] == {"bids": None, "tricks": None, "trump": None}
    assert history[1]["old"] == {"bids": [1, 1, 1], "tricks": None, "trump": None}


def play_short_game(table: Table, last_tricks: list[int]) -> dict[str, Any]:
    """15 players, hands of 3, 2, 1, 2, 3 cards (R8); everybody bids 1."""
    assert table.schedule == [3, 2, 1, 2, 3]
    ones = [1] * 15

    def took(*seats: int) -> list[int]:
        return [1 if seat in seats else 0 for seat in range(15)]

    table.hand(1, ones, took(0, 1, 2))
    table.hand(2, ones, took(0, 1))
    table.hand(3, ones, took(2))
    table.hand(4, ones, took(0, 1))
    assert table.bids(5, ones).get_json()["status"] == "in_progress"
    return table.tricks(5, last_tricks).get_json()


def test_the_last_hand_finishes_the_game_and_names_the_winner(client: FlaskClient) -> None:
    table = Table(client, [f"P{i}" for i in range(15)])
    doc = play_short_game(table, [2, 1] + [0] * 13)
    assert doc["status"] == "finished" and doc["current_hand"] is None
    assert doc["totals"][:4] == [31, 30, -10, -50]
    assert doc["winners"] == [0]
    refused = table.bids(6, [1] * 15)
    assert refused.status_code == 422 and refused.get_json()["error"]["rule"] == "R24"


def test_equal_highest_totals_share_the_win(client: FlaskClient) -> None:
    table = Table(client, [f"P{i}" for i in range(15)])
    doc = play_short_game(table, [1, 1, 0, 1] + [0] * 11)
    assert doc["totals"][:4] == [30, 30, -10, -30]
    assert doc["status"] == "finished" and doc["winners"] == [0, 1]  # R21
    doc = table.undo(5).get_json()  # undoing the last hand reopens the game
    assert doc["status"] == "in_progress" and doc["winners"] == []


def test_watchers_see_every_change_and_the_history(client: FlaskClient) -> None:
    table = Table(client)
    table.hand(1, [4, 5, 3], [5, 3, 5])
    table.tricks(1, [5, 4, 4])
    history = client.get(f"/api/games/{table.id}/history", headers=table.watch).get_json()
    assert history["version"] == 4 and history["id"] == table.id
    assert [(c["field"], c["old"], c["new"]) for c in history["corrections"]] == [("tricks", [5, 3, 5], [5, 4, 4])]
    assert table.doc()["hands"][0]["tricks"] == [5, 4, 4]
