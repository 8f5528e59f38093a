"""The Rules page: a short summary of Bluke in each language, one anchor per rule (R1–R28).

Error messages name their rule ("… (R23)."); :func:`rule_links` turns each number into a link to
its paragraph here, so a player can read the rule in their own language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import Blueprint
from flask import Flask
from flask import render_template
from flask import url_for
from markupsafe import escape
from markupsafe import Markup

from .i18n import N_

bp = Blueprint("rulebook", __name__)


@dataclass(frozen=True)
class Rule:
    """One numbered rule: its number (the anchor), a short title and the rule in a few sentences."""

    number: str
    title: str
    text: str


@dataclass(frozen=True)
class Part:
    """A heading and the rules under it."""

    title: str
    rules: tuple[Rule, ...]


#: Our own short summary of RULES.md, part by part; the numbers are the rule book's.
PARTS: tuple[Part, ...] = (
    Part(
        N_("Cards"),
        (
            Rule(
                "R1",
                N_("The deck"),
                N_(
                    "A 52-card deck plus two jokers, the Hi Bluke and the Lo Bluke: 54 cards. "
                    "Agree before play which joker is the Hi one."
                ),
            ),
            Rule("R2", N_("Rank"), N_("Within a suit the ace is high: A K Q J 10 9 8 7 6 5 4 3 2.")),
            Rule(
                "R3",
                N_("Power in a trick"),
                N_(
                    "The Hi Bluke beats everything, then the Lo Bluke, then any trump, "
                    "then the suit led. Other cards never win: the 2 of trumps beats an "
                    "ace of another suit."
                ),
            ),
        ),
    ),
    Part(
        N_("Players and the deal"),
        (
            Rule("R4", N_("Players"), N_("From 2 to 15 players; 3 or 4 is best.")),
            Rule(
                "R5",
                N_("Clockwise"),
                N_(
                    "Everything goes to the left: dealing, bidding, play, and the deal itself, "
                    "which passes to the left after every hand."
                ),
            ),
            Rule(
                "R6",
                N_("First dealer and scorer"),
                N_(
                    "Everyone draws a card: the highest deals first, the lowest "
                    "keeps score. The Blukes draw highest, suits do not count, tied "
                    "players draw again. The scorer may also simply choose the "
                    "first dealer."
                ),
            ),
        ),
    ),
    Part(
        N_("How many cards"),
        (
            Rule(
                "R7",
                N_("2 to 4 players"),
                N_("13 cards each in the first hand, one fewer each hand down to 1, then back up to 13: 25 hands."),
            ),
            Rule(
                "R8",
                N_("5 players or more"),
                N_(
                    "The top deal leaves at least one card to turn up: 53 divided by the "
                    "number of players, rounded down. The game runs from the top deal "
                    "down to 1 and back up: twice the top deal, less one, hands."
                ),
            ),
            Rule(
                "R9", N_("Extended game"), N_("By agreement, 2 or 3 players may raise the top deal to 26 or 17 cards.")
            ),
            Rule(
                "R10",
                N_("All-cards hand"),
                N_(
                    "By agreement, when the 54 cards divide evenly (2, 3, 6 or 9 players), "
                    "one last hand deals the whole deck. Nothing is left to turn up, so "
                    "it has no trump."
                ),
            ),
            Rule(
                "R11",
                N_("New Jersey order"),
                N_("In New Jersey the deals go the other way: 1 card first, up to the top deal, and back down to 1."),
            ),
        ),
    ),
    Part(
        N_("Trump"),
        (
            Rule(
                "R12",
                N_("The turn-up"),
                N_(
                    "After the deal the player on the dealer's left cuts the rest of the "
                    "pack or taps it, and the dealer turns up its top card: that suit is "
                    "trump. A Bluke turned up, or no card left, means no trump."
                ),
            ),
        ),
    ),
    Part(
        N_("Bidding"),
        (
            Rule(
                "R13",
                N_("Bids"),
                N_(
                    "Starting on the dealer's left, each player bids how many tricks they will "
                    "take: at least 1, at most the cards dealt. Bids may be equal, and their total "
                    "may be anything. House rule: bids of 0 allowed."
                ),
            ),
        ),
    ),
    Part(
        N_("Play"),
        (
            Rule(
                "R14",
                N_("Leads"),
                N_("The player on the dealer's left leads to the first trick; whoever wins a trick leads to the next."),
            ),
            Rule(
                "R15",
                N_("Following"),
                N_(
                    "Play a card of the suit led if you have one, or a Bluke instead. With "
                    "none of that suit, play any card. A Bluke may be played at any time."
                ),
            ),
            Rule(
                "R16",
                N_("A Bluke led"),
                N_("When a Bluke is led there is no suit to follow: everyone may play any card."),
            ),
            Rule(
                "R17",
                N_("Who wins the trick"),
                N_("The Hi Bluke; else the Lo Bluke; else the highest trump; else the highest card of the suit led."),
            ),
        ),
    ),
    Part(
        N_("New Jersey"),
        (
            Rule(
                "R18",
                N_("The New Jersey variant"),
                N_(
                    "The deals start at 1 card (R11), and the Blukes belong to the "
                    "trump suit, above its ace. Holding the suit led, you must play "
                    "it, not a Bluke; when trump is led, play a trump or a Bluke if "
                    "you have one. In a hand without trump the two Blukes are a "
                    "suit of their own."
                ),
            ),
        ),
    ),
    Part(
        N_("Scoring"),
        (
            Rule(
                "R19",
                N_("Made"),
                N_(
                    "Take at least your bid: 10 points for each trick bid, plus 1 for each extra "
                    "trick. Bid 3, took 5: 32."
                ),
            ),
            Rule(
                "R20",
                N_("Set"),
                N_(
                    "Take fewer than your bid: lose 10 points for each trick bid. Bid 4, took 3: "
                    "−40. Totals can go below zero."
                ),
            ),
            Rule(
                "R21",
                N_("The winner"),
                N_("After the last hand the highest total wins; equal highest totals share the win."),
            ),
        ),
    ),
    Part(
        N_("What the scorer checks"),
        (
            Rule("R22", N_("Bids in range"), N_("Every bid is within R13's range for the cards dealt in that hand.")),
            Rule(
                "R23",
                N_("Tricks add up"),
                N_(
                    "Each player took from 0 to the cards dealt, and everyone's tricks add "
                    "up to exactly the cards dealt."
                ),
            ),
            Rule(
                "R24",
                N_("The schedule"),
                N_(
                    "Each hand deals the number of cards of the schedule (R7–R11), and the "
                    "deal passes to the left (R5)."
                ),
            ),
            Rule(
                "R25",
                N_("Order"),
                N_("Bids are written before tricks, hand after hand; a hand is complete when both are in."),
            ),
        ),
    ),
    Part(
        N_("Scorecards"),
        (
            Rule(
                "R26",
                N_("S, O and P"),
                N_(
                    "Each player's hand is a Set (fewer tricks than bid), Overtricks (more "
                    "than bid) or Perfect (exactly the bid). The scorecard counts them for "
                    "each player, with the overtricks and the totals of bids and tricks."
                ),
            ),
            Rule(
                "R27",
                N_("The plain scorecard"),
                N_(
                    "A narrow column for the cards dealt; for each player a wide "
                    "column with the bid, small, and the running total."
                ),
            ),
            Rule(
                "R28",
                N_("The creative scorecard"),
                N_(
                    "The left column shows total bids / cards dealt (14/12: the "
                    "table overbid by 2). Each cell shows tricks taken / bid before "
                    "the total; a set is circled, a perfect bid is boxed, and three "
                    "rows at the bottom count S, O and P."
                ),
            ),
        ),
    ),
)

RULE_NUMBER = re.compile(r"\bR([1-9]|1[0-9]|2[0-8])\b")


def rule_links(message: str) -> Markup:
    """A message with each rule number (R1–R28) linked to its paragraph on the Rules page; the text is escaped."""
    page = url_for("rulebook.rules")
    return Markup(
        RULE_NUMBER.sub(lambda m: f'<a class="rule" href="{page}#{m.group(0)}">{m.group(0)}</a>', str(escape(message)))
    )


@bp.get("/rules")
def rules() -> str:
    """The rules of Bluke in the reader's language."""
    return render_template("rules.html", parts=PARTS)


def init_app(app: Flask) -> None:
    """The page, and the ``rule_links`` filter for messages that name a rule."""
    app.register_blueprint(bp)
    app.jinja_env.filters["rule_links"] = rule_links
