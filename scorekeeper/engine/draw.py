"""The draw for first dealer and scorer (R6)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import Card
from .cards import DECK
from .rules import check_players


@dataclass(frozen=True)
class DrawResult:
    """Who deals first, who keeps score, and every round of cards drawn (seat → card)."""

    dealer: int
    scorer: int
    rounds: list[dict[int, Card]]


def _settle(seats: list[int], rng: random.Random, rounds: list[dict[int, Card]], high: bool) -> int:
    """Tied players draw again until one card is strictly highest (or lowest)."""
    while True:
        cards = rng.sample(DECK, len(seats))
        drawn = dict(zip(seats, cards))
        rounds.append(drawn)
        pick = max if high else min
        best = pick(c.rank for c in drawn.values())  # R6: suits do not break ties
        seats = [s for s, c in drawn.items() if c.rank == best]
        if len(seats) == 1:
            return seats[0]


def draw_for_deal(players: int, rng: random.Random) -> DrawResult:
    """Every player draws: highest deals first, lowest keeps score; ties draw again (R6).

    >>> result = draw_for_deal(4, random.Random(1))
    >>> result.dealer != result.scorer
    True
    """
    check_players(players)
    rounds: list[dict[int, Card]] = []
    seats = list(range(players))
    dealer = _settle(seats, rng, rounds, high=True)
    first = rounds[0]
    low = min(c.rank for c in first.values())
    lowest = [s for s, c in first.items() if c.rank == low and s != dealer]
    scorer = (
        lowest[0] if len(lowest) == 1 else _settle(lowest or [s for s in seats if s != dealer], rng, rounds, high=False)
    )
    return DrawResult(dealer, scorer, rounds)
