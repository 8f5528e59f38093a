"""Stored games, shared by every feature: load, open by token, create, import, and one write transaction.

A game is a row of set-up plus one row per entered hand; the engine turns those records into
the scorecard (:func:`scorecard_of`), so nothing here computes a score. Every write runs in one
transaction that first locks the game (``BEGIN IMMEDIATE`` on SQLite, ``SELECT … FOR UPDATE`` on
PostgreSQL), checks the request, and then either stores the whole change and bumps the version
(after checking the optional ``version``: stale → 409), or raises and stores nothing (see
:func:`writing`). Table scoring (``table/service.py``) and virtual tables (``virtual/service.py``)
write through it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any
from typing import TypeGuard

from pyuca import Collator
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from .engine import build_scorecard
from .engine import check_players
from .engine import check_records
from .engine import HandRecord
from .engine import Rules
from .engine import RulesError
from .engine import Scorecard
from .engine import Suit
from .engine.rules import OPTION_NAMES
from .errors import BadRequest
from .errors import Conflict
from .errors import Forbidden
from .errors import NO_GAME
from .errors import NotFound
from .errors import WATCH_ONLY
from .extensions import db
from .extensions import WRITE
from .i18n import _
from .i18n import shown
from .models import Correction
from .models import Game
from .models import HandEntry
from .models import NO_TRUMP
from .models import VirtualTable
from .tokens import matches
from .tokens import new_id
from .tokens import new_token
from .tokens import token_hash

MAX_NAME = 40
#: The most marks (accents, vowel signs) one letter of a name may carry: enough for every script's
#: names (a Tibetan stack has three), while dozens stacked rose over the printed scorecard's header.
MAX_MARKS = 4
#: The most corrections one game keeps (edits and undos; an import's too): a real game has a few
#: dozen, and a history without end would make every page of the game slower.
MAX_CORRECTIONS = 500

#: Called inside a new game's write transaction, before the commit, with the game and the seats
#: that bots play (a group seats its players: bots are not on a roster).
Attach = Callable[["Game", Collection[int]], None]


# -- reading -------------------------------------------------------------------------------------
def rules_of(game: Game) -> Rules:
    """The engine's rules for a stored game."""
    return Rules.build(len(game.players), game.variant, game.options)


def records_of(game: Game) -> list[HandRecord]:
    """The stored hands as engine records, in order, with blanks where nothing was entered."""
    return records_from(game.hands)


def records_from(hands: Iterable[Any]) -> list[HandRecord]:
    """:func:`records_of` for hand rows read without the ORM (``number``, ``bids``, ``tricks``, ``trump``)."""
    by_number = {h.number: h for h in hands}
    last = max(by_number, default=0)
    return [
        HandRecord(
            tuple(h.bids) if h and h.bids is not None else None,
            tuple(h.tricks) if h and h.tricks is not None else None,
            Suit.parse(h.trump) if h and h.trump != NO_TRUMP else None,
            no_trump=h is not None and h.trump == NO_TRUMP,
        )
        for h in (by_number.get(n) for n in range(1, last + 1))
    ]


def stored_trump(trump: Suit | None, no_trump: bool) -> str | None:
    """A hand's trump as stored: the suit's letter, :data:`NO_TRUMP` (noted as none, R12), or ``None`` (not noted)."""
    return trump.value if trump else NO_TRUMP if no_trump else None


def scorecard_of(game: Game) -> Scorecard:
    """The engine's scorecard for a stored game (totals, S/O/P, winners)."""
    return build_scorecard(rules_of(game), game.first_dealer, records_of(game))


def summary_of(card: Scorecard, version: int) -> dict[str, Any]:
    """What a group's statistics need from one game, taken from the engine's scorecard as it is.

    Stored with the game (``games.summary``) by every write that changes its records
    (:func:`summarise`), so a group page reads one small document per game instead of scoring
    every game again. ``version`` is the game version it describes. Per seat, never per name:
    merging two roster players only moves seats. Per seat: the S/O/P line (R26) with overtricks,
    bid and taken; ``by_cards`` as ``{cards: [set, over, perfect]}`` over its complete hands; and
    ``misses`` as ``{taken - bid: hands}``.
    """
    seats: list[dict[str, Any]] = []
    for stats in card.stats:
        by_cards: dict[str, list[int]] = {}
        misses: dict[str, int] = {}
        for line in card.complete_hands:
            assert line.outcomes is not None and line.bids is not None and line.tricks is not None
            counts = by_cards.setdefault(str(line.cards), [0, 0, 0])
            counts["SOP".index(line.outcomes[stats.seat])] += 1
            miss = str(line.tricks[stats.seat] - line.bids[stats.seat])
            misses[miss] = misses.get(miss, 0) + 1
        seats.append(
            {
                "set": stats.set,
                "over": stats.over,
                "perfect": stats.perfect,
                "overtricks": stats.overtricks,
                "bid": stats.bid,
                "taken": stats.taken,
                "by_cards": by_cards,
                "misses": misses,
            }
        )
    current = card.current
    return {
        "version": version,
        "status": card.status,
        "hands": len(card.hands),
        "current": current.number if current else None,
        "totals": list(card.totals),
        "winners": list(card.winners),
        "seats": seats,
    }


def summarise(game: Game) -> None:
    """Store the game's summary (:func:`summary_of`) for its records and version as they now are.

    Called in the transaction of every write that changes a game's records, after its version
    is set: :func:`writing`, a new or imported game (:func:`_store`), a virtual table's hand.
    """
    game.summary = summary_of(scorecard_of(game), game.version)


def kept_summary(game: Game) -> dict[str, Any] | None:
    """The summary stored with the game, if it is of the game's records as they now are."""
    summary = game.summary
    return summary if summary and summary.get("version") == game.version else None


def fill_summaries(batch: int = 100) -> int:
    """Store the summary of every game stored without one, or with one of an older version (a
    schema made by ``flask db upgrade --sql``, whose script cannot run the engine); how many."""
    filled, after = 0, ""
    while ids := list(db.session.scalars(select(Game.id).where(Game.id > after).order_by(Game.id).limit(batch))):
        for game in db.session.scalars(select(Game).where(Game.id.in_(ids)).options(selectinload(Game.hands))):
            if kept_summary(game) is None:
                summarise(game)
                filled += 1
        db.session.commit()
        after = ids[-1]
    return filled


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


def load_game(game_id: str, hands: bool = True) -> Game | None:
    """A game, with its hands unless ``hands`` is false (the home page, which lists many games and
    scores only the newest, then loads theirs). The hands come by a second query: joined, every
    hand's row would carry the game's JSON columns again, each decoded once more."""
    query = select(Game).where(Game.id == game_id)
    return db.session.scalars(query.options(selectinload(Game.hands)) if hands else query).one_or_none()


def open_game(game_id: str, token: str | None, hands: bool = True) -> Access:
    """Find a game by id and token; a wrong token looks exactly like a missing game (404), and takes
    as long: the game's row and its virtual table, if any, are looked up either way, and the hands
    are loaded only once the token matched (API.md: existence is not revealed)."""
    game = load_game(game_id, hands=False) if game_id and "\x00" not in game_id else None  # no id holds NUL (?again=)
    role = _role(game, game_id, token) if token else None
    if game is None or role is None:
        raise NotFound(_(NO_GAME))
    if hands:
        game.hands  # noqa: B018 (loaded now, in the request's one session, as selectinload would)
    return Access(game, role)


def _role(game: Game | None, game_id: str, token: str) -> str | None:
    """What ``token`` may do with the game: its scorer's, its watchers', or a virtual table's host or seat."""
    if game is not None:
        if matches(token, game.scorer_hash):
            return "scorer"
        if matches(token, game.watch_hash):
            return "watch"
    table = db.session.execute(select(VirtualTable).filter_by(game_id=game_id)).scalar_one_or_none()
    if game is None or table is None:
        return None
    if matches(token, table.host_hash):
        return "host"
    return "watch" if any(matches(token, s.get("token_hash") or "") for s in table.seats) else None


def bot_seats(game: Game) -> dict[int, str]:
    """The seats of a virtual game that a bot plays (seat → level); for a table-mode game, those an
    imported file said a bot played (:func:`kept_bots`), else none.

    The scorecard, the PDF and the standings mark them, and say the game was played virtually.
    """
    if game.mode != "virtual":
        return kept_bots(game)
    seats = db.session.execute(select(VirtualTable.seats).filter_by(game_id=game.id)).scalar_one_or_none() or []
    return {i: str(s["bot"]) for i, s in enumerate(seats) if s.get("bot")}


def kept_bots(game: Game) -> dict[int, str]:
    """The seats a bot played as an imported game's file said (seat → level); empty for any other."""
    return {int(seat): str(level) for seat, level in (game.bots or {}).items()}


def version_of(game_id: str, token: str | None) -> int:
    """A game's version for a poll, checking the token like :func:`open_game` (404 otherwise).

    Watchers poll every second and the answer is nearly always "no change": this reads four
    columns of one row instead of the game and all its hands (and their ORM objects).
    """
    query = select(Game.scorer_hash, Game.watch_hash, Game.version).where(Game.id == game_id)
    row = db.session.execute(query).one_or_none() if game_id else None
    if row is not None and (matches(token, row.scorer_hash) or matches(token, row.watch_hash)):
        return int(row.version)
    return open_game(game_id, token).game.version  # a virtual table's host or seat token, or a 404


# -- writing -------------------------------------------------------------------------------------
def well_formed_version(version: object) -> TypeGuard[int | None]:
    """Whether a write's optional ``version`` is a whole number, or ``None`` (no check)."""
    return version is None or (isinstance(version, int) and not isinstance(version, bool) and version >= 0)


def whole_version(version: object) -> int | None:
    """The optional ``version`` of a write: a whole number, or ``None`` to skip the check (400)."""
    if not well_formed_version(version):
        raise BadRequest(
            _("'version' must be the whole number from the game document, not {version}.", version=shown(version))
        )
    return version


class Write:
    """One open write transaction on one locked game (see :func:`writing`)."""

    def __init__(self, game: Game, version: int | None) -> None:
        self.game, self.version, self.changed = game, version, False

    def check_version(self) -> None:
        """Refuse a stale ``version`` (409)."""
        if self.version is not None and self.version != self.game.version:
            raise Conflict(
                _(
                    "Someone else changed this game first (you had version {version}, it is now {version2}). Check the scorecard and enter it again if still needed.",
                    version=self.version,
                    version2=self.game.version,
                )
            )

    def change(self) -> Game:
        """Declare that this write changes the game; refuses a stale ``version`` first (409)."""
        self.check_version()
        self.changed = True
        return self.game


def check_scorer(game: Game, token: str | None) -> None:
    """Only the scorer's token writes: another of the game's tokens is a 403, anything else a 404."""
    if matches(token, game.scorer_hash):
        return
    open_game(game.id, token)  # 404 for a token that does not open this game
    raise Forbidden(_(WATCH_ONLY))


@contextmanager
def writing(game_id: str, version: object = None, token: str | None = None) -> Iterator[Write]:
    """One write transaction on a locked game: the whole change and a new version, or nothing.

    The game row is locked first (``BEGIN IMMEDIATE`` on SQLite, ``SELECT … FOR UPDATE`` on
    PostgreSQL), so two phones writing at once queue. The body checks the request (a rule broken
    is said first), calls :meth:`Write.change` once it knows the request changes something, then
    changes rows. A body that never calls it (a request re-sending what is stored) commits nothing:
    no new version, no correction; with a stale ``version`` it is still refused (409, API.md), so
    the client learns that the game changed since it read it.

    ``token``, when given, must be the scorer's; it is checked on the locked row, so a write
    needs no read of the game before its transaction (one database round trip fewer). The
    pages give none: they open the game with the browser's cookie first, to render their forms.
    """
    expected = whole_version(version)
    _begin_write()
    try:
        # Lock the row first, then read the hands in a second statement: on PostgreSQL (READ
        # COMMITTED) a statement that waited for the lock sees the new game row but joins it to
        # hands from before the other write; the next statement sees that write whole.
        # populate_existing: the game and its hands may be in the session from the token check.
        query = (
            select(Game)
            .options(selectinload(Game.hands))
            .where(Game.id == game_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        game = db.session.execute(query).scalar_one_or_none()
        if game is None:
            raise NotFound(_(NO_GAME))
        if token is not None:
            check_scorer(game, token)
        write = Write(game, expected)
        yield write
        if write.changed:
            game.version += 1
            summarise(game)
            _commit()
        else:
            write.check_version()  # what it asks is stored, but the client read an older game
            db.session.rollback()
    except BaseException:
        db.session.rollback()
        raise


def _begin_write() -> None:
    """Make the next statement start a write transaction.

    On SQLite the read transaction of the token check is ended, so that the new one begins with
    ``BEGIN IMMEDIATE`` and takes the write lock at once. PostgreSQL goes on in the same
    transaction: the row lock of ``SELECT … FOR UPDATE`` is enough, and saves a round trip.
    """
    if db.session.get_bind().dialect.name == "sqlite":
        db.session.rollback()
        db.session.connection(execution_options=WRITE)


def _commit() -> None:
    """Commit without expiring the objects: as written they are the rows as stored (we held
    the lock), so the answer is built without reading them back."""
    session = db.session()
    keep, session.expire_on_commit = session.expire_on_commit, False
    try:
        session.commit()
    finally:
        session.expire_on_commit = keep


@contextmanager
def locked(game_id: str, version: object = None) -> Iterator[Game]:
    """:func:`writing` for a write that always changes the game (stale ``version`` → 409 at once)."""
    with writing(game_id, version) as write:
        yield write.change()


#: Seeds are stored in a 32-bit integer column (PostgreSQL ``integer``).
MAX_SEED = 2**31 - 1


def check_seed(data: Mapping[str, Any], allowed: bool) -> int | None:
    """A request body's ``seed``: refused (400) unless the app allows seeding (API.md).

    Cards are dealt with ``secrets.SystemRandom``; a seed exists for tests and simulations only.
    """
    if "seed" not in data:
        return None
    if not allowed:
        raise BadRequest(
            _(
                "This server deals at random and does not accept a 'seed' "
                "(only when started with SCOREKEEPER_ALLOW_SEED=1); leave it out."
            )
        )
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise BadRequest(
            _("'seed' must be a whole number from 0 to {most}, not {seed}.", most=MAX_SEED, seed=shown(seed))
        )
    return seed


def create_game(
    players: object,
    variant: object = "standard",
    first_dealer: object = 0,
    options: object = None,
    mode: str = "table",
    attach: Attach | None = None,
    bots: Collection[int] = (),
    tokens: tuple[str, ...] | None = None,
) -> tuple[Game, str, str]:
    """Store a new game; returns it with its scorer and watch tokens (shown once, stored hashed):
    ``tokens`` (a new-game form's, :func:`made_by_form`), else fresh ones.

    ``attach`` runs in the same transaction as the insert (a group's roster), so both or neither
    are stored; it is told ``bots``, the seats a virtual table gives to bots.
    """
    names = clean_names(players)
    if options is not None and not isinstance(options, Mapping):
        raise BadRequest(_("'options' must be an object such as {\"zero_bids\": true}."))
    for name, value in (options or {}).items():
        if name in OPTION_NAMES and not isinstance(value, bool):  # an unknown name is said first (Rules.build)
            raise BadRequest(_("Option {name!r} must be true or false, not {value}.", name=name, value=shown(value)))
    rules = Rules.build(len(names), variant, options)
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int):
        raise BadRequest(
            _(
                "'first_dealer' must be a seat number from 0 to {last}, not {first_dealer}.",
                last=len(names) - 1,
                first_dealer=shown(first_dealer),
            )
        )
    if not 0 <= first_dealer < len(names):
        raise RulesError(
            "The first dealer must be a seat from 0 to {last}, not {first_dealer!r} (R6).",
            "R6",
            last=len(names) - 1,
            first_dealer=first_dealer,
        )
    game, scorer, watch = _new_game(names, rules, first_dealer, mode, tokens)
    _store(game, attach, bots)
    return game, scorer, watch


def made_by_form(tokens: tuple[str, ...] | None) -> tuple[Game | None, tuple[str, ...] | None]:
    """The game a new-game form made already with ``tokens`` (:func:`~scorekeeper.tokens.tokens_of_form`,
    which the players, variant, options and dealer sent key), sent again as its answer was lost, else
    ``None`` and the tokens for the game it makes now: fresh ones (``None``) once that game has begun.
    """
    if tokens is None:
        return None, None
    game = db.session.execute(select(Game).where(Game.scorer_hash == token_hash(tokens[0]))).scalar_one_or_none()
    if game is None:
        return None, tokens
    return (game, tokens) if game.version == 1 else (None, None)


def _new_game(
    names: list[str], rules: Rules, first_dealer: int, mode: str, tokens: tuple[str, ...] | None = None
) -> tuple[Game, str, str]:
    """A game row with fresh scorer and watch tokens (returned once, stored only as hashes)."""
    scorer, watch = tokens or (new_token(), new_token())
    game = Game(
        id=new_id(),
        variant=rules.variant.value,
        options=rules.options,
        players=names,
        first_dealer=first_dealer,
        scorer_hash=token_hash(scorer),
        watch_hash=token_hash(watch),
        mode=mode,
        version=1,
        hands=[],
    )
    return game, scorer, watch


def _store(game: Game, attach: Attach | None = None, bots: Collection[int] = ()) -> None:
    """Insert a new game with its summary and everything attached to it, in one write transaction."""
    summarise(game)
    with transaction():
        db.session.add(game)
        if attach is not None:
            attach(game, bots)


@contextmanager
def transaction() -> Iterator[None]:
    """One write transaction (``BEGIN IMMEDIATE`` on SQLite): everything in it is committed, or nothing."""
    _begin_write()
    try:
        yield
        _commit()
    except BaseException:
        db.session.rollback()
        raise


def clean_names(players: object, who: Callable[[int], str] | None = None) -> list[str]:
    """2–15 distinct, non-empty, printable names of at most 40 characters, trimmed (R4).

    A name's error calls it ``who(seat)`` (seats from 0): "Player 1" for seat 0 unless told otherwise.
    """
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise BadRequest(_('\'players\' must be a list of names, such as ["Ann", "Ben", "Cy"].'))
    check_players(len(players))
    label = who or (lambda seat: _("Player {seat}", seat=seat + 1))
    return distinct([clean_name(name, label(seat)) for seat, name in enumerate(players)])


def distinct(names: list[str]) -> list[str]:
    """``names`` when no two are the same player (:func:`name_key`), else a 400 naming the second one."""
    seen: set[str] = set()
    for name in names:
        if name_key(name) in seen:
            raise BadRequest(_("Two players are called {name!r}; give each a different name.", name=name))
        seen.add(name_key(name))
    return names


#: The zero-width joiners that belong inside names: family and flag emoji (U+200D), Persian and
#: Indic spellings (U+200C). Every other invisible or control character is refused.
JOINERS = str.maketrans("", "", "\u200c\u200d")
#: Characters that join or fill but show nothing: meaningless at either end of a name, where they
#: would make "Ann" and "Ann" followed by a joiner two players (the joiners and the combining
#: grapheme joiner); the Hangul fillers are blank letters, taken as spaces.
INVISIBLE_ENDS = "\u200c\u200d\u034f"
FILLERS = str.maketrans(dict.fromkeys("\u115f\u1160\u3164\uffa0", " "))


def trimmed(raw: str) -> str:
    """A name without spaces or invisible characters at its ends, its inner spaces made single, in
    one Unicode form (NFC: "José" typed with a combining accent is "José").

    >>> trimmed("  Ann\u200d  B. \u3164"), trimmed("\u200c Ann")
    ('Ann\u200d B.', 'Ann')
    """
    name = unicodedata.normalize("NFC", raw.translate(FILLERS))
    # One pass, in time linear in the name: taking the spaces and the invisible characters off
    # by turns until neither was left took a pass per layer ("A" and 30,000 " \u200d" pairs: 20 s
    # of CPU for one refused request).
    return " ".join(name.split()).strip(" " + INVISIBLE_ENDS)


def clean_name(raw: str, who: str) -> str:
    """One player's name, :func:`trimmed`: non-empty, printable, at most 40 characters."""
    name = trimmed(raw)
    if not name.translate(JOINERS):
        raise BadRequest(_("{who} has no name.", who=who))
    if len(name) > MAX_NAME:
        raise BadRequest(_("{who}'s name is longer than {most} characters.", who=who, most=MAX_NAME))
    if not name.translate(JOINERS).isprintable():
        raise BadRequest(_("{who}'s name contains a character that cannot be printed.", who=who))
    if _stacked(name) > MAX_MARKS:
        raise BadRequest(_("{who}'s name stacks more than {most} marks on one letter.", who=who, most=MAX_MARKS))
    return name


def _stacked(name: str) -> int:
    """The most marks drawn over, under or around one letter (nonspacing and enclosing marks in a row).

    >>> _stacked("Nguye\u0302\u0303n"), _stacked("སྒྲུབ")
    (2, 3)
    """
    most = run = 0
    for char in name:
        run = run + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


def name_key(name: str) -> str:
    """What makes two names the same player: :func:`trimmed` and compared case-insensitively
    (API.md, "Groups").

    >>> name_key("  ann  B. ") == name_key("Ann b."), name_key("Jose\u0301") == name_key("JOSÉ\u200d")
    (True, True)
    """
    return trimmed(name).casefold()


def refused_rows(names: Iterable[str]) -> set[int]:
    """The rows of a set-up form's names that a refused set-up is about, marked for screen readers:
    a name :func:`clean_name` refuses, and each row of a name two rows share (R4); blank rows none."""
    first: dict[str, int] = {}
    refused: set[int] = set()
    for row, name in enumerate(names):
        if not trimmed(name):
            continue
        try:
            key = name_key(clean_name(name, ""))
        except BadRequest:
            refused.add(row)
            continue
        if key in first:
            refused |= {first[key], row}
        first.setdefault(key, row)
    return refused


@cache
def _collator() -> Collator:
    return Collator()  # the Unicode Collation Algorithm's default order, read once (0.1 s)


def alphabetical(name: str) -> tuple[int, ...]:
    """Where a name comes in alphabetical order, case-insensitive, in every script: É after E and
    before F, Ё with Е, Belarusian І after И (the Unicode Collation Algorithm; code points would
    put each of them after Z or Я).

    >>> sorted(["Яна", "Іван", "Ёжик", "Жэня", "Émile", "Zoe", "dan"], key=alphabetical)
    ['dan', 'Émile', 'Zoe', 'Ёжик', 'Жэня', 'Іван', 'Яна']
    """
    return tuple(_collator().sort_key(name.casefold()))


def history(game: Game, corrections: Iterable[Any] | None = None) -> list[dict[str, Any]]:
    """Every correction of recorded entries (edits and undos), oldest first: hand, field, old → new.

    ``corrections``: the game's, already read (rows with those columns), in place of loading them.
    """
    return [
        {"id": c.id, "at": c.at.isoformat() + "Z", "hand": c.hand, "field": c.field, "old": c.old, "new": c.new}
        for c in (game.corrections if corrections is None else corrections)
    ]


def import_game(
    players: list[str],
    variant: str,
    first_dealer: int,
    options: Mapping[str, bool],
    records: Sequence[HandRecord],
    created_at: Any = None,
    corrections: Sequence[Mapping[str, Any]] = (),
    attach: Attach | None = None,
    bots: Mapping[int, str] | None = None,
) -> tuple[Game, str, str]:
    """Store an imported game and all its hands in one transaction, with new tokens (issue 4).

    ``created_at`` (a naive UTC datetime) keeps the day the game was played; ``bots``, the seats a
    bot played (seat → level), are kept with the game and told to ``attach`` (as :func:`create_game`
    tells it). The records are checked whole first (R6, R12, R22–R25): a game that breaks any rule
    stores nothing.
    ``exchange.read_export`` parses the file and checks its figures before calling this.
    """
    names = clean_names(players)
    rules = Rules.build(len(names), variant, options)
    check_records(rules, first_dealer, records, names)
    game, scorer, watch = _new_game(names, rules, first_dealer, "table")
    if created_at is not None:
        game.created_at = created_at
    game.bots = {str(seat): level for seat, level in sorted(bots.items())} if bots else None
    game.hands = [
        HandEntry(
            number=number,
            bids=list(r.bids),
            tricks=list(r.tricks) if r.tricks is not None else None,
            trump=stored_trump(r.trump, r.no_trump),
        )
        for number, r in enumerate(records, start=1)
        if r.bids is not None
    ]
    game.corrections = [
        Correction(at=c["at"], hand=c["hand"], field=c["field"], old=c["old"], new=c["new"]) for c in corrections
    ]
    _store(game, attach, bots or ())
    return game, scorer, watch
