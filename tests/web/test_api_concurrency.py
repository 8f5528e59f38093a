"""Two phones writing at once: no "database is locked", and of two writes on one version exactly one wins.

Real threads (each request in its own app context and database session) and real processes (each
its own app and connection pool, as under gunicorn) on the file-backed SQLite of the ``app``
fixture, and on PostgreSQL when ``TEST_DATABASE_URL`` is set.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorekeeper.table import service

BIDS = [[4, 5, 3], [3, 3, 3]]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def slow_down_checks(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Hold the write lock a while, so that the second writer surely waits for the first."""
    original = service.check_bids

    def slow(*args: Any) -> Any:
        time.sleep(seconds)
        return original(*args)

    monkeypatch.setattr(service, "check_bids", slow)


def new_game(app: Flask) -> dict[str, Any]:
    response = app.test_client().post("/api/games", json={"players": ["Ann", "Ben", "Cy"]})
    assert response.status_code == 201
    return response.get_json()


def run_threads(app: Flask, jobs: list[tuple[str, str, dict[str, Any] | None, dict[str, str]]]) -> list[Any]:
    """Start every request at the same moment, each on its own thread and test client."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def work(index: int, method: str, path: str, body: dict[str, Any] | None, headers: dict[str, str]) -> None:
        client = app.test_client()
        try:
            barrier.wait(timeout=30)
            response = getattr(client, method)(path, json=body, headers=headers)
            results[index] = (response.status_code, response.get_json())
        except BaseException as error:  # noqa: BLE001 - reported by the test below
            results[index] = error

    threads = [threading.Thread(target=work, args=(i, *job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert not errors, errors
    return results


def test_of_two_writes_on_the_same_version_exactly_one_wins(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    slow_down_checks(monkeypatch, 0.3)
    game = new_game(app)
    path = f"/api/games/{game['id']}/hands/1/bids"
    jobs = [("put", path, {"bids": bids, "version": 1}, auth(game["scorer_token"])) for bids in BIDS]
    results = run_threads(app, jobs)
    assert sorted(status for status, _ in results) == [200, 409]
    winner = next(body for status, body in results if status == 200)
    loser = next(body for status, body in results if status == 409)
    assert loser["error"]["code"] == "conflict"
    doc = app.test_client().get(f"/api/games/{game['id']}", headers=auth(game["watch_token"])).get_json()
    assert doc["version"] == 2 and doc["hands"][0]["bids"] == winner["hands"][0]["bids"]


def test_a_write_that_waited_for_the_lock_sees_the_first_write_whole(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow_down_checks(monkeypatch, 0.3)
    game = new_game(app)
    path = f"/api/games/{game['id']}/hands/1/bids"
    jobs = [("put", path, {"bids": bids}, auth(game["scorer_token"])) for bids in BIDS]  # no version: both apply
    results = run_threads(app, jobs)
    assert [status for status, _ in results] == [200, 200]
    last = max((body for _, body in results), key=lambda body: body["version"])
    assert last["version"] == 3
    history = app.test_client().get(f"/api/games/{game['id']}/history", headers=auth(game["watch_token"])).get_json()
    # The second write found the first one's hand and corrected it (no duplicate hand 1).
    assert [(c["field"], c["new"]) for c in history["corrections"]] == [("bids", last["hands"][0]["bids"])]


def test_racing_writes_without_a_slow_down_still_let_exactly_one_win(app: Flask) -> None:
    game = new_game(app)
    headers = auth(game["scorer_token"])
    for round_ in range(10):
        # Two different bids, both different from what the last round stored (a repeat would be a no-op).
        jobs = [
            (
                "put",
                f"/api/games/{game['id']}/hands/1/bids",
                {"bids": [2 + round_ % 5, 1 + i, 1], "version": 1 + round_},
                headers,
            )
            for i in range(2)
        ]
        assert sorted(status for status, _ in run_threads(app, jobs)) == [200, 409]


def test_many_writers_and_readers_at_once_never_hit_a_locked_database(app: Flask) -> None:
    game = new_game(app)
    scorer, watch = auth(game["scorer_token"]), auth(game["watch_token"])
    writes = 0
    for _ in range(3):
        jobs: list[tuple[str, str, dict[str, Any] | None, dict[str, str]]] = []
        for _ in range(6):
            bids = [1 + writes % 13, 1 + writes // 13, 1]  # every write different: each one is a change
            writes += 1
            jobs.append(("put", f"/api/games/{game['id']}/hands/1/bids", {"bids": bids}, scorer))
            jobs.append(("get", f"/api/games/{game['id']}", None, watch))
            jobs.append(("post", "/api/games", {"players": ["Dee", "Eve"]}, {}))
        results = run_threads(app, jobs)
        assert [status for status, _ in results] == [200, 200, 201] * 6
    doc = app.test_client().get(f"/api/games/{game['id']}", headers=watch).get_json()
    assert doc["version"] == 1 + writes


def write_in_another_process(
    url: str,
    instance: str,
    game_id: str,
    token: str,
    body: dict[str, Any],
    delay: float,
    barrier: Any,
    answers: Any,
) -> None:
    """A second server process: its own app, engine and connections (runs under ``spawn``)."""
    from scorekeeper import create_app
    from scorekeeper.extensions import db
    from scorekeeper.table import service as child_service

    original = child_service.check_bids

    def slow(*args: Any) -> Any:
        time.sleep(delay)
        return original(*args)

    child_service.check_bids = slow
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test", "TESTING": True, "INSTANCE_PATH": instance})
    try:
        client = app.test_client()
        barrier.wait(timeout=60)
        response = client.put(f"/api/games/{game_id}/hands/1/bids", json=body, headers=auth(token))
        answers.put((response.status_code, response.get_json()))
    except BaseException as error:  # noqa: BLE001 - sent back to the test
        answers.put((0, repr(error)))
    finally:
        with app.app_context():
            db.engine.dispose()


def test_two_server_processes_writing_the_same_hand(app: Flask, tmp_path: Path) -> None:
    game = new_game(app)
    context = multiprocessing.get_context("spawn")
    barrier, answers = context.Barrier(2), context.Queue()
    processes = [
        context.Process(
            target=write_in_another_process,
            args=(
                app.config["SQLALCHEMY_DATABASE_URI"],
                str(tmp_path / f"instance{i}"),
                game["id"],
                game["scorer_token"],
                {"bids": BIDS[i], "version": 1},
                0.3,
                barrier,
                answers,
            ),
        )
        for i in range(2)
    ]
    for process in processes:
        process.start()
    results = [answers.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    answers.close()
    answers.join_thread()
    assert sorted(status for status, _ in results) == [200, 409], results
    doc = app.test_client().get(f"/api/games/{game['id']}", headers=auth(game["watch_token"])).get_json()
    assert doc["version"] == 2
