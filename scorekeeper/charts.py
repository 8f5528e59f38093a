"""The score-progression chart: inline SVG drawn on the server, no chart library, no script.

Colours come from the page's CSS (``.c0`` … ``.c7`` set ``color``; lines stroke ``currentColor``),
so the chart follows light and dark mode like the rest of the page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from markupsafe import Markup, escape

from .engine import Scorecard
from .figures import minus

WIDTH, HEIGHT = 340, 210  # about one CSS pixel per unit on a phone, so the labels stay legible
LEFT, RIGHT, TOP, BOTTOM = 36, 10, 10, 22
PALETTE = 8


def nice_step(span: float, ticks: int = 4) -> int:
    """A round tick step (1, 2, 5 × 10^k) giving about ``ticks`` intervals.

    >>> nice_step(100), nice_step(7), nice_step(430)
    (50, 2, 200)
    """
    raw = max(span / ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return max(1, int(factor * power))
    return int(10 * power)  # pragma: no cover - the loop always returns


def series(card: Scorecard) -> list[list[int]]:
    """Each seat's running total after every complete hand, starting from 0."""
    hands = card.complete_hands
    return [[0] + [h.totals[seat] for h in hands if h.totals] for seat in range(len(card.totals))]


def progression(names: Sequence[str], card: Scorecard) -> Markup:
    """An SVG line per player: running total by hand (R19–R21); empty before the first hand."""
    lines = series(card)
    count = len(lines[0]) - 1 if lines else 0
    if count < 1:
        return Markup("")
    low = min(0, *(min(s) for s in lines))
    high = max(0, *(max(s) for s in lines))
    step = nice_step(high - low or 10)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step or step
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return round(LEFT + inner_w * i / count, 1)

    def y(v: float) -> float:
        return round(TOP + inner_h * (high - v) / (high - low), 1)

    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'aria-label="Running totals after each of {count} hands">']
    for v in range(int(low), int(high) + 1, step):
        cls = "axis zero" if v == 0 else "axis"
        parts.append(f'<line class="{cls}" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(v)}" y2="{y(v)}"/>'
                     f'<text class="tick" x="{LEFT - 4}" y="{y(v) + 3.5}" text-anchor="end">{minus(v)}</text>')
    every = max(1, math.ceil(count / 8))
    for i in range(0, count + 1, every):
        parts.append(f'<text class="tick" x="{x(i)}" y="{HEIGHT - 6}" text-anchor="middle">{i}</text>')
    for seat, values in enumerate(lines):
        points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
        dash = ' stroke-dasharray="5 3"' if seat >= PALETTE else ""
        parts.append(f'<g class="c{seat % PALETTE}"><title>{escape(names[seat])}</title>'
                     f'<polyline class="series" points="{points}"{dash}/>'
                     f'<circle cx="{x(count)}" cy="{y(values[-1])}" r="3"/></g>')
    parts.append("</svg>")
    return Markup("".join(parts))
