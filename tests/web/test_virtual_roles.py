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
        assert status == 403 and "new link" in answer.get_data(as_text=True)
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
