#!/usr/bin/env python3
"""How fast a group's statistics pages open: 50 and 200 stored games, SQLite and PostgreSQL.

For each backend and group size: a fresh schema, one group of 8 regulars, and that many finished
games of 3 to 6 of them (25 or 15 hands each, random legal entries, stored through the same import
path the API uses). Then each page is fetched ``--repeat`` times through the app (Flask's test
client, in this process, so the figure is the server's whole work for one request: the queries,
reading each game's stored summary of the engine's scorecard, adding up, rendering) and the median
and 95th percentile are printed side by side with the CPU time the request took in this process,
"cold" (the connection pool emptied before each request, as after a restart: a new database
connection, nothing of the group kept in the process), "changed" (a pooled connection; the
group's season added up again, nothing kept), "written" (a hand recorded in one of its games
since the last read: the others are taken from the season kept) and "kept" (the season kept from
the last read, ``stats.season``: the group unchanged since). The export is written whole (to a
temporary file) and never kept: its figure is the whole body. The target: a group of 200 games opens its
statistics page in under 200 ms on this machine (2 cores, possibly shared: the load average is
printed).

    .venv/bin/python benchmarks/group_stats.py                       # SQLite only
    .venv/bin/python benchmarks/group_stats.py --sizes 1000 --roster 300 --seats 15 --repeat 3   # at the caps
    .venv/bin/python benchmarks/group_stats.py --pg postgresql+psycopg://postgres@127.0.0.1:5432/test_issue8

The PostgreSQL database given is emptied (its tables dropped and made again) by the run.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.engine import HandRecord  # noqa: E402
from scorekeeper.engine import Rules  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.games import import_game  # noqa: E402
from scorekeeper.groups import service  # noqa: E402
from scorekeeper.models import Game  # noqa: E402

REGULARS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
TARGET_MS = 200.0


def records(rng: random.Random, players: int) -> list[HandRecord]:
    """A finished game's entries: bids within R13, tricks adding up to the cards dealt (R23)."""
    out = []
    for cards in Rules(players).schedule:
        bids = tuple(rng.randint(1, max(1, cards // 2 + 1)) for _ in range(players))
        cuts = sorted(rng.randint(0, cards) for _ in range(players - 1))
        out.append(HandRecord(bids, tuple(b - a for a, b in zip([0, *cuts], [*cuts, cards]))))
    return out


def measure(url: str, games: int, repeat: int, roster: int = 0, seats: int = 0) -> dict[str, list[float]]:
    """Each page's times; ``roster`` players named P000… instead of the regulars, ``seats`` of them at every game."""
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "TESTING": True, "RATELIMIT_ENABLED": False}
    )
    regulars = [f"P{i:03}" for i in range(roster)] if roster else REGULARS
    with app.app_context():
        db.drop_all()
        db.create_all()
        group, token = service.create_group("Friday night", regulars)
        rng = random.Random(games)
        for _ in range(games):
            names = rng.sample(regulars, seats or rng.choice((3, 4, 6)))
            import_game(names, "standard", 0, {}, records(rng, len(names)), attach=service.seat_players(group.id))
        player = next(p.id for p in group.players if p.name == regulars[0])
        group_id = group.id
        written = db.session.scalars(db.select(Game.id).where(Game.group_id == group_id).limit(1)).one()
    client = app.test_client()
    client.set_cookie(f"skg_{group_id}", token)
    pages = {
        "group home (leaderboard)": f"/groups/{group_id}",
        "player page": f"/groups/{group_id}/players/{player}",
        "GET /api/groups/<id>/stats": f"/api/groups/{group_id}/stats",
        "GET /api/groups/<id>/stats.csv": f"/api/groups/{group_id}/stats.csv",
        "GET /api/groups/<id>/export.json": f"/api/groups/{group_id}/export.json",
    }
    times: dict[str, list[float]] = {}
    for name, path in pages.items():
        headers = {"Authorization": f"Bearer {token}"} if path.startswith("/api/") else {}
        warm = client.get(path, headers=headers)  # templates compiled, connections open
        assert warm.status_code == 200, (path, warm.get_data(as_text=True)[:500])
        warm.close()
        for state in ("cold", "changed", "written", "kept"):
            samples, cpu = [], []
            for _ in range(repeat):
                if state == "cold":  # as after a restart: a new connection, nothing kept in the process
                    with app.app_context():
                        db.engine.dispose()
                if state in ("cold", "changed"):  # nothing of the group kept
                    app.extensions.pop("group_seasons", None)
                if state == "written":  # as a write raises its game's version (its summary then scored again)
                    with app.app_context():
                        db.session.execute(db.update(Game).where(Game.id == written).values(version=Game.version + 1))
                        db.session.commit()
                start, start_cpu = time.perf_counter(), time.process_time()
                answer = client.get(path, headers=headers)
                answer.get_data()  # the whole body, also of a streamed answer
                samples.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
                assert answer.status_code == 200
                answer.close()
            times[f"{name}, {state}"] = samples
            times[f"{name}, {state}, cpu"] = cpu
    with app.app_context():
        db.drop_all()
        db.engine.dispose()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", help="a PostgreSQL URL whose tables the run may drop")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--roster", type=int, default=0, help="players in the group (default: 8 regulars)")
    parser.add_argument("--seats", type=int, default=0, help="players at every game (default: 3, 4 or 6)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        backends = {"sqlite": f"sqlite:///{Path(folder) / 'bench.sqlite'}"} | (
            {"postgresql": args.pg} if args.pg else {}
        )
        rows = []
        for backend, url in backends.items():
            for size in args.sizes:
                times = measure(url, size, args.repeat, args.roster, args.seats)
                for page, samples in times.items():
                    if page.endswith(", cpu"):
                        continue
                    p95 = sorted(samples)[max(0, round(0.95 * len(samples)) - 1)]
                    rows.append(
                        (backend, size, page, statistics.median(samples), p95, statistics.median(times[page + ", cpu"]))
                    )
    print(f"load average (1 min): {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores, repeat {args.repeat}")
    print("wall: time to the answer; cpu: this process's CPU time for it (the app's own work, which")
    print("other jobs on the machine do not lengthen; PostgreSQL's own work is not in it)")
    print(f"{'backend':<11}{'games':>6}  {'page':<40}{'wall ms':>8}{'p95 ms':>8}{'cpu ms':>8}  wall per game")
    for backend, size, page, median, p95, cpu in rows:
        flag = "" if median < TARGET_MS else f"  over the {TARGET_MS:.0f} ms target"
        print(f"{backend:<11}{size:>6}  {page:<40}{median:>8.1f}{p95:>8.1f}{cpu:>8.1f}  {median / size:.2f} ms{flag}")


if __name__ == "__main__":
    main()
