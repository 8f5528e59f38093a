"""A group's writes: create it, seat its players in a new game, rename, merge and remove players,
take a game out of it.

A group is opened by its token like a game (API.md, "Groups"): stored only as a hash, and a wrong
token looks exactly like a missing group (404). Every write runs in one
:func:`scorekeeper.games.transaction` that first locks the group row, so two games started at
once cannot both add "Eve" to the roster.
"""

from __future__ import annotations

from collections.abc import Collection
from collections.abc import Iterable
from typing import Any

from sqlalchemy import delete
from sqlalchemy import func
from sqlalchemy import or_
from sqlalchemy import select
from sqlalchemy import update

from ..engine import RulesError
from ..errors import BadRequest
from ..errors import Conflict
from ..errors import NotFound
from ..extensions import db
from ..games import Attach
from ..games import clean_name
from ..games import distinct
from ..games import load_game
from ..games import name_key
from ..games import transaction
from ..games import trimmed
from ..i18n import _
from ..i18n import _n
from ..i18n import N_
from ..i18n import shown
from ..models import Game
from ..models import Group
from ..models import GroupAlias
from ..models import GroupPlayer
from ..models import GroupSeat
from ..models import VirtualTable
from ..tokens import matches
from ..tokens import new_id
from ..tokens import new_token
from ..tokens import token_hash
from .stats import absent_seats
from .stats import Played
from .stats import roster

#: The cookie that holds a group's token for its pages (``skg_<id>``, path ``/``); the home page lists them.
GROUP_COOKIE = "skg_"
NO_GROUP = N_("No group with that link: check the address, or ask a member for the group's link.")
MAX_GROUP_NAME = 60
#: A group's roster is bounded, so one client cannot make the server keep (and count) endless players.
MAX_ROSTER = 300
#: So are its games: every group page adds them all up (a weekly evening of five games is 260 a year).
MAX_GAMES = 1000
#: And the names merged into its players, which every new game of the group reads to seat them.
MAX_ALIASES = 1000


def clean_group_name(raw: object) -> str:
    """A group's name: text of 1 to 60 printable characters, trimmed (400 otherwise)."""
    if not isinstance(raw, str):
        raise BadRequest(_("'name' must be the group's name, such as \"Friday night\"."))
    name = " ".join(raw.split())
    if not name:
        raise BadRequest(_('The group has no name; give it one, such as "Friday night".'))
    if len(name) > MAX_GROUP_NAME:
        raise BadRequest(_("The group's name is longer than {most} characters.", most=MAX_GROUP_NAME))
    if not name.isprintable():
        raise BadRequest(_("The group's name contains a character that cannot be printed."))
    return name


def clean_roster(raw: object) -> list[str]:
    """The optional starting roster: distinct names (compared trimmed and case-insensitively)."""
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise BadRequest(_('\'players\' must be a list of names, such as ["Ann", "Ben"].'))
    if len(raw) > MAX_ROSTER:
        raise BadRequest(_("A group keeps at most {most} players, not {count}.", most=MAX_ROSTER, count=len(raw)))
    return distinct([clean_name(name, _("Player {seat}", seat=index)) for index, name in enumerate(raw, start=1)])


def create_group(name: object, players: object = None) -> tuple[Group, str]:
    """Store a new group with its roster; returns it with its token (shown once, stored hashed)."""
    title, names = clean_group_name(name), clean_roster(players)
    token = new_token()
    group = Group(
        id=new_id(),
        name=title,
        token_hash=token_hash(token),
        players=[GroupPlayer(id=new_id(), name=n, key=name_key(n)) for n in names],
    )
    with transaction():
        db.session.add(group)
    return group, token


def open_group(group_id: str, token: str | None) -> Group:
    """The group with this id and token; anything else is 404 without saying which part was wrong."""
    group = db.session.get(Group, group_id) if group_id and len(group_id) <= 16 and "\x00" not in group_id else None
    if group is None or not matches(token, group.token_hash):
        raise NotFound(_(NO_GROUP))
    return group


def _locked(group_id: str) -> Group:
    """The group row, locked for this write transaction (``FOR UPDATE``; SQLite is locked whole)."""
    query = select(Group).where(Group.id == group_id).with_for_update().execution_options(populate_existing=True)
    group = db.session.execute(query).scalar_one_or_none()
    if group is None:
        raise NotFound(_(NO_GROUP))
    return group


def _player(group: Group, player_id: object) -> GroupPlayer:
    found = next((p for p in group.players if p.id == player_id), None)
    if found is None:
        raise NotFound(  # most often merged or taken off the roster on another phone a moment ago
            _(
                "This group has no player {player_id}: merged into another or taken off the roster, perhaps on "
                "another phone just now. Nothing was changed; reload the group to see its players.",
                player_id=shown(player_id),
            )
        )
    return found


def seat_players(
    group_id: str, known: object = None, known_names: object = None, origin: Iterable[object] = ()
) -> Attach:
    """Seat a new game's players in the group: each name is a roster player, or joins the roster.

    Returned as the hook that :func:`scorekeeper.games.create_game` runs inside the game's own
    transaction, so the game and its seats are stored together or not at all. Seats played by
    bots are no roster players: they get no seat in the group and count for nobody.

    ``known`` is an imported game's ``group_players`` (the group's export.json): the roster
    player id of each seat, ``""`` for a seat that counted for nobody. A seat whose id is a player
    of this group is that player whatever the name now says (renamed, merged); other seats go by name:
    the roster name the export gives for the seat (``group_names``: the exporting group's renames
    and merges), else the seat's name in the game. ``origin``: an imported file's ``origin`` (the
    game it was first imported from, which a group's export gives) and ``id``, the first of them
    kept with the game; a game the group holds already, or imported from the same game (an import
    sent again after its answer was lost, or the copy another group made of it), is refused: its
    statistics would count twice.
    """

    # (PostgreSQL text holds no NUL)
    ids_sent = [o for o in origin if isinstance(o, str) and 0 < len(o) <= 64 and "\x00" not in o]
    kept = ids_sent[0] if ids_sent else None

    def attach(game: Game, bots: Collection[int]) -> None:
        group = _locked(group_id)
        count = db.session.scalar(select(func.count()).select_from(Game).where(Game.group_id == group.id)) or 0
        if count >= MAX_GAMES:
            raise BadRequest(
                _(
                    "This group already keeps {count} games, the most it can; start a new group for the next season.",
                    count=count,
                )
            )
        if kept is not None and db.session.scalar(
            select(func.count())
            .select_from(Game)
            .where(Game.group_id == group.id, Game.id != game.id)
            .where(or_(Game.id.in_(ids_sent), Game.origin.in_(ids_sent)))
        ):
            raise BadRequest(
                _(
                    "This game is in the group already (id {id}): imported again, it would count twice. Nothing was stored.",
                    id=kept,
                )
            )
        game.origin = kept
        ids = _known_ids(known, len(game.players))
        names = _known_names(known_names, len(game.players))
        if known is None:  # a bot's seat counts for nobody
            seats = [seat for seat in range(len(game.players)) if seat not in bots]
        else:  # the export says whom each seat counted for: a bot's seat a person opened counts for them
            seats = [seat for seat in range(len(game.players)) if ids[seat] != ""]
        _one_seat_each(group, game, seats, ids, names)
        _seat(group, game, seats, ids, names)

    return attach


def seat_person(game: Game, seat: int, check_only: bool = False) -> None:
    """A seat of a group's virtual table that a bot held, handed to a person: they join the game's
    players in the group (a roster player of that name, or a new one), as if seated from the start.
    ``check_only``: refuse as this would, change nothing (a hand-over at the next deal).

    :raises BadRequest: when the roster has no room for the name.
    :raises RulesError: R4 when the name is that of a player already at the game (merged into them,
        or theirs since a rename).
    """
    if game.group_id is None or db.session.get(GroupSeat, (game.id, seat)) is not None:
        return
    group = _locked(game.group_id)
    name = game.players[seat]
    player = names_of(group).get(name_key(name))
    if player is not None:
        at = select(GroupSeat.seat).where(GroupSeat.game_id == game.id, GroupSeat.player_id == player.id)
        if (other := db.session.scalar(at)) is not None:
            raise _one_player_twice(name, player, game.players[other])
    if check_only:
        _room_for(group, player is None)  # a name new to the roster
    else:
        _seat(group, game, [seat])


def _room_for(group: Group, new: int) -> None:
    """Refuse (400) ``new`` more roster players past :data:`MAX_ROSTER`."""
    if len(group.players) + new > MAX_ROSTER:
        raise BadRequest(
            _(
                "This group keeps at most {most} players and has {count}: the new names would go past it. Merge "
                "the ones entered twice, or start a new group.",
                most=MAX_ROSTER,
                count=len(group.players),
            )
        )


def _one_seat_each(group: Group, game: Game, seats: list[int], ids: list[str | None], names: list[str] | None) -> None:
    """A new or imported game seats each roster player once. A seat goes by its roster player id
    where ``ids`` (an import's ``group_players``) names one of this group's players, else by name:
    the roster name ``names`` gives (an import's ``group_names``), else the seat's; a name merged
    into a player is that player.

    :raises RulesError: R4 when two seats are one player (the later seat would count for nobody).
    """
    by_key, by_id = names_of(group), {p.id: p for p in group.players}
    named = [(names[seat] if names else "") or game.players[seat] for seat in range(len(game.players))]
    first: dict[str, int] = {}  # by player id
    first_new: dict[str, int] = {}  # by name key (a name may look like a player id)
    for seat in sorted(seats, key=lambda s: ids[s] not in by_id):  # the seats known by id first
        player = by_id.get(ids[seat] or "") or by_key.get(name_key(named[seat]))
        if player is None:  # a name new to the roster: one seat only
            if first_new.setdefault(name_key(named[seat]), seat) != seat:
                raise RulesError(
                    "Two seats of this game come to {name} in this group: each player holds one seat (R4).",
                    "R4",
                    name=named[seat],
                )
            continue
        if player.id not in first:
            first[player.id] = seat
            continue
        other = first[player.id]
        if ids[other] not in by_id and name_key(named[seat]) == player.key:
            seat, other = other, seat  # the seat under the player's own name is not the merged one
        raise _one_player_twice(named[seat], player, named[other])


def _one_player_twice(name: str, player: GroupPlayer, other: str) -> RulesError:
    """R4: the seat named ``name`` would be ``player``, who is already at the game as ``other``."""
    if name_key(name) == player.key:  # renamed to this name since
        return RulesError(
            "{name} is the name in this group of the player already at this game as {other}: "
            "each player holds one seat (R4).",
            "R4",
            name=name,
            other=other,
        )
    return RulesError(
        "{name} is a name merged into {player} in this group, who is already at this game as {other}: "
        "each player holds one seat (R4).",
        "R4",
        name=name,
        player=player.name,
        other=other,
    )


def _known_ids(known: object, players: int) -> list[str | None]:
    """``group_players`` checked: one roster player id (or ``""``) per seat, none twice; ``None`` each when absent."""
    if known is None:
        return [None] * players
    if not isinstance(known, list) or len(known) != players or not all(isinstance(k, str) for k in known):
        raise BadRequest(
            _("'group_players' must list one roster player id per seat, as the group's export.json gives it.")
        )
    named = [k for k in known if k]
    if len(set(named)) != len(named):
        raise BadRequest(_("'group_players' names a player at two seats; a player holds one seat (R4)."))
    return list(known)


def _known_names(known: object, players: int) -> list[str] | None:
    """``group_names`` checked: one roster name (or ``""``) per seat, none twice (two seats of one
    game are never one player, R4: an export never gives a name twice); ``None`` when absent."""
    if known is None:
        return None
    if not isinstance(known, list) or len(known) != players or not all(isinstance(k, str) for k in known):
        raise BadRequest(_("'group_names' must list one roster name per seat, as the group's export.json gives it."))
    names = [_roster_name(name, seat) if name else "" for seat, name in enumerate(known, 1)]
    keys = [name_key(name) for name in names if name]
    if len(set(keys)) != len(keys):
        raise BadRequest(_("'group_names' names a player at two seats; a player holds one seat (R4)."))
    return names


def _roster_name(name: str, seat: int) -> str:
    """One name of ``group_names``, checked as a player's name; its error names the field and seat."""
    try:
        return clean_name(name, _("The player"))
    except BadRequest as error:
        raise BadRequest(_("'group_names', seat {seat}: {problem}", seat=seat, problem=error.message)) from None


def names_of(group: Group) -> dict[str, GroupPlayer]:
    """The roster by name key: each player's name, and the names of the players merged into them."""
    by_key = {p.key: p for p in group.players}
    by_id = {p.id: p for p in group.players}
    for alias in db.session.scalars(select(GroupAlias).where(GroupAlias.group_id == group.id)):
        by_key.setdefault(alias.key, by_id[alias.player_id])
    return by_key


def seat_names(game: Game) -> list[str]:
    """A group game's players by the names the roster gives them now (renamed, or merged into
    another player, since): a seat no player sits in (a bot's) keeps the name it was played with."""
    names = list(game.players)
    rows = db.session.execute(
        select(GroupSeat.seat, GroupPlayer.name)
        .join(GroupPlayer, GroupPlayer.id == GroupSeat.player_id)
        .where(GroupSeat.game_id == game.id)
    )
    for seat, name in rows:
        names[seat] = name
    return names


def _seat(
    group: Group, game: Game, seats: list[int], ids: list[str | None] | None = None, names: list[str] | None = None
) -> None:
    """Give each of ``seats`` its roster player: by id where ``ids`` names one of this group's players,
    else by name (the one ``names`` gives, else the seat's), or a name merged into a player (a new
    name joins the roster). A player already at the game is not seated twice (a later seat whose
    name another player took by a rename counts for nobody)."""
    by_key = names_of(group)
    by_id = {p.id: p for p in group.players}
    named = {seat: (names[seat] if names else "") or game.players[seat] for seat in seats}
    sitting = set(db.session.scalars(select(GroupSeat.player_id).where(GroupSeat.game_id == game.id)))
    chosen: dict[int, GroupPlayer | None] = {seat: by_id.get(ids[seat] or "") if ids else None for seat in seats}
    sitting |= {p.id for p in chosen.values() if p is not None}
    new = [s for s in seats if chosen[s] is None and name_key(named[s]) not in by_key]
    _room_for(group, len({name_key(named[s]) for s in new}))
    for seat in new:
        if name_key(named[seat]) not in by_key:  # two seats may bring one new name (merged in the export)
            by_key[name_key(named[seat])] = GroupPlayer(id=new_id(), name=named[seat], key=name_key(named[seat]))
            group.players.append(by_key[name_key(named[seat])])
    for seat in (s for s in seats if chosen[s] is None):
        player = by_key[name_key(named[seat])]
        if player.id not in sitting:
            chosen[seat] = player
            sitting.add(player.id)
    game.group_id = group.id
    db.session.flush()  # the new players exist before their seats point at them
    db.session.add_all(GroupSeat(game_id=game.id, seat=seat, player_id=p.id) for seat, p in chosen.items() if p)


def rename(group_id: str, player_id: str, name: object, was: object = None) -> None:
    """Give a player a new name in the group; recorded games keep the names they were played with.

    ``was``: the name the phone showed. Renamed meanwhile (another phone), the rename is refused
    (409) rather than written over the other one unseen; asked again to the same name, it is done.
    """
    if not isinstance(name, str):
        raise BadRequest(_("'name' must be the player's new name, such as \"Ann B.\"."))
    if was is not None and not isinstance(was, str):
        raise BadRequest(_("'was' must be the player's name as you saw it, such as \"Ann\"."))
    new_name = clean_name(name, _("The player"))
    with transaction():
        group = _locked(group_id)
        player = _player(group, player_id)
        if player.name == new_name:
            return
        if was is not None and trimmed(was) != player.name:
            raise Conflict(
                _(
                    "{was!r} was renamed {name!r} meanwhile, perhaps on another phone, so nothing was changed: "
                    "check the name and rename again if needed.",
                    was=trimmed(was),
                    name=player.name,
                )
            )
        key = name_key(new_name)
        other = names_of(group).get(key, player)
        if other is not player:
            if other.key != key:  # a name merged into them: it is theirs
                raise BadRequest(
                    _(
                        "{name!r} is a name merged into {player!r} in this group: it stands for them. "
                        "Choose another name.",
                        name=new_name,
                        player=other.name,
                    )
                )
            raise BadRequest(
                _(
                    "{name!r} is already a player of this group; if they are the same person, merge the two instead.",
                    name=other.name,
                )
            )
        # A name merged into this player becomes their own name again.
        db.session.execute(delete(GroupAlias).where(GroupAlias.group_id == group.id, GroupAlias.key == key))
        player.name, player.key = new_name, key


def merge(group_id: str, player_id: str, into: object) -> None:
    """One person entered under two names becomes one: ``player_id``'s games move to ``into``.

    :raises RulesError: R4 when the two sat at the same game: they are two people.
    """
    if not isinstance(into, str):
        raise BadRequest(_("'into' must be the id of the player to keep, from the group document."))
    with transaction():
        group = _locked(group_id)
        source, target = _player(group, player_id), _player(group, into)
        if source is target:
            raise BadRequest(_("{name!r} cannot be merged into themselves; choose another player.", name=source.name))
        together = db.session.execute(
            select(GroupSeat.game_id)
            .where(GroupSeat.player_id.in_((source.id, target.id)))
            .group_by(GroupSeat.game_id)
            .having(func.count() > 1)
            .limit(1)
        ).scalar_one_or_none()
        if together is not None:
            raise RulesError(
                "{name} and {other} sat at the same game, so they are two people: each player holds one seat (R4). "
                "They cannot be merged.",
                "R4",
                name=source.name,
                other=target.name,
            )
        aliases = db.session.scalar(select(func.count()).where(GroupAlias.group_id == group.id)) or 0
        if aliases >= MAX_ALIASES:
            raise BadRequest(
                _(
                    "This group already remembers {most} names merged into its players, the most it keeps: "
                    "{name} cannot be merged. Rename the player instead, or start a new group.",
                    most=MAX_ALIASES,
                    name=source.name,
                )
            )
        db.session.execute(update(GroupSeat).where(GroupSeat.player_id == source.id).values(player_id=target.id))
        # Their names stay with the player kept: the next game that names them so seats them there.
        db.session.execute(update(GroupAlias).where(GroupAlias.player_id == source.id).values(player_id=target.id))
        db.session.add(GroupAlias(group_id=group.id, key=source.key, player_id=target.id))
        group.players.remove(source)  # deleted as an orphan at the commit


def remove_player(group_id: str, player_id: str) -> None:
    """Take a player who sat at none of the group's games off its roster (a name typed by mistake)."""
    with transaction():
        group = _locked(group_id)
        player = _player(group, player_id)
        sat = db.session.execute(
            select(GroupSeat.game_id, GroupSeat.seat).where(GroupSeat.player_id == player.id)
        ).all()
        tables = {
            game: seats
            for game, seats in db.session.execute(
                select(VirtualTable.game_id, VirtualTable.seats).where(
                    VirtualTable.game_id.in_({game for game, _seat in sat})
                )
            )
        }
        games = len([g for g, seat in sat if seat not in absent_seats(tables.get(g, []))])  # as the statistics count
        if games:
            raise BadRequest(
                _n(
                    "{name} sat at {n} of the group's games, so they stay on the roster; if they were entered "
                    "under two names, merge them into the other.",
                    "{name} sat at {n} of the group's games, so they stay on the roster; if they were entered "
                    "under two names, merge them into the other.",
                    games,
                    name=player.name,
                )
            )
        db.session.execute(delete(GroupSeat).where(GroupSeat.player_id == player.id))  # seats a bot took unopened
        db.session.execute(delete(GroupAlias).where(GroupAlias.player_id == player.id))
        group.players.remove(player)


def group_game(group: Group, game_id: str) -> Game:
    """A game of this group, with its hands (404 for any other, as for a missing one)."""
    game = load_game(game_id) if len(game_id) <= 16 else None
    if game is None or game.group_id != group.id:
        raise NotFound(_("This group has no such game."))
    return game


def remove_game(group_id: str, game_id: str) -> None:
    """Take a game out of the group (a test, a game begun by mistake): it no longer counts in the
    group's statistics, and stays a game of its own, opened by its own links as before."""
    with transaction():
        # The game's row before the group's, in the order of a virtual table's move, which holds
        # its game row when it seats a person in the group (seat_person): the other way round, the
        # two would deadlock on PostgreSQL and one of them fail. FOR NO KEY UPDATE, as an update of
        # the row takes: a seat handed over outside a move (the group's row locked first) checks its
        # foreign key to the game with a KEY SHARE lock, which FOR UPDATE would block.
        if len(game_id) <= 16:
            db.session.execute(select(Game.id).where(Game.id == game_id).with_for_update(key_share=True))
        game = group_game(_locked(group_id), game_id)
        db.session.execute(delete(GroupSeat).where(GroupSeat.game_id == game.id))
        game.group_id = None


def player_list(players: Iterable[GroupPlayer]) -> list[dict[str, Any]]:
    """``[{"id", "name"}]`` as the group document lists them."""
    return [{"id": p.id, "name": p.name} for p in players]


def document(group: Group, played: Iterable[Played]) -> dict[str, Any]:
    """The group document of API.md: roster, and its games newest first with who sat where."""
    return {
        "id": group.id,
        "name": group.name,
        "players": player_list(roster(group)),
        "games": [
            {
                "id": g.game.id,
                "mode": g.game.mode,
                "created_at": g.game.created_at.isoformat() + "Z",
                "status": g.status,
                "players": [
                    {"seat": seat, "player_id": g.seats[seat], "name": name, "bot": g.bots.get(seat)}
                    for seat, name in enumerate(g.game.players)
                ],
                "totals": g.totals,
                "winners": g.winners,
            }
            for g in played
        ],
    }
