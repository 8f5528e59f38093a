"""Groups spend the same rate-limit budgets as games (limits.py): creating, importing, printing."""

from __future__ import annotations

from flask import Flask

from .groups_kit import auth
from .groups_kit import export_file
from .groups_kit import legal_hands
from .test_limits import assert_limited  # noqa: F401  (fixtures)
from .test_limits import limited  # noqa: F401  (fixtures)
from .test_limits import store  # noqa: F401  (fixtures)


def test_a_group_and_its_games_and_tables_share_the_budget_of_new_games(limited: Flask) -> None:  # noqa: F811
    client = limited.test_client()
    group = client.post("/api/groups", json={"name": "Fri"}).get_json()
    assert (
        client.post(
            f"/api/groups/{group['id']}/games", json={"players": ["Ann", "Ben"]}, headers=auth(group["token"])
        ).status_code
        == 201
    )
    answer = client.post(
        f"/api/groups/{group['id']}/tables",
        headers=auth(group["token"]),
        json={"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}]},
    )
    assert_limited(answer, "Too many new games, tables and groups from your address")
    assert_limited(
        client.post("/api/groups", json={"name": "Sat"}), "Too many new games, tables and groups from your address"
    )


def test_imports_and_season_summaries_into_a_group_are_limited(limited: Flask) -> None:  # noqa: F811
    client = limited.test_client()
    group = client.post("/api/groups", json={"name": "Fri"}).get_json()
    file = export_file(["Ann", "Ben"], legal_hands(2, 1))
    for _ in range(2):
        assert (
            client.post(f"/api/groups/{group['id']}/import", json=file, headers=auth(group["token"])).status_code == 201
        )
    assert_limited(
        client.post(f"/api/groups/{group['id']}/import", json=file, headers=auth(group["token"])), "Too many imports"
    )
    for _ in range(2):
        assert client.get(f"/api/groups/{group['id']}/summary.pdf", headers=auth(group["token"])).status_code == 200
    assert_limited(
        client.get(f"/api/groups/{group['id']}/summary.pdf", headers=auth(group["token"])), "Too many printouts"
    )
