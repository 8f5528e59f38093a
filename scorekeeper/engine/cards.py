"""Cards and the deck (R1–R3) in the notation of API.md: ``QS``, ``TH``, ``2C``, ``HB``, ``LB``."""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass

from .errors import RulesError


@functools.total_ordering
class Suit(enum.Enum):
    """The four suits; the value is the letter used in card codes and in ``trump``.

    Suits are ordered S < H < D < C, so that cards (ordered by rank, then suit) can be sorted.
    """

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def index(self) -> int:
        """Position 0–3 in S, H, D, C order (the order of the fast kernel's bit masks)."""
        return SUIT_ORDER.index(self)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Suit):
            return NotImplemented
        return self.index < other.index

    @property
    def symbol(self) -> str:
        """The printed pip: ♠ ♥ ♦ ♣."""
        return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[self.value]

    @classmethod
    def parse(cls, text: str | None) -> Suit | None:
        """``"S"`` → ``Suit.SPADES``; ``None`` (no trump) stays ``None``.

        >>> Suit.parse("H")
        <Suit.HEARTS: 'H'>
        """
        if text is None:
            return None
        try:
            return cls(text)
        except ValueError:
            raise RulesError("{text!r} is not a suit: a trump is S, H, D or C (R12).", "R12", text=text) from None


SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)

RANK_CHARS = "23456789TJQKA"
#: Ranks 2–14 are the suit cards (R2, ace high); the Blukes rank above every suit card.
LO_BLUKE_RANK = 15
HI_BLUKE_RANK = 16


@dataclass(frozen=True, order=True)
class Card:
    """One of the 54 cards. ``suit`` is ``None`` for the two Blukes.

    Cards order by rank, then suit (each Bluke is alone at its rank).

    >>> Card.parse("QS")
    Card.parse('QS')
    >>> str(Card.parse("LB"))
    'LB'
    """

    rank: int
    suit: Suit | None = None

    @classmethod
    def parse(cls, code: str) -> Card:
        """Read a card code; an unknown code is a :class:`RulesError` under R1."""
        if not isinstance(code, str):
            raise RulesError("{code!r} is not a card code such as QS or HB (R1).", "R1", code=code)
        card = _BY_CODE.get(code.upper())
        if card is None:
            raise RulesError("{code!r} is not a card; use codes such as QS, TH, 2C, HB, LB (R1).", "R1", code=code)
        return card

    @property
    def is_bluke(self) -> bool:
        """True for the Hi and the Lo Bluke."""
        return self.suit is None

    @property
    def index(self) -> int:
        """0–51 for suit cards (suit-major, 2 low), 52 for the Lo Bluke, 53 for the Hi Bluke."""
        if self.suit is None:
            return 52 if self.rank == LO_BLUKE_RANK else 53
        return self.suit.index * 13 + self.rank - 2

    def __str__(self) -> str:
        if self.suit is None:
            return "HB" if self.rank == HI_BLUKE_RANK else "LB"
        return RANK_CHARS[self.rank - 2] + self.suit.value

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def label(self) -> str:
        """How the card reads on screen: ``Q♠``, ``10♥``, ``Hi Bluke``."""
        if self.suit is None:
            return "Hi Bluke" if self.rank == HI_BLUKE_RANK else "Lo Bluke"
        rank = "10" if self.rank == 10 else RANK_CHARS[self.rank - 2]
        return rank + self.suit.symbol


HI_BLUKE = Card(HI_BLUKE_RANK)
LO_BLUKE = Card(LO_BLUKE_RANK)
#: The 54-card deck of R1, in index order (``DECK[card.index] is card``).
DECK: tuple[Card, ...] = tuple(
    [Card(rank, suit) for suit in SUIT_ORDER for rank in range(2, 15)] + [LO_BLUKE, HI_BLUKE]
)
_BY_CODE: dict[str, Card] = {str(card): card for card in DECK}


def parse_cards(codes: list[str] | str) -> list[Card]:
    """Parse a list of codes or a space-separated string: ``parse_cards("QS HB")``."""
    if isinstance(codes, str):
        codes = codes.split()
    return [Card.parse(code) for code in codes]
