"""benchmarks/bot_strength.py's oracles see every hand in their own phases only (run apart: the
benchmark replaces the strong bot's sampling when imported)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

PROBE = """
import json, random, sys
sys.path.insert(0, sys.argv[1])
import bot_strength
from scorekeeper.engine import Rules
seen = []
real = bot_strength.decide
def decide(level, view, rules, rng):
    worlds = bot_strength.strong.sample_worlds(view, rules, random.Random(0), 40, 8, 1.0)
    true = bool(bot_strength._TRUE_HANDS) and all(w[0] == bot_strength._TRUE_HANDS for w in worlds)
    seen.append([view["seat"], view["phase"], true])
    return real(level, view, rules, rng)
bot_strength.decide = decide
rules = Rules(3)
order = list(range(54))
random.Random(4).shuffle(order)
seats = ["basic", sys.argv[2], "basic"]
bot_strength.play_hand(rules, 20, 0, order, seats, "t", [])
print(json.dumps(seen))
"""


@pytest.mark.parametrize(
    ("swap", "phases"),
    [("oracle", {"playing"}), ("oracle-bids", {"bidding"}), ("oracle-both", {"bidding", "playing"})],
)
def test_an_oracle_sees_the_true_deal_in_its_phases_and_only_for_its_seat(swap: str, phases: set[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(BENCHMARKS), swap], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert {p for _, p, _ in seen} == {"bidding", "playing"}
    for seat, p, true in seen:
        assert true == (seat == 1 and p in phases)
