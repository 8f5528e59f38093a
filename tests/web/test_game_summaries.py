"""Every game keeps the engine's scorecard in brief (``games.summary``), written with every change.

After each kind of write (a new game, bids, tricks, a correction, an undo, an import, a virtual
table's hands, a group's games, a merge) every stored summary is compared with one computed
afresh by the engine from the stored hands; and the group statistics read from the summaries equal
those recomputed from the rule book.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from sqlalchemy import update

from scorekeeper.engine import build_scorecard
from scorekeeper.engine import Rules
from scorekeeper.extensions import db
from scorekeeper.games import records_from
from scorekeeper.games import summary_of
from scorekeeper.models import Game
from scorekeeper.models import HandEntry

from .groups_kit import auth
from .groups_kit import expected_season
from .groups_kit import import_into
from .groups_kit import legal_hands
from .groups_kit import new_group
from .virtual_support import finish
from .virtual_support import patient_bots  # noqa: F401 (a fixture)


def fresh(app: Flask) -> dict[str, tuple[Any, dict[str, Any]]]:
    """Each stored game: (its stored summary, the engine's summary of its stored hands now).

    The hands are read with plain queries, not through the models, so nothing the app keeps in
    memory stands in for what is stored.
    """
    with app.app_context():
        out = {}
        for game in db.session.execute(select(Game)).scalars():
            hands = db.session.execute(
                select(HandEntry.number, HandEntry.bids, HandEntry.tricks, HandEntry.trump).where(
                    HandEntry.game_id == game.id
                )
            ).all()
            rules = Rules.build(len(game.players), game.variant, game.options)
            card = build_scorecard(rules, game.first_dealer, records_from(hands))
            out[game.id] = (game.summary, summary_of(card, game.version))
        db.session.remove()
        return out


def assert_fresh(app: Flask) -> None:
    games = fresh(app)
    assert games, "no game stored"
    for game_id, (stored, computed) in games.items():
        assert stored == computed, game_id


def test_every_write_to_a_game_stores_its_summary(app: Flask, client: FlaskClient) -> None:
    created = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"]}).get_json()
    assert_fresh(app)
    url, headers = f"/api/games/{created['id']}/hands", auth(created["scorer_token"])
    for number, (bids, tricks) in enumerate(legal_hands(3, 3, seed=5), start=1):
        assert client.put(f"{url}/{number}/bids", json={"bids": bids, "trump": "H"}, headers=headers).status_code == 200
        assert_fresh(app)
        assert client.put(f"{url}/{number}/tricks", json={"tricks": tricks}, headers=headers).status_code == 200
        assert_fresh(app)
    before = fresh(app)[created["id"]][0]
    # A correction of an earlier hand (bids, then tricks) changes the totals: the summary follows.
    first_bids = legal_hands(3, 1, seed=5)[0][0]
    corrected = client.put(f"{url}/1/bids", json={"bids": [b % 7 + 1 for b in first_bids]}, headers=headers)
    assert corrected.status_code == 200, corrected.get_json()
    assert_fresh(app)
    tricks = legal_hands(3, 1, seed=9)[0][1]
    assert client.put(f"{url}/1/tricks", json={"tricks": tricks}, headers=headers).status_code == 200
    assert_fresh(app)
    assert fresh(app)[created["id"]][0] != before
    # An undo takes back the latest hand.
    assert client.delete(f"{url}/3", headers=headers).status_code == 200
    stored = fresh(app)[created["id"]][0]
    assert_fresh(app)
    assert stored["current"] == 3 and sum(sum(seat["by_cards"].get("11", [0])) for seat in stored["seats"]) == 0
    # A refused write stores nothing: the summary stays that of the stored version.
    assert client.put(f"{url}/3/tricks", json={"tricks": [9, 9, 9]}, headers=headers).status_code in (400, 422)
    assert fresh(app)[created["id"]][0] == stored


def test_an_imported_game_and_group_games_store_their_summaries(app: Flask, client: FlaskClient) -> None:
    group = new_group(client, players=["Ann", "Ben", "Cy"])
    import_into(client, group, ["Ann", "Ben", "Cy"], legal_hands(3, 25, seed=3))
    typo = import_into(client, group, ["Anne", "Ben"], legal_hands(2, 4, seed=4))
    game = client.post(
        f"/api/groups/{group['id']}/games", json={"players": ["Cy", "Ben"]}, headers=auth(group["token"])
    ).get_json()
    bids, tricks = legal_hands(2, 1, seed=6)[0]
    headers = auth(game["scorer_token"])
    client.put(f"/api/games/{game['id']}/hands/1/bids", json={"bids": bids}, headers=headers)
    client.put(f"/api/games/{game['id']}/hands/1/tricks", json={"tricks": tricks}, headers=headers)
    assert_fresh(app)
    ids = {
        p["name"]: p["id"]
        for p in client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()["players"]
    }
    merged = client.post(
        f"/api/groups/{group['id']}/players/{ids['Anne']}/merge",
        json={"into": ids["Ann"]},
        headers=auth(group["token"]),
    )
    assert merged.status_code == 200
    assert_fresh(app)  # a merge moves seats; the games and their summaries stay as they are
    renamed = client.patch(
        f"/api/groups/{group['id']}/players/{ids['Cy']}", json={"name": "Cyril"}, headers=auth(group["token"])
    )
    assert renamed.status_code == 200
    assert_fresh(app)  # so does a rename: recorded games keep their names
    stats = client.get(f"/api/groups/{group['id']}/stats", headers=auth(group["token"])).get_json()
    expected, _pairs = expected_season(
        [
            (["Ann", "Ben", "Cy"], legal_hands(3, 25, seed=3)),
            (["Ann", "Ben"], legal_hands(2, 4, seed=4)),
            (["Cy", "Ben"], [(bids, tricks)]),
        ]
    )
    for line in stats["players"]:
        e = expected[{"Cyril": "Cy"}.get(line["name"], line["name"])]
        assert (line["hands"], line["points"], line["set"], line["over"], line["perfect"], line["wins"]) == (
            e.hands,
            e.points,
            e.set,
            e.over,
            e.perfect,
            e.wins,
        )
    assert typo["id"]


@pytest.mark.usefixtures("patient_bots")
def test_a_virtual_table_stores_the_summary_with_every_hand(app: Flask, client: FlaskClient) -> None:
    table = client.post(
        "/api/tables", json={"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "random"}], "seed": 4}
    ).get_json()
    assert_fresh(app)
    finish(client, table["id"], {0: table["seats"][0]["token"]})
    games = fresh(app)
    stored, computed = games[table["game_id"]]
    assert stored == computed and stored["status"] == "finished"


def test_a_summary_not_of_the_stored_version_is_not_used(app: Flask, client: FlaskClient) -> None:
    """Statistics never read a summary of another version: that game is scored again from its hands."""
    group = new_group(client, players=["Ann", "Ben"])
    hands = legal_hands(2, 5, seed=8)
    game = import_into(client, group, ["Ann", "Ben"], hands)
    url = f"/api/groups/{group['id']}/stats"
    right = client.get(url, headers=auth(group["token"])).get_json()
    with app.app_context():
        db.session.execute(update(Game).where(Game.id == game["id"]).values(summary=None))
        db.session.commit()
    assert client.get(url, headers=auth(group["token"])).get_json() == right
    with app.app_context():
        stale = summary_of(build_scorecard(Rules(2), 0, []), 1) | {"version": 0}
        db.session.execute(update(Game).where(Game.id == game["id"]).values(summary=stale))
        db.session.commit()
    assert client.get(url, headers=auth(group["token"])).get_json() == right
