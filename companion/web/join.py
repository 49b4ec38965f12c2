"""Joining a table from the QR code: a name and a free seat, remembered by a cookie."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from companion.tables import (
    CODE_TYPED_MAX,
    NAME_MAX,
    NAME_TYPED_MAX,
    Table,
    TableError,
    typed_code,
)
from companion.web import waiting
from companion.web.cookies import seat_cookie, seat_token, set_secret_cookie
from companion.web.home import home_page
from companion.web.render import game_name, seats_context
from companion.web.responses import refusal_body, status_of, table_or_404, tables

bp = Blueprint("join", __name__)


@bp.get("/join")
def by_code() -> Response | tuple[str, int]:
    """A code typed on the home page: its table's join page, or the field again with why."""
    typed = request.args.get("code", "")[:CODE_TYPED_MAX]
    code = typed_code(typed)
    table = tables().get(code) if code else None
    if table is not None:
        return redirect(url_for("join.form", code=table.code), code=303)
    notice = refusal_body("table.unknown-table")["message"]
    return home_page(typed, notice), 404


def join_page(table: Table, notice: dict[str, str] | None, name: str = "",
              freed: bool = False) -> str:
    """The seats and the name field; after a refusal, its words and the name as typed."""
    return render_template("join.html", code=table.code, game_name=game_name(table.row.game),
                           game_id=table.row.game, seats=seats_context(table), notice=notice,
                           name=name, freed=freed, name_max=NAME_MAX,
                           name_typed_max=NAME_TYPED_MAX)


@bp.get("/j/<code>")
def form(code: str) -> Response | str:
    table = table_or_404(code)
    token = seat_token(request, table.code)
    if table.seat_of(token) is not None:
        return redirect(url_for("phone.play", code=table.code), code=303)
    # A seat cookie that names no seat: this phone's seat was freed by the host.
    return join_page(table, notice=None, freed=bool(token))


@bp.post("/j/<code>")
def take_seat(code: str) -> Response | tuple[str, int]:
    table = table_or_404(code)
    if table.seat_of(seat_token(request, table.code)) is not None:
        return redirect(url_for("phone.play", code=table.code), code=303)
    raw_seat = request.form.get("seat", "")
    try:
        seat = int(raw_seat) if raw_seat else None
        if seat is not None and 0 <= seat < table.row.players and table.held(seat):
            return waiting.ask(table, request.form.get("name", ""), seat)
        seat, token = tables().join(table, request.form.get("name", ""), seat)
    except ValueError:
        error = TableError("table.no-such-seat", seat=raw_seat[:8])
    except TableError as refused:
        error = refused
    else:
        response = redirect(url_for("phone.play", code=table.code), code=303)
        set_secret_cookie(response, seat_cookie(table.code), token)
        return response
    notice = refusal_body(error.rule, table.row.game, **error.params)
    return join_page(table, notice, name=request.form.get("name", "")[:NAME_TYPED_MAX]), \
        status_of(error.rule)
