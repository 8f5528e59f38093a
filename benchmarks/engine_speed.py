"""How fast the engine simulates Bluke: the fast kernel, the readable Game class and OpenSpiel.

Run: ``python benchmarks/engine_speed.py [--rounds 15] [--seconds 0.2] [--clock cpu|wall]``

Measured, in one run, with the contenders taking turns round after round so that machine noise
hits all of them alike (the median round is reported):

* random-playout hands per second, 4 players × 12 cards: deal, turn-up, a random bid per seat,
  every card chosen uniformly among the legal cards, trick winners, scores;
* complete 25-hand 4-player games per second (fast kernel and Game class);
* OpenSpiel's ``oh_hell`` (52 cards, no Blukes) with 4 players and 12 tricks, driven through its
  Python API, when ``pyspiel`` imports: every chance node sampled from ``chance_outcomes()`` with
  Python's ``random`` (they are uniform, which the script checks), every decision a uniform choice
  from ``legal_actions()``, every step an ``apply_action()``: deal, trump, bids, every play with
  its legality and trick winner, and the returns, the same work per hand as the fast kernel does.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.engine import Card  # noqa: E402
from scorekeeper.engine import fast  # noqa: E402
from scorekeeper.engine import Game  # noqa: E402
from scorekeeper.engine import Rules  # noqa: E402

PLAYERS, CARDS, GAME_HANDS = 4, 12, 25
RULES = Rules(PLAYERS)
assert RULES.hand_count == GAME_HANDS and RULES.cards_in_hand(2) == CARDS


# -- the contenders: each returns a function doing one unit of work with its own random source ---
def fast_hand(rng: random.Random) -> Callable[[], object]:
    def one() -> object:
        return fast.play_random_hand(rng, PLAYERS, CARDS, rng.randrange(PLAYERS))

    return one


def fast_game(rng: random.Random) -> Callable[[], object]:
    def one() -> object:
        return fast.play_random_game(rng, RULES, rng.randrange(PLAYERS))

    return one


def _play_hand(game: Game, rng: random.Random) -> None:
    """Bid and play one dealt hand of ``game`` with random legal actions."""
    choice = rng.choice
    while game.phase in ("bidding", "playing"):
        seat = game.to_act
        assert seat is not None
        actions: list[int | Card] = [*game.legal_actions()]
        game.apply(seat, choice(actions))


def engine_hand(rng: random.Random) -> Callable[[], object]:
    def one() -> object:
        game = Game(RULES, rng.randrange(PLAYERS), number=1)  # the next deal is hand 2: 12 cards
        game.deal(rng)
        _play_hand(game, rng)
        return game.records[-1]

    return one


def engine_game(rng: random.Random) -> Callable[[], object]:
    def one() -> object:
        game = Game.start(RULES, rng.randrange(PLAYERS), rng)
        while game.phase != "finished":
            _play_hand(game, rng)
            if game.phase == "dealing":
                game.deal(rng)
        return game.scorecard().totals

    return one


def openspiel_hand(rng: random.Random) -> Callable[[], object] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game: Any = pyspiel.load_game(
        "oh_hell", {"players": PLAYERS, "num_suits": 4, "num_cards_per_suit": 13, "num_tricks_fixed": CARDS}
    )
    choice = rng.choice

    # oh_hell's chance nodes (trick count, dealer, each dealt card, the trump card) are uniform:
    # check that on a few hands, so that a plain uniform choice samples them exactly and as
    # cheaply as Python can (OpenSpiel gets its best shot).
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert len({probability for _, probability in outcomes}) == 1, "non-uniform chance node"
                state.apply_action(choice(outcomes)[0])
            else:
                state.apply_action(choice(state.legal_actions()))

    def one() -> object:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = choice(state.chance_outcomes())[0]
            else:
                action = choice(state.legal_actions())
            state.apply_action(action)
        return state.returns()

    return one


def rate(work: Callable[[], object], seconds: float, clock: Callable[[], float]) -> float:
    """Units of work per second of ``clock`` over at least ``seconds``."""
    count, start = 0, clock()
    deadline = start + seconds
    while True:
        for _ in range(5):
            work()
        count += 5
        now = clock()
        if now >= deadline:
            return count / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=15, help="rounds of alternating measurements")
    parser.add_argument("--seconds", type=float, default=0.2, help="seconds per contender per round")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--clock",
        choices=["cpu", "wall"],
        default="cpu",
        help="cpu: this process's CPU time (steady on a shared machine); wall: elapsed time",
    )
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter

    contenders: dict[str, Callable[[], object]] = {
        "fast kernel   hands/s": fast_hand(random.Random(args.seed)),
        "Game class    hands/s": engine_hand(random.Random(args.seed + 1)),
        "fast kernel   games/s": fast_game(random.Random(args.seed + 2)),
        "Game class    games/s": engine_game(random.Random(args.seed + 3)),
    }
    spiel = openspiel_hand(random.Random(args.seed + 4))
    if spiel is not None:
        contenders["OpenSpiel     hands/s"] = spiel
    names = list(contenders)
    results: dict[str, list[float]] = {name: [] for name in names}
    for work in contenders.values():
        rate(work, 0.05, clock)  # warm up
    for round_number in range(args.rounds):
        # Alternate the order each round as well, so no contender always runs first or last.
        order = names if round_number % 2 == 0 else names[::-1]
        for name in order:
            results[name].append(rate(contenders[name], args.seconds, clock))

    median = {name: statistics.median(values) for name, values in results.items()}
    print(
        f"Python {sys.version.split()[0]}, {args.rounds} alternating rounds of {args.seconds}s each, "
        f"{args.clock} clock, median shown"
    )
    print(f"hands: {PLAYERS} players x {CARDS} cards, random bids and random legal plays; games: {GAME_HANDS} hands")
    for name in names:
        spread = f"{min(results[name]):,.0f}-{max(results[name]):,.0f}"
        print(f"{name}: {median[name]:>10,.0f}   (range {spread})")
    fast_rate, engine_rate = median["fast kernel   hands/s"], median["Game class    hands/s"]
    print(f"fast kernel / Game class (hands): {fast_rate / engine_rate:.1f}x")
    print(f"fast kernel / Game class (games): {median['fast kernel   games/s'] / median['Game class    games/s']:.1f}x")
    if spiel is not None:
        spiel_rate = median["OpenSpiel     hands/s"]
        ratio = fast_rate / spiel_rate
        print(
            f"ours/OpenSpiel (fast kernel hands/s / oh_hell hands/s): {ratio:.2f}x "
            f"(target >= 3x: {'met' if ratio >= 3 else 'NOT met'})"
        )
        print(f"Game class/OpenSpiel: {engine_rate / spiel_rate:.2f}x")
    else:
        print("OpenSpiel: pyspiel does not import; skipped")


if __name__ == "__main__":
    main()
