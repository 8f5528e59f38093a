"""The table pages' locks: CSRF on every form, read-only watch links, escaped names, private links."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import games
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.table import service

from .groups_kit import export_file
from .groups_kit import legal_hands
from .pages_kit import csrf
from .pages_kit import current_version
from .pages_kit import document
from .pages_kit import new_game
from .pages_kit import play
from .pages_kit import post_hand
from .pages_kit import statements
from .pages_kit import text

HOSTILE = '<script>alert("x")</script>'


def api_game(client: FlaskClient, names: list[str]) -> dict[str, str]:
    return client.post("/api/games", json={"players": names}).get_json()


# -- CSRF --------------------------------------------------------------------------------------
def test_every_form_post_of_the_pages_refuses_a_missing_token(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    routes = [r for r in app.url_map.iter_rules() if r.endpoint.startswith("pages.") and "POST" in (r.methods or ())]
    assert {r.endpoint for r in routes} >= {
        "pages.new_game",
        "pages.save_bids",
        "pages.save_tricks",
        "pages.undo",
        "pages.forget",
    }
    before = document(app, game_id)
    for rule in routes:
        url = rule.build({"game_id": game_id, "number": 2}, append_unknown=False)[1]
        data = {
            "version": str(before["version"]),
            "number": "1",
            "bid_0": "1",
            "bid_1": "1",
            "bid_2": "1",
            "names-0": "Zed",
            "names-1": "Yan",
            "action": "start",
        }
        answer = client.post(url, data=data)
        if rule.endpoint == "pages.forget":
            assert answer.status_code == 302
            assert not [c for c in answer.headers.getlist("Set-Cookie") if c.startswith("sk")]
        else:
            assert answer.status_code == 400, rule.endpoint
            assert "This page was out of date, so nothing was saved" in text(answer), rule.endpoint
    assert document(app, game_id) == before
    with app.app_context():
        assert len(db.session.execute(db.select(Game)).scalars().all()) == 1
    assert game_id in text(client.get("/"))  # not forgotten


def test_a_missing_token_re_renders_the_set_up_with_the_names_typed(client: FlaskClient) -> None:
    client.get("/new")  # the form's session
    answer = client.post("/new", data={"names-0": "Ann", "names-1": "Ben", "first_dealer": "1", "action": "start"})
    page = text(answer)
    assert answer.status_code == 400
    assert 'value="Ann"' in page and 'value="Ben"' in page and "This page was out of date" in page
    assert re.search(r'<option value="1" selected>', page)  # the first dealer chosen stays chosen
    assert re.search(r'name="csrf_token" value="[^"]+"', page)  # a fresh token to try again with


def test_a_browser_that_keeps_no_cookies_is_told_so_where_a_game_table_or_group_begins(app: Flask) -> None:
    """With cookies blocked (iOS "Block All Cookies") every tap of Start said "This page was out of
    date", however often it was tapped: the form's token, the game and the group live in cookies."""
    told = "This browser keeps no cookies for this site, so nothing was saved: allow cookies for this site"
    for path, data in (
        ("/new", {"names-0": "Ann", "names-1": "Ben", "first_dealer": "1", "action": "start"}),
        ("/groups/new", {"name": "Friday"}),
        ("/t/new", {"names-0": "Ann", "bots-1": "basic"}),
    ):
        blocked = app.test_client()  # sends no cookie: it kept none of those the form's page set
        answer = blocked.post(path, data={**data, "csrf_token": "what the page held"})
        assert answer.status_code == 400 and told in text(answer), (path, text(answer)[:300])
    keeping = app.test_client()
    keeping.get("/new")
    answer = keeping.post("/new", data={"names-0": "Ann", "names-1": "Ben", "action": "start"})
    assert "This page was out of date" in text(answer) and told not in text(answer)


def test_a_link_opened_where_cookies_are_blocked_says_so(app: Flask, client: FlaskClient) -> None:
    """A link sets its cookie and redirects to the clean address, which finds the game by that cookie:
    with cookies blocked every link ended on "No game with that link", as if the link were wrong."""
    hint = "this browser keeps no cookies for this site, and the link needs one"
    game = api_game(client, ["Ann", "Ben", "Cy"])
    table = client.post("/api/tables", json={"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}]}).get_json()
    group = client.post("/api/groups", json={"name": "Friday"}).get_json()
    links = [
        game["scorer_url"],
        game["watch_url"],
        f"/t/{table['id']}/join/{table['host_token']}",
        f"/t/{table['id']}/join/{table['seats'][0]['token']}",
        group["url"],
    ]
    for link in links:
        blocked = app.test_client(use_cookies=False)
        opened = blocked.get(link)
        assert opened.status_code == 302, link
        answer = blocked.get(opened.headers["Location"])
        assert answer.status_code == 404 and hint in text(answer), (link, text(answer)[:300])
        keeping = app.test_client()
        assert keeping.get(link, follow_redirects=True).status_code == 200, link
        keeping.get("/")
        assert hint not in text(keeping.get(opened.headers["Location"].replace(link.split("/")[2], "0" * 16)))
    assert hint not in text(app.test_client().get("/no/such/page"))  # not a link's page
    assert "error" in app.test_client().get(f"/api/games/{game['id']}").get_json()  # the API: JSON as before


def test_a_wrong_token_re_renders_the_bids_as_tapped(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    answer = post_hand(client, game_id, 1, "bids", [4, 5, 3], 1, token="forged")
    page = text(answer)
    assert answer.status_code == 400 and "This page was out of date" in page
    assert 'id="bid0-4" value="4" checked' in page and 'id="bid1-5" value="5" checked' in page
    assert document(app, game_id)["hands"][0]["bids"] is None


def test_a_page_s_hidden_numbers_are_ascii_digits_as_in_the_api(app: Flask, client: FlaskClient) -> None:
    """``int`` reads "١" (an Arabic-Indic one), "0_1" and " 1 " as 1: a version the page never wrote."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    for version in ("\u0661", "0_1", " 1 ", "1" * 13):
        answer = post_hand(client, game_id, 1, "bids", [4, 5, 3], version)  # type: ignore[arg-type]
        assert answer.status_code == 400 and "This page was out of date" in text(answer), version
        assert document(app, game_id)["hands"][0]["bids"] is None
    assert post_hand(client, game_id, 1, "bids", [4, 5, 3], 1).status_code == 302
    undo = {"csrf_token": csrf(client, f"/g/{game_id}"), "version": "2"}
    assert client.post(f"/g/{game_id}/undo", data={**undo, "number": "\u0661"}).status_code == 400
    assert document(app, game_id)["hands"][0]["bids"] == [4, 5, 3]


def test_a_token_from_another_browser_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    other = app.test_client()
    foreign = csrf(other)
    answer = post_hand(client, game_id, 1, "bids", [4, 5, 3], 1, token=foreign)
    assert answer.status_code == 400 and document(app, game_id)["version"] == 1


# -- access ------------------------------------------------------------------------------------
def test_the_watch_link_can_look_but_never_write(app: Flask, client: FlaskClient) -> None:
    created = api_game(client, ["Ann", "Ben", "Cy"])
    game_id = created["id"]
    watcher = app.test_client()
    assert watcher.get(created["watch_url"]).status_code == 302
    page = text(watcher.get(f"/g/{game_id}"))
    assert 'class="live"' in page and '<form class="hand' not in page and "Undo" not in page
    token = csrf(watcher, "/new")
    for url, data in [
        (f"/g/{game_id}/hands/1/bids", {"bid_0": "4", "bid_1": "5", "bid_2": "3", "version": "1"}),
        (f"/g/{game_id}/hands/1/tricks", {"tricks_0": "5", "tricks_1": "3", "tricks_2": "5", "version": "1"}),
        (f"/g/{game_id}/undo", {"number": "1", "version": "1"}),
    ]:
        answer = watcher.post(url, data={"csrf_token": token, **data})
        assert answer.status_code == 403 and "can only watch" in text(answer)
    assert watcher.get(f"/g/{game_id}/hands/1").status_code == 403
    assert document(app, game_id)["version"] == 1
    share = text(watcher.get(f"/g/{game_id}/share"))
    assert "Watch link" in share and "Scorer link" not in share
    assert created["watch_url"].split("/join/")[1] in share
    assert created["scorer_url"].split("/join/")[1] not in share


@pytest.mark.parametrize("url", ["/g/nothere", "/g/nothere/share", "/g/nothere/hands/1", "/g/nothere/join/abc"])
def test_an_unknown_game_or_link_is_a_friendly_404(client: FlaskClient, url: str) -> None:
    answer = client.get(url)
    assert answer.status_code == 404 and "No game with that link" in text(answer)


def test_a_game_without_this_browsers_cookie_is_not_shown(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben"])
    stranger = app.test_client()
    assert stranger.get(f"/g/{game_id}").status_code == 404
    assert stranger.get(f"/g/{game_id}/join/not-the-token").status_code == 404


def test_the_scorer_link_carries_the_watch_token_for_a_second_scorer(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    share = text(client.get(f"/g/{game_id}/share"))
    scorer_url = re.search(r'value="(http://[^"]+/join/[^"?]+\?w=[^"]+)"', share).group(1).replace("&amp;", "&")
    second = app.test_client()
    assert second.get(scorer_url).status_code == 302
    again = text(second.get(f"/g/{game_id}/share"))
    assert "Scorer link" in again and "Watch link" in again
    forged = app.test_client()
    forged.get(scorer_url.split("?")[0] + "?w=forged")
    assert "Watch link" not in text(forged.get(f"/g/{game_id}/share"))


def test_a_scoring_phone_stays_the_scorer_when_it_opens_the_watch_link(client: FlaskClient) -> None:
    created = api_game(client, ["Ann", "Ben"])
    client.get(created["scorer_url"])
    client.get(created["watch_url"])
    assert 'class="hand bids"' in text(client.get(f"/g/{created['id']}"))


def test_forgetting_a_game_removes_it_from_this_phone_only(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, ["Ann", "Ben", "Cy"])
    answer = client.post(f"/g/{game_id}/forget", data={"csrf_token": csrf(client, "/")})
    assert answer.status_code == 302
    home = text(client.get("/"))
    assert f'href="/g/{game_id}"' not in home
    assert "Forgotten on this phone" in home and f'action="/g/{game_id}/forget/undo"' in home
    assert client.get(f"/g/{game_id}").status_code == 404
    with app.app_context():
        assert db.session.get(Game, game_id) is not None


# -- watching: polling ---------------------------------------------------------------------------
def test_without_javascript_a_finished_games_watch_page_stops_reloading(app: Flask, client: FlaskClient) -> None:
    """Every five seconds for good, once nothing more was to come (the virtual seat's page stopped)."""
    refresh = 'http-equiv="refresh"'
    playing = client.post("/api/games/import", json=export_file(["Ann", "Ben"], legal_hands(2, 24))).get_json()
    done = client.post("/api/games/import", json=export_file(["Ann", "Ben"], legal_hands(2))).get_json()
    watcher = app.test_client()
    for game, reloads in ((playing, True), (done, False)):
        watcher.get(game["watch_url"])
        assert (refresh in text(watcher.get(f"/g/{game['id']}"))) is reloads, game["status"]


def test_htmx_polling_answers_204_until_the_version_changes(app: Flask, client: FlaskClient) -> None:
    created = api_game(client, ["Ann", "Ben", "Cy"])
    game_id, headers = created["id"], {"HX-Request": "true"}
    watcher = app.test_client()
    watcher.get(created["watch_url"])
    page = text(watcher.get(f"/g/{game_id}"))
    assert f'hx-get="/g/{game_id}?since=1"' in page and 'hx-trigger="every 1s"' in page
    assert "vendor/htmx.min.js" in page and 'http-equiv="refresh"' in page
    assert watcher.get(f"/g/{game_id}?since=1", headers=headers).status_code == 204
    client.put(
        f"/api/games/{game_id}/hands/1/bids",
        json={"bids": [4, 5, 3]},
        headers={"Authorization": f"Bearer {created['scorer_token']}"},
    )
    fresh = watcher.get(f"/g/{game_id}?since=1", headers=headers)
    assert fresh.status_code == 200 and "HX-Request" in fresh.headers["Vary"]
    body = text(fresh).strip()
    assert body.startswith('<div id="live"') and "<html" not in body
    assert "Playing · 12 bid for 13 cards" in body and "since=2" in body


# -- names are text everywhere -------------------------------------------------------------------
def test_hostile_names_are_shown_as_text_on_every_page(app: Flask, client: FlaskClient) -> None:
    names = [HOSTILE, "Ben", '"><img src=x onerror=alert(1)>']
    game_id = new_game(client, names, dealer="draw")
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    post_hand(client, game_id, 1, "tricks", [4, 4, 5], current_version(app, game_id))  # a correction
    pages = [client.get(url) for url in ("/", f"/g/{game_id}", f"/g/{game_id}/share?new=1", f"/g/{game_id}/hands/1")]
    pages.append(post_hand(client, game_id, 2, "bids", [99, 1, 1], current_version(app, game_id)))
    pages.append(client.get(f"/g/{game_id}?since=0", headers={"HX-Request": "true"}))
    for answer in pages:
        page = text(answer)
        assert "<script>alert" not in page and "<img src=x" not in page
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in page
        if "<html" in page:
            assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; bid 99" in text(pages[4])


def test_a_finished_game_with_hostile_names_draws_its_chart_safely(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, [HOSTILE, "Ben"])
    with app.app_context():
        for number, cards in enumerate(games.rules_of(db.session.get(Game, game_id)).schedule, start=1):
            service.record_bids(game_id, number, [1, 1])
            service.record_tricks(game_id, number, [0, cards])
    page = text(client.get(f"/g/{game_id}"))
    assert '<svg class="chart"' in page and "<script>alert" not in page
    assert "Ben" in page and "wins" in page


def test_the_home_page_looks_at_a_bounded_number_of_cookies_however_many_are_sent(app: Flask) -> None:
    """Each game, group or table cookie costs a lookup: thousands of made-up ones cost no more than about 230."""
    client = app.test_client(use_cookies=False)  # the header below is sent as it is
    fake = [f"{prefix}{i:016x}=x" for prefix in ("sk_", "skf_", "skg_", "vt_", "vth_") for i in range(2000)]
    with statements(app) as sent:
        assert client.get("/", headers={"Cookie": "; ".join(fake)}).status_code == 200
    assert len(sent) <= 100 + 10 + 20 + 100 + 5  # games, forgotten, groups, tables; the page's own few


# -- a page's form is a form ---------------------------------------------------------------------------------
def test_a_json_body_sent_to_a_pages_form_is_refused_as_out_of_date_and_stores_nothing(
    app: Flask, client: FlaskClient
) -> None:
    """Flask-WTF fills a form from a JSON body when nothing was posted as a form: a list or a number
    there was a 500 on every page form, and an object's values need not be text (the new-game form
    trimmed a dict). Each is a form without its token now: 400, nothing stored."""
    game_id = new_game(client, ["Ann", "Ben", "Cy"])  # this client holds the game's scorer cookie
    play(client, app, game_id, 1, [4, 5, 3], [5, 3, 5])
    group = client.post("/api/groups", json={"name": "Friday night", "players": ["Ann", "Ben"]}).get_json()
    client.get(f"/groups/{group['id']}/join/{group['token']}")  # and the group's cookie
    ann = client.get(f"/api/groups/{group['id']}", headers={"Authorization": f"Bearer {group['token']}"})
    player = ann.get_json()["players"][0]["id"]
    grouped = client.post(
        f"/api/groups/{group['id']}/games",
        json={"players": ["Ann", "Ben"]},
        headers={"Authorization": f"Bearer {group['token']}"},
    ).get_json()["id"]
    forms = [
        "/new",
        "/groups/new",
        f"/g/{game_id}/hands/2/bids",
        f"/g/{game_id}/hands/1/tricks",
        f"/g/{game_id}/hands/1",
        f"/g/{game_id}/undo",
        f"/g/{game_id}/forget",
        f"/g/{game_id}/forget/undo",
        f"/groups/{group['id']}/players/{player}",
        f"/groups/{group['id']}/games/{grouped}",
        f"/groups/{group['id']}/forget",
    ]
    deep = '{"a": ' * 5000 + "1" + "}" * 5000
    before = document(app, game_id)
    for path in forms:
        for sent in ("3", "[1]", '"x"', '{"names-0": {"x": 1}, "name": [1], "version": {}}', deep):
            answer = client.post(path, data=sent, content_type="application/json")
            refused = 302 if path.endswith("/forget") else 400  # forgetting without a token: back home, as it was
            assert answer.status_code == refused, (path, sent[:20], answer.status_code)
    assert document(app, game_id) == before
    assert game_id in text(client.get("/")) and "Friday night" in text(client.get("/"))  # nothing forgotten
    with app.app_context():
        assert len(db.session.execute(db.select(Game)).scalars().all()) == 2  # no new game
        assert db.session.get(Game, grouped).group_id == group["id"]  # still in its group
