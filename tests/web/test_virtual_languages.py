"""Virtual play speaks the reader's language on every screen: no English word is left on its pages.

Each screen of a virtual game — the new-table form, the lobby seen by the host and by the seats, a
seat bidding and playing (picking a card, a refused move), the table seen by the host, the game over
with its rematch, and the game's scorecard page — is rendered from the same table in English and in
each other language. A word of the English page that shows again on the other page is English left
untranslated, unless that language's own catalog uses the word as well (Italian and Indonesian say
"bot" too) or it is a player's name. The words the scripts write come with each page
(``i18n.script_messages``) and are checked the same way, as are the words of the offline scorer's
script on a scorer's page.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.i18n import LANGUAGES

from .pages_kit import new_game
from .test_template_strings import BRANDS
from .test_template_strings import Texts
from .virtual_support import auth
from .virtual_support import create
from .virtual_support import patient_bots  # noqa: F401 (a fixture)
from .virtual_support import seats

pytestmark = pytest.mark.usefixtures("patient_bots")

TRANSLATIONS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"
OTHERS = [lang for lang in LANGUAGES if lang != "en"]
WORD = re.compile(r"[^\W\d_]{2,}")  # single letters are card ranks (J, Q, K, A) and rule numbers (R6)
SCRIPT_WORDS = re.compile(r'<script type="application/json" id="(?:messages|offline-words)">(.*?)</script>', re.S)
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
#: What a translation may quote untranslated: a field of the API ('bid', hands[0], zero_bids), a placeholder,
#: a tag.
NOT_PROSE = re.compile(r"""(?<!\w)'[^'\s]+'|"[^"\s]*"|\w*\[[^\]]*\]|\w+_\w+|\{[^}]*\}|%\([^)]*\)[sd]|<[^>]+>""")
#: Where a script fills in its own value in markup the page carries for it (``{number}``).
MARK = re.compile(r"\{\w+\}")
#: Names of the test's players (a bot nobody named is named in the language of the table's creator) and
#: of the languages in the picker: the same in every language.
NAMES = {"Ann", "Ben", "Robo", "Бот", *BRANDS, *(word for name in LANGUAGES.values() for word in name.split())}


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text)}


def strings(value: Any) -> list[str]:
    """Every string inside a JSON value (the scripts' messages, with their plural forms)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def readable(page: str) -> set[str]:
    """The words a player reads: text, titles and labels, and what the page's scripts will write."""
    parser = Texts()
    parser.feed(page)
    parser.close()
    found = words(MARK.sub(" ", " ".join(parser.found)))
    for block in SCRIPT_WORDS.findall(page):
        found |= words(" ".join(NOT_PROSE.sub(" ", s) for s in strings(json.loads(block))))
    return found


@cache
def own_words(lang: str) -> frozenset[str]:
    """Every word the language's catalog uses in its translations (quoted names and placeholders left out)."""
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as source:
        catalog = read_po(source)
    found: set[str] = set()
    for message in catalog:
        if message.id:
            for text in message.string if isinstance(message.string, tuple) else (message.string,):
                found |= words(NOT_PROSE.sub(" ", text))
    return frozenset(found)


def english_left(english: str, page: str, lang: str) -> set[str]:
    """Words of the English page that the page in ``lang`` still shows, and that ``lang`` does not use."""
    return (readable(english) & readable(page)) - own_words(lang) - words(" ".join(NAMES))


def test_the_check_finds_english_and_passes_the_languages_own_words() -> None:
    assert english_left("<p>Your hand</p>", "<p>Your hand · Ann</p>", "ru") == {"your", "hand"}
    assert english_left("<p title='Lost their link?'>bot</p>", "<p title='Link?'>bot</p>", "it") == set()
    assert english_left("<p>bot</p>", "<p>bot</p>", "ru") == {"bot"}
    script = '<script type="application/json" id="messages">{"x": {"one": "You take the trick"}}</script>'
    assert english_left(script, script, "eo") == {"you", "take", "the", "trick"}


# -- the screens of a game, in every language ------------------------------------------------------
def in_every_language(client: FlaskClient, url: str, data: dict[str, str] | None = None) -> dict[str, str]:
    """The page at ``url`` (or the answer to posting ``data`` there) in each language."""
    out = {}
    for lang in LANGUAGES:
        address = f"{url}{'&' if '?' in url else '?'}lang={lang}"
        answer = client.get(address) if data is None else client.post(address, data=data)
        assert answer.status_code < 500 and answer.status_code != 404, (address, answer.status_code)
        out[lang] = answer.get_data(as_text=True)
    return out


def phone(app: Flask, url: str) -> FlaskClient:
    """A phone that opened a link (seat or host)."""
    client = app.test_client()
    assert client.get(url.replace("http://localhost", "")).status_code == 302
    return client


def csrf(client: FlaskClient, url: str) -> str:
    found = CSRF.search(client.get(url).get_data(as_text=True))
    assert found, f"no form on {url}"
    return found.group(1)


def view(client: FlaskClient, table: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table}/view", headers=auth(token))
    assert answer.status_code == 200
    return dict(answer.get_json())


def lobby_screens(app: Flask, client: FlaskClient) -> dict[str, dict[str, str]]:
    """The new-table form, and a lobby (cards drawn for the dealer) from the host and from the seats."""
    screens = {"new table": in_every_language(app.test_client(), "/t/new")}
    answer = client.post(
        "/api/tables?lang=ru",
        json={
            "seats": [{"name": "Ann"}, {"name": "Ben"}, {"name": None, "bot": "basic"}],
            "first_dealer": "draw",
            "start": False,
            "seed": 12,
        },
    )
    assert answer.status_code == 201
    created = answer.get_json()
    table = created["id"]
    host = phone(app, created["host_url"])
    screens["host lobby, nobody here"] = in_every_language(host, f"/t/{table}/host")
    assert "Бот 3" in screens["host lobby, nobody here"]["en"]  # a bot nobody named is named in the creator's language
    for _ in range(2):  # Ben lost his link twice
        ben_link = client.post(f"/api/tables/{table}/seats/1/link", headers=auth(created["host_token"])).get_json()
    ann, ben = phone(app, created["seats"][0]["url"]), phone(app, ben_link["url"])
    screens["seat lobby"] = in_every_language(ann, f"/t/{table}")
    screens["seat lobby, new link"] = in_every_language(ben, f"/t/{table}")
    screens["host lobby, everyone here"] = in_every_language(host, f"/t/{table}/host")
    version = view(client, table, created["host_token"])["version"]
    handed = client.put(
        f"/api/tables/{table}/seats/1", json={"bot": "strong", "version": version}, headers=auth(created["host_token"])
    )
    assert handed.status_code == 200
    screens["seat played by a bot"] = in_every_language(ben, f"/t/{table}")
    return screens


def game_screens(app: Flask, client: FlaskClient) -> dict[str, dict[str, str]]:
    """A game of 14 (five short hands) played to its end, the screens seen on the way, and the rematch."""
    created = create(client, seats("Ann", "Ben", *["bot"] * 12), seed=9)
    table, host_token = created["id"], created["host_token"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    ann, host = phone(app, created["seats"][0]["url"]), phone(app, created["host_url"])
    token = csrf(ann, f"/t/{table}")
    assert ann.post(f"/t/{table}/settings", data={"csrf_token": token, "confirm": "on"}).status_code == 303
    screens: dict[str, dict[str, str]] = {}
    rng = random.Random(0)
    for _ in range(2000):
        views = {seat: view(client, table, t) for seat, t in tokens.items()}
        v = views[0]
        if v["phase"] == "finished":
            break
        if v["your_turn"] and v["phase"] == "bidding" and "seat bidding" not in screens:
            screens["seat bidding"] = in_every_language(ann, f"/t/{table}")
            screens["host, bidding"] = in_every_language(host, f"/t/{table}/host")
        if v["your_turn"] and v["phase"] == "playing" and "seat playing" not in screens:
            screens["seat playing"] = in_every_language(ann, f"/t/{table}")
            card = v["legal"][0]
            screens["seat picked a card"] = in_every_language(
                ann, f"/t/{table}/play", {"csrf_token": token, "pick": card}
            )
            refused = {"csrf_token": token, "bid": "1", "version": str(v["version"])}
            screens["seat refused"] = in_every_language(ann, f"/t/{table}/bid", refused)
            assert all('class="vt-error"' in page for page in screens["seat refused"].values())
            screens["host, playing"] = in_every_language(host, f"/t/{table}/host")
        mover = next(((s, w) for s, w in views.items() if w["your_turn"]), None)
        if mover is None:
            continue  # bots still moving: the next look lets them go on
        seat, w = mover
        kind, path = ("bid", "bid") if w["phase"] == "bidding" else ("card", "play")
        client.post(f"/api/tables/{table}/{path}", json={kind: rng.choice(w["legal"])}, headers=auth(tokens[seat]))
    else:
        raise AssertionError("the game did not finish")
    assert {"seat bidding", "seat playing"} <= set(screens)
    screens["seat, game over"] = in_every_language(ann, f"/t/{table}")
    screens["host, game over"] = in_every_language(host, f"/t/{table}/host")
    opened = ann.get(f"/t/{table}/scorecard")
    assert opened.status_code == 302
    screens["scorecard of the game"] = in_every_language(ann, opened.headers["Location"])
    assert client.post(f"/api/tables/{table}/rematch", headers=auth(host_token)).status_code == 201
    screens["seat, rematch set up"] = in_every_language(ann, f"/t/{table}")
    screens["host, rematch set up"] = in_every_language(host, f"/t/{table}/host")
    return screens


def test_no_english_is_left_on_the_screens_of_virtual_play(app: Flask, client: FlaskClient) -> None:
    screens = {**lobby_screens(app, client), **game_screens(app, client)}
    left = {
        f"{name} [{lang}]": sorted(english_left(pages["en"], pages[lang], lang))
        for name, pages in screens.items()
        for lang in OTHERS
    }
    assert not {where: found for where, found in left.items() if found}
    # the check read real pages: each English screen had words of its own to compare
    assert all(len(readable(pages["en"])) > 20 for pages in screens.values())


def test_no_english_is_left_on_a_scorers_page_nor_in_its_offline_words(client: FlaskClient) -> None:
    game = new_game(client, ["Ann", "Ben", "Robo"])
    pages = in_every_language(client, f"/g/{game}")
    assert all('id="offline-words"' in page for page in pages.values())
    # and the queue's rare sentences (a refused entry's box), asked for in the page's language
    rare = {lang: client.get(f"/offline/words?lang={lang}").get_data(as_text=True) for lang in LANGUAGES}
    for lang, page in pages.items():
        pages[lang] = page + f'<script type="application/json" id="offline-words">{rare[lang]}</script>'
    assert "Keep the server" in pages["en"]
    left = {lang: sorted(english_left(pages["en"], pages[lang], lang)) for lang in OTHERS}
    assert not {lang: found for lang, found in left.items() if found}
