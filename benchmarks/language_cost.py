"""What speaking six languages costs a page: the hand screen and a JSON rule error, English beside Russian.

Renders the scorer's hand screen of a 4-player game (``GET /g/<id>``) and answers a refused write
(``PUT …/tricks`` that breaks R23, 422) through the real app on SQLite, ``rounds`` times per
language after a warm-up, and prints the median time per request and the ratio to English. The
page in Russian carries the same markup with translated text, so the ratio is the price of the
catalog lookups; it should stay close to 1.

    .venv/bin/python benchmarks/language_cost.py [rounds]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402

LANGS = ("en", "ru", "id")


def interleaved(calls: dict[str, Callable[[], None]], rounds: int) -> dict[str, float]:
    """Median seconds per call, the calls taken in turn each round so that a busy machine slows all alike."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    for call in calls.values():
        call()  # warm-up: templates compiled, catalogs loaded
    for _ in range(rounds):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def main(rounds: int = 200) -> None:
    folder = Path(tempfile.mkdtemp())
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite'}",
            "SECRET_KEY": "bench",
            "INSTANCE_PATH": str(folder),
            "RATELIMIT_ENABLED": False,
        }
    )
    with app.app_context():
        db.create_all()
    client = app.test_client()
    game = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy", "Dee"]}).get_json()
    auth = {"Authorization": f"Bearer {game['scorer_token']}"}
    client.put(f"/api/games/{game['id']}/hands/1/bids", json={"bids": [3, 4, 2, 3]}, headers=auth)
    page_client = app.test_client()
    page_client.get(game["scorer_url"].replace("http://localhost", ""))  # the join link sets the cookie

    def page(lang: str) -> Callable[[], None]:
        def call() -> None:
            assert page_client.get(f"/g/{game['id']}?lang={lang}").status_code == 200

        return call

    def error(lang: str) -> Callable[[], None]:
        def call() -> None:
            answer = client.put(
                f"/api/games/{game['id']}/hands/1/tricks?lang={lang}", json={"tricks": [5, 5, 5, 5]}, headers=auth
            )
            assert answer.status_code == 422

        return call

    pages = interleaved({lang: page(lang) for lang in LANGS}, rounds)
    errors = interleaved({lang: error(lang) for lang in LANGS}, rounds)
    results = {lang: (pages[lang], errors[lang]) for lang in LANGS}
    base_page, base_error = results["en"]
    print(f"{'lang':<5} {'hand screen ms':>15} {'ratio':>6} {'422 error ms':>13} {'ratio':>6}")
    for lang, (page_s, error_s) in results.items():
        print(
            f"{lang:<5} {page_s * 1000:>15.2f} {page_s / base_page:>6.2f} {error_s * 1000:>13.2f} "
            f"{error_s / base_error:>6.2f}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
