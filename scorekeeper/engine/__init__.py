"""The Bluke rules engine: standard library only, one module per idea (see RULES.md).

The web layer asks this package; it never re-implements a rule.
"""

from .cards import DECK, HI_BLUKE, LO_BLUKE, Card, Suit, parse_cards
from .draw import DrawResult, draw_for_deal
from .errors import BidError, ConfigError, OrderError, PlayError, RulesError, ScheduleError, TrickError
from .game import Game, sort_hand
from .rules import Rules, Variant, dealer_of, order_from
from .scorecard import HandLine, HandRecord, PlayerStats, Scorecard, build_scorecard, check_bid, check_bids, check_order, check_records, check_taken, check_tricks, check_trump
from .scoring import Outcome, outcome, points
from .tricks import legal_plays, trick_winner

__all__ = [
    "DECK", "HI_BLUKE", "LO_BLUKE", "BidError", "Card", "ConfigError", "DrawResult", "Game",
    "HandLine", "HandRecord", "OrderError", "Outcome", "PlayError", "PlayerStats", "Rules",
    "RulesError", "ScheduleError", "Scorecard", "Suit", "TrickError", "Variant", "build_scorecard",
    "check_bid", "check_bids", "check_order", "check_records", "check_taken", "check_tricks", "check_trump", "dealer_of", "draw_for_deal", "legal_plays",
    "order_from", "outcome", "parse_cards", "points", "sort_hand", "trick_winner",
]
