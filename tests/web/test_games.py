"""The service layer on its own: write transactions, repeats, seeds and the document's fields."""

from __future__ import annotations

import dataclasses

import pytest
from flask import Flask

from scorekeeper import errors
from scorekeeper import games
from scorekeeper.engine import build_scorecard
from scorekeeper.engine import HandRecord
from scorekeeper.engine import Rules
from scorekeeper.engine import Suit
from scorekeeper.extensions import db
from scorekeeper.models import Game


def test_an_error_inside_a_write_stores_nothing(app: Flask) -> None:
    created = app.test_client().post("/api/games", json={"players": ["Ann", "Ben"]}).get_json()
    with app.app_context():
        with pytest.raises(RuntimeError), games.writing(created["id"]) as write:
            game = write.change()
            game.players = ["Changed", "Names"]
            game.first_dealer = 1
            raise RuntimeError("the power went out")
        db.session.remove()
        game = db.session.get(Game, created["id"])
        assert game is not None and game.players == ["Ann", "Ben"] and game.version == 1


def test_a_write_that_changes_nothing_commits_nothing(app: Flask) -> None:
    created = app.test_client().post("/api/games", json={"players": ["Ann", "Ben"]}).get_json()
    with app.app_context():
        with games.writing(created["id"], version=1) as write:
            write.game.players = ["Not", "Kept"]  # nothing declared: not stored
        db.session.remove()
        game = db.session.get(Game, created["id"])
        assert game is not None and game.players == ["Ann", "Ben"] and game.version == 1
        # API.md: a stale version is refused, whether or not the write would change anything
        with pytest.raises(errors.Conflict), games.writing(created["id"], version=99):
            pass


def test_locked_always_changes_and_checks_the_version_first(app: Flask) -> None:
    created = app.test_client().post("/api/games", json={"players": ["Ann", "Ben"]}).get_json()
    with app.app_context():
        with games.locked(created["id"], 1) as game:
            game.first_dealer = 1
        assert db.session.get(Game, created["id"]).version == 2  # type: ignore[union-attr]
        with pytest.raises(errors.Conflict), games.locked(created["id"], 1):
            pass
        with pytest.raises(errors.NotFound), games.locked("0" * 16):
            pass
        with pytest.raises(errors.BadRequest), games.locked(created["id"], "2"):
            pass


def test_ids_are_long_enough_never_to_collide() -> None:
    from scorekeeper.tokens import new_id

    ids = {new_id() for _ in range(10_000)}
    assert len(ids) == 10_000 and all(len(i) == 16 for i in ids)


def test_a_seed_is_checked_and_refused_unless_allowed() -> None:
    assert games.check_seed({}, allowed=False) is None
    assert games.check_seed({"seed": 7}, allowed=True) == 7
    for body, allowed in [({"seed": 7}, False), ({"seed": None}, False), ({"seed": "7"}, True), ({"seed": 1.5}, True)]:
        with pytest.raises(errors.BadRequest):
            games.check_seed(body, allowed)


RECORDS = [
    [],
    [HandRecord((4, 5, 3))],
    [HandRecord((4, 5, 3), (5, 3, 5), Suit.SPADES), HandRecord((2, 6, 4), (2, 7, 3))],
    [HandRecord((1, 1, 1), (cards, 0, 0), Suit.HEARTS) for cards in Rules(3).schedule],
    [HandRecord((1, 1, 1), (cards - 1, 1, 0)) for cards in Rules(3).schedule[:-1]] + [HandRecord((1, 1, 1))],
]


@pytest.mark.parametrize("records", RECORDS)
def test_the_scorecards_shallow_to_dict_equals_asdict(records: list[HandRecord]) -> None:
    card = build_scorecard(Rules(3), 1, records)
    hands = [dataclasses.asdict(h) for h in card.hands]
    assert card.to_dict()["hands"] == hands
    assert [list(h) for h in card.to_dict()["hands"]] == [list(h) for h in hands]  # same key order
    assert card.to_dict()["stats"] == [dataclasses.asdict(s) for s in card.stats]
