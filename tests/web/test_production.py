"""The production path, with real gunicorn processes (``deploy/gunicorn.conf.py``, as ``make serve`` runs it).

- the access log never holds a token;
- two slow clients do not stop a server (threaded workers);
- two app servers on one PostgreSQL database serve the same games: a table game written on one
  and watched on the other, a virtual table continued on the other, rate limits counted once.
"""

from __future__ import annotations

import os
import random
import re
import socket
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote

import pytest
import redis
import requests
from gunicorn.config import Config

from scorekeeper.extensions import db
from scorekeeper.serving import TokenFreeLogger
from scorekeeper.tokens import new_token
from scorekeeper.tokens import redact

from ..conftest import make_app
from .servers import gunicorn
from .servers import Server

POSTGRES = os.environ.get("TEST_DATABASE_URL")


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def fresh_schema(url: str) -> None:
    """An empty schema on ``url`` (as ``flask db upgrade`` leaves it), made by the test app."""
    app = make_app(url)
    with app.app_context():
        db.engine.dispose()


def wait_for(condition: Any, what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


# -- one server --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("gunicorn")
    url = f"sqlite:///{folder / 'serve.sqlite'}"
    fresh_schema(url)
    with gunicorn(folder, url) as running:
        yield running


def test_the_access_log_never_holds_a_token(server: Server) -> None:
    game = requests.post(f"{server.base}/api/games", json={"players": ["Ann", "Ben"]}, timeout=10).json()
    scorer, watch = game["scorer_token"], game["watch_token"]
    browser = requests.Session()
    joined = browser.get(
        f"{server.base}/g/{game['id']}/join/{scorer}?w={watch}",
        timeout=10,
        headers={"Referer": f"{server.base}/g/{game['id']}/join/{watch}"},
    )
    assert joined.status_code == 200 and joined.url == f"{server.base}/g/{game['id']}"
    assert requests.get(f"{server.base}/api/games/{game['id']}", headers=auth(watch), timeout=10).ok
    wait_for(lambda: f"/g/{game['id']}/join/" in server.output(), "the join request in the access log")
    log = server.output()
    assert scorer not in log and watch not in log
    assert f'"GET /g/{game["id"]}/join/…?w=… HTTP/1.1" 302' in log
    escaped = requests.get(f"{server.base}/g/{game['id']}/joi%6E/{scorer}", timeout=10, allow_redirects=False)
    assert escaped.status_code == 302  # the same join link, spelt with a percent-escape
    wait_for(lambda: server.output().count(f"/g/{game['id']}/join/…") >= 2, "the escaped join in the access log")
    doubled = requests.get(f"{server.base}/g/{game['id']}/join//{scorer}", timeout=10, allow_redirects=False)
    assert doubled.status_code == 308  # routed to the join link itself
    wait_for(lambda: server.output().count(f"/g/{game['id']}/join/…") >= 3, "the doubled slash in the access log")
    port = int(server.base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as refused:  # a request line gunicorn refuses
        refused.sendall(f"GET /g/{game['id']}/join/{scorer}?w={watch}\x01 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert refused.recv(100).startswith(b"HTTP/1.1 400")
    wait_for(lambda: "Invalid request" in server.output(), "the refused request line in the error log")
    assert scorer not in server.output() and watch not in server.output()


def test_a_phone_with_the_cookies_of_many_games_is_still_answered(server: Server) -> None:
    """A cookie a game (about 65 bytes): with gunicorn's 8 KB for a header, a phone that had opened
    some 120 games got 431 for every page. A browser keeps at most 180 cookies for a site."""
    cookies = "; ".join(f"sk{'w' if i % 2 else ''}_{i:016x}={'x' * 43}" for i in range(180))
    assert len(cookies) > 11_000
    answer = requests.get(f"{server.base}/", headers={"Cookie": cookies}, timeout=10)
    assert answer.status_code == 200, answer.text[:200]


def test_a_request_cannot_write_a_line_of_its_own_into_the_log(server: Server) -> None:
    """Decoded to find tokens, an escaped line break or NUL is written as its escape, not as a new
    line that looks like another client's request."""
    forged = '1.2.3.4 "GET /forged HTTP/1.1" 200 0 0ms'
    requests.get(f"{server.base}/g/abc%0a{quote(forged)}", timeout=10)
    requests.get(f"{server.base}/rules%250d%0aInjected%00", timeout=10)
    wait_for(lambda: "Injected" in server.output(), "both requests in the access log")
    lines = server.output().splitlines()
    assert not [line for line in lines if line.startswith(("1.2.3.4", "Injected")) or "\x00" in line or "\r" in line]
    assert "/g/abc\\n1.2.3.4 " in server.output() and "/rules\\r\\nInjected\\x00" in server.output()


def test_without_a_proxy_a_forwarded_https_is_not_believed_even_from_the_same_machine(server: Server) -> None:
    answer = requests.post(
        f"{server.base}/api/games", json={"players": ["Ann", "Ben"]}, headers={"X-Forwarded-Proto": "https"}, timeout=10
    )
    assert answer.status_code == 201 and answer.json()["scorer_url"].startswith("http://")
    assert "Strict-Transport-Security" not in answer.headers


def test_tokens_are_taken_out_of_every_field() -> None:
    line = "GET /t/abc/join/SECRET?x=1&w=WATCH HTTP/1.1"
    assert "SECRET" not in redact(line) and "WATCH" not in redact(line) and "x=1" in redact(line)
    assert redact("w=WATCH&x=1") == "w=…&x=1"  # gunicorn's %(q)s: the query without its "?"
    assert redact("/groups/abc/join/SECRET") == "/groups/abc/join/…"
    assert redact("/g/abc/join%2FSECRET%3Fw%3DWATCH") == "/g/abc/join/…?w=…"
    token = new_token()  # a mistyped link (a 404) holds the token all the same
    for line in (f"/g/abc/JOIN/{token}", f"/g/abc/jo%2569n/{token}", f"/nonexistent/{token}", f"T={token}&x=1"):
        assert token not in redact(line), line
    assert redact("/static/app.css?v=3f2a9c1b0d") == "/static/app.css?v=3f2a9c1b0d"  # ids and versions stay


def test_the_environment_copies_of_the_token_headers_are_hidden_too() -> None:
    """gunicorn offers each request header twice: ``{cookie}i`` and the WSGI ``{http_cookie}e``."""
    config = Config()
    config.set("accesslog", "-")
    logger = TokenFreeLogger(config)
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": "/g/a/join/SECRET",
        "PATH_INFO": "/g/a/join/SECRET",
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_AUTHORIZATION": "Bearer SECRET",
        "HTTP_COOKIE": "sk_abc=SECRET",
    }
    request = SimpleNamespace(headers=[("AUTHORIZATION", "Bearer SECRET"), ("COOKIE", "sk_abc=SECRET")])
    response = SimpleNamespace(status="200 OK", headers=[("Set-Cookie", "sk_abc=SECRET")], sent=0)
    atoms = logger.atoms(response, request, environ, timedelta(seconds=0.01))  # type: ignore[arg-type]
    assert not [key for key, value in atoms.items() if "SECRET" in str(value)]
    assert atoms["{http_cookie}e"] == atoms["{cookie}i"] == "…"


def test_two_slow_clients_do_not_stop_the_server(server: Server) -> None:
    """One process of four threads: clients that send half a request hold a thread each, nothing more."""
    port = int(server.base.rsplit(":", 1)[1])
    slow = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(2)]
    try:
        for sock in slow:
            sock.sendall(b'POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n{"pl')
        started = time.monotonic()
        answer = requests.get(f"{server.base}/", timeout=10)
        assert answer.status_code == 200
        assert time.monotonic() - started < 5
    finally:
        for sock in slow:
            sock.close()


# -- two servers, one PostgreSQL database ---------------------------------------------------------------
@pytest.fixture
def two_servers(tmp_path: Path, redis_url: str) -> Iterator[tuple[Server, Server]]:
    if not POSTGRES:
        pytest.skip("needs TEST_DATABASE_URL (PostgreSQL), as .ci/run sets it")
    store = redis.Redis.from_url(redis_url)
    store.flushdb()
    fresh_schema(POSTGRES)
    shared = {"SCOREKEEPER_RATELIMIT_STORAGE_URL": redis_url, "SCOREKEEPER_RATELIMIT_CREATE": "3 per minute"}
    try:
        with gunicorn(tmp_path / "a", POSTGRES, **shared) as a, gunicorn(tmp_path / "b", POSTGRES, **shared) as b:
            assert a.process.pid != b.process.pid
            yield a, b
    finally:
        store.flushdb()
        store.close()


def test_two_app_servers_on_one_database_play_the_same_games(two_servers: tuple[Server, Server]) -> None:
    a, b = two_servers
    # A table game: created on A, each hand's bids written on one server and its tricks on the
    # other, and every write seen at once by a watcher polling the other server.
    game = requests.post(f"{a.base}/api/games", json={"players": ["Ann", "Ben", "Cy"]}, timeout=10).json()
    scorer, watch, game_id = auth(game["scorer_token"]), auth(game["watch_token"]), game["id"]
    rng = random.Random(12)
    version = game["version"]
    for number, cards in enumerate(game["schedule"], start=1):
        writer, watcher = (a, b) if number % 2 else (b, a)
        cuts = sorted(rng.randint(0, cards) for _ in range(2))
        tricks = [cuts[0], cuts[1] - cuts[0], cards - cuts[1]]
        bids = [max(1, t) for t in tricks]
        for kind, values, server, other in (("bids", bids, writer, watcher), ("tricks", tricks, watcher, writer)):
            answer = requests.put(
                f"{server.base}/api/games/{game_id}/hands/{number}/{kind}",
                json={kind: values, "version": version},
                headers=scorer,
                timeout=10,
            )
            assert answer.status_code == 200, answer.text
            version = answer.json()["version"]
            seen = requests.get(f"{other.base}/api/games/{game_id}/version", headers=watch, timeout=10).json()
            assert seen == {"version": version}
    on_a = requests.get(f"{a.base}/api/games/{game_id}", headers=watch, timeout=10).json()
    on_b = requests.get(f"{b.base}/api/games/{game_id}", headers=watch, timeout=10).json()
    assert on_a == on_b and on_a["status"] == "finished" and on_a["version"] == version

    # The scorer's phone: the join link opened on A, the page and its form used on B (one secret
    # key, one database: whichever server the proxy picks answers the same).
    phone = requests.Session()
    second = requests.post(f"{b.base}/api/games", json={"players": ["Dee", "Eve"]}, timeout=10).json()
    assert phone.get(f"{a.base}/g/{second['id']}/join/{second['scorer_token']}", timeout=10).status_code == 200
    page = phone.get(f"{b.base}/g/{second['id']}", timeout=10).text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token, "the scorer's page on B has its form"
    saved = phone.post(
        f"{b.base}/g/{second['id']}/hands/1/bids",
        allow_redirects=False,
        timeout=10,
        data={"csrf_token": token.group(1), "version": "1", "bid_0": "3", "bid_1": "4"},
    )
    assert saved.status_code == 302, saved.text[:500]
    assert requests.get(f"{a.base}/api/games/{second['id']}", headers=auth(second["watch_token"]), timeout=10).json()[
        "hands"
    ][0]["bids"] == [3, 4]

    # A virtual table: started on A, half played there, finished on B.
    table = requests.post(
        f"{a.base}/api/tables",
        timeout=10,
        json={"seats": [{"name": "Ann"}] + [{"name": f"Robo{i}", "bot": "random"} for i in range(14)]},
    ).json()
    seat = auth(table["seats"][0]["token"])
    moves = 0
    while True:
        server = a if moves < 8 else b
        view = requests.get(f"{server.base}/api/tables/{table['id']}/view", headers=seat, timeout=10).json()
        if view["phase"] == "finished":
            break
        assert view["your_turn"] and view["legal"], view
        kind, value = ("bid", view["legal"][0]) if view["phase"] == "bidding" else ("play", view["legal"][0])
        answer = requests.post(
            f"{server.base}/api/tables/{table['id']}/{kind}",
            headers=seat,
            timeout=10,
            json={kind if kind == "bid" else "card": value},
        )
        assert answer.status_code == 200, answer.text
        moves += 1
    assert moves > 8  # both servers played
    final_a = requests.get(f"{a.base}/api/tables/{table['id']}/view", headers=seat, timeout=10).json()
    assert final_a == view and final_a["phase"] == "finished"
    host = auth(table["host_token"])
    document = requests.get(f"{a.base}/api/games/{table['game_id']}", headers=host, timeout=10).json()
    assert document["status"] == "finished" and document["totals"] == view["totals"]

    # Rate limits are counted once for both servers (Redis): three creations were allowed,
    # the fourth is refused wherever it arrives.
    refused = requests.post(f"{b.base}/api/games", json={"players": ["Fay", "Gus"]}, timeout=10)
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    assert requests.post(f"{a.base}/api/games", json={"players": ["Fay", "Gus"]}, timeout=10).status_code == 429
