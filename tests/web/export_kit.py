"""Builders for the PDF and export tests: games entered through the JSON API, PDFs read back."""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from typing import Any

import pypdf
from flask.testing import FlaskClient

from scorekeeper.engine import Rules

A4 = (841.89, 595.28)  # landscape, in PDF points
LETTER = (792.0, 612.0)
MINUS = "\N{MINUS SIGN}"

#: RULES.md's worked example: three players, hands 1 and 2 of 25.
WORKED = {"players": ["Ann", "Ben", "Cy"], "hands": [([4, 5, 3], [5, 3, 5]), ([2, 6, 4], [2, 7, 3])]}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(client: FlaskClient, players: Sequence[str], **settings: Any) -> dict[str, Any]:
    """``POST /api/games``; the answer (id, tokens, document)."""
    answer = client.post("/api/games", json={"players": list(players), **settings})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def record(
    client: FlaskClient, game: dict[str, Any], number: int, bids: list[int], tricks: list[int], trump: str | None = None
) -> dict[str, Any]:
    """One whole hand through the API; the new game document."""
    scorer = auth(game["scorer_token"])
    body: dict[str, Any] = {"bids": bids} | ({"trump": trump} if trump else {})
    answer = client.put(f"/api/games/{game['id']}/hands/{number}/bids", json=body, headers=scorer)
    assert answer.status_code == 200, answer.get_json()
    answer = client.put(f"/api/games/{game['id']}/hands/{number}/tricks", json={"tricks": tricks}, headers=scorer)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def legal_hand(rng: random.Random, players: int, cards: int, low: int = 1) -> tuple[list[int], list[int]]:
    """Bids from R13's range and tricks that add up to the cards dealt (R23), varied enough for S, O and P."""
    bids = [rng.randint(low, max(low, min(cards, cards // 2 + 1))) for _ in range(players)]
    cuts = sorted(rng.randint(0, cards) for _ in range(players - 1))
    return bids, [b - a for a, b in zip([0, *cuts], [*cuts, cards])]


def play_out(
    client: FlaskClient, game: dict[str, Any], hands: int | None = None, seed: int = 7, start: int = 1
) -> dict[str, Any]:
    """Record hands ``start``… (all by default) with legal random entries and trumps; the last document."""
    doc = game
    rules = Rules.build(len(game["players"]), game["variant"], game["options"])
    rng = random.Random(seed)
    last = rules.hand_count if hands is None else hands
    for number in range(start, last + 1):
        bids, tricks = legal_hand(rng, rules.players, rules.cards_in_hand(number), rules.min_bid())
        doc = record(client, game, number, bids, tricks, rng.choice("SHDC") if rules.has_turn_up(number) else None)
    return doc


def worked_example(client: FlaskClient, finish: bool = False) -> tuple[dict[str, Any], dict[str, Any]]:
    """RULES.md's worked example (optionally played to the end); the created game and its document."""
    game = new_game(client, WORKED["players"])
    doc = game
    for number, (bids, tricks) in enumerate(WORKED["hands"], start=1):
        doc = record(client, game, number, bids, tricks)
    if finish:
        doc = play_out(client, game, start=3)
    return game, doc


def pages(pdf: bytes) -> list[pypdf.PageObject]:
    assert pdf.startswith(b"%PDF"), pdf[:200]
    return list(pypdf.PdfReader(io.BytesIO(pdf)).pages)


def page_texts(pdf: bytes) -> list[str]:
    """Each page's text, one line per printed row (pypdf's plain extraction)."""
    return [page.extract_text() for page in pages(pdf)]


def lines(pdf: bytes) -> list[str]:
    """Every printed line of every page."""
    return [line.strip() for text in page_texts(pdf) for line in text.splitlines()]


def size(page: pypdf.PageObject) -> tuple[float, float]:
    return round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)


def points(value: int) -> str:
    """A score as printed (true minus sign)."""
    return str(value).replace("-", MINUS)


def row_of(pdf_lines: list[str], number: int) -> list[str]:
    """The tokens of hand ``number``'s row, dealer button and trump mark (pip, NT, – not noted) left out."""
    for line in pdf_lines:
        tokens = line.split()
        if tokens and tokens[0] == str(number) and len(tokens) > 1 and "/" in tokens[1]:
            return [t for t in tokens if t not in ("D", "♠", "♥", "♦", "♣", "NT", "–")]
    raise AssertionError(f"no row for hand {number} in {pdf_lines}")


def dealer_columns(pdf: bytes, headers: Sequence[str]) -> dict[int, int]:
    """Hand number → the column (index into ``headers``) whose cell holds the dealer's button ``D``.

    Read from pypdf's layout mode, which keeps each text run at its place on the line: a button
    belongs to the column whose header starts nearest to it.
    """
    found: dict[int, int] = {}
    for page in pages(pdf):
        text = page.extract_text(extraction_mode="layout")
        starts: list[int] = []
        for line in text.splitlines():
            if not starts and line.lstrip().startswith("#") and all(h in line for h in headers):
                at = 0
                for header in headers:
                    at = line.index(header, at)
                    starts.append(at)
                    at += len(header)
                continue
            tokens = line.split()
            padded = f" {line} "
            if starts and tokens and tokens[0].isdigit() and " D " in padded:
                column = padded.index(" D ")  # the index of the D in ``line``
                found[int(tokens[0])] = min(range(len(starts)), key=lambda i: abs(starts[i] - column))
    return found
