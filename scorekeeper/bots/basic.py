"""The ``basic`` bot: bid from high cards, trumps and Blukes; play to make the bid, then shed."""

from __future__ import annotations

import random
from typing import Any

from ..engine import Card
from ..engine import Rules
from ..engine import Suit
from ..engine.tricks import effective_suit
from ..engine.tricks import power

#: Chance that a card takes a trick, by rank (2–14), for trumps and for the other suits.
TRUMP_ODDS = {14: 0.9, 13: 0.75, 12: 0.6, 11: 0.45, 10: 0.35, 9: 0.25}
SIDE_ODDS = {14: 0.7, 13: 0.35, 12: 0.12}


def worth(card: Card, trump: Suit | None) -> int:
    """How strong a card is whatever is led: Blukes, then trumps, then rank (R3)."""
    return power(card, trump, card.suit)


def estimate_tricks(hand: list[Card], trump: Suit | None, players: int) -> float:
    """Expected tricks of a hand, card by card (a rough count a human bidder makes).

    >>> round(estimate_tricks([Card.parse("HB"), Card.parse("AS"), Card.parse("2H")], Suit.SPADES, 4), 2)
    1.9
    """
    crowd = max(0.25, 1.0 - 0.12 * (players - 2))  # more players, more ways a side card is beaten
    total = 0.0
    trumps = [c for c in hand if c.suit == trump and trump is not None]
    for card in hand:
        if card.is_bluke:
            total += 1.0 if str(card) == "HB" else 0.9
        elif card.suit == trump:
            total += TRUMP_ODDS.get(card.rank, 0.15 if len(trumps) >= 4 else 0.05)
        else:
            total += SIDE_ODDS.get(card.rank, 0.0) * crowd
    return total


def choose_bid(view: dict[str, Any], rules: Rules) -> int:
    """Round the expected tricks, a shade low since a set costs as much as a make earns (R19, R20)."""
    hand = [Card.parse(c) for c in view["hand"]]
    trump = Suit.parse(view["trump"])
    expected = estimate_tricks(hand, trump, rules.players)
    legal: list[int] = view["legal"]
    return min(max(int(expected + 0.35), legal[0]), legal[-1])


def choose_card(view: dict[str, Any], rules: Rules) -> str:
    """Win cheaply while the bid is not made; once made, take only cheap tricks and shed the rest."""
    trump = Suit.parse(view["trump"])
    seat = view["seat"]
    legal = [Card.parse(c) for c in view["legal"]]
    need = (view["bids"][seat] or 0) - view["tricks_taken"][seat]
    by_worth = sorted(legal, key=lambda c: worth(c, trump))
    trick = [Card.parse(p["card"]) for p in view["trick"]]
    if not trick:
        if need > 0:
            return str(by_worth[-1]) if worth(by_worth[-1], trump) >= 114 else str(by_worth[0])
        return str(by_worth[0])
    led = effective_suit(trick[0], trump, rules.new_jersey)
    best = max(power(c, trump, led) for c in trick)
    winners = sorted((c for c in legal if power(c, trump, led) > best), key=lambda c: power(c, trump, led))
    if winners and (need > 0 or worth(winners[0], trump) < 100):
        return str(winners[0])
    return str(by_worth[0])


def basic_bot(view: dict[str, Any], rules: Rules, rng: random.Random) -> int | str:
    """A sensible heuristic player (issue 5, ``basic``)."""
    if view["phase"] == "bidding":
        return choose_bid(view, rules)
    return choose_card(view, rules)
