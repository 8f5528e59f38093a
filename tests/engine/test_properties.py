"""Hypothesis properties over whole random games: both variants, 2–15 players, every valid option.

Each example draws a table set-up and a seed; a ``random.Random`` seeded with it plays the game,
so a failure shrinks to a small set-up and replays exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.engine import Card
from scorekeeper.engine import check_records
from scorekeeper.engine import check_tricks
from scorekeeper.engine import DECK
from scorekeeper.engine import fast
from scorekeeper.engine import Game
from scorekeeper.engine import legal_plays
from scorekeeper.engine import PlayError
from scorekeeper.engine import Rules
from scorekeeper.engine import trick_winner
from scorekeeper.engine import Variant
from scorekeeper.engine.tricks import effective_suit
from scorekeeper.engine.tricks import power

from .builders import random_action
from .test_game import card_codes

GAMES = settings(max_examples=40, deadline=None)


@st.composite
def setups(draw: st.DrawFn) -> tuple[Rules, int, int]:
    """A valid table: players, variant and options that the rules allow, a first dealer and a seed."""
    players = draw(st.integers(2, 15))
    rules = Rules(
        players,
        draw(st.sampled_from(Variant)),
        extended=draw(st.booleans()) if players <= 3 else False,
        all_cards_hand=draw(st.booleans()) if 54 % players == 0 else False,
        zero_bids=draw(st.booleans()),
    )
    return rules, draw(st.integers(0, players - 1)), draw(st.integers(0, 2**32 - 1))


class RecordingRandom(random.Random):
    """A seeded random source that remembers the last shuffled deck (to find the undealt cards)."""

    deck: list[Card]

    def shuffle(self, x: list[Card]) -> None:  # type: ignore[override]
        super().shuffle(x)
        self.deck = list(x)


@dataclass
class HandTrace:
    """What happened in one hand: the shuffled deck, the deal, and every trick in play order."""

    number: int
    deck: list[Card]
    hands: list[list[Card]]
    turn_up: Card | None
    leader: int
    tricks: list[list[tuple[int, Card]]] = field(default_factory=list)


def play_game(
    rules: Rules, first_dealer: int, seed: int, on_step: Callable[[Game, RecordingRandom], None] | None = None
) -> tuple[Game, list[HandTrace]]:
    """Play a whole game with random legal actions, calling ``on_step`` before every action."""
    rng = RecordingRandom(seed)
    game = Game.start(rules, first_dealer, rng)
    traces: list[HandTrace] = []
    while True:
        traces.append(
            HandTrace(
                game.number, rng.deck, [list(h) for h in game.hands], game.turn_up, (game.dealer + 1) % rules.players
            )
        )
        while game.phase in ("bidding", "playing"):
            if on_step is not None:
                on_step(game, rng)
            seat = game.to_act
            assert seat is not None
            game.apply(seat, random_action(game, rng))
        traces[-1].tricks = [list(trick) for trick in game.played]  # kept until the next deal
        if game.phase == "finished":
            return game, traces
        game.deal(rng)


@GAMES
@given(setups())
def test_the_deck_is_conserved_at_every_deal(setup: tuple[Rules, int, int]) -> None:
    rules, first_dealer, seed = setup
    _, traces = play_game(rules, first_dealer, seed)
    assert len(traces) == rules.hand_count
    for trace, cards in zip(traces, rules.schedule):
        assert sorted(trace.deck) == sorted(DECK)
        dealt = [c for hand in trace.hands for c in hand]
        assert [len(h) for h in trace.hands] == [cards] * rules.players
        turn_up = [trace.turn_up] if trace.turn_up is not None else []
        undealt = trace.deck[len(dealt) + len(turn_up) :]
        everything = dealt + turn_up + undealt
        assert len(everything) == len(set(everything)) == 54
        assert (trace.turn_up is None) == (cards * rules.players == 54)


@GAMES
@given(setups())
def test_every_played_card_was_a_legal_play(setup: tuple[Rules, int, int]) -> None:
    rules, first_dealer, seed = setup
    _, traces = play_game(rules, first_dealer, seed)
    for trace in traces:
        hands = [list(h) for h in trace.hands]
        trump = trace.turn_up.suit if trace.turn_up else None
        leader = trace.leader
        assert len(trace.tricks) == len(hands[0])
        for trick in trace.tricks:
            assert [seat for seat, _ in trick] == [(leader + i) % rules.players for i in range(rules.players)]
            for seat, card in trick:
                assert card in legal_plays(
                    hands[seat], trick[0][1] if seat != leader else None, trump, rules.new_jersey
                )
                hands[seat].remove(card)
            leader = trick_winner(trick, trump, rules.new_jersey)
        assert not any(hands)


@GAMES
@given(setups())
def test_an_illegal_card_is_always_refused_and_changes_nothing(setup: tuple[Rules, int, int]) -> None:
    rules, first_dealer, seed = setup

    def try_any_card(game: Game, rng: RecordingRandom) -> None:
        if game.phase != "playing" or rng.random() < 0.7:
            return
        seat = game.to_act
        assert seat is not None
        card = rng.choice(DECK)
        if card in game.legal_actions():
            return
        before = game.to_dict()
        try:
            game.play(seat, card)
        except PlayError as error:
            held = card in game.hands[seat]
            assert error.rule in (("R15", "R18") if held else ("R14",))  # a card not held: R14
        else:
            raise AssertionError(f"{card} was accepted but is not legal")
        assert game.to_dict() == before

    play_game(rules, first_dealer, seed, try_any_card)


@GAMES
@given(setups())
def test_each_trick_has_exactly_one_winner_who_leads_next(setup: tuple[Rules, int, int]) -> None:
    rules, first_dealer, seed = setup
    game, traces = play_game(rules, first_dealer, seed)
    for trace, record in zip(traces, game.records):
        trump = trace.turn_up.suit if trace.turn_up else None
        wins = Counter[int]()
        for trick, following in zip(trace.tricks, [*trace.tricks[1:], None]):
            led = effective_suit(trick[0][1], trump, rules.new_jersey)
            powers = [power(card, trump, led) for _, card in trick]
            assert powers.count(max(powers)) == 1
            winner = trick[powers.index(max(powers))][0]
            assert trick_winner(trick, trump, rules.new_jersey) == winner
            if following is not None:
                assert following[0][0] == winner
            wins[winner] += 1
        assert record.tricks == tuple(wins[s] for s in range(rules.players))


@GAMES
@given(setups())
def test_tricks_taken_add_up_to_the_cards_dealt_in_every_hand(setup: tuple[Rules, int, int]) -> None:
    rules, first_dealer, seed = setup
    game, _ = play_game(rules, first_dealer, seed)
    check_records(rules, first_dealer, game.records)
    for number, (record, cards) in enumerate(zip(game.records, rules.schedule), start=1):
        assert record.tricks is not None and sum(record.tricks) == cards
        check_tricks(rules, number, record.tricks)


@GAMES
@given(setups())
def test_totals_are_the_sum_of_r19_and_r20_points(setup: tuple[Rules, int, int]) -> None:
    rules, first_dealer, seed = setup
    game, _ = play_game(rules, first_dealer, seed)
    expected = [0] * rules.players
    for record in game.records:
        assert record.bids is not None and record.tricks is not None
        for seat, (bid, taken) in enumerate(zip(record.bids, record.tricks)):
            expected[seat] += 10 * bid + (taken - bid) if taken >= bid else -10 * bid
    card = game.scorecard()
    assert card.totals == expected
    assert card.status == "finished"
    assert card.winners == [s for s, total in enumerate(expected) if total == max(expected)]
    assert [s.played for s in card.stats] == [rules.hand_count] * rules.players


@GAMES
@given(setups())
def test_a_seat_view_never_shows_another_seats_cards_or_the_undealt_cards(setup: tuple[Rules, int, int]) -> None:
    rules, first_dealer, seed = setup
    sampler = random.Random(seed + 1)

    def look(game: Game, rng: RecordingRandom) -> None:
        # A view costs a scorecard: look at the start of every hand and at one step in sixteen.
        if game.bids.count(None) != rules.players and sampler.random() > 0.0625:
            return
        # What every seat saw at the table: the turn-up, this hand's tricks and the trick on the
        # table, and the last trick (kept across the deal: it was seen by all, the virtual table
        # shows it until the next trick is complete, and it says nothing about the new deal).
        public = {str(c) for trick in (*game.played, game.trick, game.last_trick) for _, c in trick}
        if game.turn_up is not None:
            public.add(str(game.turn_up))
        dealt = {str(c) for hand in game.hands for c in hand}
        undealt = {str(c) for c in rng.deck} - dealt - public
        for seat, hand in enumerate(game.hands):
            own = {str(c) for c in hand}
            seen = card_codes(game.view_for(seat))
            assert seen <= own | public, f"seat {seat} sees {seen - own - public}"
            assert not seen & (dealt - own - public) and not seen & undealt
            assert own <= seen

    play_game(rules, first_dealer, seed, look)


@settings(max_examples=60, deadline=None)
@given(setups())
def test_fast_games_conserve_the_deck_tricks_and_points(setup: tuple[Rules, int, int]) -> None:
    rules, first_dealer, seed = setup
    rng = random.Random(seed)
    for cards in set(rules.schedule):
        hands, turn_up = fast.deal(rng, rules.players, cards, first_dealer)
        union = 0
        for hand in hands:
            assert hand.bit_count() == cards and not union & hand
            union |= hand
        assert (turn_up == -1) == (cards * rules.players == 54)
        assert turn_up == -1 or not union >> turn_up & 1
    result = fast.play_random_game(rng, rules, first_dealer)
    totals = [0] * rules.players
    for played, cards in zip(result.hands, rules.schedule):
        assert sum(played.tricks) == cards
        assert all(rules.min_bid() <= bid <= cards for bid in played.bids)
        assert played.scores == [fast.points(b, t) for b, t in zip(played.bids, played.tricks)]
        totals = [a + b for a, b in zip(totals, played.scores)]
    assert result.totals == totals
