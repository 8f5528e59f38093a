"""Ready for the internet: headers on every answer, trusted hosts, HTTPS behind a proxy, a private SQLite file."""

from __future__ import annotations

import http.client
import os
import re
import stat
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.web import PDF_POLICY
from scorekeeper.web import POLICY

from ..conftest import make_app

PLAYERS = {"players": ["Ann", "Ben", "Cy"]}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def game(client: FlaskClient) -> dict[str, Any]:
    answer = client.post("/api/games", json=PLAYERS)
    assert answer.status_code == 201
    data: dict[str, Any] = answer.get_json()
    return data


@pytest.fixture
def table(client: FlaskClient) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}]})
    assert answer.status_code == 201
    data: dict[str, Any] = answer.get_json()
    return data


# Every kind of answer the app gives, as (name, request): each must carry the same protections.
Call = Callable[[FlaskClient, dict[str, Any], dict[str, Any]], TestResponse]
ANSWERS: list[tuple[str, int, Call]] = [
    ("home page", 200, lambda c, g, t: c.get("/")),
    ("game page", 302, lambda c, g, t: c.get(f"/g/{g['id']}/join/{g['watch_token']}")),
    ("new game form", 200, lambda c, g, t: c.get("/new")),
    ("virtual seat page", 302, lambda c, g, t: c.get(f"/t/{t['id']}/join/{t['host_token']}")),
    ("page 404 of an unknown path", 404, lambda c, g, t: c.get("/no/such/page")),
    ("page 404 of an unknown game", 404, lambda c, g, t: c.get("/g/0000000000000000")),
    ("API game document", 200, lambda c, g, t: c.get(f"/api/games/{g['id']}", headers=auth(g["watch_token"]))),
    ("API created", 201, lambda c, g, t: c.post("/api/games", json=PLAYERS)),
    ("API 404 of an unknown path", 404, lambda c, g, t: c.get("/api/nothing/here")),
    ("API 405", 405, lambda c, g, t: c.delete("/api/games")),
    ("API 413", 413, lambda c, g, t: c.post("/api/games", data=b"x" * (3 * 1024 * 1024))),
    ("API 422", 422, lambda c, g, t: c.post("/api/games", json={"players": ["Solo"]})),
    ("virtual API view", 200, lambda c, g, t: c.get(f"/api/tables/{t['id']}/view", headers=auth(t["host_token"]))),
    ("export.json", 200, lambda c, g, t: c.get(f"/api/games/{g['id']}/export.json", headers=auth(g["watch_token"]))),
    ("export.csv", 200, lambda c, g, t: c.get(f"/api/games/{g['id']}/export.csv", headers=auth(g["watch_token"]))),
    (
        "scorecard PDF",
        200,
        lambda c, g, t: c.get(f"/api/games/{g['id']}/scorecard.pdf", headers=auth(g["watch_token"])),
    ),
    ("blank PDF", 200, lambda c, g, t: c.get("/scorecards/blank.pdf?players=3")),
    ("static file", 200, lambda c, g, t: c.get("/static/app.css")),
    ("static 404", 404, lambda c, g, t: c.get("/static/missing.css")),
]


@pytest.mark.parametrize(("name", "status", "call"), ANSWERS, ids=[a[0] for a in ANSWERS])
def test_every_kind_of_answer_carries_the_security_headers(
    client: FlaskClient,
    game: dict[str, Any],
    table: dict[str, Any],
    name: str,
    status: int,
    call: Call,
) -> None:
    answer = call(client, game, table)
    assert answer.status_code == status, answer.get_data(as_text=True)[:300]
    headers = answer.headers
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Frame-Options"] == "DENY"
    policy = headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy  # no page of ours can be framed (clickjacking)
    assert policy == (PDF_POLICY if answer.mimetype == "application/pdf" else POLICY)
    assert "Strict-Transport-Security" not in headers  # plain HTTP: HSTS would mean nothing
    answer.close()


def test_a_server_error_carries_the_headers_too(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'boom.sqlite'}", PROPAGATE_EXCEPTIONS=False)

    def boom() -> str:
        raise RuntimeError("a bug")

    app.add_url_rule("/api/boom", view_func=boom)
    answer = app.test_client().get("/api/boom")
    assert answer.status_code == 500
    assert answer.get_json()["error"]["code"] == "server_error"
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Content-Security-Policy"] == POLICY
    assert answer.headers["Referrer-Policy"] == "no-referrer"


def test_the_error_log_names_a_join_links_path_without_its_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'log.sqlite'}")
    with app.test_request_context("/g/abc/join/SECRET?w=WATCH"), caplog.at_level("ERROR"):
        try:
            raise RuntimeError("a bug")
        except RuntimeError:
            app.log_exception(sys.exc_info())
    assert "Exception on /g/abc/join/… [GET]" in caplog.text
    assert "SECRET" not in caplog.text and "WATCH" not in caplog.text


def test_a_pdf_may_use_the_browsers_viewer_but_not_be_framed(client: FlaskClient) -> None:
    policy = client.get("/scorecards/blank.pdf?players=3").headers["Content-Security-Policy"]
    assert "object-src 'none'" not in policy and "frame-ancestors 'none'" in policy


# -- trusted hosts ---------------------------------------------------------------------------------
@pytest.fixture
def guarded(tmp_path: Path) -> FlaskClient:
    app = make_app(f"sqlite:///{tmp_path / 'hosts.sqlite'}", TRUSTED_HOSTS=["bluke.example"])
    return app.test_client()


@pytest.mark.parametrize("path", ["/", "/new", "/api/games/0000000000000000", "/static/app.css", "/nowhere"])
def test_an_untrusted_host_is_refused_with_400_everywhere(guarded: FlaskClient, path: str) -> None:
    answer = guarded.get(path, headers={"Host": "evil.example"})
    assert answer.status_code == 400
    assert "host name" in answer.get_data(as_text=True)
    assert answer.headers["X-Content-Type-Options"] == "nosniff"


def test_an_untrusted_host_gets_no_link_and_creates_no_game(guarded: FlaskClient) -> None:
    answer = guarded.post("/api/games", json=PLAYERS, headers={"Host": "evil.example"})
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["code"] == "bad_request" and "host name" in error["message"]
    assert "evil" not in answer.get_data(as_text=True)
    with guarded.application.app_context():
        assert db.session.execute(db.text("SELECT count(*) FROM games")).scalar() == 0


def test_a_trusted_host_builds_the_links(guarded: FlaskClient) -> None:
    answer = guarded.post("/api/games", json=PLAYERS, headers={"Host": "bluke.example"})
    assert answer.status_code == 201
    assert answer.get_json()["scorer_url"].startswith("http://bluke.example/g/")


def test_trusted_hosts_come_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_HOSTS", "Bluke.Example, www.bluke.example")  # browsers send lower case
    app = create_app(
        {
            "SECRET_KEY": "x",
            "INSTANCE_PATH": str(tmp_path),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'env.sqlite'}",
        }
    )
    assert app.config["TRUSTED_HOSTS"] == ["bluke.example", "www.bluke.example"]
    assert app.test_client().get("/", headers={"Host": "bluke.example"}).status_code == 200


@pytest.mark.parametrize("host", ["Bluke.Example", "BLUKE.EXAMPLE:8443"])
def test_a_trusted_host_is_answered_in_any_case(guarded: FlaskClient, host: str) -> None:
    answer = guarded.post("/api/games", json=PLAYERS, headers={"Host": host})
    assert answer.status_code == 201
    assert answer.get_json()["scorer_url"].startswith(f"http://{host.lower()}/g/")


def test_without_trusted_hosts_any_host_is_answered(client: FlaskClient) -> None:
    assert client.get("/", headers={"Host": "anything.example"}).status_code == 200


# -- HTTPS behind a proxy --------------------------------------------------------------------------
@pytest.fixture
def proxied(tmp_path: Path) -> FlaskClient:
    app = make_app(f"sqlite:///{tmp_path / 'proxy.sqlite'}", PROXIES=1, TRUSTED_HOSTS=["bluke.example"])
    return app.test_client()


FORWARDED_HTTPS = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "bluke.example",
    "X-Forwarded-For": "203.0.113.7",
    "Host": "app:8000",
}


def cookies_of(answer: TestResponse) -> list[str]:
    return answer.headers.getlist("Set-Cookie")


def test_behind_a_tls_proxy_links_are_https_and_cookies_secure(proxied: FlaskClient) -> None:
    created = proxied.post("/api/games", json=PLAYERS, headers=FORWARDED_HTTPS)
    assert created.status_code == 201
    game = created.get_json()
    assert game["scorer_url"].startswith("https://bluke.example/g/")
    assert created.headers["Strict-Transport-Security"] == "max-age=31536000"
    joined = proxied.get(f"/g/{game['id']}/join/{game['scorer_token']}", headers=FORWARDED_HTTPS)
    assert joined.status_code == 302 and joined.headers["Location"] == f"/g/{game['id']}"
    cookies = cookies_of(joined)
    assert cookies and all("Secure" in c and "HttpOnly" in c and "SameSite=Lax" in c for c in cookies)
    form = proxied.get("/new", headers=FORWARDED_HTTPS)  # the session cookie carries the CSRF token
    assert [c for c in cookies_of(form) if c.startswith("session=")]
    assert all("Secure" in c for c in cookies_of(form))


def test_behind_a_tls_proxy_cookie_writes_pass_without_a_referer(proxied: FlaskClient) -> None:
    """Over HTTPS Flask-WTF wanted a same-origin Referer, which "Referrer-Policy: no-referrer" keeps
    browsers from sending: the scorer's saves and every form of a virtual table were refused (400)."""
    game = proxied.post("/api/games", json=PLAYERS, headers=FORWARDED_HTTPS).get_json()
    proxied.get(f"/g/{game['id']}/join/{game['scorer_token']}", headers=FORWARDED_HTTPS)

    def token(url: str) -> str:
        page = proxied.get(url, headers=FORWARDED_HTTPS)
        assert page.headers["Referrer-Policy"] == "no-referrer"
        found = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True))
        assert found
        return found.group(1)

    saved = proxied.put(
        f"/api/games/{game['id']}/hands/1/bids",
        json={"bids": [1, 2, 3], "version": 1},
        headers={**FORWARDED_HTTPS, "X-CSRFToken": token(f"/g/{game['id']}")},
    )
    assert saved.status_code == 200, saved.get_json()
    seats = {f"name-{i}": name for i, name in enumerate(["Ann", "Robo", "Max", "Cy"])} | {"bot-0": ""}
    bots = {f"bot-{i}": "random" for i in (1, 2, 3)}
    table = {"csrf_token": token("/t/new"), "count": "4", "first_dealer": "2", **seats, **bots}
    created = proxied.post("/t/new", data=table, headers=FORWARDED_HTTPS)
    assert created.status_code == 303, created.get_data(as_text=True)
    bid = proxied.post(
        f"{created.headers['Location']}/bid",
        data={"csrf_token": token(created.headers["Location"]), "bid": "1"},
        headers=FORWARDED_HTTPS,
    )
    assert bid.status_code == 303, bid.get_data(as_text=True)


def test_a_forwarded_port_or_path_prefix_is_never_believed(proxied: FlaskClient) -> None:
    forged = {**FORWARDED_HTTPS, "X-Forwarded-Port": "6666", "X-Forwarded-Prefix": "//evil.example"}
    game = proxied.post("/api/games", json=PLAYERS, headers=forged).get_json()
    assert game["scorer_url"].startswith(f"https://bluke.example/g/{game['id']}/join/")
    joined = proxied.get(f"/g/{game['id']}/join/{game['scorer_token']}", headers=forged)
    assert joined.status_code == 302 and joined.headers["Location"] == f"/g/{game['id']}"


def test_behind_a_tls_proxy_a_forgotten_games_cookies_are_cleared_as_they_were_set(proxied: FlaskClient) -> None:
    game = proxied.post("/api/games", json=PLAYERS, headers=FORWARDED_HTTPS).get_json()
    proxied.get(f"/g/{game['id']}/join/{game['scorer_token']}?w={game['watch_token']}", headers=FORWARDED_HTTPS)
    page = proxied.get("/", headers=FORWARDED_HTTPS).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token
    forgot = proxied.post(f"/g/{game['id']}/forget", data={"csrf_token": token.group(1)}, headers=FORWARDED_HTTPS)
    cleared = [c for c in cookies_of(forgot) if "Max-Age=0" in c or "expires=Thu, 01 Jan 1970" in c]
    assert len(cleared) == 2  # the scorer's and the watch token's cookies
    assert all("Secure" in c and "HttpOnly" in c and "SameSite=Lax" in c for c in cleared)


def test_over_plain_http_cookies_are_not_secure_and_there_is_no_hsts(proxied: FlaskClient) -> None:
    plain = {**FORWARDED_HTTPS, "X-Forwarded-Proto": "http"}
    game = proxied.post("/api/games", json=PLAYERS, headers=plain).get_json()
    joined = proxied.get(f"/g/{game['id']}/join/{game['scorer_token']}", headers=plain)
    assert cookies_of(joined) and not any("Secure" in c for c in cookies_of(joined))
    assert "Strict-Transport-Security" not in joined.headers


def test_without_a_configured_proxy_forwarded_headers_are_not_believed(client: FlaskClient) -> None:
    game = client.post("/api/games", json=PLAYERS, headers=FORWARDED_HTTPS).get_json()
    assert game["scorer_url"].startswith("http://app:8000/")  # not https, not the forwarded host
    joined = client.get(f"/g/{game['id']}/join/{game['scorer_token']}", headers=FORWARDED_HTTPS)
    assert not any("Secure" in c for c in cookies_of(joined))


def test_the_proxy_count_must_be_a_small_number(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SCOREKEEPER_PROXIES", "yes")
    with pytest.raises(ValueError, match="SCOREKEEPER_PROXIES must be a number of proxies from 0 to 5"):
        create_app({"SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path)})


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("SCOREKEEPER_RATELIMIT_CREATE", "ten per minute"),
        ("SCOREKEEPER_RATELIMIT_IMPORT", "5 every minute"),
        ("SCOREKEEPER_RATELIMIT_RENDER", "10 per fortnight"),
    ],
)
def test_a_mistyped_budget_stops_the_start(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, variable: str, value: str
) -> None:
    """Flask-Limiter drops a limit it cannot read, saying so only in a log nobody reads: the budget
    was off, and anyone could create, import or print without end."""
    monkeypatch.setenv(variable, value)
    with pytest.raises(
        ValueError, match=f"{variable} must be limits such as '10 per minute; 200 per hour', not '{value}'"
    ):
        create_app({"SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path)})


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("SCOREKEEPER_DATABASE_URL", "nonsense"),
        ("SCOREKEEPER_DATABASE_URL", "postgresql+psycopg2://bluke:secret@db/bluke"),  # a driver not installed
        ("SCOREKEEPER_RATELIMIT_STORAGE_URL", "nonsense"),
        ("SCOREKEEPER_RATELIMIT_STORAGE_URL", "127.0.0.1:6379"),
    ],
)
def test_a_mistyped_url_stops_the_start_with_a_sentence_naming_its_variable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, variable: str, value: str
) -> None:
    """The start stopped on "Could not parse SQLAlchemy URL" or "unknown storage scheme", which name
    no setting; the sentence does not repeat the URL, which may hold a password."""
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError, match=f"^{variable} must be ") as refused:
        create_app({"SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path)})
    assert "secret" not in str(refused.value)


# -- the SQLite file -------------------------------------------------------------------------------
def test_a_new_sqlite_file_is_private_to_its_owner(tmp_path: Path) -> None:
    path = tmp_path / "private.sqlite"
    old = os.umask(0o022)  # the usual umask, which would give 0644
    try:
        app = make_app(f"sqlite:///{path}")
    finally:
        os.umask(old)
    client = app.test_client()
    assert client.post("/api/games", json=PLAYERS).status_code == 201
    for name in ("private.sqlite", "private.sqlite-wal", "private.sqlite-shm"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name
    with app.app_context():
        db.engine.dispose()


def test_a_relative_sqlite_path_is_private_in_the_instance_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Flask-SQLAlchemy opens ``sqlite:///rel.sqlite`` in the instance folder; the file made
    private was the one beside the working directory, and the real one was 0644."""
    monkeypatch.chdir(tmp_path)
    instance = tmp_path / "instance"
    old = os.umask(0o022)
    try:
        app: Flask = create_app(
            {"SECRET_KEY": "x", "INSTANCE_PATH": str(instance), "DATABASE_URL": "sqlite:///rel.sqlite"}
        )
        result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.output
    assert stat.S_IMODE((instance / "rel.sqlite").stat().st_mode) == 0o600
    assert not (tmp_path / "rel.sqlite").exists()
    with app.app_context():
        db.engine.dispose()


def test_flask_db_upgrade_creates_a_private_file(tmp_path: Path) -> None:
    app: Flask = create_app({"SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path)})
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert stat.S_IMODE((tmp_path / "scorekeeper.sqlite").stat().st_mode) == 0o600
    with app.app_context():
        db.engine.dispose()


def test_the_examples_in_the_serving_helpers_hold() -> None:
    """Doctests of the settings, rate-limit, static-file, printing and access-log helpers (pytest collects the engine's and the bots' only)."""
    import doctest

    from scorekeeper import assets
    from scorekeeper import config
    from scorekeeper import limits
    from scorekeeper import printing
    from scorekeeper import tokens

    for module in (assets, config, limits, printing, tokens):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__


def test_the_session_with_the_csrf_token_outlives_the_browser(client: FlaskClient) -> None:
    """A page kept on the phone sends its entries with its CSRF token; a session cookie without an
    expiry is dropped when the browser (or a home-screen app) closes, and the entries were refused."""
    form = client.get("/new")
    cookie = next(c for c in cookies_of(form) if c.startswith("session="))
    assert "Expires=" in cookie  # kept by the browser for PERMANENT_SESSION_LIFETIME (180 days)
    again = client.get("/new")
    assert not [c for c in cookies_of(again) if c.startswith("session=")]  # not sent again with every page
    assert not cookies_of(client.get("/static/app.css"))


@pytest.mark.parametrize("path", ["/", "/api/games/none", "/static/app.css"])
@pytest.mark.parametrize("encoding", ["br", "gzip", "identity"])
def test_every_answer_of_the_development_server_carries_one_date(app: Flask, path: str, encoding: str) -> None:
    """``make run``'s server dates each answer; a compressed or conditional one carried a second
    Date of the app's (gunicorn, ``make serve``, sends one either way: test_production)."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=10)
        connection.request("GET", path, headers={"Accept-Encoding": encoding})
        answer = connection.getresponse()
        answer.read()
        connection.close()
    finally:
        server.shutdown()
        thread.join()
    assert [k for k, _ in answer.getheaders() if k.lower() == "date"] == ["Date"], answer.getheaders()
