"""Builders and checks shared by the virtual-table web tests."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper import create_app
from scorekeeper.engine import Card
from scorekeeper.engine import DECK
from scorekeeper.extensions import db
from scorekeeper.models import Game as GameRow
from scorekeeper.models import VirtualTable

ALL_CODES = frozenset(str(c) for c in DECK)
CODE_RE = re.compile(r"\b(?:[2-9TJQKA][SHDC]|HB|LB)\b")
LABELS = {str(c): c.label for c in DECK}
#: How a screen reader names the cards (an aria-label) in two languages: ranks, then each suit's
#: pattern, then the Blukes. Written out here, not taken from the app, so that a test checks its words.
SPOKEN = {
    "en": (
        "two three four five six seven eight nine ten jack queen king ace".split(),
        {"S": "{} of spades", "H": "{} of hearts", "D": "{} of diamonds", "C": "{} of clubs"},
        {"HB": "Hi Bluke", "LB": "Lo Bluke"},
    ),
    "ru": (
        "двойка тройка четвёрка пятёрка шестёрка семёрка восьмёрка девятка десятка валет дама король туз".split(),
        {"S": "{} пик", "H": "{} червей", "D": "{} бубен", "C": "{} треф"},
        {"HB": "Старший блюк", "LB": "Младший блюк"},
    ),
}


def said(code: str, lang: str = "en") -> str:
    """``said("QS")`` → ``queen of spades``; ``said("AH", "ru")`` → ``туз червей``."""
    ranks, suits, blukes = SPOKEN[lang]
    if code in blukes:
        return blukes[code]
    return suits[code[1]].format(ranks["23456789TJQKA".index(code[0])])


#: Each card as a screen reader says it in English: a card's name is in a page too.
NAMES = {code: said(code) for code in ALL_CODES}
CSRF_RE = re.compile(r'name="csrf_token" value="[^"]*"')


@pytest.fixture
def patient_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots finish their turns within each request, as on an idle server.

    The tests that use it check rules, answers and pages, not pacing: on a loaded machine the real
    0.2 s budget (1 s by the clock) may end a request before the human's turn, and the next look would
    continue; and the bots of a process think for half a processor at most (``BOT_SHARE``).
    The bounded work itself is tested with the budget at zero (test_virtual_api) and, with the
    real budget, by the hidden-card scan and the browser tests.
    """
    from scorekeeper.virtual import service

    monkeypatch.setattr(service, "BOT_BUDGET_SECONDS", 10.0)
    monkeypatch.setattr(service, "BOT_WAIT_SECONDS", 10.0)
    monkeypatch.setattr(service, "BOT_SHARE", 1e9)  # a test's bots may use all the test's processor


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def api_view(client: FlaskClient, table: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table}/view", headers=auth(token))
    assert answer.status_code == 200
    return dict(answer.get_json())


def finish(
    client: FlaskClient, table: str, tokens: dict[int, str], until: Callable[[dict[str, Any]], bool] | None = None
) -> dict[str, Any]:
    """Play the table to its end (or until a view meets ``until``) through the API, every human
    taking a random legal move."""
    rng = random.Random(0)
    v: dict[str, Any] = {}
    for _ in range(2000):
        views = [api_view(client, table, t) for t in tokens.values()]
        v = views[0]
        if v["phase"] == "finished" or (until is not None and until(v)):
            return v
        mover = next(((s, w) for s, w in zip(tokens, views) if w["your_turn"]), None)
        if mover is None:
            continue  # bots still moving: the next look lets them go on
        seat, w = mover
        kind, path = ("bid", "bid") if w["phase"] == "bidding" else ("card", "play")
        client.post(f"/api/tables/{table}/{path}", json={kind: rng.choice(w["legal"])}, headers=auth(tokens[seat]))
    raise AssertionError("the game did not finish")


def seats(*spec: str) -> list[dict[str, Any]]:
    """``seats("Ann", "bot", "Ben")`` → a human Ann, a random bot, a human Ben."""
    out: list[dict[str, Any]] = []
    for i, s in enumerate(spec):
        out.append({"name": f"Robo{i}", "bot": "random"} if s == "bot" else {"name": s})
    return out


def create(client: FlaskClient, spec: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"seats": spec, **extra})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def row(app: Flask, table_id: str) -> dict[str, Any]:
    """The stored table, its game's version and hand rows: everything a refused request must not change."""
    with app.app_context():
        table = db.session.get(VirtualTable, table_id)
        assert table is not None
        game = db.session.get(GameRow, table.game_id)
        assert game is not None
        return {
            "state": table.state,
            "seats": table.seats,
            "phase": table.phase,
            "version": table.version,
            "game_version": game.version,
            "hands": [(h.number, h.bids, h.tricks, h.trump) for h in game.hands],
        }


class StateReader:
    """Reads a table's stored engine state straight from the database (fast, for scanning)."""

    def __init__(self, app: Flask) -> None:
        with app.app_context():
            self.engine = db.engine

    def __call__(self, table_id: str) -> dict[str, Any] | None:
        return self.with_version(table_id)[0]

    def with_version(self, table_id: str) -> tuple[dict[str, Any] | None, int]:
        with self.engine.connect() as connection:
            state, version = connection.execute(
                select(VirtualTable.state, VirtualTable.version).where(VirtualTable.id == table_id)
            ).one()
            return state, version


def visible(state: dict[str, Any] | None, seat: int | None) -> set[str]:
    """Cards ``seat`` (None: the host) can see at a real table, computed from the stored state."""
    if state is None:
        return set()
    seen = {p["card"] for p in state["trick"]} | {p["card"] for p in state["last_trick"]}
    seen |= {p["card"] for t in state["played"] for p in t}
    seen |= {e["card"] for e in state.get("log", ()) if "card" in e}  # played face up (replayed moves)
    if state["turn_up"] and state["phase"] in ("bidding", "playing"):
        seen.add(state["turn_up"])
    if seat is not None:
        seen |= set(state["hands"][seat])
    return seen


def leaks(text: str, state: dict[str, Any] | None, seat: int | None, tokens: Any = ()) -> set[str]:
    """Codes, labels or spoken names in ``text`` of cards this reader cannot see (others' hands, undealt cards).

    CSRF values and the given ``tokens`` (the host's answers carry the seat links) are random
    text that can contain ``-AH-`` by chance; they are left out of the scan.
    """
    hidden = ALL_CODES - visible(state, seat)
    text = CSRF_RE.sub("", text)
    for token in tokens:
        text = text.replace(token, "")
    found = {code for code in CODE_RE.findall(text) if code in hidden}
    found |= {code for code in hidden if LABELS[code] in text or NAMES[code] in text}
    return found


def label(code: str) -> str:
    return Card.parse(code).label


def fresh_app(url: str, create: bool = False, **config: Any) -> Flask:
    """Another app on the same database: a second worker, or the server after a restart."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "test-secret",
            "ALLOW_SEED": True,
            "RATELIMIT_ENABLED": False,
            **config,
        }
    )
    if create:
        with app.app_context():
            db.create_all()
    return app


def dispose(app: Flask) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
