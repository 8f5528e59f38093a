"""Cards and their notation (R1–R3, API.md notation)."""

from __future__ import annotations

import pytest

from scorekeeper.engine import Card
from scorekeeper.engine import DECK
from scorekeeper.engine import HI_BLUKE
from scorekeeper.engine import LO_BLUKE
from scorekeeper.engine import parse_cards
from scorekeeper.engine import RulesError
from scorekeeper.engine import Suit
from scorekeeper.engine.tricks import power

from .builders import card
from .builders import cards


def test_the_deck_has_54_distinct_cards_with_two_blukes() -> None:
    assert len(DECK) == len(set(DECK)) == 54
    assert [c for c in DECK if c.is_bluke] == [LO_BLUKE, HI_BLUKE]
    assert all(sum(1 for c in DECK if c.suit is s) == 13 for s in Suit)


@pytest.mark.parametrize("code", [str(c) for c in DECK])
def test_every_card_code_round_trips(code: str) -> None:
    parsed = Card.parse(code)
    assert str(parsed) == code
    assert eval(repr(parsed), {"Card": Card}) == parsed  # the repr pastes back


def test_queen_of_spades_reads_and_writes_as_qs() -> None:
    queen = Card.parse("QS")
    assert (queen.rank, queen.suit) == (12, Suit.SPADES)
    assert str(queen) == "QS"
    assert repr(queen) == "Card.parse('QS')"
    assert queen.label == "Q♠"


@pytest.mark.parametrize(
    ("code", "label"), [("TH", "10♥"), ("2C", "2♣"), ("AD", "A♦"), ("HB", "Hi Bluke"), ("LB", "Lo Bluke")]
)
def test_cards_have_readable_labels(code: str, label: str) -> None:
    assert card(code).label == label


@pytest.mark.parametrize("bad", ["", "1S", "10S", "QX", "Q", "QSS", "JB", "XX", " QS"])
def test_an_unknown_card_code_is_refused_under_r1(bad: str) -> None:
    with pytest.raises(RulesError) as error:
        Card.parse(bad)
    assert error.value.rule == "R1"
    assert repr(bad) in str(error.value)
    assert str(error.value).endswith("(R1).")


def test_a_card_code_that_is_not_a_string_is_refused_under_r1() -> None:
    with pytest.raises(RulesError) as error:
        Card.parse(12)  # type: ignore[arg-type]
    assert error.value.rule == "R1"


def test_parse_cards_reads_a_space_separated_string_or_a_list() -> None:
    assert parse_cards("QS HB") == parse_cards(["QS", "HB"]) == [Card(12, Suit.SPADES), HI_BLUKE]


def test_card_index_is_suit_major_with_the_blukes_last() -> None:
    assert [c.index for c in DECK] == list(range(54))
    assert (card("2S").index, card("AS").index, card("2H").index, card("AC").index) == (0, 12, 13, 51)
    assert (LO_BLUKE.index, HI_BLUKE.index) == (52, 53)


def test_ranks_run_ace_high_within_a_suit() -> None:
    ranks = [c.rank for c in cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")]
    assert ranks == sorted(ranks) and len(set(ranks)) == 13


def test_cards_sort_by_rank_then_suit() -> None:
    assert sorted(cards("AS 2C HB AH 2S LB")) == cards("2S 2C AS AH LB HB")
    assert sorted(DECK)[-2:] == [LO_BLUKE, HI_BLUKE]


@pytest.mark.parametrize("letter", ["S", "H", "D", "C"])
def test_suit_letters_parse_and_none_means_no_trump(letter: str) -> None:
    assert Suit.parse(letter).value == letter  # type: ignore[union-attr]
    assert Suit.parse(None) is None


def test_an_unknown_suit_letter_is_refused_under_r12() -> None:
    with pytest.raises(RulesError) as error:
        Suit.parse("X")
    assert error.value.rule == "R12"


def test_power_order_is_hi_bluke_lo_bluke_trumps_led_suit_then_the_rest() -> None:
    trump, led = Suit.SPADES, Suit.DIAMONDS
    ladder = cards("HB LB AS KS 2S AD KD 2D")
    powers = [power(c, trump, led) for c in ladder]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == len(powers)
    assert power(card("AH"), trump, led) == power(card("2C"), trump, led) == 0  # can never win


def test_the_two_of_trumps_beats_the_ace_of_any_other_suit() -> None:
    assert power(card("2S"), Suit.SPADES, Suit.HEARTS) > power(card("AH"), Suit.SPADES, Suit.HEARTS)
