"""The worked example of RULES.md through the JSON API."""

from flask.testing import FlaskClient


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_worked_three_player_example_through_the_api(client: FlaskClient) -> None:
    created = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"]}).get_json()
    scorer = auth(created["scorer_token"])
    gid = created["id"]
    assert client.put(f"/api/games/{gid}/hands/1/bids", json={"bids": [4, 5, 3]}, headers=scorer).status_code == 200
    assert client.put(f"/api/games/{gid}/hands/1/tricks", json={"tricks": [5, 3, 5]}, headers=scorer).status_code == 200
    client.put(f"/api/games/{gid}/hands/2/bids", json={"bids": [2, 6, 4]}, headers=scorer)
    doc = client.put(f"/api/games/{gid}/hands/2/tricks", json={"tricks": [2, 7, 3]}, headers=scorer).get_json()
    assert doc["totals"] == [61, 11, -8]
    assert doc["hands"][1]["outcomes"] == ["P", "O", "S"]
    bad = client.put(f"/api/games/{gid}/hands/3/bids", json={"bids": [2, 2, 12]}, headers=scorer)
    assert bad.status_code == 422
    assert bad.get_json()["error"]["rule"] == "R22"
