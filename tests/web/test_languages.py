"""Six languages (API.md, "Languages"): the choice of language, the catalogs, and what each language says.

Every check reads a real answer: a page, a JSON error, a CSV or a PDF read back with pypdf.
"""

from __future__ import annotations

import ast
import builtins
import configparser
import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.engine import Card
from scorekeeper.engine import RulesError
from scorekeeper.i18n import _ as say
from scorekeeper.i18n import card_label
from scorekeeper.i18n import COOKIE
from scorekeeper.i18n import LANGUAGES
from scorekeeper.i18n import rules_message
from scorekeeper.table.screens import bids_status
from scorekeeper.table.screens import tricks_status

from ..conftest import TRANSLATIONS
from .export_kit import auth
from .export_kit import new_game
from .export_kit import page_texts

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [code for code in LANGUAGES if code != "en"]


# -- choosing the language -------------------------------------------------------------------------
def html_lang(client: FlaskClient, url: str, **headers: str) -> str:
    page = client.get(url, headers=headers).get_data(as_text=True)
    found = re.search(r'<html lang="([a-z]+)"', page)
    assert found, page[:200]
    return found.group(1)


def test_english_is_the_default(client: FlaskClient) -> None:
    assert html_lang(client, "/") == "en"


@pytest.mark.parametrize(
    "header, expected",
    [
        ("ru-RU,ru;q=0.9,en;q=0.5", "ru"),
        ("be", "be"),
        ("it-IT", "it"),
        ("eo", "eo"),
        ("id-ID,id;q=0.8", "id"),
        ("de-DE,fr;q=0.8", "en"),
        ("fr, it;q=0.3", "it"),
        # A region tag ranked first wins over a bare language ranked lower, and the reverse.
        ("ru-RU,en;q=0.8", "ru"),
        ("en-US,ru;q=0.9", "en"),
        ("be-BY,ru;q=0.5", "be"),
        ("it-IT,en;q=0.5", "it"),
        ("RU-ru", "ru"),
        ("en;q=0, id", "id"),
        ("*", "en"),
    ],
)
def test_accept_language_picks_the_best_language_we_speak(client: FlaskClient, header: str, expected: str) -> None:
    assert html_lang(client, "/", **{"Accept-Language": header}) == expected


def test_lang_in_the_address_wins_and_is_remembered_in_a_cookie(client: FlaskClient) -> None:
    answer = client.get("/?lang=be", headers={"Accept-Language": "it"})
    assert '<html lang="be" ' in answer.get_data(as_text=True)
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None and cookie.value == "be" and cookie.http_only
    # Later pages, with no ?lang=, keep Belarusian even though the browser asks for Italian.
    assert html_lang(client, "/new", **{"Accept-Language": "it"}) == "be"
    assert html_lang(client, "/?lang=id") == "id"
    assert html_lang(client, "/new") == "id"


@pytest.mark.parametrize("asked", ["RU", "ru-RU", "ru_by", "Ru-Cyrl-BY"])
def test_lang_in_the_address_is_read_as_accept_language_is(client: FlaskClient, asked: str) -> None:
    """Any case, and a region by its language: a script asking for ``ru-RU`` gets Russian, not English."""
    answer = client.get(f"/api/games/none?lang={asked}", headers={"Accept-Language": "it"})
    assert answer.status_code == 404 and answer.headers["Content-Language"] == "ru"
    assert html_lang(client, f"/?lang={asked}") == "ru"
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None and cookie.value == "ru"


def test_an_error_pages_title_says_what_happened_in_the_readers_language(client: FlaskClient) -> None:
    """The title, which a screen reader reads first and a tab shows, was "404 · Bluke" in every language."""
    page = client.get("/g/nothing-here?lang=it").get_data(as_text=True)
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    assert title and title.group(1).endswith(" · Bluke") and "404" not in title.group(1), title
    assert title.group(1).removesuffix(" · Bluke").rstrip(".…") in page.split("</title>", 1)[1]


def test_an_unknown_lang_is_ignored_and_not_remembered(client: FlaskClient) -> None:
    assert html_lang(client, "/?lang=xx", **{"Accept-Language": "eo"}) == "eo"
    assert client.get_cookie(COOKIE) is None


def test_answers_say_they_vary_by_language(client: FlaskClient) -> None:
    vary = client.get("/").headers["Vary"]
    assert "Accept-Language" in vary and "Cookie" in vary
    # a static file is the same whatever the cookies: a new cookie (the phone's time zone) must not
    # make the browser fetch it again
    assert client.get("/static/app.css").headers.get("Vary", "") in ("", "Accept-Encoding")


def test_the_footer_offers_every_language_in_its_own_name(client: FlaskClient) -> None:
    page = client.get("/new?lang=ru").get_data(as_text=True)
    for code, name in LANGUAGES.items():
        assert f'href="?lang={code}" hreflang="{code}" lang="{code}"' in page
        assert f">{name}</a>" in page
    assert 'lang="ru" aria-current="true"' in page


def test_the_home_page_has_the_picker_too(client: FlaskClient) -> None:
    page = client.get("/?lang=eo").get_data(as_text=True)
    assert page.count('class="langs"') == 1 and 'href="?lang=it"' in page


@pytest.mark.parametrize("path", ["/%5Cevil.example/x", "/%09/evil.example/x", "//evil.example/x"])
def test_a_language_link_never_leads_off_the_site(client: FlaskClient, path: str) -> None:
    """Browsers read ``\\`` as ``/`` and drop tabs: a path written into the link could open another site."""
    page = client.get(path + "?a=1").get_data(as_text=True)
    links = re.findall(r'class="lang" href="([^"]*)"', page)
    assert links and all(link.startswith("?") for link in links), links
    assert 'href="?a=1&amp;lang=ru"' in page


# -- what each language says ------------------------------------------------------------------------
TOO_FEW = {
    "en": "Bluke is played by 2 to 15 players, not 1 (R4).",
    "ru": "В блюк играют от 2 до 15 игроков, а не 1 (R4).",
    "be": "У блюк гуляюць ад 2 да 15 гульцоў, а не 1 (R4).",
    "it": "A Bluke si gioca da 2 a 15 giocatori, non 1 (R4).",
    "eo": "Blukon ludas 2 ĝis 15 ludantoj, ne 1 (R4).",
    "id": "Bluke dimainkan 2 sampai 15 pemain, bukan 1 (R4).",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_rule_error_of_the_api_is_in_the_chosen_language_with_its_rule(client: FlaskClient, lang: str) -> None:
    answer = client.post(f"/api/games?lang={lang}", json={"players": ["Ann"]})
    assert answer.status_code == 422
    assert answer.get_json() == {"error": {"code": "rule_violation", "rule": "R4", "message": TOO_FEW[lang]}}


TRICKS_OVER = {
    "ru": "Взяток в сумме 14, а в раздаче 1 сдано карт: 13 (R23).",
    "be": "Узятак разам 14, а ў раздачы 1 здадзена карт: 13 (R23).",
    "it": "Le prese sommano 14, ma nella mano 1 sono state distribuite 13 carte (R23).",
    "eo": "La prenoj sumiĝas al 14, sed en rondo 1 oni donis 13 kartojn (R23).",
    "id": "Jumlah trik 14, padahal di babak 1 dibagikan 13 kartu (R23).",
}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_an_engine_check_speaks_the_accept_language_and_stores_nothing(client: FlaskClient, lang: str) -> None:
    game = new_game(client, ["Ann", "Ben", "Cy"])
    client.put(f"/api/games/{game['id']}/hands/1/bids", json={"bids": [4, 5, 3]}, headers=auth(game["scorer_token"]))
    answer = client.put(
        f"/api/games/{game['id']}/hands/1/tricks",
        json={"tricks": [5, 5, 4]},
        headers={**auth(game["scorer_token"]), "Accept-Language": lang},
    )
    assert answer.status_code == 422 and answer.get_json()["error"]["message"] == TRICKS_OVER[lang]
    stored = client.get(f"/api/games/{game['id']}", headers=auth(game["scorer_token"])).get_json()
    assert stored["hands"][0]["tricks"] is None


#: A bid over the one card of hand 1 of a New Jersey game (R11, R22): a count in each language's form.
ONE_CARD = {
    "en": "Ann bid 2, but only 1 card was dealt in hand 1 (R22).",
    "ru": "Ann: заказ 2, но в раздаче 1 сдано всего карт: 1 (R22).",
    "it": "Ann ha dichiarato 2, ma nella mano 1 è stata distribuita solo 1 carta (R22).",
    "eo": "Ann anoncis 2, sed en rondo 1 oni donis nur 1 karton (R22).",
    "id": "Ann menawar 2, padahal di babak 1 hanya dibagikan 1 kartu (R22).",
}


@pytest.mark.parametrize("lang", ONE_CARD)
def test_a_check_about_one_card_dealt_says_card_not_cards(client: FlaskClient, lang: str) -> None:
    game = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"], "variant": "new-jersey"}).get_json()
    answer = client.put(
        f"/api/games/{game['id']}/hands/1/bids?lang={lang}",
        json={"bids": [2, 1, 1]},
        headers=auth(game["scorer_token"]),
    )
    assert answer.status_code == 422 and answer.get_json()["error"]["message"] == ONE_CARD[lang]


@pytest.mark.parametrize(
    "lang, expected",
    [
        ("ru", "Запрос слишком большой; ничего не сохранено."),
        ("it", "La richiesta è troppo grande; non è stato salvato nulla."),
    ],
)
def test_http_errors_are_translated_too(app: Flask, client: FlaskClient, lang: str, expected: str) -> None:
    app.config["MAX_CONTENT_LENGTH"] = 64
    answer = client.post(f"/api/games?lang={lang}", data="x" * 200)
    assert answer.status_code == 413 and answer.get_json()["error"]["message"] == expected


PLURALS = {
    # Russian and Belarusian have three forms: 1, 2–4 (not 12–14), 5 and more (and 11–14).
    "ru": [
        "Осталось распределить 1 взятку",
        "Осталось распределить 2 взятки",
        "Осталось распределить 5 взяток",
        "Осталось распределить 11 взяток",
        "Осталось распределить 21 взятку",
        "Осталось распределить 22 взятки",
    ],
    "be": [
        "Засталося размеркаваць 1 узятку",
        "Засталося размеркаваць 2 узяткі",
        "Засталося размеркаваць 5 узятак",
        "Засталося размеркаваць 11 узятак",
        "Засталося размеркаваць 21 узятку",
        "Засталося размеркаваць 22 узяткі",
    ],
    "it": [
        "Resta da assegnare 1 presa",
        "Restano da assegnare 2 prese",
        "Restano da assegnare 5 prese",
        "Restano da assegnare 11 prese",
        "Restano da assegnare 21 prese",
        "Restano da assegnare 22 prese",
    ],
    "eo": [
        "Restas 1 preno por disdoni",
        "Restas 2 prenoj por disdoni",
        "Restas 5 prenoj por disdoni",
        "Restas 11 prenoj por disdoni",
        "Restas 21 prenoj por disdoni",
        "Restas 22 prenoj por disdoni",
    ],
    "id": [
        "1 trik lagi belum dibagi",
        "2 trik lagi belum dibagi",
        "5 trik lagi belum dibagi",
        "11 trik lagi belum dibagi",
        "21 trik lagi belum dibagi",
        "22 trik lagi belum dibagi",
    ],
    "en": [
        "1 trick still to place",
        "2 tricks still to place",
        "5 tricks still to place",
        "11 tricks still to place",
        "21 tricks still to place",
        "22 tricks still to place",
    ],
}


@pytest.mark.parametrize("lang", PLURALS)
def test_plural_forms_follow_each_language(app: Flask, lang: str) -> None:
    with app.test_request_context(f"/?lang={lang}"):
        said = [tricks_status([], 3, rest) for rest in (1, 2, 5, 11, 21, 22)]
    assert said == PLURALS[lang]


def test_russian_players_left_to_bid_take_the_right_form(app: Flask) -> None:
    with app.test_request_context("/?lang=ru"):
        assert bids_status([3], 2, 13) == "Заказано 3 на 13 карт — остался 1 игрок"
        assert bids_status([3], 4, 2) == "Заказано 3 на 2 карты — осталось 3 игрока"
        assert bids_status([3], 6, 1) == "Заказано 3 на 1 карту — осталось 5 игроков"
        assert bids_status([3, 4], 2, 5) == "Заказано 7 на 5 карт — перезаказ на 2"


@pytest.mark.parametrize(
    ("lang", "figures"),
    [
        ("en", ["\u22122.3", "2.7", "0.0", "13%", "38%", "\u2014"]),
        ("ru", ["\u22122,3", "2,7", "0,0", "13\u202f%", "38\u202f%", "\u2014"]),
    ],
)
def test_averages_and_rates_round_halves_as_players_do(app: Flask, lang: str, figures: list[str]) -> None:
    """−9 points in 4 hands showed as −2.2 beside the CSV's −2.25, and 1 perfect bid in 8 as 12%:
    Babel rounds halves to even. A player rounds them away from zero."""
    from scorekeeper.i18n import decimal
    from scorekeeper.i18n import percent

    with app.test_request_context(f"/?lang={lang}"):
        shown = [decimal(-9 / 4), decimal(2.65), decimal(0.04), percent(1 / 8), percent(3 / 8), percent(0, counted=0)]
    assert shown == figures


def test_card_names_follow_each_language(app: Flask) -> None:
    queen, hi = Card.parse("QS"), Card.parse("HB")
    said = {}
    for lang in LANGUAGES:
        with app.test_request_context(f"/?lang={lang}"):
            said[lang] = (card_label(queen), card_label(hi))
    assert said == {
        "en": ("Q♠", "Hi Bluke"),
        "ru": ("Д♠", "Старший блюк"),
        "be": ("Д♠", "Старэйшы блюк"),
        "it": ("Q♠", "Bluke alto"),
        "eo": ("D♠", "Alta Bluko"),
        "id": ("Q♠", "Bluke Tinggi"),
    }


def test_engine_phrases_and_cards_inside_a_message_are_translated(app: Flask) -> None:
    from scorekeeper.engine.tricks import check_play

    hand = [Card.parse("AH"), Card.parse("2S")]
    with pytest.raises(RulesError) as error:
        check_play(Card.parse("2S"), hand, Card.parse("QH"), None)
    with app.test_request_context("/?lang=ru"):
        assert rules_message(error.value) == "Зашли с Д♥, а у вас есть черви: сыграйте в масть или блюком (R15)."
    assert str(error.value) == "Q♥ was led and you hold hearts: play one of them or a Bluke (R15)."


def test_the_csv_header_is_in_the_chosen_language(client: FlaskClient) -> None:
    game = new_game(client, ["Ann", "Ben"])
    url, watch = f"/api/games/{game['id']}/export.csv", auth(game["watch_token"])
    italian = client.get(url + "?lang=it", headers=watch).get_data(as_text=True)
    assert italian.splitlines()[0] == "mano,carte,mazziere,briscola,giocatore,dichiarazione,prese,punti,totale,esito"
    english = client.get(url + "?lang=en", headers=watch).get_data(as_text=True)
    assert english.splitlines()[0] == "hand,cards,dealer,trump,player,bid,taken,points,total,outcome"


SHEET_TITLES = {
    "en": "CREATIVE SCORECARD",
    "ru": "ПОДРОБНЫЙ БЛАНК",
    "be": "ПАДРАБЯЗНЫ БЛАНК",
    "it": "SEGNAPUNTI CREATIVO",
    "eo": "KREEMA POENTOKARTO",
    "id": "KARTU SKOR KREATIF",
}
SCHEDULES = {
    "en": "25 hands: 13 → 1 → 13",
    "ru": "25 раздач: 13 → 1 → 13",
    "be": "25 раздач: 13 → 1 → 13",
    "it": "25 mani: 13 → 1 → 13",
    "eo": "25 rondoj: 13 → 1 → 13",
    "id": "25 babak: 13 → 1 → 13",
}
PAGE_COUNTS = {
    "en": "page 1 of 1",
    "ru": "страница 1 из 1",
    "be": "старонка 1 з 1",
    "it": "pagina 1 di 1",
    "eo": "paĝo 1 el 1",
    "id": "halaman 1 dari 1",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pdf_scorecard_is_in_the_chosen_language(client: FlaskClient, lang: str) -> None:
    game = new_game(client, ["Ann", "Ben", "Cy"])
    pdf = client.get(f"/api/games/{game['id']}/scorecard.pdf?lang={lang}", headers=auth(game["watch_token"]))
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    text = page_texts(pdf.data)[0]
    assert SHEET_TITLES[lang] in text and SCHEDULES[lang] in text
    assert PAGE_COUNTS[lang] in text and (lang == "en" or "page 1 of 1" not in text)


# -- the catalogs --------------------------------------------------------------------------------------
def extraction_keywords() -> dict[str, object]:
    """The keywords ``make messages`` extracts with, read from the Makefile so the two cannot drift."""
    makefile = (ROOT / "Makefile").read_text()
    spec = re.search(r"^KEYWORDS := (.*?)(?<!\\)\n", makefile, re.M | re.S)
    assert spec, "the Makefile names the extraction keywords"
    keywords: dict[str, object] = dict(DEFAULT_KEYWORDS)
    for name, _, positions in re.findall(r"-k (\w+)(:([\d,]+))?", spec.group(1)):
        keywords[name] = tuple(int(p) for p in positions.split(",")) if positions else None
    return keywords


def marked_strings() -> set[str]:
    """Every string marked for translation in the sources, extracted as ``make messages`` does."""
    config = configparser.ConfigParser()
    config.read(ROOT / "babel.cfg")
    method_map = [(section.split(":", 1)[1].strip(), section.split(":", 1)[0].strip()) for section in config.sections()]
    found = set()
    for _, _, message, _, context in extract_from_dir(str(ROOT), method_map, keywords=extraction_keywords()):
        msgid = message[0] if isinstance(message, (tuple, list)) else message
        if msgid:
            found.add(f"{context}|{msgid}" if context else msgid)
    return found


def catalog(lang: str) -> dict[str, object]:
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as source:
        po = read_po(source)
    assert po.num_plurals >= 1
    return {
        (f"{m.context}|" if m.context else "") + (m.id[0] if isinstance(m.id, tuple) else m.id): m for m in po if m.id
    }


PLACEHOLDER = re.compile(r"(?<!\{)\{[a-z_0-9.!]*\}(?!\})|%\([a-z_]+\)s")


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_marked_string_is_translated_with_its_placeholders(lang: str) -> None:
    """No missing, untranslated or fuzzy entry (CI also runs msgfmt --check through make catalogs)."""
    entries = catalog(lang)
    missing = sorted(marked_strings() - set(entries))
    assert not missing, f"{lang}: not in the catalog (run make messages and translate): {missing[:5]}"
    for key, message in entries.items():
        assert "fuzzy" not in message.flags, f"{lang}: fuzzy: {key!r}"
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(forms), f"{lang}: untranslated: {key!r}"
        source = message.id[-1] if isinstance(message.id, tuple) else message.id
        for form in forms:
            extra = placeholders(form) - placeholders(source)
            lost = placeholders(source) - placeholders(form) - {"{n}"}
            assert not extra and not lost, f"{lang}: placeholders of {key!r} differ: {form!r}"


def test_every_sentence_a_check_raises_is_a_template_a_translator_sees() -> None:
    """An error's sentence built with an f-string (``RulesError(f"Hand {number} …")``) is never
    extracted and never matches a catalog entry: it stayed English in every language. Sentences
    take their values as placeholders (``RulesError("Hand {number} …", number=number)``)."""
    built = []
    for path in sorted((ROOT / "scorekeeper").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.JoinedStr):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                said = name.endswith(("Error", "Request", "Conflict", "Found", "Forbidden")) or name in (
                    "_",
                    "_n",
                    "N_",
                )
                if said and not hasattr(builtins, name):  # ValueError & co.: for whoever runs the server
                    built.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    assert not built, built


#: A hand of an imported file noted with a trump and as having none (R12).
TRUMP_AND_NONE = {
    "ru": "В раздаче 1 не может быть сразу козыря ♠ и отсутствия козыря (R12).",
    "be": "У раздачы 1 не можа быць адначасова козыра ♠ і адсутнасці козыра (R12).",
    "it": "La mano 1 non può avere insieme la briscola ♠ e nessuna briscola (R12).",
    "eo": "Rondo 1 ne povas samtempe havi atuton ♠ kaj neniun atuton (R12).",
    "id": "Babak 1 tidak bisa sekaligus punya truf ♠ dan tanpa truf (R12).",
}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_an_import_with_a_trump_and_no_trump_is_refused_in_the_chosen_language(client: FlaskClient, lang: str) -> None:
    game = new_game(client, ["Ann", "Ben", "Cy"])
    scorer = auth(game["scorer_token"])
    client.put(f"/api/games/{game['id']}/hands/1/bids", json={"bids": [4, 5, 3], "trump": "S"}, headers=scorer)
    exported = client.get(f"/api/games/{game['id']}/export.json", headers=scorer).get_json()
    exported["hands"][0]["no_trump"] = True
    answer = client.post(f"/api/games/import?lang={lang}", json=exported)
    assert answer.status_code == 422
    assert answer.get_json()["error"] == {"code": "rule_violation", "rule": "R12", "message": TRUMP_AND_NONE[lang]}


#: Words that English capitalises as a label and another language writes inside its sentences.
LOWER_CASE_LABELS = {"Bluke turned", "Blukes"}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_sentence_that_starts_with_a_capital_in_english_does_in_every_language(lang: str) -> None:
    """A word put first by a placeholder ("{what} of {name}: ...") started Russian, Italian,
    Esperanto and Indonesian sentences in lower case; a JSON field name (``hands[0]``) may start one."""
    first_letter = re.compile(r"[^\W\d_]")
    for key, message in catalog(lang).items():
        if isinstance(message.id, tuple) or key in LOWER_CASE_LABELS:
            continue
        english, translated = first_letter.search(message.id), first_letter.search(message.string)
        named = re.match(r"\{(name|who)\}", message.id)  # a player's name: written with a capital
        if english is None or translated is None or not (english.group().isupper() or named):
            continue
        assert not message.string.startswith("{") or message.id.startswith("{"), f"{lang}: {message.string!r}"
        if re.match(r"%\(|'|[0-9]|[a-z_]+\[|\{(name|who)\}", message.string):  # a number, field or name first
            continue
        assert translated.group().isupper(), f"{lang}: {message.string!r} starts in lower case"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalogs_keep_every_rule_number(lang: str) -> None:
    for key, message in catalog(lang).items():
        source = message.id[-1] if isinstance(message.id, tuple) else message.id
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            assert set(re.findall(r"R\d+", form)) == set(re.findall(r"R\d+", source)), f"{lang}: {key!r}"


# -- the Rules page -----------------------------------------------------------------------------------
RULES_TITLES = {
    "en": "Rules of Bluke",
    "ru": "Правила блюка",
    "be": "Правілы блюка",
    "it": "Regole di Bluke",
    "eo": "Reguloj de Bluko",
    "id": "Aturan Bluke",
}
TURN_UP = {
    "en": "The turn-up",
    "ru": "Открытая карта",
    "be": "Адкрытая карта",
    "it": "La carta scoperta",
    "eo": "La turnita karto",
    "id": "Kartu yang dibuka",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_page_has_every_rule_in_the_chosen_language(client: FlaskClient, lang: str) -> None:
    page = client.get(f"/rules?lang={lang}").get_data(as_text=True)
    assert f'<html lang="{lang}" ' in page and f"<h1>{RULES_TITLES[lang]}</h1>" in page
    assert re.findall(r'<div class="rule-item" id="(R\d+)">', page) == [f"R{n}" for n in range(1, 29)]
    assert re.search(rf'id="R12">\s*<h3><span class="rule-no">R12</span> {TURN_UP[lang]}</h3>', page)


def test_home_and_new_game_link_to_the_rules(client: FlaskClient) -> None:
    for url in ("/", "/new"):
        assert 'href="/rules"' in client.get(url).get_data(as_text=True)


def test_an_error_page_links_its_rule_number_to_the_rules_page(client: FlaskClient) -> None:
    answer = client.get("/scorecards/blank.pdf?players=1&lang=it")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert 'A Bluke si gioca da 2 a 15 giocatori, non 1 (<a class="rule" href="/rules#R4">R4</a>).' in page


def test_rule_links_escape_the_message_around_them(app: Flask) -> None:
    from scorekeeper.rulebook import rule_links

    with app.test_request_context("/"):
        assert str(rule_links("<b>Ann</b> bid 9 (R22); R29 is no rule.")) == (
            '&lt;b&gt;Ann&lt;/b&gt; bid 9 (<a class="rule" href="/rules#R22">R22</a>); R29 is no rule.'
        )


# -- the pages ---------------------------------------------------------------------------------------------
HOME_TITLES = {
    "en": "Keep score of Bluke",
    "ru": "Счёт в блюк",
    "be": "Лік у блюк",
    "it": "Segna i punti a Bluke",
    "eo": "Poentu Blukon",
    "id": "Catat skor Bluke",
}
START_BUTTONS = {
    "en": "Start the game",
    "ru": "Начать игру",
    "be": "Пачаць гульню",
    "it": "Inizia la partita",
    "eo": "Komenci la ludon",
    "id": "Mulai permainan",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_and_new_game_pages_are_in_the_chosen_language(client: FlaskClient, lang: str) -> None:
    assert f"<h1>{HOME_TITLES[lang]}</h1>" in client.get(f"/?lang={lang}").get_data(as_text=True)
    page = client.get("/new").get_data(as_text=True)  # the cookie keeps the language
    assert f">{START_BUTTONS[lang]}</button>" in page


def test_the_page_scripts_get_plural_forms_for_each_cldr_category(client: FlaskClient) -> None:
    import json

    page = client.get("/new?lang=ru").get_data(as_text=True)
    found = re.search(r'<script type="application/json" id="messages">(.*?)</script>', page)
    assert found
    messages = json.loads(found.group(1))
    assert messages["to_place"] == {
        "one": "Осталось распределить {n} взятку",
        "few": "Осталось распределить {n} взятки",
        "many": "Осталось распределить {n} взяток",
        "other": "Осталось распределить {n} взяток",  # for a browser without Intl.PluralRules
    }
    assert messages["player"] == "Игрок %(n)s"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plural_message_of_the_scripts_has_the_form_a_browser_without_plural_rules_asks_for(
    app: Flask, lang: str
) -> None:
    """Without ``Intl.PluralRules`` (Safari before 13) the scripts ask for "one" or "other": a
    Russian message without "other" made the page's script fail on any count but 1."""
    from scorekeeper.i18n import script_messages

    with app.test_request_context(f"/?lang={lang}"):
        words = script_messages(virtual=True, setup=True)
    plural = {key: forms for key, forms in words.items() if isinstance(forms, dict)}
    assert all({"one", "other"} <= set(forms) for forms in plural.values()), plural
    assert plural or lang == "id"  # Indonesian says every count alike


# -- hidden cards stay hidden in every language -----------------------------------------------------------
@pytest.mark.parametrize(
    "lang, expected",
    [
        ("en", "That card is not in your hand (R14)."),
        ("ru", "Эта карта — не из вашей руки (R14)."),
        ("eo", "Tiu karto ne estas en via mano (R14)."),
    ],
)
def test_a_card_the_seat_cannot_see_is_redacted_in_its_language(app: Flask, lang: str, expected: str) -> None:
    """views.redact finds a hidden card by its label in the reader's language (Д♠ in Russian, D♠ in Esperanto)."""
    from scorekeeper.engine.tricks import check_play
    from scorekeeper.virtual.views import redact

    with pytest.raises(RulesError) as error:
        check_play(Card.parse("QS"), [Card.parse("2H")], None, None)
    with app.test_request_context(f"/?lang={lang}"):
        assert redact(rules_message(error.value), visible={"2H"}) == expected
        shown = redact(rules_message(error.value), visible={"2H", "QS"})
        assert card_label(Card.parse("QS")) in shown


def test_a_value_a_client_sent_reads_as_json_and_stays_short(app: Flask) -> None:
    """``{x!r}`` in a sentence: JSON's words for what is not text, whole names, a pasted page cut."""
    template = "{value!r} is not a bid."
    with app.test_request_context():
        assert say(template, value=None) == "null is not a bid."
        assert say(template, value=True) == "true is not a bid."
        assert say(template, value=[1, "2"]) == '[1, "2"] is not a bid.'
        assert say(template, value="x" * 60) == f"'{'x' * 60}' is not a bid."  # a group's name, whole
        cut = say(template, value="y" * 100_000)
        assert cut == f"'{'y' * 63}…' is not a bid.", cut
        assert say("{value} and {value:>3}", value=7) == "7 and   7"  # plain fields as before


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"[1]", "Тело запроса должно быть JSON-объектом ({…}), а не списком."),
        (b'"bids"', "Тело запроса должно быть JSON-объектом ({…}), а не строкой."),
        (b"7", "Тело запроса должно быть JSON-объектом ({…}), а не числом."),
    ],
)
def test_a_body_that_is_no_object_is_named_in_the_case_the_sentence_needs(
    client: FlaskClient, body: bytes, expected: str
) -> None:
    answer = client.post("/api/games?lang=ru", data=body, content_type="application/json")
    assert answer.status_code == 400 and answer.get_json()["error"]["message"] == expected


@pytest.mark.parametrize(
    ("lang", "sent", "expected"),
    [
        ("ru", {}, "В файле нет 'players': там ожидается список вроде"),
        ("be", {}, "У файле няма 'players': там чакаецца спіс накшталт"),
        ("ru", {"players": 7}, "В файле 'players' — 7, а ожидается список вроде"),
    ],
)
def test_an_import_field_missing_or_malformed_reads_whatever_the_gender_of_what_belongs_there(
    client: FlaskClient, lang: str, sent: dict[str, object], expected: str
) -> None:
    """ "там должно быть список" was wrong Russian: "expected there" agrees with a word of any gender."""
    answer = client.post(
        f"/api/games/import?lang={lang}", json={"format": "bluke-scorekeeper", "format_version": 1, **sent}
    )
    assert answer.status_code == 400 and answer.get_json()["error"]["message"].startswith(expected), answer.get_json()


def test_a_bid_that_is_no_number_starts_its_sentence_with_a_capital(client: FlaskClient) -> None:
    game = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"], "first_dealer": 0}).get_json()
    answer = client.put(
        f"/api/games/{game['id']}/hands/1/bids?lang=it",
        json={"bids": [1, 2, True]},
        headers={"Authorization": f"Bearer {game['scorer_token']}"},
    )
    assert answer.status_code == 400
    assert answer.get_json()["error"]["message"] == "La dichiarazione di Cy deve essere un numero intero, non true."
