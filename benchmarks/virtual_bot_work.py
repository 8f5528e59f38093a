"""The longest time one request spends on bot work at a virtual table (issue: bounded work per request).

Bots move for at most ``BOT_BUDGET_SECONDS`` per request (plus the move under way); the next
request or poll continues. This plays whole games through the JSON API, in-process, and times
every request, and separately the bot work inside it (``service._advance``):

- ``all-bots``: a table of two strong bots with the extended schedule (R9: 51 hands of up to 26
  cards), watched by the host's polls — before the budget this was one ~50 s request;
- ``4-seats``, ``6-seats``, ``8-seats``, ``15-seats``: one person (random legal moves) and three
  strong, five basic, seven strong and fourteen strong bots.

Each scenario runs twice, side by side: with the budget as it is (``BOT_BUDGET_SECONDS`` of the
bots' CPU time, ``BOT_WAIT_SECONDS`` by the clock, the move floor for strong bots only) and as it
was before (``BOT_BUDGET_SECONDS`` by the clock, floors included, for basic bots too). Besides
the times it prints how many of the person's moves were answered at their next turn or the end
of the game ("caught up": API.md, a seat's answer reflects every bot move up to the next human
turn); the others said ``bots_thinking`` and the screen's next poll went on.

    python benchmarks/virtual_bot_work.py                 # SQLite file in a temp folder
    python benchmarks/virtual_bot_work.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/bench

Prints, per scenario, requests, p50 / p95 / p100 of the request time, of the bot work in one
request (wall clock) and of its CPU time, side by side with the budget. The goal: p100 of bot
work per request under 1 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.virtual import service  # noqa: E402

BOT_WORK: list[float] = []
BOT_CPU: list[float] = []


def timed_advance(original: Callable[..., bool]) -> Callable[..., bool]:
    """``service._advance`` with a stopwatch (wall clock) and the CPU time it used: one request's bot work.

    On a machine shared with other work the wall clock also counts time spent waiting for a CPU;
    the CPU time is the work itself.
    """

    def advance(*args: Any, bots: bool = True) -> bool:
        if not bots:  # a move recorded and dealt, the bots not yet moved
            return original(*args, bots=False)
        started, cpu = time.perf_counter(), time.process_time()
        try:
            return original(*args)
        finally:
            BOT_WORK.append(time.perf_counter() - started)
            BOT_CPU.append(time.process_time() - cpu)

    return advance


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"{statistics.median(ordered) * 1000:7.1f} {p95 * 1000:7.1f} {ordered[-1] * 1000:7.1f}"


def play(
    app: Any, seats: list[dict[str, Any]], options: dict[str, bool], seed: int, max_hands: int
) -> tuple[list[float], list[float], list[float], list[bool]]:
    """One game (or its first ``max_hands`` hands): every request's time, each request's bot work,
    and for each of the person's moves whether its answer came back at their next turn."""
    client = app.test_client()
    rng = random.Random(seed)
    requests: list[float] = []
    caught_up: list[bool] = []
    BOT_WORK.clear()
    BOT_CPU.clear()
    started = time.perf_counter()
    answer = client.post("/api/tables", json={"seats": seats, "options": options, "seed": seed})
    requests.append(time.perf_counter() - started)
    assert answer.status_code == 201, answer.get_json()
    created = answer.get_json()
    token = created["seats"][0]["token"] if created["seats"] else created["host_token"]
    headers = {"Authorization": f"Bearer {token}"}
    view = created["view"]
    while view["phase"] != "finished" and view["hand_number"] <= max_hands:
        started = time.perf_counter()
        if view.get("your_turn"):
            kind = "bid" if view["phase"] == "bidding" else "card"
            path = "bid" if kind == "bid" else "play"
            answer = client.post(
                f"/api/tables/{created['id']}/{path}", json={kind: rng.choice(view["legal"])}, headers=headers
            )
        else:  # the bots' turn: the screen polls, and each poll lets them move for one budget
            answer = client.get(f"/api/tables/{created['id']}/view", headers=headers)
        requests.append(time.perf_counter() - started)
        assert answer.status_code == 200, answer.get_json()
        moved = view.get("your_turn") and created["seats"]
        view = answer.get_json()
        if moved:
            caught_up.append(bool(view.get("your_turn")) or view["phase"] == "finished")
    return requests, list(BOT_WORK), list(BOT_CPU), caught_up


#: The budget as it was: by the clock, move floors included, for basic bots too.
BEFORE = {"work_clock": time.monotonic, "BOT_WAIT_SECONDS": 0.2, "FLOORED_LEVELS": frozenset({"basic", "strong"})}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="SQLAlchemy URL (default: a new SQLite file)")
    parser.add_argument("--hands", type=int, default=6, help="hands of the all-bot game to watch (default 6)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bluke-bench-")
    url = args.database_url or f"sqlite:///{folder}/bench.sqlite"
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "bench",
            "ALLOW_SEED": True,
            "RATELIMIT_ENABLED": False,
            "INSTANCE_PATH": folder,
        }
    )
    service._advance = timed_advance(service._advance)  # type: ignore[method-assign]
    strong = {"bot": "strong"}
    scenarios = [
        (
            "all-bots (2 strong, extended)",
            [{"name": "A", **strong}, {"name": "B", **strong}],
            {"extended": True},
            args.hands,
        ),
        ("4-seats (3 strong bots)", [{"name": "Ann"}] + [{"name": f"S{i}", **strong} for i in range(3)], {}, 4),
        ("6-seats (5 basic bots)", [{"name": "Ann"}] + [{"name": f"B{i}", "bot": "basic"} for i in range(5)], {}, 99),
        ("8-seats (7 strong bots)", [{"name": "Ann"}] + [{"name": f"S{i}", **strong} for i in range(7)], {}, 99),
        ("15-seats (14 strong bots)", [{"name": "Ann"}] + [{"name": f"S{i}", **strong} for i in range(14)], {}, 99),
    ]
    now = {name: getattr(service, name) for name in BEFORE}
    with app.app_context():
        db.drop_all()
        db.create_all()
        print(
            f"budget per request: {service.BOT_BUDGET_SECONDS * 1000:.0f} ms of bot moves (+ the move under way);"
            f" now of their CPU time and at most {service.BOT_WAIT_SECONDS * 1000:.0f} ms by the clock"
        )
        print(
            f"{'scenario':30} {'budget':7} {'requests':>8}  request ms p50/p95/p100  bot work ms p50/p95/p100"
            "  bot CPU ms p50/p95/p100  caught up"
        )
        for name, seats, options, hands in scenarios:
            for setting, values in (("before", BEFORE), ("now", now)):
                for key, value in values.items():
                    setattr(service, key, value)
                requests, work, cpu, caught = play(app, seats, options, args.seed, hands)
                share = f"{sum(caught)}/{len(caught)}" if caught else "-"
                print(
                    f"{name:30} {setting:7} {len(requests):8}  {percentiles(requests)}  {percentiles(work)}"
                    f"  {percentiles(cpu)}  {share}"
                )
        db.session.remove()
        db.engine.dispose()


if __name__ == "__main__":
    main()
