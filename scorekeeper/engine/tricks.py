"""Following suit, legal plays and the winner of a trick (R3, R14–R18)."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence

from .cards import Card
from .cards import HI_BLUKE_RANK
from .cards import Suit
from .errors import Phrase
from .errors import PlayError

#: The "suit" the two Blukes form in a New Jersey hand without trump (R18, Decision).
BLUKE_SUIT = "bluke"
EffectiveSuit = Suit | str | None


def effective_suit(card: Card, trump: Suit | None, new_jersey: bool) -> EffectiveSuit:
    """The suit a card counts as for following.

    Standard (R15, R16): a Bluke has no suit. New Jersey (R18): a Bluke belongs to trump, or
    to a suit of its own in a hand without trump.
    """
    if not card.is_bluke:
        return card.suit
    if not new_jersey:
        return None
    return trump if trump is not None else BLUKE_SUIT


def legal_plays(hand: Iterable[Card], led: Card | None, trump: Suit | None, new_jersey: bool = False) -> list[Card]:
    """Cards of ``hand`` that may be played to a trick whose first card is ``led``.

    >>> legal_plays([Card.parse("AH"), Card.parse("HB"), Card.parse("2S")], Card.parse("KH"), Suit.SPADES)
    [Card.parse('AH'), Card.parse('HB')]
    """
    hand = list(hand)
    if led is None:
        return hand  # R14: the leader may lead any card.
    suit = effective_suit(led, trump, new_jersey)
    if suit is None:
        return hand  # R16: a Bluke led leaves nothing to follow.
    following = [c for c in hand if effective_suit(c, trump, new_jersey) == suit]
    if not following:
        return hand  # R15: void in the led suit, any card.
    if new_jersey:
        return following  # R18: Blukes count as trump and cannot stand in for another suit.
    return [c for c in hand if c.suit == suit or c.is_bluke]  # R15: follow suit or play a Bluke.


def check_play(
    card: Card, hand: Sequence[Card], led: Card | None, trump: Suit | None, new_jersey: bool = False
) -> None:
    """Raise :class:`PlayError` naming the rule when ``card`` may not be played."""
    if card not in hand:
        raise PlayError("{card.label} is not in your hand (R14).", "R14", card=card)
    if card in legal_plays(hand, led, trump, new_jersey):
        return
    assert led is not None
    suit = effective_suit(led, trump, new_jersey)
    name = Phrase("trumps") if suit == trump else _suit_name(suit)
    if new_jersey:
        if card.is_bluke and trump is None:  # R18's Decision: without trump the Blukes are a suit
            raise PlayError(
                "You hold {name}, so you must follow with one; in a New Jersey hand without trump the Blukes "
                "are a suit of their own and cannot replace them (R18).",
                "R18",
                name=name,
            )
        if card.is_bluke:
            raise PlayError(
                "You hold {name}, so you must follow with one; in New Jersey a Bluke counts as trump "
                "and cannot replace them (R18).",
                "R18",
                name=name,
            )
        raise PlayError("{led.label} was led and you hold {name}: you must follow (R18).", "R18", led=led, name=name)
    raise PlayError(
        "{led.label} was led and you hold {name}: play one of them or a Bluke (R15).", "R15", led=led, name=name
    )


def _suit_name(suit: EffectiveSuit) -> Phrase:
    """A suit as the messages name what a player holds of it (a Phrase: the web layer translates it)."""
    return {
        "S": Phrase("spades"),
        "H": Phrase("hearts"),
        "D": Phrase("diamonds"),
        "C": Phrase("clubs"),
        "bluke": Phrase("Blukes"),
    }[suit.value if isinstance(suit, Suit) else str(suit)]


def power(card: Card, trump: Suit | None, led_suit: EffectiveSuit) -> int:
    """Strength in a trick (R3): Hi Bluke > Lo Bluke > trumps > led suit > the rest (0, never wins)."""
    if card.is_bluke:
        return 200 + card.rank - HI_BLUKE_RANK  # Hi 200, Lo 199
    if card.suit == trump:
        return 100 + card.rank
    if card.suit == led_suit:
        return card.rank
    return 0


def trick_winner(plays: Sequence[tuple[int, Card]], trump: Suit | None, new_jersey: bool = False) -> int:
    """Seat that wins a complete trick given as ``(seat, card)`` in play order (R17).

    >>> played = [(0, Card.parse("JD")), (1, Card.parse("KD")), (2, Card.parse("LB")), (3, Card.parse("2S"))]
    >>> trick_winner(played, Suit.SPADES)
    2
    """
    if not plays:
        raise PlayError("An empty trick has no winner (R17).", "R17")
    led_suit = effective_suit(plays[0][1], trump, new_jersey)
    return max(plays, key=lambda play: power(play[1], trump, led_suit))[0]
