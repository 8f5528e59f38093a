"""The one place that commits virtual-table state (cosmicpython ``games.py``).

Every action runs in one write transaction that locks the table row (``BEGIN IMMEDIATE`` on
SQLite, ``SELECT … FOR UPDATE`` on PostgreSQL, as :mod:`scorekeeper.games` does; the game row
too when a hand is written),
checks the optional ``version``, asks the engine, lets the bots move for a short budget (the
next request or poll continues), writes the finished bids and tricks into the game's ordinary
``hands`` rows, saves the engine state with the public move log and bumps the version — or
raises and stores nothing. Any server process can therefore continue any table: nothing lives
in memory between requests.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import random
import secrets
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlalchemy import delete
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from .. import games
from ..bots import decide
from ..bots import LEVELS
from ..bots import random_bot
from ..bots import table_view
from ..engine import Card
from ..engine import check_bids
from ..engine import check_players
from ..engine import check_tricks
from ..engine import draw_for_deal
from ..engine import Game
from ..engine import Rules
from ..engine import RulesError
from ..engine.errors import OrderError
from ..engine.tricks import trick_winner
from ..errors import BadRequest
from ..errors import Conflict
from ..errors import contended
from ..errors import Forbidden
from ..errors import NotFound
from ..extensions import db
from ..extensions import WRITE
from ..i18n import _
from ..i18n import N_
from ..models import Game as GameRow
from ..models import HandEntry
from ..models import VirtualTable
from ..tokens import matches
from ..tokens import new_id
from ..tokens import new_token
from ..tokens import token_hash

#: Bots think for at most this long in one request (this thread's CPU time, plus the move under
#: way); the next request or poll continues, so no request does much work for others (and none
#: holds a lock while bots think: :func:`settle`). Up to the next human's turn that is every bot
#: move at most tables (API.md: a seat's answer reflects them); at the largest tables of strong
#: bots the view says ``bots_thinking`` and the next look goes on.
BOT_BUDGET_SECONDS = 0.2
#: ... and for at most this long by the clock, the floors below included (a request holds a thread:
#: a move that finds another request moving the table's bots first waits for those, as long again).
BOT_WAIT_SECONDS = 1.0
#: A thinking bot's move takes at least this long, so its speed does not show its hand (:func:`_even_out`).
BOT_MOVE_FLOOR_SECONDS = 0.04
#: The levels whose moves take that floor: the strong bot's work varies with what it holds; the
#: others' microseconds do not show on a network (nor, in a batch, one move's time).
FLOORED_LEVELS = frozenset({"strong"})
#: The bot that finishes a hand for a seat the host gave a new link during it (:func:`reissue`).
RELINK_BOT = "strong"
#: The clock of :data:`BOT_BUDGET_SECONDS` (benchmarks/virtual_bot_work.py compares the wall clock).
work_clock = time.thread_time
#: The bots of every table of a server process think one request at a time, and together for at
#: most this share of one processor after a first :data:`BOT_BURST_SECONDS` of CPU time: a client
#: that starts many tables of bots only (each one creation, then polled) slows their games, not
#: everyone else's requests (benchmarks/bot_share.py). A look that finds another request thinking,
#: or the share spent, answers with the table as it is; a move waits for it within its own wait.
BOT_SHARE = 0.5
BOT_BURST_SECONDS = 1.0


class _Share:
    """The bots' turn to think in this process, and what is left of their share of its processor
    time (a token bucket)."""

    def __init__(self) -> None:
        self._lock, self._turn = threading.Lock(), threading.Lock()
        self._left, self._at = BOT_BURST_SECONDS, time.monotonic()

    @contextmanager
    def turn(self, wait: float) -> Iterator[bool]:
        """Whether this request may let bots think now: no other request of the process does
        (waiting up to ``wait`` seconds for it to finish)."""
        mine = self._turn.acquire(timeout=wait) if wait > 0 else self._turn.acquire(blocking=False)
        try:
            yield mine
        finally:
            if mine:
                self._turn.release()

    def left(self) -> float:
        """Seconds of CPU time the bots may still use now (negative: overspent by the last move)."""
        with self._lock:
            now = time.monotonic()
            self._left = min(BOT_BURST_SECONDS, self._left + (now - self._at) * BOT_SHARE)
            self._at = now
            return self._left

    def spend(self, seconds: float) -> None:
        with self._lock:
            self._left -= seconds


bot_share = _Share()


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
    """Find a table by id and token; a wrong token looks exactly like a missing table (404).

    A seat link the host has replaced (:func:`reissue`) is refused with 403 and says so, so the
    player who held it knows what happened instead of seeing the table vanish.
    """
    table = db.session.get(VirtualTable, table_id) if table_id and token else None
    if table is not None and token:
        if matches(token, table.host_hash):
            return TableAccess(table, None, token)
        for seat, info in enumerate(table.seats):
            if matches(token, info.get("token_hash") or ""):
                return TableAccess(table, seat, token)
        for info in table.seats:
            if any(matches(token, old) for old in info.get("revoked") or ()):
                raise Forbidden(_(REPLACED))
    raise NotFound(_("No table with that link: check the address, or ask the host for a new link."))


STALE = N_(
    "The table moved on before your tap arrived: someone else moved, or this screen was out of date. "
    "Nothing was played for you; look at the table again and tap again if it is still your turn."
)
#: A seat link that stopped working: the host gave the seat a new one, or a bot took the seat before
#: its link was opened (:func:`_to_bot`).
REPLACED = N_(
    "This link no longer works: the seat has a newer link, or a bot plays it now. Ask the host for the seat's link."
)
#: A seat remembers this many replaced links, to tell their holders what happened.
REVOKED_KEPT = 4


def _pad(key: str, table_id: str, seat: int, issued: int) -> bytes:
    """A one-time pad only the token ``key`` can make (the host's; for a rematch followed, the seat's
    old link): one per seat and per issued link."""
    return hmac.new(key.encode(), f"{table_id}:seat:{seat}:{issued}".encode(), hashlib.sha256).digest()


def _seal(token: str, pad: bytes) -> str:
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    return base64.urlsafe_b64encode(bytes(a ^ b for a, b in zip(raw, pad))).decode()


def _unseal(sealed: str, pad: bytes) -> str:
    raw = base64.urlsafe_b64decode(sealed)
    return base64.urlsafe_b64encode(bytes(a ^ b for a, b in zip(raw, pad))).decode().rstrip("=")


def _issue(
    info: dict[str, Any], host_token: str | None, table_id: str, seat: int, token: str | None = None
) -> tuple[dict[str, Any], str]:
    """A seat with a fresh random link (192 bits; ``token``, a set-up form's): stored as a hash, plus
    a copy sealed for the host.

    The sealed copy lets the host page show the link (and its QR code) again until the seat's
    player has opened it; then it is dropped, and not even the host can open that seat. The old
    link, if any, stops working (its hash is kept only to explain that, see :func:`open_table`).
    Without ``host_token`` nothing is sealed: the link goes straight to the player who asked.
    """
    token = token or new_token()
    issued = int(info.get("issued") or 0) + 1
    revoked = list(info.get("revoked") or ())
    if info.get("token_hash"):
        revoked = [*revoked, info["token_hash"]][-REVOKED_KEPT:]
    sealed = _seal(token, _pad(host_token, table_id, seat, issued)) if host_token else None
    fresh = dict(
        info, token_hash=token_hash(token), sealed=sealed, issued=issued, joined=host_token is None, revoked=revoked
    )
    return fresh, token


def seat_tokens(access: TableAccess) -> dict[int, str]:
    """The links the host may still hand out: human seats whose player has not opened theirs yet."""
    if not access.is_host:
        return {}
    table = access.table
    return {
        seat: _unseal(info["sealed"], _pad(access.token, table.id, seat, int(info.get("issued") or 0)))
        for seat, info in enumerate(table.seats)
        if info.get("sealed") and (not info.get("bot") or info.get("person_from")) and not info.get("joined")
    }


def table_of_game(game_id: str) -> str | None:
    """The id of the table that plays a virtual game (ids are not secrets; tokens are)."""
    return db.session.execute(select(VirtualTable.id).where(VirtualTable.game_id == game_id)).scalar_one_or_none()


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
    if not games.well_formed_version(version):
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
            raise Conflict(_(STALE))
        yield table
        if bump:
            table.version += 1
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


#: What a finished table's state keeps beside the engine's: the rematch and its sealed host link.
REMATCH_KEYS = ("rematch", "rematch_host")


def _save(table: VirtualTable, game: Game, log: list[dict[str, Any]]) -> None:
    """Store the engine state with the table's public move log (a new object, so SQLAlchemy sees it),
    keeping a rematch already set up (a host's seat change on the finished table saves it again)."""
    kept = {key: value for key, value in (table.state or {}).items() if key in REMATCH_KEYS}
    table.state = {**game.to_dict(), "log": log, **kept}
    table.phase = game.phase if game.phase != "dealing" else "bidding"
    for seat, info in enumerate(table.seats):
        if info.get("person_from") and (bot_at(info, game.number) is None or game.phase == "finished"):
            try:
                _hand_over(table, seat)
            except (BadRequest, RulesError):  # the group's roster filled up, or the name was merged into a
                pass  # player at this game since: the person plays, counting for nobody there


def bot_at(info: dict[str, Any], number: int) -> str | None:
    """The bot that plays a seat in hand ``number``: a seat handed to a person during a hand whose
    cards a bot was dealt stays the bot's until the next deal (:func:`set_bot`)."""
    if info.get("person_from") and number >= info["person_from"]:
        return None
    bot = info.get("bot")
    return str(bot) if bot else None


def _hand_over(table: VirtualTable, seat: int) -> None:
    """A bot's seat goes to its person; then, at a group's table, they join the game's players
    (:class:`BadRequest` when the roster has no room, :class:`RulesError` R4 when the name is that
    of a player already at the game, the seat already handed over)."""
    table.seats = [_to_bot(s, None) if i == seat else s for i, s in enumerate(table.seats)]
    _seat_person(table, seat)


def _seat_person(table: VirtualTable, seat: int, check_only: bool = False) -> None:
    from ..groups.service import seat_person  # imported here: groups' routes import this package

    seat_person(table.game, seat, check_only)


def log_of(table: VirtualTable) -> list[dict[str, Any]]:
    """The public moves of this hand and the one before, oldest first (see :func:`_apply`)."""
    return list((table.state or {}).get("log") or [])


def _apply(game: Game, seat: int, action: int | Card, log: list[dict[str, Any]]) -> None:
    """Apply one bid or card through the engine and append it to the public move log.

    Every seat's screen replays the log card by card (``moves`` in the view), so a trick that
    several bots finish at once, or the last trick of a hand dealt away in the same
    transaction, is still seen in order. A play that ends a trick names its winner, and the last
    play of a hand says so. Only public facts go in: bids and cards played face up. The log keeps
    this hand and the previous one, so it never grows with the game.
    """
    number = game.number
    game.apply(seat, action)
    event: dict[str, Any] = {"seq": (log[-1]["seq"] + 1) if log else 1, "hand": number, "seat": seat}
    if isinstance(action, Card):
        event["card"] = str(action)
        if not game.trick:  # the trick is complete (R17)
            event["won_by"] = trick_winner(game.last_trick, game.trump, game.rules.new_jersey)
            if game.phase in ("dealing", "finished"):
                event["hand_over"] = True
    else:
        event["bid"] = action
    log.append(event)
    log[:] = [e for e in log if e["hand"] >= number - 1]


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
    version bump and stored summary as :func:`scorekeeper.service.record_bids` / ``record_tricks``,
    so the game document, scorecard, PDF and statistics treat a virtual game like any other.
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
        games.summarise(row)


def _advance(
    table: VirtualTable, game: Game, record: Callable[[Game], None], log: list[dict[str, Any]], bots: bool = True
) -> bool:
    """Record, deal and (unless ``bots`` is false) let bots act until a human is to act, the game
    is over or time is up.

    Returns True when the time budget ran out with a bot still to act: the next request or poll
    continues (:func:`settle_if_needed`), so no request holds a worker for long, not even at a
    table of bots only.
    """
    started, worked, moved, longest, longest_work = time.monotonic(), work_clock(), False, 0.0, 0.0
    while True:
        record(game)
        if game.phase == "dealing":
            game.deal(_deal_rng(table, game.number + 1))
            continue
        if game.phase not in ("bidding", "playing") or game.to_act is None:
            return False
        seat = game.to_act
        level = bot_at(table.seats[seat], game.number)
        if not level or not bots:
            return False
        # Stop before a move that would likely end past the budget or the wait (judged by the
        # slowest move so far); at least one move per request, so a slow bot still gets on,
        # unless the bots of this process have spent their share of it.
        before, before_work = time.monotonic(), work_clock()
        if bot_share.left() <= 0 or (
            moved
            and (
                before_work - worked + longest_work > BOT_BUDGET_SECONDS
                or before - started + longest > BOT_WAIT_SECONDS
            )
        ):
            return True
        _bot_move(game, seat, [s.get("bot") for s in table.seats], _bot_rng(table, game), log)
        moved, longest, work = True, max(longest, time.monotonic() - before), work_clock() - before_work
        longest_work = max(longest_work, work)
        bot_share.spend(work)


def _even_out(level: str, started: float) -> None:
    """Let a thinking bot's move take at least :data:`BOT_MOVE_FLOOR_SECONDS`.

    A strong bot's work varies with what it holds (the deals it draws must fit its hand); without
    a floor a quick answer could tell the other players something of it. The random and basic
    bots' microseconds do not depend on their hands in a way a network could measure.
    """
    if level in FLOORED_LEVELS:
        rest = BOT_MOVE_FLOOR_SECONDS - (time.monotonic() - started)
        if rest > 0:
            time.sleep(rest)


def _bot_move(game: Game, seat: int, levels: list[str | None], rng: random.Random, log: list[dict[str, Any]]) -> None:
    """One bot move of the seat, at a table with these bot levels (the seat's own included); a bot
    that fails or answers an illegal move is replaced by a random legal one.

    A faulty bot must never leave a table stuck on its turn (the failure is logged).
    """
    level = levels[seat]
    assert level is not None
    view = table_view(game.view_for(seat), levels)
    started = time.monotonic()
    try:
        action = decide(level, view, game.rules, rng)
        _even_out(level, started)
        _apply(game, seat, Card.parse(action) if isinstance(action, str) else action, log)
    except Exception:  # noqa: BLE001 — any bot failure, logged, then a legal move (the engine changed nothing)
        current_app.logger.exception("The %s bot failed at seat %s; it plays a random legal move.", level, seat)
        action = random_bot(view, game.rules, rng)
        _apply(game, seat, Card.parse(action) if isinstance(action, str) else action, log)


Change = Callable[[VirtualTable, "Game | None", list[dict[str, Any]]], "Game | None"]


def _run(table_id: str, version: object, change: Change, bump: bool = True) -> None:
    """Apply ``change(table, game, log)`` in one locked transaction (and deal what it deals), then,
    unless it was bookkeeping (``bump`` false), let the bots move a little (:func:`settle`,
    outside that transaction)."""
    with locked_table(table_id, version, bump) as table:
        game = load_state(table)
        log = log_of(table)
        record = _Recorder(table, game) if game is not None else None
        game = change(table, game, log)
        if game is not None:
            _advance(table, game, record or _Recorder(table, game), log, bots=False)
            _save(table, game, log)
    if bump:
        settle(table_id, after_move=True)


#: The tables whose bots a request of this process is moving now (:func:`settle`).
_thinking: set[str] = set()
_thinking_changed = threading.Condition()


@contextmanager
def _thinker(table_id: str, wait: float) -> Iterator[bool]:
    """Whether this request moves the table's bots: not while another request of this process
    does (its moves would be dropped at the version check, the work wasted: ten watchers polling
    a table of bots made it slower, not faster). A read answers at once with the table as it is;
    a move waits up to ``wait`` seconds for the other to store its moves, then goes on from there."""
    with _thinking_changed:
        _thinking_changed.wait_for(lambda: table_id not in _thinking, timeout=wait)
        mine = table_id not in _thinking
        if mine:
            _thinking.add(table_id)
    try:
        yield mine
    finally:
        if mine:
            with _thinking_changed:
                _thinking.discard(table_id)
                _thinking_changed.notify_all()


def settle(table_id: str, after_move: bool = False) -> None:
    """Let pending bots act for one time budget (the next request or poll does the rest).

    A move's answer shows the bots' moves after it (API.md): ``after_move`` waits for those that
    another request of this process is moving; a look answers at once with the table as it is.

    The bots think with no lock held, from a read of the table; their moves are then stored in one
    short locked write, and only if nobody acted meanwhile (the table's version): otherwise they
    are dropped, the other move stands and the next look works the bots' moves out again. So a
    table of bots being watched never holds its table, nor on SQLite the whole database, while
    its bots think. One request of a process moves a table's bots at a time (:func:`_thinker`), and
    one lets any bots think (:data:`BOT_SHARE`); a move waits for both within the same ``wait``.
    """
    wait = BOT_WAIT_SECONDS + BOT_BUDGET_SECONDS if after_move else 0.0
    if _pending(table_id) is None:
        return  # no bot to move: nothing to wait for, whatever the bots of other tables are doing
    db.session.rollback()  # no connection held while waiting for another request's bots
    deadline = time.monotonic() + wait
    with _thinker(table_id, wait) as mine:
        if mine:
            _settle(table_id, max(0.0, deadline - time.monotonic()))


def _pending(table_id: str) -> VirtualTable | None:
    """The table read afresh (outside any transaction) if a bot is to move there, else None."""
    db.session.rollback()
    table = db.session.get(VirtualTable, table_id)
    return table if table is not None and bots_pending(table) else None


def _settle(table_id: str, wait: float) -> None:
    with bot_share.turn(wait) as mine:
        if not mine or bot_share.left() <= 0:
            return  # another request of the process lets bots think, or their share is spent
        table = _pending(table_id)
        if table is None:
            return
        version, start, game, log = table.version, load_state(table), load_state(table), log_of(table)
        assert start is not None and game is not None  # bots_pending: a game under way
        last = log[-1]["seq"] if log else 0
        _advance(table, game, lambda _: None, log)
    if (log[-1]["seq"] if log else 0) == last:
        return  # no bot moved (the share spent): nothing to store
    try:
        with locked_table(table_id, version) as locked:
            _Recorder(locked, start)(game)
            _save(locked, game, log)
    except Conflict:
        pass  # a move came first (above)
    except OperationalError as error:
        # The database busy past its timeout, or a deadlock broken: the move before, stored already,
        # must not be answered as lost; the next look moves the bots. Any other fault stays one.
        if not contended(error):
            raise
        current_app.logger.warning("The bots' moves at table %s were not stored: %s", table_id, error.orig)


def reread(access: TableAccess) -> TableAccess:
    """The same access to the table as stored now (after a write)."""
    db.session.expire_all()
    table = db.session.get(VirtualTable, access.table.id)
    assert table is not None
    return TableAccess(table, access.seat, access.token)


def settle_if_needed(access: TableAccess) -> TableAccess:
    """Before answering a read: let bots nobody is driving move for one budget, and reload the table."""
    if bots_pending(access.table):
        settle(access.table.id)
        return reread(access)
    return access


# -- creating ------------------------------------------------------------------------------------
def _bot_level(value: object, where: str) -> str | None:
    if value is None:
        return None
    if value not in LEVELS:
        raise BadRequest(
            _(
                "{where}: the bot level must be one of {levels} or null, not {value!r}.",
                where=where,
                levels=", ".join(LEVELS),
                value=value,
            )
        )
    return str(value)


def bot_name(seat: int) -> str:
    """The name a bot gets when nobody names it: "Bot 2" for seat 1 (counted from 0), in the reader's language."""
    return _("Bot {n}", n=seat + 1)


def parse_seats(seats: object) -> tuple[list[str], list[str | None]]:
    """Names and bot levels from ``[{"name": "Ann"}, {"name": "Robo", "bot": "basic"}, …]``."""
    if not isinstance(seats, list) or not all(isinstance(s, Mapping) for s in seats):
        raise BadRequest(_('\'seats\' must be a list such as [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}].'))
    check_players(len(seats))  # before any work per seat: a body may hold a million of them (R4)

    def seat(i: int) -> str:
        return _("Seat {seat}", seat=i)

    bots = [_bot_level(s.get("bot"), seat(i)) for i, s in enumerate(seats)]
    names = [
        s.get("name") if s.get("name") is not None or bot is None else bot_name(i)
        for i, (s, bot) in enumerate(zip(seats, bots))
    ]
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise BadRequest(
                _(
                    'Seat {seat} needs a name, such as {{"name": "Ann"}}, or a bot level, such as {{"bot": "basic"}}.',
                    seat=i,
                )
            )
    return games.clean_names(names, seat), bots


def _draw(players: int, seed: int | None) -> tuple[int, list[list[str]]]:
    """Every seat draws a card; the highest deals first, ties draw again (R6, ``engine.draw``).

    Returns the first dealer and each seat's cards in draw order. The cards go back before the
    deal, so they are shown only in the lobby (the hidden-card rule is about the dealt cards).
    """
    rng = secrets.SystemRandom() if seed is None else random.Random(f"bluke:{seed}:draw")
    result = draw_for_deal(players, rng)
    drawn: list[list[str]] = [[] for _ in range(players)]
    for round_ in result.rounds:
        for seat, card in round_.items():
            drawn[seat].append(str(card))
    return result.dealer, drawn


@dataclass(frozen=True)
class Created:
    """A new table and the tokens shown once: the host's and each human seat's."""

    table: VirtualTable
    host_token: str
    seat_tokens: dict[int, str]
    again: bool = False  # an existing table asked for again (a rematch whose answer was lost)


def create_table(
    seats: object,
    variant: object = "standard",
    options: object = None,
    first_dealer: object = 0,
    start: object = True,
    seed: int | None = None,
    attach: games.Attach | None = None,
    settle_bots: bool = True,
    tokens: Sequence[str] | None = None,
) -> Created:
    """Open a table (a lobby, or dealt at once with ``start``) over a new game in virtual mode.

    The game row is created by :func:`scorekeeper.games.create_game`, which checks names,
    variant, options and first dealer; its scorer token is thrown away, so no scorer can write
    into a game that the table records. Each human seat gets its own random link
    (:func:`_issue`); bots get none. ``tokens``, a set-up form's (:func:`made_by_form`), are the
    host's and then each seat's, in place of fresh ones.
    """
    names, bots = parse_seats(seats)
    if not isinstance(start, bool):
        raise BadRequest(_("'start' must be true or false."))
    drawn: list[list[str]] = [[] for _ in names]
    if first_dealer == "draw":
        first_dealer, drawn = _draw(len(names), seed)
    robots = [seat for seat, bot in enumerate(bots) if bot]
    row, _scorer, _watch = games.create_game(names, variant, first_dealer, options, "virtual", attach, robots)
    game_id, table_id, host = row.id, new_id(), tokens[0] if tokens else new_token()
    infos: list[dict[str, Any]] = []
    links: dict[int, str] = {}
    for i, (name, bot) in enumerate(zip(names, bots)):
        info: dict[str, Any] = {"name": name, "bot": bot, "token_hash": None, "joined": False, "drew": drawn[i]}
        if bot is None:
            info, links[i] = _issue(info, host, table_id, i, tokens[1 + i] if tokens else None)
        infos.append(info)
    try:
        db.session.rollback()
        db.session.connection(execution_options=WRITE)
        row = db.session.execute(select(GameRow).where(GameRow.id == game_id).with_for_update()).scalar_one()
        table = VirtualTable(
            id=table_id,
            game_id=row.id,
            host_hash=token_hash(host),
            phase="lobby",
            state=None,
            seed=seed,
            version=1,
            seats=infos,
        )
        table.game = row
        db.session.add(table)
        if start:
            game = Game.start(games.rules_of(row), row.first_dealer, _deal_rng(table, 1))
            log: list[dict[str, Any]] = []
            _advance(table, game, _Recorder(table, game), log, bots=False)
            _save(table, game, log)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        db.session.execute(delete(GameRow).where(GameRow.id == game_id))
        db.session.commit()
        raise
    if settle_bots:
        settle(table_id)  # bots first to act move now, outside the creating transaction
    return Created(table, host, links)


def made_by_form(tokens: Sequence[str] | None) -> tuple[Created | None, Sequence[str] | None]:
    """The table a set-up form made already with ``tokens`` (:func:`~scorekeeper.tokens.tokens_of_form`:
    the host's, then each seat's, which the seats, variant, options and dealer sent key), sent again
    as its answer was lost, with the links it handed out; else ``None`` and the tokens for the table
    it makes now: fresh ones (``None``) once a person has bid or played at that table, or the host
    has given a person's seat another link (the host has had the table).
    """
    if tokens is None:
        return None, None
    table = db.session.execute(
        select(VirtualTable).where(VirtualTable.host_hash == token_hash(tokens[0]))
    ).scalar_one_or_none()
    if table is None:
        return None, tokens
    game = load_state(table)
    people = {seat: info.get("token_hash") or "" for seat, info in enumerate(table.seats) if not info.get("bot")}
    links = {seat: link for seat, link in enumerate(tokens[1:]) if seat in people}
    if (game is not None and game.number > 1) or any(m["seat"] in people for m in log_of(table)):
        return None, None  # a person has played at it
    if not all(matches(link, people[seat]) for seat, link in links.items()):
        return None, None
    return Created(table, tokens[0], links, again=True), tokens


# -- acting --------------------------------------------------------------------------------------
def _playing(game: Game | None) -> Game:
    if game is None:
        raise OrderError("The game has not started yet: the host starts it from the lobby (R25).", "R25")
    return game


def _human(table: VirtualTable, seat: int) -> None:
    info = table.seats[seat]
    if info.get("relinked_in"):
        raise OrderError(
            "This link was made during hand {hand}, so it shows none of its cards: a bot finishes that hand "
            "for your seat, and you play from hand {number} (R25).",
            "R25",
            hand=info["relinked_in"],
            number=info["person_from"],
        )
    if info.get("person_from"):
        raise OrderError(
            "A bot finishes this hand for your seat, whose cards it was dealt; you play from hand {number} (R25).",
            "R25",
            number=info["person_from"],
        )
    if info.get("bot"):
        raise OrderError("A bot is playing this seat now; ask the host to hand it back to you (R25).", "R25")
    if not info.get("joined"):
        _update_seat(table, seat, joined=True, sealed=None)


def _update_seat(table: VirtualTable, seat: int, **changes: Any) -> None:
    """Change one seat's stored fields (a new list, so SQLAlchemy sees the JSON change)."""
    table.seats = [dict(s, **changes) if i == seat else s for i, s in enumerate(table.seats)]


def start(table_id: str, version: object = None) -> None:
    """Deal hand 1 of a table in the lobby (host)."""

    def change(table: VirtualTable, game: Game | None, log: list[dict[str, Any]]) -> Game:
        if game is not None:
            raise Conflict(_("This table has already started."))
        return Game.start(rules_of(table), first_dealer(table), _deal_rng(table, 1))

    _run(table_id, version, change)


def bid(access: TableAccess, amount: object, version: object = None) -> None:
    """The reader's seat bids ``amount`` (R13); the engine refuses a bid out of turn or range."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise BadRequest(_("'bid' must be a whole number of tricks, not {amount!r}.", amount=amount))
    _act(access, amount, version)


def play(access: TableAccess, card: object, version: object = None) -> None:
    """The reader's seat plays ``card`` (a card code); the engine checks R14–R18."""
    if not isinstance(card, str):
        raise BadRequest(
            _("'card' must be a card code, a text such as the ones in your hand, not {card!r}.", card=card)
        )
    try:
        parsed = Card.parse(card.strip())
    except RulesError:
        # The engine's message lists example codes; a seat's answers name no card it cannot see.
        raise RulesError(
            "{card!r} is not a card: a code is a rank (2-9, T, J, Q, K, A) and a suit letter (S, H, D, C), or one of the two Bluke codes (R1).",
            "R1",
            card=card,
        ) from None
    _act(access, parsed, version)


def _act(access: TableAccess, action: int | Card, version: object) -> None:
    """A human seat's bid or card, applied by the engine, then the bots up to the next human.

    The link is checked again under the table's lock: one the host replaced (or a bot took) while
    the move was on its way acts no more (403, nothing stored).

    The same move sent again from the same screen (its answer was lost, or a browser without
    JavaScript sent the form twice) finds the table moved on by that very move: it is answered
    as the move it repeats, not as a tap that "played nothing for you" when it did."""
    table_id, seat = access.table.id, access.seat
    assert seat is not None  # the routes let seat links act only

    def change(table: VirtualTable, game: Game | None, log: list[dict[str, Any]]) -> Game:
        if not matches(access.token, table.seats[seat].get("token_hash") or ""):
            raise Forbidden(_(REPLACED))
        game = _playing(game)
        _human(table, seat)
        _apply(game, seat, action, log)
        return game

    try:
        _run(table_id, version, change)
    except Conflict:
        if not _last_move_was(table_id, seat, action):
            raise
        settle(table_id, after_move=True)


def _last_move_was(table_id: str, seat: int, action: int | Card) -> bool:
    """Whether the seat's person made ``action`` (a bid or a card played) as the seat's latest move
    (not a bot that plays the seat now: a tap from before the handover is no move of the seat's)."""
    table = db.session.get(VirtualTable, table_id)
    if table is None or table.seats[seat].get("bot"):
        return False
    mine = [move for move in log_of(table) if move["seat"] == seat]
    if not mine:
        return False
    key = "card" if isinstance(action, Card) else "bid"
    return mine[-1].get(key) == (str(action) if isinstance(action, Card) else action)


def _seat_number(access: TableAccess, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(access.table.seats):
        raise BadRequest(_("There is no seat {seat!r} at this table.", seat=seat))
    return seat


def set_bot(access: TableAccess, seat: object, level: object, version: object = None) -> None:
    """The host hands seat ``seat`` to a bot of ``level``, or back to its human (``None``).

    A seat handed back gets a fresh random link if it has none, which only the host can hand on.
    A seat's player who has opened their link goes on seeing the table while a bot plays for them,
    not the cards; a link nobody opened stops working when a bot takes the seat (:func:`_to_bot`).
    During a hand, the seat goes back at once only to the player who held it at its deal (``bot_from``:
    the hand a bot took it in), through their own opened link. Otherwise the link would show cards
    dealt to the bot, maybe to the host, who may hold a seat too: the bot finishes the hand and the
    person plays from the next deal (``person_from``, see :func:`bot_at`).
    """
    number = _seat_number(access, seat)
    bot = _bot_level(level, _("Seat {seat}", seat=number))

    def change(table: VirtualTable, game: Game | None, log: list[dict[str, Any]]) -> Game | None:
        held = table.seats[number]
        hand = _hand_in_play(game)
        if bot is None and held.get("person_from"):
            return game  # already handed on at the next deal
        info = _to_bot(held, bot)
        if bot is not None and not held.get("bot") and hand is not None:
            info["bot_from"] = hand  # its person held the seat at this hand's deal
        if bot is None and not info.get("token_hash"):
            info, _token = _issue(info, access.token, table.id, number)
            info["host_linked"] = True
        own = held.get("bot_from") == hand and held.get("joined") and held.get("token_hash")
        if bot is None and held.get("bot") and hand is not None and not own:
            # The bot holds cards dealt to it, not to the person who held this link then: the link
            # may be the host's (who may hold a seat too). The bot finishes the hand; the person
            # plays from the next deal.
            info.update(bot=held["bot"], person_from=hand + 1)
            _seat_person(table, number, check_only=True)  # a full roster refuses now, not at the deal
        table.seats = [info if i == number else s for i, s in enumerate(table.seats)]
        if held.get("bot") and info.get("bot") is None:
            _hand_over(table, number)
        return game

    _run(access.table.id, version, change)


def _hand_in_play(game: Game | None) -> int | None:
    """The number of the hand being bid or played, if one is."""
    return game.number if game is not None and game.phase in ("bidding", "playing") else None


def _to_bot(info: dict[str, Any], bot: str | None) -> dict[str, Any]:
    """The seat ``info`` handed to ``bot`` (``None``: back to its person). A link nobody has opened
    stops working when a bot takes the seat: its holder (the host, until it is handed on) is told
    to ask the host, who hands the seat back. An opened link goes on showing its player the table,
    without the cards, which are the bot's while it plays (``views.seat_view``)."""
    gone = ("person_from", "relinked_in", "bot_from") if bot is None else ("person_from", "relinked_in")
    info = {key: value for key, value in info.items() if key not in gone} | {"bot": bot}
    if bot is not None and info.get("token_hash") and not info.get("joined"):
        info["revoked"] = [*(info.get("revoked") or ()), info["token_hash"]][-REVOKED_KEPT:]
        info.update(token_hash=None, sealed=None)
    return info


def reissue(access: TableAccess, seat: object) -> str:
    """The host gives a human seat a new link (a player lost theirs); the old one stops working.

    The seat's screen says that this happened (``relinked`` in the view), so a player whose link
    was handed to someone else finds out. A link made during a hand for a seat whose player has
    opened theirs shows none of that hand's cards: it goes through the host, who may hold a seat
    too. A :data:`RELINK_BOT` bot finishes the hand (``relinked_in``) and the new link plays from
    the next deal, as when a bot's seat goes back to a person (:func:`set_bot`). Returns the new
    token (the host page shows its link).
    """
    number = _seat_number(access, seat)
    tokens: list[str] = []

    def change(table: VirtualTable, game: Game | None, log: list[dict[str, Any]]) -> Game | None:
        info = table.seats[number]
        if info.get("bot") and not info.get("person_from"):
            raise BadRequest(_("Seat {value} is played by a bot; hand it to a person first.", value=number))
        fresh, token = _issue(info, access.token, table.id, number)
        fresh["relinked"] = int(info.get("relinked") or 0) + 1
        fresh["host_linked"] = True
        hand = _hand_in_play(game)
        if hand is not None and info.get("joined") and not info.get("bot"):
            fresh.update(bot=RELINK_BOT, person_from=hand + 1, relinked_in=hand)
        table.seats = [fresh if i == number else s for i, s in enumerate(table.seats)]
        tokens.append(token)
        return game

    _run(access.table.id, None, change)
    return tokens[0]


def set_confirm(access: TableAccess, confirm: bool) -> None:
    """A seat's own setting: tap a card to pick it, tap again to play it (against mis-taps)."""
    assert access.seat is not None
    seat = access.seat

    def change(table: VirtualTable, game: Game | None, log: list[dict[str, Any]]) -> Game | None:
        _update_seat(table, seat, confirm=confirm)
        return None

    _run(access.table.id, None, change, bump=False)


def fill_with_bots(access: TableAccess, level: object) -> None:
    """The host gives every human seat nobody has joined to a bot of ``level``."""
    bot = _bot_level(level, _("Empty seats"))
    if bot is None:
        raise BadRequest(_("Choose a bot level for the empty seats."))

    def change(table: VirtualTable, game: Game | None, log: list[dict[str, Any]]) -> Game | None:
        table.seats = [_to_bot(s, bot) if not s.get("bot") and not s.get("joined") else s for s in table.seats]
        return game

    _run(access.table.id, None, change)


def mark_joined(access: TableAccess) -> None:
    """Remember that a seat's player has opened their link: the host page stops showing it."""
    if access.seat is None or access.table.seats[access.seat].get("joined"):
        return
    seat = access.seat

    def change(table: VirtualTable, game: Game | None, log: list[dict[str, Any]]) -> Game | None:
        if matches(access.token, table.seats[seat].get("token_hash") or ""):  # not replaced meanwhile (host)
            _update_seat(table, seat, joined=True, sealed=None)
        return None  # nothing to save in the engine state, and no bot moves without a version bump

    _run(access.table.id, None, change, bump=False)


def rematch(access: TableAccess, seed: int | None = None) -> Created:
    """A new table with the same seats, rules and bots once the game is over (host); ``seed`` as
    for :func:`create_table`.

    The deal moves one seat to the left (R5). The old table remembers the new one, so each
    player moves over from their finished screen with their old link (:func:`follow_rematch`),
    and keeps the new host link sealed for this host: asked again (the answer was lost on the
    way, or a second tap), it answers the same rematch with the same links.
    """
    table = access.table
    game = load_state(table)
    if game is None or game.phase != "finished":
        raise Conflict(_("A rematch can start once this game is over."))
    pad = _pad(access.token, table.id, -1, 0)  # seat -1: the rematch's host link
    if (table.state or {}).get("rematch"):
        return _rematch_again(table, pad)
    rules = rules_of(table)
    # A group's rematch is the group's game too, its players by the roster's names now (renamed
    # since, merged). (Imported here: the groups package imports the virtual API to create its
    # tables, so a module-level import would be circular.)
    from ..groups.service import seat_names
    from ..groups.service import seat_players

    group = table.game.group_id
    names = seat_names(table.game) if group else [s["name"] for s in table.seats]
    seats = _bots_named_apart([{"name": name, "bot": s.get("bot")} for s, name in zip(table.seats, names, strict=True)])
    humans = sum(1 for s in seats if not s["bot"])
    created = create_table(
        seats,
        rules.variant.value,
        rules.options,
        (first_dealer(table) + 1) % rules.players,
        start=humans <= 1,
        seed=seed,
        attach=seat_players(group) if group else None,
        settle_bots=False,
    )
    with locked_table(table.id, bump=False) as locked:
        first = not (locked.state or {}).get("rematch")
        if first:
            sealed = _seal(created.host_token, pad)
            locked.state = dict(locked.state or {}, rematch=created.table.id, rematch_host=sealed)
    if not first:  # a second tap or a resend made one at the same time and recorded it first: that one stands
        db.session.rollback()
        db.session.connection(execution_options=WRITE)
        db.session.execute(delete(GameRow).where(GameRow.id == created.table.game_id))  # its table with it
        db.session.commit()
        return _rematch_again(locked, pad)
    settle(created.table.id)
    return created


def _bots_named_apart(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seats with each bot named apart from every other seat: a group's player renamed since to
    a bot's name ("Bot 3") made two players of one name, and the rematch was refused for good (R4).
    Such a bot takes the first free number after its name ("Bot 3 2")."""
    taken = {games.name_key(s["name"]) for s in seats if not s["bot"]}
    for seat in seats:
        if seat["bot"]:
            name, n = seat["name"], 2
            while games.name_key(name) in taken:
                name, n = f"{seat['name'][:36]} {n}", n + 1
            seat["name"] = name
            taken.add(games.name_key(name))
    return seats


def _rematch_again(table: VirtualTable, pad: bytes) -> Created:
    """The rematch already set up at ``table``, with the same links (:func:`rematch` asked again)."""
    state = table.state or {}
    if not state.get("rematch_host"):
        raise Conflict(_("The rematch has already been set up: open it from the table."))
    host = _unseal(state["rematch_host"], pad)
    opened = open_table(state["rematch"], host)
    return Created(opened.table, host, seat_tokens(opened), again=True)


def follow_rematch(access: TableAccess) -> TableAccess:
    """A seat of a finished table takes the same seat at the rematch, with a link of its own,
    unless the rematch's host has given that seat a link since, or its link was opened (it may be
    someone else's now).

    The first follow issues the link and keeps a copy sealed with the old link, so that the seat's
    other phones (the same old link) and a resend get that same link instead of revoking it."""
    table_id = (access.table.state or {}).get("rematch")
    if access.seat is None or not table_id:
        raise NotFound(_("There is no rematch at this table yet: the host starts one when the game is over."))
    seat = access.seat
    tokens: list[str] = []

    def change(table: VirtualTable, game: Game | None, log: list[dict[str, Any]]) -> Game | None:
        info = table.seats[seat]
        if info.get("host_linked"):  # said of the rematch's seat: the link asking still opens its own table
            raise Forbidden(_("The rematch's host has given this seat a newer link: ask the host for it."))
        if info.get("followed"):
            token = _unseal(info["followed"], _pad(access.token, table.id, seat, int(info.get("issued") or 0)))
            if matches(token, info.get("token_hash") or ""):  # still the seat's link: followed already
                tokens.append(token)
                return None
        elif info.get("joined"):  # opened with the link the rematch's host was given: perhaps someone else's
            raise Forbidden(
                _("This seat at the rematch has been opened with the link its host gave out: ask the host.")
            )
        fresh, token = _issue(info, None, table.id, seat)
        fresh["followed"] = _seal(token, _pad(access.token, table.id, seat, fresh["issued"]))
        table.seats = [fresh if i == seat else s for i, s in enumerate(table.seats)]
        tokens.append(token)
        return None

    _run(table_id, None, change, bump=False)
    return open_table(table_id, tokens[0])


def stamp(table: VirtualTable) -> str:
    """What the pages poll: the version, plus who has joined or got a new link (no version bump)."""
    seats = ".".join(f"{int(bool(s.get('joined')))}{s.get('relinked') or 0}" for s in table.seats)
    return f"{table.version}.{seats}.{int(bool((table.state or {}).get('rematch')))}"
