"""Tiny builders shared by the engine tests: cards from codes, stacked decks, games mid-hand."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from scorekeeper.engine import Card
from scorekeeper.engine import DECK
from scorekeeper.engine import Game
from scorekeeper.engine import parse_cards
from scorekeeper.engine import Rules
from scorekeeper.engine import Suit


def cards(text: str) -> list[Card]:
    """``cards("QS HB")`` → two cards."""
    return parse_cards(text)


def card(code: str) -> Card:
    """``card("QS")``."""
    return Card.parse(code)


def codes(hand: Sequence[Card]) -> list[str]:
    """Cards back to their codes, in the order given."""
    return [str(c) for c in hand]


def suit(letter: str | None) -> Suit | None:
    """``suit("S")`` → spades; ``suit(None)`` → no trump."""
    return Suit.parse(letter)


class StackedDeck:
    """A rigged random source: its shuffle lays chosen cards at chosen deck positions.

    Every other card fills the free positions in deck order, so a test controls exactly what is
    dealt where and what is turned up (``Game.deal`` gives deck card ``i`` to the ``i % players``-th
    seat left of the dealer and turns up the card after the last dealt one).
    """

    def __init__(self, at: dict[int, str]) -> None:
        self.at = {position: card(code) for position, code in at.items()}

    def shuffle(self, deck: list[Card]) -> None:
        chosen = set(self.at.values())
        rest = iter(c for c in DECK if c not in chosen)
        deck[:] = [self.at[i] if i in self.at else next(rest) for i in range(len(deck))]


def stacked_hands(
    rules: Rules, number: int, dealer: int, hands: dict[int, str], turn_up: str | None = None
) -> StackedDeck:
    """A deck that deals ``hands`` (seat → codes) in hand ``number`` and turns up ``turn_up``."""
    n, dealt = rules.players, rules.cards_in_hand(number)
    at: dict[int, str] = {}
    for seat, text in hands.items():
        offset = (seat - dealer - 1) % n  # the dealer's left gets deck card 0, n, 2n, ...
        for k, code in enumerate(text.split()):
            at[offset + k * n] = code
    if turn_up is not None:
        at[n * dealt] = turn_up
    return StackedDeck(at)


def dealt_game(rules: Rules, number: int, dealer: int, hands: dict[int, str], turn_up: str | None = None) -> Game:
    """A game at hand ``number``, dealt by ``dealer``, whose seats hold ``hands`` (seat → codes)."""
    game = Game(rules, first_dealer=(dealer - number + 1) % rules.players, number=number - 1)
    game.deal(stacked_hands(rules, number, dealer, hands, turn_up))  # type: ignore[arg-type]
    assert game.dealer == dealer
    for seat, text in hands.items():
        assert sorted(game.hands[seat]) == sorted(cards(text))
    return game


def play_all(game: Game, plays: str) -> None:
    """Play codes in turn order, each by the seat to act."""
    for code in plays.split():
        assert game.to_act is not None
        game.play(game.to_act, card(code))


def random_action(game: Game, rng: random.Random) -> int | Card:
    """A uniformly random legal bid or card for the seat to act."""
    actions: list[int | Card] = [*game.legal_actions()]
    return rng.choice(actions)


def snapshot(game: Game) -> dict[str, Any]:
    """Everything a game holds, to show that a refused action changed nothing."""
    return game.to_dict()
