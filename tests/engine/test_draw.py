"""The draw for first dealer and scorer (R6)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from scorekeeper.engine import Card
from scorekeeper.engine import ConfigError
from scorekeeper.engine import draw_for_deal

from .builders import cards


class RiggedDraws:
    """Hands out the given rounds of drawn cards, one ``sample`` call per round."""

    def __init__(self, *rounds: str) -> None:
        self.rounds = [cards(r) for r in rounds]

    def sample(self, population: Sequence[Card], k: int) -> list[Card]:
        drawn = self.rounds.pop(0)
        assert len(drawn) == k and set(drawn) <= set(population)
        return drawn


def draw(players: int, *rounds: str) -> tuple[int, int, int]:
    rigged = RiggedDraws(*rounds)
    result = draw_for_deal(players, rigged)  # type: ignore[arg-type]
    assert not rigged.rounds, "every rigged round is drawn"
    return result.dealer, result.scorer, len(result.rounds)


def test_highest_card_deals_and_lowest_keeps_score() -> None:
    assert draw(4, "9S KH 2D 5C") == (1, 2, 1)


def test_the_hi_bluke_beats_the_lo_bluke_and_the_lo_bluke_beats_an_ace() -> None:
    assert draw(3, "AS LB 3D") == (1, 2, 1)
    assert draw(3, "LB HB 3D") == (1, 2, 1)


def test_suits_do_not_break_ties_the_tied_players_draw_again() -> None:
    # Seats 0 and 2 both draw a king; only they draw again, and seat 2's ace wins the deal.
    assert draw(3, "KS 4H KD", "3C AC") == (2, 1, 2)


def test_tied_lowest_players_draw_again_for_the_scorer() -> None:
    # 4H and 4C tie for lowest: seats 1 and 3 draw again, the lower card (2D, seat 3) keeps score.
    assert draw(4, "AS 4H QD 4C", "9S 2D") == (0, 3, 2)


def test_two_players_with_equal_cards_redraw_and_the_other_keeps_score() -> None:
    assert draw(2, "7S 7H", "2S 9H") == (1, 0, 2)


def test_dealer_and_scorer_differ_with_a_real_random_source() -> None:
    for seed in range(50):
        result = draw_for_deal(5, random.Random(seed))
        assert result.dealer != result.scorer
        assert all(len(set(r.values())) == len(r) for r in result.rounds)


@pytest.mark.parametrize("players", [1, 16])
def test_the_draw_needs_2_to_15_players(players: int) -> None:
    with pytest.raises(ConfigError) as error:
        draw_for_deal(players, random.Random(0))
    assert error.value.rule == "R4"
