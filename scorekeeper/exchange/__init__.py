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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from .. import games
from ..engine import (HandRecord, Rules, RulesError, Suit, build_scorecard, check_bids, check_records,
                      check_trump, check_tricks)
from ..engine.errors import OrderError, ScheduleError
from ..models import Game, utcnow
from ..errors import BadRequest
from ..games import shown  # a value as the file wrote it, for messages

FORMAT = "bluke-scorekeeper"
FORMAT_VERSION = 1
CSV_COLUMNS = ("hand", "cards", "dealer", "trump", "player", "bid", "taken", "points", "total", "outcome")
CORRECTION_FIELDS = ("bids", "tricks", "trump", "undo")


# -- out -----------------------------------------------------------------------------------------
def iso(moment: datetime) -> str:
    """A stored (naive UTC) time as ISO 8601 with ``Z``."""
    return moment.isoformat() + "Z"


def export_document(game: Game) -> dict[str, Any]:
    """The whole game: the game document of API.md, its corrections, and the format's name and version."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": iso(utcnow()),
        **games.document(game),
        "corrections": games.history(game),
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
    writer.writerow(CSV_COLUMNS)
    for hand in card.hands:
        for seat, name in enumerate(names):
            writer.writerow([
                hand.number, hand.cards, names[hand.dealer], hand.trump or ("none" if hand.no_trump else ""), name,
                *(values[seat] if values is not None else "" for values in
                  (hand.bids, hand.tricks, hand.points, hand.totals, hand.outcomes)),
            ])
    return out.getvalue()


# -- in ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Imported:
    """An export file read and checked: what :func:`games.import_game` stores."""

    players: list[str]
    variant: str
    options: dict[str, bool]
    first_dealer: int
    records: list[HandRecord]
    created_at: datetime | None = None
    corrections: list[dict[str, Any]] = field(default_factory=list)


def _get(data: Mapping[str, Any], key: str, kinds: tuple[type, ...], where: str, what: str,
         required: bool = True) -> Any:
    """``data[key]`` when it has one of ``kinds`` (``None`` allowed when not required), else 400."""
    if key not in data or data[key] is None:
        if required:
            raise BadRequest(f"The file has no '{where}{key}': it should be {what}.")
        return None
    value = data[key]
    if not isinstance(value, kinds) or (int in kinds and isinstance(value, bool)):
        raise BadRequest(f"The file's '{where}{key}' should be {what}, not {shown(value)}.")
    return value


#: Dates a game can have been played on: this app did not exist before, and no game is in the future
#: (a day's grace for a wrong clock).
EARLIEST = datetime(2000, 1, 1)


def _time(text: str | None, where: str) -> datetime | None:
    """An ISO 8601 moment as naive UTC (as stored); out of range (year 1, year 9999) is a 400, not a crash."""
    if text is None:
        return None
    example = "such as 2025-11-29T18:45:00Z"
    try:
        moment = datetime.fromisoformat(text)
        moment = moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
    except ValueError:
        raise BadRequest(f"The file's '{where}' {shown(text)} is not a date and time {example}.") from None
    except OverflowError:  # 0001-01-01T00:00:00+01:00 is before the first moment Python knows
        moment = datetime.min
    if not EARLIEST <= moment <= utcnow() + timedelta(days=1):
        raise BadRequest(f"The file's '{where}' {shown(text)} is not a time a game was played: it should be "
                         f"between 2000 and now, {example}.")
    return moment


def read_header(data: object) -> Mapping[str, Any]:
    """The file must be a JSON object of this format and a version this app reads (else 400)."""
    if not isinstance(data, Mapping):
        raise BadRequest("An import must be the JSON object of an export.json file.")
    if data.get("format") != FORMAT:
        raise BadRequest(f"This is not a Bluke Scorekeeper export: its 'format' is {shown(data.get('format'))}, "
                         f"not {shown(FORMAT)}.")
    version = data.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise BadRequest(f"The file's 'format_version' should be a whole number such as 1, not {shown(version)}.")
    if version > FORMAT_VERSION:
        raise BadRequest(f"This file uses export format version {version}; this app reads version "
                         f"{FORMAT_VERSION}. Import it into a newer Bluke Scorekeeper.")
    return data


def read_players(data: Mapping[str, Any]) -> list[str]:
    """``players``: ``[{"seat": 0, "name": "Ann"}, …]`` in seat order."""
    players = _get(data, "players", (list,), "", 'a list such as [{"seat": 0, "name": "Ann"}, …]')
    names = []
    for index, player in enumerate(players):
        if not isinstance(player, Mapping):
            raise BadRequest(f"The file's players[{index}] should be an object such as {{\"seat\": {index}, "
                             f"\"name\": \"Ann\"}}, not {shown(player)}.")
        seat = _get(player, "seat", (int,), f"players[{index}].", f"the seat number {index}")
        if seat != index:
            raise BadRequest(f"The file lists seat {seat} as player {index + 1}: players must be in seat order 0, 1, 2…")
        names.append(_get(player, "name", (str,), f"players[{index}].", "the player's name"))
    return games.clean_names(names)


def read_hands(data: Mapping[str, Any]) -> list[HandRecord]:
    """``hands`` as engine records; ``cards`` and ``dealer`` are kept as claims the engine checks (R24)."""
    hands = _get(data, "hands", (list,), "", "the list of hands")
    records = []
    for index, hand in enumerate(hands):
        where = f"hands[{index}]."
        if not isinstance(hand, Mapping):
            raise BadRequest(f"The file's hands[{index}] should be an object with the hand's entries, not {shown(hand)}.")
        number = _get(hand, "number", (int,), where, f"the hand number {index + 1}")
        if number != index + 1:
            raise OrderError(f"The file lists hand {number} where hand {index + 1} belongs: hands must be "
                             "listed in order, 1, 2, 3… (R25).", "R25")
        trump = _get(hand, "trump", (str,), where, "S, H, D, C or null", required=False)
        no_trump = _get(hand, "no_trump", (bool,), where, "true or false", required=False)
        records.append(HandRecord(
            bids=_numbers(hand, "bids", where),
            tricks=_numbers(hand, "tricks", where),
            trump=Suit.parse(trump),
            no_trump=bool(no_trump),
            cards=_get(hand, "cards", (int,), where, "the number of cards dealt", required=False),
            dealer=_get(hand, "dealer", (int,), where, "the dealer's seat number", required=False),
        ))
    return records


def _numbers(hand: Mapping[str, Any], key: str, where: str) -> tuple[Any, ...] | None:
    """A list of per-seat entries, or null; the engine checks each entry (R22, R23)."""
    value = _get(hand, key, (list,), where, "a list with one number per player, or null", required=False)
    return tuple(value) if value is not None else None


MAX_CORRECTIONS = games.MAX_CORRECTIONS  # the same cap as a game being played: every export imports
UNDONE = {"bids": None, "tricks": None, "trump": None}


def read_corrections(data: Mapping[str, Any], rules: Rules, names: Sequence[str]) -> list[dict[str, Any]]:
    """The game's history of corrections, each checked as the app checks a real one (README, "Export format").

    A correction of bids or tricks holds two lists the engine accepts for that hand (R22, R23); one
    of trump two suits the hand can have (R12); an undo the hand's entries before and after
    (R25). Old and new differ. Nothing else is kept, so the history shows the same on every page.
    """
    items = _get(data, "corrections", (list,), "", "a list of corrections", required=False) or []
    if len(items) > MAX_CORRECTIONS:
        raise BadRequest(f"The file has {len(items)} corrections; a game keeps at most {MAX_CORRECTIONS}.")
    corrections = []
    for index, item in enumerate(items):
        where = f"corrections[{index}]."
        if not isinstance(item, Mapping):
            raise BadRequest(f"The file's corrections[{index}] should be an object, not {shown(item)}.")
        kind = _get(item, "field", (str,), where, "one of " + ", ".join(CORRECTION_FIELDS))
        if kind not in CORRECTION_FIELDS:
            raise BadRequest(f"The file's '{where}field' should be one of {', '.join(CORRECTION_FIELDS)}, not {shown(kind)}.")
        hand = _get(item, "hand", (int,), where, f"a hand number from 1 to {rules.hand_count}")
        if not 1 <= hand <= rules.hand_count:
            raise BadRequest(f"The file's '{where}hand' should be a hand number from 1 to {rules.hand_count}, not {hand}.")
        old, new = item.get("old"), item.get("new")
        try:
            _check_change(rules, hand, kind, old, new, names)
        except RulesError as error:
            raise type(error)(f"The file's corrections[{index}] ({kind}, hand {hand}) is not a change the app "
                              f"could have made: {error} {DAMAGED}", error.rule) from None
        at = _time(_get(item, "at", (str,), where, "a date and time"), where + "at")
        corrections.append({"at": at, "hand": hand, "field": kind, "old": old, "new": new})
    return corrections


def _check_change(rules: Rules, hand: int, kind: str, old: object, new: object, names: Sequence[str]) -> None:
    """One correction as the app records them (``table/service.py``); raises a RulesError otherwise."""
    if kind == "undo":
        entries = _entries(rules, hand, old, names)
        allowed = [UNDONE] + ([{**entries, "tricks": None}] if entries["tricks"] is not None else [])
        if not any(_same(new, after) for after in allowed):
            raise OrderError(f"an undo leaves the hand empty or without its tricks, not {shown(new)} (R25).", "R25")
        return
    if _same(old, new):
        raise OrderError(f"its old and new {kind} are the same, {shown(new)} (R25).", "R25")
    for value in (old, new):
        if kind == "trump":
            check_trump(rules, hand, _suit(value))
        else:
            _seat_list(rules, hand, kind, value, names)


def _suit(value: object) -> Suit | None:
    if value is not None and value not in ("S", "H", "D", "C"):
        raise RulesError(f"a trump is S, H, D, C or null, not {shown(value)} (R12).", "R12")
    return Suit.parse(value) if isinstance(value, str) else None


def _seat_list(rules: Rules, hand: int, kind: str, value: object, names: Sequence[str]) -> None:
    """Bids or tricks for every seat, as the engine accepts them (R22, R23)."""
    if not isinstance(value, list):
        raise RulesError(f"{kind} are a list with one number per player, not {shown(value)} "
                         f"({'R22' if kind == 'bids' else 'R23'}).", "R22" if kind == "bids" else "R23")
    (check_bids if kind == "bids" else check_tricks)(rules, hand, value, names)


def _entries(rules: Rules, hand: int, value: object, names: Sequence[str]) -> dict[str, Any]:
    """A hand's entries ``{"bids", "tricks", "trump"}`` as an undo records them: bids, maybe tricks."""
    if not isinstance(value, Mapping) or set(value) != set(UNDONE):
        raise OrderError(f"an undo keeps the hand's bids, tricks and trump, not {shown(value)} (R25).", "R25")
    _seat_list(rules, hand, "bids", value["bids"], names)
    if value["tricks"] is not None:
        _seat_list(rules, hand, "tricks", value["tricks"], names)
    check_trump(rules, hand, _suit(value["trump"]))
    return dict(value)


def read_export(data: object) -> Imported:
    """Read an export file and check it whole; raise 400 for a malformed file, 422 for a broken rule."""
    data = read_header(data)
    names = read_players(data)
    options = _get(data, "options", (dict,), "", 'an object such as {"extended": false}', required=False) or {}
    variant = _get(data, "variant", (str,), "", "'standard' or 'new-jersey'")
    first_dealer = _get(data, "first_dealer", (int,), "", "the first dealer's seat number")
    rules = Rules.build(len(names), variant, options)
    imported = Imported(
        players=names, variant=variant, options=options, first_dealer=first_dealer, records=read_hands(data),
        created_at=_time(_get(data, "created_at", (str,), "", "a date and time", required=False), "created_at"),
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
        return next(seat for seat, (c, e) in enumerate(zip(claimed, expected)) if not _same(c, e))
    return None


DAMAGED = "The file was changed or damaged, so nothing was imported."


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
        where = (f"hand {number + 1} deals {card['schedule'][number]} cards, not {shown(data['schedule'][number])}"
                 if number is not None else f"it has {len(card['schedule'])} hands")
        raise ScheduleError(f"The file's schedule is not this game's: {where} (R7–R11, R24). {DAMAGED}", "R24")
    for hand, expected in zip(data["hands"], card["hands"]):
        n = expected["number"]
        for key in ("points", "totals", "outcomes"):
            if key not in hand or _same(hand[key], expected[key]):
                continue
            claimed, seat = hand[key], _first_difference(hand[key], expected[key] or [])
            if expected[key] is None:
                raise OrderError(f"Hand {n} is not complete, so it has no {key}, but the file gives "
                                 f"{shown(claimed)} (R25). {DAMAGED}", "R25")
            if seat is None:
                raise RulesError(f"Hand {n}: the file's {key} {shown(claimed)} should be {shown(expected[key])}. {DAMAGED}",
                                 "R26" if key == "outcomes" else "R19")
            bid, taken = expected["bids"][seat], expected["tricks"][seat]
            made = expected["outcomes"][seat] != "S"
            if key == "points":
                raise RulesError(f"Hand {n}: {names[seat]} bid {bid} and took {taken}, which scores "
                                 f"{expected[key][seat]} ({'R19' if made else 'R20'}), but the file says "
                                 f"{shown(claimed[seat])}. {DAMAGED}", "R19" if made else "R20")
            if key == "totals":
                raise RulesError(f"Hand {n}: {names[seat]}'s running total is {expected[key][seat]} "
                                 f"(R19, R20), but the file says {shown(claimed[seat])}. {DAMAGED}", "R19")
            raise RulesError(f"Hand {n}: {names[seat]} bid {bid} and took {taken}, which is "
                             f"{expected[key][seat]} (R26), but the file says {shown(claimed[seat])}. {DAMAGED}", "R26")
    _check_summary(data, card, names)


def _check_summary(data: Mapping[str, Any], card: Mapping[str, Any], names: Sequence[str]) -> None:
    """The game's totals, S/O/P tallies, winners and status."""
    if "totals" in data and not _same(data["totals"], card["totals"]):
        seat = _first_difference(data["totals"], card["totals"])
        who = f"{names[seat]}'s total is {card['totals'][seat]}" if seat is not None else f"the totals are {shown(card['totals'])}"
        raise RulesError(f"The game's totals do not add up: {who} (R19, R20), but the file says "
                         f"{shown(data['totals'] if seat is None else data['totals'][seat])}. {DAMAGED}", "R19")
    if "stats" in data and not _same(data["stats"], card["stats"]):
        seat = _first_difference(data["stats"], card["stats"])
        if seat is not None and isinstance(data["stats"][seat], Mapping):
            claimed, expected = data["stats"][seat], card["stats"][seat]
            key = next((k for k in expected if not _same(claimed.get(k), expected[k])), None)
            if key is not None:
                    raise RulesError(f"{names[seat]}'s '{key}' count is {expected[key]} (R26), but the file says "
                                 f"{shown(claimed.get(key))}. {DAMAGED}", "R26")
        raise RulesError(f"The file's S/O/P statistics should be {shown(card['stats'])} (R26). {DAMAGED}", "R26")
    if "winners" in data and not _same(data["winners"], card["winners"]):
        who = " and ".join(names[s] for s in card["winners"]) or "nobody yet (the game is not over)"
        raise RulesError(f"The winner is {who} (R21), but the file says seats {shown(data['winners'])}. {DAMAGED}", "R21")
    if "status" in data and not _same(data["status"], card["status"]):
        raise RulesError(f"This game is {shown(card['status'])}: a game is finished when its last hand is complete "
                         f"(R21, R25), but the file says {shown(data['status'])}. {DAMAGED}", "R21")


def import_game(data: object, attach: games.Attach | None = None) -> tuple[Game, str, str]:
    """Check an export file and store it as a new game with new tokens; nothing is stored if it fails."""
    imported = read_export(data)
    return games.import_game(
        imported.players, imported.variant, imported.first_dealer, imported.options, imported.records,
        created_at=imported.created_at, corrections=imported.corrections, attach=attach,
    )
