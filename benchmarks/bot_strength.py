"""Bot strength as a duplicate "replace one seat" match (issue 14).

Every deal is played once with all seats at the base level, then once per seat with that seat
alone replaced by the other level, everything else identical: the same cards, the same dealer,
the same random source for every seat. The seat's points in the replaced run minus its points in
the base run is what the replacement is worth on that deal; averaging over the seats of a deal
gives one paired sample per deal, and the 95% interval is over deals. No random bot sits at the
table, so the figure measures one level against the other, not who exploits a third one better.

    python benchmarks/bot_strength.py --players 4 --deals 400 --jobs 2
    python benchmarks/bot_strength.py --players 4 --base strong --swap basic --deals 400
    python benchmarks/bot_strength.py --players 3 --variant new-jersey --deals 100

``--no-floor`` drops the strong bot's decision floor (:data:`strong.DECISION_FLOOR`): the decisions
are the same (a decision counts samples, not time), only sooner, and the times then show the work
alone. Strength runs at a table of strong bots take a quarter of the time so.

Hand sizes cycle through the game's schedule (R7, R8, R11), so every deal size is played.
Decision times are reported for every decision of the ``strong`` level, and separately at the
top deal (13 cards at 2–4 players) and for decisions with a single legal card.

``--swap oracle`` is a diagnostic, not a player: the strong bot bidding as usual but playing with
every hand in view (its deals to play out are the true deal), a ceiling for what better
inference of the hidden cards could gain in play. ``--swap oracle-bids`` is the other half: it
bids from the true deal (the seats still to bid given the bid the model expects from their
cards) and plays as usual. Eight players, seed 31, 400 deals: +1.18 [+0.96, +1.39] points per
hand against +0.94 for the strong bot (both keeping the model margin at every table then).
``--swap oracle-both`` sees every hand in both: what the strong bot would gain if it knew the
deal, the ceiling of its way of playing (benchmarks/strong_bot.md, "A bot that knows the deal").

    python benchmarks/bot_strength.py --players 4 --swap oracle --deals 400

``--swap strong-bids`` and ``--swap strong-plays`` split the strong bot's gain: it bids as the
strong bot and plays as the basic one, or the other way round. At eight players nearly every
seat bids 1 (R13: bids start at 1), so the gain is almost all in the play: seed 2026, 400 deals,
+0.05 [−0.05, +0.16] for the bids alone, +1.01 [+0.82, +1.19] for the play alone, +1.09 for both.
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
from scorekeeper.bots import LEVELS  # noqa: E402
from scorekeeper.bots import strong  # noqa: E402
from scorekeeper.bots import table_view  # noqa: E402
from scorekeeper.bots.inference import sample_worlds  # noqa: E402
from scorekeeper.bots.inference import view_trump  # noqa: E402
from scorekeeper.bots.inference import world_bids  # noqa: E402
from scorekeeper.engine import DECK  # noqa: E402
from scorekeeper.engine import fast  # noqa: E402
from scorekeeper.engine import Game  # noqa: E402
from scorekeeper.engine import points  # noqa: E402
from scorekeeper.engine import Rules  # noqa: E402
from scorekeeper.engine import Variant  # noqa: E402

#: The hands of the deal being played, set only while an oracle decides in the phase it sees them.
_TRUE_HANDS: list[int] = []


def _worlds(view: dict, rules: Rules, rng: random.Random, drawn: int, kept: int, seconds: float) -> list:
    """The strong bot's deals to play out: sampled, or for an oracle the true deal alone."""
    if not _TRUE_HANDS:
        return sample_worlds(view, rules, rng, drawn, kept, seconds)
    bids = world_bids(view["bids"], _TRUE_HANDS, view_trump(view), rules, view["cards"])
    return [(list(_TRUE_HANDS), bids, kept)]


strong.sample_worlds = _worlds
#: The phases in which each oracle decides with every hand in view.
SEES = {"oracle": ("playing",), "oracle-bids": ("bidding",), "oracle-both": ("bidding", "playing")}
#: Diagnostic seats: the level that bids and the level that plays (the oracles' views are set apart).
SPLIT = {
    "oracle": ("strong", "strong"),
    "oracle-bids": ("strong", "strong"),
    "oracle-both": ("strong", "strong"),
    "strong-bids": ("strong", "basic"),
    "strong-plays": ("basic", "strong"),
}


def level_for(seat_level: str, phase: str) -> str:
    """The bot level that takes this decision for a seat of ``seat_level`` (diagnostics included)."""
    bids, plays = SPLIT.get(seat_level, (seat_level, seat_level))
    return bids if phase == "bidding" else plays


class Stacked(random.Random):
    """A random source whose shuffle lays out a fixed deck: the same deal for every run."""

    def __init__(self, order: list[int]) -> None:
        super().__init__(0)
        self.order = order

    def shuffle(self, x: list, random: object = None) -> None:  # type: ignore[override]
        x[:] = [DECK[i] for i in self.order]


Timing = tuple[str, int, int, float, float]  # level, cards dealt, legal actions, seconds, CPU seconds


def play_hand(
    rules: Rules, number: int, first_dealer: int, order: list[int], seats: list[str], seed: str, timings: list[Timing]
) -> list[int]:
    """Play one hand with the given level per seat; return the points per seat (R19, R20)."""
    game = Game(rules, first_dealer, number=number - 1)
    game.deal(Stacked(order))
    # One random source per seat, seeded by the seat: a seat that is not replaced draws exactly
    # the numbers it drew in the base run, so its play changes only if the table's play does.
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(rules.players)]
    while game.phase in ("bidding", "playing"):
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        start, cpu = time.perf_counter(), time.process_time()
        if view["phase"] in SEES.get(seats[seat], ()):
            _TRUE_HANDS[:] = [fast.mask_of(hand) for hand in game.hands]
        levels = [level_for(level, view["phase"]) for level in seats]  # public at a virtual table
        action = decide(levels[seat], table_view(view, levels), rules, rngs[seat])
        _TRUE_HANDS.clear()
        timings.append(
            (seats[seat], view["cards"], len(view["legal"]), time.perf_counter() - start, time.process_time() - cpu)
        )
        game.apply(seat, action)
    record = game.records[-1]
    assert record.bids is not None and record.tricks is not None
    return [points(b, t) for b, t in zip(record.bids, record.tricks)]


def play_deal(
    deal: int, players: int, variant: str, base: str, swap: str, seed: int, hand: int = 0
) -> tuple[int, float, list[Timing]]:
    """One deal: the base run and one run per replaced seat; the cards dealt and the mean gain."""
    rng = random.Random(f"{seed}:{variant}:{players}:{deal}")
    rules = Rules(players, Variant.parse(variant))
    number = hand or 1 + deal % rules.hand_count
    order = list(range(54))
    rng.shuffle(order)
    first_dealer = rng.randrange(players)
    timings: list[Timing] = []
    key = f"{seed}:{deal}"
    base_points = play_hand(rules, number, first_dealer, order, [base] * players, key, timings)
    gains = []
    for seat in range(players):
        seats = [base] * players
        seats[seat] = swap
        gains.append(play_hand(rules, number, first_dealer, order, seats, key, timings)[seat] - base_points[seat])
    return rules.cards_in_hand(number), statistics.fmean(gains), timings


def set_floor(seconds: float) -> None:
    """Each worker process's decision floor (``--no-floor``)."""
    strong.DECISION_FLOOR = seconds


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% interval (normal approximation, paired samples)."""
    mean = statistics.fmean(values)
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def time_row(label: str, seconds: list[float]) -> str:
    ms = [t * 1000 for t in seconds]
    if not ms:
        return f"  {label:28} {0:9d}"
    return (
        f"  {label:28} {len(ms):9d} {percentile(ms, 0.5):7.1f} {percentile(ms, 0.95):7.1f} "
        f"{percentile(ms, 0.99):7.1f} {max(ms):7.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", default="standard", choices=[v.value for v in Variant])
    parser.add_argument("--base", default="basic", choices=LEVELS, help="level of every seat in the base run")
    parser.add_argument("--swap", default="strong", choices=(*LEVELS, *SPLIT), help="level of the one replaced seat")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hand", type=int, default=0, help="play only this hand of the schedule (timing runs)")
    parser.add_argument("--progress", type=int, default=0, help="print the interval every N deals")
    parser.add_argument(
        "--no-floor", action="store_true", help="no decision floor: the same decisions, sooner (strength runs)"
    )
    args = parser.parse_args()
    gains: list[float] = []
    by_size: dict[int, list[float]] = {}
    timings: list[Timing] = []
    started = time.perf_counter()
    floor = 0.0 if args.no_floor else strong.DECISION_FLOOR
    with ProcessPoolExecutor(args.jobs, initializer=set_floor, initargs=(floor,)) as pool:
        futures = [
            pool.submit(play_deal, d, args.players, args.variant, args.base, args.swap, args.seed, args.hand)
            for d in range(args.deals)
        ]
        for done, future in enumerate(futures, start=1):
            cards, gain, deal_timings = future.result()
            gains.append(gain)
            by_size.setdefault(cards, []).append(gain)
            timings.extend(deal_timings)
            if args.progress and done % args.progress == 0 and done < args.deals:
                mean, half = interval(gains)
                print(
                    f"  after {done} deals: {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"
                    f" ({time.perf_counter() - started:.0f} s)",
                    flush=True,
                )
    elapsed = time.perf_counter() - started
    mean, half = interval(gains)
    top = Rules(args.players, Variant.parse(args.variant)).schedule
    top_deal = max(top)
    print(
        f"replace one seat: {args.swap} instead of {args.base} at a table of {args.base}, "
        f"{args.players} players, {args.variant}, {args.deals} deals x {args.players + 1} runs, "
        f"seed {args.seed}, {elapsed:.0f} s"
    )
    print(f"  gain of the replaced seat, points per hand: {mean:+.2f}  95% CI [{mean - half:+.2f}, {mean + half:+.2f}]")
    print(
        "  by cards dealt:  "
        + "  ".join(f"{cards}: {statistics.fmean(by_size[cards]):+.2f}" for cards in sorted(by_size))
    )
    print(
        f"  decision times of {'strong' if 'strong' in (args.base, args.swap) else args.swap}"
        f"{'':8} decisions  p50 ms  p95 ms  p99 ms  max ms"
    )
    level = "strong" if "strong" in (args.base, args.swap) else args.swap
    mine = [t for t in timings if t[0] == level]
    for label, column in (("wall clock", 3), ("CPU time of the deciding process", 4)):
        print(f"  {label}:")
        print(time_row("all decisions", [t[column] for t in mine]))
        print(time_row(f"at the top deal ({top_deal} cards)", [t[column] for t in mine if t[1] == top_deal]))
        print(time_row("one legal action", [t[column] for t in mine if t[2] == 1]))
        print(time_row("several legal actions", [t[column] for t in mine if t[2] > 1]))


if __name__ == "__main__":
    main()
