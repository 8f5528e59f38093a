"""Strong bot settings side by side: the same duplicate match, paired deal by deal (issue 14).

Each setting is a list of ``NAME=VALUE`` overrides of :mod:`scorekeeper.bots.strong`'s constants,
or ``inference.NAME=VALUE`` of :mod:`scorekeeper.bots.inference`'s (the first column is the bot as
shipped). Every deal is played as in ``bot_strength.py`` (the base run and one run per replaced
seat) once per setting, and the difference of each setting's gain from the shipped bot's is taken
on the same deal. The table is the same in every run but for the one seat, so the difference has
a far narrower interval than two separate runs of ``bot_strength.py``: at eight players, 600
deals, about ±0.04 points per hand against ±0.14 for each gain alone.

    python benchmarks/bot_variants.py --players 8 --deals 400 --seed 31 TOP_DEAL_SHIFT=0.5
    python benchmarks/bot_variants.py --players 8 inference.BID_SPREAD=0.3 inference.OFF_MODEL=0.1
    python benchmarks/bot_variants.py --players 4 "PLAY_DRAWN=480 PLAY_KEPT=160" UNREAD_SHIFT=0.9

CPU time per setting is printed as a ratio to the shipped bot's (the work, not the machine).
The settings tried so far and their figures are in benchmarks/strong_bot.md.
"""

from __future__ import annotations

import argparse
import ast
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bot_strength  # noqa: E402

from scorekeeper.bots import inference  # noqa: E402
from scorekeeper.bots import LEVELS  # noqa: E402
from scorekeeper.bots import strong  # noqa: E402
from scorekeeper.engine import Variant  # noqa: E402

MODULES = {"strong": strong, "inference": inference}
Setting = dict[tuple[str, str], object]


def parse(text: str) -> Setting:
    """``"A=1 inference.B=(2, 3)"`` as ``{("strong", "A"): 1, ("inference", "B"): (2, 3)}``.

    Known constants of the strong bot and its inference only.
    """
    setting: Setting = {}
    for item in text.split():
        target, _, value = item.partition("=")
        module, _, name = target.rpartition(".")
        module = module or "strong"
        if module not in MODULES or not hasattr(MODULES[module], name) or not name.isupper():
            raise SystemExit(f"{target!r} is not a constant of scorekeeper.bots.strong or .inference")
        setting[module, name] = ast.literal_eval(value)
    return setting


#: The shipped values of every overridden constant, as the worker process found them.
_SHIPPED: Setting = {}


def play(
    deal: int, players: int, variant: str, base: str, swap: str, seed: int, hand: int, settings: list[Setting]
) -> list:
    """One deal under every setting: ``(gain, CPU seconds)`` per setting, in order."""
    results = []
    for setting in settings:
        for module, name in setting:
            _SHIPPED.setdefault((module, name), getattr(MODULES[module], name))
        for (module, name), value in _SHIPPED.items():
            setattr(MODULES[module], name, setting.get((module, name), value))
        start = time.process_time()
        _, gain, _ = bot_strength.play_deal(deal, players, variant, base, swap, seed, hand)
        results.append((gain, time.process_time() - start))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("settings", nargs="+", help='overrides, e.g. "MODEL_MARGIN=0 inference.BID_SPREAD=0.3"')
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--variant", default="standard", choices=[v.value for v in Variant])
    parser.add_argument("--base", default="basic", choices=LEVELS)
    parser.add_argument("--swap", default="strong", choices=LEVELS)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hand", type=int, default=0, help="play only this hand of the schedule")
    args = parser.parse_args()
    labels = ["shipped", *args.settings]
    settings = [{}, *(parse(text) for text in args.settings)]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs, initializer=bot_strength.set_floor, initargs=(0.0,)) as pool:
        futures = [
            pool.submit(play, d, args.players, args.variant, args.base, args.swap, args.seed, args.hand, settings)
            for d in range(args.deals)
        ]
        rows = [future.result() for future in futures]
    print(
        f"{args.swap} instead of {args.base} at a table of {args.base}, {args.players} players, {args.variant}, "
        f"{args.deals} deals, seed {args.seed}, {time.perf_counter() - started:.0f} s"
    )
    cpu = [sum(row[i][1] for row in rows) for i in range(len(settings))]
    width = max(map(len, labels))
    for i, label in enumerate(labels):
        mean, half = bot_strength.interval([row[i][0] for row in rows])
        line = (
            f"  {label:{width}} gain {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]  CPU x{cpu[i] / cpu[0]:.2f}"
        )
        if i:
            diff, spread = bot_strength.interval([row[i][0] - row[0][0] for row in rows])
            line += f"  vs shipped {diff:+.3f} [{diff - spread:+.3f}, {diff + spread:+.3f}]"
        print(line)


if __name__ == "__main__":
    main()
