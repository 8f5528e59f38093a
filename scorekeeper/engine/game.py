"""The game as played with cards: deal, turn-up, bidding, play, scoring, next hand (R5, R12–R21).

:class:`Game` is a state machine for virtual play. Chance enters only through :meth:`Game.deal`,
which takes the random source; every other step is :meth:`Game.bid` or :meth:`Game.play`, which
refuse an illegal action with the rule broken and change nothing. :meth:`Game.view_for` is the
only way to show the state to a player.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from .cards import Card
from .cards import DECK
from .cards import Suit
from .cards import SUIT_ORDER
from .errors import BidError
from .errors import ConfigError
from .errors import OrderError
from .errors import Phrase
from .errors import PlayError
from .rules import dealer_of
from .rules import Rules
from .scorecard import build_scorecard
from .scorecard import HandRecord
from .scorecard import Scorecard
from .tricks import check_play
from .tricks import legal_plays
from .tricks import trick_winner

Plays = list[tuple[int, Card]]


def sort_hand(cards: list[Card], trump: Suit | None) -> list[Card]:
    """Blukes, then trumps, then the other suits alternating colour, each high to low.

    >>> sort_hand([Card.parse(c) for c in ("2H", "AS", "LB", "KH")], Suit.HEARTS)
    [Card.parse('LB'), Card.parse('KH'), Card.parse('2H'), Card.parse('AS')]
    """
    order = _suit_display_order(trump)
    return sorted(cards, key=lambda c: (-1 if c.suit is None else order.index(c.suit), -c.rank))


_RED = (Suit.HEARTS, Suit.DIAMONDS)


def _suit_display_order(trump: Suit | None) -> list[Suit]:
    """Trump first, then each next suit of the other colour when one is left (S H C D without trump).

    >>> [s.value for s in _suit_display_order(Suit.SPADES)], [s.value for s in _suit_display_order(None)]
    (['S', 'H', 'C', 'D'], ['S', 'H', 'C', 'D'])
    """
    order = [trump] if trump is not None else []
    rest = [s for s in SUIT_ORDER if s != trump]
    while rest:
        last_red = (order[-1] in _RED) if order else None
        pick = next((s for s in rest if (s in _RED) != last_red), rest[0])
        order.append(pick)
        rest.remove(pick)
    return order


@dataclass
class Game:
    """A virtual game in progress. Create it with :meth:`Game.start`."""

    rules: Rules
    first_dealer: int = 0
    phase: str = "dealing"  # dealing → bidding → playing → dealing … → finished
    number: int = 0  # the hand being played (1-based); 0 before the first deal
    hands: list[list[Card]] = field(default_factory=list)
    turn_up: Card | None = None
    trump: Suit | None = None
    bids: list[int | None] = field(default_factory=list)
    taken: list[int] = field(default_factory=list)
    trick: Plays = field(default_factory=list)
    played: list[Plays] = field(default_factory=list)  # this hand's finished tricks, public
    last_trick: Plays = field(default_factory=list)  # the latest finished trick of this hand
    to_act: int | None = None
    records: list[HandRecord] = field(default_factory=list)

    # -- set-up and chance -------------------------------------------------------------------
    @classmethod
    def start(cls, rules: Rules, first_dealer: int, rng: random.Random) -> Game:
        """A new game with hand 1 dealt.

        :raises ConfigError: when ``first_dealer`` is not one of the seats (R6).
        """
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not 0 <= first_dealer < rules.players:
            raise ConfigError(
                "The first dealer must be one of the {players} seats, not {seat!r} (R6).",
                "R6",
                players=rules.players,
                seat=first_dealer,
            )
        game = cls(rules, first_dealer)
        game.deal(rng)
        return game

    @property
    def dealer(self) -> int:
        """Dealer of the current hand (R5)."""
        return dealer_of(max(self.number, 1), self.first_dealer, self.rules.players)

    @property
    def cards(self) -> int:
        """Cards dealt to each player this hand."""
        return self.rules.cards_in_hand(max(self.number, 1))

    def deal(self, rng: random.Random) -> None:
        """Shuffle and deal the next hand, turn up trump (R12); bidding starts left of the dealer."""
        if self.phase != "dealing":
            raise OrderError("The cards can only be dealt between hands (R25).", "R25")
        self.number += 1
        n, cards = self.rules.players, self.cards
        deck = list(DECK)
        rng.shuffle(deck)
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        self.hands = [[] for _ in range(n)]
        for i in range(cards * n):  # one card at a time, clockwise from the dealer's left (R5)
            self.hands[order[i % n]].append(deck[i])
        self.turn_up = deck[cards * n] if self.rules.has_turn_up(self.number) else None
        self.trump = self.turn_up.suit if self.turn_up is not None else None  # a Bluke: no trump
        self.bids = [None] * n
        self.taken = [0] * n
        # The last trick goes too: its cards are back in the deck and may now be in any hand.
        self.trick, self.played, self.last_trick = [], [], []
        self.phase = "bidding"
        self.to_act = (self.dealer + 1) % n

    # -- actions -----------------------------------------------------------------------------
    def legal_actions(self) -> list[int] | list[Card]:
        """Legal bids (ints) or cards for the seat to act; ``[]`` when nobody is to act."""
        if self.phase == "bidding":
            return list(range(self.rules.min_bid(), self.cards + 1))
        if self.phase == "playing" and self.to_act is not None:
            led = self.trick[0][1] if self.trick else None
            return legal_plays(self.hands[self.to_act], led, self.trump, self.rules.new_jersey)
        return []

    def _check_turn(self, seat: int, phase: str, rule: str) -> None:
        if self.phase != phase:
            now = {
                "bidding": Phrase("bidding is under way"),
                "playing": Phrase("cards are being played"),
                "dealing": Phrase("the next hand is being dealt"),
                "finished": Phrase("the game is over"),
            }[self.phase]
            if phase == "bidding":
                raise OrderError("You cannot bid now: {now} ({rule}).", rule, now=now, rule=rule)
            raise OrderError("You cannot play a card now: {now} ({rule}).", rule, now=now, rule=rule)
        if seat != self.to_act:
            if phase == "bidding":
                raise OrderError("It is not your turn to bid ({rule}).", rule, rule=rule)
            raise OrderError("It is not your turn to play a card ({rule}).", rule, rule=rule)

    def bid(self, seat: int, amount: int) -> None:
        """Record ``seat``'s bid; bids go clockwise from the dealer's left (R13)."""
        self._check_turn(seat, "bidding", "R13")
        low = self.rules.min_bid()
        if isinstance(amount, bool) or not isinstance(amount, int) or not low <= amount <= self.cards:
            raise BidError(
                "A bid this hand is a whole number from {low} to {cards}, not {amount!r} (R13).",
                "R13",
                low=low,
                cards=self.cards,
                amount=amount,
            )
        self.bids[seat] = amount
        self.to_act = (seat + 1) % self.rules.players
        if all(b is not None for b in self.bids):
            self.phase = "playing"  # R14: the player left of the dealer leads.
            self.to_act = (self.dealer + 1) % self.rules.players

    def play(self, seat: int, card: Card) -> None:
        """Play ``card`` from ``seat``'s hand, following R15–R18; finish the trick and the hand."""
        self._check_turn(seat, "playing", "R14")
        led = self.trick[0][1] if self.trick else None
        check_play(card, self.hands[seat], led, self.trump, self.rules.new_jersey)
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        n = self.rules.players
        if len(self.trick) < n:
            self.to_act = (seat + 1) % n
            return
        winner = trick_winner(self.trick, self.trump, self.rules.new_jersey)
        self.taken[winner] += 1
        self.played.append(self.trick)
        self.last_trick, self.trick = self.trick, []
        self.to_act = winner  # R14: the winner leads next.
        if not self.hands[winner]:
            self._finish_hand()

    def _finish_hand(self) -> None:
        bids = tuple(b for b in self.bids if b is not None)
        self.records.append(HandRecord(bids, tuple(self.taken), self.trump, no_trump=self.trump is None))
        self.to_act = None
        self.phase = "finished" if self.number == self.rules.hand_count else "dealing"

    def apply(self, seat: int, action: int | Card | str) -> None:
        """Apply a bid (int) or a play (a card or its code) for ``seat``."""
        if isinstance(action, (Card, str)):
            self.play(seat, action if isinstance(action, Card) else Card.parse(action))
        else:
            self.bid(seat, action)

    # -- what players see --------------------------------------------------------------------
    def scorecard(self) -> Scorecard:
        """The scorecard of the hands completed so far."""
        return build_scorecard(self.rules, self.first_dealer, self.records)

    def view_for(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see at a real table, and nothing more.

        Its own cards; the turn-up, bids, cards on the table and this hand's played tricks, which
        every player sees; never another seat's unplayed cards or the undealt cards.
        """
        if not 0 <= seat < self.rules.players:
            raise PlayError("There is no seat {seat} at this table (R4).", "R4", seat=seat)
        legal = self.legal_actions() if self.to_act == seat else []
        live = self.phase in ("bidding", "playing")
        return {
            "seat": seat,
            "phase": self.phase,
            "hand_number": self.number,
            "cards": self.cards,
            "dealer": self.dealer,
            "turn_up": str(self.turn_up) if self.turn_up and live else None,
            "trump": self.trump.value if self.trump and live else None,
            "hand": [str(c) for c in sort_hand(self.hands[seat], self.trump)] if live else [],
            "to_act": self.to_act,
            "legal": [x if isinstance(x, int) else str(x) for x in legal],
            "bids": list(self.bids),
            "trick": _plays(self.trick),
            "last_trick": _plays(self.last_trick) if self.last_trick else None,
            "tricks_played": [_plays(t) for t in self.played],
            "tricks_taken": list(self.taken),
            "totals": self.scorecard().totals,
        }

    # -- storage -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready snapshot (server side only: it holds every hidden card)."""
        return {
            "players": self.rules.players,
            "variant": self.rules.variant.value,
            "options": self.rules.options,
            "first_dealer": self.first_dealer,
            "phase": self.phase,
            "number": self.number,
            "hands": [[str(c) for c in h] for h in self.hands],
            "turn_up": str(self.turn_up) if self.turn_up else None,
            "bids": list(self.bids),
            "taken": list(self.taken),
            "trick": _plays(self.trick),
            "played": [_plays(t) for t in self.played],
            "last_trick": _plays(self.last_trick),
            "to_act": self.to_act,
            "records": [
                {
                    "bids": list(r.bids or ()),
                    "tricks": list(r.tricks or ()),
                    "trump": r.trump.value if r.trump else None,
                }
                for r in self.records
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game saved with :meth:`to_dict`."""
        rules = Rules.build(data["players"], data["variant"], data["options"])
        turn_up = Card.parse(data["turn_up"]) if data["turn_up"] else None
        return cls(
            rules=rules,
            first_dealer=data["first_dealer"],
            phase=data["phase"],
            number=data["number"],
            hands=[[Card.parse(c) for c in h] for h in data["hands"]],
            turn_up=turn_up,
            trump=turn_up.suit if turn_up else None,
            bids=list(data["bids"]),
            taken=list(data["taken"]),
            trick=_unplays(data["trick"]),
            played=[_unplays(t) for t in data["played"]],
            last_trick=_unplays(data["last_trick"]),
            to_act=data["to_act"],
            records=[
                HandRecord(tuple(r["bids"]), tuple(r["tricks"]), Suit.parse(r["trump"]), no_trump=r["trump"] is None)
                for r in data["records"]
            ],
        )


def _plays(plays: Plays) -> list[dict[str, Any]]:
    return [{"seat": s, "card": str(c)} for s, c in plays]


def _unplays(plays: list[dict[str, Any]]) -> Plays:
    return [(p["seat"], Card.parse(p["card"])) for p in plays]
