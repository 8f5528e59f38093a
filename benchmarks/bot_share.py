"""Tables of bots only, each polled as its page polls, against everyone else's requests on one server process.

A client may start many virtual tables whose every seat is a bot (each one creation, within the
create budget) and then poll them: every look lets the bots think for up to 0.2 s of CPU. Before
the bots of a process thought one request at a time, within half of one processor
(``service.BOT_SHARE``), such tables kept the server process busy and another game's cheap reads
waited behind them. This starts the same server three times, side by side: as it was before, as
it is now, and with no bot thinking at all (the cost of the polls alone), and prints for each: the
median and p95 time of another game's reads, idle and while the tables are polled every 0.5 s (as
a seat's page polls while bots think), their ratio, the bots' moves per second and the server's
CPU time per second.

    python benchmarks/bot_share.py --tables 12 --seconds 20

Measured (2 cores, under other load): before 264 ms median read (40× idle), p95 715 ms, 7.6
moves/s, 0.92 s of CPU a second; now 32 ms (4.9×), p95 92 ms, 3.6 moves/s, 0.68 s; no bots
6.5 ms, 0.14 s.
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
        idle = reads(base, game, 3)
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
        moves, cpu, started = sum(seqs), cpu_seconds(server.pid), time.monotonic()
        loaded = reads(base, game, seconds)
        elapsed = time.monotonic() - started
        moves, cpu = sum(seqs) - moves, cpu_seconds(server.pid) - cpu
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
        "bot moves/s": moves / elapsed,
        "server CPU/s": cpu / elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    print(f"{args.tables} tables of two strong bots (extended game), each polled every 0.5 s; one server process")
    print(
        f"{'bots':12} {'read ms idle p50':>16} {'loaded p50':>10} {'p95':>7} {'ratio':>6} {'moves/s':>8} {'CPU/s':>6}"
    )
    for label, setting in (("before", "before"), (f"share {service.BOT_SHARE}", "now"), ("no bots", "nobots")):
        r = run(setting, args.tables, args.seconds)
        print(
            f"{label:12} {r['idle p50'] * 1000:16.1f} {r['loaded p50'] * 1000:10.1f} {r['loaded p95'] * 1000:7.1f}"
            f" {r['ratio p50']:6.1f} {r['bot moves/s']:8.1f} {r['server CPU/s']:6.2f}"
        )


if __name__ == "__main__":
    main()
