"""Roles stay apart: every route, every kind of token, in every place a token can be put.

A table has a host and seats. Each route is for one role (or both, for reading). The matrix puts
each token — the host's, a seat's, another seat's, a link the host replaced, an unknown one — in
the seat cookie, the host cookie and the ``Authorization`` header of every route, on both
databases, and checks that a token of the wrong kind never acts (the table is unchanged), is
answered with a redirect to the right page, 403 or 404, and never with a 500.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .virtual_support import auth
from .virtual_support import create
from .virtual_support import row
from .virtual_support import seats

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
KINDS = ("host", "seat", "other_seat", "replaced", "unknown")
PLACES = ("seat_cookie", "host_cookie", "header")
HOST, SEAT, EITHER = frozenset({"host"}), frozenset({"seat", "other_seat"}), frozenset({"host", "seat", "other_seat"})

# (method, path after /t/<id> or /api/tables/<id>, form or JSON body, roles it is for)
PAGES: list[tuple[str, str, dict[str, str], frozenset[str]]] = [
    ("GET", "", {}, SEAT),
    ("GET", "/host", {}, HOST),
    ("GET", "/version", {}, EITHER),
    ("GET", "/scorecard", {}, EITHER),
    ("POST", "/bid", {"bid": "1"}, SEAT),
    ("POST", "/play", {"card": "2C"}, SEAT),
    ("POST", "/play", {"pick": "2C"}, SEAT),
    ("POST", "/settings", {"confirm": "on"}, SEAT),
    ("POST", "/rematch/seat", {}, SEAT),
    ("POST", "/start", {}, HOST),
    ("POST", "/seats/0", {"bot": "random"}, HOST),
    ("POST", "/seats/1/link", {}, HOST),
    ("POST", "/fill", {"bot": "random"}, HOST),
    ("POST", "/rematch", {}, HOST),
]
API: list[tuple[str, str, dict[str, Any], frozenset[str]]] = [
    ("GET", "/view", {}, EITHER),
    ("GET", "/version", {}, EITHER),
    ("POST", "/bid", {"bid": 1}, SEAT),
    ("POST", "/play", {"card": "2C"}, SEAT),
    ("POST", "/rematch/seat", {}, SEAT),
    ("POST", "/start", {}, HOST),
    ("PUT", "/seats/0", {"bot": "random"}, HOST),
    ("POST", "/seats/1/link", {}, HOST),
    ("POST", "/rematch", {}, HOST),
]


def table_with_every_kind_of_token(client: FlaskClient) -> tuple[str, dict[str, str]]:
    """Ann (seat 0), Ben (seat 1), a bot; Ben's first link replaced by the host."""
    created = create(client, seats("Ann", "Ben", "bot"), seed=3)
    table, host = created["id"], created["host_token"]
    relinked = client.post(f"/api/tables/{table}/seats/1/link", headers=auth(host))
    assert relinked.status_code == 200
    tokens = {
        "host": host,
        "seat": created["seats"][0]["token"],
        "other_seat": relinked.get_json()["token"],
        "replaced": created["seats"][1]["token"],
        "unknown": secrets.token_urlsafe(24),
    }
    return table, tokens


def send(
    client: FlaskClient,
    method: str,
    url: str,
    token: str,
    place: str,
    data: dict[str, Any],
    table: str,
    csrf: str,
    api: bool,
) -> Any:
    client.delete_cookie("vt_" + table)
    client.delete_cookie("vth_" + table)
    headers = auth(token) if place == "header" else {}
    if place != "header":
        client.set_cookie(("vt_" if place == "seat_cookie" else "vth_") + table, token)
    if api:
        return client.open(url, method=method, json=data if method != "GET" else None, headers=headers)
    return client.open(
        url, method=method, data={**data, "csrf_token": csrf} if method == "POST" else None, headers=headers
    )


def csrf_for(client: FlaskClient) -> str:
    found = CSRF.search(client.get("/t/new").get_data(as_text=True))
    assert found
    return found.group(1)


def check(answer: Any, kind: str, place: str, roles: frozenset[str], api: bool, table: str) -> bool:
    """The answer for one (token, place); True when the request was refused (must change nothing)."""
    status = answer.status_code
    assert status < 500, (kind, place, status)
    # Where a token counts: the API reads only the header; a page only the cookie of its role.
    if api:
        counts = place == "header"
    else:
        counts = place == {HOST: "host_cookie", SEAT: "seat_cookie"}.get(roles, place) and place != "header"
    role_here = counts and kind in roles
    if role_here:
        return False
    if status in (302, 303):  # a redirect to the right page is a clear answer too, never an action
        assert "/host" in answer.headers["Location"] or answer.headers["Location"].endswith(f"/t/{table}")
        return True
    assert status in (403, 404), (kind, place, status, answer.get_data(as_text=True)[:300])
    if kind == "replaced" and counts:
        assert status == 403 and "newer link" in answer.get_data(as_text=True)
    return True


@pytest.mark.parametrize(
    ("method", "path", "data", "roles"), PAGES, ids=[f"{m} /t/<id>{p} {d}" for m, p, d, _ in PAGES]
)
def test_pages_answer_each_role_only(
    app: Flask, method: str, path: str, data: dict[str, str], roles: frozenset[str]
) -> None:
    client = app.test_client()
    table, tokens = table_with_every_kind_of_token(client)
    csrf = csrf_for(client)
    for kind in KINDS:
        for place in PLACES:
            before = row(app, table)
            answer = send(client, method, f"/t/{table}{path}", tokens[kind], place, data, table, csrf, api=False)
            if check(answer, kind, place, roles, False, table):
                assert row(app, table) == before, (method, path, kind, place)


@pytest.mark.parametrize(
    ("method", "path", "data", "roles"), API, ids=[f"{m} /api/tables/<id>{p}" for m, p, _, _ in API]
)
def test_the_api_answers_each_role_only(
    app: Flask, method: str, path: str, data: dict[str, Any], roles: frozenset[str]
) -> None:
    client = app.test_client()
    table, tokens = table_with_every_kind_of_token(client)
    for kind in KINDS:
        for place in PLACES:
            before = row(app, table)
            answer = send(client, method, f"/api/tables/{table}{path}", tokens[kind], place, data, table, "", api=True)
            if check(answer, kind, place, roles, True, table):
                assert row(app, table) == before, (method, path, kind, place)


# -- every route of the app, every role's token in every other role's places ---------------------
# Each kind of link opens one thing: a game's scorer or watch link that game, a table's host or seat
# link that table, a group's link that group. Here each of them (and an unknown token) goes into
# every place a token is read — the game cookie, the seat and host cookies, the group cookie and
# the Authorization header — of every route of the app. A token where it does not count never
# acts (no row of the database changes) and gets a redirect, 403 or 404, never a 500.
ROLES = ("scorer", "watcher", "host", "seat", "group", "unknown")
COOKIES = {"game": "sk_{game}", "seat": "vt_{table}", "host": "vth_{table}", "group": "skg_{group}"}
WHERE = (*COOKIES, "header")

# (method, URL pattern, body, roles it is for, where they count); "{token}" in a URL is the token.
GAME_PAGE, GAME_API = ("game",), ("header", "game")  # the pages' scripts send the cookie (writes: with the CSRF token)
GROUP_PAGE, GROUP_API, GROUP_FILES = ("group",), ("header",), ("header", "group")  # downloads are links
SEAT_PAGE, HOST_PAGE, ANY_TABLE_PAGE = ("seat",), ("host",), ("seat", "host")
EVERY_ROUTE: list[tuple[str, str, dict[str, Any], frozenset[str], tuple[str, ...]]] = [
    # a table game: the scorer writes, the watcher reads
    ("GET", "/g/{game}", {}, frozenset({"scorer", "watcher"}), GAME_PAGE),
    ("GET", "/g/{game}/share", {}, frozenset({"scorer", "watcher"}), GAME_PAGE),
    ("GET", "/g/{game}/hands/1", {}, frozenset({"scorer"}), GAME_PAGE),
    (
        "POST",
        "/g/{game}/hands/1",
        {"bid_0": "1", "bid_1": "1", "bid_2": "1", "tricks_0": "13"},
        frozenset({"scorer"}),
        GAME_PAGE,
    ),
    ("POST", "/g/{game}/hands/2/bids", {"bid_0": "1", "bid_1": "1", "bid_2": "1"}, frozenset({"scorer"}), GAME_PAGE),
    (
        "POST",
        "/g/{game}/hands/1/tricks",
        {"tricks_0": "5", "tricks_1": "3", "tricks_2": "4"},
        frozenset({"scorer"}),
        GAME_PAGE,
    ),
    ("POST", "/g/{game}/undo", {"number": "1"}, frozenset({"scorer"}), GAME_PAGE),
    ("GET", "/g/{game}/join/{token}", {}, frozenset({"scorer", "watcher"}), ("path",)),
    ("GET", "/api/games/{game}", {}, frozenset({"scorer", "watcher"}), GAME_API),
    ("GET", "/api/games/{game}/history", {}, frozenset({"scorer", "watcher"}), GAME_API),
    ("GET", "/api/games/{game}/version", {}, frozenset({"scorer", "watcher"}), GAME_API),
    ("GET", "/api/games/{game}/export.csv", {}, frozenset({"scorer", "watcher"}), GAME_API),
    ("GET", "/api/games/{game}/export.json", {}, frozenset({"scorer", "watcher"}), GAME_API),
    ("GET", "/api/games/{game}/scorecard.pdf", {}, frozenset({"scorer", "watcher"}), GAME_API),
    ("PUT", "/api/games/{game}/hands/2/bids", {"bids": [1, 1, 1]}, frozenset({"scorer"}), GAME_API),
    ("PUT", "/api/games/{game}/hands/1/tricks", {"tricks": [5, 3, 4]}, frozenset({"scorer"}), GAME_API),
    ("DELETE", "/api/games/{game}/hands/1", {}, frozenset({"scorer"}), GAME_API),
    # a virtual table: the host runs it, a seat plays (the finer matrix above covers seat and host)
    *[
        (
            "POST" if m == "POST" else m,
            "/t/{table}" + p,
            d,
            frozenset(r),
            HOST_PAGE if r == HOST else SEAT_PAGE if r == SEAT else ANY_TABLE_PAGE,
        )
        for m, p, d, r in PAGES
    ],
    ("GET", "/t/{table}/moves", {}, frozenset({"host", "seat"}), ANY_TABLE_PAGE),
    ("GET", "/t/{table}/join/{token}", {}, frozenset({"host", "seat"}), ("path",)),
    ("POST", "/t/{table}/join/{token}", {}, frozenset({"host", "seat"}), ("path",)),
    ("GET", "/t/game/{table_game}", {}, frozenset({"host", "seat"}), ANY_TABLE_PAGE),
    *[(m, "/api/tables/{table}" + p, d, frozenset(r), ("header",)) for m, p, d, r in API],
    # a group: its link opens it, its statistics and its forms
    ("GET", "/groups/{group}", {}, frozenset({"group"}), GROUP_PAGE),
    ("GET", "/groups/{group}/share", {}, frozenset({"group"}), GROUP_PAGE),
    ("GET", "/groups/{group}/games", {}, frozenset({"group"}), GROUP_PAGE),
    ("GET", "/groups/{group}/games/{group_game}", {}, frozenset({"group"}), GROUP_PAGE),
    ("GET", "/groups/{group}/players/{player}", {}, frozenset({"group"}), GROUP_PAGE),
    ("POST", "/groups/{group}/players/{player}", {"name": "Annie"}, frozenset({"group"}), GROUP_PAGE),
    ("GET", "/groups/{group}/join/{token}", {}, frozenset({"group"}), ("path",)),
    ("GET", "/api/groups/{group}", {}, frozenset({"group"}), GROUP_API),
    ("GET", "/api/groups/{group}/stats", {}, frozenset({"group"}), GROUP_API),
    ("GET", "/api/groups/{group}/stats.csv", {}, frozenset({"group"}), GROUP_FILES),
    ("GET", "/api/groups/{group}/export.json", {}, frozenset({"group"}), GROUP_FILES),
    ("GET", "/api/groups/{group}/summary.pdf", {}, frozenset({"group"}), GROUP_FILES),
    ("POST", "/api/groups/{group}/games", {"players": ["Ann", "Ben"]}, frozenset({"group"}), GROUP_API),
    (
        "POST",
        "/api/groups/{group}/tables",
        {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "random"}]},
        frozenset({"group"}),
        GROUP_API,
    ),
    ("POST", "/api/groups/{group}/import", {}, frozenset({"group"}), GROUP_API),
    ("PATCH", "/api/groups/{group}/players/{player}", {"name": "Annie"}, frozenset({"group"}), GROUP_API),
    ("POST", "/api/groups/{group}/players/{player}/merge", {"into": "{player2}"}, frozenset({"group"}), GROUP_API),
    ("DELETE", "/api/groups/{group}/players/{player}", {}, frozenset({"group"}), GROUP_API),
    ("DELETE", "/api/groups/{group}/games/{group_game}", {}, frozenset({"group"}), GROUP_API),
    ("GET", "/api/groups/{group}/games/{group_game}/scorecard.pdf", {}, frozenset({"group"}), GROUP_FILES),
    ("POST", "/groups/{group}/games/{group_game}", {"confirm": "y"}, frozenset({"group"}), GROUP_PAGE),
]
#: Routes any phone may use: they open nothing by token, or only act on the phone's own cookies
#: (forgetting a game or a group takes it off this phone's list; the game stays). Tokens in them
#: must still never give a 500 nor change a row. The creating routes open nothing by token.
OPEN_TO_ALL: list[tuple[str, str]] = [
    ("GET", "/"),
    ("GET", "/rules"),
    ("GET", "/offline"),
    ("GET", "/offline/words"),
    ("GET", "/new"),
    ("GET", "/t/new"),
    ("GET", "/groups/new"),
    ("GET", "/manifest.webmanifest"),
    ("GET", "/sw.js"),
    ("GET", "/scorecards/blank.pdf"),
    ("GET", "/g/{game}/hands/1/bids"),
    ("GET", "/g/{game}/undo"),
    ("GET", "/t/{table}/bid"),  # a form's address opened with GET: a redirect to the table
    ("GET", "/t/{table}/play"),
    ("GET", "/t/{table}/settings"),
    ("GET", "/t/{table}/rematch/seat"),
    ("GET", "/t/{table}/start"),
    ("GET", "/t/{table}/fill"),
    ("GET", "/t/{table}/rematch"),
    ("GET", "/t/{table}/seats/1"),
    ("GET", "/t/{table}/seats/1/link"),
    ("POST", "/g/{game}/forget"),
    ("POST", "/g/{game}/forget/undo"),
    ("POST", "/groups/{group}/forget"),
]
CREATING = [
    ("POST", "/new"),
    ("POST", "/t/new"),
    ("POST", "/groups/new"),
    ("POST", "/api/games"),
    ("POST", "/api/games/import"),
    ("POST", "/api/tables"),
    ("POST", "/api/groups"),
]


def everything(client: FlaskClient) -> tuple[dict[str, str], dict[str, str]]:
    """A table game with two hands, a virtual table, a group with a game: their ids and each role's token."""
    game = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"]}).get_json()
    scorer = auth(game["scorer_token"])
    assert (
        client.put(f"/api/games/{game['id']}/hands/1/bids", json={"bids": [4, 5, 3]}, headers=scorer).status_code == 200
    )
    table = create(client, seats("Ann", "Ben", "bot"), seed=3)
    group = client.post("/api/groups", json={"name": "Friday", "players": ["Ann", "Ben"]}).get_json()
    by_group = auth(group["token"])
    group_game = client.post(f"/api/groups/{group['id']}/games", json={"players": ["Ann", "Ben"]}, headers=by_group)
    players = client.get(f"/api/groups/{group['id']}", headers=by_group).get_json()["players"]
    ids = {
        "game": game["id"],
        "table": table["id"],
        "table_game": table["game_id"],
        "group": group["id"],
        "group_game": group_game.get_json()["id"],
        "player": players[0]["id"],
        "player2": players[1]["id"],
    }
    tokens = {
        "scorer": game["scorer_token"],
        "watcher": game["watch_token"],
        "host": table["host_token"],
        "seat": table["seats"][0]["token"],
        "group": group["token"],
        "unknown": secrets.token_urlsafe(24),
    }
    return ids, tokens


def database(app: Flask) -> list[Any]:
    """Every row of every table: what a refused request must leave as it was."""
    from sqlalchemy import select

    from scorekeeper.extensions import db

    with app.app_context():
        return [(t.name, sorted(map(repr, db.session.execute(select(t)).all()))) for t in db.metadata.sorted_tables]


def fill(value: Any, ids: dict[str, str], token: str) -> Any:
    if isinstance(value, str):
        return value.format(token=token, **ids)
    if isinstance(value, list):
        return [fill(v, ids, token) for v in value]
    if isinstance(value, dict):
        return {k: fill(v, ids, token) for k, v in value.items()}
    return value


def put_token(client: FlaskClient, ids: dict[str, str], where: str, token: str) -> dict[str, str]:
    """Clear every token cookie, then put ``token`` in one cookie or (returned) the header."""
    for name in COOKIES.values():
        client.delete_cookie(name.format(**ids))
    if where == "header":
        return auth(token)
    if where in COOKIES:
        client.set_cookie(COOKIES[where].format(**ids), token)
    return {}


def test_every_route_is_in_the_matrix(app: Flask) -> None:
    """A new route must say whom it is for: this test names any route the matrix does not cover."""
    covered = {(m, re.sub(r"\{\w+\}", "*", u)) for m, u, *_ in EVERY_ROUTE} | {
        (m, re.sub(r"\{\w+\}", "*", u)) for m, u in (*OPEN_TO_ALL, *CREATING)
    }
    routes = {
        (method, re.sub(r"<[^>]+>", "*", rule.rule))
        for rule in app.url_map.iter_rules()
        if rule.endpoint != "static"
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    concrete = {(m, u.replace("/hands/1/", "/hands/*/").replace("/hands/2/", "/hands/*/")) for m, u in covered}
    concrete = {(m, re.sub(r"/hands/\d+$", "/hands/*", u)) for m, u in concrete}
    concrete = {(m, re.sub(r"/seats/\d+", "/seats/*", u)) for m, u in concrete}
    concrete = {(m, u.replace("/hands/*/bids", "/hands/*/*") if m == "GET" else u) for m, u in concrete}
    assert routes - concrete == set(), f"routes with no role in the matrix: {sorted(routes - concrete)}"


@pytest.mark.parametrize(
    ("method", "url", "data", "roles", "counts"),
    EVERY_ROUTE,
    ids=[f"{m} {u}" for m, u, *_ in EVERY_ROUTE],
)
def test_every_route_refuses_every_other_roles_token_everywhere(
    app: Flask,
    method: str,
    url: str,
    data: dict[str, Any],
    roles: frozenset[str],
    counts: tuple[str, ...],
) -> None:
    client = app.test_client()
    ids, tokens = everything(client)
    csrf = csrf_for(client)
    api = url.startswith("/api/")
    for role in ROLES:
        for where in (*WHERE, "path") if "{token}" in url else WHERE:
            if where == "path" and "{token}" not in url:
                continue
            if role in roles and where in counts:
                continue  # the right token in the right place: the route's own tests cover what it does
            token = tokens[role]
            path = fill(url, ids, token if where == "path" else secrets.token_urlsafe(24))
            body = fill(data, ids, token)
            before = database(app)
            headers = put_token(client, ids, where, token)
            if api:  # with the CSRF token, as the pages' scripts send it: the role is what refuses
                headers["X-CSRFToken"] = csrf
                answer = client.open(path, method=method, json=body if method != "GET" else None, headers=headers)
            else:
                form = {**body, "csrf_token": csrf} if method == "POST" else None
                answer = client.open(path, method=method, data=form, headers=headers)
            where_said = (method, url, role, where, answer.status_code)
            assert answer.status_code < 500, where_said
            assert answer.status_code in (302, 303, 403, 404), (*where_said, answer.get_data(as_text=True)[:300])
            assert database(app) == before, where_said


@pytest.mark.parametrize(("method", "url"), OPEN_TO_ALL, ids=[f"{m} {u}" for m, u in OPEN_TO_ALL])
def test_routes_open_to_all_take_any_token_calmly(app: Flask, method: str, url: str) -> None:
    client = app.test_client()
    ids, tokens = everything(client)
    csrf = csrf_for(client)
    for role in ROLES:
        for where in WHERE:
            before = database(app)
            headers = put_token(client, ids, where, tokens[role])
            answer = client.open(
                fill(url, ids, ""),
                method=method,
                data={"csrf_token": csrf} if method == "POST" else None,
                headers=headers,
            )
            assert answer.status_code < 500, (method, url, role, where, answer.status_code)
            assert database(app) == before, (method, url, role, where)
