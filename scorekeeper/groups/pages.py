"""HTML pages of groups: create one, join by link, the group's home, a player's page, sharing.

A group link swaps its token for an HttpOnly cookie (``skg_<id>``, path ``/``) and redirects to
the clean address, as game links do (API.md, "Access"); the home page lists the groups whose
cookies this phone holds. The new-game and new-table screens take ``?group=<id>``: their games
then belong to the group, and the new-game screen offers the roster as one-tap chips.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import Blueprint
from flask import flash
from flask import redirect
from flask import render_template
from flask import request
from flask import Response
from flask import url_for
from werkzeug.wrappers import Response as BaseResponse
from wtforms import BooleanField
from wtforms import StringField
from wtforms import TextAreaField

from .. import charts
from .. import games
from .. import limits
from ..engine import RulesError
from ..errors import NotFound
from ..errors import ServiceError
from ..errors import stale_form
from ..extensions import csrf
from ..extensions import PageForm
from ..games import Attach
from ..games import name_key
from ..games import trimmed
from ..i18n import _
from ..i18n import error_message
from ..i18n import N_
from ..models import Game
from ..models import Group
from ..tokens import matches
from ..web import COOKIE_AGE
from ..web import COOKIE_PREFIX
from ..web import cookies_with
from ..web import qr_svg
from ..web import token_cookie
from . import service
from . import stats

bp = Blueprint("groups", __name__)
csrf.exempt(bp)  # every POST validates its own Flask-WTF form (token included), as table pages do

HOME_LIMIT = 20
#: The group's home lists its newest games; "All games" lists every one.
HOME_GAMES = 20
UNTICKED = N_("Nothing was changed: tick the box first, as this cannot be undone.")
OUT_OF_DATE = N_("This page was out of date, so nothing was saved. Check it and tap the button again.")
#: The pages a member reads: the service worker keeps a copy of each one opened, so that it opens
#: without a connection (game pages are kept so too).
READ_PAGES = frozenset({"groups.home", "groups.all_games", "groups.game", "groups.player"})
#: A group forgotten on this phone is named in a cookie of its own for a while (``skgf_<id>``): the
#: home page it lands on then has the service worker drop the group's kept pages (``data-forgotten``).
FORGOTTEN_PREFIX, FORGOTTEN_SECONDS = "skgf_", 10 * 60


class NewGroupForm(PageForm):
    """A group's name and, optionally, its players (one per line or separated by commas)."""

    name = StringField()
    players = TextAreaField()

    def roster(self) -> list[str]:
        text = self.players.data or ""
        return [n for n in (trimmed(part) for line in text.splitlines() for part in line.split(",")) if n]


class PlayerForm(PageForm):
    """Rename a player (``name``; ``was``: the name the page showed), merge them into another
    (``into``, ``confirm`` ticked: it cannot be undone), or take a player who played no game off
    the roster (``remove``)."""

    name = StringField()
    was = StringField()
    into = StringField()
    confirm = BooleanField()
    remove = BooleanField()


class RemoveGameForm(PageForm):
    """Take a game out of the group: ``confirm`` ticked."""

    confirm = BooleanField()


# -- access ----------------------------------------------------------------------------------------
def page_group(group_id: str) -> Group:
    """The group opened with this browser's cookie; 404 without it."""
    return service.open_group(group_id, request.cookies.get(service.GROUP_COOKIE + group_id))


def opens(group_id: str) -> bool:
    """Whether this browser holds the group's link (its cookie)."""
    try:
        page_group(group_id)
    except NotFound:
        return False
    return True


def remember(response: BaseResponse, group_id: str, token: str) -> BaseResponse:
    """Keep a group's token in an HttpOnly cookie that the home page can read."""
    response.set_cookie(service.GROUP_COOKIE + group_id, token, **token_cookie(max_age=COOKIE_AGE))
    return response


@bp.after_request
def private(response: Response) -> Response:
    """A group's pages show its players and scores: no shared cache keeps them. The pages a member
    reads (:data:`READ_PAGES`, a 200 in HTML) may be kept on the phone (``no-cache``: the browser asks
    again online, the service worker keeps a copy for offline use); the rest never (``no-store``): the
    share page (the group link's token), the new-group form, redirects, form answers and errors.
    Security headers: ``web.security_headers``."""
    read = (
        request.method in ("GET", "HEAD")
        and request.endpoint in READ_PAGES
        and response.status_code == 200
        and response.mimetype == "text/html"
    )
    response.headers.setdefault("Cache-Control", "private, no-cache" if read else "private, no-store")
    return response


def opened_groups() -> list[Group]:
    """The groups whose cookies this phone holds (for the home page), newest first."""
    found: list[Group] = []
    for group_id, token in cookies_with((service.GROUP_COOKIE,), HOME_LIMIT):
        try:
            found.append(service.open_group(group_id, token))
        except NotFound:
            continue
    return sorted(found, key=lambda g: g.created_at, reverse=True)


# -- the hook of the new-game and new-table screens --------------------------------------------------
def group_of_request() -> Group | None:
    """The group a new game or table is started in (``group`` in the address or form), if any.

    A group this browser cannot open is a 404: a game must not silently land outside its group.
    """
    group_id = (request.values.get("group") or "").strip()
    return page_group(group_id) if group_id else None


def attach_for_request() -> Attach | None:
    """What the new game's transaction runs to seat its players in the request's group."""
    group = group_of_request()
    return service.seat_players(group.id) if group else None


def names_for_again(game: Game) -> list[str]:
    """The players of "New game with the same players": in the request's group, when the game is
    one of its own, by the roster's names now (a player renamed since is not a new player)."""
    group = group_of_request()
    return service.seat_names(game) if group is not None and group.id == game.group_id else list(game.players)


def pick_chip(form: Any, group: Group | None) -> bool:
    """A chip tapped on the new-game screen (``action=pick-<player id>``): put that name in the
    first empty row, or take it out when it is already there. ``False`` for any other action."""
    action = (form.action.data or "").strip()
    if group is None or not action.startswith("pick-"):
        return False
    player = next((p for p in group.players if p.id == action[5:]), None)
    if player is None:
        return True
    rows, by_key = form.names, service.names_of(group)
    typed = [i for i, entry in enumerate(rows) if by_key.get(name_key(entry.data or "")) is player]
    if typed:
        for i in typed:
            rows[i].data = ""
        return True
    empty = next((i for i, entry in enumerate(rows) if not trimmed(entry.data or "")), None)
    if empty is None and len(rows) < 15:
        rows.append_entry("")
        empty = len(rows) - 1
    if empty is not None:
        rows[empty].data = player.name
    return True


bp.add_app_template_filter(stats.roster, "roster")  # in alphabetical order, as every page lists it


@bp.app_context_processor
def chips() -> dict[str, Any]:
    """``chips(form)``: the roster of the request's group for ``groups/_chips.html``."""

    def roster_chips(form: Any = None) -> dict[str, Any] | None:
        group = group_of_request()
        if group is None:
            return None
        typed: set[str] = set()
        if form is not None:  # a chip is on when its player's name, or a name merged into them, is typed
            by_key = service.names_of(group)
            typed = {by_key[key].id for key in (name_key(e.data or "") for e in form.names) if key in by_key}
        return {"group": group, "players": [(p, p.id in typed) for p in stats.roster(group)]}

    return {"roster_chips": roster_chips}


@bp.app_context_processor
def forgotten() -> dict[str, Any]:
    """``forgotten_groups()``: the addresses of the groups forgotten on this phone a moment ago."""

    def paths() -> list[str]:
        found = cookies_with((FORGOTTEN_PREFIX,), HOME_LIMIT)
        return [url_for("groups.home", group_id=group_id) for group_id, _mark in found]

    return {"forgotten_groups": paths}


# -- pages -------------------------------------------------------------------------------------------
@bp.route("/groups/new", methods=["GET", "POST"])
@limits.creating
def new() -> Any:
    """Name the group and, if you like, its players; the creating phone gets the group's cookie."""
    form = NewGroupForm()
    if request.method == "GET":
        return render_template("groups/new.html", form=form, alert=None)
    if not form.validate_on_submit():
        return render_template("groups/new.html", form=form, alert=stale_form(_(OUT_OF_DATE))), 400
    field = "name"  # what a refusal is about, marked for screen readers
    try:
        service.clean_group_name(form.name.data or "")
        field = "players"
        group, token = service.create_group(form.name.data or "", form.roster())
    except ServiceError as error:
        return render_template("groups/new.html", form=form, alert=error_message(error), field=field), error.status
    response = redirect(url_for(".share", group_id=group.id, new=1))
    return remember(response, group.id, token)


@bp.get("/groups/<group_id>/join/<token>")
def join(group_id: str, token: str) -> Any:
    """Swap a group link's token for a cookie and go to the group's clean address."""
    group = service.open_group(group_id, token)
    response = remember(redirect(url_for(".home", group_id=group.id)), group.id, token)
    if FORGOTTEN_PREFIX + group.id in request.cookies:  # forgotten here a moment ago: its pages are kept again
        response.delete_cookie(FORGOTTEN_PREFIX + group.id, **token_cookie())
    return response


@bp.post("/groups/<group_id>/forget")
def forget(group_id: str) -> Any:
    """Take a group off this phone's list: the cookie goes, the group stays; the home page then has
    the service worker drop the group's kept pages (:data:`FORGOTTEN_PREFIX`)."""
    response = redirect(url_for("pages.home"))
    if PageForm().validate_on_submit():
        if service.GROUP_COOKIE + group_id in request.cookies:  # a group this phone held
            response.set_cookie(FORGOTTEN_PREFIX + group_id, "1", **token_cookie(max_age=FORGOTTEN_SECONDS))
        response.delete_cookie(service.GROUP_COOKIE + group_id, **token_cookie())
    else:
        flash(_(OUT_OF_DATE))
    return response


def game_links(group: Group, played: Iterable[stats.Played]) -> dict[str, str]:
    """Where each of these games opens: its own page when this phone holds its token, else the
    group's read-only copy (the group token opens no game, API.md)."""
    links = {}
    for p in played:
        game = p.game
        held = request.cookies.get(COOKIE_PREFIX + game.id)
        own = held and (matches(held, game.scorer_hash) or matches(held, game.watch_hash))
        links[game.id] = (
            url_for("pages.game", game_id=game.id) if own else url_for(".game", group_id=group.id, game_id=game.id)
        )
    return links


@bp.get("/groups/<group_id>")
def home(group_id: str) -> Any:
    """The group's home: leaderboard, roster, the newest games, new game and new virtual table."""
    group = page_group(group_id)
    season = stats.season(group)
    newest = season.played[:HOME_GAMES]
    return render_template(
        "groups/home.html",
        season=season,
        group=group,
        leaders=season.leaderboard(),
        games=newest,
        links=game_links(group, newest),
    )


@bp.get("/groups/<group_id>/games")
def all_games(group_id: str) -> Any:
    """Every game of the group, newest first, each linked to its scorecard."""
    group = page_group(group_id)
    played = stats.season(group).played
    return render_template("groups/games.html", group=group, games=played, links=game_links(group, played))


@bp.get("/groups/<group_id>/games/<game_id>")
def game(group_id: str, game_id: str) -> Any:
    """A group game's scorecard, read only, for members who do not hold the game's own link."""
    group = page_group(group_id)
    game = service.group_game(group, game_id)
    return render_game(group, game)


def render_game(group: Group, game: Game, alert: str | None = None, status: int = 200) -> Any:
    card = games.scorecard_of(game)
    return render_template(
        "groups/game.html",
        group=group,
        game=game,
        card=card,
        role="watch",
        chart=charts.progression(game.players, card),
        alert=alert,
    ), status


@bp.post("/groups/<group_id>/games/<game_id>")
@limits.changing_groups
def remove_game(group_id: str, game_id: str) -> Any:
    """Take the game out of the group (the box ticked), then back to the group's home."""
    group = page_group(group_id)
    game = service.group_game(group, game_id)
    form = RemoveGameForm()
    if not form.validate_on_submit():
        return render_game(group, game, _(OUT_OF_DATE), 400)
    if not form.confirm.data:
        return render_game(group, game, _(UNTICKED), 400)
    service.remove_game(group.id, game.id)
    flash(_("The game is out of the group: it no longer counts here. Its own links still open it."))
    return redirect(url_for(".home", group_id=group.id), 303)


@bp.get("/groups/<group_id>/players/<player_id>")
def player(group_id: str, player_id: str) -> Any:
    """A player's page: S/O/P over time, rates by cards dealt, bid accuracy, best and worst game,
    head-to-head; and the forms to rename them or merge them into another player."""
    return render_player(page_group(group_id), player_id)


def render_player(
    group: Group, player_id: str, alert: str | None = None, status: int = 200, form: PlayerForm | None = None
) -> Any:
    """A player's page; ``form``: a rename sent and refused, what was typed kept in it (the merge
    and removal forms send no name: the field shows the player's). The refusal stands by the form
    it is ``about`` (``rename``, ``merge`` or ``remove``), which takes the focus."""
    about = None if form is None else "remove" if form.remove.data else "merge" if form.into.data else "rename"
    season = stats.season(group)
    tally = season.tally(player_id)
    if tally is None:
        raise NotFound(_("This group has no such player."))
    best, worst = tally.best_and_worst()
    return render_template(
        "groups/player.html",
        group=group,
        season=season,
        tally=tally,
        best=best,
        worst=worst,
        against=season.against(player_id),
        others=[t.player for t in season.tallies if t is not tally],
        over_time=charts.outcome_rates([a.stats for a in tally.appearances]),
        by_cards=charts.rate_bars(tally.by_cards),
        margins=charts.margin_bars(tally.margins, stats.MARGIN),
        form=form if form and form.name.data is not None else PlayerForm(formdata=None, name=tally.player.name),
        alert=alert,
        about=about,
        links=game_links(group, [a.played for a in (best, worst) if a is not None]),
    ), status


@bp.post("/groups/<group_id>/players/<player_id>")
@limits.changing_groups
def change_player(group_id: str, player_id: str) -> Any:
    """Rename (``name``) or merge into another player (``into``), then back to the page."""
    group = page_group(group_id)
    form = PlayerForm()
    if not form.validate_on_submit():
        return render_player(group, player_id, _(OUT_OF_DATE), 400, form)
    into = (form.into.data or "").strip()
    if into and not form.confirm.data:
        return render_player(group, player_id, _(UNTICKED), 400, form)
    try:
        if form.remove.data:
            service.remove_player(group.id, player_id)
        elif into:
            service.merge(group.id, player_id, into)
        else:
            service.rename(group.id, player_id, form.name.data or "", form.was.data)
    except (RulesError, ServiceError) as error:
        status = error.status if isinstance(error, ServiceError) else 422
        return render_player(page_group(group_id), player_id, error_message(error), status, form)
    if form.remove.data:
        flash(_("Taken off the roster."))
        return redirect(url_for(".home", group_id=group.id), 303)
    if into:
        flash(_("Merged: their games now count for one player."))
        return redirect(url_for(".player", group_id=group.id, player_id=into), 303)
    flash(_("Renamed. Recorded games keep the names they were played with."))
    return redirect(url_for(".player", group_id=group.id, player_id=player_id), 303)


@bp.get("/groups/<group_id>/share")
def share(group_id: str) -> Any:
    """The group's link with its QR code, rebuilt from this phone's own cookie (tokens are stored hashed)."""
    group = page_group(group_id)
    token = request.cookies.get(service.GROUP_COOKIE + group.id, "")
    url = url_for(".join", group_id=group.id, token=token, _external=True)
    qr = qr_svg(url, _("QR code of the group link"), svgclass="qr", omitsize=True)
    return render_template("groups/share.html", group=group, url=url, qr=qr, new=bool(request.args.get("new")))
