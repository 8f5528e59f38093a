"""Rate limits per client address, counted in a real Redis (limits.py; API.md, "Errors": 429).

The ``redis_url`` database (12 of the local server) is this module's own: it is emptied before every test.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask

from scorekeeper.extensions import db

from ..conftest import make_app
from .pages_kit import csrf
from .virtual_support import finish
from .virtual_support import patient_bots  # noqa: F401 (a fixture)
from .virtual_support import seats

PLAYERS = {"players": ["Ann", "Ben", "Cy"]}
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def store(redis_url: str) -> Iterator[redis.Redis]:
    connection = redis.Redis.from_url(redis_url)
    connection.flushdb()
    yield connection
    connection.flushdb()
    connection.close()


@pytest.fixture
def limited(tmp_path: Path, store: redis.Redis, redis_url: str) -> Iterator[Flask]:
    """An app with small budgets (2 of each a minute) counted in Redis (the database does not matter)."""
    app = make_app(
        f"sqlite:///{tmp_path / 'limits.sqlite'}",
        RATELIMIT_ENABLED=True,
        RATELIMIT_STORAGE_URI=redis_url,
        RATELIMIT_CREATE="2 per minute",
        RATELIMIT_IMPORT="2 per minute",
        RATELIMIT_RENDER="2 per minute",
        RATELIMIT_ROSTER="2 per minute",
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def games_stored(app: Flask) -> int:
    with app.app_context():
        return int(db.session.execute(db.text("SELECT count(*) FROM games")).scalar_one())


def assert_limited(answer: Any, fragment: str) -> dict[str, Any]:
    """429 in the one error shape, with a Retry-After in whole seconds that the message repeats."""
    assert answer.status_code == 429, answer.get_data(as_text=True)[:300]
    seconds = answer.headers["Retry-After"]
    assert seconds.isdigit() and 1 <= int(seconds) <= 60  # within the minute of the budgets here
    error: dict[str, Any] = answer.get_json()["error"]
    assert set(error) == {"code", "rule", "message"}
    assert error["code"] == "rate_limited" and error["rule"] is None
    assert fragment in error["message"] and f"Try again in {seconds} s" in error["message"]
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    return error


def test_creating_games_past_the_budget_is_a_429_and_stores_nothing(limited: Flask) -> None:
    client = limited.test_client()
    for _ in range(2):
        assert client.post("/api/games", json=PLAYERS).status_code == 201
    assert_limited(client.post("/api/games", json=PLAYERS), "Too many new games, tables and groups from your address")
    assert games_stored(limited) == 2


def test_every_way_of_creating_shares_one_budget(limited: Flask) -> None:
    client = limited.test_client()
    table = {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}]}
    assert client.post("/api/tables", json=table).status_code == 201
    assert client.post("/api/games", json=PLAYERS).status_code == 201
    assert_limited(client.post("/api/tables", json=table), "new games")
    form = {
        "csrf_token": csrf(client),
        "variant": "standard",
        "first_dealer": "0",
        "action": "start",
        "names-0": "Ann",
        "names-1": "Ben",
    }
    page = client.post("/new", data=form)
    assert page.status_code == 429 and page.mimetype == "text/html"
    assert "Too many new games, tables and groups from your address" in page.get_data(as_text=True)
    assert page.headers["Retry-After"].isdigit()
    assert games_stored(limited) == 2
    # What was typed is not lost: the page holds it in a form to send again once the minute is over.
    again = re.search(r'<form method="post" action="([^"]+)">(.*?)</form>', page.get_data(as_text=True), re.S)
    assert again and again.group(1) == "/new"
    sent = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', again.group(2)))
    assert sent == form and "Send again" in again.group(2)


def test_a_refused_set_up_costs_nothing(limited: Flask) -> None:
    client = limited.test_client()
    for _ in range(5):
        assert client.post("/api/games", json={"players": ["Solo"]}).status_code == 422
    assert client.post("/api/games", json=PLAYERS).status_code == 201


@pytest.mark.usefixtures("patient_bots")
def test_a_rematch_asked_for_again_costs_no_creation(tmp_path: Path, store: redis.Redis, redis_url: str) -> None:
    """The host's second phone asks for the rematch the first set up and gets the same one: nothing
    was made, so the budget is not charged for it."""
    app = make_app(
        f"sqlite:///{tmp_path / 'r.sqlite'}",
        RATELIMIT_ENABLED=True,
        RATELIMIT_STORAGE_URI=redis_url,
        RATELIMIT_CREATE="3 per minute",
    )
    client = app.test_client()
    created = client.post("/api/tables", json={"seats": seats("Ann", *["bot"] * 14), "seed": 4}).get_json()
    table = created["id"]
    finish(client, table, {0: created["seats"][0]["token"]})
    client.set_cookie(f"vth_{table}", created["host_token"])
    for _ in range(3):  # the first sets it up; then the same rematch, again and again
        made = client.post(f"/t/{table}/rematch", data={"csrf_token": csrf(client, f"/t/{table}/host")})
        assert made.status_code == 303 and "/t/" in made.headers["Location"]
    assert client.post("/api/games", json=PLAYERS).status_code == 201  # the third of three
    assert_limited(client.post("/api/games", json=PLAYERS), "new games")
    assert games_stored(app) == 3


def test_limits_count_per_client_address(limited: Flask) -> None:
    client = limited.test_client()
    for _ in range(2):
        client.post("/api/games", json=PLAYERS)
    assert client.post("/api/games", json=PLAYERS).status_code == 429
    other = limited.test_client()
    answer = other.post("/api/games", json=PLAYERS, environ_base={"REMOTE_ADDR": "198.51.100.4"})
    assert answer.status_code == 201


def test_behind_a_proxy_the_forwarded_client_address_is_counted(
    tmp_path: Path, store: redis.Redis, redis_url: str
) -> None:
    app = make_app(
        f"sqlite:///{tmp_path / 'p.sqlite'}",
        PROXIES=1,
        RATELIMIT_ENABLED=True,
        RATELIMIT_STORAGE_URI=redis_url,
        RATELIMIT_CREATE="1 per minute",
    )
    client = app.test_client()  # every request comes from the proxy, 127.0.0.1
    assert client.post("/api/games", json=PLAYERS, headers={"X-Forwarded-For": "203.0.113.1"}).status_code == 201
    assert client.post("/api/games", json=PLAYERS, headers={"X-Forwarded-For": "203.0.113.1"}).status_code == 429
    assert client.post("/api/games", json=PLAYERS, headers={"X-Forwarded-For": "203.0.113.2"}).status_code == 201


def test_imports_have_their_own_budget(limited: Flask) -> None:
    client = limited.test_client()
    game = client.post("/api/games", json=PLAYERS).get_json()
    exported = client.get(
        f"/api/games/{game['id']}/export.json", headers={"Authorization": f"Bearer {game['watch_token']}"}
    ).get_json()
    for _ in range(2):
        assert client.post("/api/games/import", json=exported).status_code == 201
    assert_limited(client.post("/api/games/import", json=exported), "Too many imports from your address")
    assert games_stored(limited) == 3


def test_pdf_rendering_has_a_budget_with_or_without_a_token(limited: Flask) -> None:
    client = limited.test_client()
    game = client.post("/api/games", json=PLAYERS).get_json()
    assert client.get("/scorecards/blank.pdf?players=3").status_code == 200
    headers = {"Authorization": f"Bearer {game['watch_token']}"}
    assert client.get(f"/api/games/{game['id']}/scorecard.pdf", headers=headers).status_code == 200
    page = client.get("/scorecards/blank.pdf?players=4")  # not under /api: a page for a person
    assert page.status_code == 429 and page.mimetype == "text/html" and page.headers["Retry-After"].isdigit()
    assert "Too many printouts from your address" in page.get_data(as_text=True)
    assert_limited(client.get(f"/api/games/{game['id']}/scorecard.pdf", headers=headers), "printouts")


def test_a_whole_groups_export_has_a_budget_of_its_own(limited: Flask) -> None:
    client = limited.test_client()
    group = client.post("/api/groups", json={"name": "Fridays"}).get_json()
    headers = {"Authorization": f"Bearer {group['token']}"}
    for _ in range(2):
        assert client.get(f"/api/groups/{group['id']}/export.json", headers=headers).status_code == 200
    assert_limited(
        client.get(f"/api/groups/{group['id']}/export.json", headers=headers), "Too many whole-group exports"
    )
    assert client.get("/scorecards/blank.pdf?players=3").status_code == 200  # printouts count apart
    assert client.get(f"/api/groups/{group['id']}/stats", headers=headers).status_code == 200


def test_changes_to_a_groups_players_and_games_have_a_budget(limited: Flask) -> None:
    """Each change adds the whole group up again (most of a second at the caps): a member renaming
    in a loop held the server. Refused changes cost nothing; reads are not counted."""
    client = limited.test_client()
    group = client.post("/api/groups", json={"name": "Fridays", "players": ["Ann", "Ben", "Cy"]}).get_json()
    headers = {"Authorization": f"Bearer {group['token']}"}
    url = f"/api/groups/{group['id']}/players"
    ids = {p["name"]: p["id"] for p in group["players"]}
    assert client.patch(f"{url}/{ids['Ann']}", json={"name": "ben"}, headers=headers).status_code == 400  # free
    assert client.patch(f"{url}/{ids['Ann']}", json={"name": "Anne"}, headers=headers).status_code == 200
    assert client.delete(f"{url}/{ids['Cy']}", headers=headers).status_code == 200
    error = assert_limited(
        client.patch(f"{url}/{ids['Ben']}", json={"name": "Benjamin"}, headers=headers),
        "Too many changes to a group's players and games",
    )
    assert "nothing was changed" in error["message"]
    doc = client.get(f"/api/groups/{group['id']}", headers=headers).get_json()
    assert sorted(p["name"] for p in doc["players"]) == ["Anne", "Ben"]
    assert client.get(f"/api/groups/{group['id']}/stats", headers=headers).status_code == 200
    client.set_cookie(f"skg_{group['id']}", group["token"])  # the player's page shares the budget
    page = client.get(f"/groups/{group['id']}/players/{ids['Ben']}")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True))
    assert token is not None
    answer = client.post(
        f"/groups/{group['id']}/players/{ids['Ben']}", data={"csrf_token": token.group(1), "name": "Benjamin"}
    )
    assert answer.status_code == 429 and "Too many changes" in answer.get_data(as_text=True)


def test_a_larger_group_file_counts_for_more_of_the_budget(limited: Flask, store: redis.Redis) -> None:
    """A season summary of 300 players takes seconds to draw: each 50 players count as one more
    printout (at most the budget of a minute, here 2, so that it still passes once a minute)."""
    client = limited.test_client()
    small = client.post("/api/groups", json={"name": "Few", "players": ["Ann", "Ben"]}).get_json()
    large = client.post("/api/groups", json={"name": "Club", "players": [f"P{i}" for i in range(50)]}).get_json()
    assert client.get(f"/api/groups/{large['id']}/summary.pdf", headers=auth(large["token"])).status_code == 200
    refused = client.get(f"/api/groups/{small['id']}/summary.pdf", headers=auth(small["token"]))
    assert_limited(refused, "Too many")  # the large one counted twice
    again = client.get(f"/api/groups/{large['id']}/summary.pdf", headers=auth(large["token"]))
    assert_limited(again, "Too many")
    assert again.headers["Retry-After"] == "60"  # two counts must be free: a whole window, not the oldest's end
    store.flushdb()  # the window over
    for _ in range(2):  # a small group's counts once
        assert client.get(f"/api/groups/{small['id']}/summary.pdf", headers=auth(small["token"])).status_code == 200
    store.flushdb()
    # Without its token the large group is as unknown as no group: each 404 counts once (API.md:
    # what the budget runs down by must not tell that a group is there, or how large it is).
    for headers in ({}, auth(small["token"])):
        for _ in range(2):
            assert client.get(f"/api/groups/{large['id']}/summary.pdf", headers=headers).status_code == 404
        assert_limited(client.get(f"/api/groups/{large['id']}/summary.pdf", headers=headers), "Too many")
        store.flushdb()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_group_export_counts_its_corrections_too(limited: Flask) -> None:
    """Exporting a group's games costs about 15 µs a correction besides their number: 500,000
    corrections (the cap of 1000 games) were 12 s of work for one count of the budget."""
    from scorekeeper.groups import api

    client = limited.test_client()
    group = client.post("/api/groups", json={"name": "Fridays"}).get_json()
    game = client.post(f"/api/groups/{group['id']}/games", json=PLAYERS, headers=auth(group["token"])).get_json()
    for bids in ([1, 1, 1], [2, 1, 1], [3, 1, 1], [4, 1, 1]):  # three corrections of the first entry
        sent = client.put(
            f"/api/games/{game['id']}/hands/1/bids", json={"bids": bids}, headers=auth(game["scorer_token"])
        )
        assert sent.status_code == 200
    cost = api._size((api._rows(api.Game), 200), (api._corrections, 2))
    for headers, counts in ((auth(group["token"]), 1 + 3 // 2), ({}, 1), (auth(game["scorer_token"]), 1)):
        with limited.test_request_context(f"/api/groups/{group['id']}/export.json", headers=headers):
            assert cost() == counts  # a request without the group's token learns nothing of its size


def test_the_counts_live_in_redis_and_hold_for_another_server_process(
    limited: Flask, store: redis.Redis, redis_url: str
) -> None:
    """A second process (its own app, its own limiter) on the same Redis sees the first one's count."""
    client = limited.test_client()
    for _ in range(2):
        assert client.post("/api/games", json=PLAYERS).status_code == 201
    assert any(b"create" in key for key in store.keys("*"))
    script = (
        "import json, sys\n"
        "from scorekeeper import create_app\n"
        "from scorekeeper.extensions import db\n"
        "app = create_app(json.loads(sys.argv[1]))\n"
        "with app.app_context():\n"
        "    db.create_all()\n"
        "answer = app.test_client().post('/api/games', json={'players': ['Ann', 'Ben']})\n"
        "print(answer.status_code, answer.headers.get('Retry-After'))\n"
    )
    config = {
        "SQLALCHEMY_DATABASE_URI": limited.config["SQLALCHEMY_DATABASE_URI"],
        "SECRET_KEY": "x",
        "RATELIMIT_STORAGE_URI": redis_url,
        "RATELIMIT_CREATE": "2 per minute",
        "INSTANCE_PATH": str(Path(limited.instance_path)),
    }
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(config)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    status, retry = done.stdout.split()
    assert status == "429" and retry.isdigit()
    store.flushdb()  # the window forgotten: the other process may create again
    again = subprocess.run(
        [sys.executable, "-c", script, json.dumps(config)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert again.stdout.split()[0] == "201"


@pytest.mark.parametrize("down", ["silent", "refused"])
def test_a_redis_that_is_down_or_silent_neither_fails_nor_holds_a_request(tmp_path: Path, down: str) -> None:
    """A Redis that accepts connections but never answers held every create, import and PDF request
    for good, until no server thread was left for the scorers. Now each try gives up, and the
    process counts alone in memory with the same budgets (README, configuration)."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(64)  # connections are taken into the backlog and never read or answered
        port = silent.getsockname()[1]
        if down == "refused":
            silent.close()  # nothing listens there now
        app = make_app(
            f"sqlite:///{tmp_path / 'down.sqlite'}",
            RATELIMIT_ENABLED=True,
            RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{port}/7",
            RATELIMIT_CREATE="2 per minute",
        )
        client = app.test_client()
        statuses: list[int] = []
        worker = threading.Thread(
            target=lambda: statuses.extend(client.post("/api/games", json=PLAYERS).status_code for _ in range(3)),
            daemon=True,
        )
        worker.start()
        worker.join(timeout=60)
        assert not worker.is_alive(), "a request is held by a Redis that does not answer"
        assert statuses == [201, 201, 429]
        assert games_stored(app) == 2
    with app.app_context():
        db.engine.dispose()


def test_a_request_that_finds_redis_silent_waits_half_a_second_at_most(tmp_path: Path) -> None:
    """A server up for a while whose Redis stops answering: the first request tried Redis twice
    (the limiter asks again at once after giving up on it) at half a second a try, a second in all.
    Counted here in tries, each of which the settings give up after a quarter of a second."""
    from scorekeeper.limits import limiter

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(64)
        tries: list[socket.socket] = []  # every connection taken and held, never answered

        def take() -> None:
            while True:
                try:
                    tries.append(silent.accept()[0])
                except OSError:
                    return

        threading.Thread(target=take, daemon=True).start()
        app = make_app(
            f"sqlite:///{tmp_path / 'silent.sqlite'}",
            RATELIMIT_ENABLED=True,
            RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{silent.getsockname()[1]}/7",
        )
        # A process up for a while with Redis answering until now, whatever earlier tests left in
        # the one limiter: Flask-Limiter's own state (checked to exist, so a new version cannot
        # make this test pass without a look).
        state = {"_storage_dead": False, "_Limiter__last_check_backend": 0.0, "_Limiter__check_backend_count": 0}
        assert all(hasattr(limiter, name) for name in state)
        for name, value in state.items():
            setattr(limiter, name, value)
        client = app.test_client()
        assert client.post("/api/games", json=PLAYERS).status_code == 201
        options = app.config["RATELIMIT_STORAGE_OPTIONS"]
        assert len(tries) == 2 and len(tries) * max(options.values()) <= 0.5
        assert client.post("/api/games", json=PLAYERS).status_code == 201  # in memory: Redis asked again later
        assert len(tries) == 2
        for held in tries:
            held.close()
    with app.app_context():
        db.engine.dispose()


def test_a_scorer_at_play_speed_is_never_limited(tmp_path: Path, store: redis.Redis, redis_url: str) -> None:
    """The default budgets: a whole 25-hand game with five watchers polling, a printout and an export."""
    app = make_app(f"sqlite:///{tmp_path / 'play.sqlite'}", RATELIMIT_ENABLED=True, RATELIMIT_STORAGE_URI=redis_url)
    client = app.test_client()
    game = client.post("/api/games", json=PLAYERS).get_json()
    scorer = {"Authorization": f"Bearer {game['scorer_token']}"}
    watch = {"Authorization": f"Bearer {game['watch_token']}"}
    statuses: list[int] = []
    for number, cards in enumerate(game["schedule"], start=1):
        statuses.append(
            client.put(
                f"/api/games/{game['id']}/hands/{number}/bids", json={"bids": [1, 1, 1]}, headers=scorer
            ).status_code
        )
        statuses.append(
            client.put(
                f"/api/games/{game['id']}/hands/{number}/tricks", json={"tricks": [cards, 0, 0]}, headers=scorer
            ).status_code
        )
        for _ in range(5):
            statuses.append(client.get(f"/api/games/{game['id']}/version", headers=watch).status_code)
            statuses.append(client.get(f"/api/games/{game['id']}", headers=watch).status_code)
    statuses.append(client.get(f"/api/games/{game['id']}/scorecard.pdf", headers=watch).status_code)
    statuses.append(client.get(f"/api/games/{game['id']}/export.json", headers=watch).status_code)
    statuses.append(client.post("/api/games", json=PLAYERS).status_code)  # and the next game
    assert 429 not in statuses
    assert set(statuses) == {200, 201}
    with app.app_context():
        db.engine.dispose()
