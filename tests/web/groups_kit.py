"""Builders for the group tests: groups and games through the JSON API, and the season's figures
recomputed here from the rule book (R7, R8, R19–R21, R26), independently of the app's engine."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from flask.testing import FlaskClient


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_group(client: FlaskClient, name: str = "Friday night", players: Sequence[str] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name} | ({"players": list(players)} if players is not None else {})
    answer = client.post("/api/groups", json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def group_table(
    client: FlaskClient, group: dict[str, Any], seats: list[dict[str, Any]], **fields: Any
) -> dict[str, Any]:
    """A virtual table started in ``group`` (``POST /api/groups/<id>/tables``) and its answer."""
    answer = client.post(
        f"/api/groups/{group['id']}/tables", headers=auth(group["token"]), json={"seats": seats, **fields}
    )
    assert answer.status_code == 201, answer.get_json()
    return dict(answer.get_json())


def schedule(players: int) -> list[int]:
    """R7 (2–4 players: 13 … 1 … 13) and R8 (m = floor(53 / players), m … 1 … m)."""
    top = 13 if players <= 4 else 53 // players
    return list(range(top, 0, -1)) + list(range(2, top + 1))


def legal_hands(players: int, count: int | None = None, seed: int = 1) -> list[tuple[list[int], list[int]]]:
    """Bids within R13 and tricks adding up to the cards dealt (R23) for the first ``count`` hands."""
    rng = random.Random(seed)
    hands = []
    for cards in schedule(players)[:count]:
        bids = [rng.randint(1, max(1, min(cards, cards // 2 + 1))) for _ in range(players)]
        cuts = sorted(rng.randint(0, cards) for _ in range(players - 1))
        tricks = [b - a for a, b in zip([0, *cuts], [*cuts, cards])]
        hands.append((bids, tricks))
    return hands


def export_file(players: Sequence[str], hands: Sequence[tuple[list[int], list[int]]]) -> dict[str, Any]:
    """The smallest importable ``export.json``: set-up and what the scorer entered."""
    return {
        "format": "bluke-scorekeeper",
        "format_version": 1,
        "variant": "standard",
        "first_dealer": 0,
        "players": [{"seat": i, "name": n} for i, n in enumerate(players)],
        "hands": [{"number": i, "bids": b, "tricks": t} for i, (b, t) in enumerate(hands, start=1)],
    }


def import_into(
    client: FlaskClient, group: dict[str, Any], players: Sequence[str], hands: Sequence[tuple[list[int], list[int]]]
) -> dict[str, Any]:
    answer = client.post(
        f"/api/groups/{group['id']}/import", json=export_file(players, hands), headers=auth(group["token"])
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def points(bid: int, taken: int) -> int:
    """R19 (10 × bid + 1 per overtrick) and R20 (−10 × bid when set)."""
    return 10 * bid + (taken - bid) if taken >= bid else -10 * bid


def outcome(bid: int, taken: int) -> str:
    """R26: Set, Overtricks or Perfect."""
    return "S" if taken < bid else "O" if taken > bid else "P"


@dataclass
class Expected:
    """One player's season figures, as the rule book has them."""

    games: int = 0
    finished: int = 0
    wins: int = 0
    hands: int = 0
    set: int = 0
    over: int = 0
    perfect: int = 0
    overtricks: int = 0
    bid: int = 0
    taken: int = 0
    points: int = 0
    by_cards: dict[str, dict[str, int]] = field(default_factory=dict)


def expected_season(
    games: Sequence[tuple[Sequence[str], Sequence[tuple[list[int], list[int]]]]],
) -> tuple[dict[str, Expected], dict[frozenset[str], dict[str, int]]]:
    """Every player's figures and every pair's head-to-head over ``(names, complete hands)`` games."""
    figures: dict[str, Expected] = {}
    pairs: dict[frozenset[str], dict[str, int]] = {}
    for names, hands in games:
        cards_of = schedule(len(names))
        finished = len(hands) == len(cards_of)
        totals = [0] * len(names)
        for number, (bids, tricks) in enumerate(hands):
            for seat, name in enumerate(names):
                bid, taken = bids[seat], tricks[seat]
                e = figures.setdefault(name, Expected())
                mark = outcome(bid, taken)
                e.hands += 1
                e.set += mark == "S"
                e.over += mark == "O"
                e.perfect += mark == "P"
                e.overtricks += max(0, taken - bid)
                e.bid += bid
                e.taken += taken
                e.points += points(bid, taken)
                totals[seat] += points(bid, taken)
                line = e.by_cards.setdefault(str(cards_of[number]), {"hands": 0, "set": 0, "over": 0, "perfect": 0})
                line["hands"] += 1
                line[{"S": "set", "O": "over", "P": "perfect"}[mark]] += 1
        for seat, name in enumerate(names):
            e = figures.setdefault(name, Expected())
            e.games += 1
            e.finished += finished
            e.wins += finished and totals[seat] == max(totals)  # R21: a shared first place wins for each
        if finished:
            for i, a in enumerate(names):
                for j, b in enumerate(names[i + 1 :], start=i + 1):
                    pair = pairs.setdefault(frozenset((a, b)), {"games": 0, a: 0, b: 0})
                    pair["games"] += 1
                    if totals[i] != totals[j]:
                        pair[a if totals[i] > totals[j] else b] += 1
    return figures, pairs
