"""benchmarks/bot_variants.py compares settings on the same deals: the shipped bot is restored."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.bots import inference
from scorekeeper.bots import strong

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bot_variants.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("other", "shipped"),
    [
        ("UNREAD_SHIFT=3", f"UNREAD_SHIFT={strong.UNREAD_SHIFT}"),
        ("inference.BID_SPREAD=3", f"inference.BID_SPREAD={inference.BID_SPREAD}"),
    ],
)
def test_a_setting_equal_to_the_shipped_bot_plays_every_deal_alike(other: str, shipped: str) -> None:
    """After a different setting, one worker plays the shipped values again, deal after deal."""
    done = run("--players", "4", "--hand", "9", "--deals", "3", "--jobs", "1", other, shipped)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    gains = [re.findall(r"gain (.+?)  CPU", line) for line in lines[1:]]
    assert len(gains) == 3 and all(gains)
    assert gains[2] == gains[0]
    assert "vs shipped +0.000 [+0.000, +0.000]" not in lines[2]  # the other setting did play otherwise
    assert "vs shipped +0.000 [+0.000, +0.000]" in lines[3]


def test_only_the_strong_bots_constants_may_be_set() -> None:
    for target in ("sample_worlds", "inference.sample_worlds", "basic.TRUMP_ODDS"):
        done = run("--deals", "1", f"{target}=1")
        assert done.returncode != 0
        assert f"{target!r} is not a constant of scorekeeper.bots.strong or .inference" in done.stderr
