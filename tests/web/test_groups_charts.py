"""The group player's charts: server-drawn SVG, nothing drawn without data, bars to scale."""

from __future__ import annotations

import re
from collections import Counter

from scorekeeper.charts import BOTTOM
from scorekeeper.charts import HEIGHT
from scorekeeper.charts import margin_bars
from scorekeeper.charts import outcome_rates
from scorekeeper.charts import rate_bars
from scorekeeper.charts import TOP
from scorekeeper.engine import PlayerStats
from scorekeeper.groups.stats import Counts

INNER = HEIGHT - TOP - BOTTOM


def heights(svg: str, cls: str) -> list[float]:
    return [float(h) for h in re.findall(rf'<rect class="bar {cls}"[^>]* height="([0-9.]+)"', svg)]


def test_nothing_is_drawn_without_a_complete_hand() -> None:
    assert outcome_rates([]) == "" and outcome_rates([PlayerStats(0)]) == ""
    assert rate_bars({}) == "" and margin_bars(Counter(), 3) == ""


def test_sop_lines_show_each_games_share_of_set_over_and_perfect() -> None:
    svg = str(outcome_rates([PlayerStats(0, set=1, over=1, perfect=2), PlayerStats(0, perfect=3)]))
    assert svg.startswith('<svg class="chart"') and "in each of 2 games" in svg
    perfect = re.search(r'<g class="sop-P"><title>Perfect</title><polyline class="series" points="([^"]+)"', svg)
    assert perfect
    (x0, y0), (x1, y1) = [tuple(map(float, p.split(","))) for p in perfect.group(1).split()]
    assert y0 == round(TOP + INNER * 0.5, 1) and y1 == TOP  # 2 of 4 hands, then 3 of 3


def test_rates_by_cards_dealt_run_from_1_to_13_with_bars_to_scale() -> None:
    svg = str(rate_bars({1: Counts(hands=4, set=1, over=1, perfect=2), 13: Counts(hands=2, set=2)}))
    labels = re.findall(r'text-anchor="middle">([0-9]+)</text>', svg)
    assert labels == [str(n) for n in range(1, 14)]
    made, perfect = heights(svg, "made"), heights(svg, "perfect")
    assert len(made) == len(perfect) == 13
    assert made[0] == round(INNER * 0.75, 1) and perfect[0] == round(INNER * 0.5, 1)
    assert made[12] == perfect[12] == 0 and made[5] == 0


def test_bid_accuracy_groups_large_misses_at_the_ends() -> None:
    svg = str(margin_bars(Counter({-3: 1, 0: 4, 3: 2}), 3))
    assert re.findall(r'text-anchor="middle">([^<]+)</text>', svg) == ["≤−3", "−2", "−1", "0", "+1", "+2", "≥+3"]
    assert heights(svg, "perfect") == [INNER]  # the tallest bar reaches the top of the scale (4)
