"""Points and outcomes of one player's hand (R19, R20, R26)."""

from __future__ import annotations

import enum


class Outcome(enum.Enum):
    """The S / O / P mark of R26."""

    SET = "S"
    OVER = "O"
    PERFECT = "P"


def points(bid: int, taken: int) -> int:
    """Points for one hand: ``10 × bid`` plus overtricks when made (R19), ``−10 × bid`` when set (R20).

    >>> points(3, 5), points(6, 8), points(4, 0), points(4, 3), points(5, 3)
    (32, 62, -40, -40, -50)
    """
    if taken < bid:
        return -10 * bid
    return 10 * bid + (taken - bid)


def outcome(bid: int, taken: int) -> Outcome:
    """Set, overtricks or perfect (R26).

    >>> outcome(4, 5).value, outcome(5, 3).value, outcome(2, 2).value
    ('O', 'S', 'P')
    """
    if taken < bid:
        return Outcome.SET
    if taken > bid:
        return Outcome.OVER
    return Outcome.PERFECT
