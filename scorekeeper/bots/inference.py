"""What the table has shown about the hidden cards: deals weighted by the bids and plays seen.

A seat's bid says something about its cards: a seat that bid 4 of 5 probably holds Blukes and
high trumps. A seat's play does too. The other seats are modelled as players counting cards
(:func:`fast.aim_card`, the playouts' model), and each of their plays rules out the cards that
would have made such a player play otherwise: a seat short of its bid that let a trick go held
no card that could win it; one that led low while short holds no Bluke and no trump ace. These
are dealt around like the voids shown by failing to follow (R15, R18), so every sampled deal fits
them. A seat seen to play otherwise (a card it played later would have changed an earlier play)
is not ruled by its plays: they only make deals less likely, as every play does when no deal fits
them all. Every sampled deal gets the likelihood of the bids and of those plays, and the deals
kept for play-out are drawn in proportion to it (importance resampling).

The bid model is the count a human bidder makes (the ``basic`` bot's card values): expected
tricks ``e`` from Blukes, high trumps and aces, and a bid that rounds ``e + noise``; the noise
covers players who count differently. It also gives the bid expected from seats still to bid.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from functools import cache
from functools import lru_cache
from typing import Any

from ..engine import DECK
from ..engine import fast
from ..engine import Rules
from ..engine import Suit
from ..engine.cards import SUIT_ORDER
from ..engine.tricks import effective_suit
from ..engine.tricks import power
from .basic import SIDE_ODDS
from .basic import TRUMP_ODDS

#: Spread of a bid around the bid model's count, in tricks: wide enough for other ways of bidding.
#: benchmarks/bot_strength.py, 400 deals, 0.9 or 0.5: strong for basic +1.03 or +1.09 points per
#: hand at 8 players, +3.11 or +3.09 at 4; basic for strong at 4 players −2.11 or −2.14.
BID_SPREAD = 0.5
#: How much less likely a deal becomes for each play it makes a seat play otherwise than the
#: model of a player counting cards (players do play otherwise now and then: not zero).
OFF_MODEL = 0.35
#: A bid rounds the count up from this fraction (``basic`` rounds ``e + 0.35`` down).
ROUND_UP = 0.35

#: One sampled deal: the cards each seat holds now, the bids (the expected bid for seats still to
#: bid), and its weight (1 when resampled: a deal drawn twice is listed twice).
World = tuple[list[int], list[int], int]
Worlds = list[World]


@cache
def _suit_sums(odds: tuple[float, ...]) -> list[float]:
    """The sum of ``odds`` (by rank, 2 to ace) over every set of one suit's cards, by its 13-bit mask.

    >>> _suit_sums((0.0,) * 12 + (0.9,))[1 << 12], len(_suit_sums((0.0,) * 13))
    (0.9, 8192)
    """
    sums = [0.0] * (1 << 13)
    for mask in range(1, 1 << 13):
        top = mask.bit_length() - 1
        sums[mask] = sums[mask ^ 1 << top] + odds[top]
    return sums


@cache
def trick_tables(trump: int, players: int) -> tuple[tuple[list[float], ...], int, int]:
    """Expected tricks of every set of cards of each suit (S, H, D, C, then the Blukes), the trump
    suit's mask and its low cards' mask (2–8): a hand's count is five lookups.

    >>> tables, _, _ = trick_tables(0, 4)
    >>> tables[4], tables[0][1 << 12], round(tables[1][1 << 12], 3)
    ([0.0, 0.9, 1.0, 1.9], 0.9, 0.532)
    """
    crowd = max(0.25, 1.0 - 0.12 * (players - 2))  # as basic.estimate_tricks
    side = _suit_sums(tuple(SIDE_ODDS.get(rank, 0.0) * crowd for rank in range(2, 15)))
    trump_sums = _suit_sums(tuple(TRUMP_ODDS.get(rank, 0.05) for rank in range(2, 15)))
    blukes = [0.0, 0.9, 1.0, 1.9]  # neither, the Lo, the Hi, both (R3)
    suits = tuple(trump_sums if suit == trump else side for suit in range(4))
    if trump == fast.NO_TRUMP:
        return (*suits, blukes), 0, 0
    return (*suits, blukes), fast.SUIT_MASKS[trump], 0x7F << (13 * trump)


def expected_tricks(hand: int, trump: int, players: int) -> float:
    """The bid model's trick count for a hand (a mask), as ``basic.estimate_tricks`` counts it.

    >>> round(expected_tricks(fast.mask_of(fast.cards_of(fast.BLUKES)), 0, 4), 2)
    1.9
    """
    (s, h, d, c, b), trumps, low = trick_tables(trump, players)
    total = s[hand & 0x1FFF] + h[hand >> 13 & 0x1FFF] + d[hand >> 26 & 0x1FFF] + c[hand >> 39 & 0x1FFF] + b[hand >> 52]
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


def view_trump(view: dict[str, Any]) -> int:
    """The trump of a seat's view as the fast kernel writes it (R12).

    >>> view_trump({"trump": "H"}), view_trump({"trump": None}) == fast.NO_TRUMP
    (1, True)
    """
    return fast.trump_of(Suit.parse(view["trump"]))


def hand_mask(view: dict[str, Any]) -> int:
    """The cards of the seat's own hand as the fast kernel writes them (a bit mask).

    >>> hand_mask({"hand": ["2S", "3S"]})
    3
    """
    return sum(fast.BIT[fast.card_index(c)] for c in view["hand"])


def _history(view: dict[str, Any]) -> list[list[dict[str, Any]]]:
    return [*view["tricks_played"], view["trick"]] if view["trick"] else list(view["tricks_played"])


def sample_worlds(
    view: dict[str, Any], rules: Rules, rng: random.Random, drawn: int, kept: int, seconds: float
) -> Worlds:
    """Deals of the unseen cards drawn in proportion to how well they explain the bids and plays.

    ``drawn`` consistent deals (uniform, or close to it once voids are known) are weighed; ``kept``
    are drawn from them by weight (systematic resampling). A deal drawn twice is listed twice, so a
    decision plays out ``kept`` deals however the weights fall, and its work shows nothing of them.
    Only ``view`` is read: the bot's own cards and what every seat sees. ``seconds`` of CPU time cap the drawing (a safety net: the count
    normally decides, so a decision is reproducible for a given random source).
    """
    seat, players = view["seat"], rules.players
    trump = view_trump(view)
    nj = rules.new_jersey
    cards = view["cards"]
    lowest = rules.min_bid()
    mine = hand_mask(view)
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
    events = []
    strays = set()  # seats seen to play off the model: a card played later would have changed a play
    for s, held, excluded in _play_events(history, bids, trump, nj, players, seat):
        if held & excluded:
            strays.add(s)
        if excluded & unseen:
            events.append((s, excluded & unseen))
    # The other seats' plays rule cards out of their hands, as voids do, unless the seat strayed
    # or no deal fits them all; then they only weigh the deals.
    ruled = list(voids)
    for s, excluded in events:
        if s not in strays:
            ruled[s] |= excluded
    if ruled != voids and fast.deal_unseen(random.Random(0), seat, mine, unseen, counts, ruled) is not None:
        voids = ruled
        events = [(s, excluded) for s, excluded in events if s in strays]
    deals: list[list[int]] = []
    weights: list[float] = []
    bidders = [(s, bid) for s in others if (bid := bids[s]) is not None]
    likelihood: dict[tuple[int, float], float] = {}  # by bid and count: few counts recur a lot
    for hands in _draw(rng, seat, mine, unseen, counts, voids, drawn, time.thread_time() + seconds):
        weight = 1.0
        for s, bid in bidders:
            key = bid, expected_tricks(hands[s] | played[s], trump, players)
            if key not in likelihood:
                likelihood[key] = bid_likelihood(*key, lowest, cards)
            weight *= likelihood[key]
        for s, excluded in events:
            if hands[s] & excluded:  # it would have played otherwise
                weight *= OFF_MODEL
        deals.append(hands)
        weights.append(weight)
    if not deals:
        return []
    picks = _resample(rng, weights, kept)
    worlds: Worlds = []
    for i, n in picks:
        hands = deals[i]
        worlds.extend([(hands, world_bids(bids, hands, trump, rules, cards), 1)] * n)
    return worlds


def world_bids(bids: list[int | None], hands: list[int], trump: int, rules: Rules, cards: int) -> list[int]:
    """The bids of a deal of ``cards`` each: the seats still to bid given the bid the model expects
    from their cards (R13's range)."""
    lowest = rules.min_bid()
    return [
        b if b is not None else expected_bid(expected_tricks(hands[s], trump, rules.players), lowest, cards)
        for s, b in enumerate(bids)
    ]


#: Swaps tried before the first deal of a chain and between two deals it gives, per card unseen.
BURN_IN, THIN = 3, 1


def _draw(
    rng: random.Random,
    seat: int,
    mine: int,
    unseen: int,
    counts: list[int],
    voids: list[int],
    drawn: int,
    deadline: float,
) -> Iterator[list[int]]:
    """Up to ``drawn`` deals of the unseen cards, uniform over the deals that fit ``voids``.

    Without voids every deal is drawn afresh (:func:`fast.deal_unseen`). With them a fresh deal
    rarely fits, and a deal in which each seat in turn takes the first cards it may hold is far
    from uniform (a seat that may hold few of the cards gets those few almost surely), so one
    fitting deal starts a Markov chain: swap two random cards between holders when both may hold
    the other's card. A swap is its own reverse, so every fitting deal is equally likely in the
    long run (Metropolis); :data:`BURN_IN` and :data:`THIN` swaps per unseen card separate the
    start and the deals given. Stops early once ``deadline`` (CPU time) has passed.
    """
    others = [s for s in range(len(counts)) if s != seat]
    if not any(voids[s] & unseen for s in others):
        for _ in range(drawn):
            hands = fast.deal_unseen(rng, seat, mine, unseen, counts, voids)
            if hands is None:
                return
            yield hands
            if time.thread_time() > deadline:
                return
        return
    start = fast.deal_unseen(rng, seat, mine, unseen, counts, voids)
    if start is None:
        return
    stock = len(counts)  # the undealt cards: a holder without voids
    held = [*start, unseen & ~sum(start[s] for s in others)]
    held[seat] = 0
    bans = [*voids, 0]
    bans[seat] = fast.FULL_DECK
    pool = [i for i in range(54) if unseen >> i & 1]
    owner = [-1] * 54
    for g, mask in enumerate(held):
        for card in pool:
            if mask >> card & 1:
                owner[card] = g
    rnd, bit, n = rng.random, fast.BIT, len(pool)
    steps = BURN_IN * n
    for _ in range(drawn):
        for _ in range(steps):
            a, b = pool[int(rnd() * n)], pool[int(rnd() * n)]
            ga, gb = owner[a], owner[b]
            if ga != gb and not bans[ga] >> b & 1 and not bans[gb] >> a & 1:
                owner[a], owner[b] = gb, ga
                both = bit[a] | bit[b]
                held[ga] ^= both
                held[gb] ^= both
        hands = held[:stock]
        hands[seat] = mine
        yield hands
        if time.thread_time() > deadline:
            return
        steps = THIN * n


def _play_events(
    history: list[list[dict[str, Any]]], bids: list[int | None], trump: int, nj: bool, players: int, me: int
) -> list[tuple[int, int, int]]:
    """What every other seat's plays say about its cards, if it plays as a player counting cards.

    That player (:func:`fast.aim_card`, the playouts' model) leads its strongest card while short
    of its bid if it is a trump ace or a Bluke, else its weakest; following, it wins with the
    cheapest card that may win (any card while short, a side-suit card once made) and otherwise
    throws its weakest. Each play is turned into the cards whose holding then would have made the
    model play otherwise. Returns ``(seat, cards it played at or after this play, those cards)``:
    a deal that gives the seat one of them is less likely (a card it played later gives every deal
    the same factor, so only unseen cards tell deals apart).
    """
    events: list[tuple[int, int, int]] = []
    taken = [0] * players
    later = [0] * players  # per play: the cards its seat played from then on, filled backwards
    played_from: list[list[int]] = []
    for trick in reversed(history):
        row = []
        for play in reversed(trick):
            later[play["seat"]] |= fast.BIT[fast.card_index(play["card"])]
            row.append(later[play["seat"]])
        played_from.append(row[::-1])
    played_from.reverse()
    lead_keys = _lead_keys(trump, nj)
    for trick, held in zip(history, played_from):
        indices = [fast.card_index(p["card"]) for p in trick]
        led = indices[0]
        powers = _powers(led, trump, nj)
        best = -1
        for position, play in enumerate(trick):
            s, card = play["seat"], indices[position]
            bid = bids[s]
            if s != me and bid is not None:
                contest = bid > taken[s]
                if position == 0:
                    excluded = _lead_excluded(lead_keys, card, contest)
                else:
                    excluded = _follow_excluded(lead_keys, powers, led, card, best, contest, trump, nj)
                if excluded:
                    events.append((s, held[position], excluded))
            best = max(best, powers[card])
        if len(trick) == players:
            taken[trick[fast.trick_winner(indices, trump, nj)]["seat"]] += 1
    return events


def _lead_excluded(keys: tuple[int, ...], card: int, contest: bool) -> int:
    """Cards that would have made the model lead otherwise than ``card``."""
    key = keys[card]
    if contest and key >= fast.COUNTED_LEAD:  # its strongest: nothing stronger held
        return _mask(lambda c: keys[c] > key)
    # Its weakest, and while short nothing a counting player leads for a trick.
    return _mask(lambda c: keys[c] < key or (contest and keys[c] >= fast.COUNTED_LEAD))


def _follow_excluded(
    keys: tuple[int, ...], powers: tuple[int, ...], led: int, card: int, best: int, contest: bool, trump: int, nj: bool
) -> int:
    """Cards that would have made the model follow otherwise than ``card`` when ``best`` led."""
    showed_void = fast.void_after(led, card, trump, nj) != 0
    allowed = fast.FULL_DECK if showed_void else fast.legal_mask(fast.FULL_DECK, led, trump, nj)

    def may_win(c: int) -> bool:
        return powers[c] > best and (contest or keys[c] < fast.TRUMP_POWER)

    if may_win(card):  # the cheapest card that may win
        return _mask(lambda c: may_win(c) and powers[c] < powers[card]) & allowed
    return _mask(lambda c: may_win(c) or keys[c] < keys[card]) & allowed  # none, and its weakest


def _mask(holds: Any) -> int:
    return sum(fast.BIT[c] for c in range(54) if holds(c))


@lru_cache(maxsize=16)
def _lead_keys(trump: int, nj: bool) -> tuple[int, ...]:
    """Every card's power when it leads: the model's idea of strength."""
    return tuple(_powers(c, trump, nj)[c] for c in range(54))


@lru_cache(maxsize=512)
def _powers(led: int, trump: int, nj: bool) -> tuple[int, ...]:
    """Power of every card in a trick that ``led`` began, asked of the rules engine (R3, R17)."""
    suit = None if trump == fast.NO_TRUMP else SUIT_ORDER[trump]
    led_suit = effective_suit(DECK[led], suit, nj)
    return tuple(power(card, suit, led_suit) for card in DECK)


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
