"""benchmarks/bot_variants.py compares settings on the same deals: the shipped bot is restored."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from scorekeeper.bots import strong

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bot_variants.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120)


def test_a_setting_equal_to_the_shipped_bot_plays_every_deal_alike() -> None:
    """After a different setting, one worker plays the shipped values again, deal after deal."""
    shipped = f"MODEL_MARGIN={strong.MODEL_MARGIN}"
    done = run("--players", "4", "--hand", "11", "--deals", "3", "--jobs", "1", "MODEL_MARGIN=0", shipped)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    gains = [re.findall(r"gain (.+?)  CPU", line) for line in lines[1:]]
    assert len(gains) == 3 and all(gains)
    assert gains[2] == gains[0]
    assert "vs shipped +0.000 [+0.000, +0.000]" not in lines[2]  # the other setting did play otherwise
    assert "vs shipped +0.000 [+0.000, +0.000]" in lines[3]


def test_only_the_strong_bots_constants_may_be_set() -> None:
    done = run("--deals", "1", "sample_worlds=1")
    assert done.returncode != 0
    assert "'sample_worlds' is not a constant of scorekeeper.bots.strong" in done.stderr
