"""The installable app shell: manifest, icons, service worker, versioned and compressed static files."""

from __future__ import annotations

import gzip
import posixpath
import re
import struct

import brotli
import pytest
from flask import Flask
from flask.testing import FlaskClient
from jinja2 import ChoiceLoader
from jinja2 import DictLoader
from werkzeug.test import TestResponse

from scorekeeper.assets import shrink
from scorekeeper.assets import YEAR
from scorekeeper.offline import SHELL


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def get(client: FlaskClient, url: str, **kwargs: object) -> TestResponse:
    """A GET whose answer is read and closed (a static file is sent from an open file)."""
    answer = client.get(url, **kwargs)  # type: ignore[arg-type]
    answer.get_data()
    answer.close()
    return answer


def static_urls(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def test_the_manifest_names_the_app_and_opens_it_full_screen(client: FlaskClient) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.mimetype == "application/manifest+json"
    manifest = answer.get_json(force=True)
    assert manifest["name"] == "Bluke Scorekeeper" and manifest["short_name"] == "Bluke"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")


def test_the_manifest_icons_are_real_pngs_of_the_sizes_they_claim(client: FlaskClient) -> None:
    icons = client.get("/manifest.webmanifest").get_json(force=True)["icons"]
    purposes = set()
    for icon in icons:
        answer = get(client, icon["src"])
        assert answer.status_code == 200 and answer.mimetype == "image/png"
        width, height = png_size(answer.data)
        assert icon["sizes"] == f"{width}x{height}"
        purposes.add((icon["purpose"], width))
    assert {("any", 192), ("any", 512), ("maskable", 512)} <= purposes


def test_every_page_links_the_manifest_and_the_worker(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert 'data-sw="/sw.js"' in html


def test_the_worker_is_served_from_the_root_and_lists_the_versioned_shell(client: FlaskClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"  # a new release reaches the phone at once
    shell = re.search(r"var SHELL = (\[[^\]]*\])", answer.get_data(as_text=True))
    assert shell
    urls = re.findall(r'"([^"]+)"', shell.group(1))
    assert [re.sub(r"^/static/|\?v=\w+$", "", url) for url in urls] == list(SHELL)
    for url in urls:
        assert get(client, url).status_code == 200


def test_a_release_that_changes_only_the_offline_page_installs_the_worker_again(
    app: Flask, client: FlaskClient
) -> None:
    """A phone installs a new worker (and fetches the page it keeps for pages never opened) only when
    the worker's bytes change: they named the shell files alone, so new words on the offline page
    never reached a phone that had the app already."""

    def cache_name() -> str:
        found = re.search(r'CACHE = "(bluke-shell-\w+)"', client.get("/sw.js").get_data(as_text=True))
        assert found
        return found.group(1)

    before = cache_name()
    assert cache_name() == before  # the same release: the worker stays
    assert app.jinja_loader is not None
    app.jinja_env.loader = ChoiceLoader(
        [DictLoader({"offline.html": "No connection, in new words."}), app.jinja_loader]
    )
    app.jinja_env.cache = None
    assert "in new words" in client.get("/offline").get_data(as_text=True)
    assert cache_name() != before


def test_the_offline_page_says_what_is_kept(client: FlaskClient) -> None:
    answer = client.get("/offline")
    assert answer.status_code == 200
    assert "The games you score on this phone open without a connection" in answer.get_data(as_text=True)


def test_static_files_have_versioned_urls_cached_a_year_and_immutable(client: FlaskClient) -> None:
    urls = static_urls(client.get("/").get_data(as_text=True))
    assert any("app.css" in url for url in urls) and any("app.js" in url for url in urls)
    for url in urls:
        assert re.search(r"\?v=[0-9a-f]{12}$", url), url
        answer = get(client, url)
        assert answer.status_code == 200
        assert answer.cache_control.max_age == YEAR and answer.cache_control.immutable and answer.cache_control.public


@pytest.mark.parametrize("query", ["", "?v=000000000000"])
def test_a_static_url_without_the_current_version_is_revalidated(client: FlaskClient, query: str) -> None:
    answer = get(client, "/static/app.css" + query)
    assert answer.status_code == 200
    assert answer.cache_control.no_cache and not answer.cache_control.immutable


@pytest.mark.parametrize("encoding, decode", [("gzip", gzip.decompress), ("br", brotli.decompress)])
@pytest.mark.parametrize("path", ["/", "/static/app.css", "/static/app.js", "/manifest.webmanifest"])
def test_pages_styles_and_scripts_are_compressed(client: FlaskClient, path: str, encoding: str, decode: object) -> None:
    url = next((u for u in static_urls(client.get("/").get_data(as_text=True)) if u.startswith(path + "?")), path)
    plain = get(client, url, headers={"Accept-Encoding": "identity"})
    packed = get(client, url, headers={"Accept-Encoding": encoding})
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in packed.headers["Vary"]
    expected = shrink(plain.data, plain.mimetype) if path.startswith("/static/") else plain.data  # comments stay home
    assert decode(packed.data) == expected  # type: ignore[operator]
    assert len(packed.data) < len(plain.data)


def test_icons_are_not_compressed_twice(client: FlaskClient) -> None:
    answer = get(client, "/static/icons/icon-512.png", headers={"Accept-Encoding": "gzip, br"})
    assert "Content-Encoding" not in answer.headers


def test_a_static_file_says_its_version_and_one_at_another_versions_address_is_never_kept(client: FlaskClient) -> None:
    """During a rolling deploy an older server answers the newer page's ``?v=`` with its own file:
    the service worker keeps a file only under the address of the version it is (X-Bluke-Version;
    tests/browser/test_offline_browser.py), and no cache may keep one sent under another version's
    address."""
    current = next(u for u in static_urls(client.get("/").get_data(as_text=True)) if "app.css" in u)
    answer = get(client, current)
    assert answer.headers["X-Bluke-Version"] == current.split("?v=")[1] and not answer.cache_control.no_store
    other = get(client, "/static/app.css?v=000000000000")
    assert other.headers["X-Bluke-Version"] == current.split("?v=")[1] and other.cache_control.no_store
    # The worker installs with revalidation: a browser holding the file gets a 304, and hands the
    # worker its stored copy with the 304's headers (without the version, the install failed forever).
    again = get(client, current, headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304 and again.headers["X-Bluke-Version"] == current.split("?v=")[1]


@pytest.mark.parametrize(
    "spelling", ["./app.css", ".//app.css", "vendor/../app.css", "icons/../app.js", "./vendor/htmx.min.js"]
)
def test_a_static_file_has_one_address(app: Flask, client: FlaskClient, spelling: str) -> None:
    """Each spelling of a file's address kept its own digest and compressed copy, made at brotli's
    slowest setting each time: as many as a client sent (and ``vendor/../app.css`` came unminified)."""
    answer = client.get(f"/static/{spelling}", headers={"Accept-Encoding": "br"})
    assert answer.status_code == 404
    assert get(client, "/static/app.css", headers={"Accept-Encoding": "br"}).status_code == 200
    kept = [name for name, _version, _encoding in app.extensions["bluke_packed"]] + list(
        app.extensions["bluke_digests"]
    )
    assert "app.css" in kept and all(posixpath.normpath(name) == name for name in kept), kept
