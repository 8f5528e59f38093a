"""Following suit, legal plays and trick winners (R3, R14–R18)."""

from __future__ import annotations

import pytest

from scorekeeper.engine import legal_plays
from scorekeeper.engine import PlayError
from scorekeeper.engine import Suit
from scorekeeper.engine import trick_winner
from scorekeeper.engine.tricks import check_play

from .builders import card
from .builders import cards
from .builders import codes
from .builders import suit


def legal(hand: str, led: str | None, trump: str | None, new_jersey: bool = False) -> list[str]:
    return codes(legal_plays(cards(hand), card(led) if led else None, suit(trump), new_jersey))


def winner(plays: str, trump: str | None, new_jersey: bool = False) -> int:
    """Seat (0, 1, 2 …) of the winning card, the first card led by seat 0."""
    return trick_winner(list(enumerate(cards(plays))), suit(trump), new_jersey)


# -- R14, R15, R16: the standard rules -----------------------------------------------------------
def test_the_leader_may_lead_any_card() -> None:
    assert legal("AH 2S HB", None, "S") == ["AH", "2S", "HB"]


@pytest.mark.parametrize(
    ("hand", "led", "trump", "expected"),
    [
        ("AH 5H 2S 9D", "KH", "S", ["AH", "5H"]),  # follow suit
        ("AH HB 2S", "KH", "S", ["AH", "HB"]),  # ... or play a Bluke
        ("LB 2S 9D", "KH", "S", ["LB", "2S", "9D"]),  # void in hearts: any card
        ("2S 9D", "KH", "S", ["2S", "9D"]),  # void: may trump or discard
        ("AS 3S HB 4D", "KS", "S", ["AS", "3S", "HB"]),  # trump led: follow with trump or a Bluke
        ("AH 5D", "KH", None, ["AH"]),  # no trump: follow the led suit
    ],
)
def test_a_player_holding_the_led_suit_must_follow_it_or_play_a_bluke(
    hand: str, led: str, trump: str | None, expected: list[str]
) -> None:
    assert legal(hand, led, trump) == expected


@pytest.mark.parametrize("led", ["HB", "LB"])
def test_a_bluke_led_leaves_nothing_to_follow(led: str) -> None:
    assert legal("AH 5H 2S LB HB", led, "S") == ["AH", "5H", "2S", "LB", "HB"]
    assert legal("AH 2S", led, None) == ["AH", "2S"]


def test_a_bluke_may_be_played_at_any_time_in_the_standard_game() -> None:
    assert "HB" in legal("HB 2D 3D", "AD", "S")
    assert "LB" in legal("LB 2S", "KS", "S")


# -- R17: the winner ------------------------------------------------------------------------------
def test_lo_bluke_beats_the_ace_of_trumps() -> None:
    assert winner("AS LB", "S") == 1


def test_hi_bluke_beats_the_lo_bluke() -> None:
    assert winner("LB HB", "S") == 1
    assert winner("HB LB", None) == 0


def test_the_r17_example_the_lo_bluke_beats_the_two_of_trumps() -> None:
    # Spades trump, four players: J♦ led, K♦, the third player (holding 6♦ and the Lo Bluke)
    # plays the Lo Bluke, the fourth plays 2♠: the Lo Bluke wins — Blukes beat trumps.
    assert "LB" in legal("6D LB", "JD", "S")
    assert winner("JD KD LB 2S", "S") == 2


def test_the_r17_example_had_the_fourth_player_held_the_hi_bluke() -> None:
    assert winner("JD KD LB HB", "S") == 3


@pytest.mark.parametrize(
    ("plays", "trump", "seat"),
    [
        ("KD AD 2D", "S", 1),  # highest of the led suit
        ("KD AH 2S", "S", 2),  # the 2 of trumps beats an ace of another suit
        ("KD AS QS", "S", 1),  # highest trump
        ("2D AH AC", "S", 0),  # off-suit cards never win
        ("2D AH AC", None, 0),  # nor without trump
        ("KD AH QD", None, 0),
    ],
)
def test_the_highest_trump_else_the_highest_card_of_the_led_suit_wins(plays: str, trump: str | None, seat: int) -> None:
    assert winner(plays, trump) == seat


def test_an_empty_trick_has_no_winner() -> None:
    with pytest.raises(PlayError) as error:
        trick_winner([], Suit.SPADES)
    assert error.value.rule == "R17"


# -- R18: New Jersey --------------------------------------------------------------------------------
def test_new_jersey_a_heart_must_be_played_instead_of_a_bluke() -> None:
    # Example: spades trump, A♥ led; a player holding a Bluke and one heart must play the heart.
    assert legal("LB 5H", "AH", "S", new_jersey=True) == ["5H"]
    assert legal("HB 5H 9D", "AH", "S", new_jersey=True) == ["5H"]


def test_new_jersey_a_bluke_is_the_only_spade_suit_card_and_must_be_played() -> None:
    # Example: spades led; a player whose only spade-suit card is a Bluke must play the Bluke.
    assert legal("LB 3H 4D", "KS", "S", new_jersey=True) == ["LB"]


def test_new_jersey_trump_led_is_followed_by_a_trump_or_a_bluke() -> None:
    assert legal("HB 2S 3H", "KS", "S", new_jersey=True) == ["HB", "2S"]


def test_new_jersey_a_bluke_led_calls_for_trumps() -> None:
    assert legal("2S AH", "LB", "S", new_jersey=True) == ["2S"]
    assert legal("HB AH", "LB", "S", new_jersey=True) == ["HB"]


def test_new_jersey_a_player_void_in_the_led_suit_may_play_any_card_blukes_included() -> None:
    assert legal("LB 2S 9D", "AH", "S", new_jersey=True) == ["LB", "2S", "9D"]


def test_new_jersey_without_trump_a_led_bluke_must_be_followed_by_the_other_bluke() -> None:
    assert legal("HB AS 2D", "LB", None, new_jersey=True) == ["HB"]
    assert legal("AS 2D", "LB", None, new_jersey=True) == ["AS", "2D"]


def test_new_jersey_without_trump_a_suit_lead_cannot_be_answered_with_a_bluke() -> None:
    assert legal("HB 5H", "AH", None, new_jersey=True) == ["5H"]


def test_new_jersey_blukes_still_rank_above_the_ace_of_trumps() -> None:
    assert winner("AS LB KS", "S", new_jersey=True) == 1
    assert winner("AH HB", "S", new_jersey=True) == 1
    assert winner("LB HB", None, new_jersey=True) == 1


# -- check_play: the refusal names the rule -------------------------------------------------------
def test_failing_to_follow_names_r15() -> None:
    with pytest.raises(PlayError) as error:
        check_play(card("2S"), cards("2S AH"), card("KH"), Suit.SPADES)
    assert error.value.rule == "R15"
    assert str(error.value) == "K♥ was led and you hold hearts: play one of them or a Bluke (R15)."


def test_a_bluke_instead_of_the_led_suit_in_new_jersey_names_r18() -> None:
    with pytest.raises(PlayError) as error:
        check_play(card("LB"), cards("LB 5H"), card("AH"), Suit.SPADES, new_jersey=True)
    assert error.value.rule == "R18"


def test_a_bluke_instead_of_the_led_suit_in_a_new_jersey_hand_without_trump_says_why() -> None:
    with pytest.raises(PlayError) as error:
        check_play(card("LB"), cards("LB 2H"), card("KH"), None, new_jersey=True)
    assert error.value.rule == "R18"
    assert "without trump the Blukes are a suit of their own" in str(error.value)
    assert "counts as trump" not in str(error.value)


def test_a_card_not_in_hand_is_refused_naming_r14() -> None:
    with pytest.raises(PlayError) as error:
        check_play(card("AS"), cards("2S"), None, Suit.SPADES)
    assert "not in your hand (R14)" in str(error.value) and error.value.rule == "R14"
