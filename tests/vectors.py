"""Test vectors from the Python engine for the phone's copy of the rules (``static/rules.js``).

For every player count, variant and set of options the engine accepts: the schedule (R7–R11),
the dealer and first bidder of each hand (R5, R13), whether a card is turned up (R12), the
scorer's checks at the edges of the allowed values with the engine's exact messages (R22, R23),
and the order of entries (R25); and points and outcomes for bids and tricks up to 27 (R19, R20,
R26). ``tests/vectors.json`` is this table, committed; ``python -m tests.vectors`` writes it
again. ``tests/engine/test_vectors.py`` checks it still matches the engine, and
``tests/browser/test_offline_browser.py`` runs every vector against the browser code.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from scorekeeper.engine import check_bid
from scorekeeper.engine import check_order
from scorekeeper.engine import check_taken
from scorekeeper.engine import check_tricks
from scorekeeper.engine import dealer_of
from scorekeeper.engine import order_from
from scorekeeper.engine import outcome
from scorekeeper.engine import points
from scorekeeper.engine import Rules
from scorekeeper.engine import RulesError
from scorekeeper.engine.rules import MAX_PLAYERS
from scorekeeper.engine.rules import MIN_PLAYERS

FILE = Path(__file__).with_name("vectors.json")
WHO = "Ann"


def message(check: Any, *args: Any) -> str | None:
    """The engine's sentence for a refused value, ``None`` when it is allowed."""
    try:
        check(*args)
    except RulesError as error:
        return str(error)
    return None


def game_vectors(rules: Rules) -> dict[str, Any]:
    n, first = rules.players, rules.players - 1  # the last seat deals first: the deal wraps round
    hands = range(1, rules.hand_count + 1)
    dealers = [dealer_of(number, first, n) for number in hands]
    picked = sorted({1, rules.schedule.index(max(rules.schedule)) + 1, rules.hand_count})
    checks = []
    for number in picked:
        cards, low = rules.cards_in_hand(number), rules.min_bid()
        for bid in sorted({low - 1, low, cards, cards + 1}):
            checks.append(["bid", number, bid, message(check_bid, rules, number, bid, WHO)])
        for taken in (-1, 0, cards, cards + 1):
            checks.append(["taken", number, taken, message(check_taken, rules, number, taken, WHO)])
        for extra in (-1, 0, 1):
            tricks = [cards] + [0] * (n - 1)
            if extra < 0:
                tricks[0] = cards - 1
            elif extra > 0:
                tricks[1] = 1
            checks.append(["total", number, tricks, message(check_tricks, rules, number, tricks)])
    return {
        "players": n,
        "variant": rules.variant.value,
        "options": rules.options,
        "first_dealer": first,
        "schedule": list(rules.schedule),
        "dealers": dealers,
        "first_bidders": [order_from((dealer + 1) % n, n)[0] for dealer in dealers],
        "turn_up": [rules.has_turn_up(number) for number in hands],
        "checks": checks,
    }


def vectors() -> dict[str, Any]:
    """The whole table (deterministic: the same engine gives the same file)."""
    games = []
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for variant in ("standard", "new-jersey"):
            for flags in itertools.product((False, True), repeat=3):
                options = dict(zip(("extended", "all_cards_hand", "zero_bids"), flags))
                try:
                    rules = Rules.build(players, variant, options)
                except RulesError:
                    continue
                games.append(game_vectors(rules))
    scores = [[bid, taken, points(bid, taken), outcome(bid, taken).value] for bid in range(28) for taken in range(28)]
    order = [
        [number, step, done, bids, message(check_order, number, step, done, bids)]
        for number in (1, 2, 7)
        for step in ("bids", "tricks")
        for done in (False, True)
        for bids in (False, True)
    ]
    return {"who": WHO, "games": games, "points": scores, "order": order}


def write() -> None:
    FILE.write_text(json.dumps(vectors(), separators=(",", ":"), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    write()
