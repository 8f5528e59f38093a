"""How well the strong bot's model of the other seats fits a table of bots (issue 14).

The strong bot reads the others' bids and plays, and plays its sampled deals out, as if each other
seat bid the count of :func:`inference.expected_tricks` (rounded as :func:`inference.expected_bid`)
and played as a player counting cards (:func:`fast.aim_card`). This plays hands with every seat at
one level and counts, for each decision with a choice, how often the seat did what that model
expects: bids, and cards by leads and follows, short of the bid or made.

    python benchmarks/model_fit.py --players 8 --hands 300
    python benchmarks/model_fit.py --players 4 --level strong --hands 50
    python benchmarks/model_fit.py --players 8 --variant new-jersey --posterior

``--posterior`` also checks the strong bot's sampled deals against the true one at every play with
a choice once a trick is played: of the deals that give a seat a card, how often it holds it.

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


Calibration = dict[tuple[str, int], list[float]]  # (kind, tenth) -> [shares summed, held, pairs]


def posterior(view: dict, rules: Rules, rng: random.Random, hands: list[int], fit: Calibration) -> None:
    """For each unseen card and other seat, the share of the strong bot's sampled deals that give
    the seat the card, by tenths, against whether it holds it; trumps and Blukes apart."""
    worlds = strong.sample_worlds(view, rules, rng, strong.PLAY_DRAWN, strong.PLAY_KEPT, 1.0)
    trump = view_trump(view)
    trumps = fast.BLUKES | (fast.SUIT_MASKS[trump] if trump != fast.NO_TRUMP else 0)
    seat = view["seat"]
    for other, held in enumerate(hands):
        if other == seat:
            continue
        for card in range(54):
            share = sum(w[0][other] >> card & 1 for w in worlds) / len(worlds)
            if 0 < share < 1:
                kind = "trump" if trumps >> card & 1 else "side"
                row = fit.setdefault((kind, min(int(share * 10), 9)), [0.0, 0.0, 0.0])
                row[0] += share
                row[1] += held >> card & 1
                row[2] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--variant", default="standard", choices=[v.value for v in Variant])
    parser.add_argument("--level", default="basic", choices=("basic", "strong"))
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--posterior", action="store_true", help="also how well the sampled deals place the cards")
    args = parser.parse_args()
    calibration: Calibration = {}
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
                if args.posterior and view["phase"] == "playing" and view["tricks_played"]:
                    held = [fast.mask_of(hand) for hand in game.hands]
                    posterior(view, rules, random.Random(f"{args.seed}:{deal}:p"), held, calibration)
            game.apply(seat, action)
    print(f"the model of the others at a table of {args.level} bots, {args.players} players, {args.hands} hands")
    print(f"  {'decision':16} {'with a choice':>13}  as modelled")
    for kind in ("bid", "lead, short", "lead, made", "follow, short", "follow, made"):
        agree, total = fit[kind, True], fit[kind, True] + fit[kind, False]
        if total:
            print(f"  {kind:16} {total:13}  {agree / total:6.1%}")
    if calibration:
        print("the sampled deals against the true one, once a trick is played: a seat's share of the deals")
        print("giving it a card it may hold, against how often it holds it")
        print(f"  {'cards':6} {'share':>11} {'pairs':>8} {'mean share':>10} {'held':>6}")
        for (kind, tenth), (shares, held, pairs) in sorted(calibration.items()):
            print(
                f"  {kind:6} {tenth / 10:4.1f}-{(tenth + 1) / 10:3.1f}  {pairs:8.0f} {shares / pairs:10.3f} {held / pairs:6.3f}"
            )


if __name__ == "__main__":
    main()
