#!/usr/bin/env python3
"""Load benchmark of table scorekeeping: gunicorn with 2 workers, on SQLite and on PostgreSQL.

For each backend in turn (same run, printed side by side at the end):

1. a fresh database: a new SQLite file, or a PostgreSQL database created for the run
   (``scorekeeper_bench``, dropped again afterwards);
2. ``flask --app scorekeeper db upgrade``;
3. ``gunicorn`` with 2 workers on 127.0.0.1 and a free port: ``sync`` workers by default
   (``--worker-class gthread`` for 4 threads per worker);
4. for ``--duration`` seconds (default 60):

   * **1 scorer** records hands as a quick person would: one write every ``--write-interval``
     seconds (default 0.5 s), bids then tricks, valid random values, with the document's
     ``version`` (so a lost update would show as a 409 error). When a game finishes, it starts
     the next one, cycling through 3, 6 and 15 players (25, 15 and 5 hands);
   * **20 watchers** each poll the scorer's current game once per second (``--poll-interval``),
     by default with the full document, ``GET /api/games/<id>`` (``--watch-mode document``); with
     ``--watch-mode version`` they poll ``GET /api/games/<id>/version`` and fetch the document
     only when the version changed.

Every request is timed on the client (``requests``, one session per client thread), from sending
to the last byte of the answer; gunicorn's access log gives the server's own share (``%(D)s``).
Any answer other than the expected 200/201, and any exception, counts as an error. Traffic goes to
127.0.0.1 only; the run stops by itself. The 1-minute load average is printed because the machine
(2 cores) may be shared with other jobs, whose CPU use shows up directly in the tail latencies.

    .venv/bin/python benchmarks/web_load.py                  # both backends, 60 s each
    .venv/bin/python benchmarks/web_load.py --duration 10 --backends sqlite

**Capacity mode** (``--capacity 10,20,40``) answers "how many live tables does one box hold?": the
server runs as ``make serve`` runs it (``deploy/gunicorn.conf.py``: gthread workers, rate limits
off for the load's single client address), and for each number of tables in turn, each table has
**1 scorer** writing every ``--write-interval`` seconds (default 2 s here) and **5 watchers**, each
a phone on the watch page: it opens the watch link once per game, then polls the page as htmx does
once per ``--poll-interval`` (``GET /g/<id>?since=<version>``: 204 until the game changes, then the
live part of the page). A level passes when every request kind has p99 < 100 ms and nothing failed;
the run stops at the first level that fails and prints the largest that passed.

    .venv/bin/python benchmarks/web_load.py --capacity 10,20,40,60 --backends postgresql --duration 30
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parent.parent
PLAYER_COUNTS = (3, 6, 15)
TRUMPS = ("S", "H", "D", "C", None)
BENCH_DB = "scorekeeper_bench"
TARGET_P99_MS = 100.0


# -- measurements --------------------------------------------------------------------------------
@dataclass
class Timings:
    """Latencies (ms) and errors per request kind, shared by all client threads."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    server: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))  # gunicorn's own time
    load: tuple[float, float] = (0.0, 0.0)  # 1-minute load average before and after
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    samples: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def call(
        self, kind: str, session: requests.Session, method: str, url: str, expect: int | tuple[int, ...], **kwargs: Any
    ) -> Any:
        """One timed request; returns the decoded JSON answer (or the response), ``None`` after an error."""
        started = time.perf_counter()
        expected = expect if isinstance(expect, tuple) else (expect,)
        try:
            response = session.request(method, url, timeout=10, **kwargs)
            elapsed = (time.perf_counter() - started) * 1000
            ok = response.status_code in expected
            data = (
                (response.json() if response.headers.get("Content-Type") == "application/json" else response)
                if ok
                else None
            )
            problem = "" if ok else f"{kind}: HTTP {response.status_code} {response.text[:200]}"
        except (requests.RequestException, ValueError) as error:
            elapsed, data, ok = (time.perf_counter() - started) * 1000, None, False
            problem = f"{kind}: {error!r}"
        with self.lock:
            self.latencies[kind].append(elapsed)
            if not ok:
                self.errors[kind] += 1
                if len(self.samples) < 5:
                    self.samples.append(problem)
        return data


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)] if ordered else float("nan")


# -- the clients ---------------------------------------------------------------------------------
@dataclass
class Current:
    """The game the scorer is recording, for the watchers to follow."""

    game_id: str | None = None
    watch_token: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def set(self, game_id: str, watch_token: str) -> None:
        with self.lock:
            self.game_id, self.watch_token = game_id, watch_token

    def get(self) -> tuple[str | None, str | None]:
        with self.lock:
            return self.game_id, self.watch_token


def scorer(
    base: str, timings: Timings, current: Current, stop: float, interval: float, seed: int, delay: float = 0.0
) -> None:
    """Record hand after hand, one write per ``interval`` seconds, starting new games as needed."""
    rng = random.Random(seed)
    session = requests.Session()
    next_at = time.monotonic() + delay
    if delay:
        time.sleep(delay)
    games = 0

    def tick() -> bool:
        nonlocal next_at
        next_at += interval
        pause = next_at - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        return time.monotonic() < stop

    while time.monotonic() < stop:
        players = PLAYER_COUNTS[games % len(PLAYER_COUNTS)]
        games += 1
        doc = timings.call(
            "create game",
            session,
            "POST",
            f"{base}/api/games",
            201,
            json={"players": [f"Player {i + 1}" for i in range(players)], "first_dealer": rng.randrange(players)},
        )
        if doc is None or not tick():
            continue
        game_id, headers = doc["id"], {"Authorization": f"Bearer {doc['scorer_token']}"}
        current.set(game_id, doc["watch_token"])
        version = doc["version"]
        for number, cards in enumerate(doc["schedule"], start=1):
            bids = [rng.randint(1, cards) for _ in range(players)]
            trump = rng.choice(TRUMPS) if cards * players < 54 else None
            answer = timings.call(
                "put bids",
                session,
                "PUT",
                f"{base}/api/games/{game_id}/hands/{number}/bids",
                200,
                json={"bids": bids, "trump": trump, "version": version},
                headers=headers,
            )
            if answer is None or not tick():
                break
            version = answer["version"]
            tricks = [0] * players
            for _ in range(cards):
                tricks[rng.randrange(players)] += 1
            answer = timings.call(
                "put tricks",
                session,
                "PUT",
                f"{base}/api/games/{game_id}/hands/{number}/tricks",
                200,
                json={"tricks": tricks, "version": version},
                headers=headers,
            )
            if answer is None or not tick():
                break
            version = answer["version"]
            if number == len(doc["schedule"]) and answer["status"] != "finished":
                timings.errors["game not finished"] += 1
    session.close()


def beats(stop: float, interval: float, offset: float) -> Iterator[None]:
    """One beat every ``interval`` seconds from ``offset`` on, until the ``stop`` time."""
    next_at = time.monotonic() + offset
    while True:
        pause = next_at - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        if time.monotonic() >= stop:
            return
        next_at += interval
        yield


def page_watcher(base: str, timings: Timings, current: Current, stop: float, interval: float, offset: float) -> None:
    """A phone on the watch page: opens the watch link once per game, then polls as htmx does."""
    session = requests.Session()
    joined: str | None = None
    version = 0
    for _ in beats(stop, interval, offset):
        game_id, token = current.get()
        if game_id is None:
            continue
        if joined != game_id:
            if (
                timings.call(
                    "watch: join", session, "GET", f"{base}/g/{game_id}/join/{token}", 302, allow_redirects=False
                )
                is None
            ):
                continue
            joined, version = game_id, 0
        answer = timings.call(
            "watch: poll",
            session,
            "GET",
            f"{base}/g/{game_id}?since={version}",
            (200, 204),
            headers={"HX-Request": "true"},
        )
        if answer is not None and answer.status_code == 200:
            found = re.search(r'data-version="(\d+)"', answer.text)
            version = int(found.group(1)) if found else version
    session.close()


def watcher(
    base: str, timings: Timings, current: Current, stop: float, interval: float, offset: float, mode: str
) -> None:
    """Poll the current game once per ``interval``: the document, or the version and then the document."""
    session = requests.Session()
    seen: tuple[str | None, int | None] = (None, None)
    for _ in beats(stop, interval, offset):
        game_id, token = current.get()
        if game_id is None:
            continue
        headers = {"Authorization": f"Bearer {token}"}
        if mode == "version":
            answer = timings.call(
                "watch: version", session, "GET", f"{base}/api/games/{game_id}/version", 200, headers=headers
            )
            if answer is None or seen == (game_id, answer["version"]):
                continue
            seen = (game_id, answer["version"])
        timings.call("watch: document", session, "GET", f"{base}/api/games/{game_id}", 200, headers=headers)
    session.close()


def run_tables(base: str, args: argparse.Namespace, tables: int) -> Timings:
    """Capacity mode: ``tables`` live tables, each 1 scorer and 5 watchers on the watch page."""
    timings = Timings()
    before = os.getloadavg()[0]
    stop = time.monotonic() + args.duration
    threads = []
    for table in range(tables):
        current = Current()
        start = args.write_interval * table / tables  # the tables' writes spread over the interval
        threads.append(
            threading.Thread(
                target=scorer, args=(base, timings, current, stop, args.write_interval, args.seed + table, start)
            )
        )
        threads += [
            threading.Thread(
                target=page_watcher,
                args=(base, timings, current, stop, args.poll_interval, args.poll_interval * (table + i / 5) / tables),
            )
            for i in range(5)
        ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=args.duration + 30)
    timings.load = (before, os.getloadavg()[0])
    return timings


def run_load(base: str, args: argparse.Namespace) -> Timings:
    timings, current = Timings(), Current()
    before = os.getloadavg()[0]
    stop = time.monotonic() + args.duration
    threads = [threading.Thread(target=scorer, args=(base, timings, current, stop, args.write_interval, args.seed))]
    threads += [
        threading.Thread(
            target=watcher,
            args=(
                base,
                timings,
                current,
                stop,
                args.poll_interval,
                args.poll_interval * i / args.watchers,
                args.watch_mode,
            ),
        )
        for i in range(args.watchers)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=args.duration + 30)
    timings.load = (before, os.getloadavg()[0])
    return timings


def server_kind(method: str, path: str) -> str:
    """The request kind of an access-log line (same names as the client's)."""
    if path.startswith("/g/"):
        return "watch: join" if "/join/" in path else "watch: poll"
    if method == "POST":
        return "create game"
    if path.endswith("/bids"):
        return "put bids"
    if path.endswith("/tricks"):
        return "put tricks"
    return "watch: version" if path.endswith("/version") else "watch: document"


def read_access_log(path: Path, timings: Timings) -> None:
    """Gunicorn's own time per request (``%(D)s``, microseconds): the server's share of the latency."""
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] in ("GET", "PUT", "POST") and parts[1].startswith(("/api/games", "/g/")):
            if parts[1].endswith("0" * 16 + "/version"):
                continue  # the readiness probe
            timings.server[server_kind(parts[0], parts[1])].append(int(parts[3]) / 1000)


# -- the server ----------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def postgres_database(admin_url: str) -> Iterator[str]:
    """A fresh database for the run on the local server, dropped afterwards."""
    import psycopg

    def execute(sql: str) -> None:
        with psycopg.connect(admin_url, autocommit=True) as connection:
            connection.execute(sql)  # type: ignore[arg-type]

    execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
    execute(f"CREATE DATABASE {BENCH_DB}")
    try:
        yield "postgresql+psycopg://" + admin_url.split("://", 1)[1].rsplit("/", 1)[0] + f"/{BENCH_DB}"
    finally:
        execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")


@contextmanager
def server(url: str, workdir: Path, args: argparse.Namespace) -> Iterator[str]:
    """Migrate the database, start gunicorn on loopback, yield its base URL, stop it."""
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": url,
        "SCOREKEEPER_SECRET_KEY": secrets.token_hex(32),
        "SCOREKEEPER_INSTANCE_PATH": str(workdir / "instance"),
    }
    env.pop("SCOREKEEPER_ALLOW_SEED", None)
    subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    port = free_port()
    log = (workdir / "gunicorn.log").open("w")
    if args.capacity:  # as `make serve` runs it; one client address makes every game: no creation limit
        env.update(
            SCOREKEEPER_WORKERS="2",
            SCOREKEEPER_THREADS=str(args.threads),
            SCOREKEEPER_RATELIMIT_CREATE="100000 per minute",
        )
        workers = ["--config", str(ROOT / "deploy" / "gunicorn.conf.py")]
    else:
        workers = [
            "--workers",
            "2",
            "--worker-class",
            args.worker_class,
            # gunicorn quietly turns "sync" with threads > 1 into gthread: pass 1 for a real sync worker.
            "--threads",
            str(args.threads if args.worker_class == "gthread" else 1),
        ]
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            *workers,
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            "--access-logfile",
            str(workdir / "access.log"),
            "--access-logformat",
            "%(m)s %(U)s %(s)s %(D)s",
            "scorekeeper:create_app()",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if requests.get(f"{base}/api/games/{'0' * 16}/version", timeout=5).status_code == 404:
                    break
            except requests.RequestException:
                pass  # workers still starting
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start:\n{(workdir / 'gunicorn.log').read_text()}")
            time.sleep(0.1)
        yield base
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        problems = [
            line
            for line in (workdir / "gunicorn.log").read_text().splitlines()
            if "error" in line.lower() or "traceback" in line.lower()
        ]
        if problems:
            print("gunicorn log:", *problems[:20], sep="\n  ", file=sys.stderr)


def wait_for_quiet(args: argparse.Namespace) -> None:
    """Give other jobs on a shared machine a bounded chance to finish before measuring."""
    deadline = time.monotonic() + args.quiet_wait
    while args.quiet_load and os.getloadavg()[0] >= args.quiet_load and time.monotonic() < deadline:
        time.sleep(5)


@contextmanager
def served(backend: str, args: argparse.Namespace) -> Iterator[tuple[str, Path]]:
    """A fresh database of ``backend`` and gunicorn on it: its base URL and working folder."""
    with tempfile.TemporaryDirectory(prefix=f"bluke-{backend}-") as tmp:
        workdir = Path(tmp)
        if backend == "sqlite":
            with server(f"sqlite:///{workdir / 'bench.sqlite'}", workdir, args) as base:
                yield base, workdir
        else:
            with postgres_database(args.postgres_admin_url) as url, server(url, workdir, args) as base:
                yield base, workdir


def bench(backend: str, args: argparse.Namespace) -> Timings:
    wait_for_quiet(args)
    with served(backend, args) as (base, workdir):
        timings = run_load(base, args)
        read_access_log(workdir / "access.log", timings)  # before the working folder goes
    return timings


def capacity(backend: str, args: argparse.Namespace) -> dict[int, Timings]:
    """Each number of tables in turn on one server, until a level misses the target."""
    levels: dict[int, Timings] = {}
    with served(backend, args) as (base, workdir):
        for tables in args.capacity:
            wait_for_quiet(args)
            print(f"  {tables} tables for {args.duration:g} s …", file=sys.stderr, flush=True)
            log = workdir / "access.log"
            mark = log.stat().st_size if log.exists() else 0
            timings = levels[tables] = run_tables(base, args, tables)
            tail = workdir / "level.log"
            with log.open("rb") as whole:
                whole.seek(mark)
                tail.write_bytes(whole.read())
            read_access_log(tail, timings)
            if not passes(timings):
                break
    return levels


def passes(timings: Timings) -> bool:
    """Every request kind has p99 under the target, and nothing failed."""
    return (
        not sum(timings.errors.values())
        and bool(timings.latencies)
        and all(percentile(vs, 99) < TARGET_P99_MS for vs in timings.latencies.values())
    )


CAPACITY_KINDS = ("put bids", "put tricks", "create game", "watch: join", "watch: poll")


def capacity_report(results: dict[str, dict[int, Timings]], args: argparse.Namespace) -> bool:
    print(
        f"Bluke Scorekeeper capacity: gunicorn as `make serve` runs it (deploy/gunicorn.conf.py: 2 gthread "
        f"workers x {args.threads} threads), 127.0.0.1, {args.duration:g} s per level"
    )
    print(
        f"  each table: 1 scorer writing every {args.write_interval:g} s (bids, then tricks, with version), "
        f"5 watchers polling the watch page every {args.poll_interval:g} s (htmx: ?since=<version>)"
    )
    print(
        f"  pass: p99 < {TARGET_P99_MS:g} ms for every request kind and 0 errors; client latency, "
        "request to last byte (client and server share the machine)"
    )
    passed_any = True
    for backend, levels in results.items():
        print()
        print(
            f"{backend}: tables | req/s | "
            + " | ".join(f"{k} p50/p99" for k in CAPACITY_KINDS)
            + " | err | load | verdict"
        )
        best = 0
        for tables, timings in levels.items():
            count = sum(len(v) for v in timings.latencies.values())
            cells = []
            for kind in CAPACITY_KINDS:
                values = timings.latencies.get(kind, [])
                cells.append(f"{percentile(values, 50):.1f}/{percentile(values, 99):.1f}" if values else "-")
            ok = passes(timings)
            best = tables if ok else best
            print(
                f"  {tables:>5} | {count / args.duration:>5.0f} | "
                + " | ".join(cells)
                + f" | {sum(timings.errors.values())} | {timings.load[0]:.1f}->{timings.load[1]:.1f}"
                + f" | {'PASS' if ok else 'FAIL'}"
            )
            for sample in timings.samples:
                print(f"      error: {sample}")
        server = {kind: percentile(vs, 99) for kind, vs in levels[max(levels)].server.items()}
        print(
            f"  server's own p99 at {max(levels)} tables (ms): "
            + ", ".join(f"{kind} {value:.1f}" for kind, value in server.items())
        )
        print(f"  {backend}: holds {best} live tables" + (" (every level passed)" if best == max(levels) else ""))
        passed_any &= best > 0
    return passed_any


# -- the report ----------------------------------------------------------------------------------
KINDS = ("create game", "put bids", "put tricks", "watch: version", "watch: document")


def report(results: dict[str, Timings], args: argparse.Namespace) -> bool:
    backends = list(results)
    polled = (
        "GET /api/games/<id>/version, then GET /api/games/<id> when the version changed"
        if args.watch_mode == "version"
        else "GET /api/games/<id> (the full document)"
    )
    workers = f"2 gthread workers x {args.threads} threads" if args.worker_class == "gthread" else "2 sync workers"
    print(f"Bluke Scorekeeper web load: gunicorn, {workers}, 127.0.0.1, {args.duration:g} s per backend")
    print(
        f"  scorer:   1 client, one write every {args.write_interval:g} s (bids, then tricks, with version; "
        f"new game of {'/'.join(map(str, PLAYER_COUNTS))} players when one finishes)"
    )
    print(f"  watchers: {args.watchers} clients, each every {args.poll_interval:g} s: {polled}")
    print("  latency in ms, measured by the client from request to last byte; p50/p99 nearest rank")
    print(
        "  machine load (1-min average, 2 cores) before -> after: "
        + ", ".join(f"{b} {t.load[0]:.1f} -> {t.load[1]:.1f}" for b, t in results.items())
    )
    print()
    width = 38
    print(f"{'request':<17}" + "".join(f"| {b:^{width - 2}} " for b in backends))
    print(f"{'':<17}" + "".join(f"| {'n':>6} {'p50':>7} {'p99':>7} {'max':>7} {'err':>4} " for _ in backends))
    print("-" * (17 + (width + 1) * len(backends)))
    kinds = [k for k in KINDS if any(k in r.latencies for r in results.values())]
    for kind in [*kinds, "all"]:
        row = f"{kind:<17}"
        for backend in backends:
            timings = results[backend]
            values = [v for vs in timings.latencies.values() for v in vs] if kind == "all" else timings.latencies[kind]
            errors = sum(timings.errors.values()) if kind == "all" else timings.errors[kind]
            row += (
                f"| {len(values):>6} {percentile(values, 50):>7.1f} {percentile(values, 99):>7.1f} "
                f"{max(values, default=float('nan')):>7.1f} {errors:>4} "
            )
        print(row)
    print()
    print("server's own time (gunicorn access log %(D)s, ms):")
    for kind in kinds:
        row = f"{kind:<17}"
        for backend in backends:
            values = results[backend].server[kind]
            row += (
                f"| {len(values):>6} {percentile(values, 50):>7.1f} {percentile(values, 99):>7.1f} "
                f"{max(values, default=float('nan')):>7.1f} {'':>4} "
            )
        print(row)
    print()
    verdicts, passed = [], True
    for backend, timings in results.items():
        values = [v for vs in timings.latencies.values() for v in vs]
        errors = sum(timings.errors.values())
        ok = (
            errors == 0
            and bool(values)
            and all(percentile(vs, 99) < TARGET_P99_MS for vs in timings.latencies.values())
        )
        passed &= ok
        verdicts.append(f"{backend} {'PASS' if ok else 'FAIL'} ({len(values) / args.duration:.1f} requests/s)")
        for sample in timings.samples:
            print(f"  {backend} error: {sample}")
    print(f"target p99 < {TARGET_P99_MS:g} ms for every request kind and 0 errors: " + ", ".join(verdicts))
    return passed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of load per backend (default 60)")
    parser.add_argument("--backends", default="sqlite,postgresql", help="comma-separated: sqlite, postgresql")
    parser.add_argument("--watchers", type=int, default=20)
    parser.add_argument("--write-interval", type=float, default=0.5, help="seconds between the scorer's writes")
    parser.add_argument("--poll-interval", type=float, default=1.0, help="seconds between a watcher's polls")
    parser.add_argument("--watch-mode", choices=("document", "version"), default="document")
    parser.add_argument(
        "--worker-class",
        choices=("sync", "gthread"),
        default="sync",
        help="gunicorn worker class (default sync: one request at a time per process, no GIL "
        "contention between a worker's threads)",
    )
    parser.add_argument(
        "--quiet-load",
        type=float,
        default=0.0,
        help="before each backend, wait (at most --quiet-wait s) until the 1-minute load average "
        "is below this; 0 (default) does not wait. The machine may be shared.",
    )
    parser.add_argument("--quiet-wait", type=float, default=120.0)
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker (gthread)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the scorer's random bids and tricks")
    parser.add_argument(
        "--postgres-admin-url",
        default="postgresql://postgres@127.0.0.1:5432/postgres",
        help="server on which the benchmark database is created and dropped",
    )
    parser.add_argument(
        "--capacity",
        default="",
        help="capacity mode: comma-separated numbers of live tables to try in turn, e.g. 10,20,40",
    )
    args = parser.parse_args()
    if not 0 < args.duration <= 3600:
        parser.error("--duration must be between 0 and 3600 seconds")
    if args.capacity:
        try:
            args.capacity = sorted({int(n) for n in args.capacity.split(",") if n.strip()})
        except ValueError:
            parser.error("--capacity takes numbers of tables, such as 10,20,40")
        if not args.capacity or min(args.capacity) < 1 or max(args.capacity) > 500:
            parser.error("--capacity takes numbers of tables from 1 to 500")
        if "--write-interval" not in sys.argv:
            args.write_interval = 2.0
        if "--threads" not in sys.argv:
            args.threads = 8
        tables = {}
        for backend in [b.strip() for b in args.backends.split(",") if b.strip()]:
            print(f"capacity of {backend} …", file=sys.stderr, flush=True)
            tables[backend] = capacity(backend, args)
        return 0 if capacity_report(tables, args) else 1
    results = {}
    for backend in [b.strip() for b in args.backends.split(",") if b.strip()]:
        if backend not in ("sqlite", "postgresql"):
            parser.error(f"unknown backend {backend!r}")
        print(f"running {backend} for {args.duration:g} s …", file=sys.stderr, flush=True)
        results[backend] = bench(backend, args)
    return 0 if report(results, args) else 1


if __name__ == "__main__":
    sys.exit(main())
