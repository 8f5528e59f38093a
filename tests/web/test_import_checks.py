"""An import's history and dates are checked like everything else: corrections as real ones, capped.

A correction in a file can only be one the app itself could have written (README, "Export format");
the game page shows any history, even one stored before these checks, without an error.
"""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.exchange import MAX_CORRECTIONS
from scorekeeper.extensions import db
from scorekeeper.models import Correction
from scorekeeper.models import Game

from .export_kit import auth
from .export_kit import new_game
from .export_kit import record

AT = "2025-11-29T19:02:11.500000Z"


def games_stored(app: Flask) -> int:
    with app.app_context():
        return len(db.session.execute(db.select(Game)).scalars().all())


@pytest.fixture
def edited(client: FlaskClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ann, Ben and Cy, hands 1 and 2 with every kind of correction; the game and its export.json."""
    game = new_game(client, ["Ann", "Ben", "Cy"])
    scorer = auth(game["scorer_token"])
    record(client, game, 1, [4, 5, 3], [5, 3, 5], trump="H")
    record(client, game, 1, [4, 4, 3], [5, 3, 5], trump="S")  # bids and trump corrected
    record(client, game, 1, [4, 4, 3], [4, 4, 5], trump="S")  # tricks corrected
    record(client, game, 2, [2, 6, 4], [2, 7, 3])
    undone = client.delete(f"/api/games/{game['id']}/hands/2", headers=scorer)  # and undone
    assert undone.status_code == 200
    data = client.get(f"/api/games/{game['id']}/export.json", headers=auth(game["watch_token"])).get_json()
    assert [c["field"] for c in data["corrections"]] == ["bids", "trump", "tricks", "undo"]
    return game, data


def test_a_history_of_every_kind_of_correction_imports_unchanged(
    client: FlaskClient, edited: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    _, data = edited
    made = client.post("/api/games/import", json=data)
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    again = client.get(f"/api/games/{game['id']}/history", headers=auth(game["watch_token"])).get_json()
    strip = [{k: v for k, v in c.items() if k != "id"} for c in data["corrections"]]
    assert [{k: v for k, v in c.items() if k != "id"} for c in again["corrections"]] == strip
    page = client.get(f"/g/{game['id']}/join/{game['watch_token']}", follow_redirects=True)
    assert page.status_code == 200 and "Corrections" in page.get_data(as_text=True)


def bad(index: int, **fields: Any) -> Callable[[dict[str, Any]], None]:
    def apply(data: dict[str, Any]) -> None:
        data["corrections"][index].update(fields)

    return apply


def replace(corrections: list[dict[str, Any]]) -> Callable[[dict[str, Any]], None]:
    def apply(data: dict[str, Any]) -> None:
        data["corrections"] = corrections

    return apply


def one(field: str, old: Any, new: Any, hand: int = 1) -> dict[str, Any]:
    return {"at": AT, "hand": hand, "field": field, "old": old, "new": new}


BROKEN: list[tuple[str, Callable[[dict[str, Any]], None], int, str | None, str]] = [
    ("a bid above the cards", bad(0, new=[14, 4, 3]), 422, "R22", "corrections[0] (bids, hand 1)"),
    ("bids of the wrong length", bad(0, old=[4, 5]), 422, "R22", "needs 3 bids"),
    ("bids as text", bad(0, new="4 4 3"), 422, "R22", "bids are a list"),
    ("a correction that changes nothing", bad(0, new=[4, 5, 3]), 422, "R25", "old and new bids are the same"),
    ("tricks that do not add up", bad(2, new=[4, 4, 4]), 422, "R23", "Tricks add up to 12"),
    (
        "an unknown trump",
        bad(1, new="X"),
        422,
        "R12",
        'a trump is S, H, D, C, "-" (no trump) or null (not noted), not "X"',
    ),
    (
        "a correction of a hand the game does not have",
        replace([one("trump", None, "S", hand=26)]),
        400,
        None,
        "'corrections[0].hand' should be a hand number from 1 to 25",
    ),
    (
        "an undo that leaves something else",
        bad(3, new={"bids": [1, 1, 1], "tricks": None, "trump": None}),
        422,
        "R25",
        "an undo leaves the hand empty",
    ),
    ("an undo of nothing", bad(3, old={"bids": None, "tricks": None, "trump": None}), 422, "R22", "bids are a list"),
    ("an undo with other keys", bad(3, old={"html": "<b>"}), 422, "R25", "an undo keeps the hand's bids"),
    ("a megabyte in a correction", bad(0, old="x" * 1_800_000), 422, "R22", "bids are a list"),
    ("a correction as a number", replace([7]), 400, None, "corrections[0] should be an object"),
    (
        "too many corrections",
        lambda d: d.update(corrections=d["corrections"][:1] * (MAX_CORRECTIONS + 1)),
        400,
        None,
        f"a game keeps at most {MAX_CORRECTIONS}",
    ),
    ("a correction without a time", bad(0, at=None), 400, None, "'corrections[0].at'"),
    ("a correction in year 1", bad(0, at="0001-01-01T00:00:00+01:00"), 400, None, "is not a time a game was played"),
    (
        "a game from year 1 in another zone",
        lambda d: d.update(created_at="0001-01-01T00:00:00+01:00"),
        400,
        None,
        "'created_at' \"0001-01-01T00:00:00+01:00\" is not a time a game was played",
    ),
    (
        "a game at the end of time",
        lambda d: d.update(created_at="9999-12-31T23:59:59-01:00"),
        400,
        None,
        "is not a time a game was played",
    ),
    ("a game next year", lambda d: d.update(created_at="2099-01-01T00:00:00Z"), 400, None, "between 2000 and now"),
    # Values of the wrong type are a malformed file (400), as in the table API, not a rule broken (422).
    (
        "a bid of the wrong type",
        lambda d: d["hands"][0].update(bids=[False, 5, 3]),
        400,
        None,
        "'hands[0].bids' should be a list with one whole number per player, or null, not [false, 5, 3]",
    ),
    ("tricks as decimals", lambda d: d["hands"][0].update(tricks=[5.0, 3, 5]), 400, None, "'hands[0].tricks'"),
    (
        "points as decimals",
        lambda d: d["hands"][0].update(points=[float(p) for p in d["hands"][0]["points"]]),
        400,
        None,
        "'hands[0].points' should be whole numbers and texts as this app writes them",
    ),
    ("totals as texts", lambda d: d.update(totals=[str(t) for t in d["totals"]]), 400, None, "'totals' should be"),
]


@pytest.mark.parametrize(
    ("tamper", "status", "rule", "words"), [case[1:] for case in BROKEN], ids=[case[0] for case in BROKEN]
)
def test_a_history_the_app_could_not_have_written_is_refused_and_nothing_is_stored(
    app: Flask,
    client: FlaskClient,
    edited: tuple[dict[str, Any], dict[str, Any]],
    tamper: Callable[[dict[str, Any]], None],
    status: int,
    rule: str | None,
    words: str,
) -> None:
    _, exported = edited
    data = copy.deepcopy(exported)
    tamper(data)
    before = games_stored(app)
    answer = client.post("/api/games/import", json=data)
    assert answer.status_code == status, answer.get_json()
    error = answer.get_json()["error"]
    assert error["code"] == ("bad_request" if status == 400 else "rule_violation")
    assert error["rule"] == rule
    assert words in error["message"], error["message"]
    assert len(error["message"]) < 400  # a megabyte is quoted in a few characters
    assert games_stored(app) == before


def test_a_history_stored_before_these_checks_still_shows(
    app: Flask, client: FlaskClient, edited: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    """Rows an older import stored unchecked: the page shows what it can and never answers 500."""
    game, _ = edited
    with app.app_context():
        odd: list[tuple[str, Any, Any]] = [
            ("bids", {"a": 1}, "x" * 5000),
            ("tricks", [1, 2, 3, 4, 5, 6], [None]),
            ("trump", "Q", ["S"]),
            ("undo", [1], 7),
            ("undo", {"bids": "x", "tricks": 5}, None),
            ("bids", None, [[1], {"b": 2}, 3]),
        ]
        for field, old, new in odd:
            db.session.add(Correction(game_id=game["id"], hand=1, field=field, old=old, new=new))
        db.session.commit()
    client.get(f"/g/{game['id']}/join/{game['scorer_token']}")
    page = client.get(f"/g/{game['id']}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Corrections" in text and "x" * 100 not in text
    history = client.get(f"/api/games/{game['id']}/history", headers=auth(game["watch_token"]))
    assert history.status_code == 200 and len(history.get_json()["corrections"]) == 4 + len(odd)


def test_the_game_page_shows_the_latest_fifty_corrections_and_counts_them_all(
    app: Flask, client: FlaskClient, edited: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    game, _ = edited
    with app.app_context():
        for n in range(200):
            db.session.add(Correction(game_id=game["id"], hand=1, field="bids", old=[1, 1, 1], new=[1, 1, 2 + n % 5]))
        db.session.commit()
    client.get(f"/g/{game['id']}/join/{game['watch_token']}")
    text = client.get(f"/g/{game['id']}").get_data(as_text=True)
    assert text.count('<li><time datetime="') == 50
    assert '<span class="count">204</span>' in text


def test_a_chunked_body_over_the_limit_is_a_413(app: Flask, client: FlaskClient) -> None:
    """No Content-Length to check first: the body is cut at the limit, and answered as too large."""
    big = b'{"players": ["' + b"x" * (3 * 1024 * 1024) + b'"]}'
    answer = client.post(
        "/api/games/import",
        input_stream=io.BytesIO(big),
        headers={"Transfer-Encoding": "chunked", "Content-Type": "application/json"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert answer.status_code == 413
    error = answer.get_json()["error"]
    assert error == {"code": "too_large", "rule": None, "message": "That request is too large; nothing was saved."}
    small = json.dumps({"players": ["Ann", "Ben"]}).encode()
    answer = client.post(
        "/api/games",
        input_stream=io.BytesIO(small),
        headers={"Transfer-Encoding": "chunked", "Content-Type": "application/json"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert answer.status_code == 201
    assert games_stored(app) == 1


def test_a_game_keeps_at_most_the_capped_number_of_corrections(
    app: Flask, client: FlaskClient, edited: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    """The same cap as an import, so the export of any game imports again."""
    game, _ = edited  # 4 corrections so far
    with app.app_context():
        for _ in range(MAX_CORRECTIONS - 5):
            db.session.add(Correction(game_id=game["id"], hand=1, field="bids", old=[1, 1, 1], new=[1, 1, 2]))
        db.session.commit()
    scorer = auth(game["scorer_token"])
    url = f"/api/games/{game['id']}/hands/1"
    both = client.put(f"{url}/bids", json={"bids": [4, 5, 3], "trump": "H"}, headers=scorer)  # 2 more: 501
    assert both.status_code == 400
    assert both.get_json()["error"]["message"].startswith("This game keeps at most 500 corrections and has 499:")
    assert client.put(f"{url}/tricks", json={"tricks": [5, 3, 5]}, headers=scorer).status_code == 200  # the 500th
    refused = client.put(f"{url}/tricks", json={"tricks": [4, 4, 5]}, headers=scorer)
    assert refused.status_code == 400
    assert refused.get_json()["error"]["message"].startswith("This game keeps at most 500 corrections and has 500:")
    assert client.delete(url, headers=scorer).status_code == 400  # an undo is a correction too
    assert (
        client.put(f"/api/games/{game['id']}/hands/2/bids", json={"bids": [1, 1, 1]}, headers=scorer).status_code == 200
    )  # playing on is not a correction
    exported = client.get(f"/api/games/{game['id']}/export.json", headers=scorer).get_json()
    assert len(exported["corrections"]) == MAX_CORRECTIONS
    assert client.post("/api/games/import", json=exported).status_code == 201
