"""The Bluke rules engine: standard library only, one module per idea (see RULES.md).

The web layer asks this package; it never re-implements a rule.
"""

from .cards import Card
from .cards import DECK
from .cards import HI_BLUKE
from .cards import LO_BLUKE
from .cards import parse_cards
from .cards import Suit
from .draw import draw_for_deal
from .draw import DrawResult
from .errors import BidError
from .errors import ConfigError
from .errors import OrderError
from .errors import PlayError
from .errors import RulesError
from .errors import ScheduleError
from .errors import TrickError
from .game import Game
from .game import sort_hand
from .rules import check_players
from .rules import dealer_of
from .rules import order_from
from .rules import Rules
from .rules import Variant
from .scorecard import build_scorecard
from .scorecard import check_bid
from .scorecard import check_bids
from .scorecard import check_order
from .scorecard import check_records
from .scorecard import check_taken
from .scorecard import check_tricks
from .scorecard import check_trump
from .scorecard import HandLine
from .scorecard import HandRecord
from .scorecard import PlayerStats
from .scorecard import Scorecard
from .scoring import Outcome
from .scoring import outcome
from .scoring import points
from .tricks import legal_plays
from .tricks import trick_winner

__all__ = [
    "DECK",
    "HI_BLUKE",
    "LO_BLUKE",
    "BidError",
    "Card",
    "ConfigError",
    "DrawResult",
    "Game",
    "HandLine",
    "HandRecord",
    "OrderError",
    "Outcome",
    "PlayError",
    "PlayerStats",
    "Rules",
    "RulesError",
    "ScheduleError",
    "Scorecard",
    "Suit",
    "TrickError",
    "Variant",
    "build_scorecard",
    "check_bid",
    "check_bids",
    "check_order",
    "check_players",
    "check_records",
    "check_taken",
    "check_tricks",
    "check_trump",
    "dealer_of",
    "draw_for_deal",
    "legal_plays",
    "order_from",
    "outcome",
    "parse_cards",
    "points",
    "sort_hand",
    "trick_winner",
]
