#!/usr/bin/env python3
"""What a phone or a group with many games costs the server, side by side in one run.

1. The home page of a phone holding ``--games`` game cookies (the most it lists from, 100) against
   one holding 10: only the 30 newest are scored and drawn, so the page should cost far less than
   ten times as much.
2. A group's ``export.json`` of ``--group-games`` games of 15 players, with no corrections and
   with ``--corrections`` corrections in each (500 is the most a game keeps): the corrections are
   read as plain rows and the file is written game by game to a temporary file, then sent.

Every request goes through the app in this process (Flask's test client, SQLite in a temporary
folder), so the figure is the server's whole work for it: CPU time of this process, the median of
``--repeat`` requests. Ratios are printed, not only times: the machine (2 cores) may be shared.

    .venv/bin/python benchmarks/many_games.py
    .venv/bin/python benchmarks/many_games.py --games 100 --group-games 40 --corrections 500
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402

SCHEDULE = list(range(13, 0, -1)) + list(range(2, 14))  # R7, four players


def game_file(rng: random.Random, names: list[str], hands: list[int], corrections: int) -> dict[str, Any]:
    """An importable export.json: legal random bids and tricks (R13, R23), and ``corrections``
    recorded changes of hand 1's tricks."""
    played = []
    for number, cards in enumerate(hands, start=1):
        cuts = sorted(rng.randint(0, cards) for _ in range(len(names) - 1))
        tricks = [b - a for a, b in zip([0, *cuts], [*cuts, cards], strict=True)]
        played.append({"number": number, "bids": [rng.randint(1, cards) for _ in names], "tricks": tricks})
    first = played[0]["tricks"]
    changed = first[1:] + first[:1]
    return {
        "format": "bluke-scorekeeper",
        "format_version": 1,
        "variant": "standard",
        "first_dealer": 0,
        "players": [{"seat": i, "name": n} for i, n in enumerate(names)],
        "hands": played,
        "corrections": [
            {
                "at": "2026-12-05T02:30:00Z",
                "hand": 1,
                "field": "tricks",
                "old": changed if k % 2 else first,
                "new": first if k % 2 else changed,
            }
            for k in range(corrections)
        ],
    }


def cpu_ms(call: Any, repeat: int) -> float:
    call()  # warm: templates compiled, connections pooled
    times = []
    for _ in range(repeat):
        start = time.process_time()
        call()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--group-games", type=int, default=40)
    parser.add_argument("--corrections", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite",
            "SECRET_KEY": "bench",
            "INSTANCE_PATH": folder,
            "RATELIMIT_ENABLED": False,
        }
    )
    with app.app_context():
        db.create_all()
    rng = random.Random(5)

    phones = {size: app.test_client() for size in (10, args.games)}
    for number in range(args.games):
        made = phones[args.games].post(
            "/api/games/import", json=game_file(rng, ["Ann", "Ben", "Cy", "Dee"], SCHEDULE, 0)
        )
        assert made.status_code == 201, made.get_json()
        game = made.get_json()
        for size, phone in phones.items():
            if number < size:
                phone.set_cookie(f"sk_{game['id']}", game["scorer_token"])
    home = {size: cpu_ms(lambda p=phone: p.get("/"), args.repeat) for size, phone in phones.items()}

    client = app.test_client()
    roster = [f"Player {i:03d}" for i in range(60)]
    exports = {}
    for corrections in (0, args.corrections):
        group = client.post("/api/groups", json={"name": f"{corrections} corrections"}).get_json()
        headers = {"Authorization": f"Bearer {group['token']}"}
        for _ in range(args.group_games):
            document = game_file(rng, rng.sample(roster, 15), list(range(3, 0, -1)) + [2, 3], corrections)
            made = client.post(f"/api/groups/{group['id']}/import", json=document, headers=headers)
            assert made.status_code == 201, made.get_json()
        url = f"/api/groups/{group['id']}/export.json"
        size = len(client.get(url, headers=headers).data)
        exports[corrections] = (cpu_ms(lambda u=url, h=headers: client.get(u, headers=h).data, args.repeat), size)

    print(
        f"home page, {args.games} games on the phone vs 10: {home[args.games]:.1f} ms vs {home[10]:.1f} ms CPU"
        f" (x{home[args.games] / home[10]:.2f} for x{args.games / 10:.0f} the games)"
    )
    (plain, plain_size), (heavy, heavy_size) = exports[0], exports[args.corrections]
    per = (heavy - plain) / (args.group_games * args.corrections) * 1000
    print(
        f"group export, {args.group_games} games of 15 players: no corrections {plain:.0f} ms CPU ({plain_size} B),"
        f" {args.corrections} in each {heavy:.0f} ms CPU ({heavy_size} B): x{heavy / plain:.1f},"
        f" {per:.1f} µs a correction"
    )


if __name__ == "__main__":
    main()
