"""What the table has shown about the hidden cards: deals weighted by the bids and plays seen.

A seat's bid says something about its cards: a seat that bid 4 of 5 probably holds Blukes and
high trumps. A seat's play does too: a seat still short of its bid that did not win a trick it
could have won probably had no card to win it with. Every sampled deal (uniform over the deals
consistent with the cards seen and the voids shown, R15, R18) gets the likelihood of the bids
and plays under a simple model of the other players, and the deals kept for play-out are drawn
in proportion to it (importance resampling).

The bid model is the count a human bidder makes (the ``basic`` bot's card values): expected
tricks ``e`` from Blukes, high trumps and aces, and a bid that rounds ``e + noise``; the noise
covers players who count differently. It also gives the bid expected from seats still to bid.
"""

from __future__ import annotations

import math
import random
import time
from functools import cache
from functools import lru_cache
from typing import Any

from ..engine import DECK
from ..engine import fast
from ..engine import Rules
from ..engine.cards import SUIT_ORDER
from ..engine.tricks import effective_suit
from ..engine.tricks import power
from .basic import SIDE_ODDS
from .basic import TRUMP_ODDS

#: Spread of a bid around the bid model's count, in tricks: wide enough for other ways of bidding.
BID_SPREAD = 0.9
#: How much less likely a deal becomes for each trick a seat short of its bid let go although
#: the deal gives it a winning card (players do duck on purpose now and then: not zero).
DUCK_WHILE_SHORT = 0.35
#: A bid rounds the count up from this fraction (``basic`` rounds ``e + 0.35`` down).
ROUND_UP = 0.35

#: One sampled deal: the cards each seat holds now, the bids (the expected bid for seats still to
#: bid), and how many times it was drawn.
World = tuple[list[int], list[int], int]
Worlds = list[World]


@cache
def card_values(trump: int, players: int) -> tuple[tuple[float, ...], int, int]:
    """Expected tricks per card index, the trump suit's mask and its low cards' mask (2–8).

    >>> values, _, _ = card_values(0, 4)
    >>> values[fast.HI_BLUKE], values[fast.card_index("AS")], round(values[fast.card_index("AH")], 3)
    (1.0, 0.9, 0.532)
    """
    crowd = max(0.25, 1.0 - 0.12 * (players - 2))  # as basic.estimate_tricks
    values = []
    for index in range(54):
        if index == fast.HI_BLUKE:
            values.append(1.0)
        elif index == fast.LO_BLUKE:
            values.append(0.9)
        elif index // 13 == trump:
            values.append(TRUMP_ODDS.get(index % 13 + 2, 0.05))
        else:
            values.append(SIDE_ODDS.get(index % 13 + 2, 0.0) * crowd)
    if trump == fast.NO_TRUMP:
        return tuple(values), 0, 0
    return tuple(values), fast.SUIT_MASKS[trump], 0x7F << (13 * trump)


def expected_tricks(hand: int, trump: int, players: int) -> float:
    """The bid model's trick count for a hand (a mask), as ``basic.estimate_tricks`` counts it.

    >>> round(expected_tricks(fast.mask_of(fast.cards_of(fast.BLUKES)), 0, 4), 2)
    1.9
    """
    values, trumps, low = card_values(trump, players)
    total = 0.0
    m = hand
    while m:
        b = m & -m
        m ^= b
        total += values[b.bit_length() - 1]
    if (hand & trumps).bit_count() >= 4:
        total += 0.10 * (hand & low).bit_count()  # long trumps make the low ones count
    return total


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def bid_likelihood(bid: int, expected: float, lowest: int, highest: int) -> float:
    """Chance of ``bid`` when a seat's count is ``expected``: ``expected + noise`` rounds to it.

    >>> bid_likelihood(3, 2.8, 1, 5) > bid_likelihood(1, 2.8, 1, 5)
    True
    """
    low = -math.inf if bid <= lowest else bid - ROUND_UP
    high = math.inf if bid >= highest else bid + 1 - ROUND_UP
    below = 0.0 if low == -math.inf else _phi((low - expected) / BID_SPREAD)
    above = 1.0 if high == math.inf else _phi((high - expected) / BID_SPREAD)
    return max(above - below, 1e-6)


def expected_bid(expected: float, lowest: int, highest: int) -> int:
    """The bid the model expects from a seat with this count (R13's range)."""
    return min(max(int(expected + ROUND_UP), lowest), highest)


def _history(view: dict[str, Any]) -> list[list[dict[str, Any]]]:
    return [*view["tricks_played"], view["trick"]] if view["trick"] else list(view["tricks_played"])


def sample_worlds(
    view: dict[str, Any], rules: Rules, rng: random.Random, drawn: int, kept: int, seconds: float
) -> Worlds:
    """Deals of the unseen cards drawn in proportion to how well they explain the bids and plays.

    ``drawn`` consistent deals (uniform, or close to it once voids are known) are weighed; ``kept`` are drawn from them by weight
    (systematic resampling), repeats merged into a count. Only ``view`` is read: the bot's own
    cards and what every seat sees. ``seconds`` of CPU time cap the drawing (a safety net: the count
    normally decides, so a decision is reproducible for a given random source).
    """
    seat, players = view["seat"], rules.players
    trump = fast.NO_TRUMP if view["trump"] is None else "SHDC".index(view["trump"])
    nj = rules.new_jersey
    cards = view["cards"]
    lowest = 0 if rules.zero_bids else 1
    mine = sum(fast.BIT[fast.card_index(c)] for c in view["hand"])
    seen = mine | (fast.BIT[fast.card_index(view["turn_up"])] if view["turn_up"] else 0)
    counts = [cards] * players
    voids = [0] * players
    played = [0] * players  # cards each seat has played this hand
    history = _history(view)
    for trick in history:
        led = fast.card_index(trick[0]["card"])
        for play in trick:
            card = fast.card_index(play["card"])
            seen |= fast.BIT[card]
            played[play["seat"]] |= fast.BIT[card]
            counts[play["seat"]] -= 1
            voids[play["seat"]] |= fast.void_after(led, card, trump, nj)
    counts[seat] = mine.bit_count()
    unseen = fast.FULL_DECK & ~seen
    bids: list[int | None] = view["bids"]
    others = [s for s in range(players) if s != seat]
    events = _duck_events(history, bids, trump, nj, players, cards, seat)

    deals: list[list[int]] = []
    weights: list[float] = []
    deadline = time.thread_time() + seconds
    constrained = any(voids[s] & unseen for s in others)
    pool = [i for i in range(54) if unseen >> i & 1]
    # Most constrained seats first, so a quick deal rarely runs out of cards a seat may hold.
    order = sorted(others, key=lambda s: -(voids[s] & unseen).bit_count())
    for _ in range(drawn):
        hands = _deal(rng, seat, mine, pool, counts, voids, order) if constrained else None
        if hands is None:
            hands = fast.deal_unseen(rng, seat, mine, unseen, counts, voids)
        if hands is None or (deals and time.thread_time() > deadline):
            break
        weight = 1.0
        for s in others:
            bid = bids[s]
            if bid is not None:
                weight *= bid_likelihood(bid, expected_tricks(hands[s] | played[s], trump, players), lowest, cards)
        for s, held_later, _, winners in events:
            # Held a winner then (it is still held, or was played later): it let the trick go.
            if (hands[s] | held_later) & winners:
                weight *= DUCK_WHILE_SHORT
        deals.append(hands)
        weights.append(weight)
    if not deals:
        return []
    picks = _resample(rng, weights, kept)
    worlds: Worlds = []
    for i, n in picks:
        hands = deals[i]
        world_bids = [
            b if b is not None else expected_bid(expected_tricks(hands[s], trump, players), lowest, cards)
            for s, b in enumerate(bids)
        ]
        worlds.append((hands, world_bids, n))
    return worlds


def _deal(
    rng: random.Random, seat: int, mine: int, pool: list[int], counts: list[int], voids: list[int], order: list[int]
) -> list[int] | None:
    """A quick deal when voids are known: shuffle once, then each seat (most constrained first)
    takes the first cards it may hold. Not exactly uniform, but close, and the weighting that
    follows matters more; ``None`` when a seat runs short (the caller then deals exactly).
    """
    rnd = rng.random
    keys = {card: rnd() for card in pool}
    rest = sorted(pool, key=keys.__getitem__)
    hands = [0] * len(counts)
    hands[seat] = mine
    for s in order:
        want, void = counts[s], voids[s]
        mask, keep = 0, []
        for card in rest:
            if want and not void >> card & 1:
                mask |= fast.BIT[card]
                want -= 1
            else:
                keep.append(card)
        if want:
            return None
        hands[s] = mask
        rest = keep
    return hands


def _duck_events(
    history: list[list[dict[str, Any]]], bids: list[int | None], trump: int, nj: bool, players: int, cards: int, me: int
) -> list[tuple[int, int, int, int]]:
    """Plays where a seat short of its bid did not beat the trick so far.

    Returns ``(seat, cards it played afterwards, led card, mask of the legal cards that would
    have won)``: a deal that gives the seat one of those winning cards then is less likely. The
    legal set is approximated by the winners that follow the led suit, plus trumps and Blukes
    when the seat showed a void (its play did not follow).
    """
    events: list[tuple[int, int, int, int]] = []
    taken = [0] * players
    left = cards
    later = [0] * players  # filled backwards below
    plays_after: list[list[int]] = []
    for trick in reversed(history):
        after = []
        for play in reversed(trick):
            after.append(later[play["seat"]])
            later[play["seat"]] |= fast.BIT[fast.card_index(play["card"])]
        plays_after.append(list(reversed(after)))
    plays_after.reverse()
    for trick, after in zip(history, plays_after):
        led = fast.card_index(trick[0]["card"])
        powers_best = -1
        indices = [fast.card_index(p["card"]) for p in trick]
        for position, play in enumerate(trick):
            s = play["seat"]
            card = indices[position]
            if position > 0 and s != me:
                bid = bids[s]
                need = (bid or 0) - taken[s]
                power_card = _power(led, card, trump, nj)
                if bid is not None and 0 < need <= left and power_card <= powers_best:
                    winners = _winners_mask(led, powers_best, trump, nj, card)
                    if winners:
                        events.append((s, after[position] | fast.BIT[card], led, winners))
            powers_best = max(powers_best, _power(led, card, trump, nj))
        if len(trick) == players:
            winner = trick[fast.trick_winner(indices, trump, nj)]["seat"]
            taken[winner] += 1
            left -= 1
    return events


def _power(led: int, card: int, trump: int, nj: bool) -> int:
    return _powers(led, trump, nj)[card]


@lru_cache(maxsize=512)
def _powers(led: int, trump: int, nj: bool) -> tuple[int, ...]:
    """Power of every card in a trick that ``led`` began, asked of the rules engine (R3, R17)."""
    suit = None if trump == fast.NO_TRUMP else SUIT_ORDER[trump]
    led_suit = effective_suit(DECK[led], suit, nj)
    return tuple(power(card, suit, led_suit) for card in DECK)


def _winners_mask(led: int, best: int, trump: int, nj: bool, played: int) -> int:
    """Cards that would have beaten ``best`` and that the seat could legally have played then."""
    powers = _powers(led, trump, nj)
    followed = fast.void_after(led, played, trump, nj) == 0
    allowed = fast.legal_mask(fast.FULL_DECK, led, trump, nj) if followed else fast.FULL_DECK
    mask = 0
    for card in range(54):
        if powers[card] > best and fast.BIT[card] & allowed:
            mask |= fast.BIT[card]
    return mask & ~fast.BIT[led]


def _resample(rng: random.Random, weights: list[float], kept: int) -> list[tuple[int, int]]:
    """Systematic resampling: ``kept`` draws in proportion to ``weights``, as (index, count)."""
    total = sum(weights)
    step = total / kept
    position = rng.random() * step
    picks: list[tuple[int, int]] = []
    running = 0.0
    for i, w in enumerate(weights):
        running += w
        n = 0
        while position < running:
            n += 1
            position += step
        if n:
            picks.append((i, n))
    return picks
