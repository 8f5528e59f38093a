"""Printable scorecards (R26–R28): what a sheet shows, and its rendering to PDF with WeasyPrint.

The engine's :class:`~scorekeeper.engine.Scorecard` is the only source of numbers; this module
only arranges them for paper. Rendering reuses one font configuration and the parsed print
stylesheet (parsing CSS and loading fonts dominate a small render), and fetches nothing but the
app's own static files: player names are untrusted and never become URLs.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

from flask import current_app
from flask import render_template
from flask_babel import format_date
from flask_babel import pgettext

from .. import charts
from ..engine import Rules
from ..engine import Scorecard
from ..engine import Suit
from ..extensions import db
from ..figures import minus
from ..i18n import _
from ..i18n import _n
from ..i18n import N_

STYLES = ("creative", "plain", "blank")
PAPER_SIZES = {"a4": "A4 landscape", "letter": "letter landscape"}
STYLE_TITLES = {"creative": N_("Creative scorecard"), "plain": N_("Scorecard"), "blank": N_("Score sheet")}
OPTION_LABELS = {
    "extended": N_("extended game (R9)"),
    "all_cards_hand": N_("all-cards hand (R10)"),
    "zero_bids": N_("zero bids allowed (R13)"),
}


# -- what a sheet shows ------------------------------------------------------------------------
@dataclass(frozen=True)
class Cell:
    """One player's entry for one hand; ``None`` where nothing is known (or the sheet is blank)."""

    bid: int | None
    taken: int | None
    total: int | None
    outcome: str | None  # "S", "O" or "P" (R26): circled, plain or boxed on the creative card
    dealer: bool
    winning: bool = False  # a winner's final total


@dataclass(frozen=True)
class Row:
    """One hand: cards dealt, trump, the table's total bid and each player's cell."""

    number: int
    cards: int
    trump: str  # the suit's pip, "NT" (no trump, R12), "–" (not noted), or "" before the bids
    bids_total: int | None
    cells: list[Cell]
    turn: bool  # the first hand after the deal turns (13…1 | 2…13): a rule, and a page break when long


@dataclass(frozen=True)
class Player:
    """A column of the sheet, with the player's R26 tallies."""

    seat: int
    name: str  # "" for an unnamed seat on a blank sheet
    total: int  # after the last complete hand
    winner: bool
    set: int
    over: int
    perfect: int
    overtricks: int
    bid: int
    taken: int
    bot: str | None = None  # the bot level playing this seat of a virtual game


@dataclass(frozen=True)
class Series:
    """One player's line on the score-progression chart."""

    name: str
    color: str
    dash: str
    points: str  # SVG polyline points
    end: tuple[float, float]
    label_y: float
    total: int


@dataclass(frozen=True)
class Chart:
    """The score-progression chart: running totals after every complete hand (R19–R21)."""

    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int
    x_ticks: list[tuple[float, int, int]]  # x, hand number, cards dealt
    y_ticks: list[tuple[float, int]]
    zero_y: float
    series: list[Series]


@dataclass(frozen=True)
class Sheet:
    """Everything one printed scorecard shows."""

    style: str
    paper: str
    game_id: str | None
    played_on: datetime | None
    variant: str
    options: list[str]
    schedule: str
    hand_count: int
    players: list[Player]
    first_dealer: int
    rows: list[Row]
    status: str  # "finished", "in_progress" or "blank"
    played: int  # complete hands
    chart: Chart | None
    virtual: bool = False  # played at a virtual table (cards dealt by the app, some seats bots)

    @property
    def title(self) -> str:
        """The sheet's name in the reader's language."""
        return _(STYLE_TITLES[self.style])

    @property
    def winners(self) -> list[Player]:
        return [p for p in self.players if p.winner]

    @property
    def long(self) -> bool:
        """More hands than one page holds (A4 fits 26): the card turns the page where the deal turns."""
        return len(self.rows) > 26

    @property
    def density(self) -> str:
        """Type size class by number of players: the sheet stays on the page's width."""
        n = len(self.players)
        return "few" if n <= 6 else "many" if n <= 10 else "crowd"


def schedule_text(rules: Rules) -> str:
    """How the deal runs, as the sheet's header says it: ``25 hands: 13 → 1 → 13``."""
    top = rules.top_deal
    run = f"1 → {top} → 1" if rules.new_jersey else f"{top} → 1 → {top}"
    if rules.all_cards_hand:
        return _n(
            "{n} hand: {run}, then {last} (all cards)",
            "{n} hands: {run}, then {last} (all cards)",
            rules.hand_count,
            run=run,
            last=rules.schedule[-1],
        )
    return _n("{n} hand: {run}", "{n} hands: {run}", rules.hand_count, run=run)


def turn_of(schedule: Sequence[int]) -> int | None:
    """The first hand after the deal turns: 13…1 | 2…13, or 1…13 | 12…1 in New Jersey (R7, R8, R11).

    >>> turn_of((13, 12, 1, 2, 13)), turn_of((1, 2, 3, 2, 1, 27)), turn_of((3, 2, 1, 2, 3))
    (4, 4, 4)
    """
    steps = [after - before for before, after in zip(schedule, schedule[1:])]
    return next((i + 2 for i, step in enumerate(steps) if (step > 0) != (steps[0] > 0)), None)


def build_sheet(
    style: str,
    paper: str,
    rules: Rules,
    first_dealer: int,
    names: Sequence[str],
    card: Scorecard,
    *,
    played_on: datetime | None = None,
    game_id: str | None = None,
    chart: bool = False,
    virtual: bool = False,
    bots: Mapping[int, str] | None = None,
) -> Sheet:
    """Arrange an engine scorecard for paper; a blank sheet keeps only names, cards and dealers."""
    blank = style == "blank"
    winners = set() if blank else set(card.winners)
    turn = turn_of(rules.schedule)
    rows = []
    for line in card.hands:
        known = not blank and line.tricks is not None
        last = known and line.number == len(card.complete_hands)
        cells = [
            Cell(
                bid=line.bids[seat] if not blank and line.bids is not None else None,
                taken=line.tricks[seat] if known and line.tricks else None,
                total=line.totals[seat] if known and line.totals else None,
                outcome=line.outcomes[seat] if known and line.outcomes else None,
                dealer=seat == line.dealer,
                winning=last and seat in winners,
            )
            for seat in range(rules.players)
        ]
        trump = Suit.parse(line.trump)
        mark = (
            ""
            if blank or line.bids is None
            else trump.symbol
            if trump
            else pgettext("no trump, short", "NT")
            if line.no_trump
            else "\N{EN DASH}"
        )
        rows.append(
            Row(
                number=line.number,
                cards=line.cards,
                trump=mark,
                bids_total=None if blank else line.bids_total,
                cells=cells,
                turn=line.number == turn,
            )
        )
    players = [
        Player(
            seat=s.seat,
            name=names[s.seat],
            total=card.totals[s.seat],
            winner=s.seat in winners,
            set=s.set,
            over=s.over,
            perfect=s.perfect,
            overtricks=s.overtricks,
            bid=s.bid,
            taken=s.taken,
            bot=(bots or {}).get(s.seat),
        )
        for s in card.stats
    ]
    return Sheet(
        style=style,
        paper=paper,
        game_id=game_id,
        played_on=played_on,
        variant=_("New Jersey") if rules.new_jersey else _("Standard"),
        options=[_(label) for name, label in OPTION_LABELS.items() if rules.options[name]],
        schedule=schedule_text(rules),
        hand_count=rules.hand_count,
        players=players,
        first_dealer=first_dealer,
        rows=rows,
        status="blank" if blank else card.status,
        played=0 if blank else len(card.complete_hands),
        chart=build_chart(names, card) if chart and not blank else None,
        virtual=virtual,
    )


# -- the score-progression chart -----------------------------------------------------------------
#: Okabe–Ito colours (distinct for colour-blind readers), then dashes so 15 lines stay apart in grey.
COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#222222", "#8C564B")
DASHES = ("", "7 3", "2 2.5")


def build_chart(names: Sequence[str], card: Scorecard) -> Chart:
    """Running totals after each complete hand, scaled into an SVG box (hand 0 is the start, 0)."""
    width, height, left, top, right, bottom = 1000, 680, 60, 20, 930, 630
    lines = charts.series(card)
    values = [v for line in lines for v in line]
    step = charts.nice_step(max(values) - min(values), ticks=8)
    low, high = math.floor(min(values) / step) * step, math.ceil(max(values) / step) * step
    high = max(high, low + step)
    hands = len(card.schedule)

    def x(hand: int) -> float:
        return round(left + (right - left) * hand / hands, 2)

    def y(value: float) -> float:
        return round(bottom - (bottom - top) * (value - low) / (high - low), 2)

    ends = sorted(range(len(names)), key=lambda seat: -lines[seat][-1])
    label_ys: dict[int, float] = {}
    previous = top - 14.0
    for seat in ends:  # push end labels apart so that equal totals stay readable
        label_ys[seat] = max(y(lines[seat][-1]) + 4, previous + 14)
        previous = label_ys[seat]
    following = float(bottom)  # and back up from the chart's foot, so that none falls off it
    for seat in reversed(ends):  # (15 labels take 210 units of the chart's 610)
        label_ys[seat] = min(label_ys[seat], following)
        following = label_ys[seat] - 14
    series = [
        Series(
            name=names[seat],
            color=COLORS[seat % len(COLORS)],
            dash=DASHES[seat // len(COLORS) % len(DASHES)],
            points=" ".join(f"{x(i)},{y(v)}" for i, v in enumerate(line)),
            end=(x(len(line) - 1), y(line[-1])),
            label_y=label_ys[seat],
            total=line[-1],
        )
        for seat, line in enumerate(lines)
    ]
    return Chart(
        width=width,
        height=height,
        left=left,
        top=top,
        right=right,
        bottom=bottom,
        x_ticks=[(x(n), n, cards) for n, cards in enumerate(card.schedule, start=1)],
        y_ticks=[(y(v), v) for v in range(low, high + 1, step)],
        zero_y=y(0),
        series=series,
    )


# -- rendering ---------------------------------------------------------------------------------------
class Printer:
    """What every render reuses: fonts, the parsed print stylesheet and a fetcher of static files only.

    One render at a time per process: WeasyPrint's font configuration is shared, and renders are
    CPU-bound under the GIL anyway.
    """

    def __init__(self, static_folder: str) -> None:
        from weasyprint import CSS
        from weasyprint.text.fonts import FontConfiguration

        self.fetcher = static_fetcher(static_folder)
        self.base_url = Path(static_folder).resolve().as_uri() + "/"
        self.font_config = FontConfiguration()
        self.stylesheet = CSS(url=self.base_url + "print.css", url_fetcher=self.fetcher, font_config=self.font_config)
        self.page_sizes = {
            paper: CSS(string=f"@page {{ size: {size} }}", font_config=self.font_config)
            for paper, size in PAPER_SIZES.items()
        }
        self.footers: dict[str, Any] = {}  # by its text: one per language
        self.lock = threading.Lock()

    def pdf(self, html: str, paper: str) -> bytes:
        """Render one HTML document to PDF bytes."""
        return self.pdf_and_pages(html, paper)[0]

    def pdf_and_pages(self, html: str, paper: str) -> tuple[bytes, int]:
        """Render one HTML document to PDF bytes, and say how many pages it took."""
        from weasyprint import CSS
        from weasyprint import HTML

        # The request has read what it prints: its transaction ends here, not after the wait for
        # this process's one renderer (a connection held "idle in transaction" on PostgreSQL).
        db.session.rollback()
        with self.lock:
            footer = page_footer()
            if footer not in self.footers:
                rule = f"@page {{ @bottom-right {{ content: {footer} }} }}"
                self.footers[footer] = CSS(string=rule, font_config=self.font_config)
            document = HTML(string=html, base_url=self.base_url, url_fetcher=self.fetcher)
            sheets = [self.stylesheet, self.page_sizes[paper], self.footers[footer]]
            rendered = document.render(stylesheets=sheets, font_config=self.font_config)
            pdf = rendered.write_pdf()
        assert isinstance(pdf, bytes)
        return pdf, len(rendered.pages)


def page_footer() -> str:
    """The footer's page count in the reader's language, as a CSS ``content`` value.

    >>> page_footer()
    '"page " counter(page) " of " counter(pages)'
    """
    counters = {"\x00": "counter(page)", "\x01": "counter(pages)"}
    words = []
    for part in re.split("(\x00|\x01)", _("page {page} of {pages}", page="\x00", pages="\x01")):
        if part in counters:
            words.append(counters[part])
        elif part:
            words.append('"' + part.replace("\\", "\\\\").replace('"', '\\"') + '"')
    return " ".join(words)


def static_fetcher(static_folder: str) -> Any:
    """A WeasyPrint URL fetcher that serves files below ``static_folder`` and refuses any other URL.

    No network (http, https, ftp), no ``data:``, and no ``file:`` outside the static folder, so a
    name such as ``<img src="http://…">`` or ``file:///etc/passwd`` can never make the server fetch.
    """
    from weasyprint.urls import URLFetcher
    from weasyprint.urls import URLFetcherResponse

    root = Path(static_folder).resolve()

    class StaticFilesOnly(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
            parts = urlsplit(url)
            path = Path(url2pathname(parts.path)).resolve() if parts.scheme == "file" and not parts.netloc else None
            if path is None or not path.is_relative_to(root) or not path.is_file():
                raise ValueError(f"Refused to fetch {url!r}: a printed scorecard uses only the app's static files.")
            content_type = "text/css" if path.suffix == ".css" else "application/octet-stream"
            return URLFetcherResponse(path.as_uri(), body=path.read_bytes(), headers={"Content-Type": content_type})

    return StaticFilesOnly(allowed_protocols=("file",))


def printer() -> Printer:
    """The app's printer, made on first use (importing WeasyPrint takes half a second)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    found = app.extensions.get("bluke_printer")
    if found is None:
        found = app.extensions["bluke_printer"] = Printer(str(app.static_folder))
    assert isinstance(found, Printer)
    return found


def render_pdf(sheet: Sheet) -> bytes:
    """The sheet as PDF: the print template (autoescaped: names print as text), then WeasyPrint.

    Long names, or a language with longer words, can grow the header until the legend under the
    card falls onto a page of its own; the card is then set again with shorter rows (``tight``).
    """
    pages = (2 if sheet.long else 1) + (1 if sheet.chart else 0)
    for tight in (False, True):
        html = render_template("print/scorecard.html", sheet=sheet, points=minus, format_date=format_date, tight=tight)
        pdf, printed = printer().pdf_and_pages(html, sheet.paper)
        if printed <= pages:
            break
    return pdf
