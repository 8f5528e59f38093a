"""No answer shows a card its reader could not see at a real table (API.md, "Virtual mode").

Plays 200 seeded games (50 on PostgreSQL) through the JSON API and the seat pages (short games:
11–15 players have 5 or 7 hands; a few 8–10-player games, both variants, some with zero bids or
an all-cards hand), random bots, one or two human seats. After EVERY answer — views, action answers, seat
pages and their polled partials, the host's view, and deliberately refused requests — it
computes from the stored server state which cards the reader cannot see (other seats' unplayed
cards and the undealt cards) and fails if any of their codes or labels is in the answer.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from .virtual_support import ALL_CODES
from .virtual_support import auth
from .virtual_support import create
from .virtual_support import leaks
from .virtual_support import row
from .virtual_support import StateReader
from .virtual_support import visible

GAMES = 200
#: The filter is the same code on every database; PostgreSQL (CI's second run) gets a shorter pass.
GAMES_ON_POSTGRESQL = 50
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def config(rng: random.Random) -> dict[str, Any]:
    """A short game: mostly 11–15 players (5 or 7 hands); sometimes 8–10 players or an option."""
    variant = rng.choice(["standard", "new-jersey"])
    options: dict[str, bool] = {}
    draw = rng.random()
    if draw < 0.6:
        players = rng.randint(14, 15)
    elif draw < 0.85:
        players = rng.randint(11, 13)
    else:
        players = rng.choice([8, 9, 10])
    if players == 9 and rng.random() < 0.7:
        options["all_cards_hand"] = True  # a final hand with no card to turn up (R10, R12)
    if rng.random() < 0.2:
        options["zero_bids"] = True
    humans = 2 if rng.random() < 0.3 else 1
    human_seats = set(rng.sample(range(players), humans))
    seats = [{"name": f"P{i}"} if i in human_seats else {"name": f"Bot{i}", "bot": "random"} for i in range(players)]
    return {"seats": seats, "variant": variant, "options": options, "first_dealer": rng.randrange(players)}


BID_BUTTON = re.compile(r'name="bid" value="(\d+)"')
CARD_BUTTON = re.compile(r'name="card" value="(\w\w)" class="vt-card([^"]*)"')
VERSION = re.compile(r'data-version="(\d+)"')


def from_page(text: str) -> dict[str, Any]:
    """What a player reads off the seat screen: the bid buttons, the tappable cards, the version."""
    cards = CARD_BUTTON.findall(text)
    bids = [int(b) for b in BID_BUTTON.findall(text)]
    return {
        "phase": "bidding" if bids else "playing",
        "legal": bids or [code for code, cls in cards if "vt-legal" in cls],
        "blocked": {code: "" for code, cls in cards if "vt-dim" in cls},
        "hand": [code for code, _ in cards],
        "cards": len(cards),
        "version": int(VERSION.search(text).group(1)),  # type: ignore[union-attr]
    }


class Reader:
    """One human seat, reading through the JSON API or through its seat page (as virtual.js does)."""

    def __init__(self, app: Flask, state: StateReader, table: str, seat: int, token: str, html: bool) -> None:
        self.app, self.state, self.table, self.seat, self.token, self.html = app, state, table, seat, token, html
        self.client = app.test_client()
        self.answers = 0
        self.csrf = ""
        self.last: dict[str, Any] | None = None  # what this seat's latest answer showed
        if html:
            joined = self.client.get(f"/t/{table}/join/{token}")
            assert joined.status_code == 302 and joined.headers["Location"].endswith(f"/t/{table}")
            self.page()

    def check(self, text: str, what: str) -> None:
        found = leaks(text, self.state(self.table), self.seat)
        assert not found, f"seat {self.seat} was shown {sorted(found)} in {what}"
        self.answers += 1

    def look(self) -> dict[str, Any]:
        """A fresh look: the JSON view, or the seat's partial page as the 1-second poll fetches it."""
        if self.html:
            answer = self.client.get(f"/t/{self.table}", headers={"X-Partial": "1"})
        else:
            answer = self.client.get(f"/api/tables/{self.table}/view", headers=auth(self.token))
        assert answer.status_code == 200
        text = answer.get_data(as_text=True)
        self.check(text, "a look at the table")
        self.last = from_page(text) if self.html else answer.get_json()
        return self.last

    def current(self, version: int) -> dict[str, Any]:
        """The seat's view: its last answer when nothing happened since, else a fresh look."""
        if self.last is not None and self.last["version"] == version:
            return self.last
        return self.look()

    def page(self) -> None:
        """The whole seat page, and the version poll."""
        answer = self.client.get(f"/t/{self.table}")
        assert answer.status_code == 200
        text = answer.get_data(as_text=True)
        self.csrf = CSRF.search(text).group(1) if CSRF.search(text) else self.csrf
        self.check(text, "the seat page")
        polled = self.client.get(f"/t/{self.table}/version")
        self.check(polled.get_data(as_text=True), "the version poll")

    def send(self, kind: str, value: Any, version: int | None) -> Any:
        """Bid or play through the API or the page's form (as virtual.js posts it); scan the answer."""
        field = "card" if kind == "play" else "bid"
        if self.html:
            form = {field: str(value), "csrf_token": self.csrf}
            if version is not None:
                form["version"] = str(version)
            answer = self.client.post(f"/t/{self.table}/{kind}", data=form, headers={"X-Partial": "1"})
        else:
            body: dict[str, Any] = {field: value}
            if version is not None:
                body["version"] = version
            answer = self.client.post(f"/api/tables/{self.table}/{kind}", json=body, headers=auth(self.token))
        text = answer.get_data(as_text=True)
        self.check(text, f"the answer to {kind} {value!r} ({answer.status_code})")
        if answer.status_code == 200:
            self.last = from_page(text) if self.html else answer.get_json()
        return answer


def refusals(reader: Reader, v: dict[str, Any], state: dict[str, Any], rng: random.Random) -> None:
    """Deliberately wrong requests: each is refused, changes nothing and leaks nothing."""
    hidden = sorted(ALL_CODES - set(state["hands"][reader.seat]))
    tries: list[tuple[str, Any, int | None]] = [("play", rng.choice(hidden), v["version"])]  # not in hand
    if v["phase"] == "playing" and v["blocked"]:
        tries.append(("play", rng.choice(sorted(v["blocked"])), v["version"]))  # must follow suit
    if v["phase"] == "bidding":
        tries.append(("bid", v["cards"] + 1, v["version"]))
    tries.append(("play" if v["phase"] == "playing" else "bid", v["legal"][0], v["version"] - 1))  # stale
    for kind, value, version in tries:
        answer = reader.send(kind, value, version)
        assert answer.status_code in (409, 422), (kind, value, answer.status_code)


SVG = re.compile(r"<svg.*?</svg>", re.S)


def host_looks(
    client: FlaskClient,
    page: FlaskClient,
    table: str,
    host: str,
    read: StateReader,
    tokens: list[str],
    rng: random.Random,
) -> None:
    """The host's answers: its JSON view, its page as the poll fetches it, and refused requests.

    The host sees no hand: only what lies face up. Its answers carry the links of seats nobody
    has joined yet (tokens, and QR codes drawing them), which are random text and left out.
    """
    answers = [
        client.get(f"/api/tables/{table}/view", headers=auth(host)),
        page.get(f"/t/{table}/host", headers={"X-Partial": "1"}),
    ]
    if rng.random() < 0.2:
        hidden = rng.choice(sorted(ALL_CODES - visible(read(table), None)))
        answers += [
            client.post(f"/api/tables/{table}/play", json={"card": hidden}, headers=auth(host)),
            client.put(f"/api/tables/{table}/seats/99", json={"bot": hidden}, headers=auth(host)),
        ]
    state = read(table)
    for answer in answers:
        assert answer.status_code in (200, 400, 403), answer.status_code
        found = leaks(SVG.sub("", answer.get_data(as_text=True)), state, None, tokens)
        assert not found, f"the host was shown {sorted(found)}"


def play_game(app: Flask, client: FlaskClient, read: StateReader, seed: int) -> int:
    rng = random.Random(seed)
    setup = config(rng)
    created = create(
        client,
        setup["seats"],
        variant=setup["variant"],
        options=setup["options"],
        first_dealer=setup["first_dealer"],
        seed=seed,
    )
    table, host = created["id"], created["host_token"]
    readers = {
        s["seat"]: Reader(app, read, table, s["seat"], s["token"], html=rng.random() < 0.5) for s in created["seats"]
    }
    host_page = app.test_client()
    assert host_page.get(f"/t/{table}/join/{host}").status_code == 302
    tokens = [host, *(s["token"] for s in created["seats"])]
    watched_hand = 0
    while True:
        state, version = read.with_version(table)
        if state["phase"] == "finished":
            break
        bots_to_move = state["to_act"] not in readers
        if state["number"] != watched_hand or bots_to_move:
            # The host looks once per hand, and whenever bots have moves left (each look lets them
            # move for one short budget); through the API, the host page, and refused requests.
            watched_hand = state["number"]
            host_looks(client, host_page, table, host, read, tokens, rng)
            if bots_to_move:
                continue
        reader = readers[state["to_act"]]
        v = reader.current(version)
        assert v["legal"] and sorted(v["hand"]) == sorted(state["hands"][reader.seat])
        if rng.random() < 0.15:
            before = row(app, table)
            refusals(reader, v, state, rng)
            assert row(app, table) == before
        for other in readers.values():
            if other is not reader and rng.random() < 0.25:
                other.look()
        choice = rng.choice(v["legal"])
        answer = reader.send("bid" if v["phase"] == "bidding" else "play", choice, v["version"])
        assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
        if reader.html and rng.random() < 0.1:
            reader.page()
    for reader in readers.values():
        reader.page() if reader.html else reader.look()
    return sum(r.answers for r in readers.values())


def test_no_answer_shows_a_card_its_seat_could_not_see(app: Flask, client: FlaskClient) -> None:
    started = time.perf_counter()
    read = StateReader(app)
    games = GAMES_ON_POSTGRESQL if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql") else GAMES
    answers = sum(play_game(app, client, read, seed) for seed in range(games))
    elapsed = time.perf_counter() - started
    print(f"\n{games} games, {answers} seat answers scanned in {elapsed:.1f} s")
    assert answers > 20 * games
