"""The fast kernel's primitives: masks, tables shared with the readable engine, deals, playouts."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scorekeeper.engine import Card
from scorekeeper.engine import ConfigError
from scorekeeper.engine import DECK
from scorekeeper.engine import fast
from scorekeeper.engine import legal_plays
from scorekeeper.engine import order_from
from scorekeeper.engine import Rules
from scorekeeper.engine import Suit
from scorekeeper.engine import trick_winner
from scorekeeper.engine.fast import BIT
from scorekeeper.engine.fast import FULL_DECK
from scorekeeper.engine.fast import SUIT_MASKS
from scorekeeper.engine.scoring import points

from .builders import cards
from .test_fast_replay import pick
from .test_fast_replay import reference_deal


def mask(text: str) -> int:
    return fast.mask_of(cards(text))


def idx(code: str) -> int:
    return fast.card_index(code)


# -- conversions ------------------------------------------------------------------------------------
def test_masks_and_cards_convert_both_ways() -> None:
    assert fast.cards_of(mask("QS HB 2C")) == cards("QS 2C HB")
    assert fast.mask_of(DECK) == FULL_DECK
    assert [fast.card_index(str(c)) for c in DECK] == list(range(54))
    assert (fast.LO_BLUKE, fast.HI_BLUKE) == (Card.parse("LB").index, Card.parse("HB").index)
    assert [fast.cards_of(m) for m in SUIT_MASKS] == [[c for c in DECK if c.suit is s] for s in Suit]


def test_trump_indices_follow_the_suit_order() -> None:
    assert [fast.trump_of(s) for s in (None, *Suit)] == [fast.NO_TRUMP, 0, 1, 2, 3]


# -- the rules tables come from the readable engine ---------------------------------------------------
@pytest.mark.parametrize("new_jersey", [False, True])
@pytest.mark.parametrize("trump", [None, *Suit])
def test_legal_mask_matches_legal_plays_for_every_lead(trump: Suit | None, new_jersey: bool) -> None:
    rng = random.Random(hash((trump, new_jersey)) & 0xFFFF)
    t = fast.trump_of(trump)
    for led in DECK:
        for _ in range(15):
            hand = rng.sample([c for c in DECK if c != led], rng.randint(1, 13))
            expected = fast.mask_of(legal_plays(hand, led, trump, new_jersey))
            assert fast.legal_mask(fast.mask_of(hand), led.index, t, new_jersey) == expected
    assert fast.legal_mask(mask("AS HB"), -1, t, new_jersey) == mask("AS HB")


@pytest.mark.parametrize("new_jersey", [False, True])
def test_fast_trick_winner_matches_the_readable_one(new_jersey: bool) -> None:
    rng = random.Random(5)
    for _ in range(3000):
        trump = rng.choice([None, *Suit])
        plays = rng.sample(DECK, rng.randint(2, 15))
        seat = trick_winner(list(enumerate(plays)), trump, new_jersey)
        assert fast.trick_winner([c.index for c in plays], fast.trump_of(trump), new_jersey) == seat


def test_the_r17_example_in_the_kernel() -> None:
    assert fast.trick_winner([idx("JD"), idx("KD"), idx("LB"), idx("2S")], 0, False) == 2
    assert fast.trick_winner([idx("JD"), idx("KD"), idx("LB"), idx("HB")], 0, False) == 3


def test_the_r18_examples_in_the_kernel() -> None:
    assert fast.legal_mask(mask("LB 5H"), idx("AH"), 0, True) == mask("5H")
    assert fast.legal_mask(mask("LB 3H 4D"), idx("KS"), 0, True) == mask("LB")
    assert fast.legal_mask(mask("HB AS"), idx("LB"), fast.NO_TRUMP, True) == mask("HB")


def test_points_are_the_rule_books_points() -> None:
    assert all(fast.points(b, t) == points(b, t) for b in range(28) for t in range(28))


# -- voids --------------------------------------------------------------------------------------------------
def test_failing_to_follow_reveals_a_void_but_a_standard_bluke_does_not() -> None:
    hearts = SUIT_MASKS[1]
    assert fast.void_after(idx("AH"), idx("2S"), 0, False) == hearts
    assert fast.void_after(idx("AH"), idx("HB"), 0, False) == 0
    assert fast.void_after(idx("AH"), idx("5H"), 0, False) == 0
    assert fast.void_after(idx("HB"), idx("2D"), 0, False) == 0  # R16: nothing to follow


def test_in_new_jersey_a_void_in_trump_includes_the_blukes() -> None:
    spades = SUIT_MASKS[0]
    assert fast.void_after(idx("KS"), idx("2D"), 0, True) == spades | fast.BLUKES
    assert fast.void_after(idx("AH"), idx("HB"), 0, True) == SUIT_MASKS[1]
    assert fast.follow_mask(idx("LB"), fast.NO_TRUMP, True) == fast.BLUKES


# -- dealing ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "cards_each"), [(4, 12), (2, 27), (3, 17), (15, 3), (6, 9), (5, 10)])
def test_a_deal_conserves_the_deck(players: int, cards_each: int) -> None:
    rng = random.Random(players)
    for dealer in range(players):
        hands, turn_up = fast.deal(rng, players, cards_each, dealer)
        assert [h.bit_count() for h in hands] == [cards_each] * players
        union = 0
        for h in hands:
            assert not union & h
            union |= h
        if players * cards_each == 54:
            assert turn_up == -1 and union == FULL_DECK
        else:
            assert 0 <= turn_up < 54 and not union & BIT[turn_up]


def test_a_deal_is_the_documented_deal() -> None:
    hands, turn_up = fast.deal(random.Random(3), 4, 12, 1)
    expected, up = reference_deal(random.Random(3), 4, 12, 1)
    assert hands == [fast.mask_of(h) for h in expected]
    assert up is not None and turn_up == up.index


def test_every_card_is_equally_likely_in_every_seat() -> None:
    rng = random.Random(9)
    seen = Counter[int]()
    for _ in range(2000):
        hands, _ = fast.deal(rng, 4, 12, 0)
        seen.update(i for i in range(54) if hands[1] >> i & 1)
    expected = 2000 * 12 / 54
    assert all(abs(seen[i] - expected) < 0.25 * expected for i in range(54))


def test_play_random_hand_refuses_an_impossible_deal() -> None:
    with pytest.raises(ConfigError):
        fast.play_random_hand(random.Random(0), 4, 14, 0)
    with pytest.raises(ConfigError):
        fast.play_random_hand(random.Random(0), 1, 1, 0)


# -- dealing the unseen cards for a Monte-Carlo bot ------------------------------------------------------------
def check_unseen_deal(
    hands: list[int] | None, seat: int, hand: int, unseen: int, counts: list[int], voids: list[int]
) -> None:
    assert hands is not None
    assert hands[seat] == hand
    union = 0
    for s, h in enumerate(hands):
        if s == seat:
            continue
        assert h.bit_count() == counts[s]
        assert not h & voids[s], "a seat was given a card it is known not to hold"
        assert h & unseen == h
        assert not union & h
        union |= h


def test_unseen_cards_are_dealt_to_the_other_seats_respecting_counts() -> None:
    rng = random.Random(1)
    my_hand = mask("AS KS QS")
    unseen = FULL_DECK & ~my_hand & ~mask("7D")  # 7D turned up
    counts, voids = [3, 3, 3, 3], [0, 0, 0, 0]
    for _ in range(50):
        check_unseen_deal(fast.deal_unseen(rng, 0, my_hand, unseen, counts, voids), 0, my_hand, unseen, counts, voids)


@pytest.mark.parametrize("tries", [0, 1, 20])
def test_unseen_cards_respect_known_voids(tries: int) -> None:
    rng = random.Random(2)
    spades, hearts, diamonds, clubs = SUIT_MASKS
    my_hand = mask("2S 2H 2D 2C")
    unseen = (spades | hearts | diamonds | clubs) & ~my_hand
    counts = [4, 6, 6, 6]
    voids = [0, spades | hearts, diamonds | clubs | fast.BLUKES, spades]
    for _ in range(40):
        hands = fast.deal_unseen(rng, 0, my_hand, unseen, counts, voids, tries=tries)
        check_unseen_deal(hands, 0, my_hand, unseen, counts, voids)


def test_an_impossible_unseen_deal_gives_none() -> None:
    rng = random.Random(3)
    unseen = mask("AH KH QH JD")
    assert fast.deal_unseen(rng, 0, 0, unseen, [0, 2, 2], [0, SUIT_MASKS[1], SUIT_MASKS[1]]) is None
    assert fast.deal_unseen(rng, 0, 0, unseen, [0, 3, 2], [0, 0, 0]) is None


@pytest.mark.parametrize("tries", [0, 20])
def test_unseen_deals_are_close_to_uniform(tries: int) -> None:
    # Seat 1 cannot hold hearts; seats 1 and 2 take two cards each from five (one stays undealt).
    rng = random.Random(4)
    unseen = mask("AS KS AH KH AD")
    counts, voids = [0, 2, 2], [0, SUIT_MASKS[1], 0]
    seen = Counter[tuple[int, int]]()
    for _ in range(3000):
        hands = fast.deal_unseen(rng, 0, 0, unseen, counts, voids, tries=tries)
        check_unseen_deal(hands, 0, 0, unseen, counts, voids)
        assert hands is not None
        seen[(hands[1], hands[2])] += 1
    # Seat 1 takes 2 of {AS, KS, AD} (3 ways); seat 2 takes 2 of the 3 left (3 ways): 9 deals.
    assert len(seen) == 9
    assert max(seen.values()) < 1.35 * min(seen.values())


# -- playing out ----------------------------------------------------------------------------------------------
def readable_rest(
    rng: random.Random,
    hands: list[list[Card]],
    leader: int,
    trick: list[tuple[int, Card]],
    trump: Suit | None,
    new_jersey: bool,
    taken: list[int],
) -> list[int]:
    """Finish a hand with random legal cards drawn like the kernel, deciding with the readable engine."""
    players = len(hands)
    while any(hands):
        start = len(trick)
        for seat in order_from(leader, players)[start:]:
            chosen = pick(rng, legal_plays(hands[seat], trick[0][1] if trick else None, trump, new_jersey))
            hands[seat].remove(chosen)
            trick.append((seat, chosen))
        leader = trick_winner(trick, trump, new_jersey)
        taken[leader] += 1
        trick = []
    return taken


@pytest.mark.parametrize("new_jersey", [False, True])
def test_play_out_from_any_position_matches_the_readable_engine(new_jersey: bool) -> None:
    configs = random.Random(11)
    for _ in range(400):
        players = configs.randint(2, 8)
        cards_each = configs.randint(1, 53 // players)
        rng = random.Random(configs.getrandbits(32))
        hands, turn_up = reference_deal(rng, players, cards_each, 0)
        trump = turn_up.suit if turn_up else None
        # Play a random number of cards with the readable engine, then hand over.
        leader, taken = 1 % players, [0] * players
        trick: list[tuple[int, Card]] = []
        for _ in range(configs.randrange(players * cards_each)):
            seat = (leader + len(trick)) % players
            chosen = pick(rng, legal_plays(hands[seat], trick[0][1] if trick else None, trump, new_jersey))
            hands[seat].remove(chosen)
            trick.append((seat, chosen))
            if len(trick) == players:
                leader = trick_winner(trick, trump, new_jersey)
                taken[leader] += 1
                trick = []
        state = rng.getstate()
        masks = [fast.mask_of(h) for h in hands]
        got = fast.play_out(
            rng, masks, leader, [c.index for _, c in trick], fast.trump_of(trump), new_jersey, taken=taken
        )
        rng.setstate(state)
        assert got == readable_rest(rng, hands, leader, trick, trump, new_jersey, list(taken))
        assert sum(got) == cards_each


def test_play_out_does_not_change_its_arguments() -> None:
    hands, _ = fast.deal(random.Random(1), 4, 5, 0)
    before = list(hands)
    taken = [0, 0, 0, 0]
    fast.play_out(random.Random(2), hands, 1, [], 0, False, taken=taken)
    fast.play_out(random.Random(2), hands, 1, [], 0, False, policy="greedy")
    assert hands == before and taken == [0, 0, 0, 0]


@pytest.mark.parametrize("new_jersey", [False, True])
def test_greedy_playouts_take_every_trick_once_and_are_deterministic(new_jersey: bool) -> None:
    rng = random.Random(12)
    for _ in range(300):
        players = rng.randint(2, 15)
        cards_each = rng.randint(1, 54 // players)
        hands, turn_up = fast.deal(rng, players, cards_each, 0)
        trump = fast.NO_TRUMP if turn_up < 0 or turn_up >= 52 else turn_up // 13
        first = fast.play_out(rng, hands, 1 % players, [], trump, new_jersey, policy="greedy")
        assert sum(first) == cards_each
        assert fast.play_out(random.Random(0), hands, 1 % players, [], trump, new_jersey, policy="greedy") == first


def test_the_greedy_policy_only_plays_legal_cards() -> None:
    rng = random.Random(13)
    for _ in range(2000):
        new_jersey, trump = rng.random() < 0.5, rng.randint(-1, 3)
        led = rng.randrange(54)
        hand = fast.mask_of(rng.sample([c for c in DECK if c.index != led], rng.randint(1, 13)))
        legal = fast.legal_mask(hand, led, trump, new_jersey)
        tables = fast._TABLES[new_jersey][trump + 1]
        powers = tables.power[led + 1]
        chosen = fast._greedy_card(legal, powers, tables.lead, powers[led + 1], rng.random() < 0.5)
        assert chosen.bit_count() == 1 and chosen & legal
        assert fast._aim_lead(hand, tables.lead, True) & hand


def test_the_greedy_policy_wins_cheaply_when_last_and_throws_its_weakest_card_when_it_cannot_win() -> None:
    tables = fast._TABLES[False][0 + 1]  # spades trump
    powers = tables.power[idx("KD") + 1]
    best = powers[idx("KD") + 1]
    assert fast._greedy_card(mask("AD 3S 9S"), powers, tables.lead, best, True) == mask("AD")
    assert fast._greedy_card(mask("AD 3S 9S"), powers, tables.lead, best, False) == mask("9S")
    assert fast._greedy_card(mask("QD 2D"), powers, tables.lead, best, True) == mask("2D")
    assert fast._greedy_card(mask("5H AC"), powers, tables.lead, best, True) == mask("5H")


def test_a_greedy_seat_takes_more_tricks_than_a_random_one_in_its_place() -> None:
    rng = random.Random(14)
    greedy_total = random_total = 0
    for _ in range(400):
        hands, turn_up = fast.deal(rng, 4, 10, 0)
        trump = fast.NO_TRUMP if turn_up >= 52 else turn_up // 13
        greedy_total += fast.play_out(rng, hands, 1, [], trump, False, policy=["greedy", "random", "random", "random"])[
            0
        ]
        random_total += fast.play_out(rng, hands, 1, [], trump, False)[0]
    assert greedy_total > 1.15 * random_total


def test_an_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError):
        fast.play_out(random.Random(0), [1, 2], 0, [], 0, False, policy="clever")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        fast.play_out(random.Random(0), [1, 2], 0, [], 0, False, policy=["random"])


def test_play_random_game_follows_the_schedule() -> None:
    result = fast.play_random_game(random.Random(2), Rules(6, all_cards_hand=True), first_dealer=5)
    assert [sum(h.tricks) for h in result.hands] == list(Rules(6, all_cards_hand=True).schedule)
    assert result.hands[-1].trump == fast.NO_TRUMP and result.hands[-1].turn_up == -1
    assert result.totals == [sum(h.scores[s] for h in result.hands) for s in range(6)]
