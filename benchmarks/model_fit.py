"""How well the strong bot's model of the other seats fits a table of bots (issue 14).

The strong bot reads the others' bids and plays, and plays its sampled deals out, as if each other
seat bid the count of :func:`inference.expected_tricks` (rounded as :func:`inference.expected_bid`)
and played as a player counting cards (:func:`fast.aim_card`). This plays hands with every seat at
one level and counts, for each decision with a choice, how often the seat did what that model
expects: bids, and cards by leads and follows, short of the bid or made.

    python benchmarks/model_fit.py --players 8 --hands 300
    python benchmarks/model_fit.py --players 4 --level strong --hands 50

Eight players, 300 hands, a table of basic bots: the model picks the basic bot's card in 97-99% of
the plays with a choice (benchmarks/strong_bot.md): what is left between the strong bot and a bot
shown the true deal is what the hidden cards hide, not a misread of the others.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.bots import decide  # noqa: E402
from scorekeeper.bots import strong  # noqa: E402
from scorekeeper.bots import table_view  # noqa: E402
from scorekeeper.bots.inference import expected_bid  # noqa: E402
from scorekeeper.bots.inference import expected_tricks  # noqa: E402
from scorekeeper.bots.inference import hand_mask  # noqa: E402
from scorekeeper.bots.inference import view_trump  # noqa: E402
from scorekeeper.engine import DECK  # noqa: E402
from scorekeeper.engine import fast  # noqa: E402
from scorekeeper.engine import Game  # noqa: E402
from scorekeeper.engine import Rules  # noqa: E402
from scorekeeper.engine import Variant  # noqa: E402


def modelled(view: dict, rules: Rules) -> tuple[str, str]:
    """The kind of decision and what the model of the other seats expects there."""
    trump, hand = view_trump(view), hand_mask(view)
    if view["phase"] == "bidding":
        legal = view["legal"]
        return "bid", str(expected_bid(expected_tricks(hand, trump, rules.players), legal[0], legal[-1]))
    seat = view["seat"]
    trick = [fast.card_index(p["card"]) for p in view["trick"]]
    need = (view["bids"][seat] or 0) - view["tricks_taken"][seat]
    card = fast.aim_card(hand, trick, trump, rules.new_jersey, need, len(view["hand"]), True)
    return ("follow" if trick else "lead") + (", short" if need > 0 else ", made"), str(DECK[card])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--variant", default="standard", choices=[v.value for v in Variant])
    parser.add_argument("--level", default="basic", choices=("basic", "strong"))
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    strong.DECISION_FLOOR = 0.0  # the same decisions, sooner
    rules = Rules(args.players, Variant.parse(args.variant))
    fit: Counter[tuple[str, bool]] = Counter()
    for deal in range(args.hands):
        rng = random.Random(f"{args.seed}:{deal}")
        game = Game(rules, rng.randrange(args.players), number=deal % rules.hand_count)
        game.deal(rng)
        while game.phase in ("bidding", "playing"):
            seat = game.to_act
            assert seat is not None
            view = game.view_for(seat)
            action = decide(args.level, table_view(view, [args.level] * args.players), rules, rng)
            if len(view["legal"]) > 1:
                kind, expected = modelled(view, rules)
                fit[kind, str(action) == expected] += 1
            game.apply(seat, action)
    print(f"the model of the others at a table of {args.level} bots, {args.players} players, {args.hands} hands")
    print(f"  {'decision':16} {'with a choice':>13}  as modelled")
    for kind in ("bid", "lead, short", "lead, made", "follow, short", "follow, made"):
        agree, total = fit[kind, True], fit[kind, True] + fit[kind, False]
        if total:
            print(f"  {kind:16} {total:13}  {agree / total:6.1%}")


if __name__ == "__main__":
    main()
