"""Computer players: always legal, sensible bids, and only what their seat can see."""

from __future__ import annotations

import random

import pytest

from scorekeeper.bots import decide
from scorekeeper.bots import LEVELS
from scorekeeper.bots.basic import estimate_tricks
from scorekeeper.bots.strong import choose_bid
from scorekeeper.engine import Card
from scorekeeper.engine import Game
from scorekeeper.engine import parse_cards
from scorekeeper.engine import Rules
from scorekeeper.engine import Suit
from scorekeeper.engine import Variant


def play_game(levels: list[str], rules: Rules, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.start(rules, 0, rng)
    while game.phase != "finished":
        if game.phase == "dealing":
            game.deal(rng)
            continue
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        action = decide(levels[seat], view, rules, rng)
        assert action in view["legal"]
        game.apply(seat, action)
    return game


@pytest.mark.parametrize("variant", list(Variant))
def test_every_bot_only_ever_takes_legal_actions_through_a_whole_game(variant: Variant) -> None:
    game = play_game(["random", "basic", "strong", "basic", "random", "strong", "basic"], Rules(7, variant), 3)
    assert len(game.records) == Rules(7, variant).hand_count


def test_basic_counts_blukes_and_high_trumps_as_tricks() -> None:
    strong_hand = parse_cards("HB LB AS KS")
    weak_hand = parse_cards("2H 3D 4C 5H")
    assert estimate_tricks(strong_hand, Suit.SPADES, 4) > 3
    assert estimate_tricks(weak_hand, Suit.SPADES, 4) == 0


def bidding_view(hand: str, trump: str = "S", turn_up: str = "9S") -> dict:
    cards = parse_cards(hand)
    return {
        "seat": 0,
        "phase": "bidding",
        "cards": len(cards),
        "dealer": 2,
        "trump": trump,
        "turn_up": turn_up,
        "hand": [str(c) for c in cards],
        "bids": [None, None, None],
        "legal": list(range(1, len(cards) + 1)),
        "trick": [],
        "tricks_played": [],
        "tricks_taken": [0, 0, 0],
    }


def test_strong_bids_every_trick_with_both_blukes_and_the_ace_of_trumps() -> None:
    assert choose_bid(bidding_view("HB LB AS"), Rules(3), random.Random(1)) == 3


def test_strong_bids_the_minimum_with_nothing() -> None:
    assert choose_bid(bidding_view("2H 3D 4C"), Rules(3), random.Random(1)) == 1


def test_levels_are_the_three_of_the_api() -> None:
    assert LEVELS == ("random", "basic", "strong")
    assert Card.parse("HB").is_bluke
