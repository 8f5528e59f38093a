"""The deploy files agree with the app: every setting they pass is one the app or gunicorn reads."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ["deploy/compose.yaml", "deploy/scorekeeper.service", "deploy/bluke.env.example", "Makefile"]
SETTING = re.compile(r"\bSCOREKEEPER_[A-Z_]+\b")


def read(path: str) -> str:
    return (ROOT / path).read_text()


def settings_read() -> set[str]:
    """Every SCOREKEEPER_* name the package or the gunicorn settings mention."""
    texts = [p.read_text() for p in (ROOT / "scorekeeper").rglob("*.py")] + [read("deploy/gunicorn.conf.py")]
    return {name for text in texts for name in SETTING.findall(text)}


@pytest.mark.parametrize("path", DEPLOY)
def test_every_setting_the_deploy_files_pass_is_read_and_documented(path: str) -> None:
    known, readme = settings_read(), read("README.md")
    for name in set(SETTING.findall(read(path))):
        assert name in known, f"{path} sets {name}, which nothing reads"
        assert name in readme, f"{name} ({path}) is not documented in README.md"


def test_every_way_to_serve_uses_the_one_gunicorn_configuration() -> None:
    for path in ("deploy/compose.yaml", "deploy/scorekeeper.service", "deploy/Dockerfile", "Makefile"):
        assert "--config deploy/gunicorn.conf.py" in read(path).replace('", "', " ").replace('"', ""), path
    config = read("deploy/gunicorn.conf.py")
    assert 'worker_class = "gthread"' in config
    assert 'logger_class = "scorekeeper.serving.TokenFreeLogger"' in config


def test_both_caddyfiles_set_the_headers_that_gunicorns_own_refusals_lack() -> None:
    """API.md, "Serving": every answer carries them; gunicorn's 414 and 431 get them from the proxy."""
    headers = re.compile(r"^\s*\?([\w-]+) ", re.MULTILINE)
    wanted = {"X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options", "Content-Security-Policy"}
    assert set(headers.findall(read("deploy/Caddyfile"))) == wanted
    readme = read("README.md")
    systemd = readme[readme.index("deploy/scorekeeper.service") :]
    assert set(headers.findall(systemd[: systemd.index("## ")])) == wanted


def test_every_way_to_serve_compiles_the_translations() -> None:
    """git holds only the catalogs' sources: a server that does not compile them speaks English only."""
    assert "pybabel compile -d scorekeeper/translations" in read("deploy/Dockerfile")
    assert "pybabel compile -d scorekeeper/translations" in read("deploy/scorekeeper.service")
    assert re.search(r"^serve: .*compile-catalogs", read("Makefile"), re.M)


def test_the_example_settings_leave_the_secrets_to_set() -> None:
    """compose refuses an empty required value (``${NAME:?…}``), so a forgotten edit cannot start."""
    example = dict(line.split("=", 1) for line in read("deploy/bluke.env.example").splitlines() if "=" in line[:40])
    for name in ("POSTGRES_PASSWORD", "SCOREKEEPER_SECRET_KEY"):
        assert example[name] == "" and f"${{{name}:?" in read("deploy/compose.yaml")


def test_compose_passes_every_optional_setting_of_the_example_to_the_app() -> None:
    """compose reads ``deploy/.env`` only for its own ``${…}``: a budget set there and not passed
    on never reached the app servers."""
    example = read("deploy/bluke.env.example")
    optional = example[example.index("# Optional, both") :]
    for name in SETTING.findall(optional):
        assert f"{name}: ${{{name}:-" in read("deploy/compose.yaml"), name


def test_the_image_has_the_fonts_the_printed_card_asks_for() -> None:
    """print.css asks for DejaVu Sans Condensed first (fonts-dejavu-extra); without it the card is
    set wider than the one the tests read back. Names in Chinese or Japanese take Droid Sans Fallback
    (fonts-droid-fallback), in Korean NanumGothic (fonts-nanum), emoji Symbola (fonts-symbola), and
    other scripts (Thai, Devanagari, Tamil, Bengali…) a Noto font of fonts-noto-core, found by
    fontconfig's fallback; ``make test`` installs them too."""
    assert "DejaVu Sans Condensed" in read("static/print.css")
    assert "fonts-dejavu-extra" in read("deploy/Dockerfile")
    for font in ("Droid Sans Fallback", "NanumGothic", "Symbola"):
        assert font in read("static/print.css")
    for package in ("fonts-droid-fallback", "fonts-nanum", "fonts-symbola", "fonts-noto-core"):
        assert package in read("deploy/Dockerfile") and package in read("Makefile")


def gunicorn_check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """gunicorn reads deploy/gunicorn.conf.py with these settings, and stops."""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    command = [str(gunicorn), "--config", "deploy/gunicorn.conf.py", "--check-config"]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("SCOREKEEPER_WORKERS", "0", "SCOREKEEPER_WORKERS must be a whole number from 1 to 64, not '0'."),
        ("SCOREKEEPER_WORKERS", "two", "SCOREKEEPER_WORKERS must be a whole number from 1 to 64, not 'two'."),
        ("SCOREKEEPER_THREADS", "0", "SCOREKEEPER_THREADS must be a whole number from 1 to 15, not '0'."),
        ("SCOREKEEPER_THREADS", "16", "SCOREKEEPER_THREADS must be a whole number from 1 to 15, not '16'."),
    ],
)
def test_a_server_size_gunicorn_cannot_serve_stops_it_with_a_sentence_naming_the_variable(
    name: str, value: str, words: str
) -> None:
    """With 0 processes gunicorn said it was listening and never answered; 0 threads failed to boot
    with a traceback, and a word for a number with Python's ``int()`` traceback."""
    checked = gunicorn_check({**os.environ, name: value})
    assert checked.returncode != 0 and words in checked.stdout + checked.stderr, checked
    unset = {k: v for k, v in os.environ.items() if k not in ("SCOREKEEPER_WORKERS", "SCOREKEEPER_THREADS")}
    assert gunicorn_check(unset).returncode == 0  # the defaults
