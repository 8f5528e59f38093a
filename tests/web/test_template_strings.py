"""Every word a player reads in a template is marked for translation (API.md, "Languages").

Each template is split by Jinja's own lexer: text outside ``{{ }}``/``{% %}`` is what reaches the
page as written, so any word in it (or in a ``title``, ``aria-label``, ``placeholder`` or ``alt``)
that is not a brand name is a string a translator never sees.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from jinja2 import Environment

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
#: Names that stay the same in every language.
BRANDS = {"Bluke", "Scorekeeper", "CSV", "JSON", "UTC", "Σ"}
TEXT_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
WORD = re.compile(r"[^\W\d_]+")
#: Attributes written outside a tag, for a block that a parent template puts inside one
#: (``{% block body_attrs %} data-awake="1"{% endblock %}``): markup, not text.
ATTRIBUTE = re.compile(r'[\w:-]+="[^"]*"')


class Texts(HTMLParser):
    """The text nodes and readable attributes of a page, outside scripts and styles."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skipping += 1
        readable = dict(attrs)
        for name, value in attrs:
            if value and (
                name in TEXT_ATTRIBUTES
                or (name == "value" and tag == "input" and readable.get("type") in ("submit", "button"))
            ):
                self.found.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.found.append(ATTRIBUTE.sub("", data))


def unmarked_words(source: str) -> list[str]:
    """Words written straight into a template instead of through ``_()``/``ngettext``/``{% trans %}``."""
    env = Environment(extensions=["jinja2.ext.i18n"])
    page = "".join(value for _, kind, value in env.lex(source) if kind == "data")
    parser = Texts()
    parser.feed(page)
    parser.close()
    return [word for text in parser.found for word in WORD.findall(text) if word not in BRANDS]


def test_the_check_finds_an_unmarked_word_and_passes_marked_ones() -> None:
    assert unmarked_words('<p title="Deals first">{{ _("Start") }} now</p><script>var x = "y";</script>') == [
        "Deals",
        "first",
        "now",
    ]
    assert unmarked_words('<b>{{ ngettext("%(num)d card", "%(num)d cards", n) }}</b> · Bluke {# a note #}') == []


@pytest.mark.parametrize(
    "template",
    sorted(str(p.relative_to(TEMPLATES)) for p in TEMPLATES.rglob("*.html")),
)
def test_every_word_in_a_template_is_marked_for_translation(template: str) -> None:
    words = unmarked_words((TEMPLATES / template).read_text())
    assert not words, f"{template}: words not marked for translation: {words}"
