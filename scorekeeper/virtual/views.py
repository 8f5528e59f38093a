"""What a seat receives — the one place hidden information is filtered (STYLE.md).

Every answer for a virtual table is built here: the JSON view, the seat page and its polled
partial, the host's view, and error messages. :func:`seat_view` wraps the engine's
:meth:`~scorekeeper.engine.Game.view_for` (which already leaves out other hands and the undealt
cards) and only adds public facts: names, bots, version, phase, the previous hand's result and,
for the seat's own cards, why each one cannot be played now. :func:`error_body` passes every
error message through :func:`redact`, so not even an echoed card can leak.
"""

from __future__ import annotations

import re
from typing import Any

from ..engine import Card
from ..engine import DECK
from ..engine import Game
from ..engine import RulesError
from ..engine import Scorecard
from ..engine.tricks import check_play
from ..engine.tricks import trick_winner
from ..errors import error_body as _error_shape
from ..errors import rules_status
from ..errors import ServiceError
from ..i18n import _
from ..i18n import _n
from ..i18n import card_label
from ..i18n import error_message as said
from ..i18n import rules_message
from ..i18n import spoken_card
from ..i18n import suit_name as local_suit_name
from ..models import VirtualTable
from .service import first_dealer
from .service import load_state
from .service import log_of
from .service import rules_of

CODE_RE = re.compile(r"\b(?:[2-9TJQKA][SHDC]|HB|LB)\b")


# -- what a seat may see -------------------------------------------------------------------------
def public_cards(game: Game | None) -> set[str]:
    """Cards every seat sees: the turn-up, the trick on the table, this hand's tricks, the last trick."""
    if game is None:
        return set()
    plays = [*game.trick, *game.last_trick, *(p for t in game.played for p in t)]
    cards = {str(c) for _, c in plays}
    if game.turn_up is not None and game.phase in ("bidding", "playing"):
        cards.add(str(game.turn_up))
    return cards


def visible_cards(table: VirtualTable, seat: int | None) -> set[str]:
    """Cards ``seat`` (``None``: the host) can see at a real table right now."""
    game = load_state(table)
    mine = hand_holder(table, seat)
    own = {str(c) for c in game.hands[mine]} if game is not None and mine is not None else set()
    return public_cards(game) | own


def hand_holder(table: VirtualTable, seat: int | None) -> int | None:
    """The seat whose hand the reader holds: its own while its person plays it. The host holds
    none, and while a bot plays a seat its hand is the bot's: whoever holds the seat's link sees
    the table, not the cards, and is never told it is their turn."""
    return seat if seat is not None and not table.seats[seat].get("bot") else None


def redact(message: str, visible: set[str]) -> str:
    """Replace any card the reader cannot see (code, or label in the reader's language) with "that card"."""
    that_card = _("that card")

    def code(match: re.Match[str]) -> str:
        return match.group(0) if match.group(0) in visible else that_card

    labels = {card_label(card): str(card) for card in DECK}
    label_re = re.compile("|".join(re.escape(text) for text in sorted(labels, key=len, reverse=True)))

    def label(match: re.Match[str]) -> str:
        return match.group(0) if labels[match.group(0)] in visible else that_card

    text = label_re.sub(label, CODE_RE.sub(code, message))
    return text[:1].upper() + text[1:]


def error_message(table: VirtualTable | None, seat: int | None, error: Exception) -> str:
    """An error's sentence for this reader, with hidden cards redacted."""
    message = said(error)
    visible = visible_cards(table, seat) if table is not None else set()
    return redact(message, visible)


def error_body(table: VirtualTable | None, seat: int | None, error: Exception) -> tuple[int, dict[str, Any]]:
    """Status and API error shape for a refused request, built for this reader."""
    if isinstance(error, ServiceError):
        status, code, rule = error.status, error.code, error.rule
    else:
        assert isinstance(error, RulesError)
        status, rule, code = rules_status(error)
    return status, _error_shape(status, error_message(table, seat, error), rule, code)


# -- the view ------------------------------------------------------------------------------------
def _lobby_view(table: VirtualTable) -> dict[str, Any]:
    rules = rules_of(table)
    n = rules.players
    return {
        "seat": None,
        "phase": "lobby",
        "hand_number": 0,
        "cards": rules.cards_in_hand(1),
        "dealer": table.game.first_dealer,
        "turn_up": None,
        "trump": None,
        "hand": [],
        "to_act": None,
        "legal": [],
        "bids": [None] * n,
        "trick": [],
        "last_trick": None,
        "tricks_played": [],
        "tricks_taken": [0] * n,
        "totals": [0] * n,
    }


def _blocked(game: Game, seat: int, names: list[str]) -> dict[str, str]:
    """Why each of the seat's cards cannot be played now (the engine's own messages)."""
    hand = game.hands[seat]
    if game.phase == "bidding":
        return {str(c): _("Cards are played once everyone has bid.") for c in hand}
    if game.phase != "playing" or game.to_act is None:
        return {}
    if game.to_act != seat:
        why = _("Wait for your turn: {name} plays next.", name=names[game.to_act])
        return {str(c): why for c in hand}
    led = game.trick[0][1] if game.trick else None
    reasons: dict[str, str] = {}
    for card in hand:
        try:
            check_play(card, hand, led, game.trump, game.rules.new_jersey)
        except RulesError as error:
            reasons[str(card)] = rules_message(error)
    return reasons


def _last_winner(game: Game) -> int | None:
    """Who took this hand's latest finished trick."""
    if not game.last_trick:
        return None
    return trick_winner(game.last_trick, game.trump, game.rules.new_jersey)


def _previous(game: Game, card: Scorecard) -> dict[str, Any] | None:
    """The last finished hand's line of the scorecard (bids, tricks, points, totals)."""
    if not game.records:
        return None
    line = card.hands[len(game.records) - 1]
    return {
        "number": line.number,
        "cards": line.cards,
        "dealer": line.dealer,
        "trump": line.trump,
        "bids": line.bids,
        "tricks": line.tricks,
        "points": line.points,
        "totals": line.totals,
        "outcomes": line.outcomes,
    }


def _final_trick(log: list[dict[str, Any]], number: int) -> tuple[list[dict[str, Any]], int | None]:
    """The last trick of hand ``number`` from the move log, and who took it."""
    plays = [e for e in log if e["hand"] == number and "card" in e]
    end = next((i for i in range(len(plays) - 1, -1, -1) if plays[i].get("won_by") is not None), None)
    if end is None:
        return [], None
    start = next((i + 1 for i in range(end - 1, -1, -1) if plays[i].get("won_by") is not None), 0)
    return [{"seat": e["seat"], "card": e["card"]} for e in plays[start : end + 1]], plays[end]["won_by"]


def seat_view(table: VirtualTable, seat: int | None, since: int | None = None) -> dict[str, Any]:
    """Everything ``seat`` (``None``: the host, who gets no hand) receives about the table.

    The engine's view of the seat plus public table facts; the only cards in it are the seat's
    own hand and cards that lie or lay face up on the table: ``moves`` (every bid and card since
    move ``since``, for the screen to replay at a human pace) and the previous hand's last trick.
    While a bot plays the seat its hand is the bot's, and nobody's screen shows it: whoever holds
    the seat's link (its player who stepped away, or the host who handed the link on) sees the
    table, not the cards, until the seat is handed back to a person.
    """
    game = load_state(table)
    rules = rules_of(table)
    names = [s["name"] for s in table.seats]
    mine = hand_holder(table, seat)
    if game is None:
        view = _lobby_view(table)
    else:
        view = game.view_for(seat if seat is not None else 0)
        if mine is None:
            view.update(hand=[], legal=[])
    card = game.scorecard() if game is not None else None
    log = log_of(table)
    previous = _previous(game, card) if game is not None and card is not None else None
    if previous is not None:
        previous["last_trick"], previous["last_trick_winner"] = _final_trick(log, previous["number"])
    state = table.state or {}
    phase = "lobby" if game is None else ("bidding" if view["phase"] == "dealing" else view["phase"])
    to_act = view["to_act"] if phase in ("bidding", "playing") else None
    drawn_shown = game is None or (not game.records and phase == "bidding")
    view.update(
        table_id=table.id,
        game_id=table.game_id,
        seat=seat,
        name=names[seat] if seat is not None else None,
        phase=phase,
        to_act=to_act,
        your_turn=mine is not None and to_act == mine,
        hand_count=rules.hand_count,
        variant=rules.variant.value,
        options=rules.options,
        first_dealer=first_dealer(table),
        players=[
            {
                "seat": i,
                "name": s["name"],
                "bot": s.get("bot"),
                # a person takes the seat at this hand: its bot finishes the one it was dealt
                "person_from": s.get("person_from"),
                # ... or the host made a new link for it during this hand, which shows none of its cards
                "relinked_in": s.get("relinked_in"),
                "joined": bool(s.get("joined")),
                "relinked": int(s.get("relinked") or 0),
                # the draw for first dealer (R6): its cards went back before the deal; the lobby shows
                # them, and so does hand 1 while it is bid, for a table dealt at once
                "drew": list(s.get("drew") or ()) if drawn_shown else [],
            }
            for i, s in enumerate(table.seats)
        ],
        moves=[e for e in log if since is None or e["seq"] > since],
        seq=log[-1]["seq"] if log else 0,
        bots_thinking=phase in ("bidding", "playing") and to_act is not None and bool(table.seats[to_act].get("bot")),
        confirm_play=bool(table.seats[seat].get("confirm")) if seat is not None else False,
        rematch=state.get("rematch"),
        blocked=_blocked(game, mine, names) if game is not None and mine is not None else {},
        previous=previous,
        last_trick_winner=_last_winner(game) if game is not None else None,
        winners=card.winners if card is not None and phase == "finished" else [],
        version=table.version,
    )
    return view


# -- helpers for the templates -------------------------------------------------------------------
def card_face(code: str) -> dict[str, str]:
    """How a card is drawn: rank text, suit pip, colour class, the short ``label`` it reads as on
    screen and in messages (``Q♠``), the ``name`` a screen reader says (``queen of spades``) and the
    name of a button showing it, which holds the rank it shows (``Q, queen of spades``: someone
    using voice control says what they see, WCAG 2.5.3)."""
    card = Card.parse(code)
    label, name = card_label(card), spoken_card(card)
    if card.is_bluke:
        high = code == "HB"
        rank, pip, color = (_("Hi") if high else _("Lo")), ("★" if high else "☆"), "bluke"
    else:
        assert card.suit is not None
        rank, pip, color = label[:-1], card.suit.symbol, "red" if card.suit.value in "HD" else "black"
    control = name if name.split()[0].casefold() == rank.casefold() else f"{rank}, {name}"
    return {"code": code, "rank": rank, "pip": pip, "color": color, "label": label, "name": name, "control": control}


#: Where each seat sits around the table, counted clockwise from the reader (at the bottom), for
#: 2–8 players; a larger table is drawn as a compact list. Grid areas of ``.vt-ring`` in CSS.
SPOTS = {
    2: ("b", "t"),
    3: ("b", "tl", "tr"),
    4: ("b", "l", "t", "r"),
    5: ("b", "l", "tl", "tr", "r"),
    6: ("b", "l", "tl", "t", "tr", "r"),
    7: ("b", "bl", "l", "tl", "tr", "r", "br"),
    8: ("b", "bl", "l", "tl", "t", "tr", "r", "br"),
}


def table_seats(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The seats around the table as the reader sees them: where each sits, and its public facts.

    Name, bot, dealer, whose turn, bid, tricks taken and still needed, and the card it played in
    this trick; all of it is in the view already, so nothing new leaves the server.
    """
    players = view["players"]
    n = len(players)
    me = view["seat"] if view["seat"] is not None else 0
    spots = SPOTS.get(n)
    played = {p["seat"]: p["card"] for p in view["trick"]}
    live = view["phase"] in ("bidding", "playing")
    out = []
    for k in range(n):
        seat = (me + k) % n
        bid = view["bids"][seat]
        taken = view["tricks_taken"][seat] if view["phase"] == "playing" else None
        out.append(
            {
                "seat": seat,
                "name": players[seat]["name"],
                "bot": players[seat]["bot"],
                "spot": spots[k] if spots else "list",
                "you": seat == view["seat"],
                "dealer": live and seat == view["dealer"],
                "acting": seat == view["to_act"],
                "bid": bid,
                "taken": taken,
                "need": max(bid - taken, 0) if bid is not None and taken is not None else None,
                "card": played.get(seat),
            }
        )
    return out if spots else sorted(out, key=lambda spot: spot["seat"])


def center_line(view: dict[str, Any]) -> str:
    """What the middle of the table says: who leads, or which trick this is."""
    if view["phase"] != "playing":
        return ""
    names = [p["name"] for p in view["players"]]
    trick = _("Trick {number} of {count}", number=len(view["tricks_played"]) + 1, count=view["cards"])
    if not view["trick"] and view["to_act"] is not None:
        who = _("You lead") if view["your_turn"] else _("{name} leads", name=names[view["to_act"]])
        return f"{trick}: {who}"
    return trick


def suit_name(letter: str | None) -> str:
    """``"S"`` → ``"spades"``; ``None`` → ``"no trump"`` (in the reader's language)."""
    return local_suit_name(letter)


def signed(points: int) -> str:
    """Points as players say them: ``+32``, ``−40`` (a real minus sign), ``0``."""
    return f"+{points}" if points > 0 else f"\u2212{-points}" if points < 0 else "0"


def status_line(view: dict[str, Any]) -> str:
    """One sentence saying what happens now, in plain words."""
    names = [p["name"] for p in view["players"]]
    phase, to_act = view["phase"], view["to_act"]
    if phase == "lobby":
        if view["seat"] is None:
            return _("Send everyone their link, then deal the first hand.")
        return _("Waiting for the host to deal the first hand.")
    if phase == "finished":
        winners = [names[s] for s in view["winners"]]
        best = max(view["totals"]) if view["totals"] else 0
        who = ", ".join(winners)
        if view["seat"] is not None and view["seat"] in view["winners"]:
            if len(winners) > 1:
                return _("You share the win with {points}!", points=signed(best))
            return _("You win with {points}!", points=signed(best))
        if len(winners) > 1:
            return _("{who} share the win with {points}.", who=who, points=signed(best))
        return _("{who} wins with {points}.", who=who, points=signed(best))
    if view["your_turn"]:
        return _("Your turn: bid.") if phase == "bidding" else _("Your turn: play a card.")
    if to_act is None:
        return ""
    if to_act == view["seat"]:  # the host handed this seat to a bot, whose move is still to come
        return _("A bot bids for you now.") if phase == "bidding" else _("A bot plays for you now.")
    if phase == "bidding":
        return _("Waiting for {name} to bid.", name=names[to_act])
    return _("Waiting for {name} to play.", name=names[to_act])


def rules_line(view: dict[str, Any]) -> str:
    """The rules in use, as players agree them before a game: variant and options (R9–R11, R13, R18)."""
    parts = [_("New Jersey (R18)") if view["variant"] == "new-jersey" else _("Standard rules")]
    options = view["options"]
    if options.get("extended"):
        parts.append(_("extended game (R9)"))
    if options.get("all_cards_hand"):
        parts.append(_("all-cards final hand (R10)"))
    if options.get("zero_bids"):
        parts.append(_("bids of 0 allowed (R13)"))
    return _n("{parts}; {n} hand.", "{parts}; {n} hands.", view["hand_count"], parts=", ".join(parts))


def bids_line(view: dict[str, Any]) -> str:
    """ "Bids 11 for 13 tricks — 2 under", once every bid is in."""
    bids = view["bids"]
    if view["phase"] != "playing" or any(b is None for b in bids):
        return ""
    total, cards = sum(bids), view["cards"]
    if total == cards:
        return _n(
            "Bids {total} for {n} trick: exactly even", "Bids {total} for {n} tricks: exactly even", cards, total=total
        )
    if total > cards:
        return _n(
            "Bids {total} for {n} trick: {diff} over",
            "Bids {total} for {n} tricks: {diff} over",
            cards,
            total=total,
            diff=total - cards,
        )
    return _n(
        "Bids {total} for {n} trick: {diff} under",
        "Bids {total} for {n} tricks: {diff} under",
        cards,
        total=total,
        diff=cards - total,
    )
