"""Watchers poll every second: the answer "no change" reads one small row, never the hands."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from .pages_kit import statements


def test_a_poll_without_change_reads_no_hands(app: Flask, client: FlaskClient) -> None:
    game = client.post("/api/games", json={"players": ["Ann", "Ben"]}).get_json()
    scorer = {"Authorization": f"Bearer {game['scorer_token']}"}
    client.put(f"/api/games/{game['id']}/hands/1/bids", json={"bids": [4, 5]}, headers=scorer)
    client.get(f"/g/{game['id']}/join/{game['watch_token']}")
    with statements(app) as sent:
        answer = client.get(f"/g/{game['id']}?since=2", headers={"HX-Request": "true"})
        version = client.get(
            f"/api/games/{game['id']}/version", headers={"Authorization": f"Bearer {game['watch_token']}"}
        )
    assert answer.status_code == 204 and version.get_json() == {"version": 2}
    assert sent and not any("hands" in s for s in sent)
    changed = client.get(f"/g/{game['id']}?since=1", headers={"HX-Request": "true"})
    assert changed.status_code == 200 and 'data-version="2"' in changed.get_data(as_text=True)


def test_a_poll_with_a_wrong_token_is_a_404(client: FlaskClient) -> None:
    game = client.post("/api/games", json={"players": ["Ann", "Ben"]}).get_json()
    wrong = client.get(f"/api/games/{game['id']}/version", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 404 and wrong.get_json()["error"]["code"] == "not_found"
    page = client.get(f"/g/{game['id']}?since=1", headers={"HX-Request": "true"})
    assert page.status_code == 404


def test_a_virtual_tables_host_polls_its_games_version(client: FlaskClient) -> None:
    table = client.post("/api/tables", json={"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}]}).get_json()
    answer = client.get(
        f"/api/games/{table['game_id']}/version", headers={"Authorization": f"Bearer {table['host_token']}"}
    )
    assert answer.status_code == 200 and isinstance(answer.get_json()["version"], int)
