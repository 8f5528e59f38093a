"""The HTML forms (Flask-WTF): each carries a CSRF token, and each write carries the game's version.

The forms only parse what the browser sent. Whether a bid, a trick count, a name or an option is
allowed is decided by the service and the engine, whose sentences the pages show unchanged
(STYLE.md, "Errors form one family"); the forms add only the messages for things the engine never
sees: a missing tap, a missing or broken page token.
"""

from __future__ import annotations

import re
from typing import Any

from flask import request
from wtforms import BooleanField
from wtforms import FieldList
from wtforms import IntegerField
from wtforms import StringField
from wtforms.validators import InputRequired
from wtforms.widgets import HiddenInput

from ..engine.rules import MAX_PLAYERS
from ..extensions import PageForm
from ..games import clean_name
from ..games import refused_rows
from ..games import trimmed
from ..i18n import _
from ..i18n import N_
from ..web import whole_number
from .service import NOT_NOTED

#: The rows the new-game form starts with (Bluke is best with 3 or 4, R4) and the most it offers.
START_ROWS, MAX_ROWS = 4, MAX_PLAYERS
NUMBER = re.compile(r"-?[0-9]{1,9}")
OUT_OF_DATE = N_("This page was out of date, so nothing was saved. Check it and tap the button again.")


class Number(StringField):
    """A tapped or typed count: an ``int`` when it is digits, else the text itself.

    Text is kept (shortened) so that the engine can say what was wrong with it in its own words,
    e.g. "Ann's bid must be a whole number, not 'abc' (R22)."; nothing sent is ``None``.
    """

    data: Any

    def process_formdata(self, valuelist: list[Any]) -> None:
        text = str(valuelist[0]).strip() if valuelist else ""
        if not text:
            self.data = None
        elif NUMBER.fullmatch(text):
            self.data = int(text)
        else:
            self.data = text if len(text) <= 20 else text[:20] + "…"


class Whole(IntegerField):
    """A whole number the page wrote into a hidden field (a version, a hand's number): ASCII digits
    only, as in the API (``int`` also reads ``"١"``, ``"1_0"`` and ``" 7 "``)."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist:
            self.data = whole_number(str(valuelist[0]), 12)
            if self.data is None:
                raise ValueError(_(OUT_OF_DATE))


class GameForm(PageForm):
    """A write to a game: the version it was based on, so a stale page cannot overwrite (API.md)."""

    version = Whole(widget=HiddenInput(), validators=[InputRequired(OUT_OF_DATE)])

    def problem(self) -> str | None:
        """The first form-level problem (CSRF, version) as one sentence, or ``None``."""
        for name in ("csrf_token", "version"):
            if self.errors.get(name):
                return _(OUT_OF_DATE)
        return None


class HandForm(GameForm):
    """One tap per player: bids (with the optional trump) or tricks, one field per seat."""

    kind = "bid"
    players = 0  # set on the class built for a game by :func:`_hand_form`

    @property
    def step(self) -> str:
        """``bids`` or ``tricks``."""
        return "bids" if self.kind == "bid" else "tricks"

    def values(self) -> list[Any]:
        """The per-seat values in seat order (``None`` where nothing was tapped)."""
        return [self[f"{self.kind}_{seat}"].data for seat in range(self.players)]

    def missing(self, names: list[str]) -> dict[int, str]:
        """Seats without a tap, with the message shown beside their row."""
        if self.kind == "bid":
            return {
                seat: _("Tap a bid for {name}.", name=names[seat])
                for seat, value in enumerate(self.values())
                if value is None
            }
        return {
            seat: _("Tap a number of tricks taken for {name}.", name=names[seat])
            for seat, value in enumerate(self.values())
            if value is None
        }


class BidsBase(HandForm):
    kind = "bid"
    trump = StringField()

    def trump_choice(self) -> str:
        """The trump button tapped: ``"S"`` … ``"C"``, ``"none"`` (no trump, R12) or ``""`` (not noted)."""
        return (self.trump.data or "").strip()

    def trump_value(self) -> Any:
        """The trump for :func:`service.record_bids`: a suit letter, ``None`` for no trump (R12),
        :data:`service.NOT_NOTED` when nobody noted it (the default)."""
        choice = self.trump_choice()
        return NOT_NOTED if not choice else None if choice == "none" else choice


class Remainder:
    """A form with a ``tricks_<seat>`` field per seat: the hand's tricks step, or its correction."""

    players: int

    def fill_remainder(self: Any, cards: int) -> None:
        """When exactly one player is left blank, give them the tricks nobody else took.

        Every trick is won by exactly one player (R23), so the last count follows from the others,
        as on paper. The engine still checks the result; a negative remainder is left blank, and so
        is the row when another count is out of range (the error then names that player, R23).
        """
        fields = [self[f"tricks_{seat}"] for seat in range(self.players)]
        values = [field.data for field in fields]
        blank = [seat for seat, value in enumerate(values) if value is None]
        if len(blank) == 1 and all(isinstance(v, int) and 0 <= v <= cards for v in values if v is not None):
            rest = cards - sum(v for v in values if v is not None)
            if rest >= 0:
                fields[blank[0]].data = rest


class TricksBase(Remainder, HandForm):
    kind = "tricks"


class HandEditBase(Remainder, BidsBase):
    """The correction page: a recorded hand's bids, trump and tricks, saved together."""

    def tricks_values(self) -> list[Any]:
        """The tricks per seat in seat order (``None`` where nothing was tapped)."""
        return [self[f"tricks_{seat}"].data for seat in range(self.players)]

    def missing_tricks(self, names: list[str]) -> dict[int, str]:
        """Seats without a tricks tap, with the message shown beside their row."""
        return {
            seat: _("Tap a number of tricks taken for {name}.", name=names[seat])
            for seat, value in enumerate(self.tricks_values())
            if value is None
        }


def _hand_form(base: type[HandForm], players: int, **kwargs: Any) -> Any:
    """A form class with one field per seat (``bid_0`` …): radio buttons send nothing when untapped,
    so a list field would shift later players into the gap."""
    fields: dict[str, Any] = {f"{base.kind}_{seat}": Number() for seat in range(players)}
    if issubclass(base, HandEditBase):
        fields |= {f"tricks_{seat}": Number() for seat in range(players)}
    form_class = type(base.__name__.replace("Base", "Form"), (base,), {**fields, "players": players})
    return form_class(**kwargs)


def bids_form(players: int, **kwargs: Any) -> BidsBase:
    """The bids form of a hand (with the trump record)."""
    form: BidsBase = _hand_form(BidsBase, players, **kwargs)
    return form


def tricks_form(players: int, **kwargs: Any) -> TricksBase:
    """The tricks form of a hand."""
    form: TricksBase = _hand_form(TricksBase, players, **kwargs)
    return form


def hand_edit_form(players: int, **kwargs: Any) -> HandEditBase:
    """The correction form of a recorded hand: bids, trump and tricks, one button."""
    form: HandEditBase = _hand_form(HandEditBase, players, **kwargs)
    return form


class UndoForm(GameForm):
    """Undo the latest entry of the latest hand (its tricks, else its bids)."""

    number = Whole(widget=HiddenInput(), validators=[InputRequired(OUT_OF_DATE)])


class ForgetForm(PageForm):
    """Remove a game from this device's list (only the cookies go; the game stays)."""


class NewGameForm(PageForm):
    """Set-up on one screen: names in seating order, variant, options, first dealer (R4–R13).

    ``action`` is the button pressed: ``start``, or a rearrangement that re-renders the form
    without JavaScript: ``enter`` (the hidden default button: on to the next empty name, else to
    the start button, never a new empty row), ``add``, ``up-<row>`` (a player up a seat).
    """

    names = FieldList(StringField(), min_entries=START_ROWS, max_entries=MAX_ROWS)
    variant = StringField(default="standard")
    extended = BooleanField()
    all_cards_hand = BooleanField()
    zero_bids = BooleanField()
    first_dealer = StringField(default="draw")
    action = StringField(default="start")
    #: The form's one-time mark (:func:`~scorekeeper.tokens.tokens_of_form`): sent again, it starts no second game.
    once = StringField(widget=HiddenInput())

    focus: int | None = None
    focus_start = False

    def options(self) -> dict[str, bool]:
        """The options mapping of API.md."""
        return {
            "extended": self.extended.data,
            "all_cards_hand": self.all_cards_hand.data,
            "zero_bids": self.zero_bids.data,
        }

    def players(self) -> tuple[list[str], int | None]:
        """The names typed (blank rows skipped, each trimmed and checked) and the first dealer's seat.

        The dealer is chosen per row; ``None`` means "draw for it" (R6). A dealer row left blank,
        or a value that is not a row, raises ``ValueError`` with the message to show.
        """
        rows = [entry.data or "" for entry in self.names]
        # Checked here by row, so that a message names the row it is about (its "Player n" placeholder).
        names = [clean_name(name, _("Player {seat}", seat=row)) for row, name in enumerate(rows, 1) if trimmed(name)]
        choice = (self.first_dealer.data or "draw").strip()
        if choice == "draw":
            return names, None
        row = whole_number(choice)
        if row is None or row >= len(rows):
            raise ValueError(_("Choose who deals first, or let the app draw cards for it (R6)."))
        if not trimmed(rows[row]):
            raise ValueError(
                _("The first dealer's row {row} has no name: type one or choose another dealer (R6).", row=row + 1)
            )
        return names, sum(1 for name in rows[:row] if trimmed(name))

    def refused_rows(self) -> set[int]:
        """The name rows a refused set-up is about (:func:`~scorekeeper.games.refused_rows`)."""
        return refused_rows(entry.data or "" for entry in self.names)

    def rows_sent(self) -> int:
        """How many name rows the request sent: more than :data:`MAX_ROWS` only by hand, and kept to that many."""
        prefix = f"{self.names.name}-"
        return sum(1 for key in request.form if key.startswith(prefix))

    def rearrange(self) -> bool:
        """Apply a no-JavaScript rearrangement button; ``False`` when the action is "start"."""
        action = (self.action.data or "start").strip()
        rows = [entry.data or "" for entry in self.names]
        dealer = self.first_dealer.data
        if action == "add":
            if len(rows) < MAX_ROWS:
                self.names.append_entry("")
            self.focus = len(self.names) - 1
            return True
        if action == "enter":
            self.focus = next((i for i, r in enumerate(rows) if not trimmed(r)), None)
            self.focus_start = self.focus is None
            return True
        move = re.fullmatch(r"up-([0-9]{1,2})", action)
        if not move:
            return False
        row = int(move.group(1))
        other = row - 1
        if 0 <= other < row < len(rows):
            self.names[row].data, self.names[other].data = rows[other], rows[row]
            if dealer in (str(row), str(other)):  # the dealer choice moves with the name
                self.first_dealer.data = str(other if dealer == str(row) else row)
            self.focus = other
        return True
