"""A game's data in and out: the versioned ``export.json``, a CSV of every hand, and imports.

An import is checked as strictly as hands entered one at a time: the engine checks the
schedule, the dealers, bids, tricks and their order (R22–R25), and every figure the file states
(points, running totals, outcomes, S/O/P, winners) must equal what the engine recomputes, so a
changed or damaged file is refused with the first difference named. README.md, "Export format",
documents the file.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from datetime import datetime
from datetime import timedelta
from datetime import UTC
from typing import Any

import pytz

from .. import games
from ..bots import LEVELS
from ..engine import build_scorecard
from ..engine import check_bids
from ..engine import check_records
from ..engine import check_tricks
from ..engine import check_trump
from ..engine import HandRecord
from ..engine import Rules
from ..engine import RulesError
from ..engine import Suit
from ..engine.errors import Counted
from ..engine.errors import OrderError
from ..engine.errors import Phrase
from ..engine.errors import ScheduleError
from ..engine.rules import MAX_PLAYERS
from ..errors import BadRequest
from ..i18n import _
from ..i18n import N_
from ..i18n import select_timezone
from ..i18n import shown  # a value as the file wrote it, for messages
from ..models import Game
from ..models import NO_TRUMP
from ..models import utcnow

FORMAT = "bluke-scorekeeper"
FORMAT_VERSION = 1
#: A whole group's file (``GET /api/groups/<id>/export.json``): one game's export per entry of its ``games``.
GROUP_FORMAT = "bluke-scorekeeper-group"
#: The CSV header, written in the reader's language (the cells keep the API's notation).
CSV_COLUMNS = (
    N_("hand"),
    N_("cards"),
    N_("dealer"),
    N_("trump"),
    N_("player"),
    N_("bid"),
    N_("taken"),
    N_("points"),
    N_("total"),
    N_("outcome"),
)
CORRECTION_FIELDS = ("bids", "tricks", "trump", "undo")


# -- out -----------------------------------------------------------------------------------------
def iso(moment: datetime) -> str:
    """A stored (naive UTC) time as ISO 8601 with ``Z``."""
    return moment.isoformat() + "Z"


def export_document(
    game: Game, corrections: Iterable[Any] | None = None, bots: Mapping[int, str] | None = None
) -> dict[str, Any]:
    """The whole game: the game document of API.md, its corrections (``corrections``: as
    :func:`games.history` takes them), and the format's name and version. A virtual game's players
    say which seats a bot plays (``"bot": "strong"``; ``bots``: :func:`games.bot_seats`, when the
    caller has them already): imported into a group, they count for nobody."""
    document = games.document(game)
    bots = games.bot_seats(game) if bots is None else bots
    players = [
        player | ({"bot": bots[player["seat"]]} if player["seat"] in bots else {}) for player in document["players"]
    ]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": iso(utcnow()),
        **document,
        "players": players,
        "corrections": games.history(game, corrections),
    }


def spreadsheet_text(text: str) -> str:
    """A name as a CSV cell that spreadsheets show as text, never run as a formula (CSV injection).

    >>> spreadsheet_text("Ann"), spreadsheet_text("=1+1"), spreadsheet_text("-Bo")
    ('Ann', "'=1+1", "'-Bo")
    """
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def export_csv(game: Game) -> str:
    """One row per hand per player, every scheduled hand, empty cells where nothing is recorded."""
    card = games.scorecard_of(game)
    names = [spreadsheet_text(name) for name in game.players]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180
    writer.writerow([_(column) for column in CSV_COLUMNS])
    for hand in card.hands:
        for seat, name in enumerate(names):
            writer.writerow(
                [
                    hand.number,
                    hand.cards,
                    names[hand.dealer],
                    hand.trump or ("none" if hand.no_trump else ""),
                    name,
                    *(
                        values[seat] if values is not None else ""
                        for values in (hand.bids, hand.tricks, hand.points, hand.totals, hand.outcomes)
                    ),
                ]
            )
    return out.getvalue()


# -- in ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Imported:
    """An export file read and checked: what :func:`games.import_game` stores."""

    players: list[str]
    bots: dict[int, str]  # the seats a bot played, with its level: in a group they count for nobody
    variant: str
    options: dict[str, bool]
    first_dealer: int
    records: list[HandRecord]
    created_at: datetime | None = None
    corrections: list[dict[str, Any]] = field(default_factory=list)


def _get(
    data: Mapping[str, Any], key: str, kinds: tuple[type, ...], where: str, what: str, required: bool = True
) -> Any:
    """``data[key]`` when it has one of ``kinds`` (``None`` allowed when not required), else 400."""
    if key not in data or data[key] is None:
        if required:
            raise BadRequest(_("The file has no '{where}{key}': it should be {what}.", where=where, key=key, what=what))
        return None
    value = data[key]
    if not isinstance(value, kinds) or (int in kinds and isinstance(value, bool)):
        raise _malformed(where, key, what, value)
    return value


def _malformed(where: str, key: str, what: str, value: object) -> BadRequest:
    """The 400 for a value of the file that is not of the kind the app writes there."""
    return BadRequest(
        _(
            "The file's '{where}{key}' should be {what}, not {value}.",
            where=where,
            key=key,
            what=what,
            value=shown(value),
        )
    )


#: Dates a game can have been played on: this app did not exist before, and no game is in the future
#: (a day's grace for a wrong clock).
EARLIEST = datetime(2000, 1, 1)


#: An ISO 8601 date without a time (``2025-11-29``, ``20251129``).
_DAY_ONLY = re.compile(r"\d{4}-?\d{2}-?\d{2}")


def _time(text: str | None, where: str) -> datetime | None:
    """An ISO 8601 moment as naive UTC (as stored), a date alone as its noon in the importer's time
    zone, so that the date shows as written; out of range (year 1, year 9999) is a 400, not a crash."""
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
        moment = moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
        if _DAY_ONLY.fullmatch(text):  # the day's noon where the importer is (the phone's zone, else UTC)
            zone = pytz.timezone(select_timezone() or "UTC")
            moment = zone.localize(moment + timedelta(hours=12)).astimezone(UTC).replace(tzinfo=None)
    except ValueError:
        raise BadRequest(
            _(
                "The file's '{where}' {text} is not a date and time such as 2025-11-29T18:45:00Z.",
                where=where,
                text=shown(text),
            )
        ) from None
    except OverflowError:  # 0001-01-01T00:00:00+01:00 is before the first moment Python knows
        moment = datetime.min
    if not EARLIEST <= moment <= utcnow() + timedelta(days=1):
        raise BadRequest(
            _(
                "The file's '{where}' {text} is not a time a game was played: it should be between 2000 and now, such as "
                "2025-11-29T18:45:00Z.",
                where=where,
                text=shown(text),
            )
        )
    return moment


def read_header(data: object) -> Mapping[str, Any]:
    """The file must be a JSON object of this format and a version this app reads (else 400)."""
    if not isinstance(data, Mapping):
        raise BadRequest(_("An import must be the JSON object of an export.json file."))
    if data.get("format") == GROUP_FORMAT:
        raise BadRequest(
            _(
                "This is the export of a whole group: import its games one at a time, each entry of its "
                "'games' list as a file of its own."
            )
        )
    if data.get("format") != FORMAT:
        raise BadRequest(
            _(
                "This is not a Bluke Scorekeeper export: its 'format' is {value}, not {ours}.",
                value=shown(data.get("format")),
                ours=shown(FORMAT),
            )
        )
    version = data.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise BadRequest(
            _("The file's 'format_version' should be a whole number such as 1, not {version}.", version=shown(version))
        )
    if version > FORMAT_VERSION:
        raise BadRequest(
            _(
                "This file uses export format version {version}; this app reads version {ours}. Import it into a newer Bluke Scorekeeper.",
                version=version,
                ours=FORMAT_VERSION,
            )
        )
    return data


def read_players(data: Mapping[str, Any]) -> tuple[list[str], dict[int, str]]:
    """``players``: ``[{"seat": 0, "name": "Ann"}, …]`` in seat order; and the seats a bot played
    (``"bot": "strong"``, as a virtual game's export marks them)."""
    players = _get(data, "players", (list,), "", _('a list such as [{"seat": 0, "name": "Ann"}, …]'))
    if len(players) > MAX_PLAYERS:
        Rules(len(players))  # the engine refuses so many (R4) before each is read: a long list costs nothing
    names: list[str] = []
    bots: dict[int, str] = {}
    for index, player in enumerate(players):
        if not isinstance(player, Mapping):
            raise BadRequest(
                _(
                    'The file\'s players[{index}] should be an object such as {{"seat": {index}, "name": "Ann"}}, not {player}.',
                    index=index,
                    player=shown(player),
                )
            )
        seat = _get(player, "seat", (int,), f"players[{index}].", _("the seat number {index}", index=index))
        if seat != index:
            raise BadRequest(
                _(
                    "The file lists seat {seat} as player {player}: players must be in seat order 0, 1, 2…",
                    seat=seat,
                    player=index + 1,
                )
            )
        names.append(_get(player, "name", (str,), f"players[{index}].", _("the player's name")))
        bot = player.get("bot")
        if bot is not None and bot not in LEVELS:
            raise BadRequest(
                _(
                    "The file's players[{index}].bot should be a bot level ({levels}) or null, not {bot}.",
                    index=index,
                    levels=", ".join(LEVELS),
                    bot=shown(bot),
                )
            )
        if bot is not None:
            bots[index] = bot
    return games.clean_names(names), bots


def read_hands(data: Mapping[str, Any], rules: Rules) -> list[HandRecord]:
    """``hands`` as engine records; ``cards`` and ``dealer`` are kept as claims the engine checks (R24)."""
    hands = _get(data, "hands", (list,), "", _("the list of hands"))
    records = []
    for index, hand in enumerate(hands):
        where = f"hands[{index}]."
        if not isinstance(hand, Mapping):
            raise BadRequest(
                _(
                    "The file's hands[{index}] should be an object with the hand's entries, not {hand}.",
                    index=index,
                    hand=shown(hand),
                )
            )
        number = _get(hand, "number", (int,), where, _("the hand number {number}", number=index + 1))
        if number != index + 1:
            raise OrderError(
                "The file lists hand {number} where hand {place} belongs: hands must be listed in order, 1, 2, 3… (R25).",
                "R25",
                number=number,
                place=index + 1,
            )
        if number > rules.hand_count:
            rules.cards_in_hand(number)  # the engine refuses a hand past the schedule (R24): no more is read
        trump = _get(hand, "trump", (str,), where, _("S, H, D, C or null"), required=False)
        no_trump = _get(hand, "no_trump", (bool,), where, _("true or false"), required=False)
        try:
            suit = Suit.parse(trump)
        except RulesError as error:
            raise RulesError("The file's hand {number}: {error}", error.rule, number=number, error=error) from None
        records.append(
            HandRecord(
                bids=_numbers(hand, "bids", where),
                tricks=_numbers(hand, "tricks", where),
                trump=suit,
                no_trump=bool(no_trump),
                cards=_get(hand, "cards", (int,), where, _("the number of cards dealt"), required=False),
                dealer=_get(hand, "dealer", (int,), where, _("the dealer's seat number"), required=False),
            )
        )
    return records


def _numbers(hand: Mapping[str, Any], key: str, where: str) -> tuple[Any, ...] | None:
    """A list of whole numbers, or null; the engine checks each entry's range (R22, R23)."""
    what = _("a list with one whole number per player, or null")
    value = _get(hand, key, (list,), where, what, required=False)
    if value is not None and _wrong_type(value, [0] * len(value)):
        raise _malformed(where, key, what, value)
    return tuple(value) if value is not None else None


def _wrong_type(claimed: object, expected: object) -> bool:
    """Whether ``claimed`` holds a value of another type where ``expected`` (the app's own figure)
    holds a whole number, a text, a list or an object: a malformed file (400), not a wrong figure (422)."""
    if isinstance(expected, bool) or expected is None:
        return False
    if isinstance(expected, int):
        return isinstance(claimed, bool) or not isinstance(claimed, int)
    if isinstance(expected, str):
        return not isinstance(claimed, str)
    if isinstance(expected, list):
        return not isinstance(claimed, list) or any(_wrong_type(c, e) for c, e in zip(claimed, expected))
    if isinstance(expected, dict):
        return not isinstance(claimed, Mapping) or any(
            _wrong_type(claimed[k], v) for k, v in expected.items() if k in claimed
        )
    return False


def _typed(claimed: object, expected: object, where: str, key: str) -> None:
    """A figure of the file with the types the app writes, else 400 (README, "Export format")."""
    if _wrong_type(claimed, expected):
        raise _malformed(where, key, _("whole numbers and texts as this app writes them"), claimed)


MAX_CORRECTIONS = games.MAX_CORRECTIONS  # the same cap as a game being played: every export imports
UNDONE = {"bids": None, "tricks": None, "trump": None}


def read_corrections(data: Mapping[str, Any], rules: Rules, names: Sequence[str]) -> list[dict[str, Any]]:
    """The game's history of corrections, each checked as the app checks a real one (README, "Export format").

    A correction of bids or tricks holds two lists the engine accepts for that hand (R22, R23); one
    of trump two suits the hand can have (R12); an undo the hand's entries before and after
    (R25). Old and new differ. Nothing else is kept, so the history shows the same on every page.
    """
    items = _get(data, "corrections", (list,), "", _("a list of corrections"), required=False) or []
    if len(items) > MAX_CORRECTIONS:
        raise BadRequest(
            _("The file has {count} corrections; a game keeps at most {most}.", count=len(items), most=MAX_CORRECTIONS)
        )
    corrections = []
    for index, item in enumerate(items):
        where = f"corrections[{index}]."
        if not isinstance(item, Mapping):
            raise BadRequest(
                _("The file's corrections[{index}] should be an object, not {item}.", index=index, item=shown(item))
            )
        kind = _get(item, "field", (str,), where, _("one of {fields}", fields=", ".join(CORRECTION_FIELDS)))
        if kind not in CORRECTION_FIELDS:
            raise BadRequest(
                _(
                    "The file's '{where}field' should be one of {fields}, not {kind}.",
                    where=where,
                    fields=", ".join(CORRECTION_FIELDS),
                    kind=shown(kind),
                )
            )
        hand = _get(item, "hand", (int,), where, _("a hand number from 1 to {hands}", hands=rules.hand_count))
        if not 1 <= hand <= rules.hand_count:
            raise BadRequest(
                _(
                    "The file's '{where}hand' should be a hand number from 1 to {hands}, not {hand}.",
                    where=where,
                    hands=rules.hand_count,
                    hand=hand,
                )
            )
        old, new = item.get("old"), item.get("new")
        try:
            _check_change(rules, hand, kind, old, new, names)
        except RulesError as error:
            raise type(error)(
                N_(
                    "The file's corrections[{index}] ({kind}, hand {hand}) is not a change the app "
                    "could have made: {error} {damaged}"
                ),
                error.rule,
                index=index,
                kind=kind,
                hand=hand,
                error=error,
                damaged=DAMAGED,
            ) from None
        at = _time(_get(item, "at", (str,), where, _("a date and time")), where + "at")
        corrections.append({"at": at, "hand": hand, "field": kind, "old": old, "new": new})
    return corrections


def _check_change(rules: Rules, hand: int, kind: str, old: object, new: object, names: Sequence[str]) -> None:
    """One correction as the app records them (``table/service.py``); raises a RulesError otherwise."""
    if kind == "undo":
        entries = _entries(rules, hand, old, names)
        allowed = [UNDONE] + ([{**entries, "tricks": None}] if entries["tricks"] is not None else [])
        if not any(_same(new, after) for after in allowed):
            raise OrderError(
                "an undo leaves the hand empty or without its tricks, not {new} (R25).", "R25", new=shown(new)
            )
        return
    if _same(old, new):
        raise OrderError("its old and new {kind} are the same, {new} (R25).", "R25", kind=kind, new=shown(new))
    for value in (old, new):
        if kind == "trump":
            check_trump(rules, hand, _suit(value))
        else:
            _seat_list(rules, hand, kind, value, names)


def _suit(value: object) -> Suit | None:
    """A trump as the corrections history writes it: a suit, ``"-"`` (noted as none) or null (not noted)."""
    if value is not None and value not in ("S", "H", "D", "C", NO_TRUMP):
        raise RulesError(
            'a trump is S, H, D, C, "-" (no trump) or null (not noted), not {value} (R12).', "R12", value=shown(value)
        )
    return Suit.parse(value) if isinstance(value, str) and value != NO_TRUMP else None


def _seat_list(rules: Rules, hand: int, kind: str, value: object, names: Sequence[str]) -> None:
    """Bids or tricks for every seat, as the engine accepts them (R22, R23)."""
    if not isinstance(value, list):
        raise RulesError(
            "{kind} are a list with one number per player, not {value} ({rule}).",
            "R22" if kind == "bids" else "R23",
            kind=kind,
            value=shown(value),
            rule="R22" if kind == "bids" else "R23",
        )
    (check_bids if kind == "bids" else check_tricks)(rules, hand, value, names)


def _entries(rules: Rules, hand: int, value: object, names: Sequence[str]) -> dict[str, Any]:
    """A hand's entries ``{"bids", "tricks", "trump"}`` as an undo records them: bids, maybe tricks."""
    if not isinstance(value, Mapping) or set(value) != set(UNDONE):
        raise OrderError(
            "an undo keeps the hand's bids, tricks and trump, not {value} (R25).", "R25", value=shown(value)
        )
    _seat_list(rules, hand, "bids", value["bids"], names)
    if value["tricks"] is not None:
        _seat_list(rules, hand, "tricks", value["tricks"], names)
    check_trump(rules, hand, _suit(value["trump"]))
    return dict(value)


def read_export(data: object) -> Imported:
    """Read an export file and check it whole; raise 400 for a malformed file, 422 for a broken rule."""
    data = read_header(data)
    names, bots = read_players(data)
    options = _get(data, "options", (dict,), "", _('an object such as {"extended": false}'), required=False) or {}
    variant = _get(data, "variant", (str,), "", _("'standard' or 'new-jersey'"))
    first_dealer = _get(data, "first_dealer", (int,), "", _("the first dealer's seat number"))
    rules = Rules.build(len(names), variant, options)
    imported = Imported(
        players=names,
        bots=bots,
        variant=variant,
        options=options,
        first_dealer=first_dealer,
        records=read_hands(data, rules),
        created_at=_time(_get(data, "created_at", (str,), "", _("a date and time"), required=False), "created_at"),
        corrections=read_corrections(data, rules, names),
    )
    check_figures(rules, imported, data)
    return imported


# -- the file's figures against the engine's ----------------------------------------------------
def _same(claimed: object, expected: object) -> bool:
    """Equal as JSON: ``true`` is not 1, and ``41.0`` is not 41."""
    return json.dumps(claimed, sort_keys=True) == json.dumps(expected, sort_keys=True)


def _first_difference(claimed: object, expected: Sequence[Any]) -> int | None:
    """The first seat whose figure differs, when the file gives one figure per seat."""
    if isinstance(claimed, list) and len(claimed) == len(expected):
        return next((seat for seat, (c, e) in enumerate(zip(claimed, expected)) if not _same(c, e)), None)
    return None


DAMAGED = Phrase("The file was changed or damaged, so nothing was imported.")


def check_figures(rules: Rules, imported: Imported, data: Mapping[str, Any]) -> None:
    """Every figure the file states must be the engine's own; the first difference is named.

    :raises RulesError: R24 (schedule), R19/R20 (points, totals), R26 (outcomes, S/O/P),
        R21 (winners, status), or any rule the recorded hands break (R6, R22–R25).
    """
    names = imported.players
    check_records(rules, imported.first_dealer, imported.records, names)
    card = build_scorecard(rules, imported.first_dealer, imported.records).to_dict()

    if "schedule" in data and not _same(data["schedule"], card["schedule"]):
        number = _first_difference(data["schedule"], card["schedule"])
        if number is None:
            raise ScheduleError(
                "The file's schedule is not this game's: it has {hands} hands (R7–R11, R24). {damaged}",
                "R24",
                hands=len(card["schedule"]),
                damaged=DAMAGED,
            )
        cards = card["schedule"][number]
        raise ScheduleError(
            Counted(
                "The file's schedule is not this game's: hand {number} deals {cards} card, not {given} "
                "(R7–R11, R24). {damaged}",
                "The file's schedule is not this game's: hand {number} deals {cards} cards, not {given} "
                "(R7–R11, R24). {damaged}",
                cards,
            ),
            "R24",
            number=number + 1,
            cards=cards,
            given=shown(data["schedule"][number]),
            damaged=DAMAGED,
        )
    for key in ("totals", "stats", "winners"):
        if key in data:
            _typed(data[key], card[key], "", key)
    for hand, expected in zip(data["hands"], card["hands"]):
        n = expected["number"]
        for key in ("points", "totals", "outcomes"):
            if key not in hand or _same(hand[key], expected[key]):
                continue
            _typed(hand[key], expected[key], f"hands[{n - 1}].", key)
            claimed, seat = hand[key], _first_difference(hand[key], expected[key] or [])
            if expected[key] is None:
                raise OrderError(
                    "Hand {n} is not complete, so it has no {key}, but the file gives {claimed} (R25). {damaged}",
                    "R25",
                    n=n,
                    key=key,
                    claimed=shown(claimed),
                    damaged=DAMAGED,
                )
            if seat is None:
                rule = "R26" if key == "outcomes" else "R19"
                raise RulesError(
                    "Hand {n}: the file's {key} {claimed} should be {expected} ({rule}). {damaged}",
                    rule,
                    rule=rule,
                    n=n,
                    key=key,
                    claimed=shown(claimed),
                    expected=shown(expected[key]),
                    damaged=DAMAGED,
                )
            bid, taken = expected["bids"][seat], expected["tricks"][seat]
            made = expected["outcomes"][seat] != "S"
            if key == "points":
                raise RulesError(
                    "Hand {n}: {name} bid {bid} and took {taken}, which scores {expected} ({rule}), but the file says {claimed}. {damaged}",
                    "R19" if made else "R20",
                    n=n,
                    name=names[seat],
                    bid=bid,
                    taken=taken,
                    expected=expected[key][seat],
                    rule="R19" if made else "R20",
                    claimed=shown(claimed[seat]),
                    damaged=DAMAGED,
                )
            if key == "totals":
                raise RulesError(
                    "Hand {n}: {name}'s running total is {expected} (R19, R20), but the file says {claimed}. {damaged}",
                    "R19",
                    n=n,
                    name=names[seat],
                    expected=expected[key][seat],
                    claimed=shown(claimed[seat]),
                    damaged=DAMAGED,
                )
            raise RulesError(
                "Hand {n}: {name} bid {bid} and took {taken}, which is {expected} (R26), but the file says {claimed}. {damaged}",
                "R26",
                n=n,
                name=names[seat],
                bid=bid,
                taken=taken,
                expected=expected[key][seat],
                claimed=shown(claimed[seat]),
                damaged=DAMAGED,
            )
    _check_summary(data, card, names)


def _check_summary(data: Mapping[str, Any], card: Mapping[str, Any], names: Sequence[str]) -> None:
    """The game's totals, S/O/P tallies, winners and status."""
    if "totals" in data and not _same(data["totals"], card["totals"]):
        seat = _first_difference(data["totals"], card["totals"])
        if seat is None:
            raise RulesError(
                "The game's totals do not add up: the totals are {totals} (R19, R20), but the file says "
                "{claimed}. {damaged}",
                "R19",
                totals=shown(card["totals"]),
                claimed=shown(data["totals"]),
                damaged=DAMAGED,
            )
        raise RulesError(
            "The game's totals do not add up: {name}'s total is {total} (R19, R20), but the file says "
            "{claimed}. {damaged}",
            "R19",
            name=names[seat],
            total=card["totals"][seat],
            claimed=shown(data["totals"][seat]),
            damaged=DAMAGED,
        )
    if "stats" in data and not _same(data["stats"], card["stats"]):
        seat = _first_difference(data["stats"], card["stats"])
        if seat is not None and isinstance(data["stats"][seat], Mapping):
            claimed, expected = data["stats"][seat], card["stats"][seat]
            key = next((k for k in expected if not _same(claimed.get(k), expected[k])), None)
            if key is not None:
                raise RulesError(
                    "{name}'s '{key}' count is {expected} (R26), but the file says {claimed}. {damaged}",
                    "R26",
                    name=names[seat],
                    key=key,
                    expected=expected[key],
                    claimed=shown(claimed.get(key)),
                    damaged=DAMAGED,
                )
        raise RulesError(
            "The file's S/O/P statistics should be {stats} (R26). {damaged}",
            "R26",
            stats=shown(card["stats"]),
            damaged=DAMAGED,
        )
    if "winners" in data and not _same(data["winners"], card["winners"]):
        who = ", ".join(names[s] for s in card["winners"]) or Phrase("nobody yet (the game is not over)")
        raise RulesError(
            "The winner is {who} (R21), but the file says seats {claimed}. {damaged}",
            "R21",
            who=who,
            claimed=shown(data["winners"]),
            damaged=DAMAGED,
        )
    if "status" in data and data["status"] not in ("in_progress", "finished"):
        raise BadRequest(
            _("The file's status should be 'in_progress' or 'finished', not {claimed}.", claimed=shown(data["status"]))
        )
    if "status" in data and not _same(data["status"], card["status"]):
        raise RulesError(
            "This game is {status}: a game is finished when its last hand is complete (R21, R25), but the file says {claimed}. {damaged}",
            "R21",
            status=shown(card["status"]),
            claimed=shown(data["status"]),
            damaged=DAMAGED,
        )


def import_game(data: object, attach: games.Attach | None = None) -> tuple[Game, str, str]:
    """Check an export file and store it as a new game with new tokens; nothing is stored if it fails."""
    imported = read_export(data)
    return games.import_game(
        imported.players,
        imported.variant,
        imported.first_dealer,
        imported.options,
        imported.records,
        created_at=imported.created_at,
        corrections=imported.corrections,
        attach=attach,
        bots=imported.bots,
    )
