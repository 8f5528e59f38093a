"""The strong bot (issue 14): reads only its view, reproducible, bid-aware model, no timing leak."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper.bots import decide
from scorekeeper.bots import inference
from scorekeeper.bots import strong
from scorekeeper.bots import table_view
from scorekeeper.bots.inference import bid_likelihood
from scorekeeper.bots.inference import expected_tricks
from scorekeeper.bots.inference import sample_worlds
from scorekeeper.bots.inference import view_trump
from scorekeeper.engine import Card
from scorekeeper.engine import DECK
from scorekeeper.engine import fast
from scorekeeper.engine import Game
from scorekeeper.engine import legal_plays
from scorekeeper.engine import parse_cards
from scorekeeper.engine import Rules
from scorekeeper.engine import trick_winner
from scorekeeper.engine import Variant


def mask(text: str) -> int:
    return fast.mask_of(parse_cards(text))


def playing_view(hand: list[str], **fields: Any) -> dict[str, Any]:
    """Seat 0's view in play at three players, spades trump (9S turned up), seat 2 dealing.

    ``fields`` give the rest (``cards``, ``bids``, ``tricks_taken``) and override the defaults: every
    card held is legal, no trick played yet.
    """
    defaults = {"seat": 0, "phase": "playing", "dealer": 2, "trump": "S", "turn_up": "9S", "trick": []}
    return {**defaults, "tricks_played": [], "hand": hand, "legal": hand, **fields}


def among(view: dict[str, Any], *others: str | None) -> dict[str, Any]:
    """``view`` with the seats' levels (public at a virtual table): the strong bot in its own seat,
    ``others`` in the other seats in seat order, people (``None``) in the rest."""
    seat, players = view["seat"], len(view["bids"])
    levels = [*others, *[None] * (players - 1 - len(others))]
    return {**view, "bots": levels[:seat] + ["strong"] + levels[seat:]}


class Stacked(random.Random):
    """Deals a fixed deck order, so two games can share one seat's cards and differ elsewhere."""

    def __init__(self, order: list[int]) -> None:
        super().__init__(0)
        self.order = order

    def shuffle(self, x: list[Any], random: object = None) -> None:  # type: ignore[override]
        x[:] = [DECK[i] for i in self.order]


def game_at(rules: Rules, number: int, order: list[int]) -> Game:
    game = Game(rules, 0, number=number - 1)
    game.deal(Stacked(order))
    return game


def strong_plays(
    game: Game, rng_of: Callable[[int], random.Random], levels: list[str | None] | None = None
) -> Iterator[tuple[dict[str, Any], int | str]]:
    """Strong bots play ``game``'s hand to its end: each seat's view and the action it then takes
    (told that the seats are of these ``levels``, if given)."""
    while game.phase in ("bidding", "playing"):
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        action = decide("strong", view if levels is None else table_view(view, levels), game.rules, rng_of(seat))
        yield view, action
        game.apply(seat, action)


def advance(game: Game, actions: int, rng: random.Random) -> None:
    """Let basic bots act ``actions`` times."""
    for _ in range(actions):
        seat = game.to_act
        assert seat is not None
        game.apply(seat, decide("basic", game.view_for(seat), game.rules, rng))


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("players", [3, 4, 8])
def test_a_table_of_strong_bots_plays_whole_hands_legally(variant: Variant, players: int) -> None:
    rules = Rules(players, variant)
    rng = random.Random(players)
    for number in (1, rules.hand_count // 2 + 1):
        order = list(range(54))
        rng.shuffle(order)
        game = game_at(rules, number, order)
        for view, action in strong_plays(game, lambda seat: rng):
            assert action in view["legal"]
        assert game.records[-1].tricks is not None and sum(game.records[-1].tricks) == rules.cards_in_hand(number)


@pytest.fixture
def no_time_caps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Count-limited decisions only: an overloaded test machine must not cut sampling short."""
    monkeypatch.setattr(strong, "DRAW_TIME", 1e9)
    monkeypatch.setattr(strong, "PLAY_TIME", 1e9)


@pytest.mark.usefixtures("no_time_caps")
def test_the_decision_depends_only_on_the_seats_view() -> None:
    """Swap the hidden cards of the other seats: same view, so the same decision for the same seed."""
    rules = Rules(4)
    number = 6  # eight cards each, four players: 32 dealt, one turned up, 21 undealt
    order = list(range(54))
    random.Random(1).shuffle(order)
    other = list(order)
    # Deal positions of seats 2 and 3 (clockwise from the dealer's left, one card at a time).
    dealer = game_at(rules, number, order).dealer
    positions = {s: [i for i in range(32) if (dealer + 1 + i) % 4 == s] for s in range(4)}
    for a, b in zip(positions[(dealer + 2) % 4], positions[(dealer + 3) % 4]):
        other[a], other[b] = other[b], other[a]
    other[40], other[50] = other[50], other[40]  # and the undealt cards
    first, second = game_at(rules, number, order), game_at(rules, number, other)
    assert first.hands != second.hands
    seat = (dealer + 1) % 4  # bids first, and leads to the first trick (R13, R14)
    for phase in ("bidding", "playing"):
        assert first.phase == phase and first.to_act == seat
        view = first.view_for(seat)
        assert view == second.view_for(seat)
        action = decide("strong", view, rules, random.Random(9))
        assert decide("strong", second.view_for(seat), rules, random.Random(9)) == action
        if phase == "bidding":  # every seat bids 1 in both games, so the views stay equal
            for s in range(4):
                first.apply((seat + s) % 4, 1)
                second.apply((seat + s) % 4, 1)


def short_plays_as_modelled(
    monkeypatch: pytest.MonkeyPatch, margin: float, levels: list[str | None] | None = None
) -> tuple[int, int]:
    """Of a table of strong bots' plays while short with a choice: how many are the model's card
    (each bot told that the seats are of these ``levels``, if given)."""
    monkeypatch.setattr(strong, "MODEL_MARGIN", margin)
    monkeypatch.setattr(strong, "DECISION_FLOOR", 0.0)
    rules, rng = Rules(4), random.Random(8)
    matched = plays = 0
    for number in (1, 3):
        order = list(range(54))
        rng.shuffle(order)
        for view, action in strong_plays(game_at(rules, number, order), random.Random, levels):
            need = (view["bids"][view["seat"]] or 0) - view["tricks_taken"][view["seat"]]
            if view["phase"] == "playing" and need > 0 and len(view["legal"]) > 1:
                trick = [fast.card_index(p["card"]) for p in view["trick"]]
                model = fast.aim_card(
                    mask(" ".join(view["hand"])), trick, view_trump(view), False, need, len(view["hand"]), True
                )
                matched += str(DECK[model]) == action
                plays += 1
    return matched, plays


@pytest.mark.usefixtures("no_time_caps")
def test_a_short_seat_plays_the_card_its_model_expects_unless_another_is_clearly_better(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The other seats model the bot as a player counting cards: while short it plays that
    player's card unless the sampled deals score another card more than MODEL_MARGIN higher."""
    usual, _ = short_plays_as_modelled(monkeypatch, strong.MODEL_MARGIN)
    always, plays = short_plays_as_modelled(monkeypatch, 1e9)
    assert always == plays > 10
    never, _ = short_plays_as_modelled(monkeypatch, 0.0)
    assert never < usual < always


@pytest.mark.usefixtures("no_time_caps")
def test_the_margin_holds_only_where_another_strong_bot_reads_the_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    """The margin is for the other strong bots' inference (the seats' levels are public at a
    virtual table): with another strong bot seated the bot keeps to the model's card; at a table
    of people or basic bots, who do not read it so, it plays the card that scores best."""
    margin = strong.MODEL_MARGIN
    read = short_plays_as_modelled(monkeypatch, margin)  # no levels given: taken to be read
    never = short_plays_as_modelled(monkeypatch, 0.0)
    assert never[0] < read[0]
    assert short_plays_as_modelled(monkeypatch, margin, ["strong", "basic", None, "strong"]) == read
    unread = [None, "basic", None, "random"]
    matched, plays = short_plays_as_modelled(monkeypatch, margin, unread)
    assert short_plays_as_modelled(monkeypatch, 1e9, unread) == (matched, plays)  # no margin there
    assert matched / plays < read[0] / read[1]


@pytest.mark.usefixtures("no_time_caps")
@pytest.mark.parametrize(("players", "unread_shift_used"), [(4, True), (8, False)])
def test_where_nobody_reads_it_the_bot_at_up_to_four_players_bids_with_its_own_shift(
    monkeypatch: pytest.MonkeyPatch, players: int, unread_shift_used: bool
) -> None:
    """UNREAD_SHIFT moves the trick counts at a table of up to four players with no other strong
    bot; a shift past every count makes the bot bid all it holds."""
    rules = Rules(players)
    order = list(range(54))
    random.Random(7).shuffle(order)
    game = game_at(rules, 3, order)
    seat = game.to_act
    assert seat is not None
    view = game.view_for(seat)

    def bid(*others: str | None) -> int:
        return strong.choose_bid(among(view, *others), rules, random.Random(1))

    monkeypatch.setattr(strong, "UNREAD_SHIFT", 99.0)
    read = bid("basic", "strong")
    assert read < view["cards"]
    assert (bid("basic", "basic") == view["cards"]) == unread_shift_used
    monkeypatch.setattr(strong, "UNREAD_SHIFT", strong.TOP_DEAL_SHIFT)
    assert bid("basic", "basic") == read


@pytest.mark.usefixtures("no_time_caps")
def test_decisions_are_reproducible_for_a_given_random_source() -> None:
    rules = Rules(4)
    order = list(range(54))
    random.Random(5).shuffle(order)
    game = game_at(rules, 1, order)
    advance(game, 4 + 5, random.Random(3))  # all bids and a trick and a bit
    seat = game.to_act
    assert seat is not None
    view = game.view_for(seat)
    assert game.phase == "playing" and len(view["legal"]) > 1
    first = [decide("strong", view, rules, random.Random(s)) for s in range(4)]
    again = [decide("strong", view, rules, random.Random(s)) for s in range(4)]
    assert first == again


def test_a_single_legal_card_takes_as_long_as_the_decision_floor() -> None:
    rules = Rules(3)
    view = playing_view(["2H"], cards=1, bids=[1, 1, 1], tricks_taken=[0, 0, 0])
    start = time.perf_counter()
    assert strong.strong_bot(view, rules, random.Random(1)) == "2H"
    assert time.perf_counter() - start >= strong.DECISION_FLOOR


@pytest.mark.usefixtures("no_time_caps")
def test_the_work_of_a_card_decision_does_not_depend_on_how_many_cards_are_legal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []
    real = fast.play_out_bids

    def counting(*args: Any) -> list[int]:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(fast, "play_out_bids", counting)
    rules = Rules(3)
    base = playing_view(
        ["2H", "3C", "4C", "5C", "6C", "7C", "8C", "9C"], cards=8, bids=[1, 1, 1], tricks_taken=[0, 0, 0]
    )
    work = []
    for trick, legal in (([], base["hand"]), ([{"seat": 2, "card": "KH"}], ["2H"])):
        calls.clear()
        strong.choose_card({**base, "trick": trick, "legal": legal}, rules, random.Random(1))
        work.append(len(calls))
    assert work[0] == work[1] > 0


@pytest.mark.usefixtures("no_time_caps")
@pytest.mark.parametrize(
    ("players", "number", "cards", "others", "exact"),
    [
        (4, 11, 3, None, True),
        (4, 11, 3, ("basic", "strong"), True),
        (4, 11, 3, ("basic", "basic"), False),  # nobody reads it: played out
        (4, 10, 4, None, False),
        (8, 5, 2, None, False),
    ],
)
def test_the_endgame_is_solved_exactly_from_three_cards_at_a_read_table_of_four_and_played_out_elsewhere(
    monkeypatch: pytest.MonkeyPatch, players: int, number: int, cards: int, others: tuple[str, ...] | None, exact: bool
) -> None:
    """The exact search expects every other seat to play perfectly: it serves only where another
    strong bot sits (no levels in the view: taken to be read)."""
    calls = []
    real = fast.solve

    def counting(*args: Any) -> list[int]:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(fast, "solve", counting)
    rules = Rules(players)
    order = list(range(54))
    random.Random(number).shuffle(order)
    game = game_at(rules, number, order)
    advance(game, players, random.Random(2))  # the bids
    seat = game.to_act
    assert seat is not None
    view = game.view_for(seat)
    if others is not None:
        view = among(view, *others)
    assert len(view["hand"]) == cards
    assert decide("strong", view, rules, random.Random(5)) in view["legal"]
    assert bool(calls) == exact


# -- the model ------------------------------------------------------------------------------------
def test_a_high_bid_is_likelier_from_a_hand_the_count_values_highly() -> None:
    strong_hand, weak_hand = expected_tricks(mask("HB LB AS KS"), 0, 4), expected_tricks(mask("2H 3D 4C 5H"), 0, 4)
    assert strong_hand > 3 and weak_hand == 0
    assert bid_likelihood(4, strong_hand, 1, 4) > 10 * bid_likelihood(4, weak_hand, 1, 4)
    assert bid_likelihood(1, weak_hand, 1, 4) > 0.9


def test_a_seat_that_bid_high_is_dealt_the_blukes_more_often() -> None:
    rules = Rules(3)
    view = {
        "seat": 0,
        "phase": "bidding",
        "cards": 4,
        "dealer": 1,
        "trump": "S",
        "turn_up": "9S",
        "hand": ["2H", "3D", "4C", "5H"],
        "bids": [None, None, 4],
        "legal": [1, 2, 3, 4],
        "trick": [],
        "tricks_played": [],
        "tricks_taken": [0, 0, 0],
    }
    worlds = sample_worlds(view, rules, random.Random(2), 400, 200, 10.0)
    assert sum(n for _, _, n in worlds) == 200
    with_blukes = sum(n * (hands[2] & fast.BLUKES).bit_count() for hands, _, n in worlds) / 200
    without_bids = sample_worlds({**view, "bids": [None, None, None]}, rules, random.Random(2), 400, 200, 10.0)
    uniform = sum(n * (hands[2] & fast.BLUKES).bit_count() for hands, _, n in without_bids) / 200
    assert with_blukes > 1.5 * uniform


#: Seat 0 led the KH and won; seat 1 (bid 2, none taken) played 3H although the AH, a Bluke or the
#: 2H would have made a player counting cards play otherwise; seat 2 (bid 1) played the 4H.
DUCKED = [{"seat": 0, "card": "KH"}, {"seat": 1, "card": "3H"}, {"seat": 2, "card": "4H"}]


def held_by(worlds: inference.Worlds, seat: int, cards: str) -> float:
    """Share of the kept deals that give ``seat`` any of ``cards``."""
    return sum(n for hands, _, n in worlds if hands[seat] & mask(cards)) / sum(n for _, _, n in worlds)


def test_a_seat_short_of_its_bid_that_ducked_is_never_dealt_a_card_that_would_have_won() -> None:
    view = playing_view(["2C", "3C", "4C"], cards=4, bids=[1, 2, 1], tricks_played=[DUCKED], tricks_taken=[1, 0, 0])
    worlds = sample_worlds(view, Rules(3), random.Random(3), 400, 200, 10.0)
    assert held_by(worlds, 1, "AH") == held_by(worlds, 1, "HB LB") == held_by(worlds, 1, "2H") == 0
    assert held_by(worlds, 1, "QS") > 0.03  # a trump could not be played on the heart (R15)


def test_a_low_lead_while_short_rules_out_what_a_counting_player_leads_for_a_trick() -> None:
    # Seat 1 (bid 2, none taken) led the 5D: no Bluke, no trump ace, nothing weaker than a 5.
    view = playing_view(
        ["2C", "3C", "4C"], cards=3, bids=[1, 2, 1], dealer=0, trick=[{"seat": 1, "card": "5D"}], tricks_taken=[0, 0, 0]
    )
    worlds = sample_worlds(view, Rules(3), random.Random(5), 400, 200, 10.0)
    assert held_by(worlds, 1, "HB LB AS") == held_by(worlds, 1, "2H 3D 4H") == 0
    assert held_by(worlds, 2, "HB LB AS") > 0.05  # seat 2 has shown nothing


def test_a_seat_seen_to_play_otherwise_than_the_model_only_makes_deals_less_likely(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Then seat 1 threw the 2H on a diamond: it held the 2H when it played the 3H, so it does not
    # play as the model does, and what it did only weighs the deals.
    second = [{"seat": 0, "card": "4D"}, {"seat": 1, "card": "2H"}, {"seat": 2, "card": "5D"}]
    view = playing_view(["2C", "3C"], cards=4, bids=[1, 2, 1], tricks_played=[DUCKED, second], tricks_taken=[1, 0, 1])
    worlds = sample_worlds(view, Rules(3), random.Random(3), 2000, 1000, 10.0)
    monkeypatch.setattr(inference, "OFF_MODEL", 1.0)  # the same deals, the plays not weighed
    unweighed = sample_worlds(view, Rules(3), random.Random(3), 2000, 1000, 10.0)
    assert 0 < held_by(worlds, 1, "AH") < 0.8 * held_by(unweighed, 1, "AH")


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("players", [4, 8])
def test_basic_bots_play_as_the_model_so_their_plays_never_rule_out_a_card_they_hold(
    players: int, variant: Variant
) -> None:
    """The model of the other seats is the ``basic`` bot's play: against it, nothing true is ruled
    out, in New Jersey too, where the Blukes follow as trumps (R18)."""
    rules = Rules(players, variant)
    rng = random.Random(players)
    checked = 0
    for number in range(1, rules.hand_count + 1, 3):
        order = list(range(54))
        rng.shuffle(order)
        game = game_at(rules, number, order)
        while game.phase in ("bidding", "playing"):
            seat = game.to_act
            assert seat is not None
            view = game.view_for(seat)
            trump = view_trump(view)
            history = inference._history(view)
            for s, held, excluded in inference._play_events(
                history, view["bids"], trump, rules.new_jersey, players, seat
            ):
                assert not (fast.mask_of(game.hands[s]) | held) & excluded
                checked += 1
            game.apply(seat, decide("basic", view, rules, rng))
    assert checked > 500


def test_sampled_worlds_keep_my_cards_and_never_deal_a_seen_card() -> None:
    rules = Rules(3)
    view = playing_view(
        ["AH", "KH", "2C", "3C"],
        cards=5,
        bids=[2, 1, 3],
        legal=["AH", "KH"],
        tricks_played=[[{"seat": 1, "card": "5D"}, {"seat": 2, "card": "7S"}, {"seat": 0, "card": "AD"}]],
        trick=[{"seat": 2, "card": "QH"}],
        tricks_taken=[1, 0, 0],
    )
    seen = mask("AH KH 2C 3C 9S 5D 7S AD QH")
    for hands, bids, _ in sample_worlds(view, rules, random.Random(4), 200, 100, 10.0):
        assert hands[0] == mask("AH KH 2C 3C") and bids == [2, 1, 3]
        assert not (hands[1] | hands[2]) & seen
        assert hands[1].bit_count() == 4 and hands[2].bit_count() == 3
        assert not hands[2] & fast.SUIT_MASKS[2]  # seat 2 trumped the diamond lead (R15)


def test_deals_with_voids_are_uniform_over_the_deals_that_fit() -> None:
    """Every deal that fits the voids equally likely: each seat's chance of each card as counted
    over all fitting deals, not skewed towards the seats that may hold few cards."""
    pool = parse_cards("2H 3H 4H 2D 3D 2C 3C")
    unseen = fast.mask_of(pool)
    counts, voids = [3, 2, 2, 1], [0, mask("2H 3H 4H"), mask("2D 3D 2C"), mask("3C")]
    fitting = []
    for owners in itertools.product(range(1, 5), repeat=len(pool)):  # 4: left undealt
        if all(owners.count(s) == counts[s] for s in (1, 2, 3)) and not any(
            s < 4 and voids[s] >> card.index & 1 for s, card in zip(owners, pool)
        ):
            fitting.append(owners)
    exact = {(s, c): sum(o[i] == s for o in fitting) / len(fitting) for s in (1, 2, 3) for i, c in enumerate(pool)}
    drawn = list(inference._draw(random.Random(5), 0, mask("AS KS QS"), unseen, counts, voids, 6000, 1e9))
    assert len(drawn) == 6000
    for hands in drawn:
        assert hands[0] == mask("AS KS QS") and [h.bit_count() for h in hands[1:]] == [2, 2, 1]
        assert not any(hands[s] & (voids[s] | ~unseen) for s in (1, 2, 3))
        assert not (hands[1] & hands[2] or hands[1] & hands[3] or hands[2] & hands[3])
    for (s, c), share in exact.items():
        seen = sum(hands[s] >> c.index & 1 for hands in drawn) / len(drawn)
        assert abs(seen - share) < 0.03, (s, c, seen, share)


# -- the kernel's bid-aware playouts and exact endgame --------------------------------------------
def replay_to_bids(hands: list[list[Card]], leader: int, trump: int, nj: bool, bids: list[int], me: int) -> list[int]:
    """The bid-aware policy card by card, with the readable engine deciding legality and winners."""
    players, taken, left = len(hands), [0] * len(hands), len(hands[0])
    suit = None if trump < 0 else DECK[trump * 13].suit
    while left:
        trick: list[tuple[int, Card]] = []
        for position in range(players):
            seat = (leader + position) % players
            index = fast.aim_card(
                fast.mask_of(hands[seat]),
                [c.index for _, c in trick],
                trump,
                nj,
                bids[seat] - taken[seat],
                left,
                counting=seat != me,
            )
            card = DECK[index]
            assert card in legal_plays(hands[seat], trick[0][1] if trick else None, suit, nj)
            hands[seat].remove(card)
            trick.append((seat, card))
        leader = trick_winner(trick, suit, nj)
        taken[leader] += 1
        left -= 1
    return taken


@pytest.mark.parametrize("nj", [False, True])
def test_bid_aware_playouts_are_legal_and_match_the_policy_card_by_card(nj: bool) -> None:
    rng = random.Random(21)
    for _ in range(200):
        players = rng.randint(2, 8)
        cards_each = rng.randint(1, 53 // players)
        hands, turn_up = fast.deal(rng, players, cards_each, 0)
        trump = fast.NO_TRUMP if turn_up < 0 or turn_up >= 52 else turn_up // 13
        bids = [rng.randint(1, cards_each) for _ in range(players)]
        me = rng.randrange(players)
        got = fast.play_out_bids(hands, 1 % players, [], trump, nj, bids, [0] * players, me)
        assert got == replay_to_bids([fast.cards_of(h) for h in hands], 1 % players, trump, nj, bids, me)


def test_a_seat_that_has_made_its_bid_ducks_and_lets_a_short_seat_win() -> None:
    # Spades trump. Seat 0 made its bid; it holds the AS and 2H. Seat 1 leads the KH and needs it.
    hands = [mask("AS 2D"), mask("KH QH"), mask("4C 5C")]
    assert fast.play_out_bids(hands, 1, [], 0, False, [1, 1, 1], [1, 0, 0])[1] >= 1
    assert fast.play_out(random.Random(0), hands, 1, [], 0, False, "greedy", [1, 0, 0])[1] == 0


def last_to_the_kh(**fields: Any) -> dict[str, Any]:
    """Spades trump, seat 0 bid 1 and took the first trick. Last to the KH, void in hearts, it holds
    the 2S and 3D: ruffing is a sure overtrick. ``fields`` override the rest of the view."""
    made = {
        "cards": 4,
        "bids": [1, 1, 1],
        "tricks_played": [
            [{"seat": 0, "card": "AD"}, {"seat": 1, "card": "4D"}, {"seat": 2, "card": "5D"}],
            [{"seat": 0, "card": "6C"}, {"seat": 1, "card": "KC"}, {"seat": 2, "card": "7C"}],
        ],
        "trick": [{"seat": 1, "card": "KH"}, {"seat": 2, "card": "QH"}],
        "tricks_taken": [1, 1, 0],
    }
    return playing_view(["2S", "3D"], **{**made, **fields})


def test_once_its_bid_is_made_the_bot_plays_as_its_playouts_model_a_made_seat() -> None:
    # Ruffing the KH with the 2S is a sure overtrick, but a made seat of the model throws its
    # weakest card (no levels in the view: taken to be read by another strong bot).
    view = last_to_the_kh()
    modelled = fast.aim_card(
        mask("2S 3D"), [fast.card_index("KH"), fast.card_index("QH")], 0, False, 0, 2, counting=True
    )
    assert strong.choose_card(view, Rules(3), random.Random(1)) == str(DECK[modelled]) == "3D"
    short = {**view, "bids": [2, 1, 1]}  # one trick short of the bid: it ruffs
    assert strong.choose_card(short, Rules(3), random.Random(1)) == "2S"


@pytest.mark.parametrize("others", [["basic", "basic"], [None, "random"]])
def test_once_made_at_a_table_that_does_not_read_it_the_bot_takes_the_overtrick(others: list[str | None]) -> None:
    # The same trick at a table of people or other bots: nobody reads the bot through the model,
    # so it ruffs with the 2S for a sure overtrick (R19: one point more) instead of throwing the 3D.
    assert strong.choose_card(last_to_the_kh(bots=["strong", *others]), Rules(3), random.Random(1)) == "2S"
    read = last_to_the_kh(bots=["strong", "basic", "strong"])
    assert strong.choose_card(read, Rules(3), random.Random(1)) == "3D"


@pytest.mark.parametrize("nj", [False, True])
def test_the_exact_endgame_gives_out_every_trick_once(nj: bool) -> None:
    rng = random.Random(22)
    for _ in range(150):
        players = rng.randint(2, 4)
        cards_each = rng.randint(1, 3)
        hands, turn_up = fast.deal(rng, players, cards_each, 0)
        trump = fast.NO_TRUMP if turn_up < 0 or turn_up >= 52 else turn_up // 13
        bids = [rng.randint(1, cards_each) for _ in range(players)]
        solved = fast.solve(hands, 1 % players, [], trump, nj, bids, [0] * players)
        assert sum(solved) == cards_each and min(solved) >= 0


def test_the_exact_endgame_ducks_when_the_bid_is_made_only_by_ducking() -> None:
    # No trump, two players. Seat 0 (bid 1, none yet) leads. Leading the AH wins one trick, but
    # then the 2C goes to seat 1's KC... either way one trick. Seat 1 (bid 2) needs both: it can
    # only hope; the search plays it out and every trick is given once.
    hands = [mask("AH 2C"), mask("KH KC")]
    assert fast.solve(hands, 0, [], fast.NO_TRUMP, False, [1, 2], [0, 0]) == [1, 1]
    # Spades trump: seat 0 holds AS KS and needs one trick; it takes both whatever it leads.
    hands = [mask("AS KS"), mask("2H 3H"), mask("4H 5H")]
    assert fast.solve(hands, 0, [], 0, False, [1, 1, 1], [0, 0, 0]) == [2, 0, 0]
