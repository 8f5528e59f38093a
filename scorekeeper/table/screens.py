"""What the table pages show, built from the engine's scorecard (no rule is decided here).

Bidding order, points, totals, outcomes, winners and every check come from ``scorekeeper.engine``;
this module only arranges them for the templates: which rows, in which order, with which
buttons, and which engine message goes beside which row.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from datetime import datetime
from typing import Any

from flask import url_for
from flask_babel import format_date
from markupsafe import Markup

from ..engine import Card
from ..engine import check_bid
from ..engine import check_taken
from ..engine import check_tricks
from ..engine import DrawResult
from ..engine import HandLine
from ..engine import order_from
from ..engine import points
from ..engine import Rules
from ..engine import RulesError
from ..engine import Scorecard
from ..engine import Suit
from ..engine.rules import MAX_PLAYERS
from ..engine.rules import MIN_PLAYERS
from ..i18n import _
from ..i18n import _n
from ..i18n import error_message
from ..i18n import N_
from ..i18n import percent
from ..i18n import plural_forms
from ..models import Correction
from ..models import Game
from ..models import NO_TRUMP
from ..models import utcnow
from ..web import qr_svg

#: R26's outcomes; the templates show them with ``say()`` in the reader's language.
OUTCOMES = {
    "S": N_("Set: took fewer than bid"),
    "O": N_("Overtricks: took more than bid"),
    "P": N_("Perfect: took exactly the bid"),
}
TRUMPS = [("S", "♠", N_("Spades")), ("H", "♥", N_("Hearts")), ("D", "♦", N_("Diamonds")), ("C", "♣", N_("Clubs"))]


@dataclass
class Choice:
    """One tap button; on the tricks step it also knows the points and total it would give."""

    value: int
    points: int | None = None
    total: int | None = None


@dataclass
class Row:
    """One player's row in a hand form."""

    seat: int | str
    name: str
    position: int | str  # 1-based place in the bidding order, the same on both steps
    value: Any
    total: int  # running total before this hand
    choices: list[Choice]
    deals: bool = False
    first: bool = False
    bid: int | str | None = None
    error: str | None = None

    @property
    def choice(self) -> Choice | None:
        """The tapped choice, when the value is one of the buttons."""
        return next((c for c in self.choices if c.value == self.value), None)


@dataclass
class HandPanel:
    """One step of one hand: the bids (with trump) or the tricks, ready for ``_hand.html``.

    The template only writes these fields out, so that :func:`prototype_panel` can give it
    ``{number}``-style marks instead, for the phone to fill in without a connection.
    """

    step: str  # "bids" or "tricks"
    number: int | str
    count: int
    cards: int
    dealer: str
    first_bidder: str
    rows: list[Row]
    version: int | str
    action: str  # where the form is sent
    edit_url: str  # the correction page of the hand
    trump: str = ""  # the trump button: a suit letter, "none" (no trump, R12) or "" (not noted)
    turn_up: bool | None = True  # None: both the trump buttons and the note that none is turned up
    bids: list[int] | None = None
    autosubmit: bool = False
    message: str | None = None
    editing: bool = False
    recorded: bool = False  # the step is stored (a correction page's tricks may be left empty otherwise)
    status: str = ""  # the docked status line, as it reads without JavaScript (the script keeps it live)
    standings_link: bool = False  # the hand screen's link down to the standings

    @property
    def columns(self) -> int:
        """How many buttons make a line of each row (:func:`columns`)."""
        return columns(len(self.rows[0].choices))

    @property
    def first_error(self) -> int | str | None:
        """The seat of the first row with a message (its first button gets the focus, so it scrolls into view)."""
        return next((r.seat for r in self.rows if r.error), None)

    @property
    def kind(self) -> str:
        """The form field prefix: ``bid`` or ``tricks``."""
        return "bid" if self.step == "bids" else "tricks"


@dataclass
class Clash:
    """A save refused because another scorer changed the game first (409): this scorer's taps;
    ``here``: this phone changed it, from another tab or a later page."""

    number: int
    step: str  # "bids" or "tricks"
    values: list[Any]
    trump: str = ""
    here: bool = False

    def fits(self, card: Scorecard) -> bool:
        """Whether the taps still have a place: the hand is reached and, for tricks, has its bids (R25)."""
        current = card.current
        reached = current.number if current else len(card.hands)
        return 1 <= self.number <= reached and (self.step == "bids" or card.hands[self.number - 1].bids is not None)

    def stored(self, card: Scorecard) -> list[int] | None:
        """What is stored now for the same hand and step: what the other scorer entered."""
        line = card.hands[self.number - 1]
        return line.bids if self.step == "bids" else line.tricks


def columns(choices: int) -> int:
    """Buttons per line for a row of ``choices`` buttons: at most 7, the lines as even as can be."""
    lines = max(1, (choices + 6) // 7)
    return (choices + lines - 1) // lines


def saved_first(line: HandLine, names: Sequence[str], here: bool) -> str:
    """What is stored now on the hand being corrected when a save was refused (409) because another
    scorer saved first, or this phone (``here``) from a later page: to read before saving these taps
    again over it, ``Ann 3 · Ben 4 · Cy 3``."""
    if here:
        lead = _("This page is older than what you saved since on this phone.")
    else:
        lead = _("Another scorer saved a change first.")
    return f"{lead} {stored_now(line, names)}"


def stored_now(line: HandLine, names: Sequence[str]) -> str:
    """What hand ``line`` holds now, before these taps are saved over it (:func:`saved_first`)."""

    def listed(values: Sequence[int]) -> str:
        return " · ".join(f"{name} {value}" for name, value in zip(names, values))

    if line.bids is None:
        return _("Hand {number} has no bids now. Your taps are below.", number=line.number)
    if line.tricks is None:
        return _(
            "Hand {number} now holds the bids {bids}. Your taps are below: save them to replace these.",
            number=line.number,
            bids=listed(line.bids),
        )
    return _(
        "Hand {number} now holds the bids {bids} and the tricks {tricks}. Your taps are below: save them to "
        "replace these.",
        number=line.number,
        bids=listed(line.bids),
        tricks=listed(line.tricks),
    )


def bid_for(total: int, cards: int) -> str:
    """``9 bid for 13 cards``: the table's bids against the cards dealt (R28's left column)."""
    return _n("{total} bid for {n} card", "{total} bid for {n} cards", cards, total=total)


def bids_status(known: Sequence[int], players: int, cards: int) -> str:
    """``9 bid for 13 cards — 1 player to go``, then ``14 bid for 12 cards — overbid by 2``.

    The cards dealt stay in sight while the bids come in: the table speaks against them.
    """
    total = sum(known)
    if len(known) < players:
        return _n(
            "{bid_for} — {n} player to go",
            "{bid_for} — {n} players to go",
            players - len(known),
            bid_for=bid_for(total, cards),
        )
    diff = total - cards
    if diff == 0:
        return _("{bid_for} — even", bid_for=bid_for(total, cards))
    if diff > 0:
        return _("{bid_for} — overbid by {diff}", bid_for=bid_for(total, cards), diff=diff)
    return _("{bid_for} — underbid by {diff}", bid_for=bid_for(total, cards), diff=-diff)


def tricks_status(known: Sequence[int], players: int, cards: int) -> str:
    """``1 trick still to place`` / ``2 tricks too many`` / ``All 13 tricks are placed`` (R23)."""
    rest = cards - sum(known)
    if rest > 0:
        return _n("{n} trick still to place", "{n} tricks still to place", rest)
    if rest < 0:
        return _n("{n} trick too many", "{n} tricks too many", -rest)
    if len(known) < players:
        return _("All tricks are placed — tap 0 for the rest")
    return _n("The {n} trick is placed", "All {n} tricks are placed", cards)


def bidding_order(dealer: int, players: int) -> list[int]:
    """Seats from the dealer's left round to the dealer (R5, R13)."""
    seats = order_from(dealer, players)
    return seats[1:] + seats[:1]


def first_row(dealer: int, players: int, *messages: dict[int, str]) -> str:
    """The status of a refused hand: the message of the first row in bidding order (as the screen
    lists the rows, R13) among the first of ``messages`` that has any (wrong values before blanks)."""
    order = bidding_order(dealer, players)
    rows = next(m for m in messages if m)
    return rows[min(rows, key=order.index)]


def totals_before(card: Scorecard, number: int) -> list[int]:
    """Running totals when hand ``number`` starts."""
    previous = card.hands[number - 2].totals if number > 1 else None
    return list(previous) if previous is not None else [0] * len(card.totals)


def hand_panel(
    game: Game,
    card: Scorecard,
    rules: Rules,
    number: int,
    step: str,
    values: Sequence[Any] | None = None,
    trump: str = "",
    errors: dict[int, str] | None = None,
    message: str | None = None,
    editing: bool = False,
    bids: Sequence[int] | None = None,
) -> HandPanel:
    """The bids or tricks step of hand ``number``; ``values`` are a re-rendered form's, else the stored
    ones; ``bids``, the bids the tricks are scored against: a correction's tapped ones, else the stored."""
    line = card.hands[number - 1]
    bids = line.bids if bids is None else list(bids)
    names, n = game.players, rules.players
    order = bidding_order(line.dealer, n)
    before = totals_before(card, number)
    stored = line.bids if step == "bids" else line.tricks
    if values is None:
        values = list(stored) if stored is not None else [None] * n
        trump = trump_of(line)
    errors = errors or {}
    rows = []
    for position, seat in enumerate(order, start=1):  # both steps in bidding order: one badge, one player
        value = values[seat]
        if step == "bids":
            choices = [Choice(v) for v in range(rules.min_bid(), line.cards + 1)]
            bid = None
            if value is None and len(choices) == 1:  # one card, zero bids off: every bid is 1 (R13)
                value = choices[0].value
        else:
            bid = bids[seat] if bids else None
            choices = [
                Choice(v, points(bid, v), before[seat] + points(bid, v)) if bid is not None else Choice(v)
                for v in range(line.cards + 1)
            ]
        rows.append(
            Row(
                seat,
                names[seat],
                position,
                value,
                before[seat],
                choices,
                deals=seat == line.dealer,
                first=seat == order[0],
                bid=bid,
                error=errors.get(seat),
            )
        )
    known = [r.value for r in rows if isinstance(r.value, int)]
    status = bids_status(known, n, line.cards) if step == "bids" else tricks_status(known, n, line.cards)
    return HandPanel(
        step,
        number,
        rules.hand_count,
        line.cards,
        names[line.dealer],
        names[order[0]],
        rows,
        game.version,
        _step_url(game.id, step, number),
        url_for("pages.edit_hand", game_id=game.id, number=number),
        trump=trump,
        turn_up=rules.has_turn_up(number),
        bids=bids,
        autosubmit=step == "bids" and stored is None and not editing,
        message=message,
        editing=editing,
        recorded=stored is not None,
        status=status,
        standings_link=not editing and number > 1,
    )


def _step_url(game_id: str, step: str, number: int) -> str:
    return url_for("pages.save_bids" if step == "bids" else "pages.save_tricks", game_id=game_id, number=number)


def prototype_panel(game: Game, card: Scorecard, rules: Rules, step: str) -> HandPanel:
    """A hand step for the scorer's phone to copy when it goes on without a connection
    (``static/queue.js``): ``_hand.html`` drawn once, with ``{number}``, ``{dealer}``, ``{first}``
    and ``{version}`` where the hand's values go, and one player's row, with ``{seat}``,
    ``{name}``, ``{position}`` and ``{bid}``, both tags and the buttons of the largest deal, and
    both the trump buttons and the note for a hand without a turn-up. The phone fills the marks,
    copies the row for each player in the bidding order and removes what its hand does not have:
    the markup has one source."""
    top = max(line.cards for line in card.hands)
    low = rules.min_bid() if step == "bids" else 0
    row = Row(
        "{seat}",
        "{name}",
        "{position}",
        None,
        0,
        [Choice(v) if step == "bids" else Choice(v, 0, 0) for v in range(low, top + 1)],
        deals=True,
        first=True,
        bid=None if step == "bids" else "{bid}",
    )
    return HandPanel(
        step,
        "{number}",
        rules.hand_count,
        top,
        "{dealer}",
        "{first}",
        [row],
        "{version}",
        _step_url(game.id, step, 1).replace("/hands/1/", "/hands/{number}/"),
        url_for("pages.edit_hand", game_id=game.id, number=1).replace("/hands/1", "/hands/{number}"),
        turn_up=None,
        bids=None if step == "bids" else [0],
        autosubmit=step == "bids",
        standings_link=True,
    )


def _message(check: Callable[..., Any], *args: Any) -> str | None:
    try:
        check(*args)
    except RulesError as error:
        return error_message(error)
    return None


def seat_errors(step: str, rules: Rules, number: int, values: Sequence[Any], names: Sequence[str]) -> dict[int, str]:
    """The engine's message for each seat whose own value is wrong, to show beside its row.

    Problems of the whole hand (tricks that do not add up, R23) go to the status line instead.
    """
    check = check_bid if step == "bids" else check_taken
    out = {}
    for seat, value in enumerate(values):
        found = _message(check, rules, number, value, names[seat])
        if found:
            out[seat] = found
    return out


def tricks_past_the_deal(rules: Rules, number: int, values: Sequence[Any], names: Sequence[str]) -> str | None:
    """The engine's R23 message when the tricks tapped already add up to more than the cards dealt,
    though a row is still blank: no tap there can mend it, so asking for one would mislead."""
    if None not in values or sum(v for v in values if v is not None) <= rules.cards_in_hand(number):
        return None
    return _message(check_tricks, rules, number, [0 if v is None else v for v in values], names)


def offline_state(game: Game, card: Scorecard) -> dict[str, Any]:
    """What the scorer's phone needs to go on without a connection (``static/queue.js``): the
    set-up and what is recorded, nothing derived (the phone computes that with ``rules.js``), with
    the trump as the buttons name it, and the buttons per line of a row of k buttons at ``columns[k]``."""
    keep = ("number", "cards", "dealer", "bids", "tricks")
    return {
        "id": game.id,
        "version": game.version,
        "options": dict(game.options),
        "players": list(game.players),
        "hands": [{k: getattr(line, k) for k in keep} | {"trump": trump_of(line)} for line in card.hands],
        "columns": [columns(k) for k in range(max(line.cards for line in card.hands) + 2)],
    }


#: The trump notes the phone copies onto a tricks step drawn without a connection (``_trump_note.html``):
#: its key (the hand's trump as the buttons name it, or "dealt" when no card was left to turn up),
#: then the note's trump and whether the hand had a turn-up.
TRUMP_NOTES = [(code, code, True) for code, _pip, _name in TRUMPS] + [
    ("none", "none", True),
    ("", "", True),
    ("dealt", "none", False),
]


def offline_words() -> dict[str, Any]:
    """Every sentence ``static/queue.js`` writes, in the page's language. The checks' sentences are
    the engine's and the forms' own (``tests/vectors.py`` checks them word for word in the browser);
    a plural has one form per plural category (``i18n.plural_forms``). Those of ``static/queue-rare.js``
    are not in the page: :func:`rare_words`."""
    return {
        "bid_high": plural_forms(
            "{who} bid {bid}, but only {cards} card was dealt in hand {number} (R22).",
            "{who} bid {bid}, but only {cards} cards were dealt in hand {number} (R22).",
        ),
        "bid_low_one": _("{who} bid {bid}, but every bid is at least 1 (zero bids are off) (R13, R22)."),
        "bid_low_zero": _("{who} bid {bid}, but bids start at 0 (R13, R22)."),
        "taken_low": _("{who} took {taken} tricks, but tricks taken start at 0 (R23)."),
        "taken_range": plural_forms(
            "{who} took {taken} tricks, but hand {number} had {cards} card dealt (R23).",
            "{who} took {taken} tricks, but hand {number} had {cards} cards dealt (R23).",
        ),
        "tricks_total": plural_forms(
            "Tricks add up to {total}, but {cards} card was dealt in hand {number} (R23).",
            "Tricks add up to {total}, but {cards} cards were dealt in hand {number} (R23).",
        ),
        "order_bids": _("Hand {number} is not complete yet: record its bids and tricks first (R25)."),
        "order_tricks": _("Record the bids of hand {number} before its tricks (R25)."),
        "missing_bid": _("Tap a bid for {name}."),
        "missing_tricks": _("Tap a number of tricks taken for {name}."),
        "cards": plural_forms("%(num)d card", "%(num)d cards"),
        "finished": _("The last hand is recorded on this phone; the result shows once every entry is sent."),
        "waiting": plural_forms("Offline — {n} entry waiting", "Offline — {n} entries waiting"),
        "unanswered": plural_forms(
            "Server not answering — {n} entry waiting", "Server not answering — {n} entries waiting"
        ),
        "stale": plural_forms(
            "As of hand {number}: {n} entry made on this phone is not counted here yet",
            "As of hand {number}: {n} entries made on this phone are not counted here yet",
        ),
        "sending": _("Sending…"),
        "all_sent": _("All sent"),
        "undo_bids": _("Undo the bids of hand %(number)s"),
        "undo_tricks": _("Undo the tricks of hand %(number)s"),
        "undone_bids": _(
            "Undone: the bids of hand {number}. They are still tapped below: change what was wrong and save."
        ),
        "undone_tricks": _(
            "Undone: the tricks of hand {number}. They are still tapped below: change what was wrong and record."
        ),
    }


def rare_words() -> dict[str, Any]:
    """The sentences ``static/queue-rare.js`` writes, in the request's language: a refused entry's box
    (a bids entry's trump said as ``_clash.html`` says it, R12), the queue stopped by a refusal that a
    fresh token did not mend, saved entries another scorer changed. The script asks for them
    (``/offline/words``) only once the server has answered, so the scorer's page, loaded at every
    save, does not carry them (benchmarks/first_load.py)."""
    return {
        "refused": _("The server did not take an entry: {message}"),
        "conflict_title": _("Another phone changed this game meanwhile"),
        # a clash of versions (409): the API's sentence speaks to scripts, this to the scorer choosing
        "conflict_choose": _("Choose which one the game keeps."),
        "conflict_server": _("On the server"),
        "conflict_phone": _("On this phone"),
        "conflict_nothing": _("nothing recorded"),
        "conflict_hand": _("Hand {number}, {step}:"),
        "conflict_rule": _(
            "The game on the server no longer allows this entry. Keep the server's game: the entry stays tapped on"
            " this phone for when its step comes up again."
        ),
        "step_bids": _("Bids"),
        "step_tricks": _("Tricks"),
        "keep_server": _("Keep the server's"),
        "use_phone": _("Use this phone's"),
        # the msgid of _clash.html, a template's (%-style): said as that box says it
        "trump": {
            code: _("Trump: %(trump)s") % {"trump": trump_label(code)} for code in ("S", "H", "D", "C", "none", "")
        },
        "kept": _("Entries kept on this phone, waiting to be sent: {n}. The server did not take them from this page."),
        "reload": _("Reload the page to send them"),
        "changed_bids": _("Hand {number} bids were changed on another phone: {was} → {now}"),
        "changed_tricks": _("Hand {number} tricks were changed on another phone: {was} → {now}"),
        "taken_back_bids": _("Hand {number} bids were taken back on another phone: {was}"),
        "taken_back_tricks": _("Hand {number} tricks were taken back on another phone: {was}"),
    }


# -- the rest of the game page ---------------------------------------------------------------------
@dataclass
class Standing:
    """One line of the final (or current) standings."""

    rank: int
    seat: int
    name: str
    total: int
    stats: Any
    winner: bool = False
    behind: int = 0  # points short of the leader (0 for the leaders)

    def rate(self, count: int) -> str:
        """A share of the hands played, as a whole percentage written as the language writes one
        (``60 %`` in Russian, as on the group's pages and the season summary), or a dash."""
        played = self.stats.played
        return percent(count / played if played else 0, played)


def standings(card: Scorecard, names: Sequence[str]) -> list[Standing]:
    """Players by total, equal totals sharing a rank; winners as the engine names them (R21)."""
    seats = sorted(range(len(names)), key=lambda s: -card.totals[s])
    best = max(card.totals, default=0)
    out: list[Standing] = []
    for place, seat in enumerate(seats, start=1):
        rank = out[-1].rank if out and out[-1].total == card.totals[seat] else place
        out.append(
            Standing(
                rank,
                seat,
                names[seat],
                card.totals[seat],
                card.stats[seat],
                seat in card.winners,
                best - card.totals[seat],
            )
        )
    return out


@dataclass
class Change:
    """One line of the corrections history."""

    at: datetime
    ago: str
    hand: int
    what: str
    details: list[str] = field(default_factory=list)


def trump_of(line: HandLine) -> str:
    """A hand's trump as the hand screen's buttons name it: a suit letter, ``none`` when the hand
    is known to have no trump (a Bluke was turned, or every card dealt: R10, R12), ``""`` when
    nobody noted it. A forgotten trump must not read as a hand without trump."""
    return line.trump or ("none" if line.no_trump else "")


def taps(text: str | None, players: int) -> list[int] | None:
    """One whole number per player from ``"4,5,3"`` (an address's ``?was=``), else ``None``.

    >>> taps("4,5,3", 3), taps("4,5", 3), taps("4,x,3", 3)
    ([4, 5, 3], None, None)
    """
    values = (text or "").split(",")
    if len(values) != players or not all(v.isascii() and v.isdigit() and len(v) <= 2 for v in values):
        return None
    return [int(v) for v in values]


def trump_choice(stored: str | None) -> str:
    """The trump button for a stored trump (``-`` is "none"); anything else is "" (not noted)."""
    if stored == NO_TRUMP:
        return "none"
    return stored if stored in {code for code, _, _ in TRUMPS} else ""


def trump_label(value: str | None) -> str:
    """``♥``; ``no trump`` (a button's ``none`` or the stored ``-``, R12); ``not noted``."""
    if not value:
        return _("not noted")
    return _("no trump") if value in ("none", NO_TRUMP) else Suit(value).symbol


def ago(then: datetime, now: datetime | None = None) -> str:
    """``just now``, ``5 min ago``, ``2 h ago``, then the date."""
    seconds = ((now or utcnow()) - then).total_seconds()
    if seconds < 60:
        return _("just now")
    if seconds < 3600:
        return _n("{n} min ago", "{n} min ago", int(seconds // 60))
    if seconds < 86400:
        return _n("{n} h ago", "{n} h ago", int(seconds // 3600))
    return str(format_date(then, "medium"))


#: The history on the game page shows the latest corrections; the export and the API keep them all.
SHOWN_CHANGES = 50


def changes(corrections: Sequence[Correction], names: Sequence[str]) -> list[Change]:
    """The latest corrections, newest first: when, which hand, old → new.

    Defensive: a stored correction that is not what this app writes (an import from before
    corrections were checked) shows as what can be read of it, never as an error page.
    """
    out = []
    for c in list(corrections)[::-1][:SHOWN_CHANGES]:
        if c.field in ("bids", "tricks"):
            old, new = _list(c.old), _list(c.new)
            details = [
                f"{_seat(names, i)} {_value(o)} → {_value(n)}" for i, (o, n) in enumerate(zip(old, new)) if o != n
            ]
            out.append(Change(c.at, ago(c.at), c.hand, _("bids") if c.field == "bids" else _("tricks"), details))
        elif c.field == "trump":
            out.append(Change(c.at, ago(c.at), c.hand, _("trump"), [f"{_trump(c.old)} → {_trump(c.new)}"]))
        else:
            old_entries = c.old if isinstance(c.old, dict) else {}
            new_entries = c.new if isinstance(c.new, dict) else {}
            bids = _("removed bids {values}", values=_numbers(_list(old_entries.get("bids"))))
            tricks = _("removed tricks {values}", values=_numbers(_list(old_entries.get("tricks"))))
            if old_entries.get("tricks") is None:
                out.append(Change(c.at, ago(c.at), c.hand, _("undo bids"), [bids]))
            elif new_entries.get("bids") is not None:
                out.append(Change(c.at, ago(c.at), c.hand, _("undo tricks"), [tricks]))
            else:  # the whole hand at once (the API's DELETE)
                out.append(Change(c.at, ago(c.at), c.hand, _("undo hand"), [bids, tricks]))
    return out


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _seat(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else _("Seat {seat}", seat=seat)


def _value(value: Any) -> str:
    """A stored entry as text, short whatever it holds."""
    text = str(value)
    return text if len(text) <= 6 else text[:5] + "…"


def _trump(value: Any) -> str:
    return trump_label(value) if value in ("S", "H", "D", "C", NO_TRUMP, None) else _value(value)


def _numbers(values: list[Any]) -> str:
    return "·".join(_value(v) for v in values) if values else "–"


@dataclass
class Drawn:
    """The draw for first dealer and scorer (R6), as shown after creating a game."""

    dealer: str
    scorer: str
    rounds: list[list[tuple[str, Card]]]


def draw_record(game_id: str, result: DrawResult) -> dict[str, Any]:
    """A small JSON-able note of the draw, kept in the creator's session to show once."""
    return {
        "game": game_id,
        "dealer": result.dealer,
        "scorer": result.scorer,
        "rounds": [[[seat, str(card)] for seat, card in drawn.items()] for drawn in result.rounds],
    }


def drawn(record: dict[str, Any] | None, game: Game) -> Drawn | None:
    """The draw of ``game`` from its session note, if this browser made it."""
    if not record or record.get("game") != game.id:
        return None
    names = game.players
    rounds = [[(names[seat], Card.parse(code)) for seat, code in drawn] for drawn in record["rounds"]]
    return Drawn(names[record["dealer"]], names[record["scorer"]], rounds)


def option_limits() -> dict[str, list[int]]:
    """For each option with a player-count condition, the counts the engine accepts (R9, R10).

    The set-up form uses this to grey out an option that cannot apply; the engine still decides.
    """
    limits: dict[str, list[int]] = {}
    for option in ("extended", "all_cards_hand"):
        limits[option] = []
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            try:
                Rules.build(players, "standard", {option: True})
            except RulesError:
                continue
            limits[option].append(players)
    return limits


@dataclass
class Link:
    """A share link with its QR code (inline SVG from segno)."""

    kind: str  # "scorer" or "watch"
    url: str
    qr: Markup


def share_links(game_id: str, scorer: str | None, watch: str | None) -> list[Link]:
    """The links this browser may share: the scorer link (carrying the watch token, so any scoring
    phone can share both) and the watch link."""
    links = []
    if scorer:
        links.append(
            Link("scorer", url_for("pages.join", game_id=game_id, token=scorer, w=watch, _external=True), Markup())
        )
    if watch:
        links.append(Link("watch", url_for("pages.join", game_id=game_id, token=watch, _external=True), Markup()))
    for link in links:
        title = _("QR code of the scorer link") if link.kind == "scorer" else _("QR code of the watch link")
        link.qr = qr_svg(link.url, title, svgclass="qr", omitsize=True)
    return links
