"""A game's data in and out (issue 4): export.json, export.csv and POST /api/games/import.

Round trips run on every database backend; the tamper table imports changed copies of one
exported file and checks that each is refused with the rule broken and that nothing is stored.
"""

from __future__ import annotations

import copy
import csv
import doctest
import html
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import exchange
from scorekeeper import printing
from scorekeeper.extensions import db
from scorekeeper.models import Game

from ..conftest import make_app
from .export_kit import auth
from .export_kit import new_game
from .export_kit import play_out
from .export_kit import record
from .export_kit import worked_example

SAME = (
    "variant",
    "options",
    "first_dealer",
    "players",
    "schedule",
    "hands",
    "totals",
    "stats",
    "winners",
    "status",
    "created_at",
    "current_hand",
)


def export(client: FlaskClient, game_id: str, token: str, kind: str = "json") -> Any:
    answer = client.get(f"/api/games/{game_id}/export.{kind}", headers=auth(token))
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer


def games_stored(app: Flask) -> int:
    with app.app_context():
        return len(db.session.execute(db.select(Game)).scalars().all())


# -- export.json -----------------------------------------------------------------------------------
def test_export_json_is_the_whole_game_under_a_named_versioned_format(client: FlaskClient) -> None:
    game, doc = worked_example(client)
    answer = export(client, game["id"], game["watch_token"])
    assert answer.mimetype == "application/json"
    assert answer.headers["Content-Disposition"] == f'attachment; filename="bluke-{game["id"]}.json"'
    assert answer.headers["Cache-Control"] == "private, no-store"
    data = json.loads(answer.data)
    assert list(data)[:3] == ["format", "format_version", "exported_at"]
    assert (data["format"], data["format_version"]) == ("bluke-scorekeeper", 1)
    assert {key: data[key] for key in SAME} == {key: doc[key] for key in SAME}
    assert data["hands"][0] == {
        "number": 1,
        "cards": 13,
        "dealer": 0,
        "trump": None,
        "bids": [4, 5, 3],
        "tricks": [5, 3, 5],
        "points": [41, -50, 32],
        "totals": [41, -50, 32],
        "outcomes": ["O", "S", "O"],
        "no_trump": False,
    }
    assert data["corrections"] == [] and "scorer_token" not in data and "watch_token" not in data
    assert not any("hash" in key for key in data)


def test_either_token_or_the_page_cookie_may_export_and_nothing_else(client: FlaskClient) -> None:
    game, _ = worked_example(client)
    for kind in ("json", "csv"):
        url = f"/api/games/{game['id']}/export.{kind}"
        assert client.get(url, headers=auth(game["scorer_token"])).status_code == 200
        assert client.get(url, headers=auth(game["watch_token"])).status_code == 200
        for headers in ({}, auth("wrong")):
            answer = client.get(url, headers=headers)
            assert answer.status_code == 404 and answer.get_json()["error"]["code"] == "not_found"
    client.get(f"/g/{game['id']}/join/{game['watch_token']}")  # the page's HttpOnly cookie
    assert client.get(f"/api/games/{game['id']}/export.csv").status_code == 200


# -- export.csv ------------------------------------------------------------------------------------
def test_export_csv_has_one_row_per_hand_per_player(client: FlaskClient) -> None:
    game, _ = worked_example(client)
    record(client, game, 3, [3, 3, 3], [3, 3, 5], trump="H")
    answer = export(client, game["id"], game["scorer_token"], "csv")
    assert answer.mimetype == "text/csv"
    assert answer.headers["Content-Disposition"] == f'attachment; filename="bluke-{game["id"]}.csv"'
    rows = list(csv.reader(io.StringIO(answer.get_data(as_text=True))))
    assert rows[0] == ["hand", "cards", "dealer", "trump", "player", "bid", "taken", "points", "total", "outcome"]
    assert len(rows) == 1 + 25 * 3
    assert rows[1:7] == [
        ["1", "13", "Ann", "", "Ann", "4", "5", "41", "41", "O"],
        ["1", "13", "Ann", "", "Ben", "5", "3", "-50", "-50", "S"],
        ["1", "13", "Ann", "", "Cy", "3", "5", "32", "32", "O"],
        ["2", "12", "Ben", "", "Ann", "2", "2", "20", "61", "P"],
        ["2", "12", "Ben", "", "Ben", "6", "7", "61", "11", "O"],
        ["2", "12", "Ben", "", "Cy", "4", "3", "-40", "-8", "S"],
    ]
    assert rows[7] == ["3", "11", "Cy", "H", "Ann", "3", "3", "30", "91", "P"]
    assert rows[10] == ["4", "10", "Ann", "", "Ann", "", "", "", "", ""]  # scheduled, not yet played


def test_export_csv_keeps_spreadsheets_from_running_a_name_as_a_formula(client: FlaskClient) -> None:
    game = new_game(client, ['=HYPERLINK("http://x")', "+Bo", "Cy"])
    record(client, game, 1, [4, 5, 3], [5, 3, 5])
    rows = list(csv.reader(io.StringIO(export(client, game["id"], game["scorer_token"], "csv").get_data(as_text=True))))
    assert [row[4] for row in rows[1:4]] == ['\'=HYPERLINK("http://x")', "'+Bo", "Cy"]
    assert rows[1][2] == '\'=HYPERLINK("http://x")'  # the dealer column too
    assert rows[2][7] == "-50"  # numbers stay numbers


def test_the_pages_csv_link_asks_for_the_byte_order_mark_excel_needs(client: FlaskClient) -> None:
    """Excel reads a CSV without a UTF-8 byte-order mark in the computer's code page ("Ð°Ð½Ñ" for
    "Аня"); scripts read the API's file as it always was."""
    game = new_game(client, ["Аня", "Ben", "Cy"])
    page = client.get(f"/g/{game['id']}/join/{game['scorer_token']}", follow_redirects=True).get_data(as_text=True)
    link = re.search(r'href="([^"]*export\.csv[^"]*)"', page)
    assert link, "no CSV link on the game page"
    marked = client.get(html.unescape(link.group(1))).get_data()
    plain = export(client, game["id"], game["scorer_token"], "csv").get_data()
    assert marked == "\ufeff".encode() + plain and plain.startswith(b"hand,")


# -- import ----------------------------------------------------------------------------------------
def test_an_export_imports_as_a_new_game_with_new_tokens_and_identical_scores(app: Flask, client: FlaskClient) -> None:
    game, doc = worked_example(client, finish=True)
    record(client, game, 1, [4, 5, 3], [4, 4, 5])  # a correction: Ann took 4, not 5
    original = client.get(f"/api/games/{game['id']}", headers=auth(game["watch_token"])).get_json()
    data = json.loads(export(client, game["id"], game["watch_token"]).data)
    answer = client.post("/api/games/import", json=data)
    assert answer.status_code == 201, answer.get_json()
    made = answer.get_json()
    assert made["id"] != game["id"] and answer.headers["Location"].endswith(f"/api/games/{made['id']}")
    assert {made["scorer_token"], made["watch_token"]}.isdisjoint({game["scorer_token"], game["watch_token"]})
    assert made["scorer_url"].endswith(f"/g/{made['id']}/join/{made['scorer_token']}")
    assert {key: made[key] for key in SAME} == {key: original[key] for key in SAME}
    assert made["status"] == "finished" and made["winners"] == original["winners"]
    again = json.loads(export(client, made["id"], made["watch_token"]).data)
    assert [c["field"] for c in again["corrections"]] == [c["field"] for c in data["corrections"]] == ["tricks"]
    # the old tokens do not open the new game
    assert client.get(f"/api/games/{made['id']}", headers=auth(game["scorer_token"])).status_code == 404
    assert games_stored(app) == 2


def test_corrections_to_and_from_no_trump_and_their_undo_import(client: FlaskClient) -> None:
    """The history writes a trump noted as none "-" (README); a file holding one imports as it was."""
    game = new_game(client, ["Ann", "Ben", "Cy"])
    scorer, bids = auth(game["scorer_token"]), f"/api/games/{game['id']}/hands"
    record(client, game, 1, [4, 5, 3], [4, 4, 5], trump="S")
    for trump in (None, "H"):  # S → none → H (R12)
        assert client.put(f"{bids}/1/bids", json={"bids": [4, 5, 3], "trump": trump}, headers=scorer).status_code == 200
    assert client.put(f"{bids}/2/bids", json={"bids": [1, 2, 3], "trump": None}, headers=scorer).status_code == 200
    assert client.delete(f"{bids}/2", headers=scorer).status_code == 200  # the undone hand had no trump
    data = json.loads(export(client, game["id"], game["watch_token"]).data)
    assert [(c["field"], c["old"], c["new"]) for c in data["corrections"][:2]] == [
        ("trump", "S", "-"),
        ("trump", "-", "H"),
    ]
    assert data["corrections"][2]["old"]["trump"] == "-"
    answer = client.post("/api/games/import", json=data)
    assert answer.status_code == 201, answer.get_json()
    made = answer.get_json()
    again = json.loads(export(client, made["id"], made["watch_token"]).data)
    assert [{k: c[k] for k in ("hand", "field", "old", "new")} for c in again["corrections"]] == [
        {k: c[k] for k in ("hand", "field", "old", "new")} for c in data["corrections"]
    ]


def test_no_trump_sent_again_for_the_all_cards_hand_changes_nothing(client: FlaskClient) -> None:
    """The all-cards hand has no trump whether the scorer notes it or not (R10, R12): a repeat is no change."""
    game = new_game(client, ["Ann", "Ben"], options={"all_cards_hand": True})
    play_out(client, game, hands=25, seed=3)
    scorer, hand = auth(game["scorer_token"]), f"/api/games/{game['id']}/hands/26"
    first = client.put(f"{hand}/bids", json={"bids": [27, 27]}, headers=scorer).get_json()
    assert first["hands"][25]["no_trump"] is True
    assert client.put(f"{hand}/tricks", json={"tricks": [27, 0]}, headers=scorer).status_code == 200
    again = client.put(f"{hand}/bids", json={"bids": [27, 27], "trump": None}, headers=scorer)
    assert again.status_code == 200 and again.get_json()["version"] == first["version"] + 1  # the tricks', no new one
    history = client.get(f"/api/games/{game['id']}/history", headers=scorer).get_json()
    assert history["corrections"] == []
    refused = client.put(f"{hand}/bids", json={"bids": [27, 27], "trump": "S"}, headers=scorer)
    assert refused.status_code == 422 and refused.get_json()["error"]["rule"] == "R12"


def test_an_imported_game_in_progress_goes_on_with_the_new_scorer_token(client: FlaskClient) -> None:
    game = new_game(
        client, ["Ann", "Ben", "Cy", "Dee", "Eve"], variant="new-jersey", first_dealer=3, options={"zero_bids": True}
    )
    play_out(client, game, hands=6, seed=9)
    data = json.loads(export(client, game["id"], game["scorer_token"]).data)
    made = client.post("/api/games/import", json=data).get_json()
    assert made["current_hand"] == 7 and made["variant"] == "new-jersey" and made["options"]["zero_bids"]
    assert (
        client.put(
            f"/api/games/{made['id']}/hands/7/bids", json={"bids": [0, 1, 2, 0, 1]}, headers=auth(made["watch_token"])
        ).status_code
        == 403
    )
    doc = record(client, made, 7, [0, 1, 2, 0, 1], [0, 1, 2, 3, 1])
    assert doc["hands"][6]["totals"] is not None and doc["current_hand"] == 8


def test_a_minimal_hand_written_file_imports(client: FlaskClient) -> None:
    """Only the entries are needed; every derived figure is recomputed (README, "Export format")."""
    data = {
        "format": "bluke-scorekeeper",
        "format_version": 1,
        "variant": "standard",
        "first_dealer": 0,
        "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Ben"}, {"seat": 2, "name": "Cy"}],
        "hands": [
            {"number": 1, "bids": [4, 5, 3], "tricks": [5, 3, 5]},
            {"number": 2, "bids": [2, 6, 4], "tricks": [2, 7, 3], "trump": "S"},
        ],
    }
    answer = client.post("/api/games/import", json=data)
    assert answer.status_code == 201, answer.get_json()
    made = answer.get_json()
    assert made["totals"] == [61, 11, -8] and made["hands"][1]["trump"] == "S" and made["current_hand"] == 3


# -- tampered and malformed files ------------------------------------------------------------------
@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """RULES.md's worked example played to the end, as export.json."""
    client = make_app(f"sqlite:///{tmp_path_factory.mktemp('export') / 'e.sqlite'}").test_client()
    game, _ = worked_example(client, finish=True)
    return json.loads(export(client, game["id"], game["scorer_token"]).data)


def change(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """Set ``data[a][b]…`` (path ``a.b.…``, list indexes as numbers); ``...`` deletes the key."""

    def apply(data: dict[str, Any]) -> None:
        *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
        target: Any = data
        for key in parents:
            target = target[key]
        if value is ...:
            del target[last]
        else:
            target[last] = value

    return apply


def apply_all(*changes: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def apply(data: dict[str, Any]) -> None:
        for one in changes:
            one(data)

    return apply


def clear_hand(number: int) -> Callable[[dict[str, Any]], None]:
    """Blank a hand's entries and everything derived from them."""
    return apply_all(
        *(change(f"hands.{number - 1}.{key}", None) for key in ("bids", "tricks", "points", "totals", "outcomes"))
    )


def last_hand_open_with_points(points: list[int]) -> Callable[[dict[str, Any]], None]:
    """Hand 25 blanked, as in a game not finished (no totals, S/O/P, winners or status given), but
    with ``points`` written for it."""
    return apply_all(
        clear_hand(25),
        change("hands.24.points", points),
        change("totals", ...),
        change("stats", ...),
        change("winners", ...),
        change("status", ...),
    )


TAMPERED: list[tuple[str, Callable[[dict[str, Any]], None], int, str | None, str]] = [
    ("unknown format", change("format", "bluke-online"), 400, None, "not a Bluke Scorekeeper export"),
    ("no format", change("format", ...), 400, None, "not a Bluke Scorekeeper export"),
    ("newer version", change("format_version", 2), 400, None, "export format version 2; this app reads version 1"),
    ("version as text", change("format_version", "1"), 400, None, "'format_version' should be a whole number"),
    ("no players", change("players", ...), 400, None, "The file has no 'players'"),
    ("players as names", change("players", ["Ann", "Ben", "Cy"]), 400, None, "players[0]"),
    ("seats out of order", change("players.0.seat", 1), 400, None, "seat order"),
    ("name not text", change("players.1.name", 7), 400, None, "'players[1].name' should be the player's name"),
    ("same name twice", change("players.1.name", "ann"), 400, None, "Two players are called"),
    ("one player", change("players", [{"seat": 0, "name": "Ann"}]), 422, "R4", "2 to 15 players, not 1 (R4)"),
    # Long lists are refused before all their entries are read (a 2 MB list once took seconds).
    ("100000 players", change("players", [{"seat": 0}] * 100_000), 422, "R4", "2 to 15 players, not 100000 (R4)"),
    (
        "100000 hands",
        change("hands", [{"number": n} for n in range(1, 100_001)]),
        422,
        "R24",
        "hands 1 to 25; there is no hand 26 (R7, R8, R24)",
    ),
    (
        "a hand listed twice",  # once blamed on a hand 26 that the file does not have
        lambda d: d["hands"].insert(1, copy.deepcopy(d["hands"][0])),
        422,
        "R25",
        "The file lists hand 1 where hand 2 belongs",
    ),
    ("unknown variant", change("variant", "bridge"), 422, "R18", "The variant must be"),
    ("option not boolean", change("options", {"extended": "yes"}), 400, None, "must be true or false"),
    ("unknown option", change("options", {"jokers": True}), 400, None, "Unknown option"),
    ("first dealer out of range", change("first_dealer", 3), 422, "R6", "not 3 (R6)"),
    ("first dealer not a number", change("first_dealer", True), 400, None, "'first_dealer' should be"),
    ("hands not a list", change("hands", {"1": {}}), 400, None, "'hands' should be the list of hands"),
    ("hand not an object", change("hands.0", "4/5"), 400, None, "hands[0] should be an object"),
    ("bids not a list", change("hands.0.bids", "4 5 3"), 400, None, "'hands[0].bids' should be a list"),
    ("bid as text", change("hands.0.bids", ["4", 5, 3]), 400, None, "'hands[0].bids' should be a list with one whole"),
    ("bid above the cards", apply_all(change("hands.24.bids", [14, 5, 3])), 422, "R22", "bid 14, but only 13"),
    (
        "tricks do not add up",
        change("hands.0.tricks", [5, 3, 4]),
        422,
        "R23",
        "Tricks add up to 12, but 13 cards were dealt in hand 1 (R23).",
    ),
    ("negative tricks", change("hands.0.tricks", [14, -1, 0]), 422, "R23", "took 14 tricks"),
    ("wrong cards dealt", change("hands.0.cards", 12), 422, "R24", "Hand 1 must deal 13 cards, not 12 (R24)."),
    ("wrong dealer", change("hands.1.dealer", 0), 422, "R24", "Hand 2 is dealt by Ben, not Ann"),
    ("dealer not a seat", change("hands.1.dealer", -1), 422, "R24", "Hand 2 is dealt by Ben, not Seat -1"),
    ("wrong schedule", change("schedule.2", 12), 422, "R24", "hand 3 deals 11 cards, not 12"),
    ("wrong schedule at one card", change("schedule.12", 2), 422, "R24", "hand 13 deals 1 card, not 2"),
    ("hand numbers out of order", change("hands.1.number", 3), 422, "R25", "hand 3 where hand 2 belongs"),
    ("a gap in the hands", clear_hand(2), 422, "R25", "Hand 3 has entries, but hand 2 is not complete (R25)."),
    ("tricks without bids", change("hands.0.bids", None), 422, "R25", "Hand 1 has tricks but no bids"),
    (
        "an extra hand",
        lambda d: d["hands"].append({**d["hands"][0], "number": 26}),
        422,
        "R24",
        "This game has hands 1 to 25; there is no hand 26 (R7, R8, R24).",
    ),
    (
        "points made",
        change("hands.0.points.0", 42),
        422,
        "R19",
        "Hand 1: Ann bid 4 and took 5, which scores 41 (R19), but the file says 42.",
    ),
    (
        "points set",
        change("hands.0.points.1", -40),
        422,
        "R20",
        "Hand 1: Ben bid 5 and took 3, which scores -50 (R20), but the file says -40.",
    ),
    ("points as text", change("hands.0.points.0", "41"), 400, None, "'hands[0].points' should be whole numbers"),
    ("points cut short", change("hands.0.points", [41, -50]), 422, "R19", "should be [41, -50, 32] (R19)."),
    ("outcomes cut short", change("hands.0.outcomes", ["O"]), 422, "R26", "(R26). The file was changed"),
    ("running total", change("hands.1.totals.2", -7), 422, "R19", "Hand 2: Cy's running total is -8"),
    ("outcome", change("hands.1.outcomes.0", "O"), 422, "R26", 'which is P (R26), but the file says "O"'),
    ("game totals", change("totals.0", 999), 422, "R19", "Ann's total is"),
    (
        "S/O/P count",
        lambda d: d["stats"][0].update(perfect=d["stats"][0]["perfect"] + 1),
        422,
        "R26",
        "Ann's 'perfect' count is",
    ),
    (
        "winners",
        lambda d: d.update(winners=[s for s in range(3) if s not in d["winners"]][:1]),
        422,
        "R21",
        "The winner is",
    ),
    ("status", change("status", "in_progress"), 422, "R21", 'This game is "finished"'),
    ("status not a status", change("status", "bogus"), 400, None, "status should be 'in_progress' or 'finished'"),
    (
        "points of an open hand",
        last_hand_open_with_points([1, 2, 3]),
        422,
        "R25",
        "Hand 25 is not complete",
    ),
    (
        "empty points of an open hand",  # two empty lists of figures once ended in a 500
        last_hand_open_with_points([]),
        422,
        "R25",
        "Hand 25 is not complete, so it has no points, but the file gives []",
    ),
    ("unknown trump", change("hands.1.trump", "X"), 422, "R12", "The file's hand 2: 'X' is not a suit"),
    ("bad date", change("created_at", "last Tuesday"), 400, None, "is not a date and time"),
    ("bad correction", change("corrections", [{"field": "score"}]), 400, None, "corrections[0]"),
    (
        "correction of no hand",
        change(
            "corrections", [{"at": "2025-11-29T18:45:00Z", "hand": 10**30, "field": "bids", "old": None, "new": None}]
        ),
        400,
        None,
        "'corrections[0].hand' should be a hand number from 1 to 25",
    ),
]


@pytest.mark.parametrize(
    ("tamper", "status", "rule", "words"), [case[1:] for case in TAMPERED], ids=[case[0] for case in TAMPERED]
)
def test_a_changed_or_malformed_file_is_refused_and_nothing_is_stored(
    app: Flask,
    client: FlaskClient,
    exported: dict[str, Any],
    tamper: Callable[[dict[str, Any]], None],
    status: int,
    rule: str | None,
    words: str,
) -> None:
    data = copy.deepcopy(exported)
    tamper(data)
    answer = client.post("/api/games/import", json=data)
    assert answer.status_code == status, answer.get_json()
    error = answer.get_json()["error"]
    assert error["code"] == ("bad_request" if status == 400 else "rule_violation")
    assert error["rule"] == rule
    assert words in error["message"], error["message"]
    assert games_stored(app) == 0


def test_the_untouched_file_imports(app: Flask, client: FlaskClient, exported: dict[str, Any]) -> None:
    """The tamper table's control: the same file, unchanged, is accepted."""
    answer = client.post("/api/games/import", json=exported)
    assert answer.status_code == 201 and answer.get_json()["totals"] == exported["totals"]
    assert games_stored(app) == 1


@pytest.mark.parametrize(
    ("body", "words"),
    [(b"[1, 2]", "must be a JSON object"), (b"{not json", "not valid JSON"), (b"", "needs a JSON object")],
)
def test_an_import_that_is_not_a_json_object_is_a_400(app: Flask, client: FlaskClient, body: bytes, words: str) -> None:
    answer = client.post("/api/games/import", data=body, content_type="application/json")
    assert answer.status_code == 400 and words in answer.get_json()["error"]["message"]
    assert games_stored(app) == 0


def test_a_trump_in_the_all_cards_hand_is_refused(app: Flask, client: FlaskClient) -> None:
    game = new_game(client, ["Ann", "Ben", "Cy"], options={"all_cards_hand": True})
    play_out(client, game)  # no card is left to turn up in the 18-card hand (R10, R12)
    data = json.loads(export(client, game["id"], game["scorer_token"]).data)
    assert data["hands"][25]["cards"] == 18 and data["hands"][25]["trump"] is None
    data["hands"][25]["trump"] = "S"
    answer = client.post("/api/games/import", json=data)
    assert answer.status_code == 422 and answer.get_json()["error"]["rule"] == "R12"
    assert games_stored(app) == 1


def test_the_readme_documents_every_field_of_the_file(exported: dict[str, Any]) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme[readme.index("## Export format") :]
    documented = {word for quoted in re.findall(r"`([^`]+)`", section) for word in re.findall(r"\w+", quoted)}
    fields = set(exported) | {key for hand in exported["hands"] for key in hand} | set(exported["stats"][0])
    assert fields <= documented, sorted(fields - documented)


@pytest.mark.parametrize("module", [exchange, printing], ids=lambda m: m.__name__)
def test_the_examples_in_the_docstrings_hold(module: Any) -> None:
    failed, attempted = doctest.testmod(module)
    assert attempted and not failed
