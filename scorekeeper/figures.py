"""How a score reads on screen and on paper: with a true minus sign (U+2212), never a hyphen.

One place for it, so the hand screen, the scorecard, the standings, the chart and the PDF agree
("−40" beside "−40", never "-40"). Files meant for programs (JSON, CSV) keep ASCII numbers.
"""

from __future__ import annotations

MINUS = "\N{MINUS SIGN}"


def minus(value: int) -> str:
    """A score as read: ``41``, ``0``, ``−50``.

    >>> minus(41), minus(0), minus(-50)
    ('41', '0', '−50')
    """
    return f"{MINUS}{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    """Points with their sign, as players say them: ``+32``, ``0``, ``−40``.

    >>> signed(32), signed(0), signed(-40)
    ('+32', '0', '−40')
    """
    return f"+{value}" if value > 0 else minus(value)
