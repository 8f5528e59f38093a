"""A group's statistics across games, from the engine's scorecard of each stored game.

Nothing here scores a hand. Every write that changes a game's records stores, in the same
transaction, the engine's scorecard of it in brief (``games.summary_of``: per seat, the S/O/P line,
outcomes by cards dealt, tricks taken minus bid; the totals and winners), so this module
only adds up those summaries, per roster player. A whole group is read in a fixed number of
queries (the games with their summaries, their seats, the bot seats of virtual ones), however
many games it has: see :func:`load`.
"""

from __future__ import annotations

import csv
import io
import threading
from collections import Counter
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from functools import cached_property
from typing import Any

from flask import current_app
from flask import jsonify
from sqlalchemy import Engine
from sqlalchemy import func
from sqlalchemy import select
from sqlalchemy.orm import scoped_session
from sqlalchemy.orm import Session

from ..engine import build_scorecard
from ..engine import PlayerStats
from ..exchange import spreadsheet_text
from ..extensions import db
from ..games import alphabetical
from ..games import kept_bots
from ..games import kept_summary
from ..games import records_from
from ..games import rules_of
from ..games import summary_of
from ..models import Game
from ..models import Group
from ..models import GroupPlayer
from ..models import GroupSeat
from ..models import HandEntry
from ..models import VirtualTable

#: Bid accuracy is shown for misses of up to this many tricks either way; larger ones are grouped.
MARGIN = 3


@dataclass
class Played:
    """One game of the group and its summary (``games.summary_of``).

    ``seats`` holds the roster player of each seat, ``""`` for a seat that counts for nobody
    (a bot's that no person ever opened: a person's seat handed to a bot for a while still counts
    for that person); ``bots`` the bot level of each seat a bot plays now (a virtual table's, as
    its scorecard marks them).
    """

    game: Game
    summary: dict[str, Any]
    seats: list[str]
    bots: dict[int, str]

    @property
    def status(self) -> str:
        return str(self.summary["status"])

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    @property
    def totals(self) -> list[int]:
        return list(self.summary["totals"])

    @property
    def winners(self) -> list[int]:
        return list(self.summary["winners"])

    @property
    def current(self) -> int | None:
        """The number of the first hand not complete, ``None`` once the game is over."""
        current: int | None = self.summary["current"]
        return current

    @property
    def hands(self) -> int:
        """How many hands the game's schedule has (R7, R8)."""
        return int(self.summary["hands"])

    def line(self, seat: int) -> PlayerStats:
        """The engine's S/O/P line of one seat (R26)."""
        kept = self.summary["seats"][seat]
        return PlayerStats(seat, *(kept[k] for k in ("set", "over", "perfect", "overtricks", "bid", "taken")))


@dataclass
class Counts:
    """Complete hands and their S / O / P outcomes (R26), e.g. for one number of cards dealt."""

    hands: int = 0
    set: int = 0
    over: int = 0
    perfect: int = 0

    def add(self, set_: int, over: int, perfect: int) -> None:
        self.hands += set_ + over + perfect
        self.set += set_
        self.over += over
        self.perfect += perfect

    @property
    def made_rate(self) -> float:
        """(O + P) / hands: a made bid is an overtrick or a perfect one (R19, R26); 0 with no hands."""
        return (self.over + self.perfect) / self.hands if self.hands else 0.0

    @property
    def perfect_rate(self) -> float:
        return self.perfect / self.hands if self.hands else 0.0

    def to_dict(self) -> dict[str, int]:
        return {"hands": self.hands, "set": self.set, "over": self.over, "perfect": self.perfect}


@dataclass
class Appearance:
    """One game as one player saw it: their seat, S/O/P line and total in that game."""

    played: Played
    seat: int
    stats: PlayerStats

    @property
    def total(self) -> int:
        return self.played.totals[self.seat]

    @property
    def kept(self) -> dict[str, Any]:
        """This seat's part of the game's summary."""
        kept: dict[str, Any] = self.played.summary["seats"][self.seat]
        return kept

    @property
    def won(self) -> bool:
        return self.played.finished and self.seat in self.played.winners


@dataclass
class Tally:
    """A roster player's figures over every game of the group (API.md, "Groups", statistics)."""

    player: GroupPlayer
    games: int = 0
    finished: int = 0
    wins: int = 0
    #: Of ``games``: those played at a virtual table, and those where a bot held a seat.
    virtual: int = 0
    with_bots: int = 0
    overtricks: int = 0
    bid: int = 0
    taken: int = 0
    points: int = 0
    hands: Counts = field(default_factory=Counts)
    appearances: list[Appearance] = field(default_factory=list)  # oldest first

    @cached_property
    def by_cards(self) -> dict[int, Counts]:
        """S / O / P by the number of cards dealt, over every complete hand (added up when asked for)."""
        out: dict[int, Counts] = {}
        for a in self.appearances:
            for cards, counts in a.kept["by_cards"].items():
                out.setdefault(int(cards), Counts()).add(*counts)
        return out

    @cached_property
    def margins(self) -> Counter[int]:
        """Taken − bid per complete hand, misses beyond ±MARGIN counted at ±MARGIN."""
        out: Counter[int] = Counter()
        for a in self.appearances:
            for miss, hands in a.kept["misses"].items():
                out[max(-MARGIN, min(MARGIN, int(miss)))] += hands
        return out

    @property
    def points_per_hand(self) -> float:
        return self.points / self.hands.hands if self.hands.hands else 0.0

    def best_and_worst(self) -> tuple[Appearance | None, Appearance | None]:
        """The finished games with the highest and lowest total (a game still going would put one
        good hand beside whole games)."""
        counted = [a for a in self.appearances if a.played.finished]
        if not counted:
            return None, None
        return max(counted, key=lambda a: a.total), min(counted, key=lambda a: a.total)

    def to_dict(self) -> dict[str, Any]:
        """The statistics answer's line for this player, in API.md's field order."""
        h = self.hands
        return {
            "player_id": self.player.id,
            "name": self.player.name,
            "games": self.games,
            "finished": self.finished,
            "wins": self.wins,
            "hands": h.hands,
            "set": h.set,
            "over": h.over,
            "perfect": h.perfect,
            "overtricks": self.overtricks,
            "bid": self.bid,
            "taken": self.taken,
            "points": self.points,
            "made_rate": round(h.made_rate, 3),
            "perfect_rate": round(h.perfect_rate, 3),
            "by_cards": {str(cards): c.to_dict() for cards, c in sorted(self.by_cards.items())},
            "virtual": self.virtual,
            "with_bots": self.with_bots,
        }


@dataclass
class Pair:
    """Two players' finished games together and who ended ahead (ties count for neither)."""

    a: GroupPlayer
    b: GroupPlayer
    games: int = 0
    a_ahead: int = 0
    b_ahead: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a.id, "b": self.b.id, "games": self.games, "a_ahead": self.a_ahead, "b_ahead": self.b_ahead}


@dataclass
class Season:
    """Everything a group page shows: its games (newest first) and each player's tally, in roster
    order; head-to-head (:attr:`pairs`, :meth:`against`) is worked out only where a page shows it."""

    group: Group
    played: list[Played]
    tallies: list[Tally]
    _pairs: list[Pair] | None = field(default=None, init=False, repr=False)
    _answer: bytes | None = field(default=None, init=False, repr=False)

    @property
    def with_bots(self) -> bool:
        """Whether a bot held a seat at any of the group's games (bots are not on the roster)."""
        return any(p.bots for p in self.played)

    def tally(self, player_id: str) -> Tally | None:
        return next((t for t in self.tallies if t.player.id == player_id), None)

    def leaderboard(self) -> list[Tally]:
        """Most wins first, then the better made rate, then more points per hand; players without a
        complete hand last (no rate to compare, not a rate of 0)."""
        return sorted(
            self.tallies,
            key=lambda t: (
                not t.hands.hands,
                -t.wins,
                -t.hands.made_rate,
                -t.points_per_hand,
                alphabetical(t.player.key),
            ),
        )

    @property
    def pairs(self) -> list[Pair]:
        """Every two roster players who finished a game together, in roster order (worked out once;
        not a ``cached_property``, whose lock in Python 3.11 is one for every season of the class)."""
        if self._pairs is None:
            self._pairs = self._face_offs(self.played)
        return self._pairs

    def against(self, player_id: str) -> list[tuple[GroupPlayer, int, int, int]]:
        """Head-to-head from one player's side: (opponent, games, ahead, behind), from their games
        alone (at 1000 games of 15 seats, every pair of the group is 105,000 meetings)."""
        tally = self.tally(player_id)
        out = []
        for pair in self._face_offs([a.played for a in tally.appearances] if tally else []):
            if pair.a.id == player_id:
                out.append((pair.b, pair.games, pair.a_ahead, pair.b_ahead))
            elif pair.b.id == player_id:
                out.append((pair.a, pair.games, pair.b_ahead, pair.a_ahead))
        return out

    def _face_offs(self, played: list[Played]) -> list[Pair]:
        """Every pair at each finished game of ``played``: who ended with the higher total (R21; a
        tie counts for neither)."""
        order = {t.player.id: (index, t.player) for index, t in enumerate(self.tallies)}
        pairs: dict[tuple[int, int], Pair] = {}
        for game in played:
            if not game.finished:
                continue
            seated = sorted((order[p], seat) for seat, p in enumerate(game.seats) if p in order)
            totals = game.totals
            for i, ((a, player_a), seat_a) in enumerate(seated):
                for (b, player_b), seat_b in seated[i + 1 :]:
                    pair = pairs.get((a, b))
                    if pair is None:
                        pair = pairs[a, b] = Pair(player_a, player_b)
                    pair.games += 1
                    pair.a_ahead += totals[seat_a] > totals[seat_b]
                    pair.b_ahead += totals[seat_b] > totals[seat_a]
        return [pairs[key] for key in sorted(pairs)]

    def to_dict(self) -> dict[str, Any]:
        """The statistics answer of API.md."""
        return {
            "group": self.group.id,
            "players": [t.to_dict() for t in self.tallies],
            "head_to_head": [p.to_dict() for p in self.pairs],
        }

    def answer(self) -> bytes:
        """:meth:`to_dict` as the JSON the API sends, written once, as :attr:`pairs`: a kept season
        is read again (at the caps 3.4 MB, most of a request's work)."""
        if self._answer is None:
            self._answer = jsonify(self.to_dict()).get_data()  # written as every answer is
        return self._answer


def roster(group: Group) -> list[GroupPlayer]:
    """The roster in the order every page and answer lists it: alphabetical, case-insensitive."""
    return sorted(group.players, key=lambda p: (alphabetical(p.key), p.key, p.id))


def absent_seats(table_seats: list[dict[str, Any]]) -> set[int]:
    """The seats of a virtual table that count for nobody: a bot plays them and no person ever opened them."""
    return {i for i, s in enumerate(table_seats) if s.get("bot") and not s.get("joined")}


def load(group: Group, session: Session | None = None, before: Iterable[Played] = ()) -> list[Played]:
    """The group's games with their summaries, seats and bots, newest first, in at most five
    queries for any number of games: the games' versions, the games not ``before`` at that version
    (an earlier season's, whose rows and summaries are loaded already: decoding them is most of
    the work at the caps), their seats, the bot seats of virtual games, and the hands of any game
    whose stored summary is not of its version (scored again here). Read in ``session``, the
    request's by default."""
    reads: Session | scoped_session[Any] = session or db.session
    order = (Game.created_at.desc(), Game.id)
    versions = reads.execute(select(Game.id, Game.version).where(Game.group_id == group.id).order_by(*order)).all()
    known = {p.game.id: p for p in before}
    kept = {i: known[i] for i, version in versions if i in known and known[i].game.version == version}
    query = select(Game).where(Game.group_id == group.id, Game.id.not_in(list(kept))).order_by(*order)
    loaded = {g.id: g for g in reads.execute(query).scalars()}
    rows = [kept[i].game if i in kept else loaded[i] for i, _ in versions if i in kept or i in loaded]
    seats: dict[str, dict[int, str]] = {}
    query_seats = (
        select(GroupSeat.game_id, GroupSeat.seat, GroupSeat.player_id)
        .join(Game, Game.id == GroupSeat.game_id)
        .where(Game.group_id == group.id)
    )
    for game_id, seat, player_id in reads.execute(query_seats):
        seats.setdefault(game_id, {})[seat] = player_id
    bots: dict[str, dict[int, str]] = {}
    absent: dict[str, set[int]] = {}  # seats a bot plays that no person ever opened
    if any(g.mode == "virtual" for g in rows):
        query_bots = (
            select(VirtualTable.game_id, VirtualTable.seats)
            .join(Game, Game.id == VirtualTable.game_id)
            .where(Game.group_id == group.id)
        )
        for game_id, table_seats in reads.execute(query_bots):
            bots[game_id] = {i: str(s["bot"]) for i, s in enumerate(table_seats) if s.get("bot")}
            absent[game_id] = absent_seats(table_seats)
    summaries = {i: p.summary for i, p in kept.items()} | {g.id: s for g in loaded.values() if (s := kept_summary(g))}
    stale = [g for g in rows if g.id not in summaries]
    if stale:
        hands: dict[str, list[Any]] = {g.id: [] for g in stale}
        query_hands = select(HandEntry.game_id, HandEntry.number, HandEntry.bids, HandEntry.tricks, HandEntry.trump)
        for hand in reads.execute(query_hands.where(HandEntry.game_id.in_(list(hands)))):
            hands[hand.game_id].append(hand)
        for game in stale:
            card = build_scorecard(rules_of(game), game.first_dealer, records_from(hands[game.id]))
            summaries[game.id] = summary_of(card, game.version)
    played = []
    for g in rows:
        people, nobody = seats.get(g.id, {}), absent.get(g.id, set())
        who = ["" if s in nobody else people.get(s, "") for s in range(len(g.players))]
        played.append(Played(g, summaries[g.id], who, bots.get(g.id) or kept_bots(g)))
    return played


#: Seasons kept per server process: the last groups read, each under the state it was added up
#: from (:func:`state_of`), up to this many games in all (the last group read is kept whatever its
#: size; two groups at the caps fit, so that reading them in turn does not push each other out).
#: Reading an unchanged group again adds nothing up: at the caps (1000 games of 15 players, 300
#: players) that is about half a second of CPU, which phones that all open the leaderboard after a
#: game would otherwise spend many times over; such a season takes about 38 MB kept. After a write,
#: the games not written since are taken from the season kept (a fifth of the work at the caps).
KEPT_GAMES = 2 * (1000 + 1)
_kept_lock = threading.Lock()
#: One adding up of a group at a time per process (a lock per stripe of group ids): the phones
#: that open the leaderboard after the same hand wait for the first one's season, not add it up
#: each again.
_adding_up = [threading.Lock() for _ in range(16)]


def state_of(group_id: str, session: Session | scoped_session[Any]) -> tuple[Any, ...]:
    """What a group's statistics are added up from, in brief, in four small queries: its games
    with their versions (every write to a game's records raises its version, R25), how many seats
    its players hold, its virtual tables with theirs (a seat handed to a bot raises it) and the
    seats that count for nobody (a player opening their link changes them, not the version), and
    its roster (names, merges and removals). Equal states, equal seasons."""
    of_group = select(Game.id).where(Game.group_id == group_id)
    games = session.execute(select(Game.id, Game.version).where(Game.group_id == group_id).order_by(Game.id))
    seats = session.scalar(select(func.count()).where(GroupSeat.game_id.in_(of_group)))
    tables = (
        (table_id, version, tuple(sorted(absent_seats(seats))))
        for table_id, version, seats in session.execute(
            select(VirtualTable.id, VirtualTable.version, VirtualTable.seats)
            .where(VirtualTable.game_id.in_(of_group))
            .order_by(VirtualTable.id)
        )
    )
    players = session.execute(
        select(GroupPlayer.id, GroupPlayer.name, GroupPlayer.key)
        .where(GroupPlayer.group_id == group_id)
        .order_by(GroupPlayer.id)
    )
    return tuple(map(tuple, games)), seats, tuple(tables), tuple(map(tuple, players))


def season(group: Group) -> Season:
    """The group's season (:func:`add_up`), kept while the group stays as it is (:func:`state_of`).

    Call it after the request's writes are committed. A season not kept is added up in a session
    of its own, in one snapshot with the state it is kept under (a write committed meanwhile is
    either in both or in neither), and what is kept then holds nothing of the request's session;
    every read after that is of loaded values.
    """
    key = (group.id, state_of(group.id, db.session))
    kept: OrderedDict[Any, Season] = current_app.extensions.setdefault("group_seasons", OrderedDict())

    def found(key: Any) -> Season | None:
        with _kept_lock:
            if key in kept:
                kept.move_to_end(key)
            return kept.get(key)

    if (ready := found(key)) is not None:
        return ready
    db.session.rollback()  # no connection held while waiting for another request's adding up
    with _adding_up[hash(group.id) % len(_adding_up)]:
        if (ready := found(key)) is not None:  # added up by another request meanwhile
            return ready
        with _kept_lock:  # the group as it was: its games not written since are not read again
            earlier = next((s.played for k, s in kept.items() if k[0] == group.id), ())
        with Session(snapshot(db.engine)) as session:
            state = (group.id, state_of(group.id, session))
            fresh = add_up(session.get_one(Group, group.id), session, earlier)
        with _kept_lock:
            for older in [k for k in kept if k[0] == group.id]:
                del kept[older]
            kept[state] = fresh
            while len(kept) > 1 and sum(len(s.played) + 1 for s in kept.values()) > KEPT_GAMES:
                kept.popitem(last=False)
    return fresh


def snapshot(engine: Engine) -> Engine:
    """``engine`` reading one snapshot per transaction: PostgreSQL's REPEATABLE READ (its default
    lets each statement see what was committed before it); SQLite's transactions do already."""
    return (
        engine.execution_options(isolation_level="REPEATABLE READ") if engine.dialect.name == "postgresql" else engine
    )


def add_up(group: Group, session: Session | None = None, before: Iterable[Played] = ()) -> Season:
    """Add up every complete hand of every game in the group, per roster player (R19–R21, R26);
    ``before``: the games of an earlier season, as :func:`load` takes them."""
    played = load(group, session, before)
    players = roster(group)
    tallies = {p.id: Tally(p) for p in players}
    for game in reversed(played):  # oldest first, so each player's appearances read in time order
        for seat, player_id in enumerate(game.seats):
            tally = tallies.get(player_id)
            if tally is not None:
                _count(tally, game, seat)
    return Season(group, played, [tallies[p.id] for p in players])


def _count(tally: Tally, game: Played, seat: int) -> None:
    """One player's game into their tally: the engine's S/O/P line (R26) and total."""
    stats = game.line(seat)
    tally.games += 1
    tally.finished += game.finished
    tally.wins += game.finished and seat in game.winners
    tally.virtual += game.game.mode == "virtual"
    tally.with_bots += bool(game.bots)
    tally.overtricks += stats.overtricks
    tally.bid += stats.bid
    tally.taken += stats.taken
    tally.points += game.totals[seat]  # the sum of the hand points (R19, R20)
    tally.hands.add(stats.set, stats.over, stats.perfect)  # complete hands only (R25)
    tally.appearances.append(Appearance(game, seat, stats))


CSV_COLUMNS = (
    "player",
    "games",
    "finished",
    "wins",
    "hands",
    "set",
    "over",
    "perfect",
    "overtricks",
    "bid",
    "taken",
    "points",
    "made_rate",
    "perfect_rate",
    "points_per_hand",
)


def csv_text(season: Season) -> str:
    """``stats.csv``: one row per roster player with the statistics answer's figures (RFC 4180)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for tally in season.tallies:
        line = tally.to_dict()
        writer.writerow(
            [
                spreadsheet_text(tally.player.name),
                *(line[c] for c in CSV_COLUMNS[1:-1]),
                round(tally.points_per_hand, 2),
            ]
        )
    return out.getvalue()
