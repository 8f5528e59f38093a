"""What the scorer checks (R22–R25) and the scorecard every page, PDF and API answer shows (R19–R28)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from dataclasses import fields
from typing import Any

from .cards import Suit
from .errors import BidError
from .errors import Counted
from .errors import OrderError
from .errors import ScheduleError
from .errors import TrickError
from .rules import dealer_of
from .rules import Rules
from .scoring import Outcome
from .scoring import outcome
from .scoring import points


@dataclass(frozen=True)
class HandRecord:
    """What the scorer wrote down for one hand; ``None`` where nothing is recorded yet.

    ``cards`` and ``dealer`` are optional claims (from an imported file) checked against R24.
    ``trump`` ``None`` alone means the trump was not noted; with ``no_trump`` the scorer noted
    that the hand has none (a Bluke was turned, R12): a forgotten trump must not pass for one.
    """

    bids: tuple[int, ...] | None = None
    tricks: tuple[int, ...] | None = None
    trump: Suit | None = None
    cards: int | None = None
    dealer: int | None = None
    no_trump: bool = False

    @property
    def complete(self) -> bool:
        """Both bids and tricks recorded (R25)."""
        return self.bids is not None and self.tricks is not None


def _who(seat: int, names: Sequence[str] | None) -> str:
    """The player at ``seat``; a seat the table has not (``-1``: no wrapping round) by its number."""
    return names[seat] if names and 0 <= seat < len(names) else f"Seat {seat}"


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_bids(
    rules: Rules, number: int, bids: Sequence[object], names: Sequence[str] | None = None
) -> tuple[int, ...]:
    """Check a hand's bids against R13/R22 and return them; raise :class:`BidError` naming the player.

    >>> check_bids(Rules(3), 2, [2, 6, 4])
    (2, 6, 4)
    """
    rules.cards_in_hand(number)  # a hand outside the schedule is refused first (R24)
    if len(bids) != rules.players:
        raise BidError(
            "Hand {number} needs {players} bids, one per player, not {count} (R22).",
            "R22",
            number=number,
            players=rules.players,
            count=len(bids),
        )
    for seat, bid in enumerate(bids):
        check_bid(rules, number, bid, _who(seat, names))
    return tuple(int(b) for b in bids)  # type: ignore[call-overload]


def check_bid(rules: Rules, number: int, bid: object, who: str) -> None:
    """Check one player's bid (R13, R22), so a form can mark the very row that is wrong."""
    cards, low = rules.cards_in_hand(number), rules.min_bid()
    if not _whole(bid):
        raise BidError("{who}'s bid must be a whole number, not {bid!r} (R22).", "R22", who=who, bid=bid)
    assert isinstance(bid, int)
    if bid > cards:
        raise BidError(
            Counted(
                "{who} bid {bid}, but only {cards} card was dealt in hand {number} (R22).",
                "{who} bid {bid}, but only {cards} cards were dealt in hand {number} (R22).",
                cards,
            ),
            "R22",
            who=who,
            bid=bid,
            cards=cards,
            number=number,
        )
    if bid < low:
        if low == 0:
            raise BidError("{who} bid {bid}, but bids start at 0 (R13, R22).", "R22", who=who, bid=bid)
        raise BidError(
            "{who} bid {bid}, but every bid is at least 1 (zero bids are off) (R13, R22).", "R22", who=who, bid=bid
        )


def check_tricks(
    rules: Rules, number: int, tricks: Sequence[object], names: Sequence[str] | None = None
) -> tuple[int, ...]:
    """Check tricks taken against R23 and return them; raise :class:`TrickError` with the numbers.

    >>> try:
    ...     check_tricks(Rules(3), 2, [2, 7, 2])
    ... except TrickError as error:
    ...     print(error.rule, error)
    R23 Tricks add up to 11, but 12 cards were dealt in hand 2 (R23).
    """
    cards = rules.cards_in_hand(number)
    if len(tricks) != rules.players:
        raise TrickError(
            "Hand {number} needs {players} trick counts, one per player, not {count} (R23).",
            "R23",
            number=number,
            players=rules.players,
            count=len(tricks),
        )
    for seat, taken in enumerate(tricks):
        check_taken(rules, number, taken, _who(seat, names))
    total = sum(tricks)  # type: ignore[arg-type]
    if total != cards:
        raise TrickError(
            Counted(
                "Tricks add up to {total}, but {cards} card was dealt in hand {number} (R23).",
                "Tricks add up to {total}, but {cards} cards were dealt in hand {number} (R23).",
                cards,
            ),
            "R23",
            total=total,
            cards=cards,
            number=number,
        )
    return tuple(int(t) for t in tricks)  # type: ignore[call-overload]


def check_taken(rules: Rules, number: int, taken: object, who: str) -> None:
    """Check one player's tricks taken on their own (R23); the total is :func:`check_tricks`'s."""
    cards = rules.cards_in_hand(number)
    if not _whole(taken):
        raise TrickError("{who}'s tricks must be a whole number, not {taken!r} (R23).", "R23", who=who, taken=taken)
    assert isinstance(taken, int)
    if taken < 0:
        raise TrickError("{who} took {taken} tricks, but tricks taken start at 0 (R23).", "R23", who=who, taken=taken)
    if taken > cards:
        raise TrickError(
            Counted(
                "{who} took {taken} tricks, but hand {number} had {cards} card dealt (R23).",
                "{who} took {taken} tricks, but hand {number} had {cards} cards dealt (R23).",
                cards,
            ),
            "R23",
            who=who,
            taken=taken,
            number=number,
            cards=cards,
        )


def check_order(number: int, step: str, previous_complete: bool, bids_recorded: bool) -> None:
    """Entries in the rule book's order (R25): a hand's bids once the hand before it is complete,
    its tricks once its bids are recorded.

    >>> try:
    ...     check_order(3, "bids", previous_complete=False, bids_recorded=False)
    ... except OrderError as error:
    ...     print(error)
    Hand 2 is not complete yet: record its bids and tricks first (R25).
    """
    if step == "bids" and number > 1 and not previous_complete:
        raise OrderError(
            "Hand {number} is not complete yet: record its bids and tricks first (R25).", "R25", number=number - 1
        )
    if step == "tricks" and not bids_recorded:
        raise OrderError("Record the bids of hand {number} before its tricks (R25).", "R25", number=number)


def check_trump(rules: Rules, number: int, trump: Suit | None) -> None:
    """A recorded trump needs a turned-up card: the all-cards hand has none (R10, R12)."""
    if trump is not None and not rules.has_turn_up(number):
        raise ScheduleError(
            "Hand {number} deals every card, so none is turned up and it has no trump (R10, R12).",
            "R12",
            number=number,
        )


def check_records(
    rules: Rules, first_dealer: int, records: Sequence[HandRecord], names: Sequence[str] | None = None
) -> None:
    """Check a whole scoresheet: schedule and dealer (R24), trump (R12), ranges (R22, R23), order (R25)."""
    if not 0 <= first_dealer < rules.players:
        raise ScheduleError(
            "The first dealer must be one of the {players} seats, not {seat!r} (R6).",
            "R6",
            players=rules.players,
            seat=first_dealer,
        )
    if len(records) > rules.hand_count:
        raise ScheduleError(
            "This game has {hands} hands, not {count} (R7, R8, R24).", "R24", hands=rules.hand_count, count=len(records)
        )
    open_from: int | None = None
    for number, record in enumerate(records, start=1):
        cards = rules.cards_in_hand(number)
        if record.cards is not None and record.cards != cards:
            raise ScheduleError(
                Counted(
                    "Hand {number} must deal {cards} card, not {given} (R24).",
                    "Hand {number} must deal {cards} cards, not {given} (R24).",
                    cards,
                ),
                "R24",
                number=number,
                cards=cards,
                given=record.cards,
            )
        dealer = dealer_of(number, first_dealer, rules.players)
        if record.dealer is not None and record.dealer != dealer:
            raise ScheduleError(
                "Hand {number} is dealt by {dealer}, not {given}: the deal passes left (R5, R24).",
                "R24",
                number=number,
                dealer=_who(dealer, names),
                given=_who(record.dealer, names),
            )
        check_trump(rules, number, record.trump)
        if record.no_trump and record.trump is not None:
            raise ScheduleError(
                "Hand {number} cannot have trump {trump} and no trump at once (R12).",
                "R12",
                number=number,
                trump=record.trump.symbol,
            )
        if record.tricks is not None and record.bids is None:
            raise OrderError("Hand {number} has tricks but no bids: bids come first (R25).", "R25", number=number)
        if record.bids is not None:
            if open_from is not None:
                raise OrderError(
                    "Hand {number} has entries, but hand {open_from} is not complete (R25).",
                    "R25",
                    number=number,
                    open_from=open_from,
                )
            check_bids(rules, number, record.bids, names)
        if record.tricks is not None:
            check_tricks(rules, number, record.tricks, names)
        if not record.complete and open_from is None:
            open_from = number


@dataclass
class HandLine:
    """One row of the scorecard; fields not yet known are ``None``."""

    number: int
    cards: int
    dealer: int
    trump: str | None = None
    bids: list[int] | None = None
    tricks: list[int] | None = None
    points: list[int] | None = None
    totals: list[int] | None = None
    outcomes: list[str] | None = None
    no_trump: bool = False  # known to have no trump: noted so (R12), or the all-cards hand (R10)

    @property
    def bids_total(self) -> int | None:
        """Sum of the bids, the left column of the creative card (``14/12``, R28)."""
        return sum(self.bids) if self.bids is not None else None


@dataclass
class PlayerStats:
    """A player's S / O / P tallies, overtricks, total bid and total taken (R26)."""

    seat: int
    set: int = 0
    over: int = 0
    perfect: int = 0
    overtricks: int = 0
    bid: int = 0
    taken: int = 0

    @property
    def played(self) -> int:
        """Complete hands counted."""
        return self.set + self.over + self.perfect


@dataclass
class Scorecard:
    """The scorecard data: per-hand lines, running totals, S/O/P, winners (R19–R21, R26–R28)."""

    schedule: list[int]
    hands: list[HandLine]
    totals: list[int]
    stats: list[PlayerStats]
    status: str
    winners: list[int] = field(default_factory=list)

    @property
    def current(self) -> HandLine | None:
        """The first hand that is not complete, or ``None`` once the game is over."""
        return next((h for h in self.hands if h.tricks is None), None)

    @property
    def complete_hands(self) -> list[HandLine]:
        """Hands with both bids and tricks."""
        return [h for h in self.hands if h.tricks is not None]

    def leaders(self) -> list[int]:
        """Seats with the highest running total (after at least one complete hand)."""
        if not self.complete_hands:
            return []
        best = max(self.totals)
        return [seat for seat, total in enumerate(self.totals) if total == best]

    def to_dict(self) -> dict[str, Any]:
        """The game document's scoring fields, exactly as API.md writes them.

        Built by hand rather than with ``dataclasses.asdict``, whose deep copies took a third of
        a watcher's poll (benchmarks/web_load.py).
        """
        return {
            "schedule": list(self.schedule),
            "hands": [_flat(h) for h in self.hands],
            "totals": list(self.totals),
            "stats": [_flat(s) for s in self.stats],
            "status": self.status,
            "winners": list(self.winners),
        }


def _flat(item: HandLine | PlayerStats) -> dict[str, Any]:
    """A flat dataclass as a dict in field order; its lists are fresh for each line already."""
    return {f.name: getattr(item, f.name) for f in fields(item)}


def build_scorecard(rules: Rules, first_dealer: int, records: Sequence[HandRecord]) -> Scorecard:
    """Turn recorded hands into the scorecard: points, running totals, outcomes, S/O/P and winners.

    Call :func:`check_records` first; this function trusts its input.

    >>> card = build_scorecard(Rules(3), 0, [HandRecord((4, 5, 3), (5, 3, 5)), HandRecord((2, 6, 4), (2, 7, 3))])
    >>> card.totals, [h.outcomes for h in card.hands[:2]]
    ([61, 11, -8], [['O', 'S', 'O'], ['P', 'O', 'S']])
    """
    n = rules.players
    totals = [0] * n
    stats = [PlayerStats(seat) for seat in range(n)]
    hands: list[HandLine] = []
    for number, cards in enumerate(rules.schedule, start=1):
        record = records[number - 1] if number <= len(records) else HandRecord()
        line = HandLine(number, cards, dealer_of(number, first_dealer, n))
        line.trump = record.trump.value if record.trump else None
        line.no_trump = record.no_trump or not rules.has_turn_up(number)
        if record.bids is not None:
            line.bids = list(record.bids)
        if record.bids is not None and record.tricks is not None:
            line.tricks = list(record.tricks)
            line.points = [points(b, t) for b, t in zip(record.bids, record.tricks)]
            totals = [a + p for a, p in zip(totals, line.points)]
            line.totals = list(totals)
            marks = [outcome(b, t) for b, t in zip(record.bids, record.tricks)]
            line.outcomes = [m.value for m in marks]
            for s, mark, b, t in zip(stats, marks, record.bids, record.tricks):
                s.bid += b
                s.taken += t
                if mark is Outcome.SET:
                    s.set += 1
                elif mark is Outcome.OVER:
                    s.over += 1
                    s.overtricks += t - b
                else:
                    s.perfect += 1
        hands.append(line)
    finished = bool(hands) and hands[-1].tricks is not None
    card = Scorecard(list(rules.schedule), hands, totals, stats, "finished" if finished else "in_progress")
    if finished:
        card.winners = card.leaders()  # R21: equal highest totals share the win.
    return card
