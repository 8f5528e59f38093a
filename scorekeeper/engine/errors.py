"""One family of errors for every broken rule, each naming its rule in RULES.md.

A message is an English template in ``str.format`` style plus its parameters, so that the web
layer can say the same sentence in the player's language (the engine stays standard-library only):
``template`` is the catalog key, ``params`` fill it, and ``str(error)`` is the English sentence.
"""

from __future__ import annotations


class Phrase(str):
    """English words passed as a parameter that the web layer translates too ("trump", "a Bluke")."""

    __slots__ = ()


class Counted(str):
    """An English sentence about a count ``n``: the form for it (``one`` for 1, else ``many``), and
    both forms for the web layer, which says it with the plural forms of the player's language.

    >>> Counted("{cards} card was dealt.", "{cards} cards were dealt.", 1).format(cards=1)
    '1 card was dealt.'
    """

    one: str
    many: str
    n: int

    def __new__(cls, one: str, many: str, n: int) -> Counted:
        sentence = super().__new__(cls, one if n == 1 else many)
        sentence.one, sentence.many, sentence.n = one, many, n
        return sentence


class RulesError(ValueError):
    """A rule of the game (R1–R28) was broken; ``str()`` is a sentence a player understands.

    >>> error = RulesError("{who} bid {bid} (R22).", "R22", who="Ann", bid=9)
    >>> str(error), error.template, error.params
    ('Ann bid 9 (R22).', '{who} bid {bid} (R22).', {'who': 'Ann', 'bid': 9})
    """

    rule: str = ""

    def __init__(self, message: str, rule: str | None = None, /, **params: object) -> None:
        if rule is not None:
            self.rule = rule
        self.template, self.params = message, params
        super().__init__(message.format(**params) if params else message)

    @property
    def message(self) -> str:
        """The player-facing sentence, ending with the rule number."""
        return str(self)


class ConfigError(RulesError):
    """The table or game set-up is impossible (players, schedule, options: R4, R7–R11)."""


class ScheduleError(RulesError):
    """A hand's cards or dealer do not follow the schedule (R24)."""


class BidError(RulesError):
    """A bid is out of range or out of turn (R13, R22)."""


class TrickError(RulesError):
    """Tricks taken do not fit the cards dealt (R23)."""


class PlayError(RulesError):
    """A card may not be played now (R14–R18)."""


class OrderError(RulesError):
    """Things were recorded or done in the wrong order (R25)."""
