"""The virtual game: dealing, trump, bidding, play, refusals, storage and views (R5, R12–R18, R25)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from scorekeeper.engine import BidError
from scorekeeper.engine import ConfigError
from scorekeeper.engine import DECK
from scorekeeper.engine import Game
from scorekeeper.engine import OrderError
from scorekeeper.engine import PlayError
from scorekeeper.engine import Rules
from scorekeeper.engine import sort_hand
from scorekeeper.engine import Suit
from scorekeeper.engine import Variant

from .builders import card
from .builders import cards
from .builders import codes
from .builders import dealt_game
from .builders import play_all
from .builders import random_action
from .builders import snapshot
from .builders import stacked_hands
from .builders import StackedDeck


def bid_all(game: Game, *bids: int) -> None:
    """Bid in turn order from the seat to act."""
    for amount in bids:
        assert game.to_act is not None
        game.bid(game.to_act, amount)


def play_randomly(game: Game, rng: random.Random, until: str = "finished") -> None:
    """Random legal actions until the game reaches phase ``until`` (dealing new hands on the way)."""
    while game.phase != until:
        if game.phase == "dealing":
            game.deal(rng)
            continue
        assert game.to_act is not None
        game.apply(game.to_act, random_action(game, rng))


CODES = frozenset(str(c) for c in DECK)


def card_codes(value: Any) -> set[str]:
    """Every card code anywhere in a view (dict keys and values, lists, strings)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found |= card_codes(key) | card_codes(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            found |= card_codes(item)
    elif isinstance(value, str) and value.upper() in CODES:
        found.add(value.upper())
    return found


# -- R5, R13, R14: who acts -------------------------------------------------------------------------
def test_the_first_bidder_is_left_of_the_dealer() -> None:
    game = Game.start(Rules(4), 2, random.Random(1))
    assert (game.number, game.dealer, game.phase, game.to_act) == (1, 2, "bidding", 3)


def test_the_deal_and_first_bid_pass_left_every_hand() -> None:
    rng = random.Random(2)
    game = Game.start(Rules(4), 2, rng)
    seen = []
    for _ in range(5):
        seen.append((game.dealer, game.to_act))
        play_randomly(game, rng, until="dealing")
        game.deal(rng)
    assert seen == [(2, 3), (3, 0), (0, 1), (1, 2), (2, 3)]


def test_the_player_left_of_the_dealer_leads_and_the_winner_leads_next() -> None:
    rules = Rules(4)
    game = dealt_game(rules, 12, 3, {0: "JD 3C", 1: "KD 4C", 2: "6D LB", 3: "2S 5C"}, turn_up="9S")
    bid_all(game, 1, 1, 1, 1)
    assert (game.phase, game.to_act) == ("playing", 0)
    play_all(game, "JD KD LB 2S")
    assert game.to_act == 2  # the Lo Bluke won: its player leads


def test_the_r17_example_played_at_the_table() -> None:
    # Spades trump, four players: J♦ led, K♦, the third player (holding 6♦ and the Lo Bluke)
    # plays the Lo Bluke, the fourth plays 2♠: the Lo Bluke wins.
    game = dealt_game(Rules(4), 12, 3, {0: "JD 3C", 1: "KD 4C", 2: "6D LB", 3: "2S 5C"}, turn_up="9S")
    assert game.trump is Suit.SPADES
    bid_all(game, 1, 1, 1, 1)
    play_all(game, "JD KD")
    assert set(game.legal_actions()) == set(cards("6D LB"))
    play_all(game, "LB 2S")
    assert game.taken == [0, 0, 1, 0]
    assert [(s, str(c)) for s, c in game.last_trick] == [(0, "JD"), (1, "KD"), (2, "LB"), (3, "2S")]


def test_had_the_fourth_player_held_the_hi_bluke_it_would_win() -> None:
    game = dealt_game(Rules(4), 12, 3, {0: "JD 3C", 1: "KD 4C", 2: "6D LB", 3: "HB 5C"}, turn_up="9S")
    bid_all(game, 1, 1, 1, 1)
    play_all(game, "JD KD LB HB")
    assert game.taken == [0, 0, 0, 1]


def test_new_jersey_at_the_table_a_bluke_cannot_replace_a_heart() -> None:
    rules = Rules(4, Variant.NEW_JERSEY)
    game = dealt_game(rules, 2, 3, {0: "AH 2C", 1: "LB 5H", 2: "3H 4C", 3: "6H 7C"}, turn_up="9S")
    bid_all(game, 1, 1, 1, 1)
    play_all(game, "AH")
    assert game.legal_actions() == cards("5H")
    before = snapshot(game)
    with pytest.raises(PlayError) as error:
        game.play(1, card("LB"))
    assert error.value.rule == "R18"
    assert snapshot(game) == before


# -- R12: trump ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("turn_up", "trump"), [("7H", Suit.HEARTS), ("AS", Suit.SPADES), ("2C", Suit.CLUBS), ("TD", Suit.DIAMONDS)]
)
def test_the_turned_up_card_makes_its_suit_trump(turn_up: str, trump: Suit) -> None:
    game = Game.start(Rules(3), 0, stacked_hands(Rules(3), 1, 0, {}, turn_up))  # type: ignore[arg-type]
    assert game.turn_up == card(turn_up)
    assert game.trump is trump
    assert game.view_for(1)["trump"] == trump.value
    assert game.view_for(1)["turn_up"] == turn_up


@pytest.mark.parametrize("bluke", ["HB", "LB"])
def test_a_bluke_turned_up_means_no_trump(bluke: str) -> None:
    game = Game.start(Rules(3), 0, stacked_hands(Rules(3), 1, 0, {}, bluke))  # type: ignore[arg-type]
    assert game.turn_up == card(bluke)
    assert game.trump is None
    view = game.view_for(0)
    assert (view["turn_up"], view["trump"]) == (bluke, None)


@pytest.mark.parametrize("players", [2, 3, 6, 9])
def test_the_all_cards_hand_deals_every_card_and_has_no_trump(players: int) -> None:
    rules = Rules(players, all_cards_hand=True)
    game = Game(rules, first_dealer=0, number=rules.hand_count - 1)
    game.deal(StackedDeck({0: "7H", 53: "HB"}))  # type: ignore[arg-type]
    assert game.number == rules.hand_count
    dealer = game.dealer
    assert card("7H") in game.hands[(dealer + 1) % players]  # the first card goes left of the dealer
    assert card("HB") in game.hands[dealer]  # the last card is dealt, not turned up
    assert (game.turn_up, game.trump) == (None, None)
    assert sorted(c for hand in game.hands for c in hand) == sorted(DECK)
    assert {len(h) for h in game.hands} == {54 // players}


def test_cards_are_dealt_one_at_a_time_from_the_dealers_left() -> None:
    deck = [str(c) for c in DECK]
    game = Game.start(Rules(3), 1, stacked_hands(Rules(3), 1, 1, {}))  # type: ignore[arg-type]
    assert codes(game.hands[2][:2]) == [deck[0], deck[3]]
    assert codes(game.hands[0][:2]) == [deck[1], deck[4]]
    assert codes(game.hands[1][:2]) == [deck[2], deck[5]]
    assert game.turn_up == DECK[39]


# -- R13: bids -------------------------------------------------------------------------------------------
def test_legal_bids_run_from_one_to_the_cards_dealt() -> None:
    game = Game.start(Rules(4), 0, random.Random(3))
    assert game.legal_actions() == list(range(1, 14))


def test_with_the_zero_bids_house_rule_a_bid_of_zero_is_legal() -> None:
    game = Game.start(Rules(4, zero_bids=True), 0, random.Random(3))
    assert game.legal_actions() == list(range(0, 14))
    game.bid(1, 0)
    assert game.bids[1] == 0


@pytest.mark.parametrize("amount", [0, 14, -1, True, "3", 2.0])
def test_a_bid_out_of_range_is_refused_and_changes_nothing(amount: Any) -> None:
    game = Game.start(Rules(4), 0, random.Random(4))
    before = snapshot(game)
    with pytest.raises(BidError) as error:
        game.bid(1, amount)
    assert error.value.rule == "R13"
    assert str(error.value) == f"A bid this hand is a whole number from 1 to 13, not {amount!r} (R13)."
    assert snapshot(game) == before


def test_an_out_of_turn_bid_is_refused_and_changes_nothing() -> None:
    game = Game.start(Rules(4), 0, random.Random(5))
    before = snapshot(game)
    with pytest.raises(OrderError) as error:
        game.bid(2, 3)
    assert error.value.rule == "R13"
    assert str(error.value) == "It is not your turn to bid (R13)."
    assert snapshot(game) == before


def test_bids_may_total_anything() -> None:
    game = Game.start(Rules(3), 0, random.Random(6))
    bid_all(game, 13, 13, 13)
    assert game.phase == "playing"


# -- refusals in play ----------------------------------------------------------------------------------
def test_an_out_of_turn_play_is_refused_and_changes_nothing() -> None:
    game = Game.start(Rules(4), 0, random.Random(7))
    bid_all(game, 1, 1, 1, 1)
    before = snapshot(game)
    with pytest.raises(OrderError) as error:
        game.play(2, game.hands[2][0])
    assert error.value.rule == "R14"
    assert snapshot(game) == before


def test_playing_during_bidding_is_refused() -> None:
    game = Game.start(Rules(4), 0, random.Random(8))
    with pytest.raises(OrderError) as error:
        game.play(1, game.hands[1][0])
    assert str(error.value) == "You cannot play a card now: bidding is under way (R14)."


def test_bidding_during_play_is_refused() -> None:
    game = Game.start(Rules(4), 0, random.Random(8))
    bid_all(game, 1, 1, 1, 1)
    with pytest.raises(OrderError) as error:
        game.bid(1, 1)
    assert error.value.rule == "R13"


def test_a_card_not_in_hand_is_refused_and_changes_nothing() -> None:
    game = Game.start(Rules(4), 0, random.Random(9))
    bid_all(game, 1, 1, 1, 1)
    stranger = game.hands[2][0]
    before = snapshot(game)
    with pytest.raises(PlayError) as error:
        game.play(1, stranger)
    assert str(error.value) == f"{stranger.label} is not in your hand (R14)."
    assert snapshot(game) == before


def test_failing_to_follow_suit_is_refused_and_changes_nothing() -> None:
    game = dealt_game(Rules(4), 12, 3, {0: "JD 3C", 1: "KD 4C", 2: "6D LB", 3: "2S 5C"}, turn_up="9S")
    bid_all(game, 1, 1, 1, 1)
    play_all(game, "JD")
    before = snapshot(game)
    with pytest.raises(PlayError) as error:
        game.play(1, card("4C"))
    assert error.value.rule == "R15"
    assert str(error.value) == "J♦ was led and you hold diamonds: play one of them or a Bluke (R15)."
    assert snapshot(game) == before


def test_apply_takes_a_card_code_or_a_bid() -> None:
    game = dealt_game(Rules(4), 12, 3, {0: "JD 3C", 1: "KD 4C", 2: "6D LB", 3: "2S 5C"}, turn_up="9S")
    for seat in range(4):
        game.apply(seat, 1)
    game.apply(0, "JD")
    assert game.trick == [(0, card("JD"))]


def test_dealing_is_refused_while_a_hand_is_under_way() -> None:
    game = Game.start(Rules(4), 0, random.Random(10))
    with pytest.raises(OrderError):
        game.deal(random.Random(0))


@pytest.mark.parametrize("first_dealer", [-1, 4, True])
def test_the_first_dealer_must_be_a_seat(first_dealer: Any) -> None:
    with pytest.raises(ConfigError) as error:
        Game.start(Rules(4), first_dealer, random.Random(0))
    assert error.value.rule == "R6"


def test_a_whole_game_finishes_with_a_record_per_hand() -> None:
    rng = random.Random(11)
    game = Game.start(Rules(5), 4, rng)
    play_randomly(game, rng)
    assert game.phase == "finished" and game.to_act is None
    assert [sum(r.tricks or ()) for r in game.records] == list(Rules(5).schedule)
    card = game.scorecard()
    assert card.status == "finished"
    assert card.winners == [s for s, t in enumerate(card.totals) if t == max(card.totals)]
    with pytest.raises(OrderError):
        game.deal(rng)


# -- storage ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("stop_after", [0, 3, 9, 60, 400])
def test_to_dict_and_from_dict_round_trip_through_json(stop_after: int) -> None:
    rng = random.Random(stop_after)
    game = Game.start(Rules(4, Variant.NEW_JERSEY, zero_bids=True), 1, rng)
    for _ in range(stop_after):
        if game.phase == "dealing":
            game.deal(rng)
        else:
            assert game.to_act is not None
            game.apply(game.to_act, random_action(game, rng))
    again = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again == game
    assert again.to_dict() == game.to_dict()
    # The rebuilt game carries on exactly like the original.
    for _ in range(30):
        if game.phase == "finished":
            break
        if game.phase == "dealing":
            game.deal(random.Random(1))
            again.deal(random.Random(1))
            continue
        seat = game.to_act
        assert seat is not None and again.to_act == seat
        action = game.legal_actions()[0]
        game.apply(seat, action)
        again.apply(seat, action)
    assert again == game


# -- views ------------------------------------------------------------------------------------------
def test_a_view_shows_the_seats_own_hand_sorted_and_nothing_else_hidden() -> None:
    game = dealt_game(Rules(4), 12, 3, {0: "JD 3C", 1: "KD 4C", 2: "6D LB", 3: "2S 5C"}, turn_up="9S")
    view = game.view_for(2)
    assert view["hand"] == ["LB", "6D"]
    assert view["legal"] == []
    assert card_codes(view) == {"LB", "6D", "9S"}
    assert game.view_for(0)["legal"] == list(range(1, 3))


def test_a_view_shows_the_legal_cards_only_to_the_seat_to_act() -> None:
    game = dealt_game(Rules(4), 12, 3, {0: "JD 3C", 1: "KD 4C", 2: "6D LB", 3: "2S 5C"}, turn_up="9S")
    bid_all(game, 1, 1, 1, 1)
    play_all(game, "JD")
    assert game.view_for(1)["legal"] == ["KD"]
    assert game.view_for(0)["legal"] == []
    assert card_codes(game.view_for(3)) == {"2S", "5C", "9S", "JD"}


def test_a_view_never_leaks_another_seats_cards_or_the_undealt_cards() -> None:
    rng = random.Random(12)
    game = Game.start(Rules(3, Variant.NEW_JERSEY), 0, rng)
    for _ in range(300):
        held = [set(map(str, h)) for h in game.hands]
        public = (
            {str(c) for t in game.played for _, c in t}
            | {str(c) for _, c in game.trick}
            | {str(c) for _, c in game.last_trick}
        )
        if game.turn_up is not None and game.phase in ("bidding", "playing"):
            public.add(str(game.turn_up))
        for seat in range(3):
            assert card_codes(game.view_for(seat)) <= held[seat] | public
        if game.phase == "dealing":
            game.deal(rng)
        else:
            assert game.to_act is not None
            game.apply(game.to_act, random_action(game, rng))


def test_a_view_for_a_missing_seat_is_refused() -> None:
    with pytest.raises(PlayError) as error:
        Game.start(Rules(3), 0, random.Random(0)).view_for(3)
    assert error.value.rule == "R4"


# -- sort_hand ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("trump", "expected"),
    [
        ("S", "HB LB AS 2S AH 2H AC 2C AD 2D"),
        ("H", "HB LB AH 2H AS 2S AD 2D AC 2C"),
        ("D", "HB LB AD 2D AS 2S AH 2H AC 2C"),
        ("C", "HB LB AC 2C AH 2H AS 2S AD 2D"),
        (None, "HB LB AS 2S AH 2H AC 2C AD 2D"),
    ],
)
def test_a_hand_sorts_blukes_then_trumps_then_suits_alternating_colour(trump: str | None, expected: str) -> None:
    hand = cards("2S AS 2H AH 2D AD 2C AC LB HB")
    assert codes(sort_hand(hand, Suit.parse(trump))) == expected.split()
