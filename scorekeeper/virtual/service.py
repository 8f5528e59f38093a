"""The one place that commits virtual-table state (cosmicpython ``games.py``).

Every action runs in one write transaction that locks the table row (``BEGIN IMMEDIATE`` on
SQLite, ``SELECT … FOR UPDATE`` on PostgreSQL, as :mod:`scorekeeper.games` does; the game row
too when a hand is written),
checks the optional ``version``, asks the engine, lets the bots move up to the next human turn,
writes the finished bids and tricks into the game's ordinary ``hands`` rows, saves the engine
state and bumps the version — or raises and stores nothing. Any server process can therefore
continue any table: nothing lives in memory between requests.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import random
import secrets
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlalchemy import delete, select

from .. import games
from ..bots import LEVELS, decide, random_bot
from ..engine import Card, Game, Rules, RulesError, check_bids, check_tricks
from ..engine.errors import OrderError
from ..extensions import WRITE, db
from ..models import Game as GameRow
from ..models import HandEntry, VirtualTable
from ..errors import BadRequest, Conflict, NotFound
from ..i18n import _
from ..tokens import matches, new_id, new_token, token_hash

#: Seeds are stored in a 32-bit integer column (PostgreSQL ``integer``).
MAX_SEED = 2**31 - 1
#: Bots keep the write lock at most this long per transaction; a longer run continues in the next.
BOT_BUDGET_SECONDS = 0.5


# -- access --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TableAccess:
    """A table opened with a token: the host (``seat is None``) or one seat."""

    table: VirtualTable
    seat: int | None
    token: str

    @property
    def is_host(self) -> bool:
        return self.seat is None


def open_table(table_id: str, token: str | None) -> TableAccess:
    """Find a table by id and token; a wrong token looks exactly like a missing table (404)."""
    table = db.session.get(VirtualTable, table_id) if table_id and token else None
    if table is not None and token:
        if matches(token, table.host_hash):
            return TableAccess(table, None, token)
        for seat, info in enumerate(table.seats):
            if matches(token, info.get("token_hash") or ""):
                return TableAccess(table, seat, token)
    raise NotFound(_("No table with that link: check the address, or ask the host for a new link."))


def seat_token(host_token: str, table_id: str, seat: int) -> str:
    """A seat's token, derived from the host's (HMAC-SHA256, 192 bits).

    Only hashes are stored, yet the host page can show every seat's link and QR code again at any
    time, because the host's browser holds the host token it was derived from.
    """
    digest = hmac.new(host_token.encode(), f"{table_id}:seat:{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def seat_tokens(access: TableAccess) -> dict[int, str]:
    """The host's view of the human seats' tokens (empty for a seat token)."""
    if not access.is_host:
        return {}
    table = access.table
    return {
        seat: seat_token(access.token, table.id, seat)
        for seat, info in enumerate(table.seats)
        if info.get("token_hash")
    }


# -- engine state --------------------------------------------------------------------------------
def rules_of(table: VirtualTable) -> Rules:
    """The engine's rules for a table (from the saved state, else from its game row)."""
    state = table.state
    if state:
        return Rules.build(state["players"], state["variant"], state["options"])
    return games.rules_of(table.game)


def first_dealer(table: VirtualTable) -> int:
    """Who dealt hand 1 (R6)."""
    return int(table.state["first_dealer"]) if table.state else table.game.first_dealer


def load_state(table: VirtualTable) -> Game | None:
    """The engine game saved for a table; ``None`` in the lobby."""
    return Game.from_dict(table.state) if table.state else None


def bots_pending(table: VirtualTable) -> bool:
    """True when a bot is to act and nobody is driving it (e.g. after a crash or a seat swap)."""
    state = table.state
    if not state or state.get("phase") not in ("bidding", "playing", "dealing"):
        return False
    to_act = state.get("to_act")
    return state.get("phase") == "dealing" or (to_act is not None and bool(table.seats[to_act].get("bot")))


def _deal_rng(table: VirtualTable, number: int) -> random.Random:
    """``secrets.SystemRandom`` for real tables; a repeatable shuffle per hand with an allowed seed."""
    if table.seed is None:
        return secrets.SystemRandom()
    return random.Random(f"bluke:{table.seed}:deal:{number}")


def _bot_rng(table: VirtualTable, game: Game) -> random.Random:
    """A bot's random source; repeatable per action when the table is seeded."""
    if table.seed is None:
        return random.Random(secrets.randbits(64))
    step = sum(b is not None for b in game.bids) + sum(len(t) for t in game.played) + len(game.trick)
    return random.Random(f"bluke:{table.seed}:bot:{game.number}:{step}")


# -- transactions --------------------------------------------------------------------------------
@contextmanager
def locked_table(table_id: str, version: object = None, bump: bool = True) -> Iterator[VirtualTable]:
    """One write transaction on a locked table; bumps the version and commits, or stores nothing.

    Only the table's actions write its game's rows (its scorer token was never handed out), so
    the table row's lock serialises them; :func:`_game_row` locks the game row too when a hand
    is written.

    ``bump=False`` is for bookkeeping that changes nothing a seat could act on (who has joined):
    a player opening their link must not make another player's tap stale.
    """
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise BadRequest(_("'version' must be a whole number, not {version!r}.", version=version))
    db.session.rollback()  # end any read transaction so the write lock is taken at BEGIN
    db.session.connection(execution_options=WRITE)
    try:
        table = db.session.execute(
            select(VirtualTable).where(VirtualTable.id == table_id).with_for_update()
        ).scalar_one_or_none()
        if table is None:
            raise NotFound(_("No table with that link."))
        if version is not None and version != table.version:
            raise Conflict(
                _("The table moved on before your tap arrived (you saw version {version}, it is now {version2}). Look at the table again and tap again if it is still your turn.", version=version, version2=table.version)
            )
        yield table
        if bump:
            table.version += 1
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


def _save(table: VirtualTable, game: Game) -> None:
    table.state = game.to_dict()  # a new object, so SQLAlchemy sees the JSON change
    table.phase = game.phase if game.phase != "dealing" else "bidding"


def _entry(row: GameRow, number: int) -> HandEntry:
    entry = next((h for h in row.hands if h.number == number), None)
    if entry is None:
        entry = HandEntry(number=number)
        row.hands.append(entry)
    return entry


def _game_row(table: VirtualTable) -> GameRow:
    """The table's game row, locked for writing (within the table's transaction)."""
    return db.session.execute(select(GameRow).where(GameRow.id == table.game_id).with_for_update()).scalar_one()


class _Recorder:
    """Writes each hand's bids and tricks into the game's rows once, when they become known.

    The rows always agree with the saved state (both are written in one transaction), so only
    what changes during this transaction is written, and the rows are loaded only then.
    """

    def __init__(self, table: VirtualTable, game: Game) -> None:
        self.table = table
        self.records = len(game.records)
        self.bids_of = game.number if game.phase in ("playing", "dealing", "finished") else None

    def __call__(self, game: Game) -> None:
        if len(game.records) > self.records or (game.phase == "playing" and self.bids_of != game.number):
            _write_hands(_game_row(self.table), game)
            self.records = len(game.records)
            self.bids_of = game.number if game.phase != "bidding" else None


def _write_hands(row: GameRow, game: Game) -> None:
    """Mirror the engine into the game's ``hands`` rows, as the scorer would write them (R22–R25).

    Bids and trump once bidding is over, tricks once the hand is over: the same rows, checks and
    version bump as :func:`scorekeeper.service.record_bids` / ``record_tricks``, so the game
    document, scorecard, PDF and statistics treat a virtual game like any other.
    """
    changed = False
    for number, record in enumerate(game.records, start=1):
        entry = _entry(row, number)
        if entry.tricks is None:
            entry.bids = list(check_bids(game.rules, number, list(record.bids or ()), row.players))
            entry.trump = games.stored_trump(record.trump, record.no_trump)
            entry.tricks = list(check_tricks(game.rules, number, list(record.tricks or ()), row.players))
            changed = True
    if game.phase == "playing":
        entry = _entry(row, game.number)
        if entry.bids is None:
            entry.bids = list(check_bids(game.rules, game.number, list(game.bids), row.players))
            entry.trump = games.stored_trump(game.trump, game.trump is None)  # the dealer turned a Bluke (R12)
            changed = True
    if changed:
        row.version += 1


def _advance(table: VirtualTable, game: Game, record: _Recorder) -> bool:
    """Record, deal and let bots act until a human is to act or the game is over.

    Returns True when the time budget ran out with a bot still to act (the caller continues in a
    new transaction, so one slow bot never holds the database lock for long).
    """
    started, moved = time.monotonic(), False
    while True:
        record(game)
        if game.phase == "dealing":
            game.deal(_deal_rng(table, game.number + 1))
            continue
        if game.phase not in ("bidding", "playing") or game.to_act is None:
            return False
        seat = game.to_act
        level = table.seats[seat].get("bot")
        if not level:
            return False
        if moved and time.monotonic() - started > BOT_BUDGET_SECONDS:
            return True  # at least one move per transaction, so a slow bot still gets on
        _bot_move(game, seat, level, _bot_rng(table, game))
        moved = True


def _bot_move(game: Game, seat: int, level: str, rng: random.Random) -> None:
    """One bot move; a bot that fails or answers an illegal move is replaced by a random legal one.

    A faulty bot must never leave a table stuck on its turn (the failure is logged).
    """
    view = game.view_for(seat)
    try:
        game.apply(seat, decide(level, view, game.rules, rng))
    except Exception:  # noqa: BLE001 — any bot failure, logged, then a legal move
        current_app.logger.exception("The %s bot failed at seat %s; it plays a random legal move.", level, seat)
        game.apply(seat, random_bot(view, game.rules, rng))


def _run(table_id: str, version: object, change: Any, bump: bool = True) -> None:
    """Apply ``change(table, game)`` in one locked transaction, then let the bots catch up."""
    with locked_table(table_id, version, bump) as table:
        game = load_state(table)
        record = _Recorder(table, game) if game is not None else None
        game = change(table, game)
        more = False
        if game is not None:
            more = _advance(table, game, record or _Recorder(table, game))
            _save(table, game)
    if more:
        settle(table_id)


def settle(table_id: str) -> None:
    """Let pending bots act (several short transactions if they are slow)."""
    more = True
    while more:
        with locked_table(table_id) as table:
            game = load_state(table)
            more = False
            if game is not None and bots_pending(table):
                more = _advance(table, game, _Recorder(table, game))
                _save(table, game)


def settle_if_needed(access: TableAccess) -> TableAccess:
    """Before answering a read: drive bots nobody is driving, and reload the table."""
    if bots_pending(access.table):
        table_id = access.table.id
        settle(table_id)
        table = db.session.get(VirtualTable, table_id)
        assert table is not None
        return TableAccess(table, access.seat, access.token)
    return access


# -- creating ------------------------------------------------------------------------------------
def _bot_level(value: object, where: str) -> str | None:
    if value is None:
        return None
    if value not in LEVELS:
        raise BadRequest(_("{where}: the bot level must be one of {levels} or null, not {value!r}.", where=where, levels=', '.join(LEVELS), value=value))
    return str(value)


def parse_seats(seats: object) -> tuple[list[str], list[str | None]]:
    """Names and bot levels from ``[{"name": "Ann"}, {"name": "Robo", "bot": "basic"}, …]``."""
    if not isinstance(seats, list) or not all(isinstance(s, Mapping) for s in seats):
        raise BadRequest(_("'seats' must be a list such as [{\"name\": \"Ann\"}, {\"name\": \"Robo\", \"bot\": \"basic\"}]."))
    bots = [_bot_level(s.get("bot"), _("Seat {seat}", seat=i)) for i, s in enumerate(seats)]
    names = [s.get("name") if s.get("name") is not None or bot is None else f"Bot {i + 1}"
             for i, (s, bot) in enumerate(zip(seats, bots))]
    return games.clean_names(names), bots


def check_seed(seed: object, allowed: bool) -> int | None:
    """A seed only where the app allows it (tests, simulations); real tables use SystemRandom."""
    if seed is None:
        return None
    if not allowed:
        raise BadRequest(_("'seed' is only accepted when the server runs with SCOREKEEPER_ALLOW_SEED=1."))
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise BadRequest(_("'seed' must be a whole number from 0 to {most}, not {seed!r}.", most=MAX_SEED, seed=seed))
    return seed


@dataclass(frozen=True)
class Created:
    """A new table and the tokens shown once: the host's and each human seat's."""

    table: VirtualTable
    host_token: str
    seat_tokens: dict[int, str]


def create_table(
    seats: object, variant: object = "standard", options: object = None, first_dealer: object = 0,
    start: object = True, seed: object = None, allow_seed: bool = False, attach: games.Attach | None = None,
) -> Created:
    """Open a table (a lobby, or dealt at once with ``start``) over a new game in virtual mode.

    The game row is created by :func:`scorekeeper.games.create_game`, which checks names,
    variant, options and first dealer; its scorer token is thrown away, so no scorer can write
    into a game that the table records.
    """
    names, bots = parse_seats(seats)
    if not isinstance(start, bool):
        raise BadRequest(_("'start' must be true or false."))
    seed_value = check_seed(seed, allow_seed)
    row, _scorer, _watch = games.create_game(names, variant, first_dealer, options, mode="virtual", attach=attach)
    game_id, table_id, host = row.id, new_id(), new_token()
    tokens = {i: seat_token(host, table_id, i) for i, bot in enumerate(bots) if bot is None}
    try:
        db.session.rollback()
        db.session.connection(execution_options=WRITE)
        row = db.session.execute(select(GameRow).where(GameRow.id == game_id).with_for_update()).scalar_one()
        table = VirtualTable(
            id=table_id, game_id=row.id, host_hash=token_hash(host), phase="lobby", state=None,
            seed=seed_value, version=1,
            seats=[{"name": name, "bot": bot, "token_hash": token_hash(tokens[i]) if i in tokens else None,
                    "joined": False} for i, (name, bot) in enumerate(zip(names, bots))],
        )
        table.game = row
        db.session.add(table)
        more = False
        if start:
            game = Game.start(games.rules_of(row), row.first_dealer, _deal_rng(table, 1))
            more = _advance(table, game, _Recorder(table, game))
            _save(table, game)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        db.session.execute(delete(GameRow).where(GameRow.id == game_id))
        db.session.commit()
        raise
    if more:
        settle(table_id)
    return Created(table, host, tokens)


# -- acting --------------------------------------------------------------------------------------
def _playing(game: Game | None) -> Game:
    if game is None:
        raise OrderError("The game has not started yet: the host starts it from the lobby (R25).", "R25")
    return game


def _human(table: VirtualTable, seat: int) -> None:
    info = table.seats[seat]
    if info.get("bot"):
        raise OrderError("A bot is playing this seat now; ask the host to hand it back to you (R25).", "R25")
    if not info.get("joined"):
        table.seats = [dict(s, joined=True) if i == seat else s for i, s in enumerate(table.seats)]


def start(table_id: str, version: object = None) -> None:
    """Deal hand 1 of a table in the lobby (host)."""

    def change(table: VirtualTable, game: Game | None) -> Game:
        if game is not None:
            raise Conflict(_("This table has already started."))
        return Game.start(rules_of(table), first_dealer(table), _deal_rng(table, 1))

    _run(table_id, version, change)


def bid(table_id: str, seat: int, amount: object, version: object = None) -> None:
    """Seat ``seat`` bids ``amount`` (R13); the engine refuses a bid out of turn or range."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise BadRequest(_("'bid' must be a whole number of tricks, not {amount!r}.", amount=amount))
    _act(table_id, seat, amount, version)


def play(table_id: str, seat: int, card: object, version: object = None) -> None:
    """Seat ``seat`` plays ``card`` (a card code); the engine checks R14–R18."""
    if not isinstance(card, str):
        raise BadRequest(_("'card' must be a card code, a text such as the ones in your hand, not {card!r}.", card=card))
    try:
        parsed = Card.parse(card.strip())
    except RulesError:
        # The engine's message lists example codes; a seat's answers name no card it cannot see.
        raise RulesError(
            "{card!r} is not a card: a code is a rank (2-9, T, J, Q, K, A) and a suit letter (S, H, D, C), or one of the two Bluke codes (R1).", "R1", card=card
        ) from None
    _act(table_id, seat, parsed, version)


def _act(table_id: str, seat: int, action: int | Card, version: object) -> None:
    """A human seat's bid or card, applied by the engine, then the bots up to the next human."""

    def change(table: VirtualTable, game: Game | None) -> Game:
        game = _playing(game)
        _human(table, seat)
        game.apply(seat, action)
        return game

    _run(table_id, version, change)


def set_bot(access: TableAccess, seat: object, level: object, version: object = None) -> None:
    """The host hands seat ``seat`` to a bot of ``level``, or back to its human (``None``)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(access.table.seats):
        raise BadRequest(_("There is no seat {seat!r} at this table.", seat=seat))
    bot = _bot_level(level, _("Seat {seat}", seat=seat))

    def change(table: VirtualTable, game: Game | None) -> Game | None:
        info = dict(table.seats[seat], bot=bot)
        if bot is None and not info.get("token_hash"):
            info["token_hash"] = token_hash(seat_token(access.token, table.id, seat))
        table.seats = [info if i == seat else s for i, s in enumerate(table.seats)]
        return game

    _run(access.table.id, version, change)


def fill_with_bots(access: TableAccess, level: object) -> None:
    """The host gives every human seat nobody has joined to a bot of ``level``."""
    bot = _bot_level(level, _("Empty seats"))
    if bot is None:
        raise BadRequest(_("Choose a bot level for the empty seats."))

    def change(table: VirtualTable, game: Game | None) -> Game | None:
        table.seats = [dict(s, bot=bot) if not s.get("bot") and not s.get("joined") else s for s in table.seats]
        return game

    _run(access.table.id, None, change)


def mark_joined(access: TableAccess) -> None:
    """Remember that a seat's player has opened their link (the host page shows who is here)."""
    if access.seat is None or access.table.seats[access.seat].get("joined"):
        return
    seat = access.seat

    def change(table: VirtualTable, game: Game | None) -> Game | None:
        table.seats = [dict(s, joined=True) if i == seat else s for i, s in enumerate(table.seats)]
        return None  # nothing to save in the engine state, and no bot moves without a version bump

    _run(access.table.id, None, change, bump=False)


def stamp(table: VirtualTable) -> str:
    """What the pages poll: the version, plus who has joined (which does not bump the version)."""
    joined = "".join("1" if s.get("joined") else "0" for s in table.seats)
    return f"{table.version}.{joined}"
