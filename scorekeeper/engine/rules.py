"""A game's configuration and its deal schedule (R4, R5, R7–R11)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import ConfigError
from .errors import ScheduleError

MIN_PLAYERS, MAX_PLAYERS = 2, 15
DECK_SIZE = 54


def check_players(players: int) -> None:
    """Bluke is played by 2 to 15 players (R4).

    :raises ConfigError: for any other number.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ConfigError("Bluke is played by 2 to 15 players, not {players} (R4).", "R4", players=players)


class Variant(enum.Enum):
    """The two rule sets: standard, and New Jersey (R18)."""

    STANDARD = "standard"
    NEW_JERSEY = "new-jersey"

    @classmethod
    def parse(cls, text: object) -> Variant:
        """``"new-jersey"`` → ``Variant.NEW_JERSEY``; anything else unknown is a ConfigError."""
        try:
            return cls(text)
        except ValueError:
            raise ConfigError(
                "The variant must be 'standard' or 'new-jersey', not {text!r} (R18).", "R18", text=text
            ) from None


OPTION_NAMES = ("extended", "all_cards_hand", "zero_bids")


@dataclass(frozen=True)
class Rules:
    """Everything that fixes a game's schedule and bidding range; checked when built.

    >>> Rules(3).schedule[:3], len(Rules(3).schedule)
    ((13, 12, 11), 25)
    """

    players: int
    variant: Variant = Variant.STANDARD
    extended: bool = False
    all_cards_hand: bool = False
    zero_bids: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise ConfigError(
                "The number of players must be a whole number, not {players!r} (R4).", "R4", players=self.players
            )
        check_players(self.players)
        if self.extended and self.players > 3:
            raise ConfigError(
                "The extended game is only for 2 or 3 players, not {players} (R9).", "R9", players=self.players
            )
        if self.all_cards_hand and DECK_SIZE % self.players:
            raise ConfigError(
                "An all-cards hand needs the 54 cards to divide evenly; they do not among {players} players (R10).",
                "R10",
                players=self.players,
            )

    @classmethod
    def build(cls, players: int, variant: object = "standard", options: Mapping[str, Any] | None = None) -> Rules:
        """Build from API values: a variant name and an ``options`` mapping of booleans."""
        options = dict(options or {})
        unknown = sorted(set(options) - set(OPTION_NAMES))
        if unknown:
            raise ConfigError(  # a malformed set-up, not a broken rule: no rule number
                "Unknown option {name!r}; the options are extended (R9), all_cards_hand (R10) and zero_bids (R13).",
                name=unknown[0],
            )
        flags = {}
        for name in OPTION_NAMES:
            value = options.get(name, False)
            if not isinstance(value, bool):
                raise ConfigError("Option {name!r} must be true or false, not {value!r}.", name=name, value=value)
            flags[name] = value
        return cls(players, Variant.parse(variant), **flags)

    @property
    def options(self) -> dict[str, bool]:
        """The options as the API writes them."""
        return {name: getattr(self, name) for name in OPTION_NAMES}

    @property
    def new_jersey(self) -> bool:
        """True for the New Jersey variant (R18)."""
        return self.variant is Variant.NEW_JERSEY

    @property
    def top_deal(self) -> int:
        """The largest deal: 13 for 2–4 players (R7), ``floor(53 / players)`` from 5 (R8) or extended (R9)."""
        if self.players >= 5 or self.extended:
            return (DECK_SIZE - 1) // self.players
        return 13

    @property
    def schedule(self) -> tuple[int, ...]:
        """Cards dealt in each hand: m…1…m, or 1…m…1 in New Jersey (R11), plus the all-cards hand (R10)."""
        m = self.top_deal
        if self.new_jersey:
            hands = list(range(1, m + 1)) + list(range(m - 1, 0, -1))
        else:
            hands = list(range(m, 0, -1)) + list(range(2, m + 1))
        if self.all_cards_hand:
            hands.append(DECK_SIZE // self.players)
        return tuple(hands)

    @property
    def hand_count(self) -> int:
        """Number of hands in the game (25 for 2–4 players, 2m − 1 from five, +1 all-cards hand)."""
        return len(self.schedule)

    def cards_in_hand(self, number: int) -> int:
        """Cards dealt to each player in hand ``number`` (1-based).

        :raises ScheduleError: for a hand the schedule does not have (R24); hand 0 must not
            quietly read as the last hand.
        """
        schedule = self.schedule
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(schedule):
            raise ScheduleError(
                "This game has hands 1 to {count}; there is no hand {number!r} (R7, R8, R24).",
                "R24",
                count=len(schedule),
                number=number,
            )
        return schedule[number - 1]

    def has_turn_up(self, number: int) -> bool:
        """Whether a card is left to turn up for trump (R12): not in the all-cards hand."""
        return self.cards_in_hand(number) * self.players < DECK_SIZE

    def min_bid(self) -> int:
        """Lowest bid: 1, or 0 with the zero-bids house rule (R13)."""
        return 0 if self.zero_bids else 1


def dealer_of(number: int, first_dealer: int, players: int) -> int:
    """Seat that deals hand ``number``: the deal passes left every hand (R5)."""
    return (first_dealer + number - 1) % players


def order_from(start: int, players: int) -> list[int]:
    """Seats in clockwise order starting at ``start`` (bidding and play, R5, R13, R14)."""
    return [(start + i) % players for i in range(players)]
