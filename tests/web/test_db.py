"""The database layer: SQLite settings, migrations that match the models, and all-or-nothing writes."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from sqlalchemy import create_engine
from sqlalchemy import inspect
from sqlalchemy import MetaData
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from scorekeeper import create_app
from scorekeeper import extensions
from scorekeeper.errors import contended
from scorekeeper.extensions import db
from scorekeeper.games import scorecard_of
from scorekeeper.games import summary_of
from scorekeeper.models import Game
from scorekeeper.tokens import token_hash

TABLES = {"games", "hands", "corrections", "tables", "alembic_version"}


def build(url: str, tmp_path: Path) -> Flask:
    """An app on ``url`` whose schema is left to the migrations (no ``create_all``)."""
    return create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "test",
            "INSTANCE_PATH": str(tmp_path / "instance"),
        }
    )


@pytest.fixture
def keep_logging() -> Iterator[None]:
    """Alembic's ``env.py`` installs logging handlers from ``alembic.ini``; put ours back after."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    named = {name: logging.getLogger(name).level for name in ("alembic", "sqlalchemy", "flask_migrate")}
    yield
    root.handlers[:], root.level = handlers, level
    for name, old in named.items():
        logging.getLogger(name).setLevel(old)
        logging.getLogger(name).handlers.clear()


def drop_everything(url: str) -> None:
    """Empty a database, ``alembic_version`` included, so the migrations start from nothing."""
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            meta = MetaData()
            meta.reflect(connection)
            meta.drop_all(connection)
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def unmigrated(request: pytest.FixtureRequest, tmp_path: Path, keep_logging: None) -> Iterator[Flask]:
    """An app on an empty database (a new SQLite file, or ``TEST_DATABASE_URL`` emptied) whose
    schema is left to the migrations."""
    if request.param == "postgresql" and not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip("TEST_DATABASE_URL is not set")
    url = f"sqlite:///{tmp_path / 'migrated.sqlite'}" if request.param == "sqlite" else os.environ["TEST_DATABASE_URL"]
    drop_everything(url)
    app = build(url, tmp_path)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    drop_everything(url)


def test_db_upgrade_creates_the_schema_the_models_describe(unmigrated: Flask) -> None:
    app, runner = unmigrated, unmigrated.test_cli_runner()
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0 and result.exception is None, result.output
    with app.app_context():
        assert TABLES <= set(inspect(db.engine).get_table_names())
        with db.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
        assert differences == []
    check = runner.invoke(args=["db", "check"])  # autogenerate finds nothing to add
    assert check.exit_code == 0 and check.exception is None, check.output
    down = runner.invoke(args=["db", "downgrade", "base"])
    assert down.exit_code == 0, down.output
    with app.app_context():
        assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    client = app.test_client()  # the migrated schema serves the API
    assert client.post("/api/games", json={"players": ["Ann", "Ben"]}).status_code == 201


ROWS = ("games", "hands", "corrections", "tables")


def count_rows(app: Flask) -> dict[str, int]:
    with app.app_context():
        return {table: db.session.scalar(text(f"SELECT count(*) FROM {table}")) for table in ROWS}  # noqa: S608


def test_migrating_up_and_down_keeps_every_hand_correction_and_table(unmigrated: Flask) -> None:
    """On SQLite a migration alters ``games`` by copying it and dropping the old table; with foreign
    keys on, the drop cascaded into every hand, correction and virtual table of every game."""
    app, runner = unmigrated, unmigrated.test_cli_runner()
    first = "8b8307794e04"
    assert runner.invoke(args=["db", "upgrade", first]).exit_code == 0
    with app.app_context():
        now = {"now": datetime(2026, 1, 2)}
        db.session.execute(
            text(
                "INSERT INTO games (id, created_at, updated_at, variant, options, players, first_dealer,"
                " scorer_hash, watch_hash, version, mode) VALUES ('old1', :now, :now, 'standard', '{}',"
                " '[\"Ann\", \"Ben\", \"Cy\"]', 0, 'x', 'y', 3, 'virtual')"
            ),
            now,
        )
        db.session.execute(
            text("INSERT INTO hands (game_id, number, bids, tricks) VALUES ('old1', 1, '[4, 5, 3]', '[5, 3, 5]')")
        )
        db.session.execute(
            text(
                "INSERT INTO corrections (game_id, at, hand, field, old, new)"
                " VALUES ('old1', :now, 1, 'tricks', '[4, 4, 5]', '[5, 3, 5]')"
            ),
            now,
        )
        db.session.execute(
            text(
                "INSERT INTO tables (id, game_id, created_at, host_hash, seats, phase, version)"
                " VALUES ('tab1', 'old1', :now, 'h', '[]', 'lobby', 1)"
            ),
            now,
        )
        db.session.commit()
    kept = {"games": 1, "hands": 1, "corrections": 1, "tables": 1}
    assert count_rows(app) == kept
    up = runner.invoke(args=["db", "upgrade"])
    assert up.exit_code == 0 and up.exception is None, up.output
    assert count_rows(app) == kept
    down = runner.invoke(args=["db", "downgrade", first])
    assert down.exit_code == 0 and down.exception is None, down.output
    assert count_rows(app) == kept
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        with app.app_context(), db.engine.connect() as connection:  # switched on again for the app
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


def test_sqlite_connections_use_wal_a_busy_timeout_and_foreign_keys(tmp_path: Path) -> None:
    app = build(f"sqlite:///{tmp_path / 'pragmas.sqlite'}", tmp_path)
    try:
        with app.app_context(), db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    finally:
        with app.app_context():
            db.engine.dispose()


PATH = "busy.sqlite"


@pytest.fixture
def busy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    """An app on an SQLite file (``PATH`` in ``tmp_path``) that waits 0.2 s for another writer's lock."""
    monkeypatch.setattr(extensions, "BUSY_TIMEOUT_MS", 200)
    app = build(f"sqlite:///{tmp_path / PATH}", tmp_path)
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.engine.dispose()


@contextmanager
def another_writer(path: Path) -> Iterator[None]:
    """Another phone's write holding SQLite's lock until the block ends."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_write_that_waits_out_the_lock_is_a_503_that_stores_nothing(busy: Flask, tmp_path: Path) -> None:
    """Another writer holding SQLite's lock past the busy timeout gave a bare 500."""
    client = busy.test_client()
    game = client.post("/api/games", json={"players": ["Ann", "Ben"]}).get_json()
    with another_writer(tmp_path / PATH):
        answer = client.put(
            f"/api/games/{game['id']}/hands/1/bids", json={"bids": [4, 5]}, headers=bearer(game["scorer_token"])
        )
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
    assert "busy" in answer.get_json()["error"]["message"]
    doc = client.get(f"/api/games/{game['id']}", headers=bearer(game["scorer_token"])).get_json()
    assert doc["hands"][0]["bids"] is None and doc["version"] == game["version"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_deleting_a_game_deletes_its_hands_and_corrections(app: Flask) -> None:
    client = app.test_client()
    created = client.post("/api/games", json={"players": ["Ann", "Ben"]}).get_json()
    headers = {"Authorization": f"Bearer {created['scorer_token']}"}
    client.put(f"/api/games/{created['id']}/hands/1/bids", json={"bids": [1, 2]}, headers=headers)
    client.put(f"/api/games/{created['id']}/hands/1/bids", json={"bids": [2, 2]}, headers=headers)
    with app.app_context():
        db.session.execute(text("DELETE FROM games WHERE id = :id"), {"id": created["id"]})
        db.session.commit()
        for table in ("hands", "corrections"):
            assert db.session.scalar(text(f"SELECT count(*) FROM {table}")) == 0  # noqa: S608


def test_the_summary_migration_fills_the_summaries_of_stored_games(unmigrated: Flask) -> None:
    """Games stored before summaries existed get the engine's summary of their hands."""
    app, runner = unmigrated, unmigrated.test_cli_runner()
    hands = [([4, 5, 3], [5, 3, 5]), ([2, 6, 4], [2, 7, 3])]  # RULES.md's worked example: 61, 11, -8
    assert runner.invoke(args=["db", "upgrade", "234cc5f3cfb7"]).exit_code == 0
    with app.app_context():
        db.session.execute(
            text(
                "INSERT INTO games (id, created_at, updated_at, variant, options, players, first_dealer,"
                " scorer_hash, watch_hash, version, mode) VALUES ('old1', :now, :now, 'standard', '{}',"
                " '[\"Ann\", \"Ben\", \"Cy\"]', 0, 'x', 'y', 5, 'table')"
            ),
            {"now": datetime(2026, 1, 2)},
        )
        for number, (bids, tricks) in enumerate(hands, start=1):
            db.session.execute(
                text("INSERT INTO hands (game_id, number, bids, tricks, trump) VALUES ('old1', :n, :b, :t, 'H')"),
                {"n": number, "b": json.dumps(bids), "t": json.dumps(tricks)},
            )
        db.session.commit()
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0 and result.exception is None, result.output
    with app.app_context():
        game = db.session.get(Game, "old1")
        assert game is not None and game.summary == summary_of(scorecard_of(game), 5)
        assert game.summary["totals"] == [61, 11, -8] and game.summary["version"] == 5
        assert game.summary["seats"][0]["by_cards"] == {"13": [0, 1, 0], "12": [0, 0, 1]}


def test_a_virtual_games_hands_stored_without_trump_are_noted_as_having_none(unmigrated: Flask) -> None:
    """Before the marker for "noted as none" a hand without trump was stored as null, which now
    reads "not noted". A virtual game knew its trump (null: a Bluke was turned, R12); a table
    game's scorer may simply not have chosen one, so its null stays."""
    app, runner = unmigrated, unmigrated.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", "17fa8991fcdd"]).exit_code == 0
    with app.app_context():
        for game_id, mode in (("virt1", "virtual"), ("table1", "table")):
            db.session.execute(
                text(
                    "INSERT INTO games (id, created_at, updated_at, variant, options, players, first_dealer,"
                    " scorer_hash, watch_hash, version, mode) VALUES (:id, :now, :now, 'standard', '{}',"
                    ' \'["Ann", "Ben", "Cy"]\', 0, :id, \'y\', 3, :mode)'  # scorer hashes are unique
                ),
                {"id": game_id, "now": datetime(2026, 1, 2), "mode": mode},
            )
            for number, trump in ((1, None), (2, "H")):
                db.session.execute(
                    text("INSERT INTO hands (game_id, number, bids, tricks, trump) VALUES (:g, :n, :b, :t, :trump)"),
                    {"g": game_id, "n": number, "b": "[4, 5, 3]", "t": "[5, 3, 5]", "trump": trump},
                )
        db.session.commit()
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0 and result.exception is None, result.output
    with app.app_context():
        stored = db.session.execute(text("SELECT game_id, number, trump FROM hands ORDER BY game_id, number")).all()
    assert [tuple(row) for row in stored] == [
        ("table1", 1, None),
        ("table1", 2, "H"),
        ("virt1", 1, "-"),
        ("virt1", 2, "H"),
    ]
    client = app.test_client()
    for game_id, no_trump in (("virt1", True), ("table1", False)):
        with app.app_context():
            db.session.execute(
                text("UPDATE games SET watch_hash = :h WHERE id = :id"), {"h": token_hash("w" * 32), "id": game_id}
            )
            db.session.commit()
        hand = client.get(f"/api/games/{game_id}", headers={"Authorization": "Bearer " + "w" * 32}).get_json()["hands"][
            0
        ]
        assert (hand["trump"], hand["no_trump"]) == (None, no_trump)


def store_untrimmed_names(app: Flask) -> None:
    """A group's roster and merged names as stored before their invisible ends were dropped."""
    players = [
        ("p1", "Zoe\u200d", "zoe\u200d"),
        ("p2", "Ann", "ann"),
        ("p3", "\u3164Ann", "\u3164ann"),
        ("p4", "\u3164", "\u3164"),
        ("p5", "Max\u3164", "max\u3164"),
        ("p6", "\u3164Max", "\u3164max"),
        ("p7", "Ann\u3164\u3164Lee", "ann\u3164\u3164lee"),
    ]
    with app.app_context():
        db.session.execute(
            text("INSERT INTO groups (id, name, token_hash, created_at) VALUES ('g1', 'Fridays', :h, :now)"),
            {"h": token_hash("g" * 32), "now": datetime(2026, 1, 2)},
        )
        for player_id, name, key in players:
            db.session.execute(
                text("INSERT INTO group_players (id, group_id, name, key) VALUES (:id, 'g1', :name, :key)"),
                {"id": player_id, "name": name, "key": key},
            )
        for key in ("bob\u200c", "ann\u200d", "ann", "cy\u200c", "cy\u200d"):
            db.session.execute(
                text("INSERT INTO group_aliases (group_id, key, player_id) VALUES ('g1', :key, 'p2')"), {"key": key}
            )
        db.session.commit()


def assert_names_trimmed(app: Flask) -> None:
    """Each name trimmed, unless an earlier row of the group holds or takes the trimmed key."""
    with app.app_context():
        stored = db.session.execute(text("SELECT id, name, key FROM group_players ORDER BY id")).all()
        aliases = db.session.execute(text("SELECT key FROM group_aliases ORDER BY key")).scalars().all()
    assert [tuple(row) for row in stored] == [
        ("p1", "Zoe", "zoe"),
        ("p2", "Ann", "ann"),
        ("p3", "\u3164Ann", "\u3164ann"),  # "ann" is Ann's: one person twice, for the group to merge
        ("p4", "\u3164", "\u3164"),  # nothing left once trimmed
        ("p5", "Max", "max"),
        ("p6", "\u3164Max", "\u3164max"),  # "max" went to p5
        ("p7", "Ann Lee", "ann lee"),
    ]
    assert sorted(aliases) == ["ann", "ann\u200d", "bob", "cy", "cy\u200d"]
    client, group = app.test_client(), {"Authorization": "Bearer " + "g" * 32}
    game = client.post("/api/groups/g1/games", json={"players": ["Zoe", "Bob"]}, headers=group)
    assert game.status_code == 201, game.get_json()
    (seated,) = client.get("/api/groups/g1", headers=group).get_json()["games"]
    assert [p["player_id"] for p in seated["players"]] == ["p1", "p2"]  # no second Zoe; Bob is Ann


def test_roster_names_stored_with_invisible_ends_are_trimmed(unmigrated: Flask) -> None:
    """Names stored before their invisible ends were dropped kept keys no name typed now matches:
    "Zoe" started a second Zoe. Trimmed, unless another row of the group holds the trimmed key."""
    app, runner = unmigrated, unmigrated.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", "5c1d0e7a9b21"]).exit_code == 0
    store_untrimmed_names(app)
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0 and result.exception is None, result.output
    assert_names_trimmed(app)


@pytest.mark.parametrize("unmigrated", ["postgresql"], indirect=True)  # the script is PostgreSQL's
def test_the_sql_script_trims_stored_names_as_the_upgrade_does(unmigrated: Flask) -> None:
    """The script failed on two names of a group that trim to one key (each was checked against the
    keys as they were before it), leaving the database where it was; it also kept a run of fillers
    inside a name as a run of spaces."""
    app, runner = unmigrated, unmigrated.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", "5c1d0e7a9b21"]).exit_code == 0
    store_untrimmed_names(app)
    result = runner.invoke(args=["db", "upgrade", "5c1d0e7a9b21:head", "--sql"])
    assert result.exit_code == 0 and result.exception is None, result.output
    script = "\n".join(line for line in result.stdout.splitlines() if not line.startswith("INFO "))
    with app.app_context():
        with db.engine.connect() as connection:
            connection.exec_driver_sql(script)
            connection.commit()
    assert_names_trimmed(app)


@pytest.mark.parametrize("unmigrated", ["postgresql"], indirect=True)  # SQLite's batch mode needs the live tables
def test_the_sql_script_of_the_migrations_builds_the_same_schema(unmigrated: Flask) -> None:
    """``flask db upgrade --sql`` writes the migrations out for a database administrator to run;
    the summary migration fills summaries in Python, so the script leaves them to ``flask summaries``."""
    app, runner = unmigrated, unmigrated.test_cli_runner()
    result = runner.invoke(args=["db", "upgrade", "--sql"])
    assert result.exit_code == 0 and result.exception is None, result.output
    script = "\n".join(line for line in result.stdout.splitlines() if not line.startswith("INFO "))
    assert "CREATE TABLE games" in script and "UPDATE games" not in script
    with app.app_context():
        with db.engine.connect() as connection:
            connection.exec_driver_sql(script)
            connection.commit()
        with db.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
        assert differences == []
    client = app.test_client()  # the scripted schema serves the API and the group statistics
    created = client.post("/api/groups", json={"name": "Fridays", "players": ["Ann", "Ben"]})
    assert created.status_code == 201, created.get_json()


def test_the_summaries_command_fills_what_a_sql_script_left_out(app: Flask) -> None:
    client = app.test_client()
    hands = [(1, [4, 5, 3], [5, 3, 5]), (2, [2, 6, 4], [2, 7, 3])]  # RULES.md's worked example: 61, 11, -8
    game = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"]}).get_json()
    token = bearer(game["scorer_token"])
    for number, bids, tricks in hands:
        assert (
            client.put(f"/api/games/{game['id']}/hands/{number}/bids", json={"bids": bids}, headers=token).status_code
            == 200
        )
        assert (
            client.put(
                f"/api/games/{game['id']}/hands/{number}/tricks", json={"tricks": tricks}, headers=token
            ).status_code
            == 200
        )
    fresh = client.post("/api/games", json={"players": ["Dee", "Eve"]}).get_json()["id"]
    with app.app_context():
        db.session.execute(text("UPDATE games SET summary = NULL WHERE id = :id"), {"id": game["id"]})
        db.session.commit()
    result = app.test_cli_runner().invoke(args=["summaries"])
    assert result.exit_code == 0 and result.output == "1 games summed up\n", result.output
    with app.app_context():
        stored = db.session.get(Game, game["id"])
        assert stored is not None and stored.summary == summary_of(scorecard_of(stored), stored.version)
        assert stored.summary["totals"] == [61, 11, -8]
        untouched = db.session.get(Game, fresh)
        assert untouched is not None and untouched.summary["version"] == untouched.version


def test_a_connection_the_database_dropped_is_replaced_not_answered_with_a_500(app: Flask) -> None:
    """PostgreSQL restarted (or an idle connection cut): each process answered its next request with
    a 500 from the dead pooled connection. The pool checks a connection before handing it out."""
    client = app.test_client()
    made = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"]}).get_json()
    headers = {"Authorization": f"Bearer {made['scorer_token']}"}
    with app.app_context():
        db.engine.dispose()
        with db.engine.connect() as connection:  # the pool's one connection from now on
            postgresql = connection.dialect.name == "postgresql"
            pid = connection.execute(text("select pg_backend_pid()")).scalar() if postgresql else None
            pooled = connection.connection.dbapi_connection
        if postgresql:  # the server ends it, as a restart does
            admin = create_engine(app.config["SQLALCHEMY_DATABASE_URI"])
            with admin.connect() as other:
                other.execute(text("select pg_terminate_backend(:pid)"), {"pid": pid})
            admin.dispose()
        else:
            pooled.close()  # type: ignore[union-attr]
    answer = client.get(f"/api/games/{made['id']}", headers=headers)
    assert answer.status_code == 200, answer.get_json()
    assert [p["name"] for p in answer.get_json()["players"]] == ["Ann", "Ben", "Cy"]


def test_only_a_write_that_lost_its_turn_is_answered_busy(busy: Flask, tmp_path: Path) -> None:
    """A missing table (a migration not run) is a fault, not a busy database: the bots' write after a
    move gives way only to others' writes (virtual/service.py), and only those are 503."""
    with busy.app_context():
        with pytest.raises(OperationalError) as missing:
            db.session.execute(text("SELECT * FROM no_such_table"))
        db.session.rollback()
        with another_writer(tmp_path / PATH), pytest.raises(OperationalError) as locked:
            db.session.execute(text("CREATE TABLE t (x INTEGER)"))
        db.session.rollback()
    assert contended(locked.value) and not contended(missing.value)
