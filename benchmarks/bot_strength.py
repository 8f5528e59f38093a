"""Bot strength in duplicate format (issue 5).

Every deal is played once per rotation of the seats, so each bot holds every hand of the deal;
luck of the cards cancels out. Prints mean points per hand per bot with a 95% confidence
interval (over deals, each deal's rotations averaged first), and decision-time percentiles.

    python benchmarks/bot_strength.py --deals 500 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.bots import decide  # noqa: E402
from scorekeeper.engine import DECK, Game, Rules, points  # noqa: E402

LEVELS = ("random", "basic", "strong")


class Stacked(random.Random):
    """A random source whose shuffle lays out a fixed deck: the same deal for every rotation."""

    def __init__(self, order: list[int]) -> None:
        super().__init__(0)
        self.order = order

    def shuffle(self, x: list, random: object = None) -> None:  # type: ignore[override]
        x[:] = [DECK[i] for i in self.order]


def play_deal(deal: int, players: int, seed: int) -> tuple[list[float], dict[str, list[float]]]:
    """Play one deal in every rotation; return mean points per level and decision times."""
    rng = random.Random(f"{seed}:{deal}")
    rules = Rules(players)
    number = 1 + deal % rules.hand_count
    order = list(range(54))
    rng.shuffle(order)
    first_dealer = rng.randrange(players)
    scores = {level: [] for level in LEVELS}
    times: dict[str, list[float]] = {level: [] for level in LEVELS}
    for rotation in range(players):
        seats = [LEVELS[(s + rotation) % len(LEVELS)] for s in range(players)]
        game = Game(rules, first_dealer, number=number - 1)
        game.deal(Stacked(order))
        bot_rng = random.Random(f"{seed}:{deal}:{rotation}")
        while game.phase in ("bidding", "playing"):
            seat = game.to_act
            assert seat is not None
            start = time.perf_counter()
            action = decide(seats[seat], game.view_for(seat), rules, bot_rng)
            times[seats[seat]].append(time.perf_counter() - start)
            game.apply(seat, action)
        record = game.records[-1]
        assert record.bids is not None and record.tricks is not None
        for seat, level in enumerate(seats):
            scores[level].append(points(record.bids[seat], record.tricks[seat]))
    return [statistics.fmean(scores[level]) for level in LEVELS], times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    per_level: list[list[float]] = [[] for _ in LEVELS]
    times: dict[str, list[float]] = {level: [] for level in LEVELS}
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(play_deal, d, args.players, args.seed) for d in range(args.deals)]
        for future in futures:
            means, deal_times = future.result()
            for i, m in enumerate(means):
                per_level[i].append(m)
            for level, ts in deal_times.items():
                times[level].extend(ts)
    elapsed = time.perf_counter() - started
    print(f"duplicate format: {args.deals} deals x {args.players} rotations, {args.players} players "
          f"(hand sizes cycle through the schedule), seed {args.seed}, {elapsed:.0f} s")
    print(f"{'bot':8} {'mean pts/hand':>13} {'95% CI':>19} {'decisions':>9} "
          f"{'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7}")
    intervals = []
    for level, values in zip(LEVELS, per_level):
        mean = statistics.fmean(values)
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
        intervals.append((mean - half, mean + half))
        ts = [t * 1000 for t in times[level]]
        print(f"{level:8} {mean:13.2f} [{mean - half:7.2f}, {mean + half:7.2f}] {len(ts):9d} "
              f"{percentile(ts, .5):7.2f} {percentile(ts, .95):7.2f} {percentile(ts, .99):7.2f} {max(ts):7.2f}")
    ordered = all(intervals[i][1] < intervals[i + 1][0] for i in range(len(LEVELS) - 1))
    print("strong > basic > random with intervals clear of each other:", "yes" if ordered else "NO")


if __name__ == "__main__":
    main()
