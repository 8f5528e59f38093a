"""A group's season is kept between reads (``stats.season``) while the group stays as it is: every
change that its statistics read shows at the next read, on the pages and in the API, and a read of
an unchanged group adds nothing up again."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.groups import stats
from scorekeeper.models import Group

from .groups_kit import auth
from .groups_kit import export_file
from .groups_kit import import_into
from .groups_kit import legal_hands
from .groups_kit import new_group
from .virtual_support import dispose
from .virtual_support import finish
from .virtual_support import fresh_app
from .virtual_support import patient_bots  # noqa: F401 (a fixture)


def kept_and_fresh(client: FlaskClient, group: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The statistics answer as the API gives it (kept or added up) and as adding up the stored
    group again gives it now."""
    answer = client.get(f"/api/groups/{group['id']}/stats", headers=auth(group["token"]))
    assert answer.status_code == 200, answer.get_json()
    with client.application.app_context():
        fresh = stats.add_up(db.session.get_one(Group, group["id"])).to_dict()
    return answer.get_json(), fresh


@pytest.mark.usefixtures("patient_bots")
def test_every_change_a_season_reads_shows_at_the_next_read(client: FlaskClient) -> None:
    group = new_group(client, players=["Ann", "Ben", "Cy"])
    token = auth(group["token"])
    base = f"/api/groups/{group['id']}"
    game = import_into(client, group, ["Ann", "Ben", "Cy"], legal_hands(3, 2, seed=3))
    scorer = auth(game["scorer_token"])
    other = import_into(client, group, ["Ann", "Dee"], legal_hands(2, 25, seed=4))
    table = client.post(
        f"{base}/tables", headers=token, json={"seats": [{"name": "Ann"}, {"name": "Eve"}, {"name": "Fay"}]}
    ).get_json()
    host = auth(table["host_token"])
    ann = {0: table["seats"][0]["token"]}

    def hand_over(seat: int, bot: str | None) -> dict[str, Any]:
        answer = client.put(f"/api/tables/{table['id']}/seats/{seat}", json={"bot": bot}, headers=host)
        assert answer.status_code == 200, answer.get_json()
        return dict(answer.get_json())

    links: dict[int, str] = {}

    def hand_back(seat: int) -> None:
        links.update((link["seat"], link["token"]) for link in hand_over(seat, None)["links"])

    def open_link(seat: int) -> None:  # no move: the table's version stays
        assert client.get(f"/api/tables/{table['id']}/view", headers=auth(links[seat])).status_code == 200

    def player(name: str) -> str:
        doc = client.get(base, headers=token).get_json()
        return str(next(p["id"] for p in doc["players"] if p["name"] == name))

    bids, tricks = legal_hands(3, 3, seed=3)[2]
    changes = {
        "bids of a new hand (nothing complete yet)": lambda: client.put(
            f"/api/games/{game['id']}/hands/3/bids", json={"bids": bids}, headers=scorer
        ),
        "its tricks": lambda: client.put(
            f"/api/games/{game['id']}/hands/3/tricks", json={"tricks": tricks}, headers=scorer
        ),
        "a correction of hand 1": lambda: client.put(
            f"/api/games/{game['id']}/hands/1/bids", json={"bids": [1, 1, 1]}, headers=scorer
        ),
        "the last hand undone": lambda: client.delete(f"/api/games/{game['id']}/hands/3", headers=scorer),
        "a game imported": lambda: import_into(client, group, ["Ben", "Cy"], legal_hands(2, 25, seed=5)),
        "a seat handed to a bot, never opened": lambda: hand_over(1, "basic"),
        "and back to a person": lambda: hand_back(1),
        "who opens the seat's new link": lambda: open_link(1),
        "the table played to its end by bots": lambda: (
            (hand_over(1, "random"), hand_over(2, "random")) and finish(client, table["id"], ann)
        ),
        "a player renamed": lambda: client.patch(
            f"{base}/players/{player('Dee')}", json={"name": "Dee D."}, headers=token
        ),
        "merged into another": lambda: client.post(
            f"{base}/players/{player('Dee D.')}/merge", json={"into": player("Ben")}, headers=token
        ),
        "a game taken out of the group": lambda: client.delete(f"{base}/games/{other['id']}", headers=token),
        "a player who played nothing taken off the roster": lambda: client.delete(
            f"{base}/players/{player('Fay')}", headers=token
        ),
    }
    before, fresh = kept_and_fresh(client, group)
    assert before == fresh
    for what, change in changes.items():
        change()
        after, fresh = kept_and_fresh(client, group)
        assert after == fresh, what
        # nothing complete yet; a bot's seat handed back mid-hand goes to its person at the next deal
        if what not in ("bids of a new hand (nothing complete yet)", "and back to a person"):
            assert after != before, what  # the change is one the statistics show
        before = after


def test_an_unchanged_group_is_not_added_up_again(client: FlaskClient) -> None:
    group = new_group(client, players=["Ann", "Ben"])
    import_into(client, group, ["Ann", "Ben"], legal_hands(2, 25, seed=1))
    with client.application.app_context():
        first = stats.season(db.session.get_one(Group, group["id"]))
    with client.application.app_context():
        assert stats.season(db.session.get_one(Group, group["id"])) is first
    client.set_cookie(f"skg_{group['id']}", group["token"])
    assert client.get(f"/groups/{group['id']}").status_code == 200
    game = import_into(client, group, ["Ann", "Ben"], legal_hands(2, 3, seed=2))
    with client.application.app_context():
        second = stats.season(db.session.get_one(Group, group["id"]))
    assert second is not first and len(second.played) == len(first.played) + 1
    # the game not written since is the one read before (its row and summary not decoded again)
    assert second.played[1].game is first.played[0].game and second.played[1].summary is first.played[0].summary
    bids, _ = legal_hands(2, 4, seed=2)[3]
    wrote = client.put(f"/api/games/{game['id']}/hands/4/bids", json={"bids": bids}, headers=auth(game["scorer_token"]))
    assert wrote.status_code == 200, wrote.get_json()
    with client.application.app_context():
        third = stats.season(db.session.get_one(Group, group["id"]))
    assert third.played[1].game is first.played[0].game
    assert third.played[0].game is not second.played[0].game and third.played[0].game.version == game["version"] + 1


def test_phones_that_read_a_changed_group_at_once_wait_for_one_adding_up(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight requests at once after a change: one adds the season up, the others are given it."""
    group = new_group(client, players=["Ann", "Ben"])
    import_into(client, group, ["Ann", "Ben"], legal_hands(2, 25, seed=1))
    app, add_up, calls = client.application, stats.add_up, []

    def slow_add_up(*args: Any) -> stats.Season:
        calls.append(1)
        time.sleep(0.3)  # long enough for every other request to arrive meanwhile
        return add_up(*args)

    monkeypatch.setattr(stats, "add_up", slow_add_up)
    start = threading.Barrier(8)

    def read() -> stats.Season:
        with app.app_context():
            group_row = db.session.get_one(Group, group["id"])
            start.wait()
            return stats.season(group_row)

    with ThreadPoolExecutor(8) as pool:
        seasons = list(pool.map(lambda _: read(), range(8)))
    assert len(calls) == 1
    assert all(s is seasons[0] for s in seasons)


def test_a_season_is_kept_under_the_state_it_was_added_up_from(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game stored between a read's look at the group and its adding up is in the kept season and
    in its state alike: taken out again, the group is not served the season that still holds it."""
    group = new_group(client, players=["Ann", "Ben"])
    import_into(client, group, ["Ann", "Ben"], legal_hands(2, 25, seed=1))
    real, late = stats.state_of, {}

    def then_another_request_imports(*args: Any) -> Any:
        state = real(*args)
        if not late:
            late.update(import_into(client.application.test_client(), group, ["Ann", "Ben"], legal_hands(2, 3, seed=2)))
        return state

    monkeypatch.setattr(stats, "state_of", then_another_request_imports)
    assert client.get(f"/api/groups/{group['id']}/stats", headers=auth(group["token"])).status_code == 200
    monkeypatch.setattr(stats, "state_of", real)
    gone = client.delete(f"/api/groups/{group['id']}/games/{late['id']}", headers=auth(group["token"]))
    assert late["id"] not in [g["id"] for g in gone.get_json()["games"]]
    after, fresh = kept_and_fresh(client, group)
    assert after == fresh


def test_another_server_process_sees_a_game_swapped_for_one_like_it(app: Flask) -> None:
    """Two server processes on one database: one reads the group, the other takes a game out and
    imports another with the same players and version; the first serves the group as it is now."""
    second = fresh_app(app.config["SQLALCHEMY_DATABASE_URI"])
    one, other = app.test_client(), second.test_client()
    group = new_group(one, players=["Ann", "Ben"])
    import_into(one, group, ["Ann", "Ben"], legal_hands(2, 25, seed=1))
    base = f"/api/groups/{group['id']}"

    def dated_import(client: FlaskClient, seed: int, day: str) -> dict[str, Any]:
        """A game of an earlier evening: its file keeps its date, so it is not the group's newest."""
        body = export_file(["Ann", "Ben"], legal_hands(2, 5, seed=seed)) | {"created_at": f"2020-01-{day}T20:00:00Z"}
        answer = client.post(f"{base}/import", json=body, headers=auth(group["token"]))
        assert answer.status_code == 201, answer.get_json()
        return dict(answer.get_json())

    wrong = dated_import(one, 2, "01")
    assert wrong["id"] in [g["id"] for g in one.get(base, headers=auth(group["token"])).get_json()["games"]]
    assert other.delete(f"{base}/games/{wrong['id']}", headers=auth(group["token"])).status_code == 200
    right = dated_import(other, 3, "02")
    games = [g["id"] for g in one.get(base, headers=auth(group["token"])).get_json()["games"]]
    dispose(second)
    assert right["id"] in games and wrong["id"] not in games
