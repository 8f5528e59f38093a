"""Table scoring's writes: a hand's bids, its tricks, and undo (API.md, "Scorekeeping").

Each runs in one :func:`scorekeeper.games.writing` transaction: checks in the rule book's order,
then the whole change and a new version, or nothing. A request that asks for what is already
stored changes nothing and succeeds (a double tap). Every change to entries already recorded is
kept in ``corrections`` (old → new).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func
from sqlalchemy import select

from .. import games
from ..engine import check_bids
from ..engine import check_order
from ..engine import check_tricks
from ..engine import check_trump
from ..engine import Rules
from ..engine import Suit
from ..engine.errors import OrderError
from ..errors import BadRequest
from ..extensions import db
from ..games import MAX_CORRECTIONS
from ..games import rules_of
from ..games import Write
from ..games import writing
from ..i18n import _
from ..i18n import N_
from ..i18n import shown
from ..models import Correction
from ..models import Game
from ..models import HandEntry
from ..models import NO_TRUMP

#: ``trump`` left out of a bids request: keep what is recorded (not noted, for a new hand).
KEEP: Any = type("Keep", (), {"__repr__": lambda self: "KEEP"})()
#: The trump is not noted (the hand screen's default): apart from ``None``, which says "no trump" (R12).
NOT_NOTED: Any = type("NotNoted", (), {"__repr__": lambda self: "NOT_NOTED"})()


def entry_of(game: Game, number: int) -> HandEntry | None:
    """Hand ``number`` as recorded, or None when nothing of it is."""
    return next((h for h in game.hands if h.number == number), None)


def _room_for(game: Game, adding: int) -> None:
    """A game keeps at most MAX_CORRECTIONS corrections: one more edit or undo is refused (400).

    Counted only when a write would add one, so recording hands as they are played costs nothing.
    """
    kept = db.session.execute(select(func.count()).select_from(Correction).filter_by(game_id=game.id)).scalar_one()
    if kept + adding > MAX_CORRECTIONS:
        raise BadRequest(
            _(
                "This game keeps at most {most} corrections and has {kept}: this change would go past it, so nothing "
                "was saved. Start a new game to go on.",
                most=MAX_CORRECTIONS,
                kept=kept,
            )
        )


def _correct(game: Game, number: int, field: str, old: Any, new: Any) -> None:
    """Keep a correction of an entry already recorded (old → new); the corrections are never deleted."""
    if old != new:  # added to the session: appending to game.corrections would load them all first
        db.session.add(Correction(game_id=game.id, hand=number, field=field, old=old, new=new))


def _whole_numbers(check: Any, rules: Rules, number: int, value: object, field: str, names: Sequence[str]) -> list[int]:
    """Bids or tricks checked by the engine; values that are not JSON whole numbers are a 400."""
    # whole sentences, so that each language may start them with the word it needs
    not_whole = (
        N_("{name}'s bid must be a whole number, not {item}.")
        if field == "bids"
        else N_("{name}'s tricks taken must be a whole number, not {item}.")
    )
    if not isinstance(value, list):
        raise BadRequest(
            _(
                "'{field}' must be a list with one whole number per player, in seat order, not {value}.",
                field=field,
                value=shown(value),
            )
        )
    if len(value) == len(names):  # a wrong count is the engine's to explain (R22, R23)
        for seat, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, int):
                raise BadRequest(_(not_whole, name=names[seat], item=shown(item)))
    return list(check(rules, number, value, names))


def stored_trump(value: object) -> Any:
    """``trump`` as stored: a suit letter, :data:`NO_TRUMP` for null (API.md: a hand without
    trump, R12), ``None`` for :data:`NOT_NOTED`, or :data:`KEEP`."""
    if value is KEEP:
        return value
    if value is None or value is NOT_NOTED:
        return games.stored_trump(None, value is None)
    if not isinstance(value, str):
        raise BadRequest(
            _('\'trump\' must be "S", "H", "D", "C" or null for no trump, not {value}.', value=shown(value))
        )
    return games.stored_trump(Suit.parse(value), True)


def record_bids(
    game_id: str, number: int, bids: object, trump: object = KEEP, version: object = None, token: str | None = None
) -> Game:
    """Record (or correct) a hand's bids and trump (R12, R22); the previous hand must be complete (R25).

    ``trump`` left out keeps what is recorded. Checks run in order: hand number (R24), order
    (R25), values (R22, R12); then a request equal to what is stored succeeds without change, and
    a stale ``version`` is refused (409) whether the request changes anything or not.
    """
    wanted = stored_trump(trump)
    with writing(game_id, version, token) as write:
        _set_bids(write, number, bids, wanted)
    return write.game


def record_tricks(game_id: str, number: int, tricks: object, version: object = None, token: str | None = None) -> Game:
    """Record (or correct) a hand's tricks taken (R23); its bids must be recorded first (R25).

    A request equal to what is stored succeeds without change (see :func:`record_bids`).
    """
    with writing(game_id, version, token) as write:
        _set_tricks(write, number, tricks)
    return write.game


def record_hand(
    game_id: str,
    number: int,
    bids: object,
    trump: object,
    tricks: object,
    version: object = None,
    token: str | None = None,
) -> Game:
    """Correct a hand's bids, trump and tricks together, in one transaction: all of it or nothing.

    The correction page saves the whole hand with one button, so a change of bids and tricks
    (which must still add up, R23) is never half stored.
    """
    wanted = stored_trump(trump)
    with writing(game_id, version, token) as write:
        _set_bids(write, number, bids, wanted)
        _set_tricks(write, number, tricks)
    return write.game


def _set_bids(write: Write, number: int, bids: object, wanted: Any) -> None:
    game = write.game
    rules = rules_of(game)
    rules.cards_in_hand(number)  # a hand the schedule has (R24), in the engine's words
    previous = entry_of(game, number - 1)
    check_order(number, "bids", previous is not None and previous.tricks is not None, bids_recorded=False)
    checked = _whole_numbers(check_bids, rules, number, bids, "bids", game.players)
    entry = entry_of(game, number)
    suit: str | None = (entry.trump if entry else None) if wanted is KEEP else wanted
    check_trump(rules, number, Suit.parse(suit) if suit != NO_TRUMP else None)
    if not rules.has_turn_up(number):  # the all-cards hand has no trump whether noted or not (R10, R12)
        suit = entry.trump if entry else None
    if entry is not None and entry.bids == checked and entry.trump == suit:
        return  # already recorded: a repeated request changes nothing
    write.change()
    if entry is None:
        entry = HandEntry(number=number)
        game.hands.append(entry)
    elif entry.bids is not None:
        _room_for(game, (entry.bids != checked) + (entry.trump != suit))
        _correct(game, number, "bids", entry.bids, checked)
        _correct(game, number, "trump", entry.trump, suit)
    entry.bids, entry.trump = checked, suit


def _set_tricks(write: Write, number: int, tricks: object) -> None:
    game = write.game
    rules = rules_of(game)
    rules.cards_in_hand(number)  # a hand the schedule has (R24), in the engine's words
    entry = entry_of(game, number)
    check_order(number, "tricks", previous_complete=True, bids_recorded=entry is not None and entry.bids is not None)
    checked = _whole_numbers(check_tricks, rules, number, tricks, "tricks", game.players)
    if entry is None or entry.tricks == checked:
        return  # already recorded: a repeated request changes nothing
    write.change()
    if entry.tricks is not None:
        _room_for(game, 1)
        _correct(game, number, "tricks", entry.tricks, checked)
    entry.tricks = checked


def undo(game_id: str, number: int, version: object = None, whole_hand: bool = True, token: str | None = None) -> Game:
    """Undo the latest hand that has entries: all of it, or only its latest step (tricks, else bids).

    ``number`` must name that hand (R25), so a repeated undo cannot remove a second hand.
    """
    with writing(game_id, version, token) as write:
        game = write.change()
        rules_of(game).cards_in_hand(number)  # R24
        latest = max((h for h in game.hands if h.bids is not None), key=lambda h: h.number, default=None)
        if latest is None:
            raise OrderError("Nothing has been recorded yet, so there is nothing to undo (R25).", "R25")
        if number > latest.number:
            raise OrderError(
                "Hand {asked} has no entries to undo; only the latest hand with entries, hand {number}, can be undone (R25).",
                "R25",
                number=latest.number,
                asked=number,
            )
        if number != latest.number:
            raise OrderError(
                "Only the latest hand with entries, hand {number}, can be undone; edit hand {asked} instead (R25).",
                "R25",
                number=latest.number,
                asked=number,
            )
        _room_for(game, 1)
        old = {"bids": latest.bids, "tricks": latest.tricks, "trump": latest.trump}
        if latest.tricks is not None and not whole_hand:
            latest.tricks = None
            new: dict[str, Any] = {**old, "tricks": None}
        else:
            game.hands.remove(latest)
            new = {"bids": None, "tricks": None, "trump": None}
        db.session.add(Correction(game_id=game.id, hand=number, field="undo", old=old, new=new))
    return game
