"""Warm render time and memory growth of the creative scorecard PDF (issue 4).

Renders the 25-hand, 4-player creative card of a finished game through the real route
(``GET /api/games/<id>/scorecard.pdf``): after one warm-up render, the median and p95 of 20
renders, then the growth of the process's resident memory (RSS) over 200 renders; last, the
same card with names of 40 characters (set twice to stay on one page) beside it.
Targets: median < 0.5 s, p95 < 1 s, growth < 50 MB.

    .venv/bin/python benchmarks/pdf_speed.py
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.engine import Rules  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402

TARGETS = {"median": 0.5, "p95": 1.0, "growth_mb": 50.0}


def rss_mb() -> float:
    """Resident memory of this process, from /proc (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def percentile(ordered: list[float], pct: int) -> float:
    """Nearest-rank percentile of sorted values (p95 of 20 is the 19th)."""
    return ordered[max(0, math.ceil(pct / 100 * len(ordered)) - 1)]


def finished_game(client, players: list[str], seed: int = 4) -> tuple[str, dict[str, str]]:
    """A complete standard game with legal random bids and tricks, entered through the API."""
    created = client.post("/api/games", json={"players": players}).get_json()
    auth = {"Authorization": f"Bearer {created['scorer_token']}"}
    rng = random.Random(seed)
    for number, cards in enumerate(Rules(len(players)).schedule, start=1):
        bids = [rng.randint(1, max(1, cards // 2 + 1)) for _ in players]
        cuts = sorted(rng.randint(0, cards) for _ in range(len(players) - 1))
        tricks = [b - a for a, b in zip([0, *cuts], [*cuts, cards])]
        client.put(
            f"/api/games/{created['id']}/hands/{number}/bids",
            json={"bids": bids, "trump": rng.choice("SHDC")},
            headers=auth,
        )
        client.put(f"/api/games/{created['id']}/hands/{number}/tricks", json={"tricks": tricks}, headers=auth)
    return created["id"], auth


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.sqlite",
                "SECRET_KEY": "bench",
                "INSTANCE_PATH": tmp,
                "RATELIMIT_ENABLED": False,  # the renders of a benchmark, not of a client
            }
        )
        with app.app_context():
            db.create_all()
        client = app.test_client()
        game_id, auth = finished_game(client, ["Ann", "Ben", "Cy", "Dee"])
        url = f"/api/games/{game_id}/scorecard.pdf?style=creative"

        cpu: list[float] = []

        def render() -> float:
            start, start_cpu = time.perf_counter(), time.process_time()
            response = client.get(url, headers=auth)
            elapsed = time.perf_counter() - start
            cpu.append(time.process_time() - start_cpu)
            assert response.status_code == 200 and response.data.startswith(b"%PDF"), response.status_code
            return elapsed

        first = render()  # cold: imports WeasyPrint, loads fonts, parses print.css
        size = len(client.get(url, headers=auth).data)
        cpu.clear()
        times = sorted(render() for _ in range(20))
        median, p95 = statistics.median(times), percentile(times, 95)
        cpu_median = statistics.median(cpu)
        before = rss_mb()
        for _ in range(200):
            render()
        growth = rss_mb() - before
        # Names of 40 characters grow the header past one page, and the card is set again tighter
        # (printing.render_pdf): its CPU time beside the short names', renders interleaved.
        long_names = [
            "Ŝanĝiĝemaj Ĉapeloj Ĥĵŭ Ŝanĝiĝemaj Ĉapelo",
            "Константин Константинопольский Констант",
            "Bartolomeo Alessandrini-Rossi Bartolomeo",
            "Ира Иванова-Константинопольская Ирина Ив",
        ]
        long_id, long_auth = finished_game(client, long_names)
        long_url = f"/api/games/{long_id}/scorecard.pdf?style=creative"
        short_cpu, long_cpu = [], []
        for _ in range(10):
            for target, headers, into in ((url, auth, short_cpu), (long_url, long_auth, long_cpu)):
                start_cpu = time.process_time()
                assert client.get(target, headers=headers).status_code == 200
                into.append(time.process_time() - start_cpu)

    print(f"creative scorecard, 25 hands x 4 players, A4 landscape, {size / 1024:.0f} KB")
    print(f"cold first render : {first:.3f} s")
    print(
        f"warm renders (20) : median {median:.3f} s, p95 {p95:.3f} s, min {times[0]:.3f} s, max {times[-1]:.3f} s"
        f" (wall clock; CPU median {cpu_median:.3f} s, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    print(f"RSS over 200      : {before:.1f} MB -> {before + growth:.1f} MB, growth {growth:+.1f} MB")
    short_median, long_median = statistics.median(short_cpu), statistics.median(long_cpu)
    print(
        f"40-character names: CPU median {long_median:.3f} s against {short_median:.3f} s for short ones"
        f" ({long_median / short_median:.2f}x: the card is set twice, the second time tighter)"
    )
    results = {"median": median, "p95": p95, "growth_mb": growth}
    missed = [f"{name} {results[name]:.3f} >= {limit}" for name, limit in TARGETS.items() if results[name] >= limit]
    print(
        "targets (median < 0.5 s, p95 < 1 s, growth < 50 MB):",
        "all met" if not missed else "MISSED " + "; ".join(missed),
    )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
