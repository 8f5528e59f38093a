"""Creating and opening games: the document, the two tokens, links and seeding (API.md, "Access")."""

from __future__ import annotations

import base64
import hashlib
import unicodedata
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

from scorekeeper.extensions import db
from scorekeeper.games import FILLERS
from scorekeeper.games import INVISIBLE_ENDS
from scorekeeper.games import trimmed


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: FlaskClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"], **body})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_creating_a_game_answers_201_with_the_document_tokens_and_links(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"]})
    assert response.status_code == 201
    doc = response.get_json()
    assert response.headers["Location"] == f"/api/games/{doc['id']}"
    assert doc["variant"] == "standard" and doc["version"] == 1 and doc["status"] == "in_progress"
    assert doc["options"] == {"extended": False, "all_cards_hand": False, "zero_bids": False}
    assert doc["players"] == [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Ben"}, {"seat": 2, "name": "Cy"}]
    assert doc["schedule"] == list(range(13, 0, -1)) + list(range(2, 14))
    assert len(doc["hands"]) == 25
    assert doc["hands"][0] == {
        "number": 1,
        "cards": 13,
        "dealer": 0,
        "trump": None,
        "bids": None,
        "tricks": None,
        "points": None,
        "totals": None,
        "outcomes": None,
        "no_trump": False,
    }
    assert [h["dealer"] for h in doc["hands"][:4]] == [0, 1, 2, 0]  # the deal passes left (R5)
    assert doc["totals"] == [0, 0, 0] and doc["winners"] == []
    assert doc["stats"][0] == {"seat": 0, "set": 0, "over": 0, "perfect": 0, "overtricks": 0, "bid": 0, "taken": 0}
    assert doc["scorer_token"] != doc["watch_token"]
    assert doc["scorer_url"].endswith(f"/g/{doc['id']}/join/{doc['scorer_token']}")
    assert doc["watch_url"].endswith(f"/g/{doc['id']}/join/{doc['watch_token']}")


@pytest.mark.parametrize(
    ("body", "schedule_start", "hands"),
    [
        ({"variant": "new-jersey"}, [1, 2, 3], 25),
        ({"options": {"extended": True}}, [17, 16, 15], 33),
        ({"options": {"all_cards_hand": True}}, [13, 12, 11], 26),
        ({"players": [f"P{i}" for i in range(5)]}, [10, 9, 8], 19),
        ({"players": [f"P{i}" for i in range(15)]}, [3, 2, 1], 5),
    ],
)
def test_variant_options_and_players_set_the_schedule(
    client: FlaskClient, body: dict[str, Any], schedule_start: list[int], hands: int
) -> None:
    doc = create(client, **body)
    assert doc["schedule"][:3] == schedule_start and len(doc["schedule"]) == len(doc["hands"]) == hands


def test_names_are_trimmed_and_the_first_dealer_kept(client: FlaskClient) -> None:
    doc = create(client, players=["  Ann ", "Ben\t Bo", "Cy"], first_dealer=2)
    assert [p["name"] for p in doc["players"]] == ["Ann", "Ben Bo", "Cy"]
    assert doc["first_dealer"] == 2 and doc["hands"][0]["dealer"] == 2 and doc["hands"][1]["dealer"] == 0


def test_names_keep_emoji_and_joined_spellings_in_one_unicode_form(client: FlaskClient) -> None:
    """A family emoji and a Persian name hold zero-width joiners (refused as unprintable before);
    an accent typed as a combining mark is stored composed, as the same name typed at once."""
    family, mehrnaz = "👨\u200d👩\u200d👧", "مهر\u200cناز"
    doc = create(client, players=[family, mehrnaz, "Jose\u0301"])
    assert [p["name"] for p in doc["players"]] == [family, mehrnaz, "José"]


def test_names_keep_the_marks_of_every_script_but_not_a_tower_of_them(client: FlaskClient) -> None:
    """Marks over and under letters are part of many names; a name of one letter under 37 accents
    was taken, and on the printed scorecard they rose over the header (at most 4 on one letter)."""
    names = ["Nguye\u0302\u0303n", "སྒྲུབ", "שָׁלוֹם", "क्षितिज", "Ann" + "\u0301" * 4]
    doc = create(client, players=names)
    assert [p["name"] for p in doc["players"]] == [unicodedata.normalize("NFC", name) for name in names]
    refused = client.post("/api/games", json={"players": ["Ann", "Max" + "\u0301" * 5]})
    assert refused.status_code == 400
    assert refused.get_json()["error"]["message"] == "Player 2's name stacks more than 4 marks on one letter."


def test_either_token_reads_the_same_document_and_version(client: FlaskClient) -> None:
    created = create(client)
    by_scorer = client.get(f"/api/games/{created['id']}", headers=auth(created["scorer_token"]))
    by_watcher = client.get(f"/api/games/{created['id']}", headers=auth(created["watch_token"]))
    assert by_scorer.status_code == by_watcher.status_code == 200
    assert by_scorer.get_json() == by_watcher.get_json()
    assert "scorer_token" not in by_scorer.get_json() and "watch_token" not in by_watcher.get_json()
    version = client.get(f"/api/games/{created['id']}/version", headers=auth(created["watch_token"]))
    assert version.get_json() == {"version": 1}
    history = client.get(f"/api/games/{created['id']}/history", headers=auth(created["watch_token"]))
    assert history.get_json() == {"id": created["id"], "version": 1, "corrections": []}


def test_the_bearer_scheme_is_case_insensitive(client: FlaskClient) -> None:
    created = create(client)
    headers = {"Authorization": f"bearer  {created['watch_token']} "}
    assert client.get(f"/api/games/{created['id']}", headers=headers).status_code == 200


def test_answers_are_never_cached(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"players": ["Ann", "Ben"]})
    assert response.headers["Cache-Control"] == "no-store"
    assert client.get("/api/nothing").headers["Cache-Control"] == "no-store"


def test_tokens_carry_at_least_128_random_bits_and_differ(client: FlaskClient) -> None:
    tokens = set()
    for _ in range(5):
        created = create(client)
        for token in (created["scorer_token"], created["watch_token"]):
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
            assert len(raw) * 8 >= 128
            tokens.add(token)
    assert len(tokens) == 10


def test_tokens_are_stored_only_as_hashes(app: Flask, client: FlaskClient) -> None:
    created = create(client)
    with app.app_context():
        row = db.session.execute(text("SELECT * FROM games WHERE id = :id"), {"id": created["id"]}).mappings().one()
    stored = " ".join(str(value) for value in row.values())
    for token in (created["scorer_token"], created["watch_token"]):
        assert token not in stored
    assert row["scorer_hash"] == hashlib.sha256(created["scorer_token"].encode()).hexdigest()
    assert row["watch_hash"] == hashlib.sha256(created["watch_token"].encode()).hexdigest()


def test_a_seed_is_refused_unless_the_app_allows_seeding(app: Flask, client: FlaskClient) -> None:
    app.config["ALLOW_SEED"] = False
    response = client.post("/api/games", json={"players": ["Ann", "Ben"], "seed": 42})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "bad_request" and "SCOREKEEPER_ALLOW_SEED=1" in error["message"]
    with app.app_context():
        assert db.session.scalar(text("SELECT count(*) FROM games")) == 0
    app.config["ALLOW_SEED"] = True
    assert client.post("/api/games", json={"players": ["Ann", "Ben"], "seed": 42}).status_code == 201
    for bad in ("42", 4.2, True, -1, 2**31):
        response = client.post("/api/games", json={"players": ["Ann", "Ben"], "seed": bad})
        assert (
            response.status_code == 400 and "'seed' must be a whole number" in response.get_json()["error"]["message"]
        )


@pytest.mark.parametrize("role", ["scorer", "watch"])
def test_the_join_link_swaps_the_token_for_an_httponly_cookie(app: Flask, client: FlaskClient, role: str) -> None:
    created = create(client)
    token = created[f"{role}_token"]
    assert created[f"{role}_url"].endswith(f"/g/{created['id']}/join/{token}")
    response = app.test_client().get(f"/g/{created['id']}/join/{token}")  # a fresh phone
    assert response.status_code == 302
    assert response.headers["Location"] == f"/g/{created['id']}"  # a clean URL, no token
    cookie = next(c for c in response.headers.getlist("Set-Cookie") if c.startswith(f"sk_{created['id']}="))
    assert cookie.startswith(f"sk_{created['id']}={token};")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_a_join_link_with_a_wrong_token_is_a_404_and_sets_no_cookie(client: FlaskClient) -> None:
    created = create(client)
    response = client.get(f"/g/{created['id']}/join/{created['scorer_token']}x")
    assert response.status_code == 404 and "Set-Cookie" not in response.headers
    response = client.get(f"/g/{'0' * 16}/join/{created['scorer_token']}")
    assert response.status_code == 404 and "Set-Cookie" not in response.headers


def by_layers(name: str) -> str:
    """A name trimmed as the definition reads: spaces, then invisible ends, then spaces again, until
    neither is left (a pass per layer)."""
    name = name.translate(FILLERS)
    while (shorter := " ".join(name.split()).strip(INVISIBLE_ENDS)) != name:
        name = shorter
    return name


@given(st.text(alphabet=" \t\u3000\u200c\u200d\u034f\u3164Ab\u0301", max_size=16))
def test_a_name_is_trimmed_in_one_pass_as_by_layers(raw: str) -> None:
    assert trimmed(raw) == unicodedata.normalize("NFC", by_layers(raw)) == trimmed(trimmed(raw))


@pytest.mark.timeout(30)
def test_a_name_padded_with_layer_upon_layer_of_spaces_and_joiners_is_trimmed_at_once(client: FlaskClient) -> None:
    """Taken off a layer a pass, "Ann" and 200,000 " \u200d" pairs (800 KB, under the body limit)
    held a thread for hours, and a refused game is not counted by the rate limit."""
    doc = create(client, players=["Ann" + " \u200d" * 200_000, "Ben", "Cy"])
    assert doc["players"][0]["name"] == "Ann"
