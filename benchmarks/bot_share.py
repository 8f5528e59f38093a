"""Tables of bots only, each polled as its page polls, against everyone else's requests on one server process.

A client may start many virtual tables whose every seat is a bot (each one creation, within the
create budget) and then poll them: every look lets the bots think for up to 0.2 s of CPU. Before the
bots of a process thought one request at a time, within half of one processor
(``service.BOT_SHARE``), such tables kept the server process busy and another game's cheap reads
waited behind them. This starts the same server four times, side by side: with no share (every
request's bots think at once), with the share but every move waiting for the bots' turn before it
looks for a bot to move, as it is now, and with no bot thinking at all (the cost of the polls
alone). For each it prints the median and p95 time of another game's reads and of the moves at a
table of two people (no bots), idle and while the tables are polled every 0.5 s (as a seat's page
polls while bots think), the reads' ratio, the bots' moves per second and the server's CPU time per
second.

    python benchmarks/bot_share.py --tables 12 --seconds 20

Measured (2 cores), reads p50 / p95 and moves p50 / p95 / max in ms: no share 288 / 600 and 485 /
1709 / 2225; moves waiting for the bots' turn 51 / 131 and 77 / 328 / 438; now 53 / 153 and 70 / 221
/ 295; no bots 7.6 / 17 and 9.9 / 26 / 65. The bots' moves per second: 6.7, 2.7, 2.8, 0.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.virtual import service  # noqa: E402

#: One server process with threads, as one gunicorn gthread worker; "before": bots of any number of
#: requests think at once, without a share; "nobots": bots never think.
SERVER = """
import contextlib, sys
from werkzeug.serving import make_server, WSGIRequestHandler
from scorekeeper import create_app
from scorekeeper.virtual import service
if sys.argv[2] == "nobots":
    service.BOT_SHARE = service.BOT_BURST_SECONDS = 0.0
    service.bot_share.spend(5)
if sys.argv[2] == "before":
    service.BOT_SHARE = 1e9
    service.bot_share.turn = lambda wait: contextlib.nullcontext(True)
if sys.argv[2] == "waited":  # every move waited for the bots' turn, then looked for a bot to move
    real_settle = service.settle
    def settle(table_id, after_move=False):
        if after_move:
            with service.bot_share.turn(service.BOT_WAIT_SECONDS + service.BOT_BUDGET_SECONDS):
                pass
        real_settle(table_id, after_move)
    service.settle = settle
WSGIRequestHandler.log_request = lambda *args: None
folder = sys.argv[3]
app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite", "SECRET_KEY": "bench",
                  "RATELIMIT_ENABLED": False, "INSTANCE_PATH": folder})
from scorekeeper.extensions import db
with app.app_context():
    db.create_all()
make_server("127.0.0.1", int(sys.argv[1]), app, threaded=True).serve_forever()
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reads(base: str, game: dict[str, str], seconds: float) -> list[float]:
    """Another game's document, read every 0.1 s: how long each read takes."""
    headers = {"Authorization": f"Bearer {game['watch_token']}"}
    times: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.perf_counter()
        assert requests.get(f"{base}/api/games/{game['id']}", headers=headers, timeout=60).status_code == 200
        times.append(time.perf_counter() - start)
        time.sleep(0.1)
    return times


def moves(base: str, people: dict[str, Any], seconds: float) -> list[float]:
    """A table of two people playing, a move every 0.1 s: how long each move's answer takes."""
    headers = [{"Authorization": f"Bearer {seat['token']}"} for seat in people["seats"]]
    url = f"{base}/api/tables/{people['id']}"
    times: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        look = requests.get(f"{url}/view", headers=headers[0], timeout=60).json()
        if look["phase"] not in ("bidding", "playing"):
            break
        seat = look["to_act"]
        if seat != 0:
            look = requests.get(f"{url}/view", headers=headers[seat], timeout=60).json()
        path, body = (
            ("bid", {"bid": look["legal"][0]}) if look["phase"] == "bidding" else ("play", {"card": look["legal"][0]})
        )
        start = time.perf_counter()
        assert requests.post(f"{url}/{path}", json=body, headers=headers[seat], timeout=60).status_code == 200
        times.append(time.perf_counter() - start)
        time.sleep(0.1)
    return times


def run(setting: str, tables: int, seconds: float) -> dict[str, float]:
    port, folder = free_port(), tempfile.mkdtemp(prefix="bluke-share-")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port), setting, folder], env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                requests.get(base + "/", timeout=1)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        game = requests.post(f"{base}/api/games", json={"players": ["Ann", "Ben", "Cy"]}, timeout=60).json()
        seats = [{"name": "A", "bot": "strong"}, {"name": "B", "bot": "strong"}]
        made = [
            requests.post(f"{base}/api/tables", json={"seats": seats, "options": {"extended": True}}, timeout=60).json()
            for _ in range(tables)
        ]
        people = requests.post(f"{base}/api/tables", json={"seats": [{"name": "P"}, {"name": "Q"}]}, timeout=60).json()
        idle = reads(base, game, 3)
        idle_moves = moves(base, people, 3)
        stop, seqs = threading.Event(), [0] * tables

        def poll(i: int) -> None:
            headers = {"Authorization": f"Bearer {made[i]['host_token']}"}
            while not stop.is_set():
                answer = requests.get(f"{base}/api/tables/{made[i]['id']}/view", headers=headers, timeout=60)
                seqs[i] = answer.json()["seq"]
                time.sleep(0.5)  # as a seat's page polls while bots think (static/virtual.js)

        pollers = [threading.Thread(target=poll, args=(i,), daemon=True) for i in range(tables)]
        for poller in pollers:
            poller.start()
        time.sleep(1)
        moved, cpu, started = sum(seqs), cpu_seconds(server.pid), time.monotonic()
        at_once: list[list[float]] = []
        mover = threading.Thread(target=lambda: at_once.append(moves(base, people, seconds)))
        mover.start()
        loaded = reads(base, game, seconds)
        mover.join()
        elapsed = time.monotonic() - started
        moved, cpu = sum(seqs) - moved, cpu_seconds(server.pid) - cpu
        stop.set()
        for poller in pollers:
            poller.join()
    finally:
        server.terminate()
        server.wait()

    def p95(xs: list[float]) -> float:
        return sorted(xs)[int(0.95 * (len(xs) - 1))]

    return {
        "idle p50": statistics.median(idle),
        "loaded p50": statistics.median(loaded),
        "loaded p95": p95(loaded),
        "ratio p50": statistics.median(loaded) / statistics.median(idle),
        "move p50 idle": statistics.median(idle_moves),
        "move p50": statistics.median(at_once[0]),
        "move p95": p95(at_once[0]),
        "move max": max(at_once[0]),
        "bot moves/s": moved / elapsed,
        "server CPU/s": cpu / elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    print(f"{args.tables} tables of two strong bots (extended game), each polled every 0.5 s; one server process")
    print("another game's reads, and the moves at a table of two people, in ms")
    print(
        f"{'bots':16} {'read idle p50':>13} {'loaded p50':>10} {'p95':>6} {'ratio':>6}"
        f" {'move idle p50':>13} {'loaded p50':>10} {'p95':>6} {'max':>6} {'bot moves/s':>11} {'CPU/s':>6}"
    )
    settings = (
        ("no share", "before"),
        ("moves waited", "waited"),
        (f"share {service.BOT_SHARE}", "now"),
        ("no bots", "nobots"),
    )
    for label, setting in settings:
        r = run(setting, args.tables, args.seconds)
        print(
            f"{label:16} {r['idle p50'] * 1000:13.1f} {r['loaded p50'] * 1000:10.1f} {r['loaded p95'] * 1000:6.0f}"
            f" {r['ratio p50']:6.1f} {r['move p50 idle'] * 1000:13.1f} {r['move p50'] * 1000:10.1f}"
            f" {r['move p95'] * 1000:6.0f} {r['move max'] * 1000:6.0f} {r['bot moves/s']:11.1f} {r['server CPU/s']:6.2f}"
        )


if __name__ == "__main__":
    main()
