"""Group pages (phone first, no JavaScript needed): join links, the home list, roster chips on the
new-game screen, the group's home and a player's page, sharing, and the season files."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from datetime import datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.models import GroupSeat

from .export_kit import lines
from .export_kit import pages
from .groups_kit import auth
from .groups_kit import expected_season
from .groups_kit import export_file
from .groups_kit import import_into
from .groups_kit import legal_hands
from .groups_kit import new_group
from .pages_kit import csrf
from .pages_kit import statements
from .pages_kit import text


def joined(client: FlaskClient, players: list[str] | None = None, name: str = "Friday night") -> dict[str, Any]:
    """A group made through the API and opened on this client through its link."""
    group = new_group(client, name, players)
    answer = client.get(f"/groups/{group['id']}/join/{group['token']}")
    assert answer.status_code == 302 and answer.headers["Location"] == f"/groups/{group['id']}"
    return group


def test_the_join_link_swaps_the_token_for_an_httponly_cookie(client: FlaskClient) -> None:
    group = new_group(client)
    answer = client.get(f"/groups/{group['id']}/join/{group['token']}")
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith(f"skg_{group['id']}={group['token']};")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    assert answer.headers["Referrer-Policy"] == "no-referrer"
    home = client.get(f"/groups/{group['id']}")
    assert home.status_code == 200 and "Friday night" in text(home)
    assert "frame-ancestors 'none'" in home.headers["Content-Security-Policy"]


def test_group_pages_are_404_without_the_groups_cookie(client: FlaskClient) -> None:
    group = new_group(client, players=["Ann"])
    other = joined(client, name="Other")  # this phone holds another group's cookie
    game = client.post(
        f"/api/groups/{group['id']}/games", json={"players": ["Ann", "Ben"]}, headers=auth(group["token"])
    ).get_json()
    client.get(f"/g/{game['id']}/join/{game['scorer_token']}")  # and the cookie of one of its games
    ann = group["players"][0]["id"]
    for path in ("", "/share", f"/players/{ann}", "/games", f"/games/{game['id']}"):
        answer = client.get(f"/groups/{group['id']}{path}")
        assert answer.status_code == 404, path
        assert "No group with that link" in text(answer)
    assert client.get(f"/groups/{group['id']}/join/{other['token']}").status_code == 404
    assert client.get(f"/groups/{group['id']}/join/{game['scorer_token']}").status_code == 404
    assert client.get(f"/new?group={group['id']}").status_code == 404  # no game lands outside its group
    assert client.get(f"/api/groups/{group['id']}/summary.pdf").status_code == 404


def test_the_home_page_lists_the_groups_this_phone_opened_and_forgets_them(client: FlaskClient) -> None:
    assert "Groups" in text(client.get("/")) and "New group" in text(client.get("/"))
    group = joined(client, ["Zoe", "Émile", "Ben"])
    new_group(client, "Not opened here")
    home = text(client.get("/"))
    assert "Friday night" in home and "Ben, Émile, Zoe" in home and "Not opened here" not in home  # alphabetical
    answer = client.post(f"/groups/{group['id']}/forget", data={"csrf_token": csrf(client, "/")})
    assert answer.status_code == 302
    assert "Friday night" not in text(client.get("/"))
    assert client.get(f"/groups/{group['id']}").status_code == 404


def test_the_pages_a_member_reads_may_be_kept_on_the_phone_and_nothing_else(client: FlaskClient) -> None:
    """``no-cache`` lets the service worker keep a copy for offline use (the browser asks the server
    again online); the share page (the group link's token), the new-group form, redirects, form
    answers and errors are ``no-store``: never kept."""
    group = joined(client, ["Ann", "Ben"])
    game = import_into(client, group, ["Ann", "Ben"], legal_hands(2, 1))
    base, ann = f"/groups/{group['id']}", group["players"][0]["id"]
    for path in ("", "/games", f"/games/{game['id']}", f"/players/{ann}"):
        answer = client.get(base + path)
        assert answer.status_code == 200 and answer.mimetype == "text/html", path
        assert answer.headers["Cache-Control"] == "private, no-cache", path
    player, played = f"{base}/players/{ann}", f"{base}/games/{game['id']}"
    never_kept = {
        "share": client.get(base + "/share"),
        "new group": client.get("/groups/new"),
        "join link": client.get(f"{base}/join/{group['token']}"),
        "renamed": client.post(player, data={"csrf_token": csrf(client, player), "name": "Ann M."}),
        "out of date": client.post(player, data={"csrf_token": "stale", "name": "Ann"}),
        "not ticked": client.post(played, data={"csrf_token": csrf(client, played)}),
        "no such player": client.get(f"{base}/players/nobody"),
        "no such game": client.get(f"{base}/games/nothing"),
        "not opened here": client.get(f"/groups/{new_group(client)['id']}"),
        "forgotten": client.post(f"{base}/forget", data={"csrf_token": csrf(client, "/")}),
    }
    statuses = {what: answer.status_code for what, answer in never_kept.items()}
    assert statuses == {
        "share": 200,
        "new group": 200,
        "join link": 302,
        "renamed": 303,
        "out of date": 400,
        "not ticked": 400,
        "no such player": 404,
        "no such game": 404,
        "not opened here": 404,
        "forgotten": 302,
    }
    for what, answer in never_kept.items():
        assert answer.headers["Cache-Control"] == "private, no-store", what


def test_a_group_forgotten_here_has_the_home_page_drop_its_kept_pages(client: FlaskClient) -> None:
    """The home page it lands on names the group's path in ``data-forgotten``: static/app.js asks the
    service worker to drop every page kept at that path and under it, as for a forgotten game."""
    group = joined(client, ["Ann", "Ben"])
    marker = f'data-forgotten="/groups/{group["id"]}"'
    assert marker not in text(client.get("/"))
    answer = client.post(f"/groups/{group['id']}/forget", data={"csrf_token": csrf(client, "/")})
    assert answer.status_code == 302 and answer.headers["Location"] == "/"
    assert marker in text(client.get(answer.headers["Location"]))
    client.get(f"/groups/{group['id']}/join/{group['token']}")  # opened again by its link: kept again
    assert marker not in text(client.get("/"))


def test_a_group_is_created_from_its_page_and_shared_with_a_qr_code(client: FlaskClient) -> None:
    answer = client.post(
        "/groups/new",
        data={"csrf_token": csrf(client, "/groups/new"), "name": "Friday night", "players": "Ann, Ben\nCy"},
    )
    assert answer.status_code == 302
    group_id = answer.headers["Location"].split("/")[2]
    share = text(client.get(answer.headers["Location"]))
    assert "Group ready" in share and "<svg" in share and 'class="qr"' in share
    link = re.search(r'value="(http://localhost/groups/[0-9a-f]+/join/[^"]+)"', share)
    assert link and group_id in link.group(1)
    other = FlaskClient(client.application)  # another phone opens the link
    assert other.get(link.group(1).replace("http://localhost", "")).status_code == 302
    assert "Ann" in text(other.get(f"/groups/{group_id}"))


@pytest.mark.parametrize(
    ("data", "message", "status", "field"),
    [
        ({"name": ""}, "The group has no name", 400, "group-name"),
        ({"name": "Fri", "players": "Ann, ann"}, "Two players are called", 400, "group-players"),
        ({"name": "Fri", "csrf_token": "stale"}, "out of date", 400, None),
    ],
)
def test_a_bad_new_group_shows_the_form_again_with_a_sentence(
    client: FlaskClient, data: dict[str, str], message: str, status: int, field: str | None
) -> None:
    answer = client.post("/groups/new", data={"csrf_token": csrf(client, "/groups/new"), **data})
    assert answer.status_code == status and message in text(answer)
    assert 'name="name"' in text(answer) and text(answer).count('role="alert"') == 1  # said once, by the form
    assert 'id="group-error" tabindex="-1" autofocus' in text(answer) and 'aria-describedby="group-error"' in text(
        answer
    )
    marked = re.findall(r'id="([\w-]+)"[^>]*aria-invalid="true" aria-describedby="group-error"', text(answer))
    assert marked == ([field] if field else [])  # the field the sentence is about


def test_roster_chips_fill_the_new_game_screen_and_the_game_joins_the_group(app: Flask, client: FlaskClient) -> None:
    group = joined(client, ["Ann", "Ben", "Cy", "Dee"])
    ids = {p["name"]: p["id"] for p in group["players"]}
    page = text(client.get(f"/new?group={group['id']}"))
    assert page.count('class="chip"') == 4 and "Friday night" in page
    token = csrf(client, f"/new?group={group['id']}")
    form = {"csrf_token": token, "group": group["id"], "variant": "standard", "first_dealer": "0"}
    for name in ("Cy", "Ann"):
        answer = client.post(
            "/new", data={**form, "action": f"pick-{ids[name]}", **{f"names-{i}": v for i, v in enumerate(rows(page))}}
        )
        assert answer.status_code == 200
        page = text(answer)
    assert rows(page)[:2] == ["Cy", "Ann"]
    assert 'class="chip on" aria-pressed="true">Cy' in page
    # Tapping a chosen chip takes the name out again.
    answer = client.post(
        "/new", data={**form, "action": f"pick-{ids['Cy']}", **{f"names-{i}": v for i, v in enumerate(rows(page))}}
    )
    assert rows(text(answer))[:2] == ["", "Ann"]
    form["once"] = re.search(r'name="once" type="hidden" value="([\w-]+)"', page).group(1)  # type: ignore[union-attr]
    answer = client.post("/new", data={**form, "action": "start", "names-0": "cy ", "names-1": "Ann", "names-2": "Eve"})
    assert answer.status_code == 302, text(answer)
    game_id = answer.headers["Location"].split("/")[2]
    # sent again (its answer lost): the same game, not a second one in the group
    again = client.post("/new", data={**form, "action": "start", "names-0": "cy ", "names-1": "Ann", "names-2": "Eve"})
    assert again.headers["Location"] == answer.headers["Location"]
    assert len(client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()["games"]) == 1
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None and game.group_id == group["id"]
        seats = {s.seat: s.player_id for s in db.session.scalars(select(GroupSeat).filter_by(game_id=game_id))}
    doc = client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()
    eve = next(p["id"] for p in doc["players"] if p["name"] == "Eve")  # a new name joined the roster
    assert seats == {0: ids["Cy"], 1: ids["Ann"], 2: eve}
    # "New game with the same players" from that game stays in the group, on a phone that opens it
    again = client.get(f"/new?again={game_id}")
    assert again.status_code == 302 and again.headers["Location"] == f"/new?again={game_id}&group={group['id']}"
    page = text(client.get(again.headers["Location"]))
    assert f'<input type="hidden" name="group" value="{group["id"]}">' in page
    assert sorted(rows(page)[:3]) == ["Ann", "Cy", "Eve"]  # the roster's names ("cy" was typed)
    # Eve renamed since: the next game seats Evelyn, not a new player "Eve" beside her
    renamed = client.patch(
        f"/api/groups/{group['id']}/players/{eve}", json={"name": "Evelyn"}, headers=auth(group["token"])
    )
    assert renamed.status_code == 200, renamed.get_data(as_text=True)
    page = text(client.get(again.headers["Location"]))
    names = rows(page)[:3]
    assert sorted(names) == ["Ann", "Cy", "Evelyn"]
    answer = client.post(
        "/new",
        data={**form, "action": "start", "group": group["id"], **{f"names-{i}": v for i, v in enumerate(names)}},
    )
    assert answer.status_code == 302, text(answer)
    doc = client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()
    assert sorted(p["name"] for p in doc["players"]) == ["Ann", "Ben", "Cy", "Dee", "Evelyn"]
    scorer_only = app.test_client()  # the scorer's cookie without the group's: a game outside it, as before
    scorer_only.set_cookie(f"sk_{game_id}", client.get_cookie(f"sk_{game_id}").value)  # type: ignore[union-attr]
    assert scorer_only.get(f"/new?again={game_id}").status_code == 200


def rows(page: str) -> list[str]:
    """The name rows of the new-game screen, in order."""
    return re.findall(r'name="names-\d+" id="names-\d+" value="([^"]*)"', page)


def test_a_virtual_table_started_from_the_group_joins_it(client: FlaskClient) -> None:
    group = joined(client, ["Ann"])
    page = text(client.get(f"/t/new?group={group['id']}"))
    assert f'name="group" value="{group["id"]}"' in page and "joins the group" in page
    once = re.search(r'name="once" value="([\w-]{32})"', page)
    assert once
    form = {
        "csrf_token": csrf(client, f"/t/new?group={group['id']}"),
        "once": once.group(1),
        "group": group["id"],
        "count": "2",
        "name-0": "ann",
        "bot-0": "",
        "name-1": "Robo",
        "bot-1": "basic",
        "variant": "standard",
        "first_dealer": "1",
    }
    answer = client.post("/t/new", data=form)
    assert answer.status_code == 303, text(answer)
    again = client.post("/t/new", data=form)  # sent again (its answer lost): the same table, one game
    assert again.headers["Location"] == answer.headers["Location"]
    doc = client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()
    (game,) = doc["games"]
    assert game["mode"] == "virtual" and game["players"][0]["player_id"] == group["players"][0]["id"]


def test_bots_are_marked_and_kept_off_the_leaderboard_and_the_roster(client: FlaskClient) -> None:
    """A game against bots counts for the people at it, is marked virtual, and its bots are marked."""
    group = joined(client, ["Ann", "Ben"])
    import_into(client, group, ["Ann", "Ben"], legal_hands(2, 3, seed=31))
    home = text(client.get(f"/groups/{group['id']}"))
    assert "Bots are not on the leaderboard" not in home and "(bot)" not in home
    table = client.post(
        f"/api/groups/{group['id']}/tables",
        headers=auth(group["token"]),
        json={"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}]},
    )
    assert table.status_code == 201, table.get_json()
    home = text(client.get(f"/groups/{group['id']}"))
    assert re.search(r'class="gnames">Ann · Robo <small class="muted">\(bot\)</small></span>', home)
    assert "virtual ·" in home and "Bots are not on the leaderboard" in home
    leaders = home[home.index('class="leaders"') : home.index("</table>")]
    assert ">Ann</a>" in leaders and ">Ben</a>" in leaders and "Robo" not in leaders
    roster = home[home.index('class="roster"') :]
    assert "Robo" not in roster[: roster.index("</ul>")]
    ann = next(p["id"] for p in group["players"] if p["name"] == "Ann")
    page = text(client.get(f"/groups/{group['id']}/players/{ann}"))
    assert "2 games (0 finished)" in page and "1 at a virtual table" in page and "1 with bots" in page
    ben = next(p["id"] for p in group["players"] if p["name"] == "Ben")
    assert "virtual table" not in text(client.get(f"/groups/{group['id']}/players/{ben}"))
    printed = " ".join(lines(client.get(f"/api/groups/{group['id']}/summary.pdf").data))
    assert "Bots are not on the leaderboard" in printed and "Robo" not in printed


def season(client: FlaskClient) -> tuple[dict[str, Any], list[tuple[list[str], list[Any]]]]:
    group = joined(client, ["Ann", "Ben", "Cy"])
    games = [
        (["Ann", "Ben", "Cy"], legal_hands(3, 25, seed=21)),
        (["Ben", "Ann"], legal_hands(2, 6, seed=22)),
        (["Cy", "Ann", "Ben"], legal_hands(3, 25, seed=23)),
    ]
    for names, hands in games:
        import_into(client, group, names, hands)
    return group, games


def test_the_group_home_shows_leaderboard_games_and_roster(client: FlaskClient) -> None:
    group, games = season(client)
    expected, _ = expected_season(games)
    page = text(client.get(f"/groups/{group['id']}"))
    assert page.count('class="game-item"') == 3 and "in progress" in page
    for name, e in expected.items():
        made = round(100 * (e.over + e.perfect) / e.hands)
        assert re.search(rf">{name}</a></th>\s*<td>{e.wins}</td><td>{e.games}</td><td>{made}%</td>", page), name
    assert f'href="/new?group={group["id"]}"' in page and f'href="/t/new?group={group["id"]}"' in page
    # A member who does not hold a game's own link opens the group's read-only copy.
    link = re.search(rf'href="(/groups/{group["id"]}/games/[0-9a-f]+)"', page)
    assert link
    game = text(client.get(link.group(1)))
    assert "read only" in game and 'class="sheet' in game and "edit_hand" not in game


def test_the_home_lists_the_newest_games_and_links_to_all_of_them(client: FlaskClient) -> None:
    group = joined(client, ["Ann", "Ben"])
    for seed in range(22):
        import_into(client, group, ["Ann", "Ben"] if seed % 2 else ["Ben", "Ann"], legal_hands(2, 1, seed=seed))
    home = text(client.get(f"/groups/{group['id']}"))
    assert home.count('class="game-item"') == 20
    assert f'href="/groups/{group["id"]}/games">All 22 games</a>' in home
    assert "22 games" in home and re.search(r">Ann</a></th>\s*<td>0</td><td>22</td>", home)  # the leaderboard: all 22
    everything = client.get(f"/groups/{group['id']}/games")
    assert everything.status_code == 200 and everything.headers["Cache-Control"] == "private, no-cache"
    page = text(everything)
    assert page.count('class="game-item"') == 22 and "<h1" in page and "22 games" in page
    newest = re.findall(r'href="(/groups/[0-9a-f]+/games/[0-9a-f]+)"', home)
    assert newest == re.findall(r'href="(/groups/[0-9a-f]+/games/[0-9a-f]+)"', page)[:20]
    few = joined(client, ["Cy"], name="Few")
    import_into(client, few, ["Cy", "Dee"], legal_hands(2, 1))
    assert f'href="/groups/{few["id"]}/games"' not in text(client.get(f"/groups/{few['id']}"))


def test_a_players_page_shows_charts_figures_and_head_to_head(client: FlaskClient) -> None:
    group, games = season(client)
    expected, pairs = expected_season(games)
    ann = next(p["id"] for p in group["players"] if p["name"] == "Ann")
    page = text(client.get(f"/groups/{group['id']}/players/{ann}"))
    e = expected["Ann"]
    for label, value in (("Set", e.set), ("Over", e.over), ("Perfect", e.perfect)):
        assert f'<dt>{label}</dt><dd class="{label[0]}">{value}</dd>' in page
    assert page.count('<svg class="chart') == 3  # S/O/P over time, by cards dealt, bid accuracy
    assert f"Bid <b>{e.bid}</b> tricks in all, took <b>{e.taken}</b>" in page
    for cards, line in e.by_cards.items():
        assert f'<tr><th scope="row">{cards}</th><td>{line["hands"]}</td><td>{line["set"]}</td>' in page
    vs_ben = pairs[frozenset(("Ann", "Ben"))]
    assert re.search(rf">Ben</a></th><td>{vs_ben['games']}</td><td>{vs_ben['Ann']}</td><td>{vs_ben['Ben']}</td>", page)
    assert "Best: " in page and "Worst: " in page


def test_best_and_worst_are_finished_games_and_players_without_a_hand_come_last(client: FlaskClient) -> None:
    """One hand of a game still going (+130) was shown as the best game beside whole games, and a
    player who never played (0%, 0.0) ranked above one with a hand set (−10.0)."""
    group = joined(client, ["Ann", "Ben", "Cy", "Nobody"])
    ids = {p["name"]: p["id"] for p in group["players"]}
    finished = import_into(client, group, ["Ann", "Ben"], legal_hands(2, 25, seed=5))
    import_into(client, group, ["Ann", "Cy"], [([13, 1], [13, 0])])  # Ann +130, Cy −10, still going
    total = finished["totals"][0]
    page = text(client.get(f"/groups/{group['id']}/players/{ids['Ann']}"))
    shown = re.findall(r"(?:Best|Worst): <b>([^<]+)</b>", page)
    assert shown == [signed(total)] * 2  # the one finished game, both times
    assert "Best: " not in text(client.get(f"/groups/{group['id']}/players/{ids['Cy']}"))
    home = text(client.get(f"/groups/{group['id']}"))
    leaders = re.findall(r'<th scope="row" class="name"><a [^>]+>([^<]+)</a></th>\s*((?:<td>[^<]*</td>)+)', home)
    assert [name for name, _ in leaders][-2:] == ["Cy", "Nobody"]
    assert leaders[-1][1] == "<td>0</td><td>0</td><td>—</td><td>—</td><td>—</td>"
    assert "−10.0" in leaders[-2][1]
    nobody = text(client.get(f"/groups/{group['id']}/players/{ids['Nobody']}"))
    assert "<dd>—</dd>" in nobody and "0%" not in nobody


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points).replace("-", "\u2212")


def test_a_name_merged_into_a_player_lights_their_chip(client: FlaskClient) -> None:
    """ "BÖB", merged into Bob, left Bob's chip off; tapping it added Bob beside BÖB (refused, R4)."""
    group = joined(client, ["Ann", "Bob", "Böb"])
    ids = {p["name"]: p["id"] for p in group["players"]}
    url = f"/groups/{group['id']}/players/{ids['Böb']}"
    merged = client.post(url, data={"csrf_token": csrf(client, url), "into": ids["Bob"], "confirm": "y"})
    assert merged.status_code == 303
    form = {"csrf_token": csrf(client, f"/new?group={group['id']}"), "group": group["id"], "variant": "standard"}
    typed = {"names-0": "BÖB", "names-1": ""}
    page = text(client.post("/new", data={**form, **typed, "action": f"pick-{ids['Ann']}"}))
    assert rows(page)[:2] == ["BÖB", "Ann"]
    assert 'class="chip on" aria-pressed="true">Bob' in page
    page = text(client.post("/new", data={**form, **typed, "action": f"pick-{ids['Bob']}"}))  # tapped: taken out
    assert rows(page)[:2] == ["", ""] and 'class="chip" aria-pressed="false">Bob' in page


def test_a_player_is_renamed_and_merged_from_their_page(client: FlaskClient) -> None:
    group = joined(client, ["Ann", "Ben", "Anne"])
    ids = {p["name"]: p["id"] for p in group["players"]}
    import_into(client, group, ["Ann", "Ben"], legal_hands(2, 2, seed=1))
    url = f"/groups/{group['id']}/players/{ids['Anne']}"
    answer = client.post(url, data={"csrf_token": csrf(client, url), "name": "ann ", "into": ""})
    assert answer.status_code == 400 and "already a player of this group" in text(answer)
    assert text(answer).count('role="alert"') == 1
    assert 'value="ann "' in text(answer)  # what was typed stays in the field, to mend
    # said by the field (not above the charts, far from it), focused, and the field marked by it
    said = re.search(r'<p class="alert" role="alert" id="player-error" tabindex="-1" autofocus>', text(answer))
    assert said and said.start() > text(answer).index('id="edit-h"')
    assert 'autocomplete="off" aria-invalid="true" aria-describedby="player-error">' in text(answer)
    answer = client.post(
        f"/groups/{group['id']}/players/{ids['Ben']}",
        data={"csrf_token": csrf(client, url), "into": ids["Ann"], "confirm": "y"},
    )
    assert answer.status_code == 422 and "sat at the same game" in text(answer) and "(R4)" in text(answer)
    assert 'name="name" value="Ben"' in text(answer)  # the merge form sends no name: Ben's stays
    assert '<input type="hidden" name="was" value="Anne">' in text(client.get(url))
    answer = client.post(url, data={"csrf_token": csrf(client, url), "name": "Anne M.", "was": "Anne", "into": ""})
    assert answer.status_code == 303
    assert "Anne M." in text(client.get(answer.headers["Location"]))
    # the same page on another phone: its rename would overwrite this one unseen
    answer = client.post(url, data={"csrf_token": csrf(client, url), "name": "Anne X", "was": "Anne", "into": ""})
    assert answer.status_code == 409 and "&#39;Anne&#39; was renamed &#39;Anne M.&#39; meanwhile" in text(answer)
    assert 'value="Anne X"' in text(answer) and '<input type="hidden" name="was" value="Anne M.">' in text(answer)
    answer = client.post(url, data={"csrf_token": csrf(client, url), "into": ids["Ann"]})  # the box not ticked
    assert answer.status_code == 400 and "tick the box first, as this cannot be undone" in text(answer)
    assert 'name="into" required aria-invalid="true"' in text(answer) and text(answer).count("aria-invalid") == 1
    assert "Anne M." in [
        p["name"] for p in client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()["players"]
    ]
    page = text(client.get(url))
    assert '<option value="">Choose the player to keep</option>' in page  # no player chosen for you
    answer = client.post(url, data={"csrf_token": csrf(client, url), "into": ids["Ann"], "confirm": "y"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(ids["Ann"])
    doc = client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()
    assert [p["name"] for p in doc["players"]] == ["Ann", "Ben"]


def test_a_name_typed_by_mistake_leaves_the_roster_from_its_page(client: FlaskClient) -> None:
    group = joined(client, ["Ann", "Ben", "Bne"])
    ids = {p["name"]: p["id"] for p in group["players"]}
    import_into(client, group, ["Ann", "Ben"], legal_hands(2, 1, seed=1))
    played = f"/groups/{group['id']}/players/{ids['Ann']}"
    assert "Take off the roster" not in text(client.get(played))
    refused = client.post(played, data={"csrf_token": csrf(client, played), "remove": "y"})
    assert refused.status_code == 400 and "Ann sat at 1 of the group&#39;s games" in text(refused)
    typo = f"/groups/{group['id']}/players/{ids['Bne']}"
    assert "Take off the roster" in text(client.get(typo))
    answer = client.post(typo, data={"csrf_token": csrf(client, typo), "remove": "y"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/groups/{group['id']}")
    assert "Taken off the roster." in text(client.get(answer.headers["Location"]))
    assert client.get(typo).status_code == 404


def test_a_game_leaves_the_group_from_the_groups_copy_of_it(client: FlaskClient) -> None:
    group = joined(client, ["Ann", "Ben"])
    game = import_into(client, group, ["Ann", "Ben"], legal_hands(2, 2, seed=1))
    url = f"/groups/{group['id']}/games/{game['id']}"
    page = text(client.get(url))
    pdf = f"/api/groups/{group['id']}/games/{game['id']}/scorecard.pdf"
    assert f'href="{pdf}"' in page and f'href="{pdf}?chart=1"' in page
    printed = client.get(pdf)  # the group's cookie opens it, without JavaScript
    assert printed.status_code == 200 and printed.data.startswith(b"%PDF")
    unticked = client.post(url, data={"csrf_token": csrf(client, url)})
    assert unticked.status_code == 400 and "tick the box first" in text(unticked)
    answer = client.post(url, data={"csrf_token": csrf(client, url), "confirm": "y"})
    assert answer.status_code == 303
    assert "The game is out of the group" in text(client.get(answer.headers["Location"]))
    assert client.get(url).status_code == 404
    doc = client.get(f"/api/groups/{group['id']}", headers=auth(group["token"])).get_json()
    assert doc["games"] == []


def test_the_season_summary_prints_the_leaderboard_and_each_players_sop_line(client: FlaskClient) -> None:
    group, games = season(client)
    expected, _ = expected_season(games)
    answer = client.get(f"/api/groups/{group['id']}/summary.pdf")  # the page cookie opens it
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    assert len(pages(answer.data)) == 1
    printed = lines(answer.data)
    assert "Friday night" in printed
    for name, e in expected.items():
        assert any(
            line.startswith(f"{name} {e.hands} {e.set} {e.over} {e.perfect} {e.overtricks} {e.bid} {e.taken}")
            for line in printed
        ), (name, printed)
    by_bearer = client.get(f"/api/groups/{group['id']}/summary.pdf?paper=letter", headers=auth(group["token"]))
    assert by_bearer.status_code == 200
    assert client.get(f"/api/groups/{group['id']}/summary.pdf?paper=a3").status_code == 400


def test_stats_csv_has_one_row_per_player_with_the_statistics(client: FlaskClient) -> None:
    group, games = season(client)
    expected, _ = expected_season(games)
    answer = client.get(f"/api/groups/{group['id']}/stats.csv", headers=auth(group["token"]))
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    table = list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))
    assert [r["player"] for r in table] == ["Ann", "Ben", "Cy"]
    for row in table:
        e = expected[row["player"]]
        assert (int(row["games"]), int(row["wins"]), int(row["hands"]), int(row["set"]), int(row["points"])) == (
            e.games,
            e.wins,
            e.hands,
            e.set,
            e.points,
        )
        assert float(row["made_rate"]) == round((e.over + e.perfect) / e.hands, 3)
    home = client.get(f"/groups/{group['id']}").get_data(as_text=True)
    link = re.search(r'href="([^"]*stats\.csv[^"]*)"', home)
    assert link and client.get(html.unescape(link.group(1))).get_data() == "\ufeff".encode() + answer.get_data()


def test_the_export_reads_each_batch_of_games_in_a_fixed_number_of_queries(app: Flask, client: FlaskClient) -> None:
    group = new_group(client)

    def queries() -> int:
        with statements(app) as sent:
            assert client.get(f"/api/groups/{group['id']}/export.json", headers=auth(group["token"])).status_code == 200
        return len(sent)

    import_into(client, group, ["Ann", "Ben"], legal_hands(2, 3, seed=1))
    one = queries()
    for seed in range(2, 9):
        import_into(client, group, ["Ann", "Ben", "Cy"], legal_hands(3, 4, seed=seed))
    assert queries() == one  # not two more a game (its hands, its corrections)


def test_export_json_holds_every_game_importable_one_by_one(client: FlaskClient) -> None:
    group, games = season(client)
    answer = client.get(f"/api/groups/{group['id']}/export.json", headers=auth(group["token"]))
    assert answer.status_code == 200 and "attachment" in answer.headers["Content-Disposition"]
    data = json.loads(answer.data)
    assert data["format"] == "bluke-scorekeeper-group" and data["group"]["name"] == "Friday night"
    assert len(data["games"]) == 3
    lines = answer.get_data(as_text=True).splitlines()  # one game a line, to read or compare by eye
    assert [json.loads(line.rstrip(",")) for line in lines[1:-1]] == data["games"]
    copy = new_group(client, "Copy")
    for exported in data["games"]:
        again = client.post(f"/api/groups/{copy['id']}/import", json=exported, headers=auth(copy["token"]))
        assert again.status_code == 201, again.get_json()
        assert again.get_json()["totals"] == exported["totals"]
    original = client.get(f"/api/groups/{group['id']}/stats", headers=auth(group["token"])).get_json()
    copied = client.get(f"/api/groups/{copy['id']}/stats", headers=auth(copy["token"])).get_json()
    strip = [{k: v for k, v in p.items() if k != "player_id"} for p in original["players"]]
    assert strip == [{k: v for k, v in p.items() if k != "player_id"} for p in copied["players"]]


def test_a_slow_reader_of_the_export_holds_no_database_connection(app: Flask, client: FlaskClient) -> None:
    """The export was streamed as its games were read: a phone (or a script) that read it slowly held
    the request's transaction open for as long as it took (on PostgreSQL a connection idle in
    transaction, of at most 15 a process). The file is written whole first, then sent."""
    group, _games = season(client)
    whole = client.get(f"/api/groups/{group['id']}/export.json", headers=auth(group["token"])).get_data()
    answer = client.get(f"/api/groups/{group['id']}/export.json", headers=auth(group["token"]), buffered=False)
    chunks = iter(answer.response)
    first = next(chunks)  # the reader takes a first piece, then waits
    with app.app_context():
        assert db.engine.pool.checkedout() == 0
    undated = re.compile(rb'"exported_at": "[^"]*"')
    assert undated.sub(b"", first + b"".join(chunks)) == undated.sub(b"", whole)
    answer.close()


@pytest.mark.parametrize(("lang", "point"), [("en", "."), ("ru", ","), ("it", ","), ("id", ",")])
def test_points_per_hand_and_rates_are_written_as_the_language_writes_them(
    client: FlaskClient, lang: str, point: str
) -> None:
    group, _games = season(client)
    stats = client.get(f"/api/groups/{group['id']}/stats", headers=auth(group["token"])).get_json()["players"]
    figures = {p["name"]: f"{p['points'] / p['hands']:.1f}".replace(".", point).replace("-", "−") for p in stats}
    home = text(client.get(f"/groups/{group['id']}?lang={lang}"))
    for name, figure in figures.items():
        assert re.search(rf">{name}</a></th>(\s*<td>[^<]*</td>){{4}}<td>{figure}</td></tr>", home), (name, figure)
    made = {p["name"]: round(100 * p["made_rate"]) for p in stats}
    for name, rate in made.items():  # the leaderboard's narrow columns: no space before the sign
        assert re.search(rf">{name}</a></th>(\s*<td>[^<]*</td>){{2}}<td>{rate}%</td>", home), (name, rate)
    sign = "\u202f%" if lang == "ru" else "%"  # elsewhere, as the language writes a percent
    player = text(client.get(f"/groups/{group['id']}/players/{stats[0]['player_id']}?lang={lang}"))
    assert f"<dd>{round(100 * stats[0]['made_rate'])}{sign}</dd>" in player
    ann = next(p["player_id"] for p in stats if p["name"] == "Ann")
    assert f"<dd>{figures['Ann']}</dd>" in text(client.get(f"/groups/{group['id']}/players/{ann}?lang={lang}"))
    printed = " ".join(lines(client.get(f"/api/groups/{group['id']}/summary.pdf?lang={lang}").data))
    assert all(figure in printed for figure in figures.values()), (figures, printed)


@pytest.mark.parametrize(
    ("zone", "shown"),
    [
        ("America/New_York", "Dec 4, 2026"),
        ("Europe/Minsk", "Dec 5, 2026"),
        ("Nowhere/Else", "Dec 5, 2026"),
        # Names a browser still reports, which a system without Debian's tzdata-legacy lacks.
        ("America/Buenos_Aires", "Dec 4, 2026"),
        # Names of the system's list that the dates' library refuses: they were a 500 on every dated page.
        ("localtime", "Dec 5, 2026"),
        ("Factory", "Dec 5, 2026"),
    ],
)
def test_a_game_is_dated_in_the_phones_time_zone(app: Flask, client: FlaskClient, zone: str, shown: str) -> None:
    """A game begun at 21:30 on a Friday in New York is stored at 02:30 UTC on the Saturday; the page's
    script reports the phone's zone in a cookie (an unknown zone is UTC)."""
    group = joined(client, ["Ann", "Ben"])
    game = import_into(client, group, ["Ann", "Ben"], legal_hands(2, 1))
    with app.app_context():
        stored = db.session.get(Game, game["id"])
        assert stored is not None
        stored.created_at = datetime(2026, 12, 5, 2, 30)
        db.session.commit()
    client.set_cookie("tz", zone)
    assert f'<span class="gmeta">{shown} ·' in text(client.get(f"/groups/{group['id']}/games"))
    assert client.get(f"/api/groups/{group['id']}/games/{game['id']}/scorecard.pdf").status_code == 200


@pytest.mark.parametrize("zone", ["America/Los_Angeles", "Pacific/Honolulu", "UTC", "Asia/Tokyo", "Pacific/Auckland"])
def test_a_game_imported_with_a_date_alone_shows_that_date(client: FlaskClient, zone: str) -> None:
    """``"created_at": "2026-12-04"`` was midnight UTC: the Americas showed Dec 3. A date alone is its
    noon in the importer's time zone (the phone's cookie; UTC for a script without one)."""
    group = joined(client, ["Ann", "Ben"])
    played = {**export_file(["Ann", "Ben"], legal_hands(2, 1)), "created_at": "2026-12-04"}
    by_script = client.post(f"/api/groups/{group['id']}/import", json=played, headers=auth(group["token"]))
    assert by_script.status_code == 201 and by_script.get_json()["created_at"].startswith("2026-12-04T12:00:00")
    client.set_cookie("tz", zone)
    by_phone = client.post(f"/api/groups/{group['id']}/import", json=played, headers=auth(group["token"]))
    assert by_phone.status_code == 201, by_phone.get_json()
    listed = text(client.get(f"/groups/{group['id']}/games"))
    assert listed.count('<span class="gmeta">Dec 4, 2026 ·') == (1 if zone == "Pacific/Auckland" else 2)
