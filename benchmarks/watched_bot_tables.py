"""Watched tables of bots against a scorer's writes, on one server (SQLite by default).

Six tables of eight strong bots, each polled without pause by a watcher, while a scorer records
bids in another game every 0.1 s: how long the scorer's writes take and how many fail, and how
the polls fare. Before bots thought outside the table's lock, each look held SQLite's one write
lock for up to 0.2 s, and the scorer's writes waited past the 5 s busy timeout (500).

    python benchmarks/watched_bot_tables.py http://127.0.0.1:5000

against a server started with ``SCOREKEEPER_RATELIMIT_CREATE="1000 per minute"`` and threads
(``flask --app scorekeeper run --with-threads`` or ``make serve``).
"""

from __future__ import annotations

import collections
import statistics
import sys
import threading
import time

import requests


def main(base: str, tables: int = 6, writes: int = 40) -> None:
    made = [
        requests.post(f"{base}/api/tables", json={"seats": [{"name": f"R{i}", "bot": "strong"} for i in range(8)]})
        for _ in range(tables)
    ]
    boards = [answer.json() for answer in made if answer.status_code == 201]
    assert len(boards) == tables, [answer.text for answer in made]
    stop = threading.Event()
    polls: collections.Counter[int] = collections.Counter()
    poll_times: list[float] = []

    def watch(board: dict[str, str]) -> None:
        headers = {"Authorization": f"Bearer {board['host_token']}"}
        while not stop.is_set():
            start = time.perf_counter()
            answer = requests.get(f"{base}/api/tables/{board['id']}/view", headers=headers)
            poll_times.append(time.perf_counter() - start)
            polls[answer.status_code] += 1

    game = requests.post(f"{base}/api/games", json={"players": ["A", "B", "C"]}).json()
    scorer = {"Authorization": f"Bearer {game['scorer_token']}"}
    watchers = [threading.Thread(target=watch, args=(board,), daemon=True) for board in boards]
    for watcher in watchers:
        watcher.start()
    time.sleep(1)
    codes: collections.Counter[int] = collections.Counter()
    times: list[float] = []
    try:
        for i in range(writes):
            start = time.perf_counter()
            answer = requests.put(
                f"{base}/api/games/{game['id']}/hands/1/bids", headers=scorer, json={"bids": [1 + i % 2, 1, 1]}
            )
            times.append(time.perf_counter() - start)
            codes[answer.status_code] += 1
            time.sleep(0.1)
    finally:
        stop.set()
        for watcher in watchers:
            watcher.join()
    print(f"scorer writes: {dict(codes)}, median {statistics.median(times):.3f} s, max {max(times):.2f} s")
    print(f"watchers' looks: {dict(polls)}, median {statistics.median(poll_times):.3f} s, max {max(poll_times):.2f} s")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:5000")
