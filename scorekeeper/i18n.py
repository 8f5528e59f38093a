"""Six languages (API.md, "Languages"): which one a request gets, and saying things in it.

The language comes from ``?lang=xx`` (remembered in a cookie), else ``Accept-Language``, else
English. Python-side sentences are English templates in ``str.format`` style, translated with
Babel's catalogs in ``scorekeeper/translations`` and then filled in; the engine's rule messages
arrive the same way (:class:`~scorekeeper.engine.RulesError` keeps its template and parameters),
so the engine stays standard-library only and every language keeps the rule numbers.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from decimal import localcontext
from decimal import ROUND_HALF_UP
from typing import Any
from urllib.parse import urlencode

import pytz
from babel import negotiate_locale
from flask import Flask
from flask import has_request_context
from flask import request
from flask import Response
from flask_babel import Babel
from flask_babel import format_date
from flask_babel import format_datetime
from flask_babel import format_decimal
from flask_babel import format_percent
from flask_babel import get_locale
from flask_babel import get_translations
from flask_babel import pgettext

from .engine import Card
from .engine import RulesError
from .engine.cards import HI_BLUKE_RANK
from .engine.errors import Counted
from .engine.errors import Phrase
from .figures import MINUS

#: Every language the app speaks, named in itself (the picker shows these names).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "ru": "Русский",
    "be": "Беларуская",
    "it": "Italiano",
    "eo": "Esperanto",
    "id": "Bahasa Indonesia",
}
DEFAULT = "en"
COOKIE = "lang"  # not "sk_…": those cookies hold game tokens (web.COOKIE_PREFIX)
COOKIE_AGE = 60 * 60 * 24 * 365

babel = Babel()


def N_(text: str) -> str:
    """Mark an English phrase for the catalogs where it is defined; :func:`_` translates it where shown."""
    return text


def asked_language() -> str | None:
    """The language of ``?lang=`` as a script may write it (``ru``, ``RU``, ``ru-RU``, ``ru_RU``: a
    region by its language, as ``Accept-Language`` is read), if we speak it.

    >>> from flask import Flask
    >>> with Flask("x").test_request_context("/?lang=Ru_BY"):
    ...     asked_language()
    'ru'
    """
    asked = request.args.get("lang", "").lower().replace("_", "-").partition("-")[0]
    return asked if asked in LANGUAGES else None


def select_locale() -> str:
    """``?lang=`` first, then the remembered choice, then the browser's ``Accept-Language``, then English."""
    if not has_request_context():
        return DEFAULT  # commands and services run outside a request speak English
    for asked in (asked_language(), request.cookies.get(COOKIE)):
        if asked in LANGUAGES:
            return str(asked)
    # The first language asked for that we speak, a region tag by its language (ru-RU is ru):
    # Werkzeug's best_match would take a lower-ranked exact tag ("en;q=0.8") before "ru-RU".
    wanted = [tag for tag, quality in request.accept_languages if quality > 0]
    found = negotiate_locale(wanted, LANGUAGES, sep="-", aliases={})
    return found.lower() if found and found.lower() in LANGUAGES else DEFAULT


#: The cookie in which the page's script keeps the phone's time zone (``static/app.js``).
TZ_COOKIE = "tz"


@functools.cache
def _time_zones() -> frozenset[str]:
    """The zones the dates can be written in: those of pytz, where Flask-Babel looks them up. The
    system's list may hold names pytz refuses ("localtime", "Factory": a 500 on every dated page)
    and lack the old names a browser still reports ("Asia/Calcutta", "Europe/Kiev" without Debian's
    tzdata-legacy), which pytz keeps."""
    return frozenset(pytz.all_timezones_set)


def select_timezone() -> str | None:
    """The phone's time zone, as its script reports it (an IANA name such as ``America/New_York``):
    a game played on a Friday evening in New York is dated that Friday, not the Saturday of UTC.
    Without the script's cookie (the first page, no JavaScript), UTC."""
    if not has_request_context():
        return None
    asked = request.cookies.get(TZ_COOKIE, "")
    return asked if asked in _time_zones() else None


def current() -> str:
    """The request's language code (``en`` outside a request)."""
    try:
        return str(get_locale() or DEFAULT)
    except RuntimeError:
        return DEFAULT


def remember(response: Response) -> Response:
    """A page opened with a valid ``?lang=`` keeps that language in a cookie for the next pages;
    every answer names its language (``Content-Language``)."""
    asked = asked_language()
    if asked is not None and request.cookies.get(COOKIE) != asked:
        response.set_cookie(
            COOKIE, asked, max_age=COOKIE_AGE, path="/", samesite="Lax", httponly=True, secure=request.is_secure
        )
    if request.endpoint == "static":  # the same file in every language, for every cookie: cached once
        return response
    response.vary.update(("Accept-Language", "Cookie"))
    response.content_language.add(current())  # the service worker keeps its offline page in it (templates/sw.js)
    return response


def language_url(code: str) -> str:
    """This page again in language ``code`` (the picker's links work without JavaScript).

    Only the query is written: the browser keeps the page's own address. A path written back
    would let a crafted address (``/%5Cevil.example/``, ``//evil.example/``) lead off the site.
    """
    args = {key: value for key, value in request.args.items(multi=True) if key != "lang"}
    return "?" + urlencode({**args, "lang": code})


# -- saying things -----------------------------------------------------------------------------------
class LocalCard:
    """A card inside a translated sentence: ``{card.label}`` reads in the player's language."""

    def __init__(self, card: Card) -> None:
        self.card = card

    @property
    def label(self) -> str:
        return card_label(self.card)

    def __str__(self) -> str:
        return str(self.card)


#: The longest a value a client sent is shown in a message (characters): a name (40) or a
#: group's name (60) whole, a pasted page not.
SHOWN = 64


def shown(value: object, limit: int = SHOWN) -> str:
    """A value as the client wrote it in JSON (``"3"``, ``true``, ``[1]``), shortened for messages."""
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Sent:
    """Any other value inside a sentence: ``{value!r}`` writes what is not text as the client wrote
    it in JSON (``null``, ``true``, ``[1]``, not Python's ``None``, ``True``), text in quotes
    (``'4'``, as the sentences quote names), both shortened; ``{value}`` as before."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __repr__(self) -> str:
        if isinstance(self.value, str):
            text = repr(self.value)
            return text if len(text) <= SHOWN + 2 else text[:SHOWN] + "…" + text[0]
        return shown(self.value)

    def __str__(self) -> str:
        if isinstance(self.value, int) and not isinstance(self.value, bool):
            return shown(self.value)  # a bid of 10**4000 is not echoed whole
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec) if spec else str(self)


def _param(value: object) -> object:
    if isinstance(value, RulesError):  # a rule message inside another (an import's correction)
        return rules_message(value)
    if isinstance(value, Phrase):
        return get_translations().gettext(value)
    if isinstance(value, Card):
        return LocalCard(value)
    return Sent(value)


def _(template: str, /, **params: Any) -> str:
    """``template`` in the request's language, filled in with ``str.format`` (English outside a request)."""
    text = str(get_translations().gettext(template))
    return text.format(**{k: _param(v) for k, v in params.items()}) if params else text


def _n(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The plural form for ``n`` (Russian and Belarusian have three); ``{n}`` is the number."""
    text = str(get_translations().ngettext(singular, plural, n))
    return text.format(n=n, **{k: _param(v) for k, v in params.items()})


def rules_message(error: RulesError) -> str:
    """An engine error's sentence in the request's language, with the same rule number (a sentence
    about a count in the language's form for it: "1 card", "2 карты")."""
    template = error.template
    if isinstance(template, Counted):
        return _n(template.one, template.many, template.n, **error.params)
    return _(template, **error.params)


def error_message(error: Exception) -> str:
    """What a player reads for a refused request: the rule's sentence, or the service's (already translated)."""
    if isinstance(error, RulesError):
        return rules_message(error)
    message = getattr(error, "message", None)
    return message if isinstance(message, str) else str(error)


# -- cards and suits, as players of each language write them -------------------------------------------
#: Suit names standing alone (a trump shown, a heading); the engine's lower-case "spades" Phrases are
#: the words inside its sentences, which some languages decline differently.
SUITS: Mapping[str, str] = {"S": N_("Spades"), "H": N_("Hearts"), "D": N_("Diamonds"), "C": N_("Clubs")}


#: The computer players' levels (bots/), as the pages name them.
BOT_LEVELS: Mapping[str, str] = {"random": N_("random"), "basic": N_("basic"), "strong": N_("strong")}


def bot_level(level: str) -> str:
    """A bot level in the request's language (an unknown one as it is)."""
    return _(BOT_LEVELS[level]) if level in BOT_LEVELS else level


def card_label(card: Card) -> str:
    """``Q♠`` (``Д♠`` in Russian), ``10♥``, ``Hi Bluke``: how a card reads on screen and in messages."""
    if card.is_bluke:
        return _("Hi Bluke") if card.rank == HI_BLUKE_RANK else _("Lo Bluke")
    assert card.suit is not None
    rank = card.label[:-1]
    letters = {
        "J": pgettext("card rank", "J"),
        "Q": pgettext("card rank", "Q"),
        "K": pgettext("card rank", "K"),
        "A": pgettext("card rank", "A"),
    }
    return str(letters.get(rank, rank)) + card.suit.symbol


def spoken_card(card: Card) -> str:
    """``queen of spades`` (``дама пик`` in Russian), ``ten of hearts``, ``Hi Bluke``: a card's name
    in words, for screen readers (the ``aria-label`` of a card drawn at a virtual table).

    The rank is a word of its own and each suit a pattern around it, so that every language can
    decline the rank or the suit as it needs (``туз червей``, ``re di quadri``).
    """
    if card.is_bluke:
        return card_label(card)
    assert card.suit is not None
    ranks = {
        "2": pgettext("card name", "two"),
        "3": pgettext("card name", "three"),
        "4": pgettext("card name", "four"),
        "5": pgettext("card name", "five"),
        "6": pgettext("card name", "six"),
        "7": pgettext("card name", "seven"),
        "8": pgettext("card name", "eight"),
        "9": pgettext("card name", "nine"),
        "T": pgettext("card name", "ten"),
        "J": pgettext("card name", "jack"),
        "Q": pgettext("card name", "queen"),
        "K": pgettext("card name", "king"),
        "A": pgettext("card name", "ace"),
    }
    rank = str(ranks[str(card)[0]])
    if card.suit.value == "S":
        return _("{rank} of spades", rank=rank)
    if card.suit.value == "H":
        return _("{rank} of hearts", rank=rank)
    if card.suit.value == "D":
        return _("{rank} of diamonds", rank=rank)
    return _("{rank} of clubs", rank=rank)


def suit_name(letter: str | None) -> str:
    """``"S"`` → ``Spades`` in the request's language; ``None`` → ``no trump``."""
    return _(SUITS[letter]) if letter is not None and letter in SUITS else _("no trump")


# -- what the page scripts say -------------------------------------------------------------------------
def plural_forms(singular: str, plural: str) -> str | dict[str, str]:
    """A plural message for the page's scripts: its translation for each CLDR plural category, or
    the one sentence when the language says it alike for every count ("сдано карт: {cards}").

    The script picks the category with ``Intl.PluralRules`` (the same CLDR rules Babel uses here);
    a browser without it asks for "one" or "other" only, and "other" is then the form of 5 (Russian
    and Belarusian have no "other" among whole numbers).
    """
    rule = get_locale().plural_form
    forms: dict[str, str] = {}
    for n in range(200):  # every category of our six languages shows up below 200
        forms.setdefault(rule(n), get_translations().ngettext(singular, plural, n))
    forms.setdefault("other", forms[rule(5)])
    return forms if len(set(forms.values())) > 1 else forms[rule(1)]


def script_messages(virtual: bool = False, setup: bool = False) -> dict[str, str | dict[str, str]]:
    """Everything static/app.js writes on a page, in the page's language, on a virtual table's
    pages (``virtual``) what static/virtual.js writes too, and on the new-game form (``setup``)
    what static/setup.js writes (not sent with the scorer's hand screen, whose first load counts).

    Templates use ``{name}`` (Python) or ``%(name)s`` (templates); the scripts fill either. Built
    once per language and process: every page carries it, and the catalogs do not change.
    """
    return _script_messages(current(), virtual, setup)


@functools.cache
def _script_messages(lang: str, virtual: bool, setup: bool) -> dict[str, str | dict[str, str]]:
    """:func:`script_messages` for ``lang``, the language of the request that first asks for it."""
    words: dict[str, str | dict[str, str]] = {
        "bid_for": plural_forms("{total} bid for {n} card", "{total} bid for {n} cards"),
        "to_go": plural_forms("{bid_for} — {n} player to go", "{bid_for} — {n} players to go"),
        "even": _("{bid_for} — even"),
        "over": _("{bid_for} — overbid by {diff}"),
        "under": _("{bid_for} — underbid by {diff}"),
        "to_place": plural_forms("{n} trick still to place", "{n} tricks still to place"),
        "too_many": plural_forms("{n} trick too many", "{n} tricks too many"),
        "placed_rest": _("All tricks are placed — tap 0 for the rest"),
        "placed": plural_forms("The {n} trick is placed", "All {n} tricks are placed"),
        "placed_auto": _("{placed} — {name} gets the rest: {t}"),
        "saving": _("Saving the bids…"),
        "copied": _("Copied"),
        "bid_chip": get_translations().gettext("bid %(bid)s"),  # static/edit.js and static/virtual.js
    }
    if setup:  # the names as templates/_players.html writes them
        words |= {
            "player": get_translations().gettext("Player %(n)s"),
            "move_up": get_translations().gettext("Move player %(n)s up a seat"),
        }
    if not virtual:
        return words
    return words | {
        "play_failed": _("Something went wrong; nothing was played. Tap again."),
        "offline": _(
            "No connection: your tap may not have reached the table. The table will show what it got; tap again only if it is still your turn."
        ),
        "lost": _(
            "No connection: the table as it was last received. It follows the game again by itself when the connection is back."
        ),
        # static/virtual.js, replaying the table's moves
        "sent": _("Done — the table plays on…"),
        "moving": _("The table plays on…"),
        "bot_name": _("Bot {n}"),  # the new-table form: a seat given to a person loses its bot's name
        "no_notify": _("This phone does not allow notifications from this page; its settings can allow them."),
        "seat": _("Seat {seat}"),
        "hand": get_translations().gettext("Hand %(number)s"),
        "bid_by": _("{name} bid {bid}"),
        "plays": _("{name} plays {card}"),
        "you_take": _("You take the trick"),
        "takes": _("{name} takes the trick"),
        "you_take_last": _("You take the trick: the last of hand {number}"),
        "takes_last": _("{name} takes the trick: the last of hand {number}"),
        "your_turn_title": _("● Your turn — {title}"),
        "rank_J": pgettext("card rank", "J"),
        "rank_Q": pgettext("card rank", "Q"),
        "rank_K": pgettext("card rank", "K"),
        "rank_A": pgettext("card rank", "A"),
        "hi": _("Hi"),
        "lo": _("Lo"),
    }


#: In place of a rate or an average of nothing (a player without a complete hand).
NO_FIGURE = "—"


def decimal(value: float, counted: int = 1) -> str:
    """A figure with one decimal as the request's language writes it (``12.8``, ``12,8`` in
    Russian), negative with a true minus sign like every score (figures.py); a dash when it is
    the average of nothing (``counted`` 0). Halves round away from zero, as players round
    (−2.25 is −2.3; Babel's default rounds them to even, −2.2)."""
    if not counted:
        return NO_FIGURE
    with localcontext(rounding=ROUND_HALF_UP):
        return str(format_decimal(value, format="0.0")).replace("-", MINUS)


def percent(rate: float, counted: int = 1, tight: bool = False) -> str:
    """A rate as a whole percent as the request's language writes it (``60%``, ``60 %`` in
    Russian, with a narrow no-break space), or a dash when it is the rate of nothing (``counted``
    0); halves round up, as in :func:`decimal` (1 in 8 is 13%). ``tight``: no space at all, for a
    phone's leaderboard, whose seven columns keep a name of ten letters on its line."""
    if not counted:
        return NO_FIGURE
    with localcontext(rounding=ROUND_HALF_UP):
        return str(format_percent(rate)).replace("\xa0", "" if tight else "\u202f")


def init_app(app: Flask) -> None:
    """Babel with our locale choice; templates get the language, the picker and the translators."""
    babel.init_app(app, locale_selector=select_locale, timezone_selector=select_timezone, default_domain="messages")
    app.after_request(remember)
    app.jinja_env.globals.update(
        languages=LANGUAGES,
        language_url=language_url,
        card_label=card_label,
        suit_name=suit_name,
        say=_,
        script_messages=script_messages,
        bot_level=bot_level,
        format_date=format_date,
        format_datetime=format_datetime,
        phone_zone=select_timezone,
        decimal=decimal,
        percent=percent,
    )

    @app.context_processor
    def language() -> dict[str, Any]:
        return {"lang": current()}
