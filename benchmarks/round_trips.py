#!/usr/bin/env python3
"""Database round trips per request of table scoring, on PostgreSQL (or SQLite), counted exactly.

Each statement, BEGIN, COMMIT and ROLLBACK the app sends is one round trip to the database server,
and on a busy machine each one waits for the server process to be scheduled: the count explains
why a write is slower than a read far better than a timing on a shared machine can. Printed per
request kind, with the statements of one example request.

    .venv/bin/python benchmarks/round_trips.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url",
        default="postgresql+psycopg://postgres@127.0.0.1:5432/test",
        help="a database this script may empty (its tables are dropped and created)",
    )
    args = parser.parse_args()
    app = create_app({"SQLALCHEMY_DATABASE_URI": args.database_url, "SECRET_KEY": "x", "RATELIMIT_ENABLED": False})
    sent: list[str] = []
    with app.app_context():
        db.drop_all()
        db.create_all()
        engine = db.engine
        event.listen(engine, "begin", lambda conn: sent.append("BEGIN"))
        event.listen(engine, "commit", lambda conn: sent.append("COMMIT"))
        event.listen(engine, "rollback", lambda conn: sent.append("ROLLBACK"))
        event.listen(
            engine,
            "before_cursor_execute",
            lambda conn, cur, statement, *rest: sent.append(" ".join(statement.split())[:70]),
        )
    client = app.test_client()
    game = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"]}).get_json()
    scorer = {"Authorization": f"Bearer {game['scorer_token']}"}
    watch = {"Authorization": f"Bearer {game['watch_token']}"}
    url = f"/api/games/{game['id']}"
    kinds: list[tuple[str, Callable[[], Any]]] = [
        ("PUT bids (new hand)", lambda: client.put(f"{url}/hands/1/bids", json={"bids": [4, 5, 3]}, headers=scorer)),
        ("PUT tricks", lambda: client.put(f"{url}/hands/1/tricks", json={"tricks": [5, 3, 5]}, headers=scorer)),
        ("PUT bids (same again)", lambda: client.put(f"{url}/hands/1/bids", json={"bids": [4, 5, 3]}, headers=scorer)),
        ("GET document", lambda: client.get(url, headers=watch)),
        ("GET version", lambda: client.get(f"{url}/version", headers=watch)),
        (
            "watch page poll, no change",
            lambda: client.get(f"/g/{game['id']}?since={seen['version']}", headers={"HX-Request": "true"}),
        ),
    ]
    seen: dict[str, int] = {}
    print(f"database round trips per request ({engine.dialect.name}):")
    for name, call in kinds:
        if name.startswith("watch page"):  # a watcher's phone: its cookie, and the version it shows
            client.get(f"/g/{game['id']}/join/{game['watch_token']}")
            seen["version"] = client.get(url, headers=watch).get_json()["version"]
        sent.clear()
        answer = call()
        assert answer.status_code in (200, 204), answer.get_data(as_text=True)
        print(f"  {name:<24} {len(sent):>2}: " + " | ".join(sent))
    with app.app_context():
        db.engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
