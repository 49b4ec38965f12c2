"""Pieces of a table's public pages that a game serves when asked instead of pushing them
(see ``GameSpec.extras``): one step of a long instruction, fetched by its Back and Next
buttons, so no page or push carries every step at once.

The table screen fetches them from its own side of the table; a seated phone fetches them
as its player sits (a page of its own, ``/t/<code>/play/extra/<name>``, or the piece alone
when htmx asks), so any player can read the instructions out from their chair. A step a
phone pages to with its Back and Next is shown on the table screen too, from the screen's
side: the phone leads, the screen follows.

An extra a game names in ``GameSpec.pauses`` is a moment the whole table goes into
together (The Climbers' rebuild of a fallen tower): begun from a seated phone, which
leads it on its page of its own, or from the host's table screen, which shows it on its
board; every move is refused until one of them ends it (``Tables.pause``)."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from companion.i18n import drawing_in
from companion.store import Pause
from companion.tables import Table, TableError
from companion.web.cookies import host_token
from companion.web.phone import seat_or_join, seat_or_none
from companion.web.render import screen_context, viewer_context
from companion.web.responses import refusal_response, table_or_404, tables
from companion.web.services import services

bp = Blueprint("extras", __name__)


def _served(table: Table, name: str) -> str:
    """The game's id when it serves ``name`` now, else a 404."""
    spec = services().games.get(table.row.game)
    if spec is None or name not in spec.extras or table.match.view_for(None) is None:
        abort(404)
    return str(spec.id)


@bp.get("/t/<code>/extra/<name>")
def show(code: str, name: str) -> str:
    table = table_or_404(code)
    game_id = _served(table, name)
    return render_template(f"games/{game_id}/{name}.html", **screen_context(table, False))


@bp.get("/t/<code>/play/extra/<name>")
def phone_show(code: str, name: str) -> Response | str:
    """The piece as a seated phone sees it: a page of its own, or the piece alone for
    htmx (its Back and Next)."""
    table = table_or_404(code)
    game_id = _served(table, name)
    context = viewer_context(table, seat_or_join(table))
    piece = f"games/{game_id}/{name}.html"
    if request.headers.get("HX-Request"):
        if "step" in request.args:
            _followed_on_screens(table, piece)
        return render_template(piece, **context)
    return render_template("phone/extra.html", piece=piece, **context)


def _paused_by(table: Table, name: str) -> str:
    """The clause a move is refused with while the table is in ``name``'s moment (a 404
    when the table's game has no such moment now), and whether the asker may begin or end
    it: a seated phone or the host's table screen (a refusal otherwise)."""
    game_id = _served(table, name)
    rule = services().games[game_id].pauses.get(name)
    if rule is None:
        abort(404)
    if seat_or_none(table) is None and not table.is_host(host_token(request, table.code)):
        abort(refusal_response("table.bad-token"))
    return rule


def _back(table: Table, name: str | None) -> Response:
    """A phone to its page of ``name`` (or to the game), the table screen (its forms say
    ``on=screen``) to its board."""
    if request.form.get("on") == "screen" or seat_or_none(table) is None:
        return redirect(url_for("screen.show", code=table.code), code=303)
    if name is None:
        return redirect(url_for("phone.play", code=table.code), code=303)
    return redirect(url_for("extras.phone_show", code=table.code, name=name), code=303)


@bp.post("/t/<code>/extra/<name>/begin")
def begin(code: str, name: str) -> Response:
    """The whole table goes into ``name``'s moment (already in it: the asker joins it)."""
    table = table_or_404(code)
    rule = _paused_by(table, name)
    try:
        tables().pause(table, Pause(name, rule))
    except TableError as error:
        return refusal_response(error.rule, table.row.game, **error.params)
    return _back(table, name)


@bp.post("/t/<code>/extra/<name>/end")
def end(code: str, name: str) -> Response:
    """The moment ends for everyone, and play goes on where it was."""
    table = table_or_404(code)
    _paused_by(table, name)
    if table.match.paused is not None and table.match.paused.extra == name:
        tables().pause(table, None)
    return _back(table, None)


def _followed_on_screens(table: Table, piece: str) -> None:
    """The step a phone pages to (``?step=``), sent to every table screen of ``table`` in
    its language and from its side, swapped in by the piece's id (its template marks its
    root ``hx-swap-oob`` when ``swap_oob``)."""
    drawn: dict[str, str] = {}
    for conn in services().hub.connections(table.code):
        if conn.seat is not None:
            continue
        if conn.lang not in drawn:
            with drawing_in(conn.lang):
                drawn[conn.lang] = render_template(piece, swap_oob=True,
                                                   **screen_context(table, False))
        with conn.send_lock:
            conn.send(drawn[conn.lang])
