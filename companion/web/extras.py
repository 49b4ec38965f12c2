"""Pieces of a table's public pages that a game serves when asked instead of pushing them
(see ``GameSpec.extras``): one step of a long instruction, fetched by its Back and Next
buttons, so no page or push carries every step at once.

The table screen fetches them from its own side of the table; a seated phone fetches them
as its player sits (a page of its own, ``/t/<code>/play/extra/<name>``, or the piece alone
when htmx asks), so any player can read the instructions out from their chair."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from companion.tables import Table
from companion.web.phone import seat_or_none
from companion.web.render import screen_context, viewer_context
from companion.web.responses import table_or_404
from companion.web.services import services

bp = Blueprint("extras", __name__)


def _served(table: Table, name: str) -> str:
    """The game's id when it serves ``name`` now, else a 404."""
    spec = services().games.get(table.row.game)
    if spec is None or name not in spec.extras or table.view_for(None) is None:
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
    seat = seat_or_none(table)
    if seat is None:
        return redirect(url_for("join.form", code=table.code), code=303)
    context = viewer_context(table, seat)
    piece = f"games/{game_id}/{name}.html"
    if request.headers.get("HX-Request"):
        return render_template(piece, **context)
    return render_template("phone/extra.html", piece=piece, **context)
