"""The fast kernel replays random hands exactly like the readable engine (STYLE.md: fast paths are
kept apart and replayed against the readable API).

``fast.py`` documents the order in which it draws random numbers. The references below draw them
in that order but decide every rule with the readable engine (``legal_plays``, ``trick_winner``,
``points``, and the ``Game`` class), comparing the kernel's public primitives at every step. Same
seed, same hand: any difference in a legal set, a winner or a score shows up as a mismatch.
"""

from __future__ import annotations

import random

import pytest

from scorekeeper.engine import build_scorecard
from scorekeeper.engine import Card
from scorekeeper.engine import dealer_of
from scorekeeper.engine import DECK
from scorekeeper.engine import fast
from scorekeeper.engine import Game
from scorekeeper.engine import HandRecord
from scorekeeper.engine import order_from
from scorekeeper.engine import Rules
from scorekeeper.engine import Variant
from scorekeeper.engine.scoring import points
from scorekeeper.engine.tricks import legal_plays
from scorekeeper.engine.tricks import trick_winner

from .builders import StackedDeck

HANDS = 10_000


def index(card: Card) -> int:
    return card.index


def reference_deal(rng: random.Random, players: int, cards: int, dealer: int) -> tuple[list[list[Card]], Card | None]:
    """The documented deal: sort the card indices by 54 random keys, deal blocks from the dealer's left."""
    keys = [rng.random() for _ in range(54)]
    order = sorted(range(54), key=keys.__getitem__)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for j, seat in enumerate(order_from((dealer + 1) % players, players)):
        hands[seat] = [DECK[i] for i in order[j * cards : (j + 1) * cards]]
    dealt = players * cards
    return hands, DECK[order[dealt]] if dealt < 54 else None


def pick(rng: random.Random, legal: list[Card]) -> Card:
    """The documented choice: the k-th legal card by index, no draw when there is one."""
    legal = sorted(legal, key=index)
    return legal[int(rng.random() * len(legal))] if len(legal) > 1 else legal[0]


def reference_hand(
    rng: random.Random, players: int, cards: int, dealer: int, new_jersey: bool, zero_bids: bool
) -> fast.HandResult:
    """One random hand decided by the readable functions, checking fast's primitives at each step."""
    hands, turn_up = reference_deal(rng, players, cards, dealer)
    trump = turn_up.suit if turn_up is not None else None
    t = fast.trump_of(trump)
    low = 0 if zero_bids else 1
    bids = [0] * players
    for seat in order_from((dealer + 1) % players, players):
        bids[seat] = low + int(rng.random() * (cards - low + 1))
    taken = [0] * players
    leader = (dealer + 1) % players
    for _ in range(cards):
        trick: list[tuple[int, Card]] = []
        for seat in order_from(leader, players):
            led = trick[0][1] if trick else None
            legal = legal_plays(hands[seat], led, trump, new_jersey)
            mask = fast.legal_mask(fast.mask_of(hands[seat]), led.index if led else -1, t, new_jersey)
            assert mask == fast.mask_of(legal), (hands[seat], led, trump, new_jersey)
            chosen = pick(rng, legal)
            hands[seat].remove(chosen)
            trick.append((seat, chosen))
        winner = trick_winner(trick, trump, new_jersey)
        assert trick[fast.trick_winner([c.index for _, c in trick], t, new_jersey)][0] == winner
        taken[winner] += 1
        leader = winner
    scores = [points(b, k) for b, k in zip(bids, taken)]
    assert scores == [fast.points(b, k) for b, k in zip(bids, taken)]
    return fast.HandResult(bids, taken, scores, t, turn_up.index if turn_up else -1)


def random_configs(count: int, seed: int) -> list[tuple[int, int, int, int, bool, bool]]:
    """(seed, players, cards, dealer, new_jersey, zero_bids) covering 2–15 players and every deal size."""
    rng = random.Random(seed)
    configs = []
    for _ in range(count):
        players = rng.randint(2, 15)
        configs.append(
            (
                rng.getrandbits(32),
                players,
                rng.randint(1, 54 // players),
                rng.randrange(players),
                rng.random() < 0.5,
                rng.random() < 0.3,
            )
        )
    return configs


def test_the_kernel_replays_ten_thousand_random_hands_like_the_readable_engine() -> None:
    configs = random_configs(HANDS, seed=20240601)
    for seed, players, cards, dealer, new_jersey, zero_bids in configs:
        expected = reference_hand(random.Random(seed), players, cards, dealer, new_jersey, zero_bids)
        got = fast.play_random_hand(random.Random(seed), players, cards, dealer, new_jersey, zero_bids)
        assert got == expected, (seed, players, cards, dealer, new_jersey, zero_bids)
    # The sample covers both variants, no-trump hands, all-cards hands and 2–15 players.
    assert {c[1] for c in configs} == set(range(2, 16))
    assert {c[4] for c in configs} == {False, True}
    assert any(c[1] * c[2] == 54 for c in configs)


def rules_for(players: int, new_jersey: bool, zero_bids: bool) -> Rules:
    """Rules whose schedule has every deal size from 1 to 54 // players."""
    return Rules(
        players,
        Variant.NEW_JERSEY if new_jersey else Variant.STANDARD,
        extended=players <= 3,
        all_cards_hand=54 % players == 0,
        zero_bids=zero_bids,
    )


def game_hand(
    rng: random.Random, players: int, cards: int, dealer: int, new_jersey: bool, zero_bids: bool
) -> fast.HandResult:
    """One random hand played through the ``Game`` class, drawing random numbers like the kernel."""
    rules = rules_for(players, new_jersey, zero_bids)
    number = rules.schedule.index(cards) + 1
    hands, turn_up = reference_deal(rng, players, cards, dealer)
    at: dict[int, str] = {}
    for j, seat in enumerate(order_from((dealer + 1) % players, players)):
        for k, card in enumerate(hands[seat]):
            at[j + k * players] = str(card)
    if turn_up is not None:
        at[players * cards] = str(turn_up)
    game = Game(rules, first_dealer=(dealer - number + 1) % players, number=number - 1)
    game.deal(StackedDeck(at))  # type: ignore[arg-type]
    assert game.turn_up == turn_up
    t = fast.trump_of(game.trump)
    low = rules.min_bid()
    while game.phase == "bidding":
        assert game.to_act is not None
        game.bid(game.to_act, low + int(rng.random() * (cards - low + 1)))
    while game.phase == "playing":
        actor = game.to_act
        assert actor is not None
        legal = [c for c in game.legal_actions() if isinstance(c, Card)]
        led = game.trick[0][1].index if game.trick else -1
        assert fast.legal_mask(fast.mask_of(game.hands[actor]), led, t, new_jersey) == fast.mask_of(legal)
        game.play(actor, pick(rng, legal))
    record = game.records[-1]
    assert record.bids is not None and record.tricks is not None
    return fast.HandResult(
        list(record.bids),
        list(record.tricks),
        [points(b, k) for b, k in zip(record.bids, record.tricks)],
        t,
        turn_up.index if turn_up else -1,
    )


def test_the_kernel_replays_hands_like_the_game_class() -> None:
    for seed, players, cards, dealer, new_jersey, zero_bids in random_configs(600, seed=7):
        expected = game_hand(random.Random(seed), players, cards, dealer, new_jersey, zero_bids)
        got = fast.play_random_hand(random.Random(seed), players, cards, dealer, new_jersey, zero_bids)
        assert got == expected, (seed, players, cards, dealer, new_jersey, zero_bids)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(4),
        Rules(4, Variant.NEW_JERSEY),
        Rules(3, extended=True, all_cards_hand=True),
        Rules(2, Variant.NEW_JERSEY, extended=True, all_cards_hand=True, zero_bids=True),
        Rules(5),
        Rules(9, all_cards_hand=True),
        Rules(15, Variant.NEW_JERSEY),
    ],
    ids=lambda r: f"{r.players}p-{r.variant.value}" + "".join(f"-{k}" for k, v in r.options.items() if v),
)
def test_a_whole_fast_game_scores_like_the_scorecard(rules: Rules) -> None:
    for seed in range(3):
        first_dealer = seed % rules.players
        result = fast.play_random_game(random.Random(seed), rules, first_dealer)
        rng = random.Random(seed)
        records = []
        for number, cards in enumerate(rules.schedule, start=1):
            dealer = dealer_of(number, first_dealer, rules.players)
            hand = reference_hand(rng, rules.players, cards, dealer, rules.new_jersey, rules.zero_bids)
            assert hand == result.hands[number - 1]
            records.append(HandRecord(tuple(hand.bids), tuple(hand.tricks)))
        assert result.totals == build_scorecard(rules, first_dealer, records).totals
