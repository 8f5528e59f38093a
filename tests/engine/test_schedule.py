"""Players, seats and the deal schedule (R4, R5, R7–R11, R24)."""

from __future__ import annotations

import pytest

from scorekeeper.engine import ConfigError
from scorekeeper.engine import dealer_of
from scorekeeper.engine import order_from
from scorekeeper.engine import Rules
from scorekeeper.engine import ScheduleError
from scorekeeper.engine import Variant


@pytest.mark.parametrize("players", [0, 1, 16, 20, -3])
def test_bluke_is_played_by_2_to_15_players(players: int) -> None:
    with pytest.raises(ConfigError) as error:
        Rules(players)
    assert error.value.rule == "R4"
    assert str(error.value) == f"Bluke is played by 2 to 15 players, not {players} (R4)."


@pytest.mark.parametrize("players", [2, 15])
def test_two_and_fifteen_players_are_both_allowed(players: int) -> None:
    assert Rules(players).players == players


@pytest.mark.parametrize("players", ["4", 4.0, True, None])
def test_the_number_of_players_must_be_a_whole_number(players: object) -> None:
    with pytest.raises(ConfigError) as error:
        Rules(players)  # type: ignore[arg-type]
    assert error.value.rule == "R4"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_play_25_hands_from_13_down_to_1_and_back(players: int) -> None:
    rules = Rules(players)
    assert rules.schedule == (*range(13, 0, -1), *range(2, 14))
    assert rules.hand_count == 25


@pytest.mark.parametrize(
    ("players", "top", "hands"),
    [
        (5, 10, 19),
        (6, 8, 15),
        (7, 7, 13),
        (8, 6, 11),
        (9, 5, 9),
        (10, 5, 9),
        (11, 4, 7),
        (12, 4, 7),
        (13, 4, 7),
        (14, 3, 5),
        (15, 3, 5),
    ],
)
def test_the_r8_table_of_top_deals_and_hands(players: int, top: int, hands: int) -> None:
    rules = Rules(players)
    assert rules.top_deal == top
    assert rules.hand_count == hands == 2 * top - 1
    assert rules.schedule == (*range(top, 0, -1), *range(2, top + 1))
    assert top * players < 54  # a card is always left to turn up


def test_five_players_play_19_hands_not_21() -> None:
    assert Rules(5).hand_count == 19
    assert max(Rules(5).schedule) == 10


@pytest.mark.parametrize(("players", "top", "hands"), [(3, 17, 33), (2, 26, 51)])
def test_the_extended_game_raises_the_top_deal(players: int, top: int, hands: int) -> None:
    rules = Rules(players, extended=True)
    assert rules.top_deal == top
    assert rules.hand_count == hands
    assert rules.schedule[0] == rules.schedule[-1] == top


@pytest.mark.parametrize("players", [4, 5, 9])
def test_the_extended_game_is_only_for_two_or_three_players(players: int) -> None:
    with pytest.raises(ConfigError) as error:
        Rules(players, extended=True)
    assert error.value.rule == "R9"


@pytest.mark.parametrize(("players", "cards"), [(2, 27), (3, 18), (6, 9), (9, 6)])
def test_the_all_cards_hand_deals_the_whole_deck_last(players: int, cards: int) -> None:
    rules = Rules(players, all_cards_hand=True)
    assert rules.schedule[-1] == cards
    assert rules.hand_count == Rules(players).hand_count + 1
    assert not rules.has_turn_up(rules.hand_count)
    assert all(rules.has_turn_up(n) for n in range(1, rules.hand_count))


@pytest.mark.parametrize("players", range(2, 16))
def test_the_all_cards_hand_exists_exactly_when_54_divides_by_the_players(players: int) -> None:
    if 54 % players == 0:
        assert Rules(players, all_cards_hand=True).schedule[-1] * players == 54
    else:
        with pytest.raises(ConfigError) as error:
            Rules(players, all_cards_hand=True)
        assert error.value.rule == "R10"


def test_eight_players_cannot_have_an_all_cards_hand() -> None:
    with pytest.raises(ConfigError) as error:
        Rules(8, all_cards_hand=True)
    assert error.value.rule == "R10"
    assert "8 players" in str(error.value)


def test_the_extended_all_cards_hand_follows_the_extended_schedule() -> None:
    assert Rules(3, extended=True, all_cards_hand=True).schedule[-2:] == (17, 18)


@pytest.mark.parametrize(("players", "top"), [(2, 13), (4, 13), (5, 10), (15, 3)])
def test_new_jersey_runs_upwards_first(players: int, top: int) -> None:
    rules = Rules(players, Variant.NEW_JERSEY)
    assert rules.schedule == (*range(1, top + 1), *range(top - 1, 0, -1))
    assert rules.hand_count == Rules(players).hand_count


def test_new_jersey_for_four_players_is_1_to_13_to_1() -> None:
    schedule = Rules(4, Variant.NEW_JERSEY).schedule
    assert (schedule[0], schedule[12], schedule[-1], len(schedule)) == (1, 13, 1, 25)


def test_rules_build_reads_api_values() -> None:
    rules = Rules.build(3, "new-jersey", {"extended": True, "zero_bids": True})
    assert rules == Rules(3, Variant.NEW_JERSEY, extended=True, zero_bids=True)
    assert rules.options == {"extended": True, "all_cards_hand": False, "zero_bids": True}


@pytest.mark.parametrize(
    ("variant", "options", "rule"),
    # an unknown or non-boolean option breaks no rule: it is malformed (no rule; the API answers 400)
    [("bridge", {}, "R18"), ("standard", {"jokers": True}, ""), ("standard", {"extended": "yes"}, "")],
)
def test_rules_build_refuses_unknown_variants_and_options(variant: str, options: dict[str, object], rule: str) -> None:
    with pytest.raises(ConfigError) as error:
        Rules.build(3, variant, options)
    assert error.value.rule == rule


def test_the_deal_passes_to_the_left_every_hand() -> None:
    assert [dealer_of(n, 2, 4) for n in range(1, 7)] == [2, 3, 0, 1, 2, 3]


def test_bidding_and_play_go_clockwise_from_the_dealers_left() -> None:
    dealer = 3
    assert order_from((dealer + 1) % 4, 4) == [0, 1, 2, 3]
    assert order_from(2, 5) == [2, 3, 4, 0, 1]


@pytest.mark.parametrize("number", [0, 26, -1])
def test_a_hand_outside_the_schedule_is_refused(number: int) -> None:
    with pytest.raises(ScheduleError) as error:
        Rules(4).cards_in_hand(number)
    assert error.value.rule == "R24"
    assert str(error.value) == f"This game has hands 1 to 25; there is no hand {number} (R7, R8, R24)."


def test_min_bid_is_one_unless_zero_bids_are_allowed() -> None:
    assert Rules(4).min_bid() == 1
    assert Rules(4, zero_bids=True).min_bid() == 0
