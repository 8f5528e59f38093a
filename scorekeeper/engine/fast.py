"""A fast simulation kernel: ints and bit masks, no per-card objects, for bots and benchmarks.

Card ``i`` is the bit ``1 << i`` where ``i == Card.index``: suit cards are ``suit_index * 13 +
rank - 2`` in S, H, D, C order (0–51), 52 is the Lo Bluke and 53 the Hi Bluke. A hand is an
``int`` mask; trump is a suit index 0–3 or :data:`NO_TRUMP`.

Why a second module: a Monte-Carlo bot plays out thousands of hands per decision, and the readable
engine (one frozen ``Card`` per card, lists, enums) is too slow for that. Why it cannot drift from
the rules: nothing here decides a rule. At import time the follow masks are built by asking
:func:`.tricks.legal_plays` and :func:`.tricks.effective_suit`, the trick powers by asking
:func:`.tricks.power`, the points by asking :func:`.scoring.points`; games take their schedule
from :class:`.rules.Rules`. ``tests/engine/test_fast_replay.py`` replays thousands of random
hands through both and demands the same legal sets, winners and scores.

Random numbers are drawn in a fixed order, so a test can replay a hand from the same seed:

* :func:`deal`: 54 ``rng.random()`` keys, one per card index; the cards sorted by key are dealt
  in blocks of ``cards`` to the seats clockwise from the dealer's left, then one card is turned up
  (when any is left, R12);
* bids (:func:`play_random_hand`): clockwise from the dealer's left, ``lo + int(rng.random() *
  (cards - lo + 1))`` where ``lo`` is the lowest bid (R13);
* plays: a seat with ``k > 1`` legal cards draws ``int(rng.random() * k)`` and plays its legal
  card of that rank in ascending index order; a seat with one legal card draws nothing.

>>> hand = mask_of(parse_cards("AH HB 2S"))
>>> legal_mask(hand, Card.parse("KH").index, Suit.SPADES.index, False) == mask_of(parse_cards("AH HB"))
True
>>> sum(play_random_hand(random.Random(7), 4, 12, 0).tricks)
12
"""

from __future__ import annotations

import random
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from typing import Literal
from typing import NamedTuple

from .cards import Card  # noqa: F401  (parse_cards: the doctests)
from .cards import DECK  # noqa: F401  (parse_cards: the doctests)
from .cards import parse_cards  # noqa: F401  (parse_cards: the doctests)
from .cards import Suit  # noqa: F401  (parse_cards: the doctests)
from .cards import SUIT_ORDER  # noqa: F401  (parse_cards: the doctests)
from .errors import ConfigError
from .rules import dealer_of
from .rules import DECK_SIZE
from .rules import MAX_PLAYERS
from .rules import MIN_PLAYERS
from .rules import Rules
from .scoring import points as _rule_points
from .tricks import effective_suit
from .tricks import EffectiveSuit
from .tricks import legal_plays
from .tricks import power

__all__ = [
    "BIT",
    "BLUKES",
    "COUNTED_LEAD",
    "FULL_DECK",
    "HI_BLUKE",
    "LO_BLUKE",
    "NO_TRUMP",
    "SUIT_MASKS",
    "TRUMP_POWER",
    "GameResult",
    "HandResult",
    "Policy",
    "aim_card",
    "card_index",
    "cards_of",
    "deal",
    "deal_unseen",
    "follow_mask",
    "legal_mask",
    "mask_of",
    "play_out",
    "play_out_bids",
    "play_random_game",
    "play_random_hand",
    "points",
    "solve",
    "trick_winner",
    "trump_of",
    "void_after",
]

NO_TRUMP = -1
LO_BLUKE = 52
HI_BLUKE = 53
#: ``BIT[i] == 1 << i`` for the 54 card indices (a lookup is cheaper than a shift in a loop).
BIT: tuple[int, ...] = tuple(1 << i for i in range(DECK_SIZE))
FULL_DECK = (1 << DECK_SIZE) - 1
BLUKES = BIT[LO_BLUKE] | BIT[HI_BLUKE]
#: The thirteen cards of each suit, in S, H, D, C order.
SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * i) for i in range(4))
#: Highest bid or trick count any hand can have (2 players, all-cards hand, R10).
_MAX_CARDS = DECK_SIZE // MIN_PLAYERS

Policy = Literal["random", "greedy"]

assert all(card.index == i for i, card in enumerate(DECK)), "DECK must be in Card.index order"


# -- conversions ----------------------------------------------------------------------------------
def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of some cards: the bridge from the readable engine to this kernel.

    >>> bin(mask_of([Card.parse("2S"), Card.parse("3S")]))
    '0b11'
    """
    mask = 0
    for card in cards:
        mask |= BIT[card.index]
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask in index order: the bridge back, for tests and display.

    >>> cards_of(BLUKES)
    [Card.parse('LB'), Card.parse('HB')]
    """
    return [DECK[i] for i in range(DECK_SIZE) if mask >> i & 1]


def card_index(code: str) -> int:
    """Index of a card code (``"QS"`` → 10), via :meth:`Card.parse`, so bad codes fail under R1."""
    return Card.parse(code).index


def trump_of(suit: Suit | None) -> int:
    """Trump as this kernel writes it: the suit index 0–3, or :data:`NO_TRUMP`."""
    return NO_TRUMP if suit is None else suit.index


# -- the rules tables, asked once from the readable engine ----------------------------------------
#: ``_TRUMP_SUITS[trump + 1]`` is the readable engine's trump for a kernel trump index.
_TRUMP_SUITS: tuple[Suit | None, ...] = (None, *SUIT_ORDER)
#: Trump when card ``i`` is turned up (R12): its suit, or no trump for a Bluke.
_TRUMP_OF_TURN_UP: tuple[int, ...] = tuple(trump_of(card.suit) for card in DECK)


class _Tables(NamedTuple):
    """Everything one hand needs, for one variant and one trump, indexed by ``bit.bit_length()``.

    Index ``i + 1`` describes card ``i`` (so a play's bit needs no ``- 1``); entry 0 is unused.
    """

    allow: tuple[int, ...]  # led card → cards a player holding its suit may play
    core: tuple[int, ...]  # led card → the cards that oblige following (its effective suit)
    power: tuple[tuple[int, ...], ...]  # led card → power of every card in that trick (R3, R17)
    lead: tuple[int, ...]  # card → its power when it leads (the greedy policy's idea of strength)


def _build_tables(new_jersey: bool, trump: Suit | None) -> _Tables:
    """Ask the readable engine about every led card once; cache by the led card's effective suit."""
    by_suit: dict[EffectiveSuit, tuple[int, int, tuple[int, ...]]] = {}
    allow, core, powers, lead = [0], [0], [(0,) * (DECK_SIZE + 1)], [0]
    for led in DECK:
        suit = effective_suit(led, trump, new_jersey)
        if suit not in by_suit:
            # Holding every card, a player's legal plays are exactly what this lead allows.
            allowed = mask_of(legal_plays(DECK, led, trump, new_jersey))
            members = 0 if suit is None else mask_of(c for c in DECK if effective_suit(c, trump, new_jersey) == suit)
            by_suit[suit] = (allowed, members, (0, *(power(c, trump, suit) for c in DECK)))
        allowed, members, led_powers = by_suit[suit]
        allow.append(allowed)
        core.append(members)
        powers.append(led_powers)
        lead.append(led_powers[led.index + 1])
    return _Tables(tuple(allow), tuple(core), tuple(powers), tuple(lead))


#: ``_TABLES[new_jersey][trump + 1]``.
_TABLES: tuple[tuple[_Tables, ...], ...] = tuple(
    tuple(_build_tables(nj, suit) for suit in _TRUMP_SUITS) for nj in (False, True)
)
#: ``_POINTS[bid][taken]`` from :func:`.scoring.points` (R19, R20).
_POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_rule_points(bid, taken) for taken in range(_MAX_CARDS + 1)) for bid in range(_MAX_CARDS + 1)
)
#: ``_NEXT[players][seat]``: the seat on the left (R5), without a modulo in the loop.
_NEXT: tuple[tuple[int, ...], ...] = tuple(
    tuple((seat + 1) % max(players, 1) for seat in range(players)) for players in range(MAX_PLAYERS + 1)
)
_INDICES: tuple[int, ...] = tuple(range(DECK_SIZE))


# -- single rules, for bots and tests --------------------------------------------------------------
def legal_mask(hand: int, led: int, trump: int, new_jersey: bool) -> int:
    """Cards of ``hand`` that may be played when ``led`` (−1: nobody has led yet) was led (R14–R18).

    >>> legal_mask(mask_of(parse_cards("5H LB 2S")), card_index("AH"), 0, True) == mask_of(parse_cards("5H"))
    True
    """
    if led < 0:
        return hand
    tables = _TABLES[new_jersey][trump + 1]
    return hand & tables.allow[led + 1] if hand & tables.core[led + 1] else hand


def follow_mask(led: int, trump: int, new_jersey: bool) -> int:
    """The cards that oblige a player to follow when ``led`` is led (0 after a standard Bluke lead, R16)."""
    return _TABLES[new_jersey][trump + 1].core[led + 1]


def void_after(led: int, played: int, trump: int, new_jersey: bool) -> int:
    """Cards a seat is now known not to hold, having played ``played`` to a trick ``led`` began.

    A card outside the allowed set shows the seat had none of the led suit (R15, R18). A Bluke on
    a standard suit lead shows nothing: it may be played while holding the suit.

    >>> void_after(card_index("AH"), card_index("2S"), 0, False) == SUIT_MASKS[1]
    True
    >>> void_after(card_index("AH"), card_index("HB"), 0, False)
    0
    """
    tables = _TABLES[new_jersey][trump + 1]
    if BIT[played] & tables.allow[led + 1]:
        return 0
    return tables.core[led + 1]


def trick_winner(plays: Sequence[int], trump: int, new_jersey: bool) -> int:
    """Position in ``plays`` (card indices in play order, leader first) of the winning card (R17).

    >>> trick_winner([card_index(c) for c in ("JD", "KD", "LB", "2S")], 0, False)
    2
    """
    powers = _TABLES[new_jersey][trump + 1].power[plays[0] + 1]
    best, winner = -1, 0
    for position, card in enumerate(plays):
        if powers[card + 1] > best:
            best, winner = powers[card + 1], position
    return winner


def points(bid: int, taken: int) -> int:
    """Points for one hand, looked up from :func:`.scoring.points` (R19, R20).

    >>> points(3, 5), points(5, 3)
    (32, -50)
    """
    return _POINTS[bid][taken]


# -- chance ----------------------------------------------------------------------------------------
def deal(rng: random.Random, players: int, cards: int, dealer: int) -> tuple[list[int], int]:
    """Shuffle and deal: ``(hands by seat, turn-up index or -1)``; every card is in exactly one place.

    The seat on the dealer's left gets the first block (R5); the card after the last block is
    turned up unless the deck is used up (R10, R12). Sorting by 54 ``random()`` keys is a uniform
    shuffle and twice as fast as :meth:`random.Random.shuffle`.
    """
    rnd = rng.random
    keys = [rnd() for _ in _INDICES]
    order = sorted(_INDICES, key=keys.__getitem__)
    bit = BIT.__getitem__
    hands = [0] * players
    seat = dealer
    nxt = _NEXT[players]
    start = 0
    for _ in range(players):
        seat = nxt[seat]
        hands[seat] = sum(map(bit, order[start : start + cards]))  # distinct bits: sum is or
        start += cards
    return hands, order[start] if start < DECK_SIZE else -1


def deal_unseen(
    rng: random.Random,
    seat: int,
    hand: int,
    unseen: int,
    counts: Sequence[int],
    voids: Sequence[int],
    tries: int = 20,
) -> list[int] | None:
    """Deal the cards I cannot see to the other seats, consistently with what play has shown.

    ``unseen`` holds every card not in my ``hand``, not played and not turned up (other hands and
    the undealt stock). Seat ``s != seat`` gets ``counts[s]`` cards, none in ``voids[s]`` (see
    :func:`void_after`); the rest stays undealt. Returns the hands by seat (mine is ``hand``), or
    ``None`` when no assignment fits. Why two methods: plain rejection sampling is exactly uniform
    and fast while few voids are known; when it keeps failing, a capacity-matching deal always
    finds an assignment if one exists, then random swaps between seats mix it towards uniform.
    """
    players = len(counts)
    others = [s for s in range(players) if s != seat]
    cards = [i for i in _INDICES if unseen >> i & 1]
    need = sum(counts[s] for s in others)
    if need > len(cards):
        return None
    rnd = rng.random
    bit = BIT.__getitem__
    hands = [0] * players
    hands[seat] = hand
    constrained = any(voids[s] & unseen for s in others)
    for _ in range(tries if constrained else 1):
        keys = {card: rnd() for card in cards}
        cards.sort(key=keys.__getitem__)
        start = 0
        for s in others:
            mask = sum(map(bit, cards[start : start + counts[s]]))
            if mask & voids[s]:
                break
            hands[s] = mask
            start += counts[s]
        else:
            return hands
    groups = _match(rng, cards, [counts[s] for s in others] + [len(cards) - need], [voids[s] for s in others] + [0])
    if groups is None:
        return None
    for s, group in zip(others, groups):
        hands[s] = sum(map(bit, group))
    return hands


def _match(rng: random.Random, cards: list[int], capacity: list[int], voids: list[int]) -> list[list[int]] | None:
    """Fill groups to capacity with every card, never a card into its group's voids, or ``None``.

    Augmenting paths (bipartite b-matching) in random order, then Metropolis swaps: a swap of two
    cards between groups is symmetric, so accepting every allowed swap leaves the uniform
    distribution over consistent deals invariant.
    """
    groups: list[list[int]] = [[] for _ in capacity]
    order = list(range(len(capacity)))

    def place(card: int, visited: set[int]) -> bool:
        rng.shuffle(order)
        for g in list(order):
            if g in visited or voids[g] >> card & 1:
                continue
            visited.add(g)
            if len(groups[g]) < capacity[g]:
                groups[g].append(card)
                return True
            for j, other in enumerate(groups[g]):
                if place(other, visited):
                    groups[g][j] = card
                    return True
        return False

    for card in rng.sample(cards, len(cards)):
        if not place(card, set()):
            return None
    owner = {card: g for g, group in enumerate(groups) for card in group}
    for _ in range(4 * len(cards)):
        a, b = rng.choice(cards), rng.choice(cards)
        ga, gb = owner[a], owner[b]
        if ga == gb or voids[ga] >> b & 1 or voids[gb] >> a & 1:
            continue
        groups[ga][groups[ga].index(a)] = b
        groups[gb][groups[gb].index(b)] = a
        owner[a], owner[b] = gb, ga
    return groups


# -- playing out -----------------------------------------------------------------------------------
def _random_tricks(
    rand: Callable[[], float], hands: list[int], taken: list[int], leader: int, tricks: int, tables: _Tables
) -> None:
    """Play ``tricks`` whole tricks from ``leader`` with uniformly random legal cards (the hot loop)."""
    allow_of, core_of, power_of = tables.allow, tables.core, tables.power
    nxt = _NEXT[len(hands)]
    others = range(len(hands) - 1)
    for _ in range(tricks):
        m = hands[leader]
        k = m.bit_count()
        if k > 1:
            k = int(rand() * k)
            while k:
                m &= m - 1
                k -= 1
        b = m & -m
        hands[leader] ^= b
        led = b.bit_length()
        allow, core, powers = allow_of[led], core_of[led], power_of[led]
        best, winner, seat = powers[led], leader, leader
        for _ in others:
            seat = nxt[seat]
            h = hands[seat]
            m = h & allow if h & core else h
            k = m.bit_count()
            if k > 1:
                k = int(rand() * k)
                while k:
                    m &= m - 1
                    k -= 1
            b = m & -m
            hands[seat] = h ^ b
            p = powers[b.bit_length()]
            if p > best:
                best, winner = p, seat
        taken[winner] += 1
        leader = winner


def _greedy_card(legal: int, powers: tuple[int, ...], lead: tuple[int, ...], best: int, last: bool) -> int:
    """The greedy policy's card (as a bit): win cheaply if last, win big if not, else throw the weakest.

    Overtricks never cost points (R19), so every seat simply tries to take the trick.
    """
    win_bit, low_bit, low_key = 0, 0, 1 << 30
    win_power = 1 << 30 if last else -1
    m = legal
    while m:
        b = m & -m
        m ^= b
        i = b.bit_length()
        p = powers[i]
        if p > best:
            if (p < win_power) if last else (p > win_power):
                win_bit, win_power = b, p
        elif lead[i] < low_key:
            low_bit, low_key = b, lead[i]
    return win_bit or low_bit


def _pick_random(rand: Callable[[], float], legal: int) -> int:
    """A uniformly random legal card (as a bit), drawing as the module docstring documents."""
    k = legal.bit_count()
    if k > 1:
        k = int(rand() * k)
        while k:
            legal &= legal - 1
            k -= 1
    return legal & -legal


def _policy_tricks(
    rand: Callable[[], float],
    hands: list[int],
    taken: list[int],
    leader: int,
    tricks: int,
    tables: _Tables,
    greedy: Sequence[bool],
) -> None:
    """Play ``tricks`` whole tricks from ``leader``, each seat greedy or random as ``greedy`` says."""
    nxt = _NEXT[len(hands)]
    last_position = len(hands) - 1
    for _ in range(tricks):
        h = hands[leader]
        b = _aim_lead(h, tables.lead, True) if greedy[leader] else _pick_random(rand, h)  # the strongest
        hands[leader] = h ^ b
        led = b.bit_length()
        allow, core, powers = tables.allow[led], tables.core[led], tables.power[led]
        best, winner, seat = powers[led], leader, leader
        for position in range(1, last_position + 1):
            seat = nxt[seat]
            h = hands[seat]
            m = h & allow if h & core else h
            if greedy[seat]:
                b = _greedy_card(m, powers, tables.lead, best, position == last_position)
            else:
                b = _pick_random(rand, m)
            hands[seat] = h ^ b
            if powers[b.bit_length()] > best:
                best, winner = powers[b.bit_length()], seat
        taken[winner] += 1
        leader = winner


def play_out(
    rng: random.Random,
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    trump: int,
    new_jersey: bool,
    policy: Policy | Sequence[Policy] = "random",
    taken: Sequence[int] | None = None,
) -> list[int]:
    """Finish a hand from any position and return the tricks taken per seat (``taken`` included).

    ``hands`` are the cards still held (not changed); ``trick`` the cards already played to the
    current trick, led by ``leader``. ``policy`` is ``"random"`` (uniform legal cards, drawn as
    :func:`play_random_hand` draws them) or ``"greedy"`` (:func:`_greedy_card`, no randomness), or
    one of these per seat: the cheap playouts a Monte-Carlo bot scores candidate moves with.

    >>> hands, _ = deal(random.Random(5), 3, 4, 0)
    >>> sum(play_out(random.Random(6), hands, 1, [], 0, False, policy=["greedy", "random", "random"]))
    4
    """
    players = len(hands)
    policies = [policy] * players if isinstance(policy, str) else list(policy)
    if len(policies) != players or any(p not in ("random", "greedy") for p in policies):
        raise ValueError(f"Unknown playout policy {policy!r}; use 'random' or 'greedy' (or one per seat).")
    greedy = [p == "greedy" for p in policies]
    rand = rng.random
    held = list(hands)
    tally = list(taken) if taken is not None else [0] * players
    tables = _TABLES[new_jersey][trump + 1]
    if trick:
        led = trick[0] + 1
        allow, core, powers = tables.allow[led], tables.core[led], tables.power[led]
        best, winner = -1, leader
        for position, card in enumerate(trick):
            if powers[card + 1] > best:
                best, winner = powers[card + 1], (leader + position) % players
        for position in range(len(trick), players):
            seat = (leader + position) % players
            h = held[seat]
            m = h & allow if h & core else h
            if greedy[seat]:
                b = _greedy_card(m, powers, tables.lead, best, position == players - 1)
            else:
                b = _pick_random(rand, m)
            held[seat] = h ^ b
            if powers[b.bit_length()] > best:
                best, winner = powers[b.bit_length()], seat
        tally[winner] += 1
        leader = winner
    remaining = held[leader].bit_count()
    if any(greedy):
        _policy_tricks(rand, held, tally, leader, remaining, tables, greedy)
    else:
        _random_tricks(rand, held, tally, leader, remaining, tables)
    return tally


#: Lead power from which a card is a trump or a Bluke (R3): a seat that has made its bid keeps
#: these rather than spend them on an overtrick worth one point (R19).
TRUMP_POWER = 100
#: Lead power from which a seat counting its cards leads its strongest card while short of its
#: bid (a trump ace or a Bluke, R3); with less it leads its weakest and waits.
COUNTED_LEAD = 114


def _aim_card(legal: int, powers: tuple[int, ...], lead: tuple[int, ...], best: int, contest: bool) -> int:
    """A seat playing to its bid, seeing only its own cards and the trick so far.

    While short it wins with the cheapest card that beats the trick so far, and throws its weakest
    when none does. A seat that has made its bid (or can no longer make it) takes a trick only with
    a cheap side-suit winner, since an overtrick is worth one point and a set costs ten per bid
    trick (R19, R20); otherwise it throws its weakest.
    """
    win_bit, win_power, low_bit, low_key = 0, 1 << 30, 0, 1 << 30
    m = legal
    while m:
        b = m & -m
        m ^= b
        i = b.bit_length()
        p = powers[i]
        if p > best and p < win_power and (contest or lead[i] < TRUMP_POWER):
            win_bit, win_power = b, p
        if lead[i] < low_key:
            low_bit, low_key = b, lead[i]
    return win_bit or low_bit


def _contests(need: int, left: int, counting: bool) -> bool:
    """Whether a seat still tries to win tricks: while short of its bid, and for the bot itself
    only while the tricks left can still make it (a player counting cards keeps trying)."""
    return need > 0 if counting else 0 < need <= left


def _aim_lead(hand: int, lead: tuple[int, ...], contest: bool, bar: int = 0) -> int:
    """Lead the strongest card while short of the bid (if it reaches ``bar``), else the weakest."""
    high_bit, high, low_bit, low = 0, -1, 0, 1 << 30
    m = hand
    while m:
        b = m & -m
        m ^= b
        key = lead[b.bit_length()]
        if key > high:
            high_bit, high = b, key
        if key < low:
            low_bit, low = b, key
    return high_bit if contest and high >= bar else low_bit


def aim_card(
    hand: int, trick: Sequence[int], trump: int, new_jersey: bool, need: int, left: int, counting: bool = False
) -> int:
    """The card (index) a seat playing to its bid plays, as :func:`play_out_bids` models it.

    ``need``: the tricks the seat still lacks; ``left``: the tricks still to play, this one
    included. ``counting``: the seat is modelled as a player counting cards, who leads a strong
    card only when it is a trump ace or a Bluke.

    >>> DECK[aim_card(mask_of(parse_cards("AH 2H 5S")), [card_index("KH")], 1, False, 1, 3)]
    Card.parse('AH')
    >>> DECK[aim_card(mask_of(parse_cards("AH 2H 5S")), [card_index("KH")], 1, False, 0, 3)]
    Card.parse('2H')
    >>> DECK[aim_card(mask_of(parse_cards("AH 2H 5S")), [], 0, False, 1, 3, counting=True)]
    Card.parse('2H')
    """
    contest = _contests(need, left, counting)
    tables = _TABLES[new_jersey][trump + 1]
    if not trick:
        return _aim_lead(hand, tables.lead, contest, COUNTED_LEAD if counting else 0).bit_length() - 1
    led = trick[0] + 1
    powers = tables.power[led]
    legal = hand & tables.allow[led] if hand & tables.core[led] else hand
    best = max(powers[c + 1] for c in trick)
    return _aim_card(legal, powers, tables.lead, best, contest).bit_length() - 1


def play_out_bids(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    trump: int,
    new_jersey: bool,
    bids: Sequence[int],
    taken: Sequence[int],
    me: int = -1,
) -> list[int]:
    """Finish a hand with every seat playing to its bid; return the tricks taken per seat.

    Unlike the greedy policy, where every seat grabs every trick, a seat contests tricks only
    while it is short of its bid, and ducks once made (R19, R20), so the tricks flow to the seats
    that need them, as at a real table. No seat looks at another's cards: each decides from its
    own hand and the trick so far (:func:`aim_card`), as a player at the table does. Seat ``me``
    (the bot whose decision this is) contests while it can still make its bid and leads its
    strongest card then; every other seat is modelled as a player counting cards, contesting
    while short and leading strength only with a trump ace or a Bluke. Deterministic.

    >>> hands = [mask_of(parse_cards(h)) for h in ("AS 2H", "AH KH", "3S 4S")]
    >>> play_out_bids(hands, 0, [], 0, False, [1, 1, 1], [0, 0, 0], me=0)
    [1, 0, 1]
    """
    players = len(hands)
    held = list(hands)
    tally = list(taken)
    tables = _TABLES[new_jersey][trump + 1]
    lead_of, allow_of, core_of, power_of = tables.lead, tables.allow, tables.core, tables.power
    nxt = _NEXT[players]
    left = held[leader].bit_count() + (1 if trick else 0)
    plays = list(trick)
    contest = [False] * players
    counting = [s != me for s in range(players)]
    bar = [COUNTED_LEAD if c else 0 for c in counting]
    while left:
        for s in range(players):
            contest[s] = _contests(bids[s] - tally[s], left, counting[s])
        if plays:
            first = plays[0] + 1
            seat = leader
            best, winner = -1, leader
            powers = power_of[first]
            for card in plays:
                if powers[card + 1] > best:
                    best, winner = powers[card + 1], seat
                seat = nxt[seat]
            position = len(plays)
            plays = []
        else:
            h = held[leader]
            b = _aim_lead(h, lead_of, contest[leader], bar[leader])
            held[leader] = h ^ b
            first = b.bit_length()
            powers = power_of[first]
            best, winner, seat, position = powers[first], leader, nxt[leader], 1
        allow, core = allow_of[first], core_of[first]
        while position < players:
            h = held[seat]
            m = h & allow if h & core else h
            b = _aim_card(m, powers, lead_of, best, contest[seat])
            held[seat] = h ^ b
            p = powers[b.bit_length()]
            if p > best:
                best, winner = p, seat
            seat = nxt[seat]
            position += 1
        tally[winner] += 1
        leader = winner
        left -= 1
    return tally


def solve(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    trump: int,
    new_jersey: bool,
    bids: Sequence[int],
    taken: Sequence[int],
) -> list[int]:
    """Finish a hand with perfect play by every seat; return the tricks taken per seat.

    Every seat sees all cards and picks, at each turn, the card that gives it the best final
    points (R19, R20) given that the others do the same (max-n search; equal points go to the
    card taking more tricks, then to the weaker card). The search grows as the product of the
    legal cards, so bots call it only once few cards remain (the exact endgame).

    >>> hands = [mask_of(parse_cards(h)) for h in ("AS 2H", "AH KH", "3S 4S")]
    >>> solve(hands, 0, [], 0, False, [1, 1, 1], [0, 0, 0])
    [1, 0, 1]
    """
    players = len(hands)
    tables = _TABLES[new_jersey][trump + 1]
    allow_of, core_of, power_of = tables.allow, tables.core, tables.power
    nxt = _NEXT[players]
    score = [_POINTS[b] for b in bids]
    memo: dict[tuple[tuple[int, ...], int, tuple[int, ...]], tuple[int, ...]] = {}
    held = list(hands)

    def after_trick(winner: int, tally: tuple[int, ...]) -> tuple[int, ...]:
        if not held[winner]:
            return tally
        key = (tuple(held), winner, tally)
        found = memo.get(key)
        if found is None:
            found = turn(winner, 0, 0, -1, winner, tally)
            memo[key] = found
        return found

    def turn(seat: int, position: int, first: int, best: int, winner: int, tally: tuple[int, ...]) -> tuple[int, ...]:
        h = held[seat]
        m = h if position == 0 else (h & allow_of[first] if h & core_of[first] else h)
        chosen: tuple[int, ...] = ()
        chosen_key = (-(1 << 30), -1)
        last = position == players - 1
        while m:
            b = m & -m
            m ^= b
            held[seat] = h ^ b
            i = b.bit_length()
            if position == 0:
                f, nb, nw = i, power_of[i][i], seat
            else:
                p = power_of[first][i]
                f, nb, nw = (first, p, seat) if p > best else (first, best, winner)
            if last:
                won = list(tally)
                won[nw] += 1
                result = after_trick(nw, tuple(won))
            else:
                result = turn(nxt[seat], position + 1, f, nb, nw, tally)
            key = (score[seat][result[seat]], result[seat])
            if key > chosen_key:  # strict: the first (weakest index) of equals is kept
                chosen, chosen_key = result, key
        held[seat] = h
        return chosen

    start = tuple(taken)
    if not trick:
        return list(after_trick(leader, start))
    first = trick[0] + 1
    powers = power_of[first]
    best, winner, seat = -1, leader, leader
    for card in trick:
        if powers[card + 1] > best:
            best, winner = powers[card + 1], seat
        seat = nxt[seat]
    if len(trick) == players:
        won = list(start)
        won[winner] += 1
        return list(after_trick(winner, tuple(won)))
    return list(turn(seat, len(trick), first, best, winner, start))


class HandResult(NamedTuple):
    """One simulated hand, by seat: bids, tricks taken, points; the trump and the turn-up (or −1)."""

    bids: list[int]
    tricks: list[int]
    scores: list[int]
    trump: int
    turn_up: int


def play_random_hand(
    rng: random.Random,
    players: int,
    cards: int,
    dealer: int,
    new_jersey: bool = False,
    zero_bids: bool = False,
) -> HandResult:
    """Deal, bid at random, play random legal cards to the end and score: one Monte-Carlo sample.

    :raises ConfigError: when the deal is impossible (R4, R8, R10).

    >>> result = play_random_hand(random.Random(1), 3, 5, 2)
    >>> sum(result.tricks), [points(b, t) for b, t in zip(result.bids, result.tricks)] == result.scores
    (5, True)
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS or not 1 <= cards <= DECK_SIZE // players:
        raise ConfigError(
            "{players} players cannot be dealt {cards} cards each (R4, R8, R10).", "R8", players=players, cards=cards
        )
    hands, turn_up = deal(rng, players, cards, dealer)
    trump = _TRUMP_OF_TURN_UP[turn_up] if turn_up >= 0 else NO_TRUMP
    rnd = rng.random
    low = 0 if zero_bids else 1
    span = cards - low + 1
    bids = [0] * players
    nxt = _NEXT[players]
    seat = dealer
    for _ in range(players):
        seat = nxt[seat]
        bids[seat] = low + int(rnd() * span)
    taken = [0] * players
    _random_tricks(rnd, hands, taken, nxt[dealer], cards, _TABLES[new_jersey][trump + 1])
    table = _POINTS
    return HandResult(bids, taken, [table[b][t] for b, t in zip(bids, taken)], trump, turn_up)


class GameResult(NamedTuple):
    """A simulated game: the final totals by seat and every hand in order."""

    totals: list[int]
    hands: list[HandResult]


def play_random_game(rng: random.Random, rules: Rules, first_dealer: int = 0) -> GameResult:
    """Play a whole game of random hands on ``rules``' schedule, the deal passing left (R5, R7–R11).

    >>> result = play_random_game(random.Random(3), Rules(4))
    >>> len(result.hands), sum(sum(h.scores) for h in result.hands) == sum(result.totals)
    (25, True)
    """
    players = rules.players
    totals = [0] * players
    hands: list[HandResult] = []
    for number, cards in enumerate(rules.schedule, start=1):
        hand = play_random_hand(
            rng, players, cards, dealer_of(number, first_dealer, players), rules.new_jersey, rules.zero_bids
        )
        totals = [a + b for a, b in zip(totals, hand.scores)]
        hands.append(hand)
    return GameResult(totals, hands)
