"""A group written from several phones at once: no request fails for another one's locks.

Real threads, each request with its own test client and database session, on the file-backed
SQLite of the ``app`` fixture and on PostgreSQL when ``TEST_DATABASE_URL`` is set (row locks:
two writes that lock the same rows in opposite orders deadlock there, and one of them fails).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.games import transaction
from scorekeeper.groups import service as groups_service
from scorekeeper.models import Game

from .groups_kit import auth
from .groups_kit import group_table
from .groups_kit import new_group
from .virtual_support import api_view
from .virtual_support import patient_bots  # noqa: F401 (a fixture)


def at_once(**calls: Callable[[], Any]) -> dict[str, Any]:
    """Each call in a thread of its own, all started together: what each returned, or the error it
    raised (a 500 under TESTING), by name."""
    results: dict[str, Any] = {}

    def run(name: str, call: Callable[[], Any]) -> None:
        try:
            results[name] = call()
        except Exception as error:  # noqa: BLE001 - reported by the test's assertions
            results[name] = repr(error)

    threads = [threading.Thread(target=run, args=item) for item in calls.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.mark.usefixtures("patient_bots")
def test_a_game_leaving_the_group_while_its_table_seats_a_person_fails_neither(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A virtual table's move locks its game row, then (a bot's seat passing to its person at the
    deal) the group's; taking the game out of the group locks both too. Both requests succeed."""
    client = app.test_client()
    group = new_group(client, players=[])
    table = group_table(
        client,
        group,
        [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}],
        variant="new-jersey",  # hand 1 has one card: Ann's only card ends it and deals hand 2
        first_dealer=1,
        seed=3,
    )
    ann = table["seats"][0]["token"]
    host = auth(table["host_token"])
    assert client.put(f"/api/tables/{table['id']}/seats/1", json={"bot": None}, headers=host).status_code == 200
    view = api_view(client, table["id"], ann)
    while view["phase"] == "bidding" or not view["your_turn"]:
        if view["your_turn"]:
            client.post(f"/api/tables/{table['id']}/bid", json={"bid": view["legal"][0]}, headers=auth(ann))
        view = api_view(client, table["id"], ann)
    card = view["legal"][0]

    seating = threading.Event()
    original = groups_service.seat_person

    def slow_seat_person(*args: Any, **kwargs: Any) -> None:
        if not kwargs.get("check_only") and not (len(args) > 2 and args[2]):
            seating.set()
            time.sleep(0.5)  # the table's move holds its game row; the removal starts meanwhile
        original(*args, **kwargs)

    monkeypatch.setattr(groups_service, "seat_person", slow_seat_person)

    def play() -> tuple[int, Any]:
        answer = app.test_client().post(f"/api/tables/{table['id']}/play", json={"card": card}, headers=auth(ann))
        return answer.status_code, answer.get_json()

    def remove() -> tuple[int, Any]:
        seating.wait(10)
        answer = app.test_client().delete(
            f"/api/groups/{group['id']}/games/{table['game_id']}", headers=auth(group["token"])
        )
        return answer.status_code, answer.get_json()

    results = at_once(play=play, remove=remove)
    assert results["play"][0] == 200, results["play"]
    assert results["remove"][0] == 200, results["remove"]
    document = client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()
    assert document["games"] == []
    assert api_view(client, table["id"], ann)["hand_number"] == 2


@pytest.mark.usefixtures("patient_bots")
def test_a_game_leaving_the_group_while_the_host_hands_a_seat_to_its_person_fails_neither(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Handed over outside a move (the host's seat change, no hand under way), a seat locks the
    group's row, then its new row in the group checks the game's with a KEY SHARE lock; the removal
    locks the game's row first. FOR UPDATE there would block that check: a deadlock."""
    client = app.test_client()
    group = new_group(client, players=[])
    table = group_table(client, group, [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}], seed=3)
    in_group = threading.Event()
    names_of = groups_service.names_of

    def slow_names_of(*args: Any) -> Any:  # called right after seat_person locks the group's row
        in_group.set()
        time.sleep(0.5)  # the removal starts meanwhile and locks the game's row
        return names_of(*args)

    monkeypatch.setattr(groups_service, "names_of", slow_names_of)

    def hand_over() -> str:
        with app.app_context(), transaction():
            groups_service.seat_person(db.session.get(Game, table["game_id"]), 1)
        return "ok"

    def remove() -> str:
        in_group.wait(10)
        with app.app_context():
            groups_service.remove_game(group["id"], table["game_id"])
        return "ok"

    results = at_once(seat=hand_over, remove=remove)
    assert results == {"seat": "ok", "remove": "ok"}
