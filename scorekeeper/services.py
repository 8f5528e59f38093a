"""The one place that loads rows, asks the engine and commits (cosmicpython ``services.py``).

Every write runs in one transaction that first locks the game (``BEGIN IMMEDIATE`` on SQLite,
``SELECT … FOR UPDATE`` on PostgreSQL), checks the optional ``version`` and either stores the
whole change and bumps the version, or raises and stores nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from .engine import HandRecord, Rules, RulesError, Scorecard, Suit, build_scorecard, check_bids, check_records, check_tricks
from .engine.errors import OrderError
from .extensions import WRITE, db
from .models import Correction, Game, HandEntry, VirtualTable
from .tokens import matches, new_id, new_token, token_hash

MAX_NAME = 40


class ServiceError(Exception):
    """A refused request that is not a broken game rule; carries the API error code."""

    status = 400
    code = "bad_request"

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message, self.rule = message, rule


class BadRequest(ServiceError):
    """The request body is malformed (400)."""


class Forbidden(ServiceError):
    """A watch token tried to write (403)."""

    status, code = 403, "forbidden"


class NotFound(ServiceError):
    """Unknown game or wrong token: existence is not revealed (404)."""

    status, code = 404, "not_found"


class Conflict(ServiceError):
    """The request was based on an older ``version`` of the game (409)."""

    status, code = 409, "conflict"


# -- reading -------------------------------------------------------------------------------------
def rules_of(game: Game) -> Rules:
    """The engine's rules for a stored game."""
    return Rules.build(len(game.players), game.variant, game.options)


def records_of(game: Game) -> list[HandRecord]:
    """The stored hands as engine records, in order, with blanks where nothing was entered."""
    by_number = {h.number: h for h in game.hands}
    last = max(by_number, default=0)
    return [
        HandRecord(
            tuple(h.bids) if h and h.bids is not None else None,
            tuple(h.tricks) if h and h.tricks is not None else None,
            Suit.parse(h.trump) if h else None,
        )
        for h in (by_number.get(n) for n in range(1, last + 1))
    ]


def scorecard_of(game: Game) -> Scorecard:
    """The engine's scorecard for a stored game (totals, S/O/P, winners)."""
    return build_scorecard(rules_of(game), game.first_dealer, records_of(game))


def document(game: Game, card: Scorecard | None = None) -> dict[str, Any]:
    """The game document of API.md."""
    card = card or scorecard_of(game)
    current = card.current
    return {
        "id": game.id,
        "mode": game.mode,
        "variant": game.variant,
        "options": dict(game.options),
        "version": game.version,
        "status": card.status,
        "created_at": game.created_at.isoformat() + "Z",
        "first_dealer": game.first_dealer,
        "players": [{"seat": i, "name": name} for i, name in enumerate(game.players)],
        "current_hand": current.number if current else None,
        **card.to_dict(),
    }


@dataclass(frozen=True)
class Access:
    """A game opened with a token, and what that token may do."""

    game: Game
    role: str  # "scorer", "watch" or "host"

    @property
    def can_write(self) -> bool:
        return self.role == "scorer"


def open_game(game_id: str, token: str | None) -> Access:
    """Find a game by id and token; a wrong token looks exactly like a missing game (404)."""
    game = db.session.get(Game, game_id) if game_id else None
    if game is not None and token:
        if matches(token, game.scorer_hash):
            return Access(game, "scorer")
        if matches(token, game.watch_hash):
            return Access(game, "watch")
        table = db.session.execute(select(VirtualTable).filter_by(game_id=game.id)).scalar_one_or_none()
        if table is not None and (
            matches(token, table.host_hash)
            or any(matches(token, s.get("token_hash") or "") for s in table.seats)
        ):
            return Access(game, "host" if matches(token, table.host_hash) else "watch")
    raise NotFound("No game with that link: check the address, or ask the scorer for a new link.")


# -- writing -------------------------------------------------------------------------------------
@contextmanager
def locked(game_id: str, version: object = None) -> Iterator[Game]:
    """One write transaction on a locked game; bumps the version and commits, or stores nothing."""
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise BadRequest(f"'version' must be a whole number, not {version!r}.")
    db.session.rollback()  # end any read transaction so the write lock is taken at BEGIN
    db.session.connection(execution_options=WRITE)
    try:
        game = db.session.execute(
            select(Game).where(Game.id == game_id).with_for_update()
        ).scalar_one_or_none()
        if game is None:
            raise NotFound("No game with that link.")
        if version is not None and version != game.version:
            raise Conflict(
                f"Someone else changed this game first (you had version {version}, it is now "
                f"{game.version}). Check the scorecard and enter it again if still needed."
            )
        yield game
        game.version += 1
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


def create_game(
    players: object, variant: object = "standard", first_dealer: object = 0,
    options: object = None, mode: str = "table",
) -> tuple[Game, str, str]:
    """Store a new game; returns it with its scorer and watch tokens (shown once, stored hashed)."""
    names = clean_names(players)
    if options is not None and not isinstance(options, Mapping):
        raise BadRequest("'options' must be an object such as {\"zero_bids\": true}.")
    rules = Rules.build(len(names), variant, options)
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not 0 <= first_dealer < len(names):
        raise RulesError(
            f"The first dealer must be a seat from 0 to {len(names) - 1}, not {first_dealer!r} (R6).", "R6"
        )
    scorer, watch = new_token(), new_token()
    game = Game(
        id=new_id(), variant=rules.variant.value, options=rules.options, players=names,
        first_dealer=first_dealer, scorer_hash=token_hash(scorer), watch_hash=token_hash(watch), mode=mode,
    )
    db.session.add(game)
    db.session.commit()
    return game, scorer, watch


def clean_names(players: object) -> list[str]:
    """2–15 distinct, non-empty names of at most 40 characters, trimmed (R4)."""
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise BadRequest("'players' must be a list of names, such as [\"Ann\", \"Ben\", \"Cy\"].")
    names = [" ".join(p.split()) for p in players]
    if not 2 <= len(names) <= 15:
        raise RulesError(f"Bluke is played by 2 to 15 players, not {len(names)} (R4).", "R4")
    for seat, name in enumerate(names, start=1):
        if not name:
            raise BadRequest(f"Player {seat} has no name.")
        if len(name) > MAX_NAME:
            raise BadRequest(f"Player {seat}'s name is longer than {MAX_NAME} characters.")
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            raise BadRequest(f"Two players are called {name!r}; give each a different name.")
        seen.add(name.casefold())
    return names


def _entry(game: Game, number: int) -> HandEntry | None:
    return next((h for h in game.hands if h.number == number), None)


def _check_number(rules: Rules, number: int) -> None:
    if not 1 <= number <= rules.hand_count:
        raise RulesError(f"This game has hands 1 to {rules.hand_count}; there is no hand {number} (R7, R8, R24).", "R24")


def _log(game: Game, number: int, field: str, old: Any, new: Any) -> None:
    if old is not None and old != new:
        game.corrections.append(Correction(hand=number, field=field, old=old, new=new))


def _list_of_numbers(value: object, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise BadRequest(f"'{name}' must be a list with one number per player.")
    return value


def record_bids(game_id: str, number: int, bids: object, trump: object = None, version: object = None) -> Game:
    """Record (or correct) a hand's bids and trump; the previous hand must be complete (R22, R25)."""
    bids = _list_of_numbers(bids, "bids")
    with locked(game_id, version) as game:
        rules = rules_of(game)
        _check_number(rules, number)
        previous = _entry(game, number - 1)
        if number > 1 and (previous is None or previous.tricks is None):
            raise OrderError(f"Hand {number - 1} is not complete yet: record its bids and tricks first (R25).", "R25")
        if not isinstance(trump, (str, type(None))):
            raise BadRequest("'trump' must be S, H, D, C or null.")
        suit = Suit.parse(trump) if trump is not None else None
        checked = list(check_bids(rules, number, bids, game.players))
        entry = _entry(game, number)
        if entry is None:
            entry = HandEntry(number=number)
            game.hands.append(entry)
        _log(game, number, "bids", entry.bids, checked)
        _log(game, number, "trump", entry.trump, suit.value if suit else None)
        entry.bids, entry.trump = checked, suit.value if suit else None
    return game


def record_tricks(game_id: str, number: int, tricks: object, version: object = None) -> Game:
    """Record (or correct) a hand's tricks taken; its bids must be recorded first (R23, R25)."""
    tricks = _list_of_numbers(tricks, "tricks")
    with locked(game_id, version) as game:
        rules = rules_of(game)
        _check_number(rules, number)
        entry = _entry(game, number)
        if entry is None or entry.bids is None:
            raise OrderError(f"Record the bids of hand {number} before its tricks (R25).", "R25")
        checked = list(check_tricks(rules, number, tricks, game.players))
        _log(game, number, "tricks", entry.tricks, checked)
        entry.tricks = checked
    return game


def undo(game_id: str, number: int, version: object = None, whole_hand: bool = True) -> Game:
    """Undo the latest hand that has entries: all of it, or only its latest step (tricks, else bids)."""
    with locked(game_id, version) as game:
        latest = max((h for h in game.hands if h.bids is not None), key=lambda h: h.number, default=None)
        if latest is None:
            raise OrderError("Nothing has been recorded yet, so there is nothing to undo (R25).", "R25")
        if number != latest.number:
            raise OrderError(
                f"Only the latest hand with entries, hand {latest.number}, can be undone; "
                f"edit hand {number} instead (R25).",
                "R25",
            )
        old = {"bids": latest.bids, "tricks": latest.tricks, "trump": latest.trump}
        if latest.tricks is not None and not whole_hand:
            latest.tricks = None
            new: dict[str, Any] = {**old, "tricks": None}
        else:
            game.hands.remove(latest)
            new = {"bids": None, "tricks": None, "trump": None}
        game.corrections.append(Correction(hand=number, field="undo", old=old, new=new))
    return game


def check_whole_game(game: Game, records: Sequence[HandRecord]) -> None:
    """Check a complete set of records for a game before storing them (imports)."""
    check_records(rules_of(game), game.first_dealer, records, game.players)
