"""Small builders for the page tests: what a phone's browser sends, without a browser."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event
from werkzeug.test import TestResponse

from scorekeeper import games
from scorekeeper.extensions import db
from scorekeeper.models import Game

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """Every SQL statement the app sends while the block runs, in order."""
    sent: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        sent.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", record)


def csrf(client: FlaskClient, url: str = "/new") -> str:
    """The CSRF token a page carries (the session cookie goes with the client)."""
    page = client.get(url)
    found = TOKEN.search(page.get_data(as_text=True))
    assert found, f"no CSRF token on {url}"
    return found.group(1)


def new_game(client: FlaskClient, names: list[str], dealer: str = "0", **fields: Any) -> str:
    """Fill in the set-up form and start; returns the game id (the client is now its scorer)."""
    data = {
        "csrf_token": csrf(client),
        "variant": "standard",
        "first_dealer": dealer,
        "action": "start",
        **{f"names-{i}": name for i, name in enumerate(names)},
        **fields,
    }
    answer = client.post("/new", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return answer.headers["Location"].split("/")[2]


def second_phone(app: Flask, client: FlaskClient, game_id: str) -> FlaskClient:
    """Another scorer's phone: the same game's scorer cookie in a browser of its own (its own session)."""
    phone = app.test_client()
    cookie = client.get_cookie(f"sk_{game_id}")
    assert cookie is not None
    phone.set_cookie(cookie.key, cookie.value)
    return phone


def document(app: Flask, game_id: str) -> dict[str, Any]:
    """The game document as the API would answer it."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        return games.document(game)


def post_hand(
    client: FlaskClient,
    game_id: str,
    number: int,
    kind: str,
    values: list[Any],
    version: int | None = None,
    trump: str | None = None,
    token: str | None = None,
    **extra: Any,
) -> TestResponse:
    """Tap one value per seat (``None`` = not tapped) and press the button."""
    field = "bid" if kind == "bids" else "tricks"
    data: dict[str, Any] = {f"{field}_{seat}": str(v) for seat, v in enumerate(values) if v is not None}
    data["csrf_token"] = token if token is not None else csrf(client, f"/g/{game_id}")
    if version is not None:
        data["version"] = str(version)
    if trump is not None:
        data["trump"] = trump
    return client.post(f"/g/{game_id}/hands/{number}/{kind}", data={**data, **extra})


def current_version(app: Flask, game_id: str) -> int:
    return document(app, game_id)["version"]


def play(client: FlaskClient, app: Flask, game_id: str, number: int, bids: list[int], tricks: list[int]) -> None:
    """Record a whole hand through the pages, as the scorer's phone does."""
    answer = post_hand(client, game_id, number, "bids", bids, current_version(app, game_id))
    assert answer.status_code == 302, answer.get_data(as_text=True)
    answer = post_hand(client, game_id, number, "tricks", tricks, current_version(app, game_id))
    assert answer.status_code == 302, answer.get_data(as_text=True)


RULE_LINK = re.compile(r'<a class="rule" href="/rules#R\d+">(R\d+)</a>')


def text(answer: TestResponse) -> str:
    """The page, with each rule number's link to the Rules page read as the plain number (rulebook.rule_links)."""
    return RULE_LINK.sub(r"\1", answer.get_data(as_text=True))


def sent_at_once(app: Flask, phone: FlaskClient, path: str, data: dict[str, str], times: int = 3) -> list[int]:
    """The statuses of ``data`` posted to ``path`` ``times`` times at the same moment, each from a
    client holding ``phone``'s session (a double tap, or a resend while the first is on its way)."""
    statuses: list[int] = []
    barrier = threading.Barrier(times)

    def tap() -> None:
        client = app.test_client()
        client.set_cookie("session", phone.get_cookie("session").value)  # type: ignore[union-attr]
        barrier.wait()
        statuses.append(client.post(path, data=data).status_code)

    taps = [threading.Thread(target=tap) for _ in range(times)]
    for t in taps:
        t.start()
    for t in taps:
        t.join()
    return statuses
