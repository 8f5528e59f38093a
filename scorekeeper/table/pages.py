"""HTML pages for table scorekeeping: home, new game, the hand screen, edits, sharing, watching.

Views parse a form, call a service, render. Access is by per-game HttpOnly cookies that
:func:`join` swaps for a link's token (API.md, "Access"). CSRF: this blueprint is exempt from the
app-wide before-request check because every POST here validates its Flask-WTF form, token
included, itself; that lets a missing or stale token re-render the form with the player's input
and a friendly sentence instead of a bare error page (``tests/web/test_pages_security.py`` checks
that every POST route refuses a request without a token).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from flask import Blueprint
from flask import current_app
from flask import flash
from flask import g
from flask import redirect
from flask import render_template
from flask import request
from flask import Response
from flask import session
from flask import url_for
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response as BaseResponse

from .. import games
from .. import limits
from ..charts import progression
from ..engine import dealer_of
from ..engine import draw_for_deal
from ..engine import Rules
from ..engine import RulesError
from ..errors import Conflict
from ..errors import Forbidden
from ..errors import NotFound
from ..errors import ServiceError
from ..errors import stale_form
from ..errors import WATCH_ONLY
from ..extensions import csrf
from ..extensions import db
from ..figures import minus
from ..figures import signed
from ..games import Access
from ..games import trimmed
from ..groups import pages as groups
from ..i18n import _
from ..i18n import error_message
from ..models import Correction
from ..models import Game
from ..tokens import matches
from ..tokens import new_token
from ..tokens import tokens_of_form
from ..web import COOKIE_AGE
from ..web import COOKIE_PREFIX
from ..web import cookie_token
from ..web import cookies_with
from ..web import token_cookie
from ..web import WATCH_PREFIX
from . import screens
from . import service
from .forms import bids_form
from .forms import BidsBase
from .forms import ForgetForm
from .forms import hand_edit_form
from .forms import HandEditBase
from .forms import HandForm
from .forms import MAX_ROWS
from .forms import NewGameForm
from .forms import OUT_OF_DATE
from .forms import tricks_form
from .forms import UndoForm

bp = Blueprint("pages", __name__)
csrf.exempt(bp)

HOME_LIMIT = 30
#: The game cookies the home page reads, and of their games (newest first) how many it opens (a
#: token checked each) to list the first :data:`HOME_LIMIT` it can open.
HOME_COOKIES, HOME_OPENED = 250, 100
#: A forgotten game's tokens are kept aside this long, so that "Forget" can be undone.
FORGOTTEN_PREFIX, UNDO_SECONDS = "skf_", 10 * 60


# -- access ------------------------------------------------------------------------------------
def page_access(game_id: str, write: bool = False) -> Access:
    """Open a game with this browser's cookie; 404 without one, 403 when writing with a watch link."""
    opened = games.open_game(game_id, cookie_token(game_id))
    if write and not opened.can_write:
        raise Forbidden(_(WATCH_ONLY))
    return opened


def remember(response: BaseResponse, game_id: str, token: str, watch: str | None = None) -> BaseResponse:
    """Keep a game's token (and, for the scorer, the watch token) in HttpOnly cookies."""
    response.set_cookie(COOKIE_PREFIX + game_id, token, **token_cookie(max_age=COOKIE_AGE))
    if watch:
        response.set_cookie(WATCH_PREFIX + game_id, watch, **token_cookie(max_age=COOKIE_AGE, path=f"/g/{game_id}/"))
    return response


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


@bp.after_request
def vary(response: Response) -> Response:
    """htmx asks for partials of the same addresses (security headers: ``web.security_headers``)."""
    response.vary.add("HX-Request")
    return response


bp.add_app_template_filter(signed, "signed")
bp.add_app_template_filter(minus, "minus")


@bp.app_context_processor
def helpers() -> dict[str, Any]:
    """Names the table templates use (also available to the virtual-mode templates)."""
    return {
        "trumps": screens.TRUMPS,
        "trump_label": screens.trump_label,
        "trump_of": screens.trump_of,
        "outcome_names": screens.OUTCOMES,
        "bidding_order": screens.bidding_order,
        "bid_for": screens.bid_for,
        "stored_now": screens.stored_now,
        "ago": screens.ago,
        "max_name": games.MAX_NAME,
    }


# -- home and new game -------------------------------------------------------------------------
@bp.get("/")
def home() -> Any:
    """Start a game, or resume one this device has opened (from its per-game cookies)."""
    return home_page()


def home_page(message: str | None = None, status: int = 200) -> Any:
    """The home page: this device's games, newest first, and those just forgotten (to undo)."""
    opened_games: list[Access] = []
    forgotten: list[Access] = []
    # Every game cookie the phone sends (a browser keeps at most 180 for a site), the most recently
    # changed games opened first: the first cookies the browser sends are its oldest.
    held = dict(cookies_with((COOKIE_PREFIX,), HOME_COOKIES))
    newest = (
        db.session.scalars(
            select(Game.id).where(Game.id.in_(held)).order_by(Game.updated_at.desc()).limit(HOME_OPENED)
        ).all()
        if held
        else []
    )
    for game_id in newest:
        try:
            opened_games.append(games.open_game(game_id, held[game_id], hands=False))
        except NotFound:
            continue
    for game_id, token in cookies_with((FORGOTTEN_PREFIX,), 10):
        try:
            forgotten.append(games.open_game(game_id, token.partition(":")[0], hands=False))
        except NotFound:
            continue
    opened_games.sort(key=lambda opened: opened.game.updated_at, reverse=True)
    shown = opened_games[:HOME_LIMIT]  # only these are scored (their hands loaded), for their status lines
    return render_template(
        "home.html",
        games=[(opened, games.scorecard_of(opened.game)) for opened in shown],
        groups=groups.opened_groups(),
        forgotten=forgotten,
        alert=message,
        undo_minutes=UNDO_SECONDS // 60,
    ), status


def again(game: Any, players: list[str]) -> NewGameForm:
    """The set-up of a new game with the same ``players`` (by their names now), rules and options,
    seats rotated so that the player after the last dealer deals first (R5): the deal follows on."""
    rules = games.rules_of(game)
    follows = (games.scorecard_of(game).hands[-1].dealer + 1) % rules.players
    names = players[follows:] + players[:follows]
    return NewGameForm(
        formdata=None,
        data={
            "names": names,
            "variant": game.variant,
            "first_dealer": "0",
            **{k: bool(v) for k, v in game.options.items()},
        },
    )


def render_new(form: NewGameForm, message: str | None = None, status: int = 200) -> Any:
    form.once.data = form.once.data or new_token()
    named = [name for name in (entry.data or "" for entry in form.names) if trimmed(name)]
    sheet = url_for("printing.blank_pdf", players=named if len(named) >= 2 else len(form.names))
    return render_template(
        "new.html", form=form, alert=message, limits=screens.option_limits(), blank_sheet=sheet
    ), status


@bp.route("/new", methods=["GET", "POST"])
@limits.creating
def new_game() -> Any:
    """Set-up on one screen; the creating browser becomes the scorer and sees the share links.

    With ``group=<id>`` the game starts in that group (its roster offered as chips).
    """
    form = NewGameForm()
    if request.method == "GET" and request.args.get("again"):
        before = page_access(request.args["again"]).game
        if before.group_id and "group" not in request.args and groups.opens(before.group_id):
            # the next game of a group's evening counts in the group too, where this phone may open it
            return redirect(url_for(".new_game", again=before.id, group=before.group_id))
        form = again(before, groups.names_for_again(before))
    if request.method == "POST" and (sent := form.rows_sent()) > MAX_ROWS:
        try:  # a hand-made form: the page offers no more rows than a table seats, and so does this answer
            Rules(sent)
        except RulesError as error:
            return render_new(form, error_message(error), 422)
    if request.method == "GET" or form.rearrange() or groups.pick_chip(form, groups.group_of_request()):
        return render_new(form)
    if not form.validate_on_submit():
        return render_new(form, stale_form(_(OUT_OF_DATE)), 400)
    try:
        names, dealer = form.players()
        asked = [names, dealer, form.variant.data or "", form.options()]
        marked = tokens_of_form(form.once.data, str(current_app.config["SECRET_KEY"]).encode(), asked)
        made, tokens = games.made_by_form(marked)
        if made:
            return sent_again(made, tokens)
        draw = draw_for_deal(len(names), secrets.SystemRandom()) if dealer is None else None
        game, scorer, watch = games.create_game(
            names,
            form.variant.data,
            draw.dealer if draw else dealer,
            form.options(),
            attach=groups.attach_for_request(),
            tokens=tokens,
        )
    except IntegrityError:  # the same form sent at the same time made the game first
        made, tokens = games.made_by_form(marked)
        if made:
            return sent_again(made, tokens)
        raise
    except (ValueError, ServiceError) as error:  # RulesError is a ValueError
        return render_new(form, error_message(error), 422)
    if draw:
        session["draw"] = screens.draw_record(game.id, draw)
    response = redirect(url_for(".share", game_id=game.id, new=1))
    return remember(response, game.id, scorer, watch)


def sent_again(game: Game, tokens: tuple[str, ...] | None) -> Any:
    """The answer a new-game form's first send got (lost on its way): the game it made, this phone its scorer."""
    assert tokens is not None
    g.made_before = True  # no second game, so none counted (limits._created)
    return remember(redirect(url_for(".share", game_id=game.id, new=1)), game.id, *tokens)


@bp.get("/g/<game_id>/join/<token>")
def join(game_id: str, token: str) -> Any:
    """Swap a link's token for an HttpOnly cookie and redirect to the clean game URL (API.md).

    A scorer link may carry the watch token (``?w=``) so that every scorer phone can share it.
    A phone that already scores this game is not turned into a watcher by opening the watch link.
    """
    opened = games.open_game(game_id, token)
    response = redirect(url_for("pages.game", game_id=opened.game.id))
    held = cookie_token(game_id)
    if opened.role != "scorer" and held and matches(held, opened.game.scorer_hash):
        return response
    watch = request.args.get("w")
    if opened.role != "scorer" or not matches(watch, opened.game.watch_hash):
        watch = None
    return remember(response, game_id, token, watch)


@bp.post("/g/<game_id>/forget")
def forget(game_id: str) -> Any:
    """Remove a game from this device's list: the cookies go, the game stays.

    The token is kept aside for :data:`UNDO_SECONDS` in a cookie of its own, so that the home
    page can offer to undo: a phone that held the only scorer link could not get it back.
    """
    if not ForgetForm().validate_on_submit():
        flash(_(OUT_OF_DATE))
        return redirect(url_for(".home"))
    response = redirect(url_for(".home"))
    token, watch = cookie_token(game_id), request.cookies.get(WATCH_PREFIX + game_id)
    if token:
        kept = token + (":" + watch if watch else "")
        response.set_cookie(FORGOTTEN_PREFIX + game_id, kept, **token_cookie(max_age=UNDO_SECONDS))
    response.delete_cookie(COOKIE_PREFIX + game_id, **token_cookie())
    response.delete_cookie(WATCH_PREFIX + game_id, **token_cookie(path=f"/g/{game_id}/"))
    return response


@bp.post("/g/<game_id>/forget/undo")
def unforget(game_id: str) -> Any:
    """Bring back a game forgotten a moment ago (its tokens were kept aside, see :func:`forget`)."""
    if not ForgetForm().validate_on_submit():
        return home_page(OUT_OF_DATE, 400)
    token, _, watch = (request.cookies.get(FORGOTTEN_PREFIX + game_id) or "").partition(":")
    opened = games.open_game(game_id, token or None)  # 404 once the undo has expired
    response = redirect(url_for(".home"))
    response.delete_cookie(FORGOTTEN_PREFIX + game_id, **token_cookie())
    return remember(response, opened.game.id, token, watch if opened.can_write and watch else None)


# -- the game page -----------------------------------------------------------------------------
DRAFT = "clash"
#: The game and version this browser's last save made: a form it sends again from an older page
#: (Back, then reload) is not another scorer's doing. Third, the latest correction it knows of.
WROTE = "wrote"


def saved_here(game: Game) -> None:
    """Remember that this browser's save made the game's current version, and the corrections it knows."""
    session[WROTE] = [game.id, game.version, max((c.id for c in game.corrections), default=0)]


def superseded_here(game: Game) -> bool:
    """Whether the game's current version is this browser's own save: a stale form from it is a page
    it has moved on from (Back, then reload or send again), not a clash with another scorer."""
    wrote: list[Any] = session.get(WROTE) or []
    return wrote[:2] == [game.id, game.version]


def changed_elsewhere(game: Game) -> list[screens.Change]:
    """What another phone corrected or took back in this game since this browser saved in it, told
    once. The page says so only without script: the phone's queue tells its own scorer
    (static/queue-rare.js)."""
    wrote = session.get(WROTE)
    if not wrote or wrote[0] != game.id or len(wrote) < 3:
        return []
    since = [c for c in game.corrections if c.id > wrote[2]]
    if since:
        session[WROTE] = [*wrote[:2], since[-1].id]
    return screens.changes(since, game.players)


def older_page(game: Game) -> Any:
    """The answer to a stale form that changes nothing because this phone saved since (what it saved stands)."""
    flash(_("That page was older than what you saved since on this phone, so nothing was changed."))
    return redirect(url_for(".game", game_id=game.id), 303)


def kept_draft(game_id: str) -> screens.Clash | None:
    """This scorer's taps refused because another scorer saved first (409), with what is stored
    now; ``?drop=1`` forgets them. Kept in the signed session until applied or dropped."""
    draft = session.get(DRAFT)
    if not draft or draft.get("game") != game_id:
        return None
    if request.args.get("drop"):
        session.pop(DRAFT)
        return None
    return screens.Clash(draft["number"], draft["step"], draft["values"], draft["trump"], draft.get("here", False))


def render_game(
    opened: Access, panel: screens.HandPanel | None = None, message: str | None = None, status: int = 200
) -> Any:
    """The game page: the current hand (scorer), the creative scorecard, history, or the result."""
    game = opened.game
    rules, card = games.rules_of(game), games.scorecard_of(game)
    current = card.current
    clash = kept_draft(game.id) if opened.can_write and panel is None else None
    if clash and not clash.fits(card):  # e.g. tricks for bids the other scorer has undone
        session.pop(DRAFT)
        clash = None
        message = message or _(
            "Another scorer changed this hand first, so your taps for it have no place now: enter them again."
        )
    if clash:
        panel = screens.hand_panel(
            game,
            card,
            rules,
            clash.number,
            clash.step,
            clash.values,
            clash.trump if clash.step == "bids" else screens.trump_of(card.hands[clash.number - 1]),
            editing=clash.stored(card) is not None,
        )
    if panel is None and opened.can_write and current is not None:
        step = "bids" if current.bids is None else "tricks"
        panel = screens.hand_panel(game, card, rules, current.number, step)
        if step == "bids" and not panel.trump:  # after an undo, the trump that went with the bids
            panel.trump = screens.trump_choice(request.args.get("trump"))
        # after an undo, what it took away, tapped again (:func:`undo`)
        undone = screens.taps(request.args.get("was"), rules.players)
        if undone and request.args.get("hand") == str(current.number):
            panel = screens.hand_panel(game, card, rules, current.number, step, undone, panel.trump)
    latest = max((h.number for h in card.hands if h.bids is not None), default=None)
    # Without entries the undo waits hidden: an entry kept on the phone shows it (static/queue.js).
    undo = UndoForm(formdata=None, version=game.version, number=latest)
    return render_template(
        "game.html",
        game=game,
        card=card,
        rules=rules,
        role=opened.role,
        panel=panel,
        alert=message,
        clash=clash,
        undo=undo,
        latest=card.hands[latest - 1] if latest else None,
        changes=screens.changes(game.corrections, game.players),
        change_count=len(game.corrections),
        elsewhere=changed_elsewhere(game) if opened.can_write else [],
        standings=screens.standings(card, game.players),
        chart=progression(game.players, card) if current is None or not opened.can_write else None,
        offline_doc=screens.offline_state(game, card) if opened.can_write else None,
        offline_words=screens.offline_words() if opened.can_write else None,
        prototypes=[screens.prototype_panel(game, card, rules, step) for step in ("bids", "tricks")]
        if opened.can_write and current is not None
        else [],
        trump_notes=screens.TRUMP_NOTES,
    ), status


@bp.get("/g/<game_id>")
def game(game_id: str) -> Any:
    """The game; htmx polls it with ``?since=<version>`` and gets 204 until something changes."""
    since = request.args.get("since", type=int) if is_htmx() else None
    if since is not None and since == games.version_of(game_id, cookie_token(game_id)):
        return "", 204  # the most frequent answer: the game is read only when it changed
    opened = page_access(game_id)
    if is_htmx():
        card = games.scorecard_of(opened.game)
        return render_template(
            "_live.html",
            game=opened.game,
            card=card,
            role=opened.role,
            changes=screens.changes(opened.game.corrections, opened.game.players),
            change_count=len(opened.game.corrections),
            standings=screens.standings(card, opened.game.players),
            chart=progression(opened.game.players, card) if card.current is None or not opened.can_write else None,
            said=True,
        )
    return render_game(opened)


def render_hand(
    opened: Access,
    number: int,
    form: HandForm,
    errors: dict[int, str] | None = None,
    message: str | None = None,
    status: int = 422,
) -> Any:
    """Show a refused hand form again, with what was tapped and the messages beside the rows."""
    game = opened.game
    rules, card = games.rules_of(game), games.scorecard_of(game)
    current = card.current
    reachable = current.number if current else rules.hand_count
    if not 1 <= number <= reachable or (form.step == "tricks" and card.hands[number - 1].bids is None):
        return render_game(opened, message=message, status=status)
    on_play = current is not None and current.number == number and (current.bids is None) == (form.step == "bids")
    trump = form.trump_choice() if isinstance(form, BidsBase) else screens.trump_of(card.hands[number - 1])
    panel = screens.hand_panel(
        game, card, rules, number, form.step, form.values(), trump, errors, message, editing=not on_play
    )
    if on_play:
        return render_game(opened, panel=panel, status=status)
    return render_edit(opened, number, panel, status=status)


def _save(opened: Access, number: int, form: HandForm, write: Callable[[], Game]) -> Any:
    """Check the form, write whole or not at all, and answer: a redirect, or the form with messages.

    Each row is checked by the engine first, so its message (in the engine's words) shows beside
    that row; what concerns the whole hand (R23's total, R25's order) shows in the docked status.
    """
    game = opened.game
    if not form.validate_on_submit():
        return render_hand(opened, number, form, message=form.problem() or _(OUT_OF_DATE), status=400)
    rules = games.rules_of(game)
    missing = form.missing(game.players)
    errors: dict[int, str] = {}
    if 1 <= number <= rules.hand_count:  # a wrong value first: its message leads, the blank rows follow
        wrong = screens.seat_errors(form.step, rules, number, form.values(), game.players)
        errors = {seat: message for seat, message in wrong.items() if seat not in missing}
        if missing and errors == {} and form.step == "tricks":
            if past := screens.tricks_past_the_deal(rules, number, form.values(), game.players):
                return render_hand(opened, number, form, {}, past)
    if errors or missing:
        dealer = dealer_of(number, game.first_dealer, len(game.players))
        first = screens.first_row(dealer, len(game.players), errors, missing)
        return render_hand(opened, number, form, errors | missing, first)
    editing = any(h.number == number and getattr(h, form.step) is not None for h in game.hands)
    try:
        saved = write()
    except (RulesError, ServiceError) as error:
        stale = isinstance(error, Conflict) or form.version.data != game.version
        if stale and _holds(game, number, form):
            return redirect(url_for(".game", game_id=game.id))  # a double tap: the first one saved this
        if stale:
            # Another scorer saved first (what they saved may be why this was refused, as an undo
            # of the bids refuses their tricks, R25), or this phone did, in another tab or on a page
            # it moved on from. Post/Redirect/Get: this scorer's taps wait in the session beside
            # what is stored, and the browser lands on the game's own address.
            trump = form.trump_choice() if isinstance(form, BidsBase) else ""
            session[DRAFT] = {
                "game": game.id,
                "number": number,
                "step": form.step,
                "values": form.values(),
                "trump": trump,
                "here": superseded_here(game),
            }
            return redirect(url_for(".game", game_id=game.id), 303)
        status = error.status if isinstance(error, ServiceError) else 422
        return render_hand(opened, number, form, message=error_message(error), status=status)
    session.pop(DRAFT, None)
    saved_here(saved)
    if editing:
        corrected(game, number)
    return redirect(url_for(".game", game_id=game.id))


def _holds(game: Game, number: int, form: HandForm) -> bool:
    """Whether the game already holds what the form asks for its step (its trump too; the
    correction page's tricks, or none where none are tapped): a double tap's second send."""
    entry = service.entry_of(game, number)
    if entry is None or getattr(entry, form.step) != form.values():
        return False
    if isinstance(form, HandEditBase):
        tricks = form.tricks_values()
        if entry.tricks != (tricks if any(t is not None for t in tricks) else None):
            return False
    return not isinstance(form, BidsBase) or entry.trump == service.stored_trump(form.trump_value())


def _undone(game: Game, number: int, version: int | None) -> bool:
    """Whether the game's one change since ``version`` is an undo of hand ``number``, which the hand
    still shows (nothing entered since, which writes no correction): a double tap's second send."""
    last = db.session.scalars(
        select(Correction).where(Correction.game_id == game.id).order_by(Correction.id.desc()).limit(1)
    ).first()
    if last is None or last.field != "undo" or last.hand != number or game.version != (version or 0) + 1:
        return False
    entry = service.entry_of(game, number)
    now: dict[str, Any] = {"bids": None, "tricks": None, "trump": None}
    if entry is not None:
        now = {"bids": entry.bids, "tricks": entry.tricks, "trump": entry.trump}
    return bool(now == last.new)


def corrected(game: Game, number: int) -> None:
    """Say hand ``number`` was corrected; that later totals moved too only when there are later hands."""
    if any(h.number > number and h.bids is not None for h in game.hands):
        flash(_("Hand {number} corrected; every later total is recomputed.", number=number))
    else:
        flash(_("Hand {number} corrected.", number=number))


@bp.post("/g/<game_id>/hands/<int:number>/bids")
def save_bids(game_id: str, number: int) -> Any:
    """Record or correct a hand's bids and trump (R22, R25); a double tap stores once."""
    opened = page_access(game_id, write=True)
    form = bids_form(len(opened.game.players))
    return _save(
        opened,
        number,
        form,
        lambda: service.record_bids(game_id, number, form.values(), form.trump_value(), form.version.data),
    )


@bp.post("/g/<game_id>/hands/<int:number>/tricks")
def save_tricks(game_id: str, number: int) -> Any:
    """Record or correct a hand's tricks (R23); the one blank row gets the remainder."""
    opened = page_access(game_id, write=True)
    form, rules = tricks_form(len(opened.game.players)), games.rules_of(opened.game)
    if 1 <= number <= rules.hand_count:
        form.fill_remainder(rules.cards_in_hand(number))
    return _save(opened, number, form, lambda: service.record_tricks(game_id, number, form.values(), form.version.data))


@bp.post("/g/<game_id>/undo")
def undo(game_id: str) -> Any:
    """Undo the latest entry: the latest hand's tricks, else its bids (kept in the history)."""
    opened = page_access(game_id, write=True)
    form = UndoForm()
    if not form.validate_on_submit():
        return render_game(opened, message=form.problem() or _(OUT_OF_DATE), status=400)
    number = form.number.data
    if number is None:  # InputRequired has refused it already
        return render_game(opened, message=OUT_OF_DATE, status=400)
    entry = service.entry_of(opened.game, number)
    had_tricks = entry is not None and entry.tricks is not None
    kept = entry.trump if entry is not None and not had_tricks else None  # goes with the bids
    removed = (entry.tricks if had_tricks else entry.bids) if entry is not None else None
    try:
        saved_here(service.undo(game_id, number, form.version.data, whole_hand=False))
    except Conflict:  # Post/Redirect/Get, as for a refused save
        if _undone(opened.game, number, form.version.data):  # sent twice: the first undid it
            flash(_("That entry of hand {number} is undone already, so nothing more was undone.", number=number))
            return redirect(url_for(".game", game_id=game_id), 303)
        if superseded_here(opened.game):
            return older_page(opened.game)  # sent again: the undo was this phone's, and it stands
        flash(
            _(
                "Another scorer saved a change first, so nothing was undone: check the scorecard and undo again if needed."
            )
        )
        return redirect(url_for(".game", game_id=game_id), 303)
    except (RulesError, ServiceError) as error:
        return render_game(opened, message=error_message(error), status=getattr(error, "status", 422))
    # The hand screen shows what was undone still tapped (and the trump that went with the bids):
    # saving puts it back, so a stray tap on Undo costs one more tap, not the whole entry again.
    was = ",".join(str(v) for v in removed) if removed else None
    if kept:
        flash(
            _(
                "Undone: the bids of hand {number}. They are still tapped below, with the trump, {trump}: change what was wrong and save.",
                number=number,
                trump=screens.trump_label(kept),
            )
        )
    elif had_tricks:
        flash(
            _(
                "Undone: the tricks of hand {number}. They are still tapped below: change what was wrong and record.",
                number=number,
            )
        )
    else:
        flash(
            _(
                "Undone: the bids of hand {number}. They are still tapped below: change what was wrong and save.",
                number=number,
            )
        )
    return redirect(url_for(".game", game_id=game_id, trump=kept, hand=number if was else None, was=was))


@bp.get("/g/<game_id>/hands/<int:number>/<any(bids, tricks):step>")
@bp.get("/g/<game_id>/undo")
def form_address(game_id: str, **_: Any) -> Any:
    """A form's own address opened with GET (a reload or Back after a refused save): the game."""
    return redirect(url_for(".game", game_id=game_id), 303)


# -- editing an earlier hand -------------------------------------------------------------------
def render_edit(
    opened: Access, number: int, *panels: screens.HandPanel | None, status: int = 200, message: str | None = None
) -> Any:
    """The correction page of hand ``number``: its bids and (once bids exist) tricks in one form,
    filled in with what is stored, or with what was sent when ``panels`` re-render a refused save."""
    game = opened.game
    rules, card = games.rules_of(game), games.scorecard_of(game)
    reached = card.current.number if card.current else rules.hand_count
    if not 1 <= number <= reached:
        raise NotFound(
            _("Hand {number} cannot be edited: hands 1 to {reached} have been reached.", number=number, reached=reached)
        )
    line = card.hands[number - 1]
    given = {panel.step: panel for panel in panels if panel}
    bids = given.get("bids") or screens.hand_panel(game, card, rules, number, "bids", editing=True)
    tricks = given.get("tricks")
    if tricks is None and line.bids is not None:
        tricks = screens.hand_panel(game, card, rules, number, "tricks", editing=True)
    form = UndoForm(formdata=None, version=game.version, number=number)  # only its version and CSRF token
    return render_template(
        "hand.html",
        game=game,
        card=card,
        line=line,
        bids=bids,
        tricks=tricks,
        form=form,
        role=opened.role,
        alert=message,
    ), status


@bp.get("/g/<game_id>/hands/<int:number>")
def edit_hand(game_id: str, number: int) -> Any:
    """Correct an earlier hand: its bids and tricks, pre-filled, saved together."""
    return render_edit(page_access(game_id, write=True), number)


@bp.post("/g/<game_id>/hands/<int:number>")
def save_hand(game_id: str, number: int) -> Any:
    """Save a corrected hand with one button: bids, trump and tricks in one transaction.

    The tricks are saved with the bids once the hand has tricks (or some are tapped); a hand
    still being played may have only its bids corrected. Each row's message is the engine's.
    """
    opened = page_access(game_id, write=True)
    game = opened.game
    rules, card = games.rules_of(game), games.scorecard_of(game)
    form = hand_edit_form(len(game.players))
    names = game.players
    outside = ""  # the engine's sentence for a hand the schedule does not have (R24)
    try:
        rules.cards_in_hand(number)
    except RulesError as error:
        outside = error_message(error)
    line = None if outside else card.hands[number - 1]

    def again(
        message: str,
        status: int,
        bid_errors: dict[int, str] | None = None,
        trick_errors: dict[int, str] | None = None,
        tricks_shown: list[int | None] | None = None,
    ) -> Any:
        if line is None:
            return render_edit(opened, number, status=status, message=message)
        bids = screens.hand_panel(
            game, card, rules, number, "bids", form.values(), form.trump_choice(), bid_errors, editing=True
        )
        shown = tricks_shown or form.tricks_values()
        tapped = form.values()  # the tricks scored against the bids above them, when every one is tapped
        against = tapped if all(isinstance(bid, int) for bid in tapped) else None
        tricks = (
            screens.hand_panel(
                game, card, rules, number, "tricks", shown, line.trump or "", trick_errors, editing=True, bids=against
            )
            if line.bids is not None
            else None
        )
        return render_edit(opened, number, bids, tricks, status=status, message=message)

    if not form.validate_on_submit():
        return again(form.problem() or OUT_OF_DATE, 400)
    if line is None:
        return again(outside, 422)
    tapped_tricks = any(v is not None for v in form.tricks_values())
    if line.tricks is not None and not tapped_tricks and form.version.data != game.version:
        # The page was drawn before the tricks were recorded (on another phone, or later on this one):
        # show them, with the bids tapped here, to save together (not a rule error over unseen tricks).
        return again(screens.saved_first(line, names, superseded_here(game)), 409, tricks_shown=list(line.tricks))
    with_tricks = line.tricks is not None or tapped_tricks
    bid_errors = form.missing(names) or screens.seat_errors("bids", rules, number, form.values(), names)
    trick_errors: dict[int, str] = {}
    if with_tricks:
        form.fill_remainder(line.cards)  # as the hand's own tricks step does (R23)
        trick_errors = form.missing_tricks(names) or screens.seat_errors(
            "tricks", rules, number, form.tricks_values(), names
        )
    if bid_errors or trick_errors:
        first = screens.first_row(line.dealer, len(names), bid_errors, trick_errors)
        return again(first, 422, bid_errors, trick_errors)
    before = game.version
    try:
        if with_tricks:
            saved = service.record_hand(
                game_id, number, form.values(), form.trump_value(), form.tricks_values(), form.version.data
            )
        else:
            saved = service.record_bids(game_id, number, form.values(), form.trump_value(), form.version.data)
    except Conflict:
        # Another scorer saved first (or this phone, from a later page): this page again, with what
        # is stored and the new version, and these taps kept to check and save again (as a refused hand form).
        db.session.expire_all()  # the game reads afresh; its set-up (the rules) cannot change
        if _holds(game, number, form):
            return redirect(url_for(".game", game_id=game_id))  # a double tap: the first one saved this
        card = games.scorecard_of(game)
        line = card.hands[number - 1]
        return again(screens.saved_first(line, names, superseded_here(game)), 409)
    except (RulesError, ServiceError) as error:
        return again(error_message(error), error.status if isinstance(error, ServiceError) else 422)
    saved_here(saved)
    if saved.version != before and line.bids is not None:  # a first entry, or no change, corrects nothing
        corrected(game, number)
    return redirect(url_for(".game", game_id=game_id))


# -- sharing -----------------------------------------------------------------------------------
@bp.get("/g/<game_id>/share")
def share(game_id: str) -> Any:
    """The scorer and watch links with QR codes: the scorer sees both, a watcher the watch link.

    Tokens are stored hashed, so the links are rebuilt from this browser's own cookies (each
    checked against its hash) and never stored in plain anywhere else.
    """
    opened = page_access(game_id)
    game, token = opened.game, cookie_token(game_id) or ""
    watch = token if opened.role == "watch" else request.cookies.get(WATCH_PREFIX + game_id)
    if watch and not matches(watch, game.watch_hash):
        watch = None
    links = screens.share_links(game.id, token if opened.can_write else None, watch)
    record = session.get("draw") if request.args.get("new") else None
    response = Response(
        render_template(
            "share.html",
            game=game,
            role=opened.role,
            links=links,
            draw=screens.drawn(record, game),
            new=bool(request.args.get("new")),
        )
    )
    response.headers["Cache-Control"] = "no-store"
    return response
