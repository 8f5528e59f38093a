"""Every error answer of the JSON API: one shape, the right code and rule, a sentence a player reads."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper.extensions import db

SHAPE = {"code", "rule", "message"}
CODES = {
    400: "bad_request",
    403: "forbidden",
    404: "not_found",
    405: "bad_request",
    409: "conflict",
    413: "too_large",
    422: "rule_violation",
}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def altered(token: str) -> str:
    """``token`` with its last two characters changed: never the token itself (one in 4096 tokens
    ends in "xx", so writing "xx" over them would sometimes leave it unchanged)."""
    return token[:-2] + ("yy" if token.endswith("xx") else "xx")


def assert_error(response: Any, status: int, rule: str | None = None, fragment: str = "") -> dict[str, Any]:
    """The answer is exactly ``{"error": {"code", "rule", "message"}}`` with a readable sentence."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.is_json
    data = response.get_json()
    assert set(data) == {"error"} and set(data["error"]) == SHAPE
    error = data["error"]
    assert error["code"] == CODES[status]
    assert error["rule"] == rule
    message = error["message"]
    assert isinstance(message, str) and not message[:1].islower() and message.endswith("."), message
    assert fragment in message
    if rule:  # a rule violation names its rule in the sentence too
        assert rule in message
    assert "Traceback" not in message and "sqlalchemy" not in message.lower()
    return error


def send(client: FlaskClient, method: str, path: str, sent: Any, headers: dict[str, str]) -> Any:
    """A case's request: its raw bytes as JSON, or its value encoded."""
    if isinstance(sent, bytes):
        return getattr(client, method)(path, data=sent, content_type="application/json", headers=headers)
    return getattr(client, method)(path, json=sent, headers=headers)


@pytest.fixture
def game(client: FlaskClient) -> dict[str, Any]:
    """Ann, Ben and Cy; hand 1 complete (RULES.md's worked example), nothing else."""
    created = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"]}).get_json()
    scorer = auth(created["scorer_token"])
    assert (
        client.put(f"/api/games/{created['id']}/hands/1/bids", json={"bids": [4, 5, 3]}, headers=scorer).status_code
        == 200
    )
    assert (
        client.put(f"/api/games/{created['id']}/hands/1/tricks", json={"tricks": [5, 3, 5]}, headers=scorer).status_code
        == 200
    )
    return created


# -- creating a game -----------------------------------------------------------------------------
ANN_BEN = ["Ann", "Ben"]
CREATE_CASES = [
    # (raw body or json, status, rule, fragment)
    pytest.param(b"", 400, None, 'needs a JSON object as its body, such as {"players": [', id="empty-body"),
    pytest.param(b"players=Ann", 400, None, 'not valid JSON; send a JSON object such as {"players": [', id="form-body"),
    pytest.param(b'{"players": ["Ann", "Ben"]', 400, None, "not valid JSON", id="truncated-json"),
    pytest.param(b"\xff\xfe\xfa", 400, None, "not valid JSON", id="not-utf8"),
    pytest.param(b"[" * 200_000 + b"]" * 200_000, 400, None, "not valid JSON", id="deeply-nested"),
    pytest.param(
        b'{"players": ["Ann", "Ben"], "first_dealer": ' + b"9" * 5000 + b"}",
        400,
        None,
        "A number in the request has 5000 digits",  # valid JSON, past what Python reads
        id="number-too-long-to-read",
    ),
    pytest.param(b"null", 400, None, "not null", id="json-null"),
    pytest.param(b'["Ann", "Ben"]', 400, None, "not a list", id="json-list"),
    pytest.param(b'"Ann"', 400, None, "not a string", id="json-string"),
    pytest.param(b"42", 400, None, "not a number", id="json-number"),
    pytest.param({}, 400, None, "'players' must be a list", id="no-players"),
    pytest.param({"players": "Ann, Ben"}, 400, None, "'players' must be a list", id="players-string"),
    pytest.param({"players": ["Ann", 2]}, 400, None, "'players' must be a list", id="player-number"),
    pytest.param({"players": [["Ann"], "Ben"]}, 400, None, "'players' must be a list", id="player-nested"),
    pytest.param({"players": []}, 422, "R4", "not 0", id="no-names"),
    pytest.param({"players": ["Ann"]}, 422, "R4", "2 to 15 players, not 1", id="one-player"),
    pytest.param({"players": [f"P{i}" for i in range(16)]}, 422, "R4", "not 16", id="sixteen-players"),
    pytest.param({"players": [f"P{i}" for i in range(10_000)]}, 422, "R4", "not 10000", id="many-players"),
    pytest.param({"players": ["Ann", "   "]}, 400, None, "Player 2 has no name", id="blank-name"),
    pytest.param({"players": ["Ann", "x" * 41]}, 400, None, "longer than 40", id="long-name"),
    pytest.param({"players": ["Ann", "x" * 1_000_000]}, 400, None, "longer than 40", id="huge-name"),
    pytest.param({"players": ["Ann", "Be\x00n"]}, 400, None, "cannot be printed", id="control-character"),
    pytest.param({"players": ["Ann", "Ben" + "\u0301" * 37]}, 400, None, "more than 4 marks", id="stacked-marks"),
    pytest.param({"players": ["Ann", "Ben", " ann "]}, 400, None, "Two players are called 'ann'", id="duplicate-name"),
    pytest.param({"players": ["Straße", "STRASSE"]}, 400, None, "Two players", id="duplicate-casefold"),
    pytest.param({"players": ["José", "Jose\u0301"]}, 400, None, "Two players", id="duplicate-combining-accent"),
    pytest.param({"players": ["Ann", "\u200d"]}, 400, None, "Player 2 has no name", id="joiner-alone"),
    pytest.param({"players": ["Ann", "Be\u200bn"]}, 400, None, "cannot be printed", id="zero-width-space"),
    pytest.param({"players": ["Ann", "Ann\u200d"]}, 400, None, "Two players", id="duplicate-joiner-at-the-end"),
    pytest.param({"players": ["Ann", "\u034f\u200cANN"]}, 400, None, "Two players", id="duplicate-joiners-in-front"),
    pytest.param({"players": ["Ann", "\u3164"]}, 400, None, "Player 2 has no name", id="hangul-filler-alone"),
    pytest.param({"players": ["Ann", "\u3164Ann\uffa0"]}, 400, None, "Two players", id="duplicate-fillers-at-the-ends"),
    pytest.param(
        {"players": ANN_BEN, "variant": "bogus"},
        422,
        "R18",
        "The variant must be 'standard' or 'new-jersey', not 'bogus' (R18).",
        id="variant",
    ),
    pytest.param({"players": ANN_BEN, "variant": None}, 422, "R18", "not null (R18)", id="variant-null"),
    pytest.param(
        {"players": ANN_BEN, "options": ["zero_bids"]}, 400, None, "'options' must be an object", id="options-list"
    ),
    pytest.param(
        {"players": ANN_BEN, "options": {"zero_bids": 1}}, 400, None, "true or false, not 1", id="option-number"
    ),
    pytest.param(
        {"players": ANN_BEN, "options": {"bogus": True}}, 400, None, "Unknown option 'bogus'", id="unknown-option"
    ),
    pytest.param(
        {"players": ANN_BEN, "options": {"q": 1}}, 400, None, "Unknown option 'q'", id="unknown-option-number"
    ),
    pytest.param(
        {"players": ["A", "B", "C", "D"], "options": {"extended": True}}, 422, "R9", "only for 2 or 3", id="extended-4"
    ),
    pytest.param(
        {"players": ["A", "B", "C", "D"], "options": {"all_cards_hand": True}},
        422,
        "R10",
        "divide evenly",
        id="all-cards-4",
    ),
    pytest.param({"players": ANN_BEN, "first_dealer": 2}, 422, "R6", "not 2", id="dealer-out-of-range"),
    pytest.param({"players": ANN_BEN, "first_dealer": -1}, 422, "R6", "not -1", id="dealer-negative"),
    pytest.param({"players": ANN_BEN, "first_dealer": "0"}, 400, None, 'not "0"', id="dealer-string"),
    pytest.param({"players": ANN_BEN, "first_dealer": True}, 400, None, "not true", id="dealer-bool"),
    pytest.param({"players": ANN_BEN, "first_dealer": 0.0}, 400, None, "not 0.0", id="dealer-float"),
    pytest.param({"players": ANN_BEN, "first_dealer": 10**4299}, 422, "R6", "not 1000", id="dealer-4300-digits"),
]


@pytest.mark.parametrize(("sent", "status", "rule", "fragment"), CREATE_CASES)
def test_creating_a_game_with_a_bad_body_is_refused_and_stores_nothing(
    app: Flask, client: FlaskClient, sent: Any, status: int, rule: str | None, fragment: str
) -> None:
    assert_error(send(client, "post", "/api/games", sent, {}), status, rule, fragment)
    from scorekeeper.extensions import db
    from scorekeeper.models import Game

    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Game)) == 0


def test_a_body_over_the_size_limit_is_a_413(client: FlaskClient) -> None:
    big = b'{"players": ["' + b"x" * (2 * 1024 * 1024) + b'"]}'
    assert_error(client.post("/api/games", data=big, content_type="application/json"), 413, None, "too large")


def test_json_without_a_json_content_type_is_still_read(client: FlaskClient) -> None:
    response = client.post("/api/games", data=b'{"players": ["Ann", "Ben"]}', content_type="text/plain")
    assert response.status_code == 201


# -- addresses and methods -------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/api", "/api/", "/api/nothing", "/api/games/x/y/z", "/api/games/abc/hands/1/cards"])
def test_unknown_api_addresses_answer_404_json(client: FlaskClient, path: str) -> None:
    assert_error(client.get(path), 404, None, "nothing at this address")


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("delete", "/api/games", "POST"),
        ("get", "/api/games", "POST"),
        ("patch", "/api/games/abc", "GET"),
        ("post", "/api/games/abc/hands/1/bids", "PUT"),
        ("get", "/api/games/abc/hands/1/tricks", "PUT"),
        ("put", "/api/games/abc/hands/1", "DELETE"),
    ],
)
def test_a_wrong_method_answers_405_json_with_allow(client: FlaskClient, method: str, path: str, allowed: str) -> None:
    response = getattr(client, method)(path)
    assert_error(response, 405, None, f"{method.upper()} is not possible")
    assert allowed in response.headers["Allow"]


# -- access ----------------------------------------------------------------------------------------
WRITES = [
    ("put", "/api/games/{id}/hands/2/bids", {"bids": [2, 6, 4]}),
    ("put", "/api/games/{id}/hands/1/tricks", {"tricks": [4, 4, 5]}),
    ("delete", "/api/games/{id}/hands/1", None),
]
READS = [
    ("get", "/api/games/{id}", None),
    ("get", "/api/games/{id}/version", None),
    ("get", "/api/games/{id}/history", None),
]


@pytest.mark.parametrize(("method", "path", "sent"), WRITES + READS)
@pytest.mark.parametrize("who", ["unknown-game", "wrong-token", "no-token", "other-scheme", "other-game-token"])
def test_unknown_game_and_wrong_token_give_the_same_404(
    client: FlaskClient, game: dict[str, Any], method: str, path: str, sent: Any, who: str
) -> None:
    other = client.post("/api/games", json={"players": ["Dee", "Eve"]}).get_json()
    game_id, headers = game["id"], auth(game["scorer_token"])
    if who == "unknown-game":
        game_id = "0" * 16
    elif who == "wrong-token":
        headers = auth(altered(game["scorer_token"]))
    elif who == "no-token":
        headers = {}
    elif who == "other-scheme":
        headers = {"Authorization": f"Basic {game['scorer_token']}"}
    else:
        headers = auth(other["scorer_token"])
    response = getattr(client, method)(path.format(id=game_id), json=sent, headers=headers)
    error = assert_error(response, 404)
    reference = client.get(f"/api/games/{'f' * 16}", headers=auth(game["scorer_token"])).get_json()["error"]
    assert error == reference  # the same body whether the game exists or not


def test_a_wrong_token_runs_the_same_queries_as_an_unknown_game(
    app: Flask, client: FlaskClient, game: dict[str, Any]
) -> None:
    """A wrong token loaded the game's hands and looked for its virtual table, an unknown id did
    neither: the answer came 0.5 ms later when the game existed (API.md: existence is not revealed)."""
    table = client.post("/api/tables", json={"seats": [{"name": "Ann"}, {"name": "Ben"}]}).get_json()
    with app.app_context():
        engine = db.engine
    statements: list[str] = []

    def seen(connection: Any, cursor: Any, statement: str, *rest: Any) -> None:
        statements.append(statement)

    runs = {}
    event.listen(engine, "before_cursor_execute", seen)
    try:
        for who, game_id in (("game", game["id"]), ("table's game", table["game_id"]), ("unknown", "0" * 16)):
            statements.clear()
            answer = client.get(f"/api/games/{game_id}", headers=auth(altered(game["scorer_token"])))
            assert answer.status_code == 404
            runs[who] = list(statements)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert runs["game"] == runs["table's game"] == runs["unknown"]
    assert not any("hands" in statement for statement in runs["game"])


@pytest.mark.parametrize(("method", "path", "sent"), WRITES)
def test_writing_with_the_watch_token_is_forbidden(
    client: FlaskClient, game: dict[str, Any], method: str, path: str, sent: Any
) -> None:
    before = client.get(f"/api/games/{game['id']}", headers=auth(game["watch_token"])).get_json()
    response = getattr(client, method)(path.format(id=game["id"]), json=sent, headers=auth(game["watch_token"]))
    assert_error(response, 403, None, "only watch")
    assert client.get(f"/api/games/{game['id']}", headers=auth(game["watch_token"])).get_json() == before


# -- recording hands --------------------------------------------------------------------------------
HAND_CASES = [
    # (method, path under the game, raw body or json, status, rule, fragment)
    pytest.param("put", "hands/2/bids", b"", 400, None, "needs a JSON object", id="bids-no-body"),
    pytest.param("put", "hands/2/bids", b"{bids: [2, 6, 4]}", 400, None, 'such as {"bids": [', id="bids-bad-json"),
    pytest.param("put", "hands/2/bids", b"[2, 6, 4]", 400, None, "must be a JSON object", id="bids-list-body"),
    pytest.param("put", "hands/2/bids", {}, 400, None, "needs 'bids'", id="bids-missing"),
    pytest.param("put", "hands/2/bids", {"bids": "2 6 4"}, 400, None, "'bids' must be a list", id="bids-string"),
    pytest.param("put", "hands/2/bids", {"bids": {"Ann": 2}}, 400, None, "'bids' must be a list", id="bids-object"),
    pytest.param("put", "hands/2/bids", {"bids": None}, 400, None, "'bids' must be a list", id="bids-null"),
    pytest.param(
        "put",
        "hands/2/bids",
        {"bids": ["2", 6, 4]},
        400,
        None,
        'Ann\'s bid must be a whole number, not "2"',
        id="bid-string",
    ),
    pytest.param(
        "put",
        "hands/2/bids",
        {"bids": [2, 6.5, 4]},
        400,
        None,
        "Ben's bid must be a whole number, not 6.5",
        id="bid-float",
    ),
    pytest.param(
        "put",
        "hands/2/bids",
        {"bids": [2, 6, 4.0]},
        400,
        None,
        "Cy's bid must be a whole number, not 4.0",
        id="bid-whole-float",
    ),
    pytest.param("put", "hands/2/bids", {"bids": [True, 6, 4]}, 400, None, "not true", id="bid-bool"),
    pytest.param("put", "hands/2/bids", {"bids": [None, 6, 4]}, 400, None, "not null", id="bid-null"),
    pytest.param("put", "hands/2/bids", {"bids": [[2], 6, 4]}, 400, None, "not [2]", id="bid-nested"),
    pytest.param("put", "hands/2/bids", b'{"bids": [1e400, 6, 4]}', 400, None, "not Infinity", id="bid-infinite"),
    pytest.param("put", "hands/2/bids", b'{"bids": [NaN, 6, 4]}', 400, None, "not NaN", id="bid-nan"),
    pytest.param(
        "put", "hands/2/bids", {"bids": [10**30, 6, 4]}, 422, "R22", "only 12 cards were dealt in hand 2", id="bid-huge"
    ),
    pytest.param(
        "put",
        "hands/2/bids",
        {"bids": [10**200, 6, 4]},
        422,
        "R22",
        f"Ann bid {'1' + '0' * 62}…, but",
        id="bid-200-digits",
    ),
    pytest.param(
        "put", "hands/2/bids", {"bids": [13, 6, 4]}, 422, "R22", "Ann bid 13, but only 12", id="bid-over-cards"
    ),
    pytest.param("put", "hands/2/bids", {"bids": [0, 6, 4]}, 422, "R22", "at least 1", id="bid-zero"),
    pytest.param("put", "hands/2/bids", {"bids": [-1, 6, 4]}, 422, "R22", "Ann bid -1", id="bid-negative"),
    pytest.param("put", "hands/2/bids", {"bids": [2, 6]}, 422, "R22", "needs 3 bids", id="bids-too-few"),
    pytest.param("put", "hands/2/bids", {"bids": [2, 6, 4, 1]}, 422, "R22", "not 4", id="bids-too-many"),
    pytest.param("put", "hands/2/bids", {"bids": []}, 422, "R22", "not 0", id="bids-empty"),
    pytest.param(
        "put", "hands/2/bids", {"bids": [2, 6, 4], "trump": "X"}, 422, "R12", "'X' is not a suit", id="trump-letter"
    ),
    pytest.param(
        "put", "hands/2/bids", {"bids": [2, 6, 4], "trump": "s"}, 422, "R12", "not a suit", id="trump-lowercase"
    ),
    pytest.param(
        "put", "hands/2/bids", {"bids": [2, 6, 4], "trump": 1}, 400, None, "'trump' must be", id="trump-number"
    ),
    pytest.param(
        "put",
        "hands/2/bids",
        {"bids": [2, 6, 4], "no_trump": "yes"},
        400,
        None,
        "'no_trump' must be",
        id="no-trump-word",
    ),
    pytest.param(
        "put",
        "hands/2/bids",
        {"bids": [2, 6, 4], "trump": "S", "no_trump": True},
        422,
        "R12",
        "Hand 2 cannot have trump ♠ and no trump at once",
        id="no-trump-and-a-suit",
    ),
    pytest.param(
        "put",
        "hands/2/bids",
        {"bids": [2, 6, 4], "trump": "X", "no_trump": True},
        422,
        "R12",
        "'X' is not a suit",
        id="no-trump-and-x",
    ),
    pytest.param(
        "put", "hands/2/bids", {"bids": [2, 6, 4], "version": "2"}, 400, None, "'version' must be", id="version-string"
    ),
    pytest.param(
        "put", "hands/2/bids", {"bids": [2, 6, 4], "version": 2.0}, 400, None, "'version' must be", id="version-float"
    ),
    pytest.param(
        "put", "hands/2/bids", {"bids": [2, 6, 4], "version": True}, 400, None, "'version' must be", id="version-bool"
    ),
    pytest.param(
        "put", "hands/2/bids", {"bids": [2, 6, 4], "version": -5}, 400, None, "'version' must be", id="version-negative"
    ),
    pytest.param(
        "put",
        "hands/2/bids",
        {"bids": [2, 6, 4], "version": 1},
        409,
        None,
        "you had version 1, it is now 3",
        id="version-stale",
    ),
    pytest.param(
        "put",
        "hands/2/bids",
        {"bids": [2, 6, 4], "version": 10**40},
        409,
        None,
        "Someone else changed",
        id="version-huge",
    ),
    pytest.param("put", "hands/2/bids?version=x", {"bids": [2, 6, 4]}, 400, None, "not 'x'", id="query-version-word"),
    pytest.param(
        "put", "hands/2/bids?version=-3", {"bids": [2, 6, 4]}, 400, None, "not '-3'", id="query-version-negative"
    ),
    pytest.param(
        "put", "hands/2/bids?version=1", {"bids": [2, 6, 4]}, 409, None, "you had version 1", id="query-version-stale"
    ),
    pytest.param(
        "put",
        "hands/2/bids?version=3",
        {"bids": [2, 6, 4], "version": 2},
        400,
        None,
        "two different versions",
        id="versions-disagree",
    ),
    pytest.param("put", "hands/2/bids", {"bids": [2, 6, 4], "seed": 7}, 400, None, "'seed'", id="seed"),
    pytest.param("put", "hands/x/bids", {"bids": [2, 6, 4]}, 400, None, "'x' is not a hand number", id="hand-word"),
    pytest.param("put", "hands/-1/bids", {"bids": [2, 6, 4]}, 400, None, "not a hand number", id="hand-negative"),
    pytest.param("put", "hands/²/bids", {"bids": [2, 6, 4]}, 400, None, "not a hand number", id="hand-superscript"),
    pytest.param("put", "hands/0/bids", {"bids": [2, 6, 4]}, 422, "R24", "there is no hand 0", id="hand-zero"),
    pytest.param(
        "put",
        "hands/26/bids",
        {"bids": [1, 1, 1]},
        422,
        "R24",
        "hands 1 to 25; there is no hand 26",
        id="hand-after-last",
    ),
    pytest.param("put", "hands/99999999999999999999/bids", {"bids": [1, 1, 1]}, 422, "R24", "no hand", id="hand-huge"),
    pytest.param(
        "put",
        "hands/" + "9" * 5000 + "/bids",
        {"bids": [1, 1, 1]},
        400,
        None,
        "not a hand number",
        id="hand-5000-digits",
    ),
    pytest.param(
        "put", "hands/3/bids", {"bids": [1, 1, 1]}, 422, "R25", "Hand 2 is not complete", id="bids-out-of-order"
    ),
    pytest.param(
        "put", "hands/2/tricks", {"tricks": [2, 7, 3]}, 422, "R25", "Record the bids of hand 2", id="tricks-before-bids"
    ),
    pytest.param("put", "hands/1/tricks", {}, 400, None, "needs 'tricks'", id="tricks-missing"),
    pytest.param("put", "hands/1/tricks", {"tricks": 13}, 400, None, "'tricks' must be a list", id="tricks-number"),
    pytest.param(
        "put",
        "hands/1/tricks",
        {"tricks": ["5", 3, 5]},
        400,
        None,
        "Ann's tricks taken must be a whole number",
        id="tricks-string",
    ),
    pytest.param("put", "hands/1/tricks", {"tricks": [5, 3, False]}, 400, None, "Cy's tricks taken", id="tricks-bool"),
    pytest.param(
        "put",
        "hands/1/tricks",
        {"tricks": [5, 3, 4]},
        422,
        "R23",
        "Tricks add up to 12, but 13 cards were dealt in hand 1",
        id="tricks-sum",
    ),
    pytest.param("put", "hands/1/tricks", {"tricks": [14, -1, 0]}, 422, "R23", "took 14 tricks", id="tricks-range"),
    pytest.param("put", "hands/1/tricks", {"tricks": [13, 0]}, 422, "R23", "needs 3 trick counts", id="tricks-count"),
    pytest.param("put", "hands/1/tricks", {"tricks": [5, 3, 5]}, 200, None, "", id="tricks-repeated-is-fine"),
    pytest.param(  # API.md: "when given and stale the write is refused with 409", what is stored or not
        "put",
        "hands/1/tricks",
        {"tricks": [5, 3, 5], "version": 1},
        409,
        None,
        "you had version 1",
        id="tricks-repeated-stale",
    ),
    pytest.param(
        "put",
        "hands/1/tricks",
        {"tricks": [4, 4, 5], "version": 1},
        409,
        None,
        "Someone else changed",
        id="tricks-stale",
    ),
    pytest.param(
        "delete",
        "hands/2",
        None,
        422,
        "R25",
        "Hand 2 has no entries to undo; only the latest hand with entries, hand 1,",
        id="undo-past-latest",
    ),
    pytest.param("delete", "hands/30", None, 422, "R24", "there is no hand 30", id="undo-past-schedule"),
    pytest.param("delete", "hands/x", None, 400, None, "not a hand number", id="undo-word"),
    pytest.param("delete", "hands/1", b"nonsense", 400, None, 'such as {"version": 3}', id="undo-bad-body"),
    pytest.param("delete", "hands/1", b"[1]", 400, None, "must be a JSON object", id="undo-list-body"),
    pytest.param("delete", "hands/1", {"version": 1}, 409, None, "you had version 1", id="undo-stale"),
    pytest.param("delete", "hands/1?version=2", None, 409, None, "you had version 2", id="undo-stale-query"),
    pytest.param("delete", "hands/1?version=one", None, 400, None, "'version' must be", id="undo-query-word"),
    pytest.param("delete", "hands/1?version=" + "1" * 4400, None, 400, None, "'version' must be", id="undo-query-huge"),
    pytest.param(
        "put",
        "hands/2/tricks?version=" + "9" * 5000,
        {"tricks": [1] * 3},
        400,
        None,
        "'version' must be",
        id="tricks-query-huge",
    ),
]


@pytest.mark.parametrize(("method", "where", "sent", "status", "rule", "fragment"), HAND_CASES)
def test_a_bad_hand_write_is_refused_with_its_rule_and_stores_nothing(
    client: FlaskClient,
    game: dict[str, Any],
    method: str,
    where: str,
    sent: Any,
    status: int,
    rule: str | None,
    fragment: str,
) -> None:
    app_ = client.application
    app_.config["ALLOW_SEED"] = False
    path, headers = f"/api/games/{game['id']}/{where}", auth(game["scorer_token"])
    watch = auth(game["watch_token"])
    before = client.get(f"/api/games/{game['id']}", headers=watch).get_json()
    history = client.get(f"/api/games/{game['id']}/history", headers=watch).get_json()
    assert before["version"] == 3
    response = send(client, method, path, sent, headers)
    if status == 200:
        assert response.status_code == 200
    else:
        assert_error(response, status, rule, fragment)
    assert client.get(f"/api/games/{game['id']}", headers=watch).get_json() == before
    assert client.get(f"/api/games/{game['id']}/history", headers=watch).get_json() == history


REFUSED = [case for case in HAND_CASES if case.values[3] in (400, 422)]


@pytest.mark.parametrize(("method", "where", "sent", "status", "rule", "fragment"), REFUSED)
@pytest.mark.parametrize("who", ["watch", "wrong-token", "unknown-game"])
def test_what_is_wrong_with_a_write_is_told_to_the_scorer_alone(
    client: FlaskClient,
    game: dict[str, Any],
    method: str,
    where: str,
    sent: Any,
    status: int,
    rule: str | None,
    fragment: str,
    who: str,
) -> None:
    """A bad body or address with another token is 403 or 404 first, as API.md's "Access" says."""
    game_id = "0" * 16 if who == "unknown-game" else game["id"]
    headers = auth(game["watch_token"] if who == "watch" else altered(game["scorer_token"]))
    watch = auth(game["watch_token"])
    before = client.get(f"/api/games/{game['id']}", headers=watch).get_json()
    path = f"/api/games/{game_id}/{where}"
    response = send(client, method, path, sent, headers)
    if who == "watch":
        assert_error(response, 403, None, "only watch")
    else:
        reference = client.get(f"/api/games/{'f' * 16}", headers=watch).get_json()["error"]
        assert assert_error(response, 404) == reference
    assert client.get(f"/api/games/{game['id']}", headers=watch).get_json() == before


def test_undo_with_nothing_recorded_names_r25(client: FlaskClient) -> None:
    created = client.post("/api/games", json={"players": ["Ann", "Ben"]}).get_json()
    response = client.delete(f"/api/games/{created['id']}/hands/1", headers=auth(created["scorer_token"]))
    assert_error(response, 422, "R25", "Nothing has been recorded yet")


def test_a_trump_in_the_all_cards_hand_is_refused(client: FlaskClient) -> None:
    created = client.post(
        "/api/games", json={"players": [f"P{i}" for i in range(9)], "options": {"all_cards_hand": True}}
    ).get_json()
    scorer, base = auth(created["scorer_token"]), f"/api/games/{created['id']}/hands"
    assert created["schedule"] == [5, 4, 3, 2, 1, 2, 3, 4, 5, 6]
    for number, cards in enumerate(created["schedule"][:-1], start=1):
        assert (
            client.put(f"{base}/{number}/bids", json={"bids": [1] * 9, "trump": "H"}, headers=scorer).status_code == 200
        )
        tricks = [cards] + [0] * 8
        assert client.put(f"{base}/{number}/tricks", json={"tricks": tricks}, headers=scorer).status_code == 200
    assert_error(
        client.put(f"{base}/10/bids", json={"bids": [1] * 9, "trump": "S"}, headers=scorer), 422, "R12", "no trump"
    )
    assert client.put(f"{base}/10/bids", json={"bids": [1] * 9, "trump": None}, headers=scorer).status_code == 200


def test_server_errors_keep_the_json_shape(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeeper import games

    def broken(*_args: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(games, "create_game", broken)
    app.config.update(TESTING=False, PROPAGATE_EXCEPTIONS=False)
    response = client.post("/api/games", json={"players": ["Ann", "Ben"]})
    assert response.status_code == 500
    error = response.get_json()["error"]
    assert error["code"] == "server_error" and "boom" not in error["message"]
    assert error["message"].endswith(".")


@pytest.mark.parametrize(
    "address",
    [
        "/api/games/abc%00def",
        "/api/games/abc%00def/version",
        "/api/games/abc%00def/export.json",
        "/api/games/abc%00def/scorecard.pdf",
        "/g/abc%00/join/t",
        "/groups/x%00/join/y",
        "/t/x%00/join/y",
        "/api/tables/x%00/view",
        "/api/groups/x%00",
        "/t/game/x%00",
        "/new?again=ab%00c",
        "/new?group=ab%00c",
    ],
)
def test_an_address_holding_nul_is_unknown_on_every_database(client: FlaskClient, address: str) -> None:
    """No id or token holds NUL; PostgreSQL cannot compare one and answered 500 where SQLite said 404."""
    answer = client.get(address, headers={**auth("some-token"), "Accept": "application/json"})
    assert answer.status_code == 404, answer.get_data(as_text=True)[:300]
    if address.startswith("/api/"):
        assert answer.get_json()["error"]["code"] == "not_found"
