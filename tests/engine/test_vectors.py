"""The phone's rules are tested against vectors from this engine (``tests/vectors.py``); the
committed table must be what the engine gives today, so the browser test never runs stale rules."""

from __future__ import annotations

import json

from tests.vectors import FILE
from tests.vectors import vectors


def test_the_committed_vectors_are_what_the_engine_gives_today() -> None:
    assert json.loads(FILE.read_text()) == vectors(), "run: .venv/bin/python -m tests.vectors"


def test_the_vectors_cover_every_player_count_variant_and_option() -> None:
    table = vectors()
    assert {g["players"] for g in table["games"]} == set(range(2, 16))
    assert {g["variant"] for g in table["games"]} == {"standard", "new-jersey"}
    for option in ("extended", "all_cards_hand", "zero_bids"):
        assert {g["options"][option] for g in table["games"]} == {False, True}
    refused = [c for g in table["games"] for c in g["checks"] if c[3]]
    assert {c[3][-5:] for c in refused} >= {"R22).", "R23)."}
    assert any(o[4] for o in table["order"]) and any(o[4] is None for o in table["order"])
