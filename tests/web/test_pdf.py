"""The printed scorecards (R26–R28, issue 4), read back from the PDF with pypdf and pdftoppm.

PDFs are rendered once per module (WeasyPrint takes a fraction of a second a page) from games
entered through the JSON API on SQLite; the database code under them is tested elsewhere on both
backends.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorekeeper import i18n
from scorekeeper import printing
from scorekeeper.engine import build_scorecard
from scorekeeper.engine import HandRecord
from scorekeeper.engine import Rules
from scorekeeper.figures import minus

from ..conftest import make_app
from .export_kit import A4
from .export_kit import auth
from .export_kit import dealer_columns
from .export_kit import LETTER
from .export_kit import lines
from .export_kit import new_game
from .export_kit import page_texts
from .export_kit import pages
from .export_kit import play_out
from .export_kit import points
from .export_kit import row_of
from .export_kit import size
from .export_kit import WORKED
from .export_kit import worked_example
from .pages_kit import text

HOSTILE = ['<img src="http://127.0.0.1:9/x">', "file:///etc/passwd", "Zoë & <b>Bo</b>"]


class Games:
    """The module's games and a cache of their PDFs by query string."""

    def __init__(self, app: Flask) -> None:
        self.app, self.client = app, app.test_client()
        self.made: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
        self.pdfs: dict[tuple[str, str], bytes] = {}

    def game(self, key: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """(created game, latest document) of a named fixture game, made on first use."""
        if key not in self.made:
            self.made[key] = self._make(key)
        return self.made[key]

    def _make(self, key: str) -> tuple[dict[str, Any], dict[str, Any]]:
        c = self.client
        if key == "worked":
            return worked_example(c)
        if key == "worked-finished":
            return worked_example(c, finish=True)
        if key == "four":
            game = new_game(c, ["Ann", "Ben", "Cy", "Dee"], first_dealer=2)
            return game, play_out(c, game, seed=11)
        if key == "fifteen":
            game = new_game(c, [f"Player {n:02d} of fifteen" for n in range(1, 16)])
            return game, play_out(c, game, seed=3)
        if key == "extended":
            game = new_game(c, ["Ann", "Ben", "Cy"], options={"extended": True, "all_cards_hand": True})
            return game, play_out(c, game, seed=5)
        if key == "long-names":  # 40 characters each: the header takes three lines more
            names = [
                "Ŝanĝiĝemaj Ĉapeloj Ĥĵŭ Ŝanĝiĝemaj Ĉapelo",
                "Константин Константинопольский Констант",
                "Bartolomeo Alessandrini-Rossi Bartolomeo",
                "Ира Иванова-Константинопольская Ирина Ив",
            ]
            game = new_game(c, names)
            return game, play_out(c, game, seed=7)
        if key == "tie":  # seed 372 happens to end level: 317 each
            game = new_game(c, ["Ann", "Ben"])
            return game, play_out(c, game, seed=372)
        if key == "rtl":  # seed 28: the Hebrew name at seat 0 wins, 211 to 203
            game = new_game(c, ["דוד", "Ann"])
            return game, play_out(c, game, seed=28)
        if key == "unbroken":  # 40 letters without a space: the first dealer and the winner
            game = new_game(c, ["W" * 40, "Ann"], options={"extended": True, "all_cards_hand": True})
            return game, play_out(c, game, seed=28)
        if key == "fifteen-unbroken":  # the seating line takes seven lines of the header
            game = new_game(c, ["W" * 38 + f"{n:02d}" for n in range(15)])
            return game, play_out(c, game, seed=5)
        if key == "all-cards-unbroken":  # 26 rows (R10) under a header that long names grow
            game = new_game(c, ["Ш" * 40, "W" * 40], variant="new-jersey", options={"all_cards_hand": True})
            return game, play_out(c, game, seed=5)
        if key == "hostile":
            game = new_game(c, HOSTILE)
            return game, play_out(c, game, hands=3, seed=2)
        raise KeyError(key)

    def pdf(self, key: str, query: str = "", lang: str = "en") -> bytes:
        """The PDF of a named game; the language asked by header (``?lang=`` would stay in a cookie)."""
        if (key, query + lang) not in self.pdfs:
            game, _ = self.game(key)
            answer = self.client.get(
                f"/api/games/{game['id']}/scorecard.pdf{query}",
                headers={**auth(game["watch_token"]), "Accept-Language": lang},
            )
            assert answer.status_code == 200, answer.get_data(as_text=True)
            assert answer.mimetype == "application/pdf"
            self.pdfs[key, query + lang] = answer.data
        return self.pdfs[key, query + lang]


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Games]:
    app = make_app(f"sqlite:///{tmp_path_factory.mktemp('pdf') / 'pdf.sqlite'}")
    yield Games(app)


def expected_row(doc: dict[str, Any], number: int) -> list[str]:
    """A creative row as R28 prints it: hand, bids/cards, then taken/bid and total per player."""
    hand = doc["hands"][number - 1]
    cells = [[f"{t}/{b}", points(s)] for b, t, s in zip(hand["bids"], hand["tricks"], hand["totals"])]
    return [str(number), f"{sum(hand['bids'])}/{hand['cards']}", *(x for cell in cells for x in cell)]


# -- the creative card (R28) ---------------------------------------------------------------------
def test_the_worked_example_prints_bids_cards_taken_bid_and_running_totals(games: Games) -> None:
    pdf = games.pdf("worked")
    printed = lines(pdf)
    assert len(pages(pdf)) == 1 and size(pages(pdf)[0]) == A4
    assert "1 12/13 – D 5/4 41 3/5 −50 5/3 32" in printed  # Ann deals hand 1; no trump was noted
    assert "2 12/12 – 2/2 61 D 7/6 11 3/4 −8" in printed  # Ben deals hand 2 (R5)
    assert "3 /11 D" in printed  # Cy deals hand 3, nothing entered yet


def test_the_worked_example_counts_s_o_p_overtricks_and_sums(games: Games) -> None:
    printed = lines(games.pdf("worked"))
    # Hand 1: Ann O, Ben S, Cy O (+2); hand 2: Ann P, Ben O, Cy S (RULES.md, R26).
    assert "S set 0 1 1" in printed
    assert "O over (+tricks) 1 (+1) 1 (+1) 1 (+2)" in printed
    assert "P perfect 1 0 0" in printed
    assert "Σ taken/bid 7/6 10/11 8/7" in printed


def test_the_header_names_date_variant_options_seating_first_dealer_and_progress(games: Games) -> None:
    game, _ = games.game("worked")
    text = page_texts(games.pdf("worked"))[0]
    for fact in (
        "CREATIVE SCORECARD",
        "Standard · 25 hands: 13 → 1 → 13",
        "OPTIONS\nnone",
        "FIRST DEALER\nAnn",
        "in progress, 2 of 25 hands played",
        f"game {game['id']}",
    ):
        assert fact in text
    assert re.search(r"1\s+Ann · 2\s+Ben · 3\s+Cy", text)  # seating order, clockwise from seat 0
    assert game["created_at"][:10] in _iso_dates(text)
    assert "page 1 of 1" in text


def _iso_dates(text: str) -> set[str]:
    """Printed dates (``Sat 29 Nov 2025``) as ISO dates."""
    from datetime import datetime

    found = set()
    for line in text.splitlines():
        try:
            found.add(datetime.strptime(line.strip(), "%a %d %b %Y").date().isoformat())
        except ValueError:
            continue
    return found


def test_a_finished_game_prints_every_row_every_total_and_marks_the_winner(games: Games) -> None:
    _, doc = games.game("four")
    printed = lines(games.pdf("four"))
    for number in range(1, 26):
        assert row_of(printed, number) == expected_row(doc, number)
    stats = doc["stats"]
    assert "S set " + " ".join(str(s["set"]) for s in stats) in printed
    assert "O over (+tricks) " + " ".join(f"{s['over']} (+{s['overtricks']})" for s in stats) in printed
    assert "P perfect " + " ".join(str(s["perfect"]) for s in stats) in printed
    assert "Σ taken/bid " + " ".join(f"{s['taken']}/{s['bid']}" for s in stats) in printed
    winners = [doc["players"][seat]["name"] for seat in doc["winners"]]
    assert doc["status"] == "finished" and winners
    header = next(line for line in printed if line.startswith("# bids/ cards"))
    assert all(f"★ {name}" in header for name in winners)
    assert f"★ {' and '.join(winners)} · {points(max(doc['totals']))}" in printed


def test_equal_highest_totals_share_the_win(games: Games) -> None:
    _, doc = games.game("tie")
    assert doc["winners"] == [0, 1] and doc["totals"] == [317, 317]  # R21
    printed = lines(games.pdf("tie"))
    assert "★ Ann and Ben · 317" in printed and "# bids/ cards ★ Ann ★ Ben" in printed


def test_the_dealer_button_follows_the_deal_round_the_table(games: Games) -> None:
    _, doc = games.game("four")  # first dealer: seat 2 (Cy)
    columns = dealer_columns(games.pdf("four"), ["Ann", "Ben", "Cy", "Dee"])
    assert columns == {hand["number"]: hand["dealer"] for hand in doc["hands"]}
    assert columns[1] == 2 and columns[2] == 3 and columns[3] == 0


def test_the_plain_card_shows_cards_dealt_bid_and_running_total(games: Games) -> None:
    pdf = games.pdf("worked", "?style=plain")
    printed = lines(pdf)
    assert "1 13 – D 4 41 5 −50 3 32" in printed  # R27: cards (trump not noted), then bid and total per player
    assert "2 12 – 2 61 D 6 11 4 −8" in printed
    assert not any(line.startswith(("S set", "P perfect")) for line in printed)
    assert "SCORECARD" in page_texts(pdf)[0] and "CREATIVE" not in page_texts(pdf)[0]


# -- paper, pages, chart --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("query", "expected"),
    [("", A4), ("?paper=a4", A4), ("?paper=letter", LETTER), ("?style=plain&paper=LETTER", LETTER)],
)
def test_paper_is_a4_landscape_unless_letter_is_asked(games: Games, query: str, expected: tuple[float, float]) -> None:
    (page,) = pages(games.pdf("worked-finished", query))
    width, height = size(page)
    assert (width, height) == expected and width > height


def test_end_labels_of_equal_totals_stay_apart_and_inside_the_chart() -> None:
    """Twelve of fifteen players end on the same lowest total: every label shows, none off the foot."""
    rules = Rules(15)
    bids = tuple([1] * 15)
    records = [HandRecord(bids, tuple([1] * cards + [0] * (15 - cards))) for cards in rules.schedule]
    card = build_scorecard(rules, 0, records)
    chart = printing.build_chart([f"P{i}" for i in range(15)], card)
    ys = sorted(s.label_y for s in chart.series)
    assert chart.top <= ys[0] and ys[-1] <= chart.bottom
    assert all(b - a >= 14 for a, b in zip(ys, ys[1:]))


def test_the_chart_adds_a_score_progression_page_with_every_final_total(games: Games) -> None:
    _, doc = games.game("worked-finished")
    pdf = games.pdf("worked-finished", "?chart=1")
    first, chart = page_texts(pdf)
    assert "Score progression" in chart and "Score progression" not in first
    for player, total in zip(doc["players"], doc["totals"]):
        assert f"{points(total)} {player['name']}" in chart
    assert "page 2 of 2" in chart and "page 1 of 2" in first
    assert "<svg" not in chart  # drawn, not printed as text


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_names_of_forty_characters_keep_the_card_and_its_legend_on_one_page(games: Games, lang: str) -> None:
    """The header they grow pushed the legend onto a page of its own: the card is set tighter."""
    _, doc = games.game("long-names")
    (text,) = page_texts(games.pdf("long-names", lang=lang))
    assert "t/b: tricks taken / bid" in text if lang == "en" else "в/з: взято / заказ" in text
    if lang == "en":  # every row whole (the dealer's button reads "D" in English)
        printed = lines(games.pdf("long-names"))
        assert all(row_of(printed, n) == expected_row(doc, n) for n in range(1, len(doc["hands"]) + 1))
    assert len(page_texts(games.pdf("long-names", "?chart=1", lang))) == 2


@pytest.mark.parametrize("query", ["", "?paper=letter"])
@pytest.mark.parametrize("lang", ["en", "ru", "be", "eo"])
def test_twenty_six_hands_under_names_of_forty_letters_fit_one_page(games: Games, lang: str, query: str) -> None:
    """In Belarusian, Esperanto and Russian the longer header pushed the card's last sum and its
    legend onto a second page, even set tighter."""
    _, doc = games.game("all-cards-unbroken")
    assert len(doc["hands"]) == 26 and doc["status"] == "finished"
    (text,) = page_texts(games.pdf("all-cards-unbroken", query, lang))
    assert f"{doc['stats'][0]['taken']}/{doc['stats'][0]['bid']}" in text  # the Σ row, the last of the card
    assert "26" in text.split()


def test_fifteen_long_names_keep_the_chart_on_the_page_after_the_card(games: Games) -> None:
    """Their header left the chart no room: a page held the header alone and the chart went on a third."""
    for paper in ("a4", "letter"):
        texts = page_texts(games.pdf("fifteen-unbroken", f"?chart=1&paper={paper}"))
        assert len(texts) == 2 and "Score progression" in texts[1], paper


def test_fifteen_players_fit_the_width_and_every_page_repeats_the_header(games: Games) -> None:
    _, doc = games.game("fifteen")
    pdf = games.pdf("fifteen", "?chart=1")
    texts = page_texts(pdf)
    assert len(texts) == 2
    for text in texts:  # the header with all fifteen names, in seating order, on every page
        seating = " ".join(text[text.index("SEATING") :].split())  # a long seating line wraps
        assert [seating.index(f"Player {n:02d} of fifteen") for n in range(1, 16)] == sorted(
            seating.index(f"Player {n:02d} of fifteen") for n in range(1, 16)
        )
    printed = lines(pdf)
    for number in range(1, len(doc["hands"]) + 1):
        assert row_of(printed, number) == expected_row(doc, number)


def test_a_long_extended_game_turns_the_page_where_the_deal_turns_and_repeats_the_table_header(games: Games) -> None:
    _, doc = games.game("extended")
    assert len(doc["hands"]) == 34  # 17 … 1 … 17 (R9) and the 18-card all-cards hand (R10)
    texts = page_texts(games.pdf("extended"))
    assert len(texts) == 2
    for text, hands in zip(texts, (range(1, 18), range(18, 35))):
        page_lines = [line.strip() for line in text.splitlines()]
        header = next(line for line in page_lines if line.startswith("# bids/ cards"))  # repeated on every page
        assert header.replace("★ ", "") == "# bids/ cards Ann Ben Cy"
        assert {int(line.split()[0]) for line in page_lines if line[:1].isdigit() and "/" in line.split()[1]} == set(
            hands
        )
        for number in hands:
            assert row_of(page_lines, number) == expected_row(doc, number)
    assert "S set" in texts[1] and "page 2 of 2" in texts[1]
    assert "extended game (R9), all-cards hand (R10)" in texts[0]


# -- blank sheets --------------------------------------------------------------------------------
def test_a_blank_sheet_of_a_stored_game_keeps_names_cards_and_dealers_only(games: Games) -> None:
    _, doc = games.game("worked-finished")
    pdf = games.pdf("worked-finished", "?style=blank")
    printed = lines(pdf)
    assert "SCORE SHEET" in page_texts(pdf)[0]
    for hand in doc["hands"]:
        assert row_of(printed, hand["number"]) == [str(hand["number"]), f"/{hand['cards']}"]
    assert dealer_columns(pdf, ["Ann", "Ben", "Cy"]) == {h["number"]: h["dealer"] for h in doc["hands"]}
    assert "S set" in printed and "Σ taken/bid" in printed  # rows to fill in


@pytest.mark.parametrize(
    ("query", "headers", "schedule", "first_dealer"),
    [
        ("players=Ann,Ben,Cy&first_dealer=1", ["Ann", "Ben", "Cy"], Rules(3).schedule, 1),
        ("players=Ann&players=Ben,Jr&players=Cy", ["Ann", "Ben,Jr", "Cy"], Rules(3).schedule, 0),
        ("players=4&first_dealer=3&variant=new-jersey", ["1", "2", "3", "4"], Rules.build(4, "new-jersey").schedule, 3),
        (
            "players=Ann,Ben,Cy&extended=1&all_cards_hand=yes&paper=letter",
            ["Ann", "Ben", "Cy"],
            Rules(3, extended=True, all_cards_hand=True).schedule,
            0,
        ),
        ("players=5&zero_bids=true", ["1", "2", "3", "4", "5"], Rules(5).schedule, 0),
    ],
)
def test_a_blank_sheet_needs_no_stored_game(
    games: Games, query: str, headers: list[str], schedule: tuple[int, ...], first_dealer: int
) -> None:
    answer = games.client.get(f"/scorecards/blank.pdf?{query}")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    printed = lines(answer.data)
    for number, cards in enumerate(schedule, start=1):
        assert row_of(printed, number) == [str(number), f"/{cards}"]
    players = len(headers)
    assert dealer_columns(answer.data, headers) == {
        n: (first_dealer + n - 1) % players for n in range(1, len(schedule) + 1)
    }
    assert size(pages(answer.data)[0]) == (LETTER if "letter" in query else A4)


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        ("players=Ann", 422, "Bluke is played by 2 to 15 players, not 1 (R4)."),
        ("players=16", 422, "not 16 (R4)"),
        ("players=Ann,Ben,Cy,Dee&extended=1", 422, "only for 2 or 3 players, not 4 (R9)"),
        ("players=4&all_cards_hand=1", 422, "(R10)"),
        (
            "players=3&variant=bridge",
            422,
            "The variant must be &#39;standard&#39; or &#39;new-jersey&#39;, not &#39;bridge&#39; (R18)",
        ),
        ("players=3&first_dealer=3", 422, "The first dealer must be one of the 3 seats, not 3 (R6)."),
        ("players=3&first_dealer=x", 400, "first_dealer"),
        ("players=3&extended=perhaps", 400, "extended"),
        ("players=3&paper=a3", 400, "paper"),
        ("players=Ann,ann", 400, "Two players are called"),
        ("players=Ann,,Cy", 400, "Player 2 has no name."),
        ("", 400, "names"),
        ("players=", 400, "names"),
        ("players=3&first_dealer=%C2%B2", 400, "first_dealer"),  # "²" is a digit to Python, not a seat
        (f"players=3&first_dealer={'9' * 5000}", 400, "first_dealer"),
        ("players=99999", 422, "not 99999 (R4)"),
    ],
)
def test_a_blank_sheet_refuses_an_impossible_table_in_the_engines_words(
    games: Games, query: str, status: int, words: str
) -> None:
    answer = games.client.get(f"/scorecards/blank.pdf?{query}")
    assert answer.status_code == status
    assert words in text(answer)


# -- names are text, never fetched ---------------------------------------------------------------
def test_hostile_names_print_literally_and_nothing_is_fetched(games: Games, monkeypatch: pytest.MonkeyPatch) -> None:
    with games.app.test_request_context():
        printer = printing.printer()
    fetched: list[str] = []
    connections: list[Any] = []
    real_fetch = printer.fetcher.fetch
    monkeypatch.setattr(printer.fetcher, "fetch", lambda url, headers=None: fetched.append(url) or real_fetch(url))
    monkeypatch.setattr(socket.socket, "connect", lambda self, address: connections.append(address))
    pdf = games.pdf("hostile", "?chart=1")
    text = "\n".join(page_texts(pdf))
    for name in HOSTILE:
        assert text.count(name) >= 3  # seating line, table header, chart key
    assert fetched == [] and connections == []


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/x",
        "https://example.com/a.css",
        "ftp://example.com/x",
        "file:///etc/passwd",
        "data:text/css,body{}",
        "file://localhost/etc/passwd",
        "{static}/../scorekeeper/__init__.py",
        "{static}/missing.css",
        "//127.0.0.1:9/x",
        "x.css",
    ],
)
def test_the_pdf_fetcher_refuses_everything_but_the_apps_static_files(games: Games, url: str) -> None:
    static = Path(games.app.static_folder or "")
    fetcher = printing.static_fetcher(str(static))
    with pytest.raises(ValueError, match="Refused"):
        fetcher.fetch(url.replace("{static}", static.resolve().as_uri()))


def test_the_pdf_fetcher_serves_the_print_stylesheet(games: Games) -> None:
    static = Path(games.app.static_folder or "").resolve()
    answer = printing.static_fetcher(str(static)).fetch((static / "print.css").as_uri())
    assert b"@page" in answer.read() and answer.content_type == "text/css"


# -- access ----------------------------------------------------------------------------------------
def test_either_token_or_the_page_cookie_opens_the_pdf_and_nothing_else_does(games: Games) -> None:
    game, _ = games.game("worked")
    url, client = f"/api/games/{game['id']}/scorecard.pdf", games.app.test_client()
    for headers in ({}, auth("not-a-token"), {"Authorization": game["scorer_token"]}):
        answer = client.get(url, headers=headers)
        assert answer.status_code == 404 and answer.get_json()["error"]["code"] == "not_found"
    assert client.get(url, headers=auth(game["scorer_token"])).status_code == 200
    assert client.get("/api/games/nope/scorecard.pdf", headers=auth(game["scorer_token"])).status_code == 404
    joined = client.get(f"/g/{game['id']}/join/{game['watch_token']}")
    assert joined.status_code == 302
    answer = client.get(url)  # the print button on the game page: the HttpOnly cookie is enough
    assert answer.status_code == 200 and answer.data.startswith(b"%PDF")
    assert answer.headers["Cache-Control"] == "private, no-store"
    day = game["created_at"][:10]  # the day it was played
    assert answer.headers["Content-Disposition"] == f'inline; filename="bluke-{day}-{game["id"]}-creative.pdf"'
    charted = client.get(url + "?chart=1")
    assert charted.headers["Content-Disposition"] == f'inline; filename="bluke-{day}-{game["id"]}-creative-chart.pdf"'
    blank = client.get(url + "?style=blank&chart=1")  # a blank sheet has no scores to chart
    assert blank.headers["Content-Disposition"] == f'inline; filename="bluke-{day}-{game["id"]}-blank.pdf"'


@pytest.mark.parametrize(
    ("query", "word"), [("?style=fancy", "style"), ("?paper=a5", "paper"), ("?chart=maybe", "chart")]
)
def test_bad_pdf_options_are_a_400_naming_the_option(games: Games, query: str, word: str) -> None:
    game, _ = games.game("worked")
    answer = games.client.get(f"/api/games/{game['id']}/scorecard.pdf{query}", headers=auth(game["scorer_token"]))
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["code"] == "bad_request" and word in error["message"]


# -- what it looks like ----------------------------------------------------------------------------
def png(pdf: bytes, folder: Path, name: str) -> Path:
    """Page 1 as a PNG, drawn by poppler's pdftoppm."""
    (folder / f"{name}.pdf").write_bytes(pdf)
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "60",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(folder / f"{name}.pdf"),
            str(folder / name),
        ],
        check=True,
        timeout=60,
    )
    return folder / f"{name}.png"


def coloured(path: Path, target: tuple[int, int, int], tolerance: int = 40) -> int:
    """How many pixels of the players' columns are close to ``target`` (the ink of circles or boxes).

    The left 32 mm (hand number, bids/cards and the trump's pip, red for ♥ ♦) are left out.
    """
    from PIL import Image

    with Image.open(path) as image:
        data = image.convert("RGB").crop((round(32 / 25.4 * 60), 0, image.width, image.height)).tobytes()
    return sum(1 for i in range(0, len(data), 3) if all(abs(data[i + k] - target[k]) <= tolerance for k in range(3)))


SET_INK, PERFECT_INK = (0xB3, 0x26, 0x1E), (0x1D, 0x4E, 0x89)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler's pdftoppm is not installed")
def test_page_one_renders_to_a_landscape_png_with_circled_sets_and_boxed_perfects(games: Games, tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    creative = png(games.pdf("worked-finished"), tmp_path, "creative")
    plain = png(games.pdf("worked-finished", "?style=plain"), tmp_path, "plain")
    blank = png(games.pdf("worked-finished", "?style=blank"), tmp_path, "blank")
    from PIL import Image

    with Image.open(creative) as image:
        assert image.width > image.height and image.width == round(297 / 25.4 * 60)
    # Sets are circled in red and perfect bids boxed in blue; the plain and blank sheets draw neither.
    assert coloured(creative, SET_INK) > 200 and coloured(creative, PERFECT_INK) > 100
    for other in (plain, blank):
        assert coloured(other, SET_INK) < 20 and coloured(other, PERFECT_INK) < 20


def test_the_print_template_marks_each_cell_by_its_outcome(games: Games) -> None:
    """The marks of R28 come from the engine's outcomes: S circled, P boxed, O unmarked."""
    _, doc = games.game("worked")
    with games.app.test_request_context():
        from flask import render_template

        from scorekeeper import games
        from scorekeeper.extensions import db
        from scorekeeper.models import Game

        game = db.session.get(Game, doc["id"])
        sheet = printing.build_sheet("creative", "a4", games.rules_of(game), 0, game.players, games.scorecard_of(game))
        html = render_template("print/scorecard.html", sheet=sheet, points=minus)
    assert [c.outcome for c in sheet.rows[0].cells] == ["O", "S", "O"]
    assert [c.outcome for c in sheet.rows[1].cells] == ["P", "O", "S"]
    assert html.count('class="mark out-S"') == 2 and html.count('class="mark out-P"') == 1
    assert WORKED["players"][0] in html


def test_a_right_to_left_winners_name_keeps_its_total_after_it(games: Games) -> None:
    """The header's winner line printed "★ 211 · דוד" (and a negative total as "1790−"): the name
    pulled the number into its right-to-left run. Names are isolated (``<bdi>``)."""
    game, doc = games.game("rtl")
    assert doc["winners"] == [0] and doc["totals"] == [211, 203]
    for paper in ("", "?paper=letter"):
        (line,) = [text for text in lines(games.pdf("rtl", paper)) if "★" in text and "·" in text]
        assert re.search(r"★\s*\S*דוד\S*\s*·\s*211\b", line), line


@pytest.mark.parametrize(
    ("names", "font"),
    [
        (["王小明", "佐藤"], "Droid"),
        (["김민준", "박지성"], "Nanum"),
        (["Zoë 🎉", "Bo ♛"], "Symbola"),
        (["สมชาย"], "Noto-Sans-Thai"),
        (["राहुल"], "Noto-Sans-Devanagari"),
        (["தமிழ்"], "Noto-Sans-Tamil"),
        (["সুমন"], "Noto-Sans-Bengali"),
    ],
)
def test_names_in_every_script_print_in_a_font_that_has_them(games: Games, names: list[str], font: str) -> None:
    """The blank sheet printed 王小明 and 佐藤, then 김민준 and 🎉, then Thai, Devanagari, Tamil and
    Bengali names as empty boxes: no font installed had them."""
    answer = games.client.get(f"/scorecards/blank.pdf?players={','.join(names)},Ann")
    assert answer.status_code == 200
    fonts = {
        str(face["/BaseFont"]).split("+")[-1]
        for page in pages(answer.data)
        for face in page["/Resources"]["/Font"].values()
    }
    assert any(font in face for face in fonts), fonts
    assert all(name in "".join(page_texts(answer.data)) for name in names)


def words(pdf: bytes, folder: Path) -> tuple[float, list[tuple[float, float, str]]]:
    """The page width and every word of the PDF's pages as (left, right, text), read by pdftotext."""
    path = folder / "words.pdf"
    path.write_bytes(pdf)
    html = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True).stdout
    width = float(re.search(r'<page width="([\d.]+)"', html).group(1))  # type: ignore[union-attr]
    found = re.findall(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>', html)
    return width, [(float(left), float(right), text) for left, right, text in found]


@pytest.mark.parametrize("lang", ["ru", "be", "eo", "it", "id"])
def test_the_tally_labels_stay_in_their_column_in_every_language(games: Games, tmp_path: Path, lang: str) -> None:
    """ "П перебор (+взятки)" ran across the first player's column (ru, be); in Esperanto it was cut."""
    with games.app.test_request_context(headers={"Accept-Language": lang}):
        label = i18n._("over (+tricks)")
    _, printed = words(games.pdf("worked-finished", lang=lang), tmp_path)
    column = min(left for left, _, text in printed if text == "Ann")  # the first player's name
    last = label.split()[-1]
    assert [right for _, right, text in printed if text == last][0] < column - 1, (last, printed[:40])


def test_a_name_without_spaces_stays_on_the_page(games: Games, tmp_path: Path) -> None:
    """Forty letters without a space ran past the page's right edge in the header (first dealer,
    winner) on A4 and letter paper, then in the chart's key."""
    _, doc = games.game("unbroken")
    assert doc["status"] == "finished"
    for query in ("?paper=a4", "?paper=letter", "?chart=1", "?chart=1&paper=letter", "?chart=1&style=plain"):
        width, printed = words(games.pdf("unbroken", query), tmp_path)
        right = max(right for _, right, _ in printed)
        assert right <= width - 10, f"{query}: a word ends at {right} of {width} pt"


def test_a_pdf_waits_for_the_renderer_outside_any_transaction(app: Flask, client: Any) -> None:
    """One renderer a process, behind a lock: a request that waited there held its read transaction
    open all the while (eight PDFs at once: eight PostgreSQL sessions idle in transaction, 7.7 s)."""
    from scorekeeper.extensions import db

    game = new_game(client, ["Ann", "Ben", "Cy"])
    group = client.post("/api/groups", json={"name": "Friday", "players": ["Ann", "Ben"]}).get_json()
    with app.app_context():
        renderer = printing.printer()
    lock, seen = renderer.lock, []

    class Watched:
        def __enter__(self) -> None:
            seen.append(db.session().in_transaction())
            lock.acquire()

        def __exit__(self, *exc: object) -> None:
            lock.release()

    renderer.lock = Watched()  # type: ignore[assignment]
    try:
        assert (
            client.get(f"/api/games/{game['id']}/scorecard.pdf", headers=auth(game["watch_token"])).status_code == 200
        )
        summary = client.get(f"/api/groups/{group['id']}/summary.pdf", headers=auth(group["token"]))
        assert summary.status_code == 200
    finally:
        renderer.lock = lock
    assert seen == [False, False]


def test_a_scorecard_saves_under_the_day_printed_on_it(app: Flask, client: Any) -> None:
    """Begun at 23:30 UTC on a Friday, a game is Saturday's at Kiritimati (UTC+14): its card says so,
    and the file it saves as said Friday."""
    from datetime import datetime

    from scorekeeper.extensions import db
    from scorekeeper.models import Game

    game = new_game(client, ["Ann", "Ben", "Cy"])
    with app.app_context():
        stored = db.session.get(Game, game["id"])
        assert stored is not None
        stored.created_at = datetime(2025, 3, 7, 23, 30)
        db.session.commit()
    client.set_cookie("tz", "Pacific/Kiritimati")
    answer = client.get(f"/api/games/{game['id']}/scorecard.pdf", headers=auth(game["watch_token"]))
    assert f'filename="bluke-2025-03-08-{game["id"]}-creative.pdf"' in answer.headers["Content-Disposition"]
    assert "Sat 08 Mar 2025" in " ".join(page_texts(answer.data))
