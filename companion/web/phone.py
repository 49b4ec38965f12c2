"""The phone: the seat's private view and the moves it may make now."""

from __future__ import annotations

import json
from typing import Any

from flask import (
    Blueprint,
    abort,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response

from companion.i18n import current_lang
from companion.tables import Table, TableError
from companion.web import jsonread, unshown
from companion.web.cookies import seat_token
from companion.web.jsonread import Unreadable
from companion.web.picker import parse_chosen
from companion.web.regions import regions
from companion.web.render import choice_stands, viewer_context
from companion.web.responses import (
    refusal_body,
    refusal_response,
    status_of,
    table_or_404,
    tables,
)
from companion.web.security import own_path
from companion.web.services import services

bp = Blueprint("phone", __name__)


def seat_or_none(table: Table) -> int | None:
    return table.seat_of(seat_token(request, table.code))


def seat_or_join(table: Table) -> int:
    """This phone's seat at ``table``; a phone without one is sent to the join page."""
    seat = seat_or_none(table)
    if seat is None:
        abort(redirect(url_for("join.form", code=table.code), code=303))
    return seat


@bp.get("/t/<code>/play")
def play(code: str) -> Response | str:
    table = table_or_404(code)
    seat = seat_or_join(table)
    try:
        chosen = parse_chosen(request.args.get("pick"))
    except Unreadable as unreadable:
        return refusal_response("table.bad-request", detail=str(unreadable))
    except ValueError:
        chosen = {}  # a pick that no longer reads: the picker starts over
    memo = services().caches.memo
    parts = regions(table, seat, chosen=chosen, memo=memo)
    pushed = [part for part in regions(table, seat, memo=memo)
              if part.id in ("picker", "private")] if chosen else None
    page = services().pushes.remember_page((table.code, seat), parts, pushed)
    return render_template("phone/page.html", parts=parts, page=page,
                           seeded=table.row.seed is not None, **viewer_context(table, seat))


@bp.get("/t/<code>/pick")
def pick(code: str) -> Response | str:
    """The next question of the move picker, given the values chosen so far."""
    table, seat = seated(code)
    try:
        chosen = parse_chosen(request.args.get("pick"))
        key = request.args.get("key")
        if key:  # a multi-choice (cards to discard): the ticked items, each a JSON value
            chosen[key[:40]] = [jsonread.loads(item)
                                for item in request.args.getlist("item")[:40]]
    except Unreadable as unreadable:
        return refusal_response("table.bad-request", detail=str(unreadable))
    except ValueError:
        return refusal_response("table.bad-request", detail="pick")
    context = viewer_context(table, seat, chosen=chosen)
    try:
        html = render_template("phone/pick.html", **context)
    except Exception:  # a game's picker that cannot be drawn: the phone says so, and goes on
        unshown.report(table, "region picker", unshown.viewer_name(seat), current_lang())
        html = unshown.region_notice("picker")
    response = make_response(html)
    # The page's address keeps the half-made choice, so a reload comes back to it.
    response.headers["HX-Replace-Url"] = play_url(table.code,
                                                  json.loads(context.get("chosen_json", "{}")))
    return response


def play_url(code: str, chosen: dict[str, Any] | None = None) -> str:
    """The phone's page, with the values picked so far (none: the picker's first question)."""
    if not chosen:
        return url_for("phone.play", code=code)
    return url_for("phone.play", code=code, pick=json.dumps(chosen, separators=(",", ":")))


def live_response(table: Table, seat: int, notice: dict[str, str] | None = None,
                  status: int = 200) -> Response:
    """Every region of this phone, swapped in by the answer itself: the player sees the
    result of their own tap without waiting for the socket, which is then told what this
    phone already shows. Drawn through the pushes' memo: what the mover's answer draws
    first (the board, the log, the status the others share) the pushes reuse."""
    parts = regions(table, seat, notice=notice, memo=services().caches.memo)
    services().pushes.shown(table.code, seat, request.values.get("page"), parts)
    response = make_response("".join(part.html for part in parts))
    response.status_code = status
    response.headers["HX-Replace-Url"] = play_url(table.code)  # the choice is made
    return response


def seated(code: str) -> tuple[Table, int]:
    """The table and this phone's seat; a phone without a seat there is refused."""
    table = table_or_404(code)
    seat = seat_or_none(table)
    if seat is None:
        abort(refusal_response("table.bad-token"))
    return table, seat


def seated_json(code: str, raw: str | None) -> tuple[Table, int, object]:
    """The table, this phone's seat and a JSON parameter; a parameter that does not read is
    refused."""
    table, seat = seated(code)
    try:
        return table, seat, jsonread.loads(raw or "")
    except Unreadable as unreadable:
        abort(refusal_response("table.bad-request", detail=str(unreadable)))
    except ValueError:
        abort(refusal_response("table.bad-move"))


@bp.post("/t/<code>/move")
def move(code: str) -> Response:
    table, seat, submitted = seated_json(code, request.form.get("move"))
    try:
        seq = int(request.form.get("seq", ""))
    except ValueError:
        return refusal_response("table.bad-seq")
    try:
        tables().submit(table, seat, submitted, seq, request.form.get("client_move_id"))
    except TableError as error:
        notice = refusal_body(error.rule, table.row.game, **error.params)
        return live_response(table, seat, notice, status_of(error.rule))
    return live_response(table, seat)


@bp.get("/t/<code>/explain")
def explain(code: str) -> Response | str:
    """Why a card, a stack or a square the phone shows dimmed can't be chosen now: the rule
    it would break, in a sheet at the bottom of the screen, where the finger is. A card at
    rest beside a choice made says how to change it."""
    table, seat = seated(code)
    try:
        chosen = parse_chosen(request.args.get("pick"))
    except Unreadable as unreadable:
        return refusal_response("table.bad-request", detail=str(unreadable))
    except ValueError:
        return refusal_response("table.bad-request", detail="pick")
    error = tables().explain(table, seat, chosen)
    if error is None and choice_stands(table, seat, chosen):
        error = TableError("table.choice-stands")  # changed only once the player asks to
    if error is None:  # the table moved on and it may be chosen now: ask on from there
        return pick(code)
    notice = refusal_body(error.rule, table.row.game, **error.params)
    return make_response(render_template("partials/notice.html", notice=notice, oob=True,
                                         game_id=table.row.game, code=table.code))


@bp.post("/t/<code>/sitting")
def sitting(code: str) -> Response:
    """Where the table screen is from this phone's seat: its pictures of the table turn
    to match what its player sees (The Climbers' map and build steps). A plain form from
    a page of the phone's own names it in ``next``, and is sent back there."""
    table, seat = seated(code)
    try:
        tables().sit(table, seat, request.form.get("screen", ""))
    except TableError as error:
        return refusal_response(error.rule, **error.params)
    back = own_path(request.form.get("next", ""))
    if back.startswith(f"/t/{table.code}/play/"):  # a page of this phone's own: back to it
        return redirect(back, code=303)
    return live_response(table, seat)


@bp.post("/t/<code>/undo")
def undo(code: str) -> Response:
    table, seat = seated(code)
    try:
        tables().undo(table, seat)
    except TableError as error:
        return live_response(table, seat, refusal_body(error.rule, table.row.game,
                                                       **error.params), status_of(error.rule))
    return live_response(table, seat)


@bp.get("/lang/<lang>")
def switch_language(lang: str) -> Response:
    response = redirect(own_path(request.args.get("next", "/")), code=303)
    if lang in ("en", "fr"):
        response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="Lax")
    return response
