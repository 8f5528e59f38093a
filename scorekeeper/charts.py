"""The score-progression chart: inline SVG drawn on the server, no chart library, no script.

Colours come from the page's CSS (``.c0`` … ``.c7`` set ``color``; lines stroke ``currentColor``),
so the chart follows light and dark mode like the rest of the page.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from markupsafe import escape
from markupsafe import Markup

from .engine import PlayerStats
from .engine import Scorecard
from .figures import minus
from .figures import signed
from .i18n import _
from .i18n import _n
from .i18n import percent

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

    label = _n("Running totals after {n} hand", "Running totals after each of {n} hands", count)
    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}">']
    for v in range(int(low), int(high) + 1, step):
        cls = "axis zero" if v == 0 else "axis"
        parts.append(
            f'<line class="{cls}" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(v)}" y2="{y(v)}"/>'
            f'<text class="tick" x="{LEFT - 4}" y="{y(v) + 3.5}" text-anchor="end">{minus(v)}</text>'
        )
    every = max(1, math.ceil(count / 8))
    for i in range(0, count + 1, every):
        parts.append(f'<text class="tick" x="{x(i)}" y="{HEIGHT - 6}" text-anchor="middle">{i}</text>')
    for seat, values in enumerate(lines):
        points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
        dash = ' stroke-dasharray="5 3"' if seat >= PALETTE else ""
        parts.append(
            f'<g class="c{seat % PALETTE}"><title>{escape(names[seat])}</title>'
            f'<polyline class="series" points="{points}"{dash}/>'
            f'<circle cx="{x(count)}" cy="{y(values[-1])}" r="3"/></g>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


# -- a group player's charts (groups/pages.py): shares of hands, 0–100 % ---------------------------------
def _percent_axis(parts: list[str], inner_h: int) -> None:
    for v in (0, 25, 50, 75, 100):
        y = round(TOP + inner_h * (100 - v) / 100, 1)
        cls = "axis zero" if v == 0 else "axis"
        parts.append(
            f'<line class="{cls}" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y}" y2="{y}"/>'
            f'<text class="tick" x="{LEFT - 4}" y="{y + 3.5}" text-anchor="end">{percent(v / 100)}</text>'
        )


def outcome_rates(games: Sequence[PlayerStats]) -> Markup:
    """One line each for the share of Set, Overtrick and Perfect hands (R26) in each game, oldest first."""
    counted = [s for s in games if s.played]
    if not counted:
        return Markup("")
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    last = max(1, len(counted) - 1)

    def x(i: int) -> float:
        return round(LEFT + inner_w * (i / last if len(counted) > 1 else 0.5), 1)

    def y(share: float) -> float:
        return round(TOP + inner_h * (1 - share), 1)

    label = _n(
        "Share of set, overtrick and perfect hands in {n} game",
        "Share of set, overtrick and perfect hands in each of {n} games",
        len(counted),
    )
    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}">']
    _percent_axis(parts, inner_h)
    every = max(1, math.ceil(len(counted) / 8))
    for i in range(0, len(counted), every):
        parts.append(f'<text class="tick" x="{x(i)}" y="{HEIGHT - 6}" text-anchor="middle">{i + 1}</text>')
    for mark, field, title in (("S", "set", _("Set")), ("O", "over", _("Overtricks")), ("P", "perfect", _("Perfect"))):
        values = [getattr(s, field) / s.played for s in counted]
        points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
        parts.append(
            f'<g class="sop-{mark}"><title>{escape(title)}</title><polyline class="series" points="{points}"/>'
            + "".join(f'<circle cx="{x(i)}" cy="{y(v)}" r="2.5"/>' for i, v in enumerate(values))
            + "</g>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def _bars(groups: Sequence[tuple[str, Sequence[tuple[str, float]]]], label: str, scale: float) -> Markup:
    """Groups of vertical bars (class, value) with a label under each group; ``scale`` is the top value."""
    if not groups:
        return Markup("")
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = inner_w / len(groups)
    width = min(14.0, (slot - 4) / max(1, len(groups[0][1])))
    parts = [f'<svg class="chart bars" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}">']
    if scale == 100:
        _percent_axis(parts, inner_h)
    else:
        step = nice_step(scale)
        top = math.ceil(scale / step) * step or step
        for v in range(0, top + 1, step):
            y = round(TOP + inner_h * (top - v) / top, 1)
            parts.append(
                f'<line class="axis{" zero" if v == 0 else ""}" x1="{LEFT}" x2="{WIDTH - RIGHT}" '
                f'y1="{y}" y2="{y}"/>'
                f'<text class="tick" x="{LEFT - 4}" y="{y + 3.5}" text-anchor="end">{v}</text>'
            )
        scale = top
    for g, (name, bars) in enumerate(groups):
        left = LEFT + slot * g + (slot - width * len(bars)) / 2
        for b, (cls, value) in enumerate(bars):
            h = round(inner_h * value / scale, 1) if scale else 0
            parts.append(
                f'<rect class="bar {cls}" x="{round(left + b * width, 1)}" y="{round(TOP + inner_h - h, 1)}" '
                f'width="{round(width - 1, 1)}" height="{h}"/>'
            )
        parts.append(
            f'<text class="tick" x="{round(LEFT + slot * (g + 0.5), 1)}" y="{HEIGHT - 6}" '
            f'text-anchor="middle">{escape(name)}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def rate_bars(by_cards: Mapping[int, Any]) -> Markup:
    """Made and perfect rate (R19, R26) for each number of cards dealt, 1 to 13 (or the top deal
    played, R9): two bars per deal size, none where no such hand was played."""
    if not by_cards:
        return Markup("")
    groups = [
        (
            str(cards),
            [("made", 100 * c.made_rate), ("perfect", 100 * c.perfect_rate)]
            if c
            else [("made", 0.0), ("perfect", 0.0)],
        )
        for cards, c in ((n, by_cards.get(n)) for n in range(1, max(13, *by_cards) + 1))
    ]
    return _bars(groups, _("Made and perfect rate by cards dealt"), 100)


def margin_bars(margins: Mapping[int, int], reach: int) -> Markup:
    """How many hands ended ``taken − bid`` tricks away from the bid, from −reach (or fewer) to +reach (or more)."""
    if not margins:
        return Markup("")

    def name(m: int) -> str:
        return ("\u2264" if m == -reach else "\u2265" if m == reach else "") + signed(m)

    groups = [
        (name(m), [("perfect" if m == 0 else "over" if m > 0 else "set", float(margins.get(m, 0)))])
        for m in range(-reach, reach + 1)
    ]
    return _bars(groups, _("Hands by tricks taken minus tricks bid"), max(margins.values()))
