"""Points, outcomes, validation and the scorecard (R19–R28), and the worked example of RULES.md."""

from __future__ import annotations

import random

import pytest

from scorekeeper.engine import BidError
from scorekeeper.engine import build_scorecard
from scorekeeper.engine import check_bids
from scorekeeper.engine import check_records
from scorekeeper.engine import check_tricks
from scorekeeper.engine import Game
from scorekeeper.engine import HandRecord
from scorekeeper.engine import OrderError
from scorekeeper.engine import Outcome
from scorekeeper.engine import outcome
from scorekeeper.engine import points
from scorekeeper.engine import Rules
from scorekeeper.engine import RulesError
from scorekeeper.engine import ScheduleError
from scorekeeper.engine import Suit
from scorekeeper.engine import TrickError

NAMES = ["Ann", "Ben", "Cy"]
WORKED = [HandRecord((4, 5, 3), (5, 3, 5)), HandRecord((2, 6, 4), (2, 7, 3))]


# -- R19, R20 --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("bid", "taken", "score"), [(3, 5, 32), (6, 8, 62), (4, 0, -40), (4, 3, -40), (5, 3, -50)])
def test_the_r19_and_r20_examples(bid: int, taken: int, score: int) -> None:
    assert points(bid, taken) == score


def test_a_perfect_bid_scores_ten_per_trick() -> None:
    assert points(4, 4) == 40


def test_a_zero_bid_scores_only_overtricks() -> None:
    assert (points(0, 0), points(0, 2)) == (0, 2)


@pytest.mark.parametrize(
    ("bid", "taken", "mark"), [(4, 5, Outcome.OVER), (5, 3, Outcome.SET), (2, 2, Outcome.PERFECT), (1, 0, Outcome.SET)]
)
def test_each_hand_is_exactly_one_of_set_overtricks_perfect(bid: int, taken: int, mark: Outcome) -> None:
    assert outcome(bid, taken) is mark


# -- R22: bids ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("bids", "message"),
    [
        ([2, 13, 4], "Ben bid 13, but only 12 cards were dealt in hand 2 (R22)."),
        ([0, 6, 4], "Ann bid 0, but every bid is at least 1 (zero bids are off) (R13, R22)."),
        ([2, "6", 4], "Ben's bid must be a whole number, not '6' (R22)."),
        ([2, True, 4], "Ben's bid must be a whole number, not True (R22)."),
        ([2, 6], "Hand 2 needs 3 bids, one per player, not 2 (R22)."),
    ],
)
def test_bids_out_of_range_are_refused_with_the_player_named(bids: list[object], message: str) -> None:
    with pytest.raises(BidError) as error:
        check_bids(Rules(3), 2, bids, NAMES)
    assert error.value.rule == "R22"
    assert str(error.value) == message


def test_bids_need_not_add_up_to_the_cards_dealt() -> None:
    assert check_bids(Rules(3), 2, [12, 12, 12]) == (12, 12, 12)
    assert check_bids(Rules(3), 2, [1, 1, 1]) == (1, 1, 1)


def test_zero_bids_are_allowed_only_by_the_house_rule() -> None:
    assert check_bids(Rules(3, zero_bids=True), 1, [0, 0, 13]) == (0, 0, 13)
    with pytest.raises(BidError) as error:
        check_bids(Rules(3, zero_bids=True), 1, [-1, 0, 0], NAMES)
    assert str(error.value) == "Ann bid -1, but bids start at 0 (R13, R22)."


# -- R23: tricks ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("tricks", "message"),
    [
        ([2, 7, 2], "Tricks add up to 11, but 12 cards were dealt in hand 2 (R23)."),
        ([2, 7, 4], "Tricks add up to 13, but 12 cards were dealt in hand 2 (R23)."),
        ([13, 0, -1], "Ann took 13 tricks, but hand 2 had 12 cards dealt (R23)."),
        ([-1, 6, 7], "Ann took -1 tricks, but tricks taken start at 0 (R23)."),
        ([2, 7.0, 3], "Ben's tricks must be a whole number, not 7.0 (R23)."),
        ([2, 10], "Hand 2 needs 3 trick counts, one per player, not 2 (R23)."),
    ],
)
def test_tricks_must_be_in_range_and_add_up_to_the_cards_dealt(tricks: list[object], message: str) -> None:
    with pytest.raises(TrickError) as error:
        check_tricks(Rules(3), 2, tricks, NAMES)
    assert error.value.rule == "R23"
    assert str(error.value) == message


def test_the_api_example_message_for_tricks() -> None:
    with pytest.raises(RulesError) as error:
        check_tricks(Rules(3), 2, [2, 7, 2])
    assert str(error.value) == "Tricks add up to 11, but 12 cards were dealt in hand 2 (R23)."


# -- R24, R25: the scoresheet ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("records", "error_type", "rule", "message"),
    [
        (
            [WORKED[0], HandRecord((2, 6, 4), (2, 7, 3), cards=13)],
            ScheduleError,
            "R24",
            "Hand 2 must deal 12 cards, not 13 (R24).",
        ),
        (
            [WORKED[0], HandRecord((2, 6, 4), (2, 7, 3), dealer=2)],
            ScheduleError,
            "R24",
            "Hand 2 is dealt by Ben, not Cy: the deal passes left (R5, R24).",
        ),
        ([HandRecord(None, (5, 3, 5))], OrderError, "R25", "Hand 1 has tricks but no bids: bids come first (R25)."),
        (
            [HandRecord((4, 5, 3)), HandRecord((2, 6, 4))],
            OrderError,
            "R25",
            "Hand 2 has entries, but hand 1 is not complete (R25).",
        ),
        ([WORKED[0]] * 26, ScheduleError, "R24", "This game has 25 hands, not 26 (R7, R8, R24)."),
        (
            [HandRecord((4, 5, 3), (5, 3, 4))],
            TrickError,
            "R23",
            "Tricks add up to 12, but 13 cards were dealt in hand 1 (R23).",
        ),
    ],
)
def test_a_scoresheet_that_breaks_a_rule_is_rejected_with_the_rule_named(
    records: list[HandRecord], error_type: type[RulesError], rule: str, message: str
) -> None:
    with pytest.raises(error_type) as error:
        check_records(Rules(3), 0, records, NAMES)
    assert error.value.rule == rule
    assert str(error.value) == message


def test_a_scoresheet_with_the_current_hand_bid_but_not_played_is_fine() -> None:
    check_records(Rules(3), 0, [*WORKED, HandRecord((3, 3, 3))], NAMES)


def test_the_first_dealer_must_be_a_seat() -> None:
    with pytest.raises(ScheduleError) as error:
        check_records(Rules(3), 3, [])
    assert error.value.rule == "R6"


# -- the worked example (three players, standard, hands 1–2 of 25) --------------------------------------
def test_the_worked_example_totals_after_each_hand() -> None:
    check_records(Rules(3), 0, WORKED, NAMES)
    card = build_scorecard(Rules(3), 0, WORKED)
    one, two = card.hands[:2]
    assert (one.cards, one.dealer, one.points, one.totals) == (13, 0, [41, -50, 32], [41, -50, 32])
    assert (two.cards, two.dealer, two.points, two.totals) == (12, 1, [20, 61, -40], [61, 11, -8])
    assert card.totals == [61, 11, -8]


def test_the_worked_example_outcomes() -> None:
    card = build_scorecard(Rules(3), 0, WORKED)
    assert card.hands[0].outcomes == ["O", "S", "O"]
    assert card.hands[1].outcomes == ["P", "O", "S"]


def test_the_worked_example_bids_over_cards_column() -> None:
    card = build_scorecard(Rules(3), 0, WORKED)
    assert [f"{h.bids_total}/{h.cards}" for h in card.hands[:2]] == ["12/13", "12/12"]


def test_the_worked_example_cy_bids_first_in_hand_2() -> None:
    game = Game(Rules(3), first_dealer=0, number=1)  # Ann dealt hand 1; hand 2 is next
    game.deal(random.Random(0))
    assert (game.number, game.dealer, game.to_act) == (2, 1, 2)  # Ben deals, Cy bids first
    assert build_scorecard(Rules(3), 0, WORKED).hands[1].dealer == 1


def test_the_worked_example_tallies_s_o_p_overtricks_bids_and_tricks() -> None:
    stats = build_scorecard(Rules(3), 0, WORKED).stats
    assert [(s.set, s.over, s.perfect) for s in stats] == [(0, 1, 1), (1, 1, 0), (1, 1, 0)]
    assert [s.overtricks for s in stats] == [1, 1, 2]
    assert [(s.bid, s.taken) for s in stats] == [(6, 7), (11, 10), (7, 8)]
    assert [s.played for s in stats] == [2, 2, 2]


def test_the_worked_example_game_is_in_progress_with_no_winner() -> None:
    card = build_scorecard(Rules(3), 0, WORKED)
    assert card.status == "in_progress"
    assert card.winners == []
    assert card.leaders() == [0]
    assert card.current is card.hands[2]
    assert card.hands[2].bids is card.hands[2].totals is None


# -- R21 -------------------------------------------------------------------------------------------
def three_player_game(last_tricks: tuple[int, int, int] | None = None) -> list[HandRecord]:
    """A finished game in which Ann and Ben score alike (bid 1, take half) and Cy always overbids."""
    records = []
    for c in Rules(3).schedule:
        half = c // 2
        records.append(HandRecord((1, 1, c), (half, half, c - 2 * half)))
    if last_tricks is not None:
        records[-1] = HandRecord(records[-1].bids, last_tricks)
    return records


def test_equal_highest_totals_share_the_win() -> None:
    check_records(Rules(3), 0, three_player_game())
    card = build_scorecard(Rules(3), 0, three_player_game())
    assert card.status == "finished"
    assert card.totals[0] == card.totals[1] > card.totals[2]
    assert card.winners == [0, 1]


def test_the_highest_total_wins_alone() -> None:
    card = build_scorecard(Rules(3), 0, three_player_game(last_tricks=(7, 6, 0)))
    assert card.totals[0] == card.totals[1] + 1
    assert card.winners == [0]


def test_nobody_wins_before_the_last_hand() -> None:
    card = build_scorecard(Rules(3), 0, three_player_game()[:-1])
    assert (card.status, card.winners) == ("in_progress", [])


def test_the_scorecard_document_lists_every_scheduled_hand() -> None:
    document = build_scorecard(Rules(3), 0, WORKED).to_dict()
    assert len(document["hands"]) == 25
    assert document["hands"][0] == {
        "number": 1,
        "cards": 13,
        "dealer": 0,
        "trump": None,
        "bids": [4, 5, 3],
        "tricks": [5, 3, 5],
        "points": [41, -50, 32],
        "totals": [41, -50, 32],
        "outcomes": ["O", "S", "O"],
        "no_trump": False,
    }
    assert document["hands"][2]["bids"] is None
    assert document["stats"][0] == {"seat": 0, "set": 0, "over": 1, "perfect": 1, "overtricks": 1, "bid": 6, "taken": 7}


def test_a_hand_noted_without_trump_differs_from_one_whose_trump_was_not_noted() -> None:
    """R12: a turned Bluke means no trump; a scorer who noted nothing has not said so."""
    noted = HandRecord((4, 5, 3), (5, 3, 5), None, no_trump=True)
    card = build_scorecard(Rules(3), 0, [noted, HandRecord((2, 6, 4), (2, 7, 3))])
    assert [(h.trump, h.no_trump) for h in card.hands[:3]] == [(None, True), (None, False), (None, False)]


def test_the_all_cards_hand_is_known_to_have_no_trump() -> None:
    card = build_scorecard(Rules(3, all_cards_hand=True), 0, [])
    assert card.hands[-1].no_trump and card.hands[-1].cards == 18 and not card.hands[-2].no_trump


def test_a_suit_and_no_trump_together_are_refused() -> None:
    with pytest.raises(RulesError, match="cannot have trump ♥ and no trump at once"):
        check_records(Rules(3), 0, [HandRecord((4, 5, 3), None, Suit.HEARTS, no_trump=True)])
